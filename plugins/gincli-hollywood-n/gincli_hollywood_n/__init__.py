"""Hollywood scoring with N games on one sheet (a gincli plugin).

A player's n-th winning hand is entered in every game from 1 to min(n, N) that is
still open; a game closes when a player reaches its target; the session ends when
every game is closed. Result: ``games`` (each game's result), ``scores`` (each
player's sum of the game totals) and ``winner`` (the larger sum).
"""

from __future__ import annotations

from gincli import GAME_OPTIONS, Game, Option, ScoringSystem, Session, hookimpl

__version__ = "1.0.0"


class HollywoodNSession(Session):
    def __init__(self, players, rules):
        super().__init__(players, rules)
        if not 2 <= rules["games"] <= 9:
            raise ValueError(f"games must be 2 to 9, not {rules['games']}")
        self.games = [Game(players, rules) for _ in range(rules["games"])]
        self.wins = dict.fromkeys(self.players, 0)

    def add_hand(self, result):
        if result.winner is None:
            return
        self.wins[result.winner] += 1
        for game in self.games[:self.wins[result.winner]]:
            game.enter(result.winner, result.points)  # a closed game takes nothing

    @property
    def finished(self):
        return all(g.closed for g in self.games)

    def result(self):
        games = [g.result() for g in self.games]
        scores = {p: sum(g["scores"][p] for g in games) for p in self.players}
        a, b = self.players
        winner = None
        if self.finished and scores[a] != scores[b]:
            winner = a if scores[a] > scores[b] else b
        return {"games": games, "scores": scores, "winner": winner}


class HollywoodN(ScoringSystem):
    name = "hollywood-n"
    description = "Hollywood with N games on one sheet (4 by default); the n-th win counts in games 1..n."
    options = tuple(Option(o.name, 125 if o.name == "target" else o.default, o.description, o.kind, o.choices)
                    for o in GAME_OPTIONS) + (Option("games", 4, "games on the sheet (2 to 9)"),)

    def new_session(self, players, rules):
        return HollywoodNSession(players, rules)


@hookimpl
def gincli_register_scoring_systems(register):
    register(HollywoodN())
