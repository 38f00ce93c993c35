"""Sessions: the scoring systems that settle hands into games and matches,
and decide who plays each hand (:mod:`.systems`), and the table that deals a
whole session hand after hand and writes its transcript (:mod:`.table`). Every
hand is a two-player hand; a session seats two, three or four players.

It may import the base, the rule book, the hand and the formats.
"""
