"""What a seat observes, as numbers: card planes and a few facts of the hand,
built from the seat's :class:`~gincli.hand.view.PlayerView` alone (what that
seat may legally know, and nothing else: nothing hidden can leak, since the
view holds nothing hidden). docs/rl.md lists every index.

The observation is a flat ``float32`` vector of :data:`OBSERVATION_SIZE`:
seven planes of 52 cards (card ``c`` at ``52 * plane + c``, cards as gincli
numbers them, ``suit * 13 + rank``), then the phase (one-hot), the knock limit
(one-hot, 0 to 10, the last also for more) and the share of the stock left."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..hand.view import PlayerView

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

_PHASE_INDEX = {"offer": 0, "draw": 1, "discard": 2, "spread": 4, "over": 4}
_BITS = np.arange(52, dtype=np.uint64)


class Encoder:
    """Builds observations for one set of rules (its move sets decide whether
    an answer is due)."""

    def __init__(self, movesets: tuple[Any, ...] = ()):
        self._answers = tuple(movesets)

    def observation(self, view: PlayerView) -> np.ndarray:
        """The observation of ``view``'s seat, a new array each call (a learner may keep it)."""
        hand = view.hand
        pile = view.discard_pile
        top = 1 << pile[-1] if pile else 0
        below = 0
        for c in pile:
            below |= 1 << c
        on_pile = below
        below &= ~top
        took = 0
        for c in view.opponent_took:
            took |= 1 << c
        mine = 0
        for c in view.my_discards:
            mine |= 1 << c
        refused = 0
        for c in view.opponent_discards:
            refused |= 1 << c
        refused |= mine & ~took
        if view.opponent in view.passes:
            refused |= 1 << view.upcard
        holds = took & ~on_pile & ~hand  # a card taken from the pile is in a hand or back on the pile
        unknown = ((1 << 52) - 1) & ~(hand | on_pile | holds)
        masks = np.array((hand, top, below, holds, refused, mine, unknown), dtype=np.uint64)
        out = np.empty(OBSERVATION_SIZE, np.float32)
        out[:PHASE_AT] = ((masks[:, None] >> _BITS) & 1).reshape(-1)
        out[PHASE_AT:] = 0.0
        phase = _PHASE_INDEX.get(view.phase, 4)
        if phase < 2 and self._answers and any(ms.checked_answer_due(view) for ms in self._answers):
            phase = 3
        out[PHASE_AT + phase] = 1.0
        out[KNOCK_LIMIT_AT + min(view.knock_limit, KNOCK_LIMITS - 1)] = 1.0
        out[STOCK_AT] = view.stock_count / FULL_STOCK
        return out
