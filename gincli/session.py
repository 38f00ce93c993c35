"""Scoring systems: how a session of hands is settled.

A :class:`ScoringSystem` is registered by a plugin; for each session it makes
a :class:`Session` that takes the finished hands one by one and says when the
session is settled and what its result is (FORMATS.md, the session
``result``). The built-in systems (``hand``, ``game``, ``hollywood``,
``match-500``) live in ``gincli_builtin.scoring``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .rules import Option, Rules
from .scoring import HandResult


class Session:
    """One session being settled.

    ``settles_each_hand`` is true for systems where every hand stands alone
    (``hand``): such a session never finishes by itself, and a transcript of
    it is complete when its last hand is.
    """

    settles_each_hand = False

    def __init__(self, players: Sequence[str], rules: Rules):
        self.players = tuple(players)
        self.rules = rules

    def add_hand(self, result: HandResult) -> None:
        """Enter one finished hand (a dead hand included)."""
        raise NotImplementedError

    @property
    def finished(self) -> bool:
        """Whether the session is settled: no more hands may be played."""
        raise NotImplementedError

    def result(self) -> dict[str, Any]:
        """The session result so far, bonuses included once settled, in the shape
        FORMATS.md gives for this scoring system (at least ``scores``)."""
        raise NotImplementedError


class ScoringSystem:
    """A scoring system: a ``name``, a one-line ``description``, its
    ``options`` (declared like the options of play) and a session factory."""

    name: str = ""
    description: str = ""
    options: tuple[Option, ...] = ()
    source: str = "built-in"

    def new_session(self, players: Sequence[str], rules: Rules) -> Session:
        """A new, empty session for these two players under these rules."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"
