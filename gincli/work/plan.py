"""What ``gin match``, ``gin tournament``, :func:`gincli.play_match` and
:func:`gincli.play_tournament` share before the first deal: one options
object (:class:`MatchOptions`, every option of the commands), checked (one
sentence for each mistake), the bots looked up, the seed chosen, the rules
resolved, the backend and its options found. No Typer here: the Python API
calls it as the commands do."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base.arguments import FLAGS, Spelling
from ..base.errors import UsageError, quote
from ..matches.backends import DEFAULT_BACKEND, MatchBackend, backend_named, backend_options
from ..matches.external import DEFAULT_TIME_LIMIT
from ..matches.runner import DEFAULT_MAX_FORFEITS, MatchSpec
from ..matches.stats import Sprt, parse_sprt
from ..matches.tournament import TournamentSpec
from ..plugin.registry import Registry
from ..rulebook.rules import Rules
from ..rulebook.variant import Variant
from ..sessions.systems import ScoringSystem, open_session
from .checks import check_seats, random_seed, utf8_text
from .names import bot_names


def _commas(say: Spelling) -> str:
    """How a list is given: on the command line, its items separated by commas; in Python, a list."""
    return " separated by commas" if say.flags else ""


@dataclass(frozen=True)
class MatchOptions:
    """Every option of a match or a tournament (``gin match``, ``gin
    tournament``, :func:`gincli.play_match`, :func:`gincli.play_tournament`),
    as one object: each face reads its own arguments into it (their values
    checked one by one: a whole number, a seed, a time limit), and the core
    checks how they go together (:func:`plan_match`, :func:`plan_tournament`)
    and plays them (:class:`gincli.work.match.MatchRun`). What only people see
    (the format, progress, the report page) stays the face's."""

    bots: tuple[str, ...]  # each a bot's spec: a name (with parameters), exec:COMMAND, a Python object's label
    hands: int | None = None
    games: int | None = None
    seed: int | None = None  # None: drawn (or, resuming, the file's)
    workers: int | None = None  # None: the backend's choice
    duplicate: bool = False
    variant: str = "standard"
    scoring: str | None = None  # None: game (hand with hands)
    options: Mapping[str, Any] = field(default_factory=dict)  # rule options set (--option)
    sprt: str | None = None
    names: str | None = None  # the players' names, separated by commas (--players)
    backend: str = DEFAULT_BACKEND
    backend_options: tuple[str, ...] | None = None  # KEY=VALUE
    address: str | None = None
    time_limit: float = DEFAULT_TIME_LIMIT  # seconds a decision of an external (or timed) bot
    start_time_limit: float = 30.0
    max_hands: int = 10_000
    bot_log: str | None = None
    bot_trace: str | None = None
    max_forfeits: int = DEFAULT_MAX_FORFEITS
    transcripts: str | None = None  # a file's path; "-": the face's stream; None: a sink the face gives, or none
    resume: bool = False
    bots_file: str | None = None
    gauntlet: int | None = None  # a tournament's: the first K bots play the rest
    anchor: str | None = None  # a tournament's: NAME[=ELO]
    #: The bots as they were given (the command line's text, the API's list), for the sentences.
    given: str | list[str] | None = None

    def spec_fields(self) -> dict[str, Any]:
        """What a match's spec takes of these beyond the deals: the limits and the bots' logs."""
        return {"time_limit": self.time_limit, "max_hands": self.max_hands,
                "start_time_limit": self.start_time_limit, "bot_log": self.bot_log, "bot_trace": self.bot_trace,
                "max_forfeits": self.max_forfeits}


@dataclass
class MatchPlan:
    """A match ready to play: its spec, the rules it plays under, what the
    transcripts' header holds, the SPRT (or None) and the backend."""

    spec: MatchSpec
    variant: Variant
    system: ScoringSystem
    rules: Rules
    header: dict[str, Any]
    test: Sprt | None
    backend: MatchBackend
    backend_options: dict[str, str]


def player_names(specs: list[str], names: str | None, say: Spelling = FLAGS) -> tuple[str, ...]:
    """The players' names: ``--players``, one a bot, or the bots' own (numbered where
    two would share one)."""
    if names is not None:
        parts = [n.strip() for n in utf8_text(names, say("names")).split(",")]
        if len(parts) != len(specs) or not all(parts) or len(set(parts)) != len(parts):
            given = quote(names) if say.flags else quote(names.split(","))  # the API's list, as it was given
            raise UsageError(f"{say('names')} takes {len(specs)} different names{_commas(say)}, one for each bot, "
                             f"not {given}", parameters=("names",))
        return tuple(parts)
    return tuple(bot_names(specs))


def plan_match(registry: Registry, opts: MatchOptions, say: Spelling = FLAGS) -> MatchPlan:
    """Check a match's options as ``gin match`` does and build its plan;
    :class:`UsageError` (the command's sentence, naming the arguments as
    ``say`` spells them) for the first mistake."""
    specs = list(opts.bots)
    if len(specs) < 2 or not all(specs):
        takes = "bots separated by commas, at least two" if say.flags else "at least two bots"
        raise UsageError(f"{say('bots')} takes {takes}, not {quote(_given(opts))}", parameters=("bots",))
    if (opts.hands is None) == (opts.games is None):
        raise UsageError(f"give either {say.given('hands', 'N')} or {say.given('games', 'N')}",
                         parameters=("hands", "games"))
    where, chosen, seed, unit, count, scoring = _common(registry, opts, say)
    spec = MatchSpec(tuple(specs), player_names(specs, opts.names, say), unit, count, seed, opts.variant, scoring,
                     dict(opts.options), opts.duplicate, **opts.spec_fields())
    system = registry.scoring(spec.scoring)
    check_seats(system, len(specs), say("bots"), "bots")
    if len(specs) > 2 and (opts.sprt or opts.duplicate):
        what = say("sprt") if opts.sprt else say("duplicate")
        raise UsageError(f"{what} is for two players: the SPRT and duplicate deals compare two bots head to head, "
                         f"and {len(specs)} play here (the summary gives each player's net result per game)")
    the_variant, rules, header, test = _rules(registry, spec.variant, system, spec.options, spec.names, opts.sprt, say)
    return MatchPlan(spec, the_variant, system, rules, header, test, where, chosen)


def _given(opts: MatchOptions) -> str | list[str]:
    return opts.given if opts.given is not None else list(opts.bots)


@dataclass
class TournamentPlan:
    """A tournament ready to play: its spec, each pairing's match, the rules,
    the transcripts' header, the SPRT, the anchor of the ratings, the backend."""

    tour: TournamentSpec
    matches: list[MatchSpec]
    variant: Variant
    system: ScoringSystem
    rules: Rules
    header: dict[str, Any]
    test: Sprt | None
    anchor: tuple[str | None, float]
    backend: MatchBackend
    backend_options: dict[str, str]


def anchor_of(text: str | None, players: tuple[str, ...], say: Spelling = FLAGS) -> tuple[str | None, float]:
    """``--anchor NAME[=ELO]``: a player, and the rating it is given."""
    if text is None:
        return None, 0.0
    name, eq, value = text.partition("=")
    name = name.strip()
    if name not in players:
        raise UsageError(f"{say('anchor')} {quote(name)} is not one of the players ({', '.join(players)})",
                         parameters=("anchor",))
    if not eq:
        return name, 0.0
    try:
        elo = float(value)
    except ValueError:
        raise UsageError(f"{say('anchor')} takes NAME=ELO with a number, not {quote(text)}",
                         parameters=("anchor",)) from None
    if not -10_000 <= elo <= 10_000:  # NaN too
        raise UsageError(f"{say('anchor')} takes an Elo from -10000 to 10000, not {quote(value)}",
                         parameters=("anchor",))
    return name, elo


def plan_tournament(registry: Registry, opts: MatchOptions, say: Spelling = FLAGS) -> TournamentPlan:
    """Check a tournament's options as ``gin tournament`` does and build its
    plan; :class:`UsageError` (the command's sentence, naming the arguments as
    ``say`` spells them) for the first mistake."""
    specs = list(opts.bots)
    if len(specs) < 3 or not all(specs):
        hint = ("; two bots play a match: " + ("gin match" if say.flags else "gincli.play_match")
                if len(specs) == 2 and all(specs) else "")
        raise UsageError(f"{say('bots')} takes three bots or more{',' if say.flags else ''}{_commas(say)}, not "
                         f"{quote(_given(opts))}{hint}", parameters=("bots",))
    if (opts.hands is None) == (opts.games is None):
        raise UsageError(f"give either {say.given('hands', 'N')} or {say.given('games', 'N')} (for each pairing)",
                         parameters=("hands", "games"))
    gauntlet = opts.gauntlet
    if gauntlet is not None and gauntlet >= len(specs):
        raise UsageError(f"{say.given('gauntlet', str(gauntlet))} leaves no bot to play: it takes 1 to "
                         f"{len(specs) - 1} with {len(specs)} bots", parameters=("gauntlet",))
    players = player_names(specs, opts.names, say)
    the_anchor = anchor_of(opts.anchor, players, say)
    where, chosen, seed, unit, count, scoring = _common(registry, opts, say)
    tour = TournamentSpec(tuple(specs), players, unit, count, seed, opts.variant, scoring, dict(opts.options),
                          opts.duplicate, gauntlet=gauntlet, **opts.spec_fields())
    system = registry.scoring(tour.scoring)
    check_seats(system, 2, "a pairing", "bots")  # every pairing is a two-player match
    the_variant, rules, header, test = _rules(registry, tour.variant, system, tour.options, players[:2], opts.sprt,
                                              say)
    matches = [tour.match(k) for k in range(len(tour.pairings()))]
    return TournamentPlan(tour, matches, the_variant, system, rules, header, test, the_anchor, where, chosen)


def _common(registry: Registry, opts: MatchOptions,
            say: Spelling) -> tuple[MatchBackend, dict[str, Any], int, str, int, str]:
    """What a match and a tournament check alike: ``--hands`` with its scoring,
    every bot known, the backend and its options, the seed (drawn when not
    given), the unit and count (even under ``--duplicate``) and the scoring system's name."""
    hands, games, seed, scoring = opts.hands, opts.games, opts.seed, opts.scoring
    if opts.resume and not opts.transcripts:
        raise UsageError(f"{say.on('resume')} needs {say.given('transcripts', 'FILE')}, the file to finish",
                         parameters=("resume", "transcripts"))
    if hands is not None and scoring not in (None, "hand"):
        raise UsageError(f"{say('hands')} plays hands settled alone (scoring hand); use {say.given('games', 'N')} "
                         f"with {say('scoring')}", parameters=("hands", "games", "scoring"))
    for b in opts.bots:
        registry.bot(b)
    where = backend_named(registry, opts.backend)
    chosen = backend_options(where, opts.backend_options, opts.address, say)
    if seed is None:
        seed = random_seed()
    unit = "hands" if hands is not None else "games"
    count = hands if hands is not None else games
    assert count is not None
    if opts.duplicate and count % 2:
        raise UsageError(f"{say('duplicate')} plays deals in pairs: give an even number", parameters=("duplicate",))
    return where, chosen, seed, unit, count, "hand" if unit == "hands" else (scoring or "game")


def _rules(registry: Registry, variant: str, system: ScoringSystem, options: dict[str, Any], players: Any,
           sprt: Any, say: Spelling) -> tuple[Any, Any, dict[str, Any], Any]:
    """The rules, checked once up front (a session opened on them), the header
    the transcripts are compared by, and the SPRT: the variant, the rules, the
    header and the test; :class:`UsageError` for bad rules or a bad ``--sprt``."""
    try:
        the_variant = registry.variant(variant)
        rules = registry.rules(the_variant, system, options, where=say("options"))
        open_session(system, players, rules)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    header = {"variant": the_variant.name, "scoring": system.name, "options": dict(rules),
              "written": registry.transcript_options(the_variant, rules)}  # what the transcripts hold of them
    try:
        test = parse_sprt(sprt, say("sprt")) if sprt else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return the_variant, rules, header, test
