"""The match runner: sessions between two bots, reproducible by seed, on as many
worker processes as asked, resumable, with the statistics of
:mod:`gincli.stats`.

Session ``i`` is dealt from its own seed, derived from the match seed alone
(:func:`session_seed`); each bot gets its own generator derived from that
seed and its seat. So a session's play depends only on the match seed and
``i``, never on which worker played it or when: the transcripts and the
summary are the same whatever ``--workers`` is. With ``duplicate``, sessions
``2k`` and ``2k+1`` share deal ``k`` with the bots' seats swapped.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .bots import Bot
from .engine import Hand
from .rng import GOLDEN, MASK64, SplitMix64
from .scoring import HandResult
from .stats import Estimate, Sprt
from .table import play_session


def session_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` of a match: ``SplitMix64(seed ^ (index *
    0x9E3779B97F4A7C15 mod 2**64)).next64()``."""
    return SplitMix64((seed ^ ((index * GOLDEN) & MASK64)) & MASK64).next64()


@dataclass
class MatchSpec:
    """What a match plays: everything that decides its outcome (and nothing else)."""

    bots: tuple[str, str]
    names: tuple[str, str]
    unit: str  # "hands" or "games"
    count: int
    seed: int
    variant: str
    scoring: str
    options: dict[str, Any] = field(default_factory=dict)
    duplicate: bool = False
    time_limit: float = 5.0

    def seats(self, index: int) -> tuple[str, str]:
        """The players in seat order for session ``index`` (swapped on the second
        session of a duplicate deal)."""
        if self.duplicate and index % 2 == 1:
            return self.names[1], self.names[0]
        return self.names

    def seed_of(self, index: int) -> int:
        return session_seed(self.seed, index // 2 if self.duplicate else index)

    def session_id(self, index: int) -> str:
        return f"s{index}"


@dataclass
class SessionOutcome:
    """What the main process needs of one played session (small, picklable)."""

    index: int
    hands: list[tuple[str, str | None, int, str | None]]  # (outcome, winner, points, forfeiter)
    winner: str | None
    transcript: str | None = None
    forfeits: list[tuple[str, str]] = field(default_factory=list)  # (player, reason)

    @classmethod
    def from_transcript(cls, index: int, doc: dict[str, Any], line: str | None = None) -> SessionOutcome:
        """Rebuild an outcome from a transcript written earlier (``--resume``)."""
        hands = []
        forfeits = []
        for h in doc.get("hands", []):
            r = h.get("result", {})
            f = h.get("forfeit")
            hands.append((r.get("outcome"), r.get("winner"), r.get("points", 0), f.get("player") if f else None))
            if f:
                forfeits.append((f.get("player"), f.get("reason", "")))
        return cls(index, hands, (doc.get("result") or {}).get("winner"), line, forfeits)


def play_match_session(spec: MatchSpec, index: int, registry: Any, record: bool) -> SessionOutcome:
    """Play session ``index`` of a match."""
    variant = registry.variant(spec.variant)
    system = registry.scoring(spec.scoring)
    rules = registry.rules(variant, system, spec.options)
    seats = spec.seats(index)
    seed = spec.seed_of(index)
    bots: dict[str, Bot] = {}
    for name in seats:
        factory = registry.bot(spec.bots[spec.names.index(name)])
        if hasattr(factory, "time_limit"):
            factory.time_limit = spec.time_limit
        bots[name] = factory(SplitMix64(seed).derive(1 + spec.names.index(name)), name)
    notify = [b for b in bots.values() if type(b).hand_over is not Bot.hand_over]

    def choose(hand: Hand) -> Any:
        p = hand.to_act
        return bots[p].choose(hand.view(p))

    def on_hand(hand: Hand, result: HandResult, session: Any) -> None:
        for bot in notify:
            bot.hand_over(hand.view(bot.seat), result.to_dict())

    rec = play_session(seats, variant, rules, system, choose, seed, id=spec.session_id(index),
                       options=spec.options or None, record=record, on_hand=on_hand if notify else None)
    for bot in bots.values():
        bot.close()
    hands = []
    forfeits = []
    for r in rec.results:
        f = r.forfeit
        hands.append((r.outcome, r.winner, r.points, f["player"] if f else None))
        if f:
            forfeits.append((f["player"], f["reason"]))
    line = json.dumps(rec.transcript, ensure_ascii=False) if record else None
    return SessionOutcome(index, hands, rec.result.get("winner"), line, forfeits)


class Tally:
    """The running totals and statistics of a match."""

    def __init__(self, spec: MatchSpec, sprt: Sprt | None = None):
        self.spec = spec
        self.sprt = sprt
        self.players = {name: {"name": name, "bot": bot, "hands_won": 0, "games_won": 0, "points": 0,
                               "gins": 0, "big_gins": 0, "undercuts": 0, "knocks": 0, "forfeits": 0}
                        for name, bot in zip(spec.names, spec.bots)}
        self.hands = 0
        self.games = 0
        self.dead = 0
        self.sessions = 0
        self.samples: list[float] = []  # the first player's score per unit (or per duplicate pair)
        self._pair: list[float] = []
        self.reasons: list[str] = []

    def add(self, out: SessionOutcome) -> None:
        first = self.spec.names[0]
        unit_scores = []
        for outcome, winner, points, forfeiter in out.hands:
            self.hands += 1
            if winner is None:
                self.dead += 1
                unit_scores.append(0.5)
                continue
            p = self.players[winner]
            p["hands_won"] += 1
            p["points"] += points
            if outcome in ("gin", "big_gin", "undercut", "knock"):
                p[{"gin": "gins", "big_gin": "big_gins", "undercut": "undercuts", "knock": "knocks"}[outcome]] += 1
            if forfeiter is not None:
                self.players[forfeiter]["forfeits"] += 1
            unit_scores.append(1.0 if winner == first else 0.0)
        for player, reason in out.forfeits:
            if len(self.reasons) < 10:
                self.reasons.append(f"{player}: {reason}")
        self.sessions += 1
        if self.spec.unit == "games":
            self.games += 1
            if out.winner is not None:
                self.players[out.winner]["games_won"] += 1
            unit_scores = [1.0 if out.winner == first else 0.5 if out.winner is None else 0.0]
        if self.spec.duplicate:
            self._pair.extend(unit_scores)
            if out.index % 2 == 1:
                self.samples.append(sum(self._pair) / len(self._pair) if self._pair else 0.5)
                self._pair = []
        else:
            self.samples.extend(unit_scores)

    def decided(self) -> bool:
        return self.sprt is not None and self.sprt.decided(self.samples)

    def summary(self) -> dict[str, Any]:
        """The match summary (``gin match --format json``)."""
        spec = self.spec
        est = Estimate.of(self.samples)
        players = []
        for p in self.players.values():
            q = dict(p)
            q["points_per_hand"] = round(p["points"] / self.hands, 3) if self.hands else 0.0
            players.append(q)
        first = spec.names[0]
        out: dict[str, Any] = {
            "hands": self.hands, "games": self.games, "sessions": self.sessions, "players": players,
            "dead_hands": self.dead,
            "unit": spec.unit[:-1],
            "win_rate": {"player": first, "value": round(est.mean, 4), "low": round(est.low, 4),
                         "high": round(est.high, 4), "samples": est.n, "confidence": 0.95},
            "elo": dict(est.elo(), player=first),
            "forfeit_reasons": self.reasons,
            "seed": spec.seed, "variant": spec.variant, "scoring": spec.scoring, "options": spec.options,
            "duplicate": spec.duplicate, "bots": list(spec.bots),
        }
        if self.sprt is not None:
            out["sprt"] = self.sprt.status(self.samples)
        return out


def read_transcripts(path: str, spec: MatchSpec) -> tuple[list[SessionOutcome], int]:
    """The sessions an earlier run of this match wrote (``--resume``): complete,
    consistent lines from the start; returns them and the byte length they take
    (anything after, a line cut short by Ctrl-C, is to be dropped)."""
    from .errors import UsageError

    outcomes = []
    keep = 0
    with open(path, "rb") as fh:
        for index, raw in enumerate(fh):
            if not raw.endswith(b"\n"):
                break
            try:
                doc = json.loads(raw)
            except ValueError:
                break
            expected = spec.session_id(index)
            if (doc.get("id") != expected or doc.get("variant") != spec.variant
                    or doc.get("scoring") != spec.scoring or sorted(doc.get("players", [])) != sorted(spec.names)
                    or doc.get("seed") != spec.seed_of(index)):
                raise UsageError(f"{path} holds another match's sessions (line {index + 1} is not session "
                                 f"{expected} of this one: same --bots, --seed, --variant, --scoring and "
                                 "--option are needed to resume)")
            outcomes.append(SessionOutcome.from_transcript(index, doc, raw.decode().rstrip("\n")))
            keep += len(raw)
    return outcomes, keep
