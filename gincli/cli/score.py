"""``gin score FILE... | -``: score the end positions of hands (hand records)."""

from __future__ import annotations

import functools
import gc
import os
from collections import Counter
from collections.abc import Callable
from pickle import PickleBuffer
from typing import Annotated, Any, cast

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
from ..base.pool import WARMUP
from ..formats.containers import Reader
from ..formats.records import HandScorer
from ..rulebook.scoring import HandResult
from ..work.score import Failure, Totals, batches, json_lines, scored, summary_object
from .base import error, guard, settings
from .hands import hand_text
from .options import (
    InputFormatOpt,
    OptionOpt,
    QuietOpt,
    RowsFormatOpt,
    ScoreWorkersOpt,
    ScoringOpt,
    VariantOpt,
    files_given,
    overrides_from,
    workers_for,
)
from .render import (
    RowsFormat,
    color_mode,
    cut,
    data,
    plural,
    progress_bar,
    safe,
    say,
    stdin_notice,
    utf8_output,
    write_data,
    write_utf8,
)

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
    workers: ScoreWorkersOpt = None,
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
    utf8 = mode != "csv" and utf8_output(json=mode == "json")  # the workers encode the text, gin writes the bytes
    state = chunk_state(scorer, mode, colour, utf8)
    setup = functools.partial(_setup, s.plugin_dirs, s.disabled, variant, scoring, overrides, mode, colour, utf8)
    write_chunk = _writer(mode)  # for csv, the header first
    total = Totals("all")
    per_file = []
    plugin_faults = 0  # records a plugin's fault cost: the run's status is a plugin's fault then
    for path in files:
        reader = Reader(path, input_format)
        stdin_notice("gin score", "hand records", path, quiet)
        totals = Totals(reader.name)
        per_file.append(totals)
        written = write_chunk()  # a file's hands for people: a blank line between two
        try:
            with progress_bar("" if quiet else f"scoring {safe(reader.name)}", file_size(path), enabled=not quiet,
                              streaming=True) as advance:
                for chunk in scored(state, batches(reader), workers_for(workers), setup,
                                    warmup=0.0 if workers or worth_workers(path) else WARMUP):
                    written(chunk.records)
                    totals.add(chunk.counts, chunk.failed, chunk.players)
                    plugin_faults += chunk.faults
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
           overrides: dict[str, Any], mode: str, colour: bool, utf8: bool = False) -> dict[str, Any]:
    """A worker's state when it cannot inherit the parent's (spawn start method)."""
    from ..plugin.registry import load_registry

    return chunk_state(HandScorer(load_registry(plugin_dirs, disabled), variant, scoring, overrides), mode, colour,
                       utf8)


def chunk_state(scorer: HandScorer, mode: str, colour: bool, utf8: bool = False) -> dict[str, Any]:
    """What :func:`~gincli.work.score.score_chunk` needs to score records for
    ``gin score`` in ``mode`` (text, json, csv): the functions that turn a
    scored record into what is written (for text and csv) and a chunk's
    records into one text (its failures apart, for people), run in the workers;
    with ``utf8`` (standard output takes UTF-8), people's text encoded there too."""
    if mode == "text":
        state = {"scorer": scorer, "write": functools.partial(_hand, scorer, colour), "shown": True,
                 "finish": _hands_utf8 if utf8 else _hands}
        if not colour:  # the plain knocks' text straight from their raw lines
            from .hands import knock_text_lane

            state["lane"] = knock_text_lane(scorer)
        return state
    if mode == "csv":
        return {"scorer": scorer, "write": _row, "finish": _rows}
    return {"scorer": scorer, "finish": _json_bytes if utf8 else _json_lines}


def _hand(scorer: HandScorer, colour: bool, result: HandResult, where: str) -> str:
    """A scored hand for people (in a worker)."""
    return hand_text(result, colour, scorer.movesets(result))


def _hands(records: list[str | Failure]) -> list[str | Failure]:
    """A chunk's hands for people, each run of them one text, a blank line
    between two; each failure in its place (in a worker)."""
    out: list[str | Failure] = []
    run: list[str] = []
    for r in records:
        if isinstance(r, str):
            run.append(r)
        else:
            if run:
                out.append("\n".join(run))
                run = []
            out.append(r)
    if run:
        out.append("\n".join(run))
    return out


def _hands_utf8(records: list[str | Failure]) -> list[bytes | Failure]:
    """:func:`_hands`, each run of hands encoded as UTF-8 (in a worker: gin then
    writes the bytes as they come)."""
    return [r.encode("utf-8", "replace") if isinstance(r, str) else r for r in _hands(records)]


def _row(result: HandResult, where: str) -> str:
    """A scored hand as a CSV row (in a worker)."""
    from ..formats import rows

    return rows.lines([rows.hand_row(where, result.to_dict())])


def _rows(records: list[str | Failure]) -> list[str | Failure]:
    """A chunk's rows as one text, a failure as its error row (in a worker)."""
    from ..formats import rows

    return ["".join(r if isinstance(r, str) else rows.lines([rows.hand_error_row(r.where, r.id, r.message)])
                    for r in records)]


def _json_lines(records: list[str | Failure]) -> list[str | Failure]:
    """A chunk's JSON Lines as one text (in a worker)."""
    return [json_lines(records)]


def _json_bytes(records: list[str | Failure]) -> list[PickleBuffer]:
    """A chunk's JSON Lines as UTF-8 (in a worker: gin then writes the bytes as they come),
    in a buffer that crosses to gin's process uncopied (:mod:`gincli.base.pool`)."""
    return [PickleBuffer(json_lines(records).encode("utf-8", "replace"))]


def _writer(mode: str) -> Callable[[], Callable[[list[Any]], None]]:
    """What makes, for each input, the function that writes its chunks (as
    :func:`chunk_state`'s ``finish`` made them) in ``mode``; for csv, the
    header is written now, before them."""
    if mode == "json":
        return lambda: _json_writer
    if mode == "csv":
        from ..formats import rows  # here: csv, and its module, only for --format csv

        write_data(rows.header(rows.HAND))
        return lambda: lambda texts: write_data("".join(cast("list[str]", texts)))
    return _People


def _json_writer(texts: list[str] | list[Any]) -> None:
    """An input's JSON Lines, as the workers made them: text, or UTF-8 (:func:`_json_bytes`:
    a buffer, or a view of the message that brought it)."""
    for text in texts:
        if isinstance(text, str):
            write_data(text, json=True)
        else:
            write_utf8(text)


class _People:
    """Writes an input's hands for people, a blank line between two (across
    chunks too); each failure's sentence on stderr in its place, after the
    hands before it."""

    def __init__(self) -> None:
        self.shown = False  # a hand of this input is written: the next one after a blank line

    def __call__(self, texts: list[str | bytes | Failure]) -> None:
        for r in texts:
            if isinstance(r, str):
                write_data("\n" + r if self.shown else r)
                self.shown = True
            elif isinstance(r, bytes):  # encoded by the worker for a standard output that takes UTF-8
                write_utf8(b"\n" if self.shown else b"", r)
                self.shown = True
            else:
                data().flush()
                error(f"{r.where}{f' ({_label(r.id)})' if r.id is not None else ''}: {r.message}")


def _label(ident: Any) -> str:
    """A record's id beside its error, for people."""
    return shorten(safe(ident, markup=False))


#: The size of an input past which workers start at once (with the default
#: number of workers): about 20,000 hand records, a few tenths of a second of
#: scoring, more than starting them costs.
WORTH_WORKERS = 4 << 20  # bytes


def worth_workers(path: str) -> bool:
    """Whether ``path`` is big enough that scoring it on one core first
    (:data:`~gincli.base.pool.WARMUP`) would waste the others; of gzip data,
    its compressed size counts (it holds more)."""
    size = file_size(path)
    return size is not None and size >= WORTH_WORKERS


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
    said = {"gin_tied": "tied gin"}  # the rest as the outcome reads, "_" a space
    kept = ("dead", "declined", "irregular")  # words that say what a hand was: no plural
    parts = [f"{outcomes[o]:,} {said.get(o, o.replace('_', ' '))}" + ("" if outcomes[o] == 1 or o in kept else "s")
             for o in order]
    text = f"gin score: {safe(source, markup=False) + ': ' if source else ''}{plural(total, 'hand')} scored"
    if parts:
        text += " (" + ", ".join(parts) + ")"
    if failed:
        text += f"; {plural(failed, 'record')} could not be scored"
    return text
