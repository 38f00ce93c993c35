"""Built-in plugin: the scoring systems of RULES.md ("A game", "Scoring systems").

- ``hand``: every hand settled alone; the session's scores are the sums.
- ``game``: one game to the target, with game, box and shutout bonuses.
- ``hollywood``: three games on one sheet; a player's n-th win is entered in
  games 1..min(n, 3) that are still open.
- ``match-500``: games to 100 one after another, each game's net result to
  its winner, first to 500 match points.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from gincli import hookimpl
from gincli.rules import Option, Rules
from gincli.scoring import HandResult
from gincli.session import GAME_OPTIONS, Game, HollywoodSheet, ScoringSystem, Session, with_default


class HandSession(Session):
    settles_each_hand = True

    def __init__(self, players: Sequence[str], rules: Rules):
        super().__init__(players, rules)
        self.scores = dict.fromkeys(self.players, 0)
        self.hands = 0

    def add_hand(self, result: HandResult) -> None:
        self.hands += 1
        if result.winner is not None:
            self.scores[result.winner] += result.points

    @property
    def finished(self) -> bool:
        return False

    def result(self) -> dict[str, Any]:
        return {"scores": self.scores_so_far()}

    def scores_so_far(self) -> dict[str, Any]:
        return dict(self.scores)


class GameSession(Session):
    def __init__(self, players: Sequence[str], rules: Rules):
        super().__init__(players, rules)
        self.game = Game(players, rules)

    def add_hand(self, result: HandResult) -> None:
        if result.winner is not None:
            self.game.enter(result.winner, result.points)

    @property
    def finished(self) -> bool:
        return self.game.closed

    def result(self) -> dict[str, Any]:
        return self.game.result()

    def scores_so_far(self) -> dict[str, Any]:
        return self.game.totals()


class MatchSession(Session):
    def __init__(self, players: Sequence[str], rules: Rules):
        super().__init__(players, rules)
        self.done: list[Game] = []
        self.game = Game(players, rules)
        self.scores = dict.fromkeys(self.players, 0)
        self.winner: str | None = None

    def add_hand(self, result: HandResult) -> None:
        if result.winner is None or self.winner is not None:
            return
        self.game.enter(result.winner, result.points)
        if self.game.closed:
            assert self.game.winner is not None
            self.scores[self.game.winner] += self.game.net()
            self.done.append(self.game)
            if self.scores[self.game.winner] >= self.rules["match_target"]:
                self.winner = self.game.winner
            else:
                self.game = Game(self.players, self.rules)

    @property
    def finished(self) -> bool:
        return self.winner is not None

    def result(self) -> dict[str, Any]:
        out: dict[str, Any] = {"games": [g.result() for g in self.done], "scores": dict(self.scores),
                               "winner": self.winner}
        if not self.finished:
            out["current_game"] = self.game.result()
        return out

    def scores_so_far(self) -> dict[str, Any]:
        return dict(self.scores)


class HandScoring(ScoringSystem):
    name = "hand"
    description = "Every hand is settled alone; the scores are the sums of the hands' points."

    def new_session(self, players: Sequence[str], rules: Rules) -> Session:
        return HandSession(players, rules)


class GameScoring(ScoringSystem):
    name = "game"
    description = "One game to the target (100), with game, box and shutout bonuses."
    options = GAME_OPTIONS

    def new_session(self, players: Sequence[str], rules: Rules) -> Session:
        return GameSession(players, rules)


class HollywoodScoring(ScoringSystem):
    name = "hollywood"
    description = "Three games on one sheet (to 125); a player's n-th win counts in games 1..n."
    options = with_default(GAME_OPTIONS, "target", 125)

    def new_session(self, players: Sequence[str], rules: Rules) -> Session:
        return HollywoodSheet(players, rules, games=3)


class MatchScoring(ScoringSystem):
    name = "match-500"
    description = "Games to 100 in a row; each game's net result to its winner; first to 500 wins."
    options = GAME_OPTIONS + (Option("match_target", 500, "match points that win the match"),)

    def new_session(self, players: Sequence[str], rules: Rules) -> Session:
        return MatchSession(players, rules)


@hookimpl(trylast=True)
def gincli_register_scoring_systems(register: Callable[[ScoringSystem], None]) -> None:
    for system in (HandScoring(), GameScoring(), HollywoodScoring(), MatchScoring()):
        register(system)
