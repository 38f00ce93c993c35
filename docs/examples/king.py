# file: king.py
from gincli import ScoringSystem, Seating, Session, hookimpl
from gincli.cards import cut_key


class KingSession(Session):
    """The winner of a hand keeps the table; the loser goes to the back of the
    line and the first in line challenges, dealing. First to win 3 hands."""

    def __init__(self, players, rules):
        super().__init__(players, rules)
        self.wins = dict.fromkeys(self.players, 0)
        self.line = []

    def first_seating(self, cut):
        order = sorted(self.players, key=lambda p: cut_key(cut[p]), reverse=True)
        king, challenger, self.line = order[0], order[1], order[2:]
        return Seating((king, challenger), challenger)

    def next_seating(self, last, result):
        if result.winner is None:  # a dead hand: the same two again
            return last
        loser = next(p for p in last.players if p != result.winner)
        self.line.append(loser)
        challenger = self.line.pop(0)
        return Seating((result.winner, challenger), challenger)

    def add_hand(self, result):
        if result.winner is not None and not self.finished:
            self.wins[result.winner] += 1

    @property
    def finished(self):
        return max(self.wins.values()) >= 3

    def result(self):
        winner = max(self.wins, key=self.wins.get) if self.finished else None
        others = len(self.players) - 1
        scores = {p: (10 * others if p == winner else -10) if winner else 0 for p in self.players}
        return {"scores": scores, "winner": winner, "hands_won": dict(self.wins)}


class King(ScoringSystem):
    name = "king"
    description = "Three or four players: the winner keeps the table; first to win 3 hands."
    players = (3, 4)

    def new_session(self, players, rules):
        return KingSession(players, rules)


@hookimpl
def gincli_register_scoring_systems(register):
    register(King())
