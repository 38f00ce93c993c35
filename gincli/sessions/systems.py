"""Scoring systems: who plays each hand of a session, and how it is settled.

A :class:`ScoringSystem` is registered by a plugin; for each session it makes
a :class:`Session` that seats the players (from the cut for the deal, then
hand by hand: which two play, who deals) and takes the finished hands one by
one, saying when the session is settled and what its result is (FORMATS.md,
the session ``result``). Every hand is a two-player hand: a system of three or
four players only decides who plays it. The built-in systems (``hand``,
``game``, ``hollywood``, ``match-500``, ``cutthroat``, ``chouette``,
``partnership``) live in ``gincli_builtin.scoring``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..base.contract import breach, call, reraise, session_result, truth, whole
from ..hand.engine import dealer_from_cut, next_dealer
from ..rulebook.irregular import VOID
from ..rulebook.rules import Option, Rules
from ..rulebook.scoring import HandResult


@dataclass(frozen=True)
class Seating:
    """Who plays a hand (two players, in the session's order) and who deals it."""

    players: tuple[str, str]
    dealer: str


GAME_OPTIONS: tuple[Option, ...] = (
    Option("target", 100, "points that win a game"),
    Option("game_bonus", 100, "bonus to the winner of a game"),
    Option("box_bonus", 25, "bonus to each player at the end of a game for every hand won (line bonus)"),
    Option("shutout", "bonus", "when the loser won no hand: \"bonus\" adds shutout_bonus, \"double\" doubles "
           "the winner's score before the box bonus", "choice", ("bonus", "double")),
    Option("shutout_bonus", 100, "the shutout bonus, when shutout = \"bonus\""),
)


def with_default(options: tuple[Option, ...], name: str, default: Any) -> tuple[Option, ...]:
    """The same options, one with another default (Hollywood's target is 125)."""
    return tuple(Option(o.name, default, o.description, o.kind, o.choices) if o.name == name else o
                 for o in options)


class Game:
    """One game to a target (RULES.md "A game"): hand points accumulate; the first
    to reach the target wins, and the bonuses settle it: the game bonus to the
    winner, the shutout (a bonus, or doubling) when the loser won no hand, then
    the box bonus for every hand won to each player. Scoring systems that play
    games (``game``, ``hollywood``, ``match-500``, plugins') build on it."""

    def __init__(self, players: Sequence[str], rules: Rules, target: int | None = None):
        self.players = tuple(players)
        self.rules = rules
        self.target = rules["target"] if target is None else target
        self.points = dict.fromkeys(self.players, 0)
        self.wins = dict.fromkeys(self.players, 0)
        self.winner: str | None = None
        self.entries: list[tuple[str, int]] = []

    @property
    def closed(self) -> bool:
        return self.winner is not None

    def enter(self, winner: str, points: int) -> None:
        """Enter a won hand (nothing once the game is closed)."""
        if self.closed:
            return
        self.points[winner] += points
        self.wins[winner] += 1
        self.entries.append((winner, points))
        if self.points[winner] >= self.target:
            self.winner = winner

    def bonuses(self) -> dict[str, dict[str, int]]:
        """Each bonus of a won game, by player: ``game``, ``shutout`` (the bonus, or
        what doubling added) and ``box``; empty while the game is open."""
        if self.winner is None:
            return {}
        r = self.rules
        w = self.winner
        loser = next(p for p in self.players if p != w)
        zero = dict.fromkeys(self.players, 0)
        game, shutout = dict(zero), dict(zero)
        game[w] = r["game_bonus"]
        if self.wins[loser] == 0:
            # "double" doubles the winner's score (game points and game bonus) before the box bonus
            shutout[w] = self.points[w] + game[w] if r["shutout"] == "double" else r["shutout_bonus"]
        box = {p: r["box_bonus"] * self.wins[p] for p in self.players}
        return {"game": game, "shutout": shutout, "box": box}

    def totals(self) -> dict[str, int]:
        """Each player's total: hand points, plus the bonuses once the game is won."""
        totals = dict(self.points)
        for part in self.bonuses().values():
            for p, v in part.items():
                totals[p] += v
        return totals

    def net(self) -> int:
        """The winner's total minus the loser's (0 while the game is open)."""
        if self.winner is None:
            return 0
        t = self.totals()
        return t[self.winner] - sum(v for p, v in t.items() if p != self.winner)

    def result(self) -> dict[str, Any]:
        """FORMATS.md's game result (``scores`` with the bonuses once won, ``winner``)
        and gincli's additions: hand ``points``, ``hands_won``, the winner's ``net``,
        the ``hands`` entered, each ``[winner, points]``, and once won the ``bonuses``."""
        out: dict[str, Any] = {"scores": self.totals(), "winner": self.winner, "points": dict(self.points),
               "hands_won": dict(self.wins), "net": self.net(), "hands": [list(e) for e in self.entries]}
        if self.winner is not None:
            out["bonuses"] = self.bonuses()
        return out


class Session:
    """One session being played and settled.

    gincli asks it who plays: :meth:`cutters` cut for the deal, then
    :meth:`first_seating` seats the first hand from the cut cards; after each
    hand, :meth:`add_hand` enters its result and :meth:`next_seating` seats the
    next. The defaults are the two-player rules (the cut picks the first
    dealer, the option ``next_dealer`` the next); a system of three or four
    players overrides all three.

    ``settles_each_hand`` is true for systems where every hand stands alone
    (``hand``): such a session never finishes by itself, and a transcript of
    it is complete when its last hand is.
    """

    settles_each_hand = False
    #: Hands a deal has, played at once at as many tables (partnership: 2); they
    #: are written in the order the session seats them.
    tables = 1

    def __init__(self, players: Sequence[str], rules: Rules):
        self.players = tuple(players)
        self.rules = rules

    def cutters(self) -> tuple[str, ...]:
        """Who cuts for the deal, in the order they cut (every player by default)."""
        return self.players

    def first_seating(self, cut: Mapping[str, int]) -> Seating:
        """The first hand's players and dealer, from the cards cut (name -> card)."""
        a, b = self.players
        return Seating((a, b), dealer_from_cut(cut, (a, b), self.rules))

    def next_seating(self, last: Seating, result: HandResult) -> Seating:
        """The next hand's players and dealer, after a hand seated ``last`` ended
        with ``result`` (and was entered with :meth:`add_hand`)."""
        return Seating(last.players, next_dealer(self.rules, last.players, last.dealer, result))

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

    def scores_so_far(self) -> dict[str, Any]:
        """The session's scores so far (``result()["scores"]``), asked before every
        hand. Optional: a system whose ``result()`` grows with the hands played
        overrides it to answer in constant time."""
        return self.result()["scores"]


class ScoringSystem:
    """A scoring system: a ``name``, a one-line ``description``, its
    ``options`` (declared like the options of play), how many ``players`` it
    takes (the counts it allows) and a session factory."""

    name: str = ""
    description: str = ""
    options: tuple[Option, ...] = ()
    players: tuple[int, ...] = (2,)
    source: str = "built-in"

    def new_session(self, players: Sequence[str], rules: Rules) -> Session:
        """A new, empty session for these players (as many as ``players``
        allows, in the order they were named) under these rules."""
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"


class HollywoodSheet(Session):
    """Several games scored at once on one sheet (RULES.md "hollywood"): a
    player's n-th winning hand is entered in games 1..min(n, games) that are
    still open; a game closes when a player reaches its target; the session ends
    when every game is closed. Result: ``games``, ``scores`` (each player's sum of
    the game totals) and ``winner`` (the larger sum; none on a tie)."""

    def __init__(self, players: Sequence[str], rules: Rules, games: int = 3):
        super().__init__(players, rules)
        self.games = [Game(players, rules) for _ in range(games)]
        self.wins = dict.fromkeys(self.players, 0)

    def add_hand(self, result: HandResult) -> None:
        if result.winner is None:
            return
        self.wins[result.winner] += 1
        for game in self.games[:self.wins[result.winner]]:
            game.enter(result.winner, result.points)  # a closed game takes nothing

    @property
    def finished(self) -> bool:
        return all(g.closed for g in self.games)

    def scores_so_far(self) -> dict[str, Any]:
        totals = [g.totals() for g in self.games]
        return {p: sum(t[p] for t in totals) for p in self.players}

    def result(self) -> dict[str, Any]:
        games = [g.result() for g in self.games]
        scores = {p: sum(g["scores"][p] for g in games) for p in self.players}
        a, b = self.players
        winner = None
        if self.finished and scores[a] != scores[b]:
            winner = a if scores[a] > scores[b] else b
        return {"games": games, "scores": scores, "winner": winner}


class CheckedSession:
    """A scoring system's session as gincli drives it: every answer it gives is
    checked where it crosses into gincli (:mod:`gincli.base.contract`), so a plugin's
    mistake is one sentence naming it."""

    def __init__(self, session: Session, system: ScoringSystem, players: Sequence[str]):
        self.inner = session
        self.system = system
        self.players = tuple(players)
        self.rules = getattr(session, "rules", None)
        self._what = f"the scoring system {system.name}'s session"
        self.settles_each_hand = truth(system, f"{self._what}.settles_each_hand",
                                       getattr(session, "settles_each_hand", False))
        self.tables = whole(system, f"{self._what}.tables", getattr(session, "tables", 1), 1)

    def _call(self, name: str, *args: Any) -> Any:
        return call(self.system, f"{self._what}.{name}()", getattr(self.inner, name), *args)

    def cutters(self) -> tuple[str, ...]:
        value = self._call("cutters")
        if (not isinstance(value, (tuple, list)) or not value or len(set(value)) != len(value)
                or not all(p in self.players for p in value)):
            raise breach(self.system, f"{self._what}.cutters()", value, "different players of the session")
        return tuple(value)

    def _seating(self, name: str, value: Any) -> Seating:
        if (not isinstance(value, Seating) or len(value.players) != 2 or value.players[0] == value.players[1]
                or not all(p in self.players for p in value.players) or value.dealer not in value.players):
            raise breach(self.system, f"{self._what}.{name}()", value,
                         "a gincli.Seating of two players of the session, one of them dealing")
        return value

    def first_seating(self, cut: Mapping[str, int]) -> Seating:
        return self._seating("first_seating", self._call("first_seating", cut))

    def next_seating(self, last: Seating, result: HandResult) -> Seating:
        if result.outcome == VOID:  # a voided hand is dealt again: the same players, the same dealer
            return last
        return self._seating("next_seating", self._call("next_seating", last, result))

    def add_hand(self, result: HandResult) -> None:
        """Enter a finished hand; a voided one (a redeal, RULES.md) is no hand of the
        session: no system sees it."""
        if result.outcome != VOID:
            self._call("add_hand", result)

    @property
    def finished(self) -> bool:
        what = f"{self._what}.finished"
        return truth(self.system, what, call(self.system, what, getattr, self.inner, "finished"))

    def result(self) -> dict[str, Any]:
        return session_result(self.system, f"{self._what}.result()", self._call("result"), self.players)

    def scores_so_far(self) -> dict[str, Any]:
        if type(self.inner).scores_so_far is Session.scores_so_far:  # the default: its result()'s, checked
            return self.result()["scores"]
        value = self._call("scores_so_far")
        if not isinstance(value, Mapping) or not all(type(value.get(p)) is int for p in self.players):
            raise breach(self.system, f"{self._what}.scores_so_far()", value, "a whole number for each player")
        return dict(value)


def open_session(system: ScoringSystem, players: Sequence[str], rules: Rules) -> CheckedSession:
    """A new session of ``system``, checked at every answer. A ``ValueError``
    from ``new_session`` (the system refuses these rules or players) goes
    through, as a sentence for the user."""
    try:
        session = system.new_session(players, rules)
    except ValueError:
        raise
    except Exception as exc:
        call(system, f"the scoring system {system.name}'s new_session()", reraise, exc)
    if not isinstance(session, Session):
        raise breach(system, f"the scoring system {system.name}'s new_session()", session, "a gincli.Session")
    return CheckedSession(session, system, players)


