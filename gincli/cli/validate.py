"""``gin validate FILE... | -``: replay transcripts move by move."""

from __future__ import annotations

import functools
import gc
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..base.errors import EXIT_OK, EXIT_PLUGIN_FAULT, EXIT_RECORD_FAILED, EXIT_UNREADABLE, InputError, quote
from ..base.pool import WARMUP
from ..formats import rows
from ..formats.containers import Reader
from ..replay.validate import Defaults, Report
from ..work.validate import Counts, validated, validation_defaults
from . import complete
from .base import error, guard, settings
from .options import (
    InputFormatOpt,
    OptionOpt,
    QuietOpt,
    RowsFormatOpt,
    WorkersOpt,
    files_given,
    overrides_from,
    workers_for,
)
from .render import (
    RowsFormat,
    cards_markup,
    color_mode,
    data,
    message_markup,
    plural,
    progress_bar,
    rendered,
    safe,
    say,
    stdin_notice,
    stdout_console,
    write_data,
)
from .score import file_size

if TYPE_CHECKING:
    from ..plugin.registry import Registry

HELP = """Replay transcripts move by move and check every rule and every claimed result.

Reads .json, .jsonl (streamed), .toml files, gzip-compressed too (.jsonl.gz), or - for standard input. For each
transcript: whether it is valid, whether it is complete (the session was settled), the first fault (hand, move, rule
id, one sentence), each finished hand's score and the session's scores. A transcript's own variant, scoring and
options are used; --variant, --scoring and --option fill in what a transcript leaves out.

Exit status: 0 every transcript valid; 1 some transcript invalid; 2 an input could not be read at all; 4 a plugin
broke its contract (the transcripts it touched name it: plugin-fault).
"""

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
    counts = Counts()
    status = EXIT_OK
    gc.freeze()
    mode = format.value if format != "text" else "brief" if brief else "text"
    state = chunk_state(registry, defaults, mode, invalid_only)
    setup = functools.partial(_setup, s.plugin_dirs, s.disabled, defaults, mode, invalid_only, color_mode())
    if mode == "csv":
        write_data(rows.header(rows.TRANSCRIPT))
    for path in files:
        reader = Reader(path, input_format)
        stdin_notice("gin validate", "transcripts", path, quiet)
        try:
            with progress_bar(f"validating {safe(reader.name)}", file_size(path), enabled=not quiet,
                              streaming=True) as advance:
                for chunk in validated(state, reader.items(parse=False), workers_for(workers), setup,
                                       warmup=0.0 if workers else WARMUP):
                    write_data(chunk.text, json=mode == "json")
                    counts.add(chunk.counts)
                    advance(reader.position())
            reader.check()  # gzip data cut short: the transcripts before it are replayed
        except InputError as exc:
            data().flush()  # what came before the error is written before it
            error(exc.message)
            status = EXIT_UNREADABLE
    data().flush()
    total = counts.valid + counts.invalid
    if not quiet and (total or status == EXIT_OK):
        say(f"gin validate: {plural(total, 'transcript')}: {counts.valid:,} valid "
            f"({counts.complete:,} complete), {counts.invalid:,} invalid")
    if status == EXIT_OK and counts.invalid:
        status = EXIT_RECORD_FAILED
    raise typer.Exit(EXIT_PLUGIN_FAULT if counts.plugin else status)


def _setup(plugin_dirs: list[str], disabled: list[str], defaults: Defaults, mode: str, invalid_only: bool,
           color: str) -> dict[str, Any]:
    from ..plugin.registry import load_registry
    from .render import set_color

    set_color(color)
    return chunk_state(load_registry(plugin_dirs, disabled), defaults, mode, invalid_only)


def chunk_state(registry: Registry, defaults: Defaults, mode: str, invalid_only: bool) -> dict[str, Any]:
    """What :func:`~gincli.work.validate.validate_chunk` needs to report on
    transcripts for ``gin validate`` in ``mode`` (text, brief, json, csv): for
    all but json, the function that turns a report into what is written (run
    in the workers)."""
    state = {"registry": registry, "defaults": defaults, "invalid_only": invalid_only}
    if mode == "csv":
        state["write"] = _row
    elif mode != "json":
        state.update(write=functools.partial(_people, mode=mode), shown=True)
    return state


def _row(report: Report, where: str) -> str:
    """A transcript's report as a CSV row (in a worker)."""
    return rows.lines([rows.transcript_row(where, report.to_dict())])


def _people(report: Report, where: str, mode: str) -> str:
    """A transcript's report for people (``text``, ``brief``), as the workers write it."""
    console = stdout_console()
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

        assert report.scoring is not None, "a report with hands names its scoring: validate sets it before replaying"
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
