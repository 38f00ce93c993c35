"""``gin validate FILE... | -``: replay transcripts move by move."""

from __future__ import annotations

import functools
import gc
from typing import Annotated, Any

import typer

from ..base.contract import PluginFault
from ..base.errors import EXIT_OK, EXIT_PLUGIN_FAULT, EXIT_RECORD_FAILED, EXIT_UNREADABLE, InputError, UsageError, quote
from ..rulebook.rules import resolve
from ..base.jsonio import dumps, utf8_lines
from ..formats.containers import Item, Reader
from ..matches.parallel import WARMUP, chunked, ordered_map, worker_state
from ..replay.validate import Defaults, Fault, Report, validate
from . import rows
from .base import error, guard, record_failure, settings
from .render import (RowsFormat, cards_markup, color_mode, data, message_markup, plural, progress_bar, rendered, safe,
                     say, stdin_notice, stdout_console, write_data)
from . import complete
from .options import (InputFormatOpt, OptionOpt, QuietOpt, RowsFormatOpt, WorkersOpt, files_given, overrides_from,
                      workers_for)
from .score import file_size

HELP = """Replay transcripts move by move and check every rule and every claimed result.

Reads .json, .jsonl (streamed), .toml files, gzip-compressed too (.jsonl.gz), or - for standard input. For each transcript: whether it is valid, whether it is complete (the session was settled), the first fault (hand, move, rule id, one sentence), each finished hand's score and the session's scores. A transcript's own variant, scoring and options are used; --variant, --scoring and --option fill in what a transcript leaves out.

Exit status: 0 every transcript valid; 1 some transcript invalid; 2 an input could not be read at all; 4 a plugin broke its contract (the transcripts it touched name it: plugin-fault).
"""

CHUNK = 50  # transcripts a worker replays at a time


def register(app: typer.Typer) -> None:
    app.command("validate", help=HELP)(guard(validate_command))


def validate_command(
    ctx: typer.Context,
    files: Annotated[list[str] | None, typer.Argument(metavar="FILE...", help="Transcripts; - reads standard input.",
                                                      show_default=False)] = None,
    variant: Annotated[list[str] | None, typer.Option(
        "--variant", metavar="NAME|FILE.toml", autocompletion=complete.variants,
        help="Variant for transcripts that name none (the first given); a file also makes its variant known by "
             "name. Repeatable.")] = None,
    scoring: Annotated[str | None, typer.Option("--scoring", "-s", metavar="NAME",
                                                autocompletion=complete.scoring_systems,
                                                help="Scoring system for transcripts that name none (game).")]
    = None,
    option: OptionOpt = None,
    format: RowsFormatOpt = RowsFormat.text,
    input_format: InputFormatOpt = None,
    workers: WorkersOpt = None,
    quiet: QuietOpt = False,
    brief: Annotated[bool, typer.Option("--brief", "-b", help="One line a transcript, for people.")] = False,
    invalid_only: Annotated[bool, typer.Option("--invalid-only", help="Show only the transcripts that are not "
                                                                      "valid.")] = False,
) -> None:
    files = files_given(files, "validate", "transcripts")
    s = settings(ctx)
    registry = s.registry()
    defaults = validation_defaults(registry, variant, scoring, overrides_from(option))
    counts = {"valid": 0, "invalid": 0, "complete": 0, "plugin": 0}
    status = EXIT_OK
    gc.freeze()
    mode = format.value if format != "text" else "brief" if brief else "text"
    state = {"registry": registry, "defaults": defaults, "mode": mode, "invalid_only": invalid_only}
    setup = functools.partial(_setup, s.plugin_dirs, s.disabled, defaults, mode, invalid_only, color_mode())
    if mode == "csv":
        write_data(rows.header(rows.TRANSCRIPT))
    for path in files:
        reader = Reader(path, input_format)
        stdin_notice("gin validate", "transcripts", path, quiet)
        try:
            with progress_bar(f"validating {safe(reader.name)}", file_size(path), enabled=not quiet,
                              streaming=True) as advance:
                chunks = chunked(reader.items(parse=False), CHUNK)
                for text, valid, invalid, complete, plugin in ordered_map(
                        _validate_chunk, chunks, workers_for(workers), setup, state,
                        warmup=0.0 if workers else WARMUP):
                    write_data(text, json=mode == "json")
                    counts["valid"] += valid
                    counts["invalid"] += invalid
                    counts["complete"] += complete
                    counts["plugin"] += plugin
                    advance(reader.position())
            reader.check()  # gzip data cut short: the transcripts before it are replayed
        except InputError as exc:
            data().flush()  # what came before the error is written before it
            error(exc.message)
            status = EXIT_UNREADABLE
    data().flush()
    total = counts["valid"] + counts["invalid"]
    if not quiet and (total or status == EXIT_OK):
        say(f"gin validate: {plural(total, 'transcript')}: {counts['valid']:,} valid "
            f"({counts['complete']:,} complete), {counts['invalid']:,} invalid")
    if status == EXIT_OK and counts["invalid"]:
        status = EXIT_RECORD_FAILED
    raise typer.Exit(EXIT_PLUGIN_FAULT if counts["plugin"] else status)


def validation_defaults(registry: Any, variants: list[str] | None, scoring: str | None,
                        overrides: dict[str, Any], where: str = "--option") -> Defaults:
    """What fills in where transcripts are silent (``--variant``, the first of
    them; ``--scoring``; ``--option``), checked once for the whole run: a bad
    one is a :class:`UsageError` (``gin validate``, :func:`gincli.validate`)."""
    given = [registry.variant(v) for v in variants or []]  # a bad --variant is a usage error for the whole run
    first = given[0] if given else None
    if scoring is not None:
        registry.scoring(scoring)
    try:  # a bad --option value is a usage error for the whole run, not one per transcript (a key unknown
        # here may be an option of the scoring system a transcript names)
        known = registry.option_specs(first or registry.variant("standard"), registry.scoring(scoring or "game"))
        registry.check_left_out(overrides, known)
        resolve(known, overrides if set(overrides) <= set(known) else  # as given: values quoted as typed
                {k: v for k, v in overrides.items() if k in known}, where=where)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return Defaults(first.name if first is not None else None, scoring, overrides)


def _setup(plugin_dirs: list[str], disabled: list[str], defaults: Defaults, mode: str, invalid_only: bool,
           color: str) -> dict[str, Any]:
    from ..plugin.registry import load_registry
    from .render import set_color

    set_color(color)
    return {"registry": load_registry(plugin_dirs, disabled), "defaults": defaults, "mode": mode,
            "invalid_only": invalid_only}


def _check(item: Item, registry: Any, defaults: Defaults) -> Report:
    """The report on one transcript; any failure is a fault of this transcript only."""
    item.load()
    if item.error is not None:
        return _failed(None, item.error)
    try:
        return validate(item.record, registry, defaults)
    except PluginFault as exc:  # a plugin's, not the transcript's: its sentence whole
        return Report(item.record.get("id"), False, False, [Fault(None, None, "plugin-fault", exc.message)])
    except Exception as exc:
        return _failed(item.record.get("id"), record_failure(exc, "replayed", "transcript"), "internal-error")


def _failed(ident: Any, message: str, rule: str = "transcript-format") -> Report:
    return Report(ident, False, False, [Fault(None, None, rule, message)])


def _validate_chunk(items: list[Item]) -> tuple[str, int, int, int, int]:
    """A worker's chunk: :func:`validate_chunk` with the worker's state."""
    return validate_chunk(worker_state(), items)


def validate_chunk(state: dict[str, Any], items: list[Item]) -> tuple[str, int, int, int, int]:
    """Validate a chunk of transcripts: what to write (JSON lines, a report for
    people, or one line each), and the counts (valid, invalid, complete, and
    those with a plugin's fault: ``plugin-fault``). ``state``: the registry, the
    defaults, the mode, ``invalid_only`` (``gin validate``'s workers, and
    :func:`gincli.validate`)."""
    mode, invalid_only = state["mode"], state["invalid_only"]
    out = []
    console = stdout_console() if mode in ("text", "brief") else None
    valid = invalid = complete = plugin = 0
    for item in items:
        report = _check(item, state["registry"], state["defaults"])
        try:
            text = _written(report, item.where, mode, console) if report.valid is False or not invalid_only else ""
        except Exception as exc:
            report = _failed(report.id, record_failure(exc, "written" if mode in ("json", "csv") else "shown",
                                                       "transcript's report"), "internal-error")
            text = _written(report, item.where, mode, console)
        out.append(text)
        if report.valid:
            valid += 1
            complete += report.complete
        else:
            invalid += 1
            plugin += any(f.rule == "plugin-fault" for f in report.errors)
    return "".join(out), valid, invalid, complete, plugin


def _written(report: Report, where: str, mode: str, console: Any) -> str:
    if mode == "csv":
        return rows.lines([rows.transcript_row(where, report.to_dict())])
    if mode == "json":
        try:
            line = report.to_json()
        except Exception:  # written the plain way, which fails the same way and says so
            line = dumps(report.to_dict())
        return utf8_lines([line])
    if mode == "brief":
        return rendered(brief_line(report, where), console)
    return rendered(render_report(report, where), console) + "\n"


def brief_line(report: Report, where: str) -> Any:
    """A transcript on one line, for people: valid or not, the first fault where
    there is one, else the session so far."""
    from rich.text import Text

    name = safe(report.id if report.id is not None else where)
    if report.valid:
        state = "complete" if report.complete else "not complete"
        scores = ", ".join(f"{safe(p)} {v}" for p, v in report.result.get("scores", {}).items())
        text = (f"[bold green]✓[/] [bold]{name}[/]: valid, {state} · {safe(report.variant)} · {report.scoring} · "
                f"{_hands(len(report.hands))}" + (f" · {scores}" if scores else ""))
    else:
        fault = report.errors[0]
        where = _where(fault)
        text = (f"[bold red]✗[/] [bold]{name}[/]: invalid · {where + ': ' if where else ''}"
                f"{message_markup(fault.message)} "
                f"[dim]({fault.rule})[/]")
    return Text.from_markup(text)


def _hands(n: int) -> str:
    return plural(n, "hand")


def _where(fault: Any) -> str:
    """Where a fault is, for people: hands and moves counted from 1."""
    parts = []
    if fault.hand is not None:
        parts.append(f"hand {fault.hand + 1}")
    if fault.move is not None:
        parts.append(f"move {fault.move + 1}")
    if not parts and fault.rule in ("claimed-session-result", "plugin-missing"):
        return ""  # the message names the session's result, or the transcript, itself
    return ", ".join(parts) or "the transcript"


def render_report(report: Report, where: str) -> Any:
    """A validation report for people; a fault is shown in context: the hands at
    that point, the moves before it and the offending move."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    name = safe(report.id if report.id is not None else where)
    parts: list[Any] = []
    if report.valid:
        state = "complete" if report.complete else "not complete (the session is not settled yet)"
        parts.append(Text.from_markup(f"[bold green]✓[/] [bold]{name}[/]: valid, {state}"))
    else:
        parts.append(Text.from_markup(f"[bold red]✗[/] [bold]{name}[/]: invalid"))
    if report.variant:
        scores = ", ".join(f"{p} {v}" for p, v in report.result.get("scores", {}).items())
        from .sheets import winner_text

        winner = winner_text(report.result, markup=False)
        line = f"  {report.variant} · {report.scoring} · {plural(len(report.hands), 'hand')} scored"
        if scores:
            line += f" · scores: {scores}"
        if winner:
            line += f" · winner: {winner}"
        parts.append(Text(safe(line, markup=False)))
    if report.valid and report.hands and report.scoring != "hand":
        from .sheets import session_sheet

        parts.append(session_sheet(report.result, report.scoring, report.players))
    for fault in report.errors:
        loc = _where(fault)
        grid = Table.grid(padding=(0, 1))
        grid.add_column(no_wrap=True)
        grid.add_column()
        grid.add_row(Text.from_markup(f"  [red]{loc}[/]" if loc else " "),
                     Text.from_markup(f"{message_markup(fault.message)} [dim]({fault.rule})[/]"))
        parts.append(grid)
        if fault.context:
            parts.append(_context_table(fault.context))
    return Group(*parts)


def _context_table(ctx: dict[str, Any]) -> Any:
    from rich.table import Table

    state = ctx["state"]
    table = Table(show_header=False, box=None, padding=(0, 2), pad_edge=False)
    table.add_column(style="dim", justify="right")
    table.add_column()
    for p, cards in state["hands"].items():
        table.add_row(safe(p), cards_markup(cards))
    top = cards_markup([state["discard_top"]]) if state["discard_top"] else "empty"
    table.add_row("discard pile", f"{top} on top · stock {state['stock']} cards · "
                                  f"{safe(state['to_act'])} to {state['expecting']}")
    for m in ctx["moves"]:
        table.add_row("", _move_text(m))
    table.add_row("[bold red]→[/]", f"[bold red]{_move_text(ctx['move'])}[/]")
    return table


def _move_text(m: Any) -> str:
    """A move of the input as markup: its fields shown safely, its card as a card."""
    if not isinstance(m, dict):
        return safe(quote(m))
    text = f"{safe(m.get('player'))} {safe(m.get('action'))}"
    if m.get("from"):
        text += f" from {safe(m['from'])}"
    if m.get("card"):
        try:
            text += " " + cards_markup([m["card"]])
        except Exception:
            text += f" {safe(quote(m['card']))}"
    return text
