"""What a hand keeps of the irregularities found at its table (RULES.md,
"Irregularities at the table, and their remedies"): the remedy due, the
offenders correcting their count, who may not knock, the cards exposed, an
illegal knock and what its remedy changed. The hand engine keeps one
:class:`AtTable` once the first irregularity is recorded, and none before:
play without irregularities never looks at it. The rules themselves are the
rule book's (:mod:`gincli.rulebook.irregular`)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..rulebook.irregular import Exposed, Remedies
from .moves import IllegalMove, Move


@dataclass
class IllegalKnock:
    """A knock the rules refuse, played as it was at the table: its fault, and
    whether the opponent's spread came before it was found."""

    player: str
    fault: IllegalMove
    count_only: bool
    spread: Move | None = None  # the opponent's spread, before any layoff
    found: bool = False  # the illegal-knock move was recorded


@dataclass
class Due:
    """A remedy to be chosen now: the remedies allowed and who chooses, and why, in words."""

    remedies: Remedies
    why: str  # the irregularity, in words
    role: str  # who chooses, in words ("whose hand is right")
    kind: str  # "hand" (a wrong number of cards) or "knock" (an illegal knock)

    def first(self) -> str:
        """What must come before any other move, in words."""
        if self.remedies.chooser is None:
            return f"the remedy ({self.remedies.words()}) comes first"
        return f"{self.remedies.chooser}'s choice of remedy ({self.remedies.words()}) comes first"


@dataclass
class KnockBan:
    """A player who may not knock yet: after correcting the count (until their
    next turn after the correction is complete), or after seeing a card
    illegally (until their next turn, unless with gin; ``draws`` of theirs still
    inside the ban)."""

    why: str  # "correction" or "seen"
    draws: int = 0


@dataclass
class AtTable:
    """The irregularities of one hand and where their remedies stand."""

    found: dict[str, bool] = field(default_factory=dict)  # found with a wrong count, a remedy due: had they drawn
    due: Due | None = None
    correcting: set[str] = field(default_factory=set)  # went on with a wrong count, correcting it turn by turn
    bans: dict[str, KnockBan] = field(default_factory=dict)
    exposed: list[Exposed] = field(default_factory=list)
    at_end: set[str] = field(default_factory=set)  # found with a wrong count when the hand was over
    no_bonus: set[str] = field(default_factory=set)  # picked up an illegal knock
    accepted: bool = False  # an illegal knock accepted as legal
    illegal: IllegalKnock | None = None
    illegal_at: set[int] = field(default_factory=set)  # the indexes of the knocks played illegally
    face_up: dict[str, str] = field(default_factory=dict)  # whose cards lie face up, and until when (for people)

    @property
    def settled(self) -> bool:
        """Nothing awaits a remedy, and no knock awaits being found illegal."""
        return self.due is None and self.illegal is None
