"""The compiled play of gincli.rl under the rule book's rules (``_stdplay.c``, built where a C
compiler is): the numbers of hand/view.py's standard_choices, actions.py's mask_of,
observe.py's encode, and hands played side by side for vector.py."""

from typing import Any

OBSERVATION_SIZE: int
MAX_HAND_MOVES: int
KNOCKED: int
WALLED: int
FORFEITED: int
STALLED: int

def choices(phase: int, held: int, taken: int, knock_limit: int, big_gin: bool, must_draw_stock: bool, pile: bool,
            stock_count: int, /) -> tuple[int, int, int]:
    """standard_choices under the standard melds, the phase as its index in PHASES."""

def mask(out: Any, flags: int, discards: int, knocks: int, /) -> None:
    """mask_of's mask, written into ``out`` (int8, every id of the table)."""

def observe(out: Any, hand: int, top: int, on_pile: int, took: int, mine: int, theirs: int, passed: int,
            phase: int, knock_limit: int, stock_count: int, /) -> None:
    """encode's observation, written into ``out`` (float32, OBSERVATION_SIZE)."""

class Batch:
    """``n`` hands of the rule book's rules played side by side, ``size`` action ids a mask."""

    def __init__(self, n: int, size: int) -> None: ...
    def deal(self, i: int, hand0: int, hand1: int, upcard: int, stock: bytes, dealer: int, knock_limit: int,
             big_gin: bool, obs_row: Any, mask_row: Any, /) -> int:
        """Deal game ``i`` (the stock's top last); its seat to act, mask and observation written."""
    def step(self, actions: Any, obs: Any, masks: Any, to_act: Any, ended: Any, /) -> int:
        """Each game's seat to act plays its action; how many hands ended (-1 - the first game
        whose action is no id of the table: then nothing is played)."""
    def play(self, i: int, action: int, obs_row: Any, mask_row: Any, /) -> int:
        """Game ``i``'s seat to act plays ``action``: the seat to act next, its observation and mask
        written, or -how when the hand ended."""
    def observe(self, i: int, seat: int, obs_row: Any, /) -> None:
        """What ``seat`` of game ``i`` observes now."""
    def ending(self, i: int, /) -> tuple[int, int, int, int, int]:
        """Game ``i``'s hands as its hand ended, how it ended, the seat that ended it, the refused action."""
