"""What ``gin match`` and :func:`gincli.play_match` share before the first
deal: the arguments checked (one sentence for each mistake), the bots looked
up, the seed chosen, the rules resolved, the backend and its options found.
No Typer here: the Python API calls it as the command does."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..base.arguments import FLAGS, Spelling
from ..base.errors import UsageError, quote
from ..matches.backends import MatchBackend, backend_named, backend_options
from ..matches.runner import MatchSpec
from ..matches.stats import Sprt, parse_sprt
from ..sessions.systems import open_session
from .checks import check_seats, random_seed, utf8_text
from .names import bot_names


def _commas(say: Spelling) -> str:
    """How a list is given: on the command line, its items separated by commas; in Python, a list."""
    return " separated by commas" if say.flags else ""


@dataclass
class MatchPlan:
    """A match ready to play: its spec, the rules it plays under, what the
    transcripts' header holds, the SPRT (or None) and the backend."""

    spec: MatchSpec
    variant: Any
    system: Any
    rules: Any
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
                             f"not {given}")
        return tuple(parts)
    return tuple(bot_names(specs))


def plan_match(registry: Any, specs: list[str], bots_text: str | list[str], *, hands: int | None, games: int | None,
               seed: int | None, variant: str, scoring: str | None, overrides: dict[str, Any], duplicate: bool,
               sprt: str | None, names: str | None = None, backend: str = "local",
               backend_option: Iterable[str] | None = None, address: str | None = None, say: Spelling = FLAGS,
               **spec_fields: Any) -> MatchPlan:
    """Check a match's arguments as ``gin match`` does and build its plan;
    :class:`UsageError` (the command's sentence, naming the arguments as
    ``say`` spells them) for the first mistake. ``spec_fields``: the rest of
    :class:`MatchSpec` (limits, bot logs)."""
    if len(specs) < 2 or not all(specs):
        takes = "bots separated by commas, at least two" if say.flags else "at least two bots"
        raise UsageError(f"{say('bots')} takes {takes}, not {quote(bots_text)}")
    if (hands is None) == (games is None):
        raise UsageError(f"give either {say.given('hands', 'N')} or {say.given('games', 'N')}")
    where, chosen, seed, unit, count, scoring = _common(registry, specs, hands, games, seed, scoring, duplicate,
                                                         backend, backend_option, address, say)
    spec = MatchSpec(tuple(specs), player_names(specs, names, say), unit, count, seed, variant, scoring, overrides,
                     duplicate, **spec_fields)
    system = registry.scoring(spec.scoring)
    check_seats(system, len(specs), say("bots"), "bots")
    if len(specs) > 2 and (sprt or duplicate):
        what = say("sprt") if sprt else say("duplicate")
        raise UsageError(f"{what} is for two players: the SPRT and duplicate deals compare two bots head to head, "
                         f"and {len(specs)} play here (the summary gives each player's net result per game)")
    the_variant, rules, header, test = _rules(registry, spec.variant, system, spec.options, spec.names, sprt, say)
    return MatchPlan(spec, the_variant, system, rules, header, test, where, chosen)


@dataclass
class TournamentPlan:
    """A tournament ready to play: its spec, each pairing's match, the rules,
    the transcripts' header, the SPRT, the anchor of the ratings, the backend."""

    tour: Any  # gincli.matches.tournament.TournamentSpec
    matches: list[MatchSpec]
    variant: Any
    system: Any
    rules: Any
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
        raise UsageError(f"{say('anchor')} {quote(name)} is not one of the players ({', '.join(players)})")
    if not eq:
        return name, 0.0
    try:
        elo = float(value)
    except ValueError:
        raise UsageError(f"{say('anchor')} takes NAME=ELO with a number, not {quote(text)}") from None
    if not -10_000 <= elo <= 10_000:  # NaN too
        raise UsageError(f"{say('anchor')} takes an Elo from -10000 to 10000, not {quote(value)}")
    return name, elo


def plan_tournament(registry: Any, specs: list[str], bots_text: str | list[str], *, hands: int | None,
                    games: int | None, gauntlet: int | None, seed: int | None, variant: str, scoring: str | None,
                    overrides: dict[str, Any], duplicate: bool, sprt: str | None, names: str | None = None,
                    anchor: str | None = None, backend: str = "local", backend_option: Iterable[str] | None = None,
                    address: str | None = None, say: Spelling = FLAGS, **spec_fields: Any) -> TournamentPlan:
    """Check a tournament's arguments as ``gin tournament`` does and build its
    plan; :class:`UsageError` (the command's sentence, naming the arguments as
    ``say`` spells them) for the first mistake."""
    from ..matches.tournament import TournamentSpec

    if len(specs) < 3 or not all(specs):
        hint = ("; two bots play a match: " + ("gin match" if say.flags else "gincli.play_match")
                if len(specs) == 2 and all(specs) else "")
        raise UsageError(f"{say('bots')} takes three bots or more{',' if say.flags else ''}{_commas(say)}, not "
                         f"{quote(bots_text)}{hint}")
    if (hands is None) == (games is None):
        raise UsageError(f"give either {say.given('hands', 'N')} or {say.given('games', 'N')} (for each pairing)")
    if gauntlet is not None and gauntlet >= len(specs):
        raise UsageError(f"{say.given('gauntlet', str(gauntlet))} leaves no bot to play: it takes 1 to "
                         f"{len(specs) - 1} with {len(specs)} bots")
    players = player_names(specs, names, say)
    the_anchor = anchor_of(anchor, players, say)
    where, chosen, seed, unit, count, scoring = _common(registry, specs, hands, games, seed, scoring, duplicate,
                                                         backend, backend_option, address, say)
    tour = TournamentSpec(tuple(specs), players, unit, count, seed, variant, scoring, overrides, duplicate,
                          gauntlet=gauntlet, **spec_fields)
    system = registry.scoring(tour.scoring)
    check_seats(system, 2, "a pairing", "bots")  # every pairing is a two-player match
    the_variant, rules, header, test = _rules(registry, tour.variant, system, tour.options, players[:2], sprt, say)
    matches = [tour.match(k) for k in range(len(tour.pairings()))]
    return TournamentPlan(tour, matches, the_variant, system, rules, header, test, the_anchor, where, chosen)


def _common(registry: Any, specs: list[str], hands: int | None, games: int | None, seed: int | None,
            scoring: str | None, duplicate: bool, backend: str, backend_option: Iterable[str] | None,
            address: str | None, say: Spelling) -> tuple[Any, dict[str, Any], int, str, int, str]:
    """What a match and a tournament check alike: ``--hands`` with its scoring,
    every bot known, the backend and its options, the seed (drawn when not
    given), the unit and count (even under ``--duplicate``) and the scoring system's name."""
    if hands is not None and scoring not in (None, "hand"):
        raise UsageError(f"{say('hands')} plays hands settled alone (scoring hand); use {say.given('games', 'N')} "
                         f"with {say('scoring')}")
    for b in specs:
        registry.bot(b)
    where = backend_named(registry, backend)
    chosen = backend_options(where, backend_option, address, say)
    if seed is None:
        seed = random_seed()
    unit = "hands" if hands is not None else "games"
    count = hands if hands is not None else games
    assert count is not None
    if duplicate and count % 2:
        raise UsageError(f"{say('duplicate')} plays deals in pairs: give an even number")
    return where, chosen, seed, unit, count, "hand" if unit == "hands" else (scoring or "game")


def _rules(registry: Any, variant: str, system: Any, options: dict[str, Any], players: Any,
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
