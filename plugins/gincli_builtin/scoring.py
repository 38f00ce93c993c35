"""Built-in plugin: the scoring systems of RULES.md ("A game", "Scoring systems",
"More than two players"), written against gincli's public API alone.

- ``hand``: every hand settled alone; the session's scores are the sums.
- ``game``: one game to the target, with game, box and shutout bonuses.
- ``hollywood``: three games on one sheet; a player's n-th win is entered in
  games 1..min(n, 3) that are still open.
- ``match-500``: games to 100 one after another, each game's net result to
  its winner, first to 500 match points.
- ``cutthroat`` (3 players): the loser of a hand sits out the next, which the
  player who sat out deals to the winner; every pair settles its difference.
- ``chouette`` (3 or 4): the box plays every hand against a captain of the
  partnership; the box against every partner.
- ``partnership`` (4): two teams, two tables a deal; a deal's points decide it.
- ``eaai``: the EAAI 2021 Gin Rummy challenge's rules: one game to 100 with no
  game, box or shutout bonus, gin and undercut 25, knock limit 10, no big gin,
  the deal alternating after every scored hand. A game, settled by ``Game``;
  only the defaults differ.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from gincli import hookimpl
from gincli.rulebook.cards import cut_key
from gincli.rulebook.rules import OFF, PLAY_OPTIONS, Option, Rules
from gincli.rulebook.scoring import HandResult
from gincli.sessions.systems import GAME_OPTIONS, Game, HollywoodSheet, ScoringSystem, Seating, Session, with_default


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


def by_cut(players: Sequence[str], cut: Mapping[str, int]) -> list[str]:
    """The players from the highest cut card to the lowest (rank, then suit)."""
    return sorted(players, key=lambda p: cut_key(cut[p]), reverse=True)


class CutthroatSession(Session):
    """RULES.md "cutthroat": three players, two at a time."""

    def __init__(self, players: Sequence[str], rules: Rules):
        super().__init__(players, rules)
        # The game to the target, its points and hands won: session.Game's, with three players; the
        # bonuses and the settlement are cutthroat's own (below).
        self.game = Game(self.players, rules)
        self.sat_out: list[str | None] = []  # who sat out each won hand
        self.seating: Seating | None = None

    @property
    def points(self) -> dict[str, int]:
        return self.game.points

    @property
    def wins(self) -> dict[str, int]:
        return self.game.wins

    @property
    def winner(self) -> str | None:
        return self.game.winner

    def _seat(self, dealer: str, other: str) -> Seating:
        self.seating = Seating(tuple(p for p in self.players if p in (dealer, other)), dealer)  # type: ignore[arg-type]
        return self.seating

    def first_seating(self, cut: Mapping[str, int]) -> Seating:
        high, middle, _low = by_cut(self.players, cut)  # the lowest sits out; the middle deals to the highest
        return self._seat(middle, high)

    def next_seating(self, last: Seating, result: HandResult) -> Seating:
        if result.winner is None:  # a dead hand: the same two, the same dealer
            return self._seat(last.dealer, next(p for p in last.players if p != last.dealer))
        out = next(p for p in self.players if p not in last.players)
        return self._seat(out, result.winner)  # the loser sits out; who sat out deals to the winner

    def add_hand(self, result: HandResult) -> None:
        if result.winner is None or self.game.closed:
            return
        self.sat_out.append(next((p for p in self.players if self.seating and p not in self.seating.players), None))
        self.game.enter(result.winner, result.points)

    @property
    def finished(self) -> bool:
        return self.game.closed

    def bonuses(self) -> dict[str, dict[str, int]]:
        if self.winner is None:
            return {}
        r = self.rules
        game = {p: r["game_bonus"] if p == self.winner else 0 for p in self.players}
        box = {p: r["box_bonus"] * self.wins[p] for p in self.players}
        return {"game": game, "box": box}

    def scores_so_far(self) -> dict[str, Any]:
        if self.winner is not None:
            return self.result()["scores"]
        total = sum(self.points.values())
        return {p: len(self.players) * self.points[p] - total for p in self.players}

    def result(self) -> dict[str, Any]:
        totals = dict(self.points)
        bonuses = self.bonuses()
        for part in bonuses.values():
            for p, v in part.items():
                totals[p] += v
        n = len(self.players)
        scores = {p: n * totals[p] - sum(totals.values()) for p in self.players}  # sum of (own - other)
        shutouts = {}
        if self.winner is not None:
            for p in self.players:
                if p != self.winner and self.wins[p] == 0:  # shut out: pays the winner
                    shutouts[p] = self.rules["shutout_bonus"]
                    scores[p] -= shutouts[p]
                    scores[self.winner] += shutouts[p]
        out: dict[str, Any] = {"totals": totals, "winner": self.winner, "scores": scores,
                               "points": dict(self.points), "hands_won": dict(self.wins),
                               "hands": [[w, points, out]
                                         for (w, points), out in zip(self.game.entries, self.sat_out, strict=True)]}
        if self.winner is not None:
            out["bonuses"] = bonuses
            out["shutouts"] = shutouts
        return out


class ChouetteSession(Session):
    """RULES.md "chouette": the box against a partnership whose captain plays."""

    def __init__(self, players: Sequence[str], rules: Rules):
        super().__init__(players, rules)
        self.game = Game(("box", "partners"), rules)
        self.box: str | None = None
        self.captain: str | None = None
        self.line: list[str] = []
        self.entries: list[list[Any]] = []  # each won hand: [side, points, captain]

    def _seat(self) -> Seating:
        assert self.box is not None and self.captain is not None
        pair = tuple(p for p in self.players if p in (self.box, self.captain))
        return Seating(pair, self.box)  # type: ignore[arg-type]

    def first_seating(self, cut: Mapping[str, int]) -> Seating:
        order = by_cut(self.players, cut)
        self.box, self.captain, self.line = order[0], order[1], order[2:]
        return self._seat()

    def add_hand(self, result: HandResult) -> None:
        if result.winner is None or self.game.closed:
            return
        side = "box" if result.winner == self.box else "partners"
        self.game.enter(side, result.points)
        self.entries.append([side, result.points, self.captain])

    def next_seating(self, last: Seating, result: HandResult) -> Seating:
        if result.winner is not None and result.winner == self.box:  # the captain lost: to the end of the line
            assert self.captain is not None
            self.line.append(self.captain)
            self.captain = self.line.pop(0)
        return self._seat()

    @property
    def finished(self) -> bool:
        return self.game.closed

    def _settle(self, totals: dict[str, int]) -> dict[str, int]:
        diff = totals["box"] - totals["partners"]
        partners = [p for p in self.players if p != self.box]
        scores = {p: -diff for p in partners}
        if self.box is not None:
            scores[self.box] = diff * len(partners)
        return {p: scores.get(p, 0) for p in self.players}

    def scores_so_far(self) -> dict[str, Any]:
        return self._settle(self.game.totals())

    def result(self) -> dict[str, Any]:
        g = self.game.result()
        totals = g["scores"]
        scores = self._settle(totals)
        out: dict[str, Any] = {"box": self.box, "totals": totals, "winner": g["winner"], "scores": scores,
                               "points": g["points"], "hands_won": g["hands_won"],
                               "hands": [list(e) for e in self.entries]}
        if "bonuses" in g:
            out["bonuses"] = g["bonuses"]
        return out


class PartnershipSession(Session):
    """RULES.md "partnership": first and third against second and fourth, two
    tables a deal."""

    tables = 2  # hands a deal has, played at once: the first player's table first

    def __init__(self, players: Sequence[str], rules: Rules):
        super().__init__(players, rules)
        a, b, c, d = self.players
        self.teams = ((a, c), (b, d))
        self.game = Game(("0", "1"), rules)
        self.dealing = 0  # the team that deals at both tables
        self.deal = 0  # deals played so far
        self.table = 0  # the table of the current deal: 0 (the first player's) or 1
        self.deal_points = [0, 0]
        self.deals: list[list[Any]] = []  # each deal: [team that won it or None, points, [points of each team]]

    def team_of(self, player: str) -> int:
        return 0 if player in self.teams[0] else 1

    def cutters(self) -> tuple[str, ...]:
        return (self.players[0], self.players[1])  # the first player of each team

    def pairings(self, deal: int) -> tuple[tuple[str, str], tuple[str, str]]:
        """The two pairs of a deal: first v second and third v fourth, then first v fourth
        and third v second, and back again."""
        a, b, c, d = self.players
        return ((a, b), (c, d)) if deal % 2 == 0 else ((a, d), (c, b))

    def _seat(self) -> Seating:
        pair = self.pairings(self.deal)[self.table]
        return Seating(pair, next(p for p in pair if self.team_of(p) == self.dealing))

    def first_seating(self, cut: Mapping[str, int]) -> Seating:
        a, b = self.cutters()
        self.dealing = 0 if cut_key(cut[a]) < cut_key(cut[b]) else 1  # the lower card's team deals
        return self._seat()

    def add_hand(self, result: HandResult) -> None:
        if self.game.closed:
            return
        if result.winner is not None:  # a dead hand counts 0 and is not replayed
            self.deal_points[self.team_of(result.winner)] += result.points
        self.table += 1
        if self.table == 2:
            t0, t1 = self.deal_points
            won = None if t0 == t1 else (0 if t0 > t1 else 1)
            self.deals.append([won, abs(t0 - t1), [t0, t1]])
            if won is not None:
                self.game.enter(str(won), abs(t0 - t1))
                self.dealing = won  # the team that won the deal deals the next
            self.deal += 1
            self.table = 0
            self.deal_points = [0, 0]

    def next_seating(self, last: Seating, result: HandResult) -> Seating:
        return self._seat()

    @property
    def finished(self) -> bool:
        return self.game.closed

    def scores_so_far(self) -> dict[str, Any]:
        t = self.game.totals()
        return {p: (t["0"] - t["1"]) * (1 if self.team_of(p) == 0 else -1) for p in self.players}

    def result(self) -> dict[str, Any]:
        g = self.game.result()
        totals = [g["scores"]["0"], g["scores"]["1"]]
        diff = totals[0] - totals[1]
        scores = {p: diff if self.team_of(p) == 0 else -diff for p in self.players}
        winner = None if g["winner"] is None else int(g["winner"])
        out: dict[str, Any] = {"teams": [list(t) for t in self.teams], "totals": totals, "winner": winner,
                               "scores": scores, "points": [g["points"]["0"], g["points"]["1"]],
                               "deals_won": [g["hands_won"]["0"], g["hands_won"]["1"]],
                               "deals": [list(d) for d in self.deals]}
        if "bonuses" in g:
            out["bonuses"] = {k: [v["0"], v["1"]] for k, v in g["bonuses"].items()}
        return out


#: The options of a cutthroat game: the game's, but a shut-out player always pays the shutout bonus.
CUTTHROAT_OPTIONS = tuple(o for o in GAME_OPTIONS if o.name != "shutout")


class CutthroatScoring(ScoringSystem):
    name = "cutthroat"
    description = ("Three players, two at a time: the loser of a hand sits out the next; first to 100; "
                   "every pair settles its difference.")
    options = CUTTHROAT_OPTIONS
    players = (3,)

    def new_session(self, players: Sequence[str], rules: Rules) -> Session:
        return CutthroatSession(players, rules)


class ChouetteScoring(ScoringSystem):
    name = "chouette"
    description = ("Three or four players: the box plays every hand against the partnership's captain; "
                   "a game to 100 between the two sides.")
    options = GAME_OPTIONS
    players = (3, 4)

    def new_session(self, players: Sequence[str], rules: Rules) -> Session:
        return ChouetteSession(players, rules)


class PartnershipScoring(ScoringSystem):
    name = "partnership"
    description = ("Four players, first and third against second and fourth at two tables; a deal's points "
                   "decide it; first team to 125.")
    options = with_default(GAME_OPTIONS, "target", 125)
    players = (4,)

    def new_session(self, players: Sequence[str], rules: Rules) -> Session:
        return PartnershipSession(players, rules)


def with_defaults(options: tuple[Option, ...], **defaults: Any) -> tuple[Option, ...]:
    """The same options, several with other defaults (``with_default`` for each)."""
    for name, default in defaults.items():
        options = with_default(options, name, default)
    return options


#: RULES.md "eaai": the rules of play it names (the rule book's options, next_dealer alternating), and the
#: game's options with no game, box or shutout bonus. Any of them may still be set with --option.
EAAI_OPTIONS = (
    with_defaults(tuple(o for o in PLAY_OPTIONS
                        if o.name in ("knock_limit", "gin_bonus", "undercut_bonus", "big_gin_bonus", "next_dealer")),
                  knock_limit=10, gin_bonus=25, undercut_bonus=25, big_gin_bonus=OFF, next_dealer="alternate")
    + with_defaults(GAME_OPTIONS, target=100, game_bonus=0, box_bonus=0, shutout="bonus", shutout_bonus=0)
)


class EaaiScoring(ScoringSystem):
    """RULES.md "eaai": a game (``GameSession``, FORMATS.md's game result) under the
    EAAI 2021 challenge's rules; the net result is the difference of the two scores."""

    name = "eaai"
    description = ("The EAAI 2021 challenge's rules: one game to 100 with no game, box or shutout bonus; "
                   "gin and undercut 25, knock limit 10, no big gin; the deal alternates.")
    options = EAAI_OPTIONS

    def new_session(self, players: Sequence[str], rules: Rules) -> Session:
        return GameSession(players, rules)


@hookimpl(trylast=True)
def gincli_register_scoring_systems(register: Callable[[ScoringSystem], None]) -> None:
    for system in (HandScoring(), GameScoring(), HollywoodScoring(), MatchScoring(), CutthroatScoring(),
                   ChouetteScoring(), PartnershipScoring(), EaaiScoring()):
        register(system)
