"""Tournaments: every pairing of several bots plays a match (``gin tournament``).

A round robin pairs every bot with every other once, in the order they are
given ((0, 1), (0, 2), ..., (1, 2), ...); a gauntlet pairs each of the first K
with each of the rest. Every pairing plays the same deals (one seed for all,
as engine testers give every pairing one opening book), so that pairings
compare on equal luck; each is a match of its own (:class:`MatchSpec`), its
sessions ``p<k>s<i>``, each transcript naming its pairing and the tournament in
its ``match`` field. A tournament's file of transcripts holds the pairings one
after another, in order; ``--resume`` reads it back (:func:`gincli.matches.resume.read_back`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from .runner import DEFAULT_MAX_FORFEITS, MatchSpec, Tally
from .stats import Estimate, bradley_terry, duplicate_gain, rounded


@dataclass
class TournamentSpec:
    """What a tournament plays: its bots and players, and what each pairing's match plays."""

    bots: tuple[str, ...]
    names: tuple[str, ...]
    unit: str  # "hands" or "games", for each pairing
    count: int  # sessions a pairing plays (at most: an SPRT may stop it sooner)
    seed: int
    variant: str
    scoring: str
    options: dict[str, Any] = field(default_factory=dict)
    duplicate: bool = False
    time_limit: float = 5.0
    max_hands: int = 10_000
    start_time_limit: float = 30.0
    bot_log: str | None = None
    gauntlet: int | None = None  # the first K bots play the rest; None: a round robin
    bot_trace: str | None = None
    max_forfeits: int = DEFAULT_MAX_FORFEITS

    def pairings(self) -> list[tuple[int, int]]:
        """The pairings, as indices into the bots, in the order they are played."""
        n = len(self.names)
        if self.gauntlet is None:
            return [(i, j) for i in range(n) for j in range(i + 1, n)]
        return [(i, j) for i in range(self.gauntlet) for j in range(self.gauntlet, n)]

    def field(self) -> dict[str, Any]:
        """The ``tournament`` of every transcript's ``match`` field: what tells
        this tournament from another (``--resume``)."""
        return {"bots": list(self.bots), "names": list(self.names), "gauntlet": self.gauntlet}

    def match(self, k: int) -> MatchSpec:
        """Pairing ``k``'s match."""
        i, j = self.pairings()[k]
        return MatchSpec((self.bots[i], self.bots[j]), (self.names[i], self.names[j]), self.unit, self.count,
                         self.seed, self.variant, self.scoring, self.options, self.duplicate, self.time_limit,
                         self.max_hands, self.start_time_limit, self.bot_log, self.bot_trace, self.max_forfeits,
                         pairing=k, tournament=self.field())


def pairing_done(spec: MatchSpec, tally: Tally) -> bool:
    """Whether a pairing is over: all its sessions played, or its SPRT decided."""
    return tally.sessions >= spec.count or tally.decided()


@dataclass
class PairingResult:
    """What a pairing's match gave: its players and the results behind the standings."""

    players: tuple[str, str]
    bots: tuple[str, str]
    sessions: int
    unit: str
    wins: dict[str, int]  # each player's games (or hands) won
    draws: int  # games with no single winner, dead hands
    points: dict[str, int]
    pairs: dict[str, Any] | None = None  # under --duplicate: the first player's pairs won both, split, lost both
    sprt: dict[str, Any] | None = None
    #: The first player's score with its interval, and its Elo, as ``gin match`` gives them (from pairs under
    #: --duplicate); None before a game (or hand) is finished.
    win_rate: dict[str, Any] | None = None
    elo: dict[str, Any] | None = None
    #: Under --duplicate: the independent games (or hands) the pairing's pairs are worth (the win rate's n_eff).
    effective: float | None = None
    #: What each player's bot did: hands forfeited, of which for not answering in time, stale replies sent;
    #: the external programs as their handshakes named them; the forfeits grouped by player and reason.
    forfeits: dict[str, int] = field(default_factory=dict)
    time_outs: dict[str, int] = field(default_factory=dict)
    stale_replies: dict[str, int] = field(default_factory=dict)
    programs: dict[str, dict[str, str]] = field(default_factory=dict)
    forfeit_reasons: list[dict[str, Any]] = field(default_factory=list)

    @property
    def games(self) -> int:
        return sum(self.wins.values()) + self.draws

    def score(self, player: str) -> float:
        """``player``'s score share: wins, and a half for each draw."""
        return (self.wins[player] + self.draws / 2) / self.games if self.games else 0.5

    @classmethod
    def of(cls, spec: MatchSpec, tally: Tally) -> PairingResult:
        a, b = spec.names
        key = "games_won" if spec.unit == "games" else "hands_won"
        wins = {n: tally.players[n][key] for n in (a, b)}
        played = tally.games if spec.unit == "games" else tally.hands
        pairs = None
        est = Estimate.of(tally.samples)
        if spec.duplicate:
            gain = duplicate_gain(tally.pair_scores)
            pairs = {"won_both": sum(1 for x in tally.samples if x == 1.0),
                     "split": sum(1 for x in tally.samples if 0.0 < x < 1.0),
                     "lost_both": sum(1 for x in tally.samples if x == 0.0),
                     "correlation": rounded(gain["correlation"], 3), "effective": rounded(gain["effective"], 1)}
        win_rate = elo = None
        if est.n:
            win_rate = {"player": a, "value": round(est.mean, 4), "low": round(est.low, 4),
                        "high": round(est.high, 4), "samples": est.n, "confidence": 0.95}
            elo = dict(est.elo(), player=a)
        players = {n: tally.players[n] for n in (a, b)}
        return cls((a, b), (spec.bots[0], spec.bots[1]), tally.sessions, spec.unit, wins,
                   max(0, played - sum(wins.values())), {n: p["points"] for n, p in players.items()}, pairs,
                   tally.sprt.status(tally.samples) if tally.sprt is not None else None, win_rate, elo,
                   est.effective if spec.duplicate and est.n else None,
                   {n: p["forfeits"] for n, p in players.items()}, {n: tally.time_outs(n) for n in players},
                   {n: p.get("stale_replies", 0) for n, p in players.items()},
                   {n: dict(p["program"]) for n, p in players.items() if p.get("program")}, tally.forfeit_groups())

    def to_dict(self) -> dict[str, Any]:
        a, b = self.players
        out: dict[str, Any] = {"players": [a, b], "bots": list(self.bots), "sessions": self.sessions,
                               "unit": self.unit[:-1], "games": self.games, "wins": dict(self.wins),
                               "draws": self.draws, "score": round(self.score(a), 4), "points": dict(self.points)}
        if self.win_rate is not None:
            out["win_rate"] = dict(self.win_rate)
            out["elo"] = dict(self.elo or {})
        if self.pairs is not None:
            out["pairs"] = dict(self.pairs)
        if self.sprt is not None:
            out["sprt"] = self.sprt
        out.update({"forfeits": dict(self.forfeits), "time_outs": dict(self.time_outs),
                    "stale_replies": dict(self.stale_replies), "programs": dict(self.programs),
                    "forfeit_reasons": list(self.forfeit_reasons)})
        return out


def tournament_summary(tour: TournamentSpec, header: dict[str, Any], matches: list[Any], tallies: list[Tally],
                       anchor: str | None, anchor_elo: float) -> dict[str, Any]:
    """``gin tournament --format json``: the players (best first) and every pairing."""
    from ..base.version import __version__

    results = [PairingResult.of(m, t) for m, t in zip(matches, tallies, strict=True)]
    games = [(r.players[0], r.players[1], r.wins[r.players[0]], r.wins[r.players[1]], r.draws) for r in results]
    played_any = [g for g in games if sum(g[2:]) > 0]
    # under --duplicate the pairs are the independent unit: each pairing's games count for what its pairs are worth
    worth = {r.players: r.effective for r in results if r.effective is not None} if tour.duplicate else None
    try:
        fit = bradley_terry(played_any, anchor=anchor, anchor_elo=anchor_elo, effective=worth) if played_any else {}
    except ValueError:  # the anchor played no game (a tournament stopped before its pairings)
        fit = bradley_terry(played_any, effective=worth) if played_any else {}
    players = []
    for i, name in enumerate(tour.names):
        played = [r for r in results if name in r.players]
        n = sum(r.games for r in played)
        score = sum(r.wins[name] + r.draws / 2 for r in played)
        r = fit.get(name)
        entry: dict[str, Any] = {"name": name, "bot": tour.bots[i], "games": n,
                                 "score": round(score / n, 4) if n else None, "points": score,
                                 "rating": rounded(r.elo if r else None), "rating_low": rounded(r.low if r else None),
                                 "rating_high": rounded(r.high if r else None)}
        if r is not None and r.elo is None:
            entry["unbounded"] = "above" if r.bound == math.inf else "below" if r.bound == -math.inf else "unknown"
        for what in ("forfeits", "time_outs", "stale_replies"):
            entry[what] = sum(getattr(pairing, what)[name] for pairing in played)
        program = next((pairing.programs[name] for pairing in reversed(played) if name in pairing.programs), None)
        if program is not None:  # as its handshake named it (the last pairing's, if it changed)
            entry["program"] = program
        players.append(entry)
    players.sort(key=_rank_key)
    for rank, p in enumerate(players, 1):
        p["rank"] = rank
    return {"players": players, "pairings": [r.to_dict() for r in results],
            "kind": "gauntlet" if tour.gauntlet is not None else "round robin", "gauntlet": tour.gauntlet,
            "unit": tour.unit[:-1], "per_pairing": tour.count, "duplicate": tour.duplicate, "seed": tour.seed,
            "variant": header["variant"], "scoring": header["scoring"], "options": tour.options,
            "rules": header["options"],
            "anchor": {"name": anchor, "rating": anchor_elo} if anchor else None, **_provenance(__version__)}


def _provenance(version: str) -> dict[str, Any]:
    import platform

    return {"gincli": version, "python": platform.python_version(), "platform": platform.platform()}


def _rank_key(p: dict[str, Any]) -> tuple[float, float, str]:
    """Best first: by rating (an unbounded one at its end), then score."""
    unbounded = p.get("unbounded")
    rating = float("inf") if unbounded == "above" else float("-inf") if unbounded == "below" else (p["rating"] or 0)
    return (-rating, -(p["score"] or 0), p["name"])
