"""One hand being played: moves (:mod:`.moves`), the seat's view of a hand,
all a player may know (:mod:`.view`), the hand engine, a state machine that
takes moves and refuses what the rules forbid (:mod:`.engine`), the moves a
plugin adds with their rules (:mod:`.moveset`, called by the engine and the
views through the checked methods of each move set), and the bot interface,
what chooses a seat's moves from its view (:mod:`.bots`).

It may import :mod:`gincli.base` and :mod:`gincli.rulebook`.
"""
