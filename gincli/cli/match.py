"""``gin match``: headless matches between bots; ``gin bots``: the bots loaded."""

from __future__ import annotations

import functools
import os
import sys
import time
from typing import Annotated, Any

import typer

from ..base.errors import MachineError, UsageError, clip, quote
from ..base.jsonio import dumps
from ..formats import rows
from ..formats.store import StreamSink
from ..matches.backends import DEFAULT_BACKEND
from ..matches.runner import DEFAULT_MAX_FORFEITS, Tally
from ..work.match import MatchRun
from ..work.plan import MatchOptions
from ..work.report import History
from . import complete
from .base import EXIT_INTERRUPTED, bots_registry, guard, settings, warn
from .options import (
    AddressOpt,
    BackendOpt,
    BackendOptionOpt,
    BotLogOpt,
    BotsFileOpt,
    BotTraceOpt,
    DuplicateOpt,
    ForceOpt,
    FormatOpt,
    GamesOpt,
    HandsOpt,
    MatchScoringOpt,
    MatchVariantOpt,
    MatchWorkersOpt,
    MaxForfeitsOpt,
    MaxHandsOpt,
    OptionOpt,
    PlayersOpt,
    QuietOpt,
    ReportOpt,
    RowsFormatOpt,
    SeedOpt,
    SprtOpt,
    StartTimeLimitOpt,
    TimeLimitOpt,
    from_config,
    overrides_from,
    split_bots,
)
from .render import (
    OutputFormat,
    RowsFormat,
    data as stdout,
    emit,
    listing,
    plural,
    progress_bar,
    safe,
    say,
    show,
    stderr_console,
    stdout_console,
    write_data,
    write_json,
)
from .summary import capped_note, render_summary

HELP = """Play a match between bots, headless (two; three or four for cutthroat, chouette and partnership): --hands
N (N hands, each settled alone) or --games N (N sessions of the scoring system, game by default).

Reproducible by --seed whatever --workers and --backend are (--backend ray runs the sessions on a Ray cluster:
docs/distributed.md). --duplicate plays every deal twice with the seats swapped. --transcripts FILE writes each
session as it finishes (JSON Lines); after Ctrl-C, --resume finishes the match without replaying what is done.
--sprt elo0,elo1 stops once the sequential test decides. Bots: the names of gin bots, or exec:COMMAND for an
external program (docs/bot-protocol.md).
"""

BOTS_HELP = ("List the bots: those plugins register, with their parameters (gin match --bots expert:k=v), the "
             "named external bots of bots files, and exec:COMMAND.")


CHECK_HELP = ("Check an external bot against the protocol. It is run through the protocol's situations (the "
              "handshake, every phase of a hand, the wall, big gin, doubling, hand_over, a new session, bye, a "
              "restart), and each check is reported: pass or fail, the exact exchange and the fix. Exit 0 only if "
              "every check passes (1 if one fails).")


def register(app: typer.Typer) -> None:
    app.command("match", help=HELP)(guard(match))
    group = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
                        subcommand_metavar="[check BOT]")
    group.callback(invoke_without_command=True, help=BOTS_HELP)(guard(bots))
    group.command("check", help=CHECK_HELP)(guard(check))
    app.add_typer(group, name="bots")


def match(
    ctx: typer.Context,
    bots_: Annotated[str, typer.Option("--bots", metavar="A,B[,C,D]", autocompletion=complete.bots,
                                       help="The bots: two, or as many as the scoring system seats.")],
    hands: HandsOpt = None,
    games: GamesOpt = None,
    seed: SeedOpt = None,
    workers: MatchWorkersOpt = None,
    backend: BackendOpt = DEFAULT_BACKEND,
    address: AddressOpt = None,
    backend_option: BackendOptionOpt = None,
    variant: MatchVariantOpt = "standard",
    scoring: MatchScoringOpt = None,
    option: OptionOpt = None,
    duplicate: DuplicateOpt = False,
    transcripts: Annotated[str | None, typer.Option("--transcripts", metavar="FILE",
                                                    help="Write every session's transcript (JSON Lines); - for "
                                                         "standard output (the summary then goes to stderr).")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Finish the match --transcripts FILE holds.")] = False,
    sprt: SprtOpt = None,
    time_limit: TimeLimitOpt = 5.0,
    start_time_limit: StartTimeLimitOpt = 30.0,
    bots_file: BotsFileOpt = None,
    bot_log: BotLogOpt = None,
    bot_trace: BotTraceOpt = None,
    max_forfeits: MaxForfeitsOpt = DEFAULT_MAX_FORFEITS,
    names: PlayersOpt = None,
    report: ReportOpt = None,
    force: ForceOpt = False,
    max_hands: MaxHandsOpt = 10_000,
    format: RowsFormatOpt = RowsFormat.text,
    quiet: QuietOpt = False,
) -> None:
    if format == "csv" and transcripts == "-":
        raise UsageError("--format csv writes a row a session on standard output, and --transcripts - the "
                         "transcripts: give the transcripts a file")
    if report is not None:
        from .report import check_page

        check_page(report, "--report", force)
    if hands is not None and games is not None:  # one from the config file: the command line's choice wins
        if from_config(ctx, "games") and not from_config(ctx, "hands"):
            games = None
        elif from_config(ctx, "hands") and not from_config(ctx, "games"):
            hands = None
    if hands is not None and scoring not in (None, "hand") and from_config(ctx, "scoring"):
        scoring = None  # the config's scoring is for --games; --hands are settled alone
    specs = split_bots(bots_)
    if resume and transcripts == "-":
        raise UsageError("--resume finishes a file; --transcripts - writes to standard output, which cannot be read "
                         "back")
    if report is not None and transcripts is not None and os.path.abspath(report) == os.path.abspath(transcripts):
        raise UsageError("--report and --transcripts name the same file: give the page a file of its own")
    s = settings(ctx)
    registry = bots_registry(ctx, bots_file)
    options = MatchOptions(tuple(specs), hands=hands, games=games, seed=seed, workers=workers, duplicate=duplicate,
                           variant=variant, scoring=scoring, options=overrides_from(option), sprt=sprt, names=names,
                           backend=backend, backend_options=tuple(backend_option) if backend_option else None,
                           address=address, time_limit=time_limit, start_time_limit=start_time_limit,
                           max_hands=max_hands, bot_log=bot_log, bot_trace=bot_trace, max_forfeits=max_forfeits,
                           transcripts=transcripts, resume=resume, bots_file=bots_file, given=bots_)
    if report is not None:
        counter: type[Tally] = History
    else:
        counter = Tally
    run = MatchRun(registry, options, sink=StreamSink(stdout().buffer) if transcripts == "-" else None,
                   tally=counter, plugins=(s.plugin_dirs, s.disabled))
    spec, tally = run.pairings[0], run.tallies[0]
    csv = format == "csv"
    if csv:  # a row a session on stdout, as each is counted (the summary then goes to stderr)
        write_data(rows.header(rows.SESSION) + rows.lines(rows.outcome_row(spec, o) for o in run.earlier))
    each = (lambda o: write_data(rows.lines([rows.outcome_row(spec, o)]))) if csv else None
    with progress_bar(" v ".join(safe(n) for n in spec.names), spec.count, enabled=not quiet,
                      unit="items", status=functools.partial(scoreline, tally)) as advance:
        advance(run.done)
        run.play(advance, each)
    summary = run.summary()
    aside = transcripts == "-" or csv  # the data on stdout is the rows or the transcripts: the summary is an aside
    try:
        if run.refused is not None:
            raise run.refused
        if aside:
            stdout().flush()
            if not quiet:
                _summary_to_stderr(summary, format)
        elif format == "json":
            write_json(summary)
        elif run.halted is not None:  # a bot stopped the match: what was played, then why, on stderr
            _summary_to_stderr(summary, format)
        else:
            show(render_summary(summary))
    except MachineError:  # the machine stopped the match (a full disk): what was played, on stderr, then why
        if not (aside and quiet):  # the summary is the data stdout did not get: -q keeps it
            _summary_to_stderr(summary, format)
        raise
    if tally.capped:
        stdout().flush()  # the summary, then the warning
        warn(capped_note(summary))
    if run.stopped:
        stdout().flush()
        warn(run.stopped)
    if not quiet:
        played, elapsed, done = run.played, run.elapsed, run.done
        rate = played / elapsed if elapsed > 0 else 0.0
        before = f" ({plural(done, 'session')} from {safe(transcripts, markup=False)})" if done else ""
        now = " now" if done else ""
        where = run.plan.backend
        say(f"gin match: {plural(tally.sessions, 'session')}{before}; {plural(played, 'hand')} played{now} in "
            f"{elapsed:.1f} s ({rate:,.0f} hands/s, {plural(run.workers, 'worker')}"
            + (f", backend {safe(where.name, markup=False)})" if where.name != DEFAULT_BACKEND else ")"))
    if report is not None:  # after Ctrl-C too: the page of what was played
        from .report import write_page

        assert isinstance(tally, History)
        write_page(report, tally, summary, "match", quiet, force, registry)
    if run.halted is not None:  # why it stopped, last (exit 2)
        raise run.halted
    if run.interrupted:  # said under -q too: the answer to the Ctrl-C, and how to go on
        say(f"gin match: interrupted after {tally.sessions} of {spec.count} sessions"
            + (f"; finish with --transcripts {safe(transcripts, markup=False)} --resume" if transcripts else ""))
        raise typer.Exit(EXIT_INTERRUPTED)


def _summary_to_stderr(summary: dict[str, Any], format: RowsFormat) -> None:
    if format == "json":
        print(dumps(summary, indent=2), file=sys.stderr)
    else:
        show(render_summary(summary), stderr_console())


def scoreline(tally: Tally) -> str:
    """The running score beside the match's progress bar: each player's games
    (or hands) won, with two players the first one's score and, under --sprt,
    the log-likelihood ratio against its bounds."""
    key = "games_won" if tally.spec.unit == "games" else "hands_won"
    parts = [f"{safe(name)} {p[key]:,}" for name, p in tally.players.items()]
    text = " · ".join(parts)
    if tally.two_players and tally.sums.n:  # running sums: asked at every chunk of a long match
        text += f" · {tally.sums.total / tally.sums.n:.1%}"
        if tally.sprt is not None:
            lower, upper = tally.sprt.bounds
            text += f" · LLR {tally.sprt.llr_running(tally.sums):+.2f} ({lower:.2f}, {upper:.2f})"
    return text


def bots(
    ctx: typer.Context,
    bots_file: BotsFileOpt = None,
    format: FormatOpt = OutputFormat.text,
) -> None:
    if ctx.invoked_subcommand is not None:  # gin bots check: its own options
        ctx.obj = ctx.find_root().obj
        ctx.meta["gin bots"] = bots_file
        return
    registry = bots_registry(ctx, bots_file)
    data = {"bots": [{"name": n, "description": b.description, "plugin": registry.owner.get(("bot", n)),
                      "parameters": [{"name": o.name, "default": o.default, "allowed": o.allowed(),
                                      "description": o.description} for o in b.parameters]}
                     for n, b in sorted(registry.bots.items())]
            + [{"name": n, "description": e.description, "plugin": None, "command": list(e.argv),
                "source": e.source, "parameters": [{"name": k, "default": v} for k, v in e.parameters]}
               for n, e in sorted(registry.named_bots.items())]}

    def render(data: dict[str, Any]) -> Any:
        from ..rulebook.rules import format_value

        def params(b: dict[str, Any]) -> str:
            return "\n".join(safe(f"{p['name']} = {format_value(p['default'])}") for p in b["parameters"]) or "—"

        rows = [(b["name"], b["description"] or " ".join(b.get("command", [])), params(b),
                 b["plugin"] or b.get("source", "")) for b in data["bots"]]
        rows.append(("exec:COMMAND", "an external program speaking the JSON-lines protocol of "
                                     "docs/bot-protocol.md", "—", ""))
        return listing("Bots", "bot", rows, "description", "parameters", "from", markup=("parameters",))

    emit(format, data, render)


def check(
    ctx: typer.Context,
    bot: Annotated[str, typer.Argument(metavar="BOT", autocompletion=complete.bots,
                                       help="exec:COMMAND, or a named bot of a bots file (name:key=value sets a "
                                            "parameter).")],
    variant: MatchVariantOpt = "standard",
    option: OptionOpt = None,
    time_limit: TimeLimitOpt = 5.0,
    start_time_limit: StartTimeLimitOpt = 30.0,
    bots_file: BotsFileOpt = None,
    format: FormatOpt = OutputFormat.text,
    quiet: QuietOpt = False,
) -> None:
    from ..matches.external import is_external
    from ..matches.external.check import CHECKS, run_checks

    registry = bots_registry(ctx, bots_file or ctx.meta.get("gin bots"))
    factory = registry.bot(bot)
    if not is_external(factory):
        raise UsageError(f"{quote(bot)} is a bot of gincli or of a plugin, which runs in gincli's own process: gin "
                         "bots check runs external bots (exec:COMMAND, or a named bot of a bots file)")
    system = registry.scoring("hand")
    overrides = overrides_from(option)
    try:
        the_variant = registry.variant(variant)
        registry.rules(the_variant, system, overrides)
    except ValueError as exc:
        raise UsageError(str(exc)) from None

    def rules_for(extra: dict[str, Any]) -> Any:
        return registry.rules(the_variant, system, {**overrides, **extra})

    spec = factory.external
    started = time.perf_counter()
    checks = []
    with progress_bar(f"checking {safe(spec.label)}", CHECKS, enabled=not quiet, unit="items") as advance:
        for c in run_checks(spec, the_variant, rules_for, time_limit, start_time_limit):
            checks.append(c)
            advance(len(checks))
    failed = [c for c in checks if not c.passed]
    data = {"bot": bot, "command": list(spec.argv), "protocol": "gincli-bot/2", "passed": not failed,
            "checks": [c.to_dict() for c in checks],
            "summary": {"checks": len(checks), "passed": len(checks) - len(failed), "failed": len(failed)},
            "seconds": round(time.perf_counter() - started, 2)}
    if format == "json":
        write_json(data)
    elif stdout_console().is_terminal:
        show(render_checks(data))
    else:  # a line each, never wrapped, for grep
        write_data(render_checks(data).plain + "\n")
    if failed:
        raise typer.Exit(1)


#: The lines of a failed check's exchange shown to people: its last ones, where it failed.
SHOWN = 4


def render_checks(data: dict[str, Any]) -> Any:
    """The checks for people: one line each, and for a failed one its exchange and the fix."""
    from rich.text import Text

    out = Text()
    for c in data["checks"]:
        mark = "✓" if c["passed"] else "✗"
        out.append(f"{mark} {c['number']}. {c['name']}\n", style="green" if c["passed"] else "bold red")
        if not c["passed"]:
            out.append(f"    situation: {c['situation']}\n")
            out.append(f"    problem: {safe(c['problem'], markup=False)}\n")
            shown = c["exchange"][-SHOWN:]
            if len(c["exchange"]) > SHOWN:
                out.append(f"    ({plural(len(c['exchange']) - SHOWN, 'line')} before: --format json gives "
                           "every line)\n")
            for line in shown:
                out.append(f"    {line['direction']} {safe(clip(line['line'], 160), markup=False)}\n")
            out.append(f"    fix: {c['fix']}\n", style="yellow")
    s = data["summary"]
    verdict = "every check passed" if data["passed"] else f"{s['failed']} failed"
    out.append(f"{s['passed']} of {s['checks']} checks passed ({verdict})")
    return out
