"""Irregularities at the table, and their remedies (RULES.md): which remedies
each irregularity allows and who chooses, which faults of a knock make an
illegal knock, who may take a card exposed after it was seen illegally and
where it goes, and the end-of-hand rule for a wrong number of cards.

The one place these rules live: the hand engine (:mod:`gincli.hand.engine`)
applies them move by move, and :func:`gincli.rulebook.scoring.score_position`
scores an irregular hand by :class:`TableHand`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

REDEAL, CONTINUE, ACCEPT, PLAY_EXPOSED, PICK_UP = "redeal", "continue", "accept", "play-exposed", "pick-up"
#: Every remedy a transcript's ``remedy`` move may choose (FORMATS.md).
REMEDIES = (REDEAL, CONTINUE, ACCEPT, PLAY_EXPOSED, PICK_UP)

#: A voided hand's outcome: nobody scores, and the same dealer deals again; it is no hand of the session.
VOID = "redeal"
#: The outcome of a hand the rule book gives to a player found holding too many cards: nobody scores
#: it, but it counts as a hand played (not a dead hand), and the same dealer deals again.
IRREGULAR = "irregular"

#: The faults of a knock that make it an illegal knock (a count above the knock limit, a spread that
#: is no valid arrangement of the player's cards), and those that are the count alone (a knock the
#: opponent may accept).
ILLEGAL_KNOCK_RULES = frozenset({"knock-over-limit", "not-a-meld", "meld-not-held", "meld-card-reused",
                                 "big-gin-not-melded", "big-gin-off"})
COUNT_ONLY = frozenset({"knock-over-limit"})


@dataclass(frozen=True)
class Remedies:
    """The remedies an irregularity allows and who chooses: ``chooser`` is the
    player whose choice it is, None when one remedy is forced (then either
    player records it)."""

    choices: tuple[str, ...]
    chooser: str | None

    def words(self) -> str:
        """The remedies in words: ``"redeal or continue"``."""
        return " or ".join(self.choices)


def wrong_hand_remedies(offenders: Mapping[str, bool], players: tuple[str, str],
                        wrong: set[str]) -> Remedies:
    """The remedies of a wrong number of cards found during play: ``offenders``
    are the players found, each with whether they had drawn yet; ``wrong`` every
    player whose count is wrong. Before an offender's first draw, or with both
    hands wrong, a redeal is forced; else the player with the right hand
    chooses to redeal or to go on (the offender then corrects the count)."""
    if not all(offenders.values()) or len(wrong) == 2:
        return Remedies((REDEAL,), None)
    right = next(p for p in players if p not in wrong)
    return Remedies((REDEAL, CONTINUE), right)


def illegal_knock_remedies(opponent: str, spread: bool, count_only: bool) -> Remedies:
    """The remedies of an illegal knock: found after the opponent spread (and
    before any layoff), the opponent chooses to have the offender play on with
    every card face up, or pick the hand up (no gin or undercut bonus); found
    before, play goes on (the offender's cards face up until the opponent's next
    turn is done), or, when only the count is wrong, the opponent may accept
    the knock as legal."""
    if spread:
        return Remedies((PLAY_EXPOSED, PICK_UP), opponent)
    if count_only:
        return Remedies((CONTINUE, ACCEPT), opponent)
    return Remedies((CONTINUE,), None)


@dataclass
class Exposed:
    """Cards seen illegally, face up beside the discard pile, in the order
    exposed: who saw them, whether drawing in turn, and which players have drawn
    from the stock since."""

    cards: list[int]
    offender: str
    in_turn: bool
    drew: set[str] = field(default_factory=set)

    def may_take(self, player: str) -> bool:
        """Whether ``player`` may take one of these cards as their draw now: the
        other player until they first draw from the stock; then the offender
        (never, for a card seen drawing out of turn) until they do."""
        if player != self.offender:
            return player not in self.drew
        return self.in_turn and bool(self.drew - {player}) and player not in self.drew

    @property
    def done(self) -> bool:
        """Both players have drawn from the stock: the cards go to the discard pile."""
        return len(self.drew) == 2


def under_top(pile: list[int], cards: list[int]) -> None:
    """Put exposed ``cards`` under the top card of the discard pile (the end of
    ``pile``), in the order exposed (the first exposed lowest)."""
    at = max(len(pile) - 1, 0)
    pile[at:at] = cards


@dataclass(frozen=True)
class TableHand:
    """What the end-of-hand rule reads of a hand found irregular: each player
    whose number of cards is wrong, with the number they should hold
    (``right``); who gets no gin or undercut bonus for having picked up an
    illegal knock (``no_bonus``); whether the opponent accepted a knock whose
    count was above the knock limit (``accepted``)."""

    right: Mapping[str, int] = field(default_factory=dict)
    no_bonus: frozenset[str] = frozenset()
    accepted: bool = False

    def missing(self, name: str, held: int) -> int:
        """Cards ``name`` is short of, holding ``held``."""
        return max(self.right.get(name, held) - held, 0)

    def penalty(self, name: str, held: int, rules: Mapping[str, Any]) -> int:
        """What ``name`` adds to their deadwood count: ``irregular_hand_penalty``
        (10) for each missing card."""
        return self.missing(name, held) * rules["irregular_hand_penalty"]

    def settled(self, outcome: str, winner: str | None, points: int, bonus: int,
                held: Mapping[str, int]) -> tuple[str, str | None, int]:
        """The rule book's settlement (``bonus``: the gin, big gin or undercut
        bonus in ``points``) under the end-of-hand rule: a winner short of cards,
        or who picked up an illegal knock, gets no bonus; a winner holding too
        many cards may not win: nobody scores the hand (outcome ``irregular``)."""
        if winner is None:
            return outcome, winner, points
        if held[winner] > self.right.get(winner, held[winner]):
            return IRREGULAR, None, 0
        if self.missing(winner, held[winner]) or winner in self.no_bonus:
            points -= bonus
        return outcome, winner, points
