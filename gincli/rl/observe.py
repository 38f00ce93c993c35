"""What a seat observes, as numbers: card planes and a few facts of the hand,
built from what that seat may legally know and nothing else: its
:class:`~gincli.hand.view.PlayerView` (:meth:`Encoder.observation`: nothing
hidden can leak, since the view holds nothing hidden), or the same public
facts as card masks (:func:`encode`, which the environments' fast paths call;
tests/test_rl_fast.py holds the two to each other). docs/rl.md lists every
index.

The observation is a flat ``float32`` vector of :data:`OBSERVATION_SIZE`:
seven planes of 52 cards (card ``c`` at ``52 * plane + c``, cards as gincli
numbers them, ``suit * 13 + rank``), then the phase (one-hot), the knock limit
(one-hot, 0 to 10, the last also for more) and the share of the stock left."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from ..hand.view import PlayerView
from .compiled import STDPLAY

#: The card planes, in order.
PLANES = ("hand", "discard_top", "pile", "opponent_took", "opponent_refused", "my_discards", "unknown")
#: The phases, in order: ``answer`` while a move set waits for this seat's
#: answer (a double offered), ``over`` once the hand has ended.
PHASES = ("offer", "draw", "discard", "answer", "over")
PHASE_AT = 52 * len(PLANES)
KNOCK_LIMIT_AT = PHASE_AT + len(PHASES)
#: The knock limits told apart (0 is gin only); a limit above the last counts as it.
KNOCK_LIMITS = 11
STOCK_AT = KNOCK_LIMIT_AT + KNOCK_LIMITS
OBSERVATION_SIZE = STOCK_AT + 1
#: The stock after the deal: what ``stock_count`` is divided by.
FULL_STOCK = 31
#: What ``normalize=True`` divides the rewards by: a hundred points are 1.
REWARD_SCALE = 100.0

#: Each phase of the hand engine by its index in :data:`PHASES` (``answer`` is a move set's to say).
PHASE_INDEX = {"offer": 0, "draw": 1, "discard": 2, "spread": 4, "over": 4}
_BIT = tuple(1 << c for c in range(52))
_ALL = (1 << 52) - 1
#: Each 13-bit pattern of one suit's cards as its 13 plane entries (float32 bytes).
_SUIT_BYTES = [row.tobytes() for row in ((np.arange(8192)[:, None] >> np.arange(13)) & 1).astype(np.float32)]


class Encoder:
    """Builds observations for one set of rules (its move sets decide whether
    an answer is due)."""

    def __init__(self, movesets: tuple[Any, ...] = ()):
        self._answers = tuple(movesets)

    def observation(self, view: PlayerView) -> np.ndarray:
        """The observation of ``view``'s seat, a new array each call (a learner may keep it)."""
        bit = _BIT
        pile = view.discard_pile
        took = 0
        for c in view.opponent_took:  # a card may be taken twice: or, not sum
            took |= bit[c]
        mine = 0
        for c in view.my_discards:
            mine |= bit[c]
        theirs = 0
        for c in view.opponent_discards:
            theirs |= bit[c]
        phase = PHASE_INDEX.get(view.phase, 4)
        if phase < 2 and self._answers and any(ms.checked_answer_due(view) for ms in self._answers):
            phase = 3
        return encode(view.hand, pile[-1] if pile else -1,
                      sum(map(bit.__getitem__, pile)),  # distinct cards: a sum of their bits is their mask
                      took, mine, theirs, bit[view.upcard] if view.opponent in view.passes else 0, phase,
                      view.knock_limit, view.stock_count)


def encode_python(hand: int, top: int, on_pile: int, took: int, mine: int, theirs: int, passed: int, phase: int,
                  knock_limit: int, stock_count: int) -> np.ndarray:
    """The observation of a seat from what it may know, as card masks: its
    ``hand``, the pile's ``top`` card (-1 for none) and all its cards
    (``on_pile``), the cards the opponent ``took`` from the pile, those the seat
    discarded (``mine``) and the opponent did (``theirs``), the first upcard if
    the opponent ``passed`` it (its bit, else 0); the index of the phase in
    :data:`PHASES`, the knock limit and the cards left in the stock. The one
    place the layout lives (docs/rl.md); a new array each call."""
    top_bit = _BIT[top] if top >= 0 else 0
    holds = took & ~on_pile & ~hand  # a card taken from the pile is in a hand or back on the pile
    refused = mine & ~took | theirs | passed
    unknown = _ALL & ~(hand | on_pile | holds)
    # Made as bytes, 13 cards at a time from a table, then one array: numpy's cost is per call.
    suit = _SUIT_BYTES
    return np.frombuffer(b"".join([suit[m & 0x1FFF] + suit[m >> 13 & 0x1FFF] + suit[m >> 26 & 0x1FFF]
                                   + suit[m >> 39]
                                   for m in (hand, top_bit, on_pile & ~top_bit, holds, refused, mine, unknown)])
                         + _tail(phase, min(knock_limit, KNOCK_LIMITS - 1), stock_count),
                         np.float32).copy()


def _encode_compiled(hand: int, top: int, on_pile: int, took: int, mine: int, theirs: int, passed: int, phase: int,
                     knock_limit: int, stock_count: int) -> np.ndarray:
    out = np.empty(OBSERVATION_SIZE, np.float32)
    STDPLAY.observe(out, hand, top, on_pile, took, mine, theirs, passed, phase, knock_limit, stock_count)  # type: ignore[union-attr]
    return out


#: :func:`encode_python`, compiled where it was built (:mod:`.compiled`: the same numbers).
encode = encode_python if STDPLAY is None else _encode_compiled


@functools.cache
def _tail(phase: int, knock_limit: int, stock_count: int) -> bytes:
    """The entries after the card planes, as bytes (a few hundred kinds)."""
    tail = np.zeros(OBSERVATION_SIZE - PHASE_AT, np.float32)
    tail[phase] = 1.0
    tail[KNOCK_LIMIT_AT - PHASE_AT + knock_limit] = 1.0
    tail[STOCK_AT - PHASE_AT] = stock_count / FULL_STOCK
    return tail.tobytes()
