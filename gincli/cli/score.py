"""``gin score FILE... | -``: score the end positions of hands (hand records)."""

from __future__ import annotations

import functools
import gc
import os
from collections import Counter
from typing import Annotated, Any

import typer

from ..base.errors import (
    EXIT_OK,
    EXIT_PLUGIN_FAULT,
    EXIT_RECORD_FAILED,
    EXIT_UNREADABLE,
    InputError,
    UsageError,
    shorten,
)
from ..base.jsonio import dumps
from ..base.pool import WARMUP, chunked, ordered_map, worker_state
from ..formats.containers import Item, Reader
from ..formats.records import HandScorer
from ..work.score import score_chunk  # noqa: F401  (gincli.score's too)
from .base import error, guard, settings
from .hands import hand_text
from .options import (
    InputFormatOpt,
    OptionOpt,
    QuietOpt,
    RowsFormatOpt,
    ScoringOpt,
    VariantOpt,
    WorkersOpt,
    files_given,
    overrides_from,
    workers_for,
)
from .render import RowsFormat, color_mode, cut, data, plural, progress_bar, safe, say, stdin_notice, write_data

HELP = """Score hands from their end positions (hand records).

Reads .json, .jsonl (streamed), .toml files, gzip-compressed too (.jsonl.gz), or - for standard input. Finds the
best melds and layoffs where a record does not declare them, and checks them where it does. Writes one result per
record, in input order: a readable rendering, JSON Lines with --format json, or a row a hand with --format csv.
Ends, on stderr, with the counts of outcomes and each player's totals (per file when there are several); --summary
also writes them as a last JSON line.

Exit status: 0 all scored; 1 some record failed (its error is reported in its place); 2 an input could not be read
at all; 4 a plugin broke its contract (the records it touched name it).
"""

def register(app: typer.Typer) -> None:
    app.command("score", help=HELP)(guard(score))


def score(
    ctx: typer.Context,
    files: Annotated[list[str] | None, typer.Argument(metavar="FILE...", help="Hand records; - reads standard input.",
                                                      show_default=False)] = None,
    variant: VariantOpt = None,
    scoring: ScoringOpt = "game",
    option: OptionOpt = None,
    format: RowsFormatOpt = RowsFormat.text,
    summary_line: Annotated[bool, typer.Option(
        "--summary", help="With --format json, end with a summary object: {\"summary\": {...}} (docs/formats.md).")]
    = False,
    input_format: InputFormatOpt = None,
    workers: WorkersOpt = None,
    quiet: QuietOpt = False,
) -> None:
    files = files_given(files, "score", "hand records")
    if summary_line and format != "json":
        raise UsageError("--summary adds a JSON line to --format json; for people the summary is on stderr already")
    s = settings(ctx)
    overrides = overrides_from(option)
    scorer = HandScorer(s.registry(), variant, scoring, overrides)
    status = EXIT_OK
    gc.freeze()  # start-up objects never die: keep the collector off them
    mode = format.value
    colour = mode == "text" and (color_mode() == "always" or (color_mode() == "auto" and data().isatty()))
    state = chunk_state(scorer, mode, colour)
    setup = functools.partial(_setup, s.plugin_dirs, s.disabled, variant, scoring, overrides, mode, colour)
    if mode == "csv":
        from ..formats import rows  # here: csv, and its module, only for --format csv

        write_data(rows.header(rows.HAND))
    total = Totals("all")
    per_file = []
    plugin_faults = 0  # records a plugin's fault cost: the run's status is a plugin's fault then
    for path in files:
        reader = Reader(path, input_format)
        stdin_notice("gin score", "hand records", path, quiet)
        totals = Totals(reader.name)
        per_file.append(totals)
        try:
            with progress_bar("" if quiet else f"scoring {safe(reader.name)}", file_size(path), enabled=not quiet,
                              streaming=True) as advance:
                chunks = chunked(reader.items(parse=False), CHUNK)
                for out, counts, bad, errors, players, faults in ordered_map(
                        _score_chunk, chunks, workers_for(workers), setup, state, warmup=0.0 if workers else WARMUP):
                    if errors:  # people: each bad record's sentence on stderr, in its place
                        done = 0
                        for at, line in errors:
                            write_data(out[done:at])
                            data().flush()
                            error(line)
                            done = at
                        out = out[done:]
                    write_data(out, json=mode == "json")
                    totals.add(counts, bad, players)
                    plugin_faults += faults
                    advance(reader.position())
            reader.check()  # gzip data cut short: the records before it are scored
        except InputError as exc:
            data().flush()  # what came before the error is written before it
            error(exc.message)
            status = EXIT_UNREADABLE
    for t in per_file:
        total.merge(t)
    if summary_line:
        write_data(dumps({"summary": summary_object(total, per_file)}) + "\n", json=True)
    data().flush()
    if not quiet and (total.failed or total.outcomes or status == EXIT_OK):
        if len(per_file) > 1:
            for t in per_file:
                say_lines(summary(t.outcomes, t.failed, t.source), players_text(t.players))
        say_lines(summary(total.outcomes, total.failed), players_text(total.players))
    if status == EXIT_OK and total.failed:
        status = EXIT_RECORD_FAILED
    raise typer.Exit(EXIT_PLUGIN_FAULT if plugin_faults else status)


def say_lines(*texts: str) -> None:
    """The summary on stderr, a closing line at a time (wrapped at spaces on a terminal)."""
    for text in texts:
        for line in text.splitlines():
            say(line)


CHUNK = 1000  # records a worker scores at a time

#: Each player's totals: hands played, hands won, points won, gins (big gins too), undercuts.
PLAYER_FIELDS = ("hands", "hands_won", "points", "gins", "undercuts")


class Totals:
    """What a run (or one of its files) scored: outcomes, failures, each player's totals."""

    def __init__(self, source: str):
        self.source = source
        self.outcomes: Counter[str] = Counter()
        self.failed = 0
        self.players: dict[str, list[int]] = {}

    def add(self, outcomes: Counter[str], failed: int, players: dict[str, list[int]]) -> None:
        self.outcomes.update(outcomes)
        self.failed += failed
        for name, values in players.items():
            mine = self.players.get(name)
            if mine is None:
                self.players[name] = list(values)
            else:
                for i, v in enumerate(values):
                    mine[i] += v

    def merge(self, other: Totals) -> None:
        self.add(other.outcomes, other.failed, other.players)

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "hands": sum(self.outcomes.values()), "failed": self.failed,
                "outcomes": dict(sorted(self.outcomes.items())),
                "players": {name: dict(zip(PLAYER_FIELDS, values, strict=True)) for name, values in sorted(
                    self.players.items(), key=lambda kv: (-kv[1][2], kv[0]))}}


def summary_object(total: Totals, per_file: list[Totals]) -> dict[str, Any]:
    """``--summary``'s object: the run's totals, and each file's."""
    out = total.to_dict()
    del out["source"]
    out["files"] = [t.to_dict() for t in per_file]
    return out


#: The most players the summary on stderr lists (by points; all of them in --summary's object).
SHOWN_PLAYERS = 10


def players_text(players: dict[str, list[int]]) -> str:
    """Each player's totals for people, the best by points first, a line each."""
    if not players:
        return ""
    ranked = sorted(players.items(), key=lambda kv: (-kv[1][2], kv[0]))
    width = min(20, max(len(safe(n, markup=False)) for n, _ in ranked[:SHOWN_PLAYERS]))
    lines = []
    for name, (hands, won, points, gins, undercuts) in ranked[:SHOWN_PLAYERS]:
        lines.append(f"  {cut(safe(name, markup=False), 20):<{width}}  {plural(won, 'hand')} won of {hands:,}, "
                     f"{plural(points, 'point')}, {plural(gins, 'gin')}, {plural(undercuts, 'undercut')}")
    if len(ranked) > SHOWN_PLAYERS:
        lines.append(f"  and {plural(len(ranked) - SHOWN_PLAYERS, 'more player')} (--summary lists them all)")
    return "\n".join(lines) + "\n"


def _setup(plugin_dirs: list[str], disabled: list[str], variant: str | None, scoring: str,
           overrides: dict[str, Any], mode: str, colour: bool) -> dict[str, Any]:
    """A worker's state when it cannot inherit the parent's (spawn start method)."""
    from ..plugin.registry import load_registry

    return chunk_state(HandScorer(load_registry(plugin_dirs, disabled), variant, scoring, overrides), mode, colour)


def chunk_state(scorer: HandScorer, mode: str, colour: bool) -> dict[str, Any]:
    """What :func:`~gincli.work.score.score_chunk` needs to score records as
    ``gin score`` writes them in ``mode`` (text, json, csv)."""
    return {"scorer": scorer, "mode": mode, "colour": colour, "text": hand_text, "label": _label}


def _label(ident: Any) -> str:
    """A record's id beside its error, for people."""
    return shorten(safe(ident, markup=False))


def _score_chunk(items: list[Item]) -> tuple[str, Counter[str], int, list[tuple[int, str]], dict[str, list[int]],
                                            int]:
    """A worker's chunk: :func:`score_chunk` with the worker's state."""
    return score_chunk(worker_state(), items)


def file_size(path: str) -> int | None:
    if path == "-":
        return None
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def summary(outcomes: Counter[str], failed: int, source: str | None = None) -> str:
    total = sum(outcomes.values())
    standard = ("knock", "undercut", "gin", "big_gin", "dead", "gin_tied")
    order = [o for o in standard if outcomes[o]] + sorted(o for o in outcomes if o not in standard)
    parts = [f"{outcomes[o]:,} {'tied gin' if o == 'gin_tied' else o.replace('_', ' ')}"
             + ("" if outcomes[o] == 1 or o.endswith("d") else "s")
             for o in order]
    text = f"gin score: {safe(source, markup=False) + ': ' if source else ''}{plural(total, 'hand')} scored"
    if parts:
        text += " (" + ", ".join(parts) + ")"
    if failed:
        text += f"; {plural(failed, 'record')} could not be scored"
    return text
