"""``gin match``: headless matches between bots; ``gin bots``: the bots loaded."""

from __future__ import annotations

import errno
import functools
import gc
import os
import sys
import time
from typing import Annotated, Any

import typer

from ..base.errors import GinError, MachineError, UsageError, clip, os_reason, quote
from ..base.jsonio import dumps
from ..formats import rows
from ..matches.backends import DEFAULT_BACKEND, BackendRun, MatchWork
from ..matches.runner import DEFAULT_MAX_FORFEITS, Tally, open_transcripts, recorded_seed
from ..work.plan import plan_match, player_names  # noqa: F401 (gin tournament's)
from ..work.run import stream_sessions  # noqa: F401  (gin tournament's)
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
    if resume and not transcripts:
        raise UsageError("--resume needs --transcripts FILE, the file to finish")
    if resume and transcripts == "-":
        raise UsageError("--resume finishes a file; --transcripts - writes to standard output, which cannot be read "
                         "back")
    if report is not None and transcripts is not None and os.path.abspath(report) == os.path.abspath(transcripts):
        raise UsageError("--report and --transcripts name the same file: give the page a file of its own")
    s = settings(ctx)
    registry = bots_registry(ctx, bots_file)
    if seed is None and resume and transcripts:
        seed = recorded_seed(transcripts)
    plan = plan_match(registry, specs, bots_, hands=hands, games=games, seed=seed, variant=variant, scoring=scoring,
                      overrides=overrides_from(option), duplicate=duplicate, sprt=sprt, names=names, backend=backend,
                      backend_option=backend_option, address=address, time_limit=time_limit, max_hands=max_hands,
                      start_time_limit=start_time_limit, bot_log=bot_log, bot_trace=bot_trace,
                      max_forfeits=max_forfeits)
    spec, the_variant, header, test, where, chosen = (plan.spec, plan.variant, plan.header, plan.test, plan.backend,
                                                      plan.backend_options)
    count = spec.count
    if report is not None:
        from .report import History

        tally: Tally = History(spec, test, the_variant.name, header["options"])
    else:
        tally = Tally(spec, test, the_variant.name, header["options"])
    done = 0
    out: _StdoutTranscripts | _FileTranscripts | None = None
    earlier: list[Any] = []  # sessions a resumed file holds already
    run = BackendRun(where, chosen, workers)  # before the file: a cluster out of reach leaves nothing behind
    try:
        if transcripts == "-":  # the transcripts are the data on stdout: the summary goes to stderr
            out, earlier = _StdoutTranscripts(), []
        elif transcripts:
            fh, earlier = open_transcripts(transcripts, spec, header, resume)
            out = _FileTranscripts(fh, transcripts)
            for o in earlier:
                tally.add(o, check=False)  # done already: not stopped again for what the bot did then
            done = len(earlier)
    except BaseException:
        run.stop()
        raise
    hands_before = tally.hands
    gc.freeze()
    started = time.perf_counter()
    interrupted = False
    refused: GinError | None = None  # a write the machine refused: the match stops, what was played is kept
    record = out is not None
    w = run.workers
    from ..plugin.registry import load_registry

    work = MatchWork.of(spec, record, load_registry, s.plugin_dirs, s.disabled, bots_file, registry)
    csv = format == "csv"
    if csv:  # a row a session on stdout, as each is counted (the summary then goes to stderr)
        write_data(rows.header(rows.SESSION) + rows.lines(rows.outcome_row(spec, o) for o in earlier))
    each = (lambda o: write_data(rows.lines([rows.outcome_row(spec, o)]))) if csv else None
    try:
        with progress_bar(" v ".join(safe(n) for n in spec.names), count, enabled=not quiet,
                          unit="items", status=functools.partial(scoreline, tally)) as advance:
            advance(done)
            refused = stream_sessions(run, work, tally, done, out, each, advance)
    except UsageError as exc:
        raise stopped_bot(exc, transcripts, "match") from None
    except KeyboardInterrupt:
        interrupted = True
    finally:
        if out is not None:
            try:
                out.close()
            except MachineError as exc:
                refused = refused or exc
            except OSError:  # a reader gone (--transcripts - | head): the bots and workers still go below
                pass
        from ..matches.external import close_all

        refused = refused or close_all()  # a bot log that stopped taking lines as its bot ended
        stopped = run.stop()  # a backend that fails to let go is said after the result, never over it
    elapsed = time.perf_counter() - started
    summary = tally.summary()
    aside = transcripts == "-" or csv  # the data on stdout is the rows or the transcripts: the summary is an aside
    try:
        if refused is not None:
            raise refused
        if aside:
            stdout().flush()
            if not quiet:
                _summary_to_stderr(summary, format)
        elif format == "json":
            write_json(summary)
        else:
            show(render_summary(summary))
    except MachineError:  # the machine stopped the match (a full disk): what was played, on stderr, then why
        if not (aside and quiet):  # the summary is the data stdout did not get: -q keeps it
            _summary_to_stderr(summary, format)
        raise
    if tally.capped:
        stdout().flush()  # the summary, then the warning
        warn(capped_note(summary))
    if stopped:
        stdout().flush()
        warn(stopped)
    if not quiet:
        played = tally.hands - hands_before  # what this run played: a resumed match's earlier hands cost nothing now
        rate = played / elapsed if elapsed > 0 else 0.0
        before = f" ({plural(done, 'session')} from {safe(transcripts, markup=False)})" if done else ""
        now = " now" if done else ""
        say(f"gin match: {plural(tally.sessions, 'session')}{before}; {plural(played, 'hand')} played{now} in "
            f"{elapsed:.1f} s ({rate:,.0f} hands/s, {plural(w, 'worker')}"
            + (f", backend {safe(where.name, markup=False)})" if where.name != DEFAULT_BACKEND else ")"))
    if report is not None:  # after Ctrl-C too: the page of what was played
        from .report import History, write_page

        assert isinstance(tally, History)
        write_page(report, tally, summary, "match", quiet, force, registry)
    if interrupted:  # said under -q too: the answer to the Ctrl-C, and how to go on
        say(f"gin match: interrupted after {tally.sessions} of {count} sessions"
            + (f"; finish with --transcripts {safe(transcripts, markup=False)} --resume" if transcripts else ""))
        raise typer.Exit(EXIT_INTERRUPTED)


def stopped_bot(exc: UsageError, transcripts: str | None, what: str) -> UsageError:
    """A match stopped by a bot (its forfeits in a row, its failed starts):
    the same sentence, saying where the sessions played so far are kept and
    how to go on once the bot is fixed."""
    from ..matches.external import BotStartFailure
    from ..matches.runner import ForfeitStop

    if not isinstance(exc, (ForfeitStop, BotStartFailure)) or not transcripts or transcripts == "-":
        return exc
    return type(exc)(f"{exc.message}; the sessions played are in {transcripts}: fix the bot, then go on with "
                     f"gin {what} ... --transcripts {transcripts} --resume")


def _summary_to_stderr(summary: dict[str, Any], format: RowsFormat) -> None:
    if format == "json":
        print(dumps(summary, indent=2), file=sys.stderr)
    else:
        show(render_summary(summary), stderr_console())


class _StdoutTranscripts:
    """``--transcripts -``: each session's line on standard output, as it ends."""

    def write(self, data: bytes) -> None:
        stdout().buffer.write(data)
        stdout().buffer.flush()

    def close(self) -> None:
        stdout().buffer.flush()


FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))


class _FileTranscripts:
    """``--transcripts FILE``: each session's line written whole as it ends,
    straight to the file (no buffer left to fail later). A write the system
    refuses (a full disk) takes back what it wrote of its line, so that the
    file holds whole sessions only (``--resume`` goes on from them), and is a
    :class:`MachineError` naming the file."""

    def __init__(self, fh: Any, path: str, what: str = "match"):
        self.fh = fh
        self.path = path
        self.what = what  # what --resume finishes: the match, the tournament
        self.fd = fh.fileno()
        self.lines = 0

    def write(self, data: bytes) -> None:
        try:
            start = os.lseek(self.fd, 0, os.SEEK_END)
        except OSError:
            start = None  # not seekable (a pipe, a device): nothing to take back
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self.fd, view):]
        except OSError as exc:
            if start is not None:
                try:
                    os.ftruncate(self.fd, start)
                except OSError:
                    pass
            kept = (f"; the {plural(self.lines, 'session')} written before it {'is' if self.lines == 1 else 'are'} "
                    "kept" if self.lines else "")
            hint = f" (finish the {self.what} with --resume once there is room)" if exc.errno in FULL else ""
            raise MachineError(f"cannot write the transcripts to {self.path}: {os_reason(exc)}{kept}{hint}") \
                from None
        self.lines += 1

    def close(self) -> None:
        try:
            self.fh.close()
        except OSError:
            pass


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
            "checks": [dict(c.to_dict(), number=i + 1) for i, c in enumerate(checks)],
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
