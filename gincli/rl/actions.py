"""The action ids: one fixed, documented id for every move of the rule book
and of doubling, then the moves other move sets add (docs/rl.md has the
table). The one place where a :class:`~gincli.hand.moves.Move` becomes an id
and an id a move; the mask is built from the hand's own legal moves
(:meth:`PlayerView.legal <gincli.hand.view.PlayerView.legal>`), so that the
rules stay in one place and a move set's ``forbids`` is obeyed here too; with
no move set in play, from the rule book's moves as masks
(:func:`~gincli.hand.view.standard_choices`, which ``legal()`` reads too)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..hand.moves import Move
from ..hand.view import MAY_DRAW_STOCK, MAY_GO_BIG_GIN, MAY_PASS, MAY_TAKE
from ..rulebook.cards import CARD_NAMES
from .compiled import STDPLAY

STOCK, TAKE, PASS = 0, 1, 2
#: ``DISCARD + card``: discard that card (cards as gincli numbers them: ``suit * 13 + rank``).
DISCARD = 3
#: ``KNOCK + card``: knock (or go gin) discarding that card face down.
KNOCK = DISCARD + 52
#: Go out without discarding: big gin, where the rules have it.
GIN = KNOCK + 52
#: Doubling's moves (RULES.md "Doubling"): offer to double, accept, decline.
DOUBLE, ACCEPT, DECLINE = GIN + 1, GIN + 2, GIN + 3
#: How many ids every table has; a move set's own moves come after them.
FIXED_ACTIONS = DECLINE + 1

_FIXED_NAMED = {"double": DOUBLE, "accept": ACCEPT, "decline": DECLINE}

#: The ids 0 to 2 (stock, take, pass) as mask bytes, by standard_choices' bits.
_HEAD = [bytes([bool(f & MAY_DRAW_STOCK), bool(f & MAY_TAKE), bool(f & MAY_PASS)]) for f in range(8)]
#: Each 13-bit pattern of one suit's cards as its 13 mask bytes.
_SUIT_MASK = [bytes((m >> r) & 1 for r in range(13)) for m in range(8192)]


class ActionTable:
    """The ids of one set of rules: the fixed ones, then the actions of the move
    sets these rules play with (``rules.movesets``, in the order their plugins
    registered them), one id an action, doubling's excepted (they have theirs).
    ``size`` is the number of ids, the ``Discrete`` action space's ``n``."""

    def __init__(self, movesets: Sequence[Any] = ()):
        extra: list[str] = []
        for ms in movesets:
            extra += [a for a in ms.actions if a not in _FIXED_NAMED and a not in extra]
        #: The actions move sets add, by their id's offset from :data:`FIXED_ACTIONS`.
        self.extra = tuple(extra)
        self._extra_ids = {a: FIXED_ACTIONS + i for i, a in enumerate(extra)}
        self.size = FIXED_ACTIONS + len(extra)
        self._after_gin = bytes(self.size - GIN - 1)  # the mask's ids after big gin's, none of them the rule book's

    def id_of(self, move: Move) -> int:
        """The id of a move a seat may make (never the defender's spread: gincli chooses it)."""
        action = move.action
        if action == "discard":
            return DISCARD + move.card  # type: ignore[operator]
        if action == "draw":
            return STOCK if move.source == "stock" else TAKE
        if action == "knock":
            return GIN if move.card is None else KNOCK + move.card
        if action == "pass":
            return PASS
        found = _FIXED_NAMED.get(action)
        if found is None:
            found = self._extra_ids.get(action)
        if found is None:
            raise ValueError(f"the move {action} has no action id in this table")
        return found

    def legal(self, moves: Sequence[Move]) -> tuple[np.ndarray, dict[int, Move]]:
        """The mask of ``moves`` (an ``int8`` 1 for each legal id) and the move
        each legal id plays. Where a move set offers several moves of one action
        (fields of their own), the id plays the first of them."""
        mask = np.zeros(self.size, np.int8)
        by_id: dict[int, Move] = {}
        for m in moves:
            action = m.action  # the common moves first, without a call
            if action == "discard":
                i = DISCARD + m.card  # type: ignore[operator]
            elif action == "knock" and m.card is not None:
                i = KNOCK + m.card
            elif action == "draw":
                i = STOCK if m.source == "stock" else TAKE
            else:
                i = self.id_of(m)
            if i not in by_id:
                by_id[i] = m
        if by_id:
            mask[list(by_id)] = 1
        return mask, by_id

    def mask_of(self, flags: int, discards: int, knocks: int) -> np.ndarray:
        """The mask of the rule book's moves alone, as
        :func:`~gincli.hand.view.standard_choices` gives them (no move set in
        play): a new array, compiled where it was built (:mod:`.compiled`)."""
        if STDPLAY is not None:
            out = np.empty(self.size, np.int8)
            STDPLAY.mask(out, flags, discards, knocks)
            return out
        return self.mask_of_python(flags, discards, knocks)

    def mask_of_python(self, flags: int, discards: int, knocks: int) -> np.ndarray:
        """:meth:`mask_of` in Python (read-only: the caller copies it)."""
        suit = _SUIT_MASK
        return np.frombuffer(_HEAD[flags & 7]
                             + suit[discards & 0x1FFF] + suit[discards >> 13 & 0x1FFF] + suit[discards >> 26 & 0x1FFF]
                             + suit[discards >> 39]
                             + suit[knocks & 0x1FFF] + suit[knocks >> 13 & 0x1FFF] + suit[knocks >> 26 & 0x1FFF]
                             + suit[knocks >> 39]
                             + (b"\1" if flags & MAY_GO_BIG_GIN else b"\0") + self._after_gin, np.int8)

    def standard_move(self, action: int, player: str) -> Move | None:
        """The rule book's move of the id ``action`` for ``player`` (the inverse of
        :meth:`id_of`), or None for doubling's ids and a move set's."""
        if action >= DISCARD:
            if action < KNOCK:
                return Move(player, "discard", None, action - DISCARD)
            if action < GIN:
                return Move(player, "knock", None, action - KNOCK)
            return Move(player, "knock") if action == GIN else None
        if action == STOCK:
            return Move(player, "draw", "stock")
        return Move(player, "draw", "discard") if action == TAKE else Move(player, "pass")

    def describe(self, action: int) -> str:
        """An id in words (``discard 7h``, ``knock with Kc``), for messages and docs."""
        if action == STOCK:
            return "draw from the stock"
        if action == TAKE:
            return "take the discard"
        if action == PASS:
            return "pass the first upcard"
        if DISCARD <= action < KNOCK:
            return f"discard {CARD_NAMES[action - DISCARD]}"
        if KNOCK <= action < GIN:
            return f"knock with {CARD_NAMES[action - KNOCK]}"
        if action == GIN:
            return "go out without a discard (big gin)"
        for name, i in _FIXED_NAMED.items():
            if action == i:
                return name
        if FIXED_ACTIONS <= action < self.size:
            return self.extra[action - FIXED_ACTIONS]
        return f"the id {action}, which is not one of this table's {self.size}"
