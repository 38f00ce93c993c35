"""A hand to step through, for search and learning: :func:`new_hand` deals a
:class:`GameHand`, the public face of the engine every command plays with
(:class:`gincli.hand.engine.Hand`). Views and moves are the bot protocol's
dicts (docs/bot-protocol.md), so that what a search explores is what a bot
sees and answers."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base.arguments import KEYWORDS
from ..base.errors import UsageError, quote
from ..hand.engine import SPREAD, Hand
from ..hand.moves import IllegalMove, Move
from ..matches.external.protocol import legal_json, view_to_json
from ..work.deal import deal_table
from .calls import _deal_arguments, _registry_with


class GameHand:
    """One hand of gin rummy, move by move: :attr:`to_act`, :attr:`phase`,
    :meth:`view` and :meth:`legal` of the seat to act, :meth:`apply` a move,
    :meth:`copy` the state, :attr:`result` once it is :attr:`over`.

    After a knock, gincli chooses the defender's spread and layoffs (the best
    for the defender), as in every match: the hand is then over. An illegal
    move raises :class:`gincli.IllegalMove` (its ``rule`` the stable id of
    docs/validate.md) and leaves the hand as it was."""

    def __init__(self, hand: Hand):
        #: The engine's hand itself (:class:`gincli.hand.engine.Hand`).
        self.engine = hand

    @property
    def players(self) -> tuple[str, ...]:
        """The two players, in the order they were named."""
        return self.engine.players

    @property
    def dealer(self) -> str:
        """Who dealt (the other, the non-dealer, acts first)."""
        return self.engine.dealer

    @property
    def to_act(self) -> str | None:
        """Whose turn it is; None once the hand is over."""
        return None if self.engine.over else self.engine.to_act

    @property
    def phase(self) -> str:
        """``offer`` (the first upcard), ``draw``, ``discard`` (or knock), or ``over``."""
        return self.engine.phase

    @property
    def over(self) -> bool:
        """Whether the hand has ended (:attr:`result` then holds its score)."""
        return self.engine.over

    def view(self, player: str | None = None) -> dict[str, Any]:
        """What ``player`` (the seat to act by default) may know now, as the
        protocol's ``view`` (cards by name, the options included)."""
        seat = player if player is not None else self.engine.to_act
        if seat not in self.engine.players:
            raise UsageError(f"{quote(seat)} is not a player of this hand: the players are "
                             f"{', '.join(self.engine.players)}")
        return view_to_json(self.engine.view(seat))

    def legal(self) -> list[dict[str, Any]]:
        """The legal moves of the seat to act, as the protocol's dicts (no
        ``player``: the seat's own); none once the hand is over."""
        return [] if self.engine.over else legal_json(self.engine.legal_moves())

    def apply(self, move: Mapping[str, Any] | Move) -> GameHand:
        """Play ``move`` (one of :meth:`legal`, or a transcript move with its
        ``player``) for the seat to act; returns the hand. :class:`gincli.IllegalMove`
        when the rules forbid it (the hand is then unchanged)."""
        hand = self.engine
        if not isinstance(move, Move):
            if not isinstance(move, Mapping):
                raise IllegalMove("malformed-move", f"a move is a dict like {{\"action\": \"discard\", \"card\": "
                                                    f"\"7h\"}}, not {quote(move)}")
            move = Move.from_dict({"player": hand.to_act, **move})
        hand.apply(move)
        if hand.phase == SPREAD:  # the defender's spread, which gincli chooses
            hand.record_spread()
        return self

    def copy(self) -> GameHand:
        """An independent copy of this hand as it is now (the same deck and
        moves), to explore a move without playing it here."""
        return GameHand(self.engine.rewound(len(self.engine.moves)))

    @property
    def result(self) -> dict[str, Any] | None:
        """The score result (as ``gin score`` writes it) once the hand is over, else None."""
        return self.engine.result.to_dict() if self.engine.result is not None else None

    @property
    def moves(self) -> list[dict[str, Any]]:
        """The moves played so far, as a transcript writes them."""
        return [m.to_dict() for m in self.engine.moves]

    def to_dict(self) -> dict[str, Any]:
        """The hand as a transcript's hand (FORMATS.md): deck, deal, moves, result."""
        return self.engine.to_dict()

    def __repr__(self) -> str:
        state = "over" if self.over else f"{self.to_act} to {self.engine.expecting()}"
        return f"<GameHand {' v '.join(self.players)}: {state}>"


def new_hand(seed: int | None = None, *, players: Sequence[str] | str = ("ann", "bob"), dealer: str | None = None,
             variant: str = "standard", scoring: str = "game",
             options: Mapping[str, Any] | Sequence[str] | None = None) -> GameHand:
    """Deal a hand to step through: the same deal ``gin deal --seed`` (and
    :func:`gincli.deal`) makes with the same arguments. Without ``seed``, a
    random one; without ``dealer``, the players cut for it."""
    seed, names, dealer, variant, scoring, overrides = _deal_arguments(seed, players, dealer, variant, scoring,
                                                                       options)
    if len(names) != 2:
        raise UsageError(f"a hand is played by two players, not {len(names)}")
    table, _, _, _ = deal_table(_registry_with(variant), names, seed=seed, dealer=dealer, variant=variant,
                                scoring=scoring, overrides=overrides, say=KEYWORDS)
    return GameHand(table.deal())
