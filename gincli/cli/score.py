"""``gin score FILE... | -``: score the end positions of hands (hand records)."""

from __future__ import annotations

import functools
import gc
import os
import sys
from collections import Counter
from typing import Annotated, Any

import typer

from ..errors import EXIT_OK, EXIT_RECORD_FAILED, EXIT_UNREADABLE, InputError, RecordError, shorten
from ..formats.jsonio import error_line, utf8_lines
from ..formats.containers import Item, Reader
from ..formats.records import HandScorer
from ..parallel import WARMUP, chunked, ordered_map, worker_state
from ..scoring import HandResult
from . import error, guard, record_failure, settings
from .options import (FormatOpt, InputFormatOpt, OptionOpt, QuietOpt, ScoringOpt, VariantOpt, WorkersOpt,
                      files_given, overrides_from, workers_for)
from .hands import hand_text
from .render import OutputFormat, data, stdin_notice, color_mode, plural, progress_bar, safe, write_data

HELP = """Score hands from their end positions (hand records).

Reads .json, .jsonl (streamed), .toml files, gzip-compressed too (.jsonl.gz), or - for standard input. Finds the best melds and layoffs where a record does not declare them, and checks them where it does. Writes one result per record, in input order: a readable rendering, or JSON Lines with --format json.

Exit status: 0 all scored; 1 some record failed (its error is reported in its place); 2 an input could not be read at all.
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
    format: FormatOpt = OutputFormat.text,
    input_format: InputFormatOpt = None,
    workers: WorkersOpt = None,
    quiet: QuietOpt = False,
) -> None:
    files = files_given(files, "score", "hand records")
    s = settings(ctx)
    overrides = overrides_from(option)
    scorer = HandScorer(s.registry(), variant, scoring, overrides)
    outcomes: Counter[str] = Counter()
    failed = 0
    status = EXIT_OK
    gc.freeze()  # start-up objects never die: keep the collector off them
    text = format is not OutputFormat.json
    colour = text and (color_mode() == "always" or (color_mode() == "auto" and data().isatty()))
    state = {"scorer": scorer, "text": text, "colour": colour}
    setup = functools.partial(_setup, s.plugin_dirs, s.disabled, variant, scoring, overrides, text, colour)
    for path in files:
        reader = Reader(path, input_format)
        stdin_notice("gin score", "hand records", path)
        try:
            with progress_bar("" if quiet else f"scoring {safe(reader.name)}", file_size(path), enabled=not quiet,
                              streaming=True) as advance:
                chunks = chunked(reader.items(parse=False), CHUNK)
                for out, counts, bad, errors in ordered_map(_score_chunk, chunks, workers_for(workers),
                                                            setup, state, warmup=0.0 if workers else WARMUP):
                    if errors:  # people: each bad record's sentence on stderr, in its place
                        done = 0
                        for at, line in errors:
                            write_data(out[done:at])
                            data().flush()
                            error(line)
                            done = at
                        out = out[done:]
                    write_data(out, json=not text)
                    outcomes.update(counts)
                    failed += bad
                    advance(reader.position())
            reader.check()  # gzip data cut short: the records before it are scored
        except InputError as exc:
            data().flush()  # what came before the error is written before it
            error(exc.message)
            status = EXIT_UNREADABLE
    data().flush()
    if not quiet and (failed or outcomes or status == EXIT_OK):
        print(summary(outcomes, failed), file=sys.stderr)
    if status == EXIT_OK and failed:
        status = EXIT_RECORD_FAILED
    raise typer.Exit(status)


CHUNK = 1000  # records a worker scores at a time


def _setup(plugin_dirs: list[str], disabled: list[str], variant: str | None, scoring: str,
           overrides: dict[str, Any], text: bool, colour: bool) -> dict[str, Any]:
    """A worker's state when it cannot inherit the parent's (spawn start method)."""
    from ..plugins import load_registry

    return {"scorer": HandScorer(load_registry(plugin_dirs, disabled), variant, scoring, overrides), "text": text,
            "colour": colour}


def _score_chunk(items: list[Item]) -> tuple[str, Counter[str], int, list[tuple[int, str]]]:
    """Score a chunk of records: what to write (JSON lines, or each hand for
    people), outcome counts, failures, and for people each failure's sentence
    with where it goes in the text (an offset)."""
    state = worker_state()
    scorer: HandScorer = state["scorer"]
    text, colour = state["text"], state["colour"]
    lines = []
    errors: list[tuple[int, str]] = []
    written = 0  # characters of text so far: where a failure's sentence goes
    counts: Counter[str] = Counter()
    failed = 0
    lane = None if text else scorer.score_line
    for item in items:
        if lane is not None and item.raw is not None:
            try:
                done = lane(item.raw)
            except Exception:  # the careful way below meets it again, and says it properly
                done = None
            if done is not None:
                lines.append(done[0])
                counts[done[1]] += 1
                continue
        item.load()
        result, message = _score_one(scorer, item)
        if result is not None:
            try:
                block = (("\n" if lines else "") + hand_text(result, colour, scorer.movesets(result))) if text \
                    else result.to_json()
                lines.append(block)
                written += len(block)
                counts[result.outcome] += 1
                continue
            except Exception as exc:
                message = record_failure(exc, "written" if not text else "shown")
        failed += 1
        if text:
            ident = _id_of(item)
            label = f" ({shorten(safe(ident, markup=False))})" if ident is not None else ""
            errors.append((written, f"{item.where}{label}: {message}"))
        else:
            lines.append(error_line(_id_of(item), message))
    if text:
        return "".join(lines), counts, failed, errors
    return utf8_lines(lines), counts, failed, errors


def _score_one(scorer: HandScorer, item: Item) -> tuple[HandResult | None, str]:
    """One record's result, or why it has none: any failure costs this record only."""
    if item.error is not None:
        return None, item.error
    try:
        return scorer.score(item.record), ""
    except RecordError as exc:
        return None, exc.message
    except Exception as exc:
        return None, record_failure(exc, "scored")


def _id_of(item: Item) -> Any:
    return item.record.get("id") if isinstance(item.record, dict) else None


def file_size(path: str) -> int | None:
    if path == "-":
        return None
    try:
        return os.path.getsize(path)
    except OSError:
        return None


def summary(outcomes: Counter[str], failed: int) -> str:
    total = sum(outcomes.values())
    standard = ("knock", "undercut", "gin", "big_gin", "dead")
    order = [o for o in standard if outcomes[o]] + sorted(o for o in outcomes if o not in standard)
    parts = [f"{outcomes[o]:,} {o.replace('_', ' ')}" + ("" if outcomes[o] == 1 or o.endswith("d") else "s")
             for o in order]
    text = f"gin score: {plural(total, 'hand')} scored"
    if parts:
        text += " (" + ", ".join(parts) + ")"
    if failed:
        text += f"; {plural(failed, 'record')} could not be scored"
    return text
