"""The match runner: sessions between bots (two, or as many as the scoring
system seats), reproducible by seed, on as many worker processes as asked,
resumable, with the statistics of :mod:`gincli.matches.stats`.

Session ``i`` is dealt from its own seed, derived from the match seed alone
(:func:`session_seed`); each bot gets its own generator derived from that
seed and its seat. So a session's play depends only on the match seed and
``i``, never on which worker played it or when: the transcripts and the
summary are the same whatever ``--workers`` is. With ``duplicate``, sessions
``2k`` and ``2k+1`` share seed ``k`` with the bots' seats swapped, and every
hand is dealt as the session's first dealer would deal it: hand for hand, each
player holds in one session the cards the other held in the other.
"""

from __future__ import annotations

import collections
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..base.contract import PluginFault
from ..base.errors import GinError, clip, debug_enabled
from ..base.jsonio import dumps
from ..formats.records import RuleSource
from ..hand.bots import Bot, StoppedByBot, failure, timed_out
from ..hand.engine import Hand
from ..rulebook.irregular import IRREGULAR, VOID
from ..rulebook.rng import GOLDEN, MASK64, SplitMix64
from ..rulebook.rules import Rules
from ..rulebook.scoring import HandResult
from ..rulebook.variant import Variant
from ..sessions.systems import ScoringSystem
from ..sessions.table import play_session
from .external import configure, identities, is_external
from .external.protocol import START_FAILURES, speaks, start_failure, stderr_quoted
from .stats import Z95, Estimate, Running, Sprt, duplicate_gain, los, normalized_elo, pair_counts, rounded, wdl

#: Hands a player may forfeit in a row before the match stops (--max-forfeits).
DEFAULT_MAX_FORFEITS = 10
#: The reasons of each player's forfeits grouped one by one (``forfeit_reasons``), the first so
#: many in the order they came; past them, that player's forfeits for any other reason are
#: one group more (:data:`OTHER_REASONS`): a bot whose reasons never repeat (a counter, a
#: time in its message) gives a summary of a bounded size however long the match.
REASONS_KEPT = 20
#: The ``reason`` of the group past :data:`REASONS_KEPT` (marked ``"others": true``).
OTHER_REASONS = "other reasons"


class ForfeitStop(StoppedByBot):
    """A bot forfeited ``--max-forfeits`` hands in a row: the match stops (exit 2)."""


def session_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` of a match: ``SplitMix64(seed ^ (index *
    0x9E3779B97F4A7C15 mod 2**64)).next64()``."""
    return SplitMix64((seed ^ ((index * GOLDEN) & MASK64)) & MASK64).next64()


@dataclass
class MatchSpec:
    """What a match plays: everything that decides its outcome (and nothing else)."""

    bots: tuple[str, ...]
    names: tuple[str, ...]
    unit: str  # "hands" or "games"
    count: int
    seed: int
    variant: str
    scoring: str
    options: dict[str, Any] = field(default_factory=dict)
    duplicate: bool = False
    time_limit: float = 5.0
    max_hands: int = 10_000  # a session still unsettled after this many hands stops (capped)
    start_time_limit: float = 30.0  # for an external bot to answer its handshake
    bot_log: str | None = None  # a folder to keep each external bot's standard error in
    bot_trace: str | None = None  # a folder to keep each external bot's exchanges in
    #: Hands a player forfeits in a row that stop the match (0: never).
    max_forfeits: int = DEFAULT_MAX_FORFEITS
    #: In a tournament (:mod:`.tournament`): the pairing this match is, and the tournament's own field.
    pairing: int | None = None
    tournament: dict[str, Any] | None = None

    def seats(self, index: int) -> tuple[str, ...]:
        """The players in seat order for session ``index`` (swapped on the second
        session of a duplicate deal, which only two players play)."""
        if self.duplicate and index % 2 == 1:
            return self.names[1], self.names[0]
        return self.names

    def seed_of(self, index: int) -> int:
        return session_seed(self.seed, index // 2 if self.duplicate else index)

    def session_id(self, index: int) -> str:
        return f"s{index}" if self.pairing is None else f"p{self.pairing}s{index}"

    def session_name(self, index: int) -> str:
        """Session ``index`` for people, numbered from 1 (``session 3``, ``pairing 2 session 3``)."""
        return f"session {index + 1}" if self.pairing is None else f"pairing {self.pairing + 1} session {index + 1}"

    def match_field(self) -> dict[str, Any]:
        """gincli's ``match`` field of every transcript the match writes: what,
        with the variant, scoring and options, tells its sessions from another
        match's (``--resume``); in a tournament, also its pairing and the
        tournament's own field."""
        field = {"bots": list(self.bots), "names": list(self.names), "seed": self.seed,
                 "duplicate": self.duplicate, "unit": self.unit}
        if self.pairing is not None:
            field["pairing"] = self.pairing
            field["tournament"] = self.tournament
        return field


#: The player's counter of each way a hand is won that is counted.
_COUNTED = {"gin": "gins", "big_gin": "big_gins", "undercut": "undercuts", "knock": "knocks"}


@dataclass
class SessionOutcome:
    """What the main process needs of one played session (small, picklable)."""

    index: int
    #: Each hand: (outcome, winner, points, forfeiter, the two who played it).
    hands: list[tuple[str, str | None, int, str | None, tuple[str, ...]]]
    winner: str | None  # the session's winner: a name (a side's or team's, with more players: see scores)
    transcript: str | None = None
    forfeits: list[tuple[str, str, int]] = field(default_factory=list)  # (player, reason, hand index)
    capped: bool = False
    scores: dict[str, Any] = field(default_factory=dict)  # each player's net result, once settled
    winners: list[str] = field(default_factory=list)  # who won the session (a side's members, with more players)
    programs: dict[str, dict[str, Any]] = field(default_factory=dict)  # external bots' name and version, by player
    stalled: int = 0  # hands stopped at the engine's move cap (dead)
    #: Left before it was settled and not at the hand cap (a gin play session quit): no game won nor drawn.
    unfinished: bool = False

    def __reduce__(self) -> tuple[type[SessionOutcome], tuple[Any, ...]]:
        """Pickled as its fields in order (:func:`dataclasses.fields`; tests/test_match.py holds it to
        them): a worker sends one a session, and the driver loads it in 2.5 µs where the
        dataclass's default state took 4."""
        return SessionOutcome, (self.index, self.hands, self.winner, self.transcript, self.forfeits, self.capped,
                                self.scores, self.winners, self.programs, self.stalled, self.unfinished)

    @classmethod
    def from_transcript(cls, index: int, doc: dict[str, Any], line: str | None = None) -> SessionOutcome:
        """Rebuild an outcome from a transcript written earlier (``--resume``)."""
        hands = []
        forfeits = []
        players = tuple(doc.get("players", ()))
        for hi, h in enumerate(doc.get("hands", [])):
            if "result" not in h and not h.get("forfeit"):
                continue  # a hand left unfinished (a gin play session quit in the middle of it)
            r = h.get("result", {})
            f = h.get("forfeit")
            pair = tuple(h.get("players", players))
            hands.append((r.get("outcome"), r.get("winner"), r.get("points", 0), f.get("player") if f else None,
                          pair))
            if f:
                forfeits.append((f.get("player"), f.get("reason", ""), hi))
        result = doc.get("result") or {}
        named = doc.get("programs")
        if not isinstance(named, dict):
            named = {}
        programs = {p: {"name": str(i.get("name", ""))[:80], "version": str(i.get("version", ""))[:40],
                        "stale_replies": stale if type(stale := i.get("stale_replies", 0)) is int and stale > 0 else 0}
                    for p, i in named.items() if isinstance(p, str) and isinstance(i, dict)}
        return cls(index, hands, session_winner(result), line, forfeits, doc.get("capped") is True,
                   dict(result.get("scores", {})) if "winner" in result else {}, session_winners(result),
                   programs, stalled=sum(1 for h in doc.get("hands", []) if h.get("stalled") is True),
                   unfinished=not isinstance(doc.get("result"), dict) and doc.get("capped") is not True)


def session_winners(result: Mapping[str, Any]) -> list[str]:
    """Who won a settled session: its winner; with more players, every player
    with the best net result, when it is a gain (a side's or a team's members)."""
    winner = result.get("winner")
    scores = result.get("scores") or {}
    if isinstance(winner, str) and winner in scores:
        return [winner]
    if winner is None or not scores:
        return []
    best = max(scores.values())
    return [p for p, v in scores.items() if v == best] if best > 0 else []


def session_winner(result: Mapping[str, Any]) -> str | None:
    """The one winner of a settled session, or None (a tie, or several winners)."""
    winners = session_winners(result)
    return winners[0] if len(winners) == 1 else None


#: Each third-party plugin bot's thread in this process, by its spec (``name:k=v``).
_BOT_THREADS: dict[tuple[str, float], Any] = {}


def timed_if_third_party(bot: str, factory: Any, limit: float | None) -> Any:
    """A bot class of a third-party plugin plays under the match's time limit,
    as an external program does: each of its calls on a thread of its own
    (:class:`~gincli.matches.pybots.TimedBot`), a decision past the limit
    forfeits the hand. The built-in bots (gincli's own code, and the fast path)
    and what is not a plugin's class (an external program, a Python object
    of the API, already timed) are called as they are."""
    if not limit or is_external(factory) or not (isinstance(factory, type) and issubclass(factory, Bot)) \
            or factory.__module__.split(".")[0] in ("gincli", "gincli_builtin"):
        return factory
    from .pybots import BotThread, TimedBot

    thread = _BOT_THREADS.get((bot, limit))
    if thread is None:
        thread = _BOT_THREADS[(bot, limit)] = BotThread(limit)

    def timed(rng: SplitMix64, seat: str = "") -> Bot:
        return TimedBot(factory(rng, seat), thread)

    return timed


class MatchSource(RuleSource[ScoringSystem], Protocol):
    """What playing a match's sessions needs of the plugins (the registry is
    one, handed down by the command or loaded by a worker): the rules, a bot
    for each spec (:class:`~gincli.base.errors.UsageError` when none can be
    made), and what a transcript writes of the rules and of the plugins."""

    def bot(self, spec: str) -> Callable[[SplitMix64, str], Bot]: ...

    def transcript_options(self, variant: Variant, rules: Rules) -> dict[str, Any]: ...

    def transcript_plugins(self, variant: Variant, system: ScoringSystem, rules: Rules,
                           options: Mapping[str, Any]) -> dict[str, dict[str, Any]]: ...


def play_match_session(spec: MatchSpec, index: int, registry: MatchSource, record: bool) -> SessionOutcome:
    """Play session ``index`` of a match."""
    variant = registry.variant(spec.variant)
    system = registry.scoring(spec.scoring)
    rules = registry.rules(variant, system, spec.options)
    seats = spec.seats(index)
    seed = spec.seed_of(index)
    bots: dict[str, Bot] = {}
    for name in seats:
        factory = registry.bot(spec.bots[spec.names.index(name)])
        configure(factory, spec.time_limit, spec.start_time_limit, spec.bot_log, spec.bot_trace)
        factory = timed_if_third_party(spec.bots[spec.names.index(name)], factory, spec.time_limit)
        bot = bots[name] = factory(SplitMix64(seed).derive(1 + spec.names.index(name)), name)
        bot.players = tuple(seats)
        if speaks(bot):
            bot.session_name = spec.session_name(index)
    notify = [b for b in bots.values() if type(b).hand_over is not Bot.hand_over]

    def choose(hand: Hand) -> Any:
        p = hand.to_act
        return bots[p].choose(hand.view(p))

    def on_hand(hand: Hand, result: HandResult, session: Any) -> None:
        for bot in notify:
            if bot.seat in hand.players:
                told(bot, "hand_over", bot.hand_over, hand.view(bot.seat), result.to_dict())

    options = registry.transcript_options(variant, rules) if record else None
    plugins = registry.transcript_plugins(variant, system, rules, options) if options is not None else None
    rec = play_session(seats, variant, rules, system, choose, seed, id=spec.session_id(index), options=options,
                       plugins=plugins, max_hands=spec.max_hands, record=record, duplicate=spec.duplicate,
                       on_hand=on_hand if notify else None)
    for bot in bots.values():
        told(bot, "close", bot.close, at=f" (at the end of session {spec.session_id(index)})")
    programs = identities(bots)
    hands = []
    forfeits = []
    for hi, (r, pair) in enumerate(zip(rec.results, rec.pairs, strict=True)):
        f = r.forfeit
        hands.append((r.outcome, r.winner, r.points, f["player"] if f else None, pair))
        if f:
            forfeits.append((f["player"], f["reason"], hi))
            bot = bots.get(f["player"])
            if bot is not None and speaks(bot):  # its last words, for a stop to quote (--max-forfeits)
                programs[f["player"]]["stderr_tail"] = bot.program.stderr_tail()
    line = None
    if record:
        rec.transcript["match"] = spec.match_field()
        named = {p: {"name": i.get("name", ""), "version": i.get("version", ""),
                     **({"stale_replies": i["stale_replies"]} if i.get("stale_replies") else {})}
                 for p, i in programs.items() if i.get("name") or i.get("version") or i.get("stale_replies")}
        if named:  # each external bot as its handshake named it: results are traceable
            rec.transcript["programs"] = named
        line = dumps(rec.transcript)
    settled = not rec.capped
    return SessionOutcome(index, hands, session_winner(rec.result) if settled else None, line, forfeits,
                          rec.capped, dict(rec.result.get("scores", {})) if settled else {},
                          session_winners(rec.result) if settled else [], programs, rec.stalled)


def told(bot: Bot, what: str, fn: Any, *args: Any, at: str = "") -> None:
    """``fn(*args)``, a bot's ``hand_over`` or ``close``: what it raises (a
    ``sys.exit()`` too, but not Ctrl-C) is a :class:`PluginFault` naming the
    bot, as there is no hand left to forfeit."""
    try:
        fn(*args)
    except (GinError, KeyboardInterrupt):
        raise
    except BaseException as exc:
        if debug_enabled():
            raise
        raise PluginFault(f"the bot {bot.name or bot.seat}'s {what} {failure(exc)}{at}") from None


class Tally:
    """The running totals and statistics of a match."""

    def __init__(self, spec: MatchSpec, sprt: Sprt | None = None, variant: str | None = None,
                 rules: Mapping[str, Any] | None = None):
        self.spec = spec
        #: Every option's value the match was played under (the summary states them).
        self.rules = rules
        self.sprt = sprt
        self.variant = variant or spec.variant
        self.players: dict[str, dict[str, Any]] = {
            name: {"name": name, "bot": bot, "games_won": 0, "hands_played": 0, "hands_won": 0, "points": 0, "gins": 0,
                   "big_gins": 0, "undercuts": 0, "knocks": 0, "forfeits": 0}
            for name, bot in zip(spec.names, spec.bots, strict=True)}
        self.nets: dict[str, list[float]] = {name: [] for name in spec.names}  # net result of each settled session
        self.settled: list[int] = []  # the index of each settled session, in the order of ``nets``
        self.hands = 0
        self.games = 0
        self.dead = 0
        self.irregular = 0  # hands nobody won because the winner held too many cards (RULES.md)
        self.redeals = 0  # hands voided at the table, dealt again
        self.sessions = 0
        self.samples: list[float] = []  # two players: the first player's score per unit (or duplicate pair)
        self.units = Running()  # two players: the first player's score each game (or hand), duplicate or not
        #: The samples' sums, for the SPRT's check after every session in constant time: without
        #: --duplicate the samples are the units' scores, and this is ``units`` itself.
        self.sums = Running() if spec.duplicate else self.units
        self._pair: list[float] = []
        self._session: list[float] = []  # under --duplicate: the first player's score in the pair's first session
        #: Under --duplicate: the first player's score in each session of each pair (a session's mean with hands).
        self.pair_scores: list[tuple[float, float]] = []
        #: Two players, ``--hands``: the first player's points less the other's, a hand (or a duplicate pair's mean).
        self.margins: list[float] = []
        self._pair_margin: list[float] = []
        #: Forfeits grouped by (player, reason); a player's past :data:`REASONS_KEPT` by (player, None).
        self.reasons: dict[tuple[str, str | None], dict[str, Any]] = {}
        self._reasons_kept: dict[str, int] = {}  # each player's groups of one reason
        self._time_outs: dict[str, int] = {}  # each player's forfeits for not answering in time
        self.capped = 0  # sessions stopped by the hand cap, unsettled
        self.unfinished = 0  # sessions left before they were settled (a gin play session quit): no game
        self._failed: dict[str, int] = {}  # sessions in a row in which an external bot failed to start
        self._stderr: dict[str, list[str]] = {}  # the last lines a failing start wrote, by player, in this run
        #: The last lines an external bot wrote on its standard error by its last forfeit, by player, in this run.
        self._last_words: dict[str, list[str]] = {}
        #: Hands each player forfeited in a row: how many, and the last three (session, hand, reason).
        self._forfeits: dict[str, list[Any]] = {}
        self.stalled = 0  # hands stopped at the engine's move cap

    @property
    def two_players(self) -> bool:
        return len(self.spec.names) == 2

    def add(self, out: SessionOutcome, check: bool = True) -> None:
        """Count a session. ``check``: stop the match (:class:`ForfeitStop`,
        :class:`BotStartFailure`) when a bot forfeited ``max_forfeits`` hands
        in a row or failed to start too often, once the session is counted; a
        resumed file's sessions are counted without (they are done: the bot
        may be fixed since, and the hands in a row are counted afresh)."""
        if check:
            reasons = {h: r for _, r, h in out.forfeits}
            for hi, (_, _, _, forfeiter, pair) in enumerate(out.hands):
                for name in pair:
                    if name == forfeiter:
                        run = self._forfeits.setdefault(name, [0, collections.deque(maxlen=3)])
                        run[0] += 1
                        run[1].append((out.index, hi, reasons.get(hi, "")))
                    else:
                        self._forfeits.pop(name, None)
        self._add(out, check)
        if check:
            self._check_forfeits()

    def _add(self, out: SessionOutcome, check: bool) -> None:
        first = self.spec.names[0]
        unit_scores = []
        margins = []
        for outcome, winner, points, forfeiter, pair in out.hands:
            if outcome == VOID:  # a voided hand is no hand played
                self.redeals += 1
                continue
            self.hands += 1
            for name in pair:
                if name in self.players:
                    self.players[name]["hands_played"] += 1
            if winner is None:
                if outcome == IRREGULAR:  # played, won by nobody, but not dead
                    self.irregular += 1
                else:
                    self.dead += 1
                unit_scores.append(0.5)
                margins.append(0.0)
                continue
            p = self.players[winner]
            p["hands_won"] += 1
            p["points"] += points
            counter = _COUNTED.get(outcome)
            if counter is not None:
                p[counter] += 1
            if forfeiter is not None and forfeiter in self.players:
                self.players[forfeiter]["forfeits"] += 1
            unit_scores.append(1.0 if winner == first else 0.0)
            margins.append(float(points if winner == first else -points))
        for player, reason, hand in out.forfeits:
            self._forfeit(player, reason, out.index, hand)
        self.sessions += 1
        self.capped += out.capped
        self.unfinished += out.unfinished
        self.stalled += out.stalled
        for name, identity in out.programs.items():
            # Starts in a row that failed, counted over the sessions in their order (not per worker): so many
            # stop the match, whatever the split of the work.
            failed = identity.get("failed_starts", 0)
            run = failed if identity.get("answered") else self._failed.get(name, 0) + failed
            self._failed[name] = run
            if "stderr_tail" in identity:
                self._last_words[name] = identity["stderr_tail"]
            if identity.get("stderr"):
                self._stderr[name] = identity["stderr"]
            elif not run:
                self._stderr.pop(name, None)
            if run >= START_FAILURES and check:
                # its standard error as the last failing start that wrote any left it (another worker's, maybe)
                raise start_failure(identity.get("label", name), START_FAILURES, identity.get("failed_start", ""),
                                    identity.get("stderr") or self._stderr.get(name, []))
            if name in self.players:
                p = self.players[name]
                if identity.get("name") or identity.get("version"):
                    p["program"] = {"name": identity.get("name", ""), "version": identity.get("version", "")}
                p["stale_replies"] = p.get("stale_replies", 0) + identity.get("stale_replies", 0)
        if out.scores:
            self.settled.append(out.index)
        for name, net in out.scores.items():
            if name in self.nets:
                self.nets[name].append(net)

        if self.spec.unit == "games" and out.unfinished:  # its finished hands count; it is no game
            unit_scores = []
        elif self.spec.unit == "games":
            self.games += 1
            for name in out.winners:
                if name in self.players:
                    self.players[name]["games_won"] += 1
            unit_scores = [1.0 if out.winner == first else 0.5 if out.winner is None else 0.0]
        if not self.two_players:
            return
        for x in unit_scores:
            self.units.add(x)
        if self.spec.duplicate:
            self._pair.extend(unit_scores)
            self._pair_margin.extend(margins)
            if out.index % 2 == 0:
                self._session = unit_scores
            elif self._session and unit_scores:
                mine, theirs = self._session, unit_scores
                self.pair_scores.append((sum(mine) / len(mine), sum(theirs) / len(theirs)))
            if out.index % 2 == 1:
                self.samples.append(sum(self._pair) / len(self._pair) if self._pair else 0.5)
                self.sums.add(self.samples[-1])
                if self.spec.unit == "hands":
                    m = self._pair_margin
                    self.margins.append(sum(m) / len(m) if m else 0.0)
                self._pair = []
                self._pair_margin = []
        else:
            if self.spec.unit == "hands":
                self.margins.extend(margins)
            self.samples.extend(unit_scores)  # their sums: units', above

    def _forfeit(self, player: str, reason: str, index: int, hand: int) -> None:
        """Count a forfeit in its group (:data:`REASONS_KEPT`), and as a time-out if it is one."""
        if timed_out(reason):
            self._time_outs[player] = self._time_outs.get(player, 0) + 1
        key: tuple[str, str | None] = (player, reason)
        group = self.reasons.get(key)
        if group is None:
            kept = self._reasons_kept.get(player, 0)
            others = kept >= REASONS_KEPT
            if others:
                key = (player, None)
                group = self.reasons.get(key)
            else:
                self._reasons_kept[player] = kept + 1
            if group is None:
                group = {"player": player, "reason": OTHER_REASONS if others else reason, "count": 0,
                         "first_session_index": index, "first_hand_index": hand}
                if others:
                    group["others"] = True
                self.reasons[key] = group
        group["count"] += 1

    def _check_forfeits(self) -> None:
        """:class:`ForfeitStop` when a player forfeited ``max_forfeits`` hands in a row."""
        limit = self.spec.max_forfeits
        if not limit:
            return
        for name, (count, latest) in self._forfeits.items():
            if count >= limit:
                bot = self.spec.bots[self.spec.names.index(name)] if name in self.spec.names else name
                said: dict[str, list[str]] = {}  # the last reasons, each once, with where it was given
                for index, hand, reason in latest:
                    said.setdefault(clip(reason, 200), []).append(f"{self.spec.session_name(index)} hand {hand + 1}")
                last = "; ".join(f"{', '.join(where)}: {reason}" for reason, where in said.items())
                words = stderr_quoted(self._last_words[name]) if name in self._last_words else ""
                raise ForfeitStop(f"{name} ({bot}) forfeited {count} hands in a row, so the match stops "
                                  f"(--max-forfeits {limit}); the last {len(latest)}: {last}{words}")

    def _nets(self, name: str) -> list[float]:
        """Each settled session's net result for ``name``: its score less the
        other's with two players; with more, the system's settlement (already a
        net: the players' results sum to 0). Under ``--duplicate``, each pair's
        mean over its settled sessions: the pairs are the independent unit."""
        if not self.two_players:
            return self.nets[name]
        other = next(n for n in self.spec.names if n != name)
        nets = [mine - theirs for mine, theirs in zip(self.nets[name], self.nets[other], strict=True)]
        if not self.spec.duplicate:
            return nets
        pairs: dict[int, list[float]] = {}
        for index, net in zip(self.settled, nets, strict=True):
            pairs.setdefault(index // 2, []).append(net)
        return [sum(pair) / len(pair) for pair in pairs.values()]

    def forfeit_groups(self) -> list[dict[str, Any]]:
        """Every group of forfeits (``player``, ``reason``, ``count``, where the
        first was; ``others``: the group of a player's forfeits past its first
        :data:`REASONS_KEPT` reasons), in the order they began."""
        return [dict(g) for g in sorted(self.reasons.values(),
                                        key=lambda g: (g["first_session_index"], g["first_hand_index"]))]

    def time_outs(self, name: str) -> int:
        """The hands ``name`` forfeited for not answering in time."""
        return self._time_outs.get(name, 0)

    def decided(self) -> bool:
        """Whether the SPRT has decided: asked after every session, so in
        constant time (running sums) while the ratio is clearly between its
        bounds; at or near one, from the samples themselves, as the summary's."""
        if self.sprt is None:
            return False
        lower, upper = self.sprt.bounds
        if lower + 1e-6 < self.sprt.llr_running(self.sums) < upper - 1e-6:
            return False
        return self.sprt.decided(self.samples)

    def summary(self) -> dict[str, Any]:
        """The match summary (``gin match --format json``)."""
        spec = self.spec
        players = []
        for name, p in self.players.items():
            q = dict(p)
            q["points_per_hand"] = round(p["points"] / p["hands_played"], 3) if p["hands_played"] else 0.0
            if self.spec.unit == "games":
                q["net_per_game"] = mean_interval(self._nets(name))
            players.append(q)
        out: dict[str, Any] = {
            "hands": self.hands, "games": self.games, "sessions": self.sessions, "players": players,
            "dead_hands": self.dead,
            "unit": spec.unit[:-1],
        }
        if self.two_players:
            est = Estimate.of(self.samples)
            first = spec.names[0]
            out["win_rate"] = {"player": first, "value": round(est.mean, 4), "low": round(est.low, 4),
                               "high": round(est.high, 4), "samples": est.n, "confidence": 0.95}
            out["elo"] = dict(est.elo(), player=first)
            # the raw counts behind the figures, and the figures of chess testers (docs/statistics.md)
            results = wdl(self.units)
            out["results"] = {"player": first, "unit": spec.unit[:-1], "wins": results["wins"],
                              "draws": results["draws"], "losses": results["losses"]}
            if spec.duplicate:
                pairs = pair_counts(self.samples)
                gain = duplicate_gain(self.pair_scores)
                out["pairs"] = {"player": first, "won_both": pairs["won_both"], "split": pairs["split"],
                                "lost_both": pairs["lost_both"], "other": pairs["other"],
                                "correlation": rounded(gain["correlation"], 3),
                                "effective": rounded(gain["effective"], 1)}
                ahead = sum(k for x, k in self.sums.counts.items() if x > 0.5)
                behind = sum(k for x, k in self.sums.counts.items() if x < 0.5)
                out["los"] = round(los(ahead, behind), 4)
            else:
                out["los"] = round(los(results["wins"], results["losses"]), 4)
            nelo = normalized_elo(self.sums, pairs=spec.duplicate)
            out["normalized_elo"] = {k: (round(v, 1) + 0.0 if v is not None else None) for k, v in nelo.items()}
            out["samples"] = {"player": first, "of": "pairs" if spec.duplicate else spec.unit,
                              "counts": [{"score": x, "count": k} for x, k in sorted(self.sums.counts.items())]}
            if spec.unit == "hands":  # what a hand match measures: points, beside the share of hands won
                margin = mean_interval(self.margins)
                out["points_per_hand"] = {"player": first, "diff": margin["mean"], "low": margin["low"],
                                          "high": margin["high"], "samples": margin["samples"],
                                          "confidence": 0.95}
        import platform

        from ..base.version import __version__

        out.update({
            "forfeit_reasons": self.forfeit_groups(),
            "seed": spec.seed, "variant": self.variant, "scoring": spec.scoring, "options": spec.options,
            "rules": dict(self.rules) if self.rules is not None else None,
            "duplicate": spec.duplicate, "bots": list(spec.bots),
            "max_hands": spec.max_hands, "capped_sessions": self.capped,
            **({"unfinished_sessions": self.unfinished} if self.unfinished else {}), "stalled_hands": self.stalled,
            # a game recorded at a table: its irregularities (never in a match of bots)
            **({"irregular_hands": self.irregular} if self.irregular else {}),
            **({"redeals": self.redeals} if self.redeals else {}),
            # what a figure was measured with (the rules are the options above)
            "gincli": __version__, "python": platform.python_version(), "platform": platform.platform(),
        })
        if self.sprt is not None:
            out["sprt"] = self.sprt.status(self.samples)
        return out


def mean_interval(values: list[float]) -> dict[str, Any]:
    """The mean of ``values`` with its 95% interval (normal approximation; the
    bounds are null, unbounded, below two samples)."""
    n = len(values)
    if n == 0:
        return {"mean": None, "low": None, "high": None, "samples": 0}
    mean = sum(values) / n
    if n < 2:
        return {"mean": round(mean, 2), "low": None, "high": None, "samples": 1}
    sd = (sum((v - mean) ** 2 for v in values) / (n - 1)) ** 0.5
    half = Z95 * sd / n ** 0.5
    return {"mean": round(mean, 2), "low": round(mean - half, 2), "high": round(mean + half, 2), "samples": n}
