"""What ``gin match`` and :func:`gincli.play_match` share before the first
deal: the arguments checked (one sentence for each mistake), the bots looked
up, the seed chosen, the rules resolved, the backend and its options found.
No Typer here: the Python API calls it as the command does."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from ..base.errors import UsageError, quote
from ..matches.backends import MatchBackend, backend_named, backend_options
from ..matches.runner import MatchSpec
from ..matches.stats import Sprt, parse_sprt
from ..sessions.systems import open_session
from .options import bot_names, check_seats, random_seed, utf8_text


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


def player_names(specs: list[str], names: str | None) -> tuple[str, ...]:
    """The players' names: ``--players``, one a bot, or the bots' own (numbered where
    two would share one)."""
    if names is not None:
        parts = [n.strip() for n in utf8_text(names, "--players").split(",")]
        if len(parts) != len(specs) or not all(parts) or len(set(parts)) != len(parts):
            raise UsageError(f"--players takes {len(specs)} different names separated by commas, one for each bot, "
                             f"not {quote(names)}")
        return tuple(parts)
    return tuple(bot_names(specs))


def plan_match(registry: Any, specs: list[str], bots_text: str, *, hands: int | None, games: int | None,
               seed: int | None, variant: str, scoring: str | None, overrides: dict[str, Any], duplicate: bool,
               sprt: str | None, names: str | None = None, backend: str = "local",
               backend_option: Iterable[str] | None = None, address: str | None = None,
               **spec_fields: Any) -> MatchPlan:
    """Check a match's arguments as ``gin match`` does and build its plan;
    :class:`UsageError` (the command's sentence) for the first mistake.
    ``spec_fields``: the rest of :class:`MatchSpec` (limits, bot logs)."""
    if len(specs) < 2 or not all(specs):
        raise UsageError(f"--bots takes bots separated by commas, at least two, not {quote(bots_text)}")
    if (hands is None) == (games is None):
        raise UsageError("give either --hands N or --games N")
    if hands is not None and scoring not in (None, "hand"):
        raise UsageError("--hands plays hands settled alone (scoring hand); use --games N with --scoring")
    for b in specs:
        registry.bot(b)
    where = backend_named(registry, backend)
    chosen = backend_options(where, backend_option, address)
    if seed is None:
        seed = random_seed()
    unit = "hands" if hands is not None else "games"
    count = hands if hands is not None else games
    assert count is not None
    if duplicate and count % 2:
        raise UsageError("--duplicate plays deals in pairs: give an even number")
    spec = MatchSpec(tuple(specs), player_names(specs, names), unit, count, seed, variant,
                     "hand" if unit == "hands" else (scoring or "game"), overrides, duplicate, **spec_fields)
    system = registry.scoring(spec.scoring)
    check_seats(system, len(specs), "--bots", "bots")
    if len(specs) > 2 and (sprt or duplicate):
        what = "--sprt" if sprt else "--duplicate"
        raise UsageError(f"{what} is for two players: the SPRT and duplicate deals compare two bots head to head, "
                         f"and {len(specs)} play here (the summary gives each player's net result per game)")
    try:  # check the rules once, up front
        the_variant = registry.variant(spec.variant)
        rules = registry.rules(the_variant, system, spec.options)
        open_session(system, spec.names, rules)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    header = {"variant": the_variant.name, "scoring": system.name, "options": dict(rules),
              "written": registry.transcript_options(the_variant, rules)}  # what the transcripts hold of them
    try:
        test = parse_sprt(sprt) if sprt else None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return MatchPlan(spec, the_variant, system, rules, header, test, where, chosen)
