# file: race.py
from gincli import Option, ScoringSystem, Session, hookimpl


class RaceSession(Session):
    def __init__(self, players, rules):
        super().__init__(players, rules)
        self.wins = dict.fromkeys(self.players, 0)

    def add_hand(self, result):
        if result.winner is not None and not self.finished:
            self.wins[result.winner] += 1

    @property
    def finished(self):
        return max(self.wins.values()) >= self.rules["hands_to_win"]

    def result(self):
        winner = max(self.wins, key=self.wins.get) if self.finished else None
        return {"scores": dict(self.wins), "winner": winner}


class Race(ScoringSystem):
    name = "race"
    description = "The first to win five hands wins."
    options = (Option("hands_to_win", 5, "hands a player must win"),)

    def new_session(self, players, rules):
        return RaceSession(players, rules)


@hookimpl
def gincli_register_scoring_systems(register):
    register(Race())
