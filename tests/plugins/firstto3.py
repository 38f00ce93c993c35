"""A test plugin, written as a third party would from docs/plugins.md: a
scoring system where the first player to win three hands wins the session."""

from gincli import ScoringSystem, Session, hookimpl


class FirstToThreeSession(Session):
    def __init__(self, players, rules):
        super().__init__(players, rules)
        self.wins = dict.fromkeys(self.players, 0)

    def add_hand(self, result):
        if result.winner is not None and not self.finished:
            self.wins[result.winner] += 1

    @property
    def finished(self):
        return max(self.wins.values()) >= 3

    def result(self):
        winner = max(self.wins, key=self.wins.get) if self.finished else None
        return {"scores": dict(self.wins), "winner": winner}


class FirstToThree(ScoringSystem):
    name = "first-to-three"
    description = "The first to win three hands wins."

    def new_session(self, players, rules):
        return FirstToThreeSession(players, rules)


@hookimpl
def gincli_register_scoring_systems(register):
    register(FirstToThree())
