"""One hand being played: moves (:mod:`.moves`), the seat's view of a hand,
all a player may know (:mod:`.view`), the hand engine, a state machine that
takes moves and refuses what the rules forbid (:mod:`.engine`), the moves a
plugin adds with their rules (:mod:`.moveset`, called by the engine and the
views through the checked methods of each move set), the bot interface,
what chooses a seat's moves from its view (:mod:`.bots`), and play-outs, hands
played to their end from a position by a cheap policy, for the built-in bots'
search (:mod:`.playout`, with its optional compiled module).

It may import :mod:`gincli.base` and :mod:`gincli.rulebook`.
"""
