"""``gin tournament``: every pairing of several bots plays a match; a
crosstable and a rating list of them all."""

from __future__ import annotations

import functools
import os
import sys
from typing import Annotated, Any

import typer

from ..base.errors import MachineError, UsageError
from ..base.jsonio import dumps
from ..formats import rows
from ..matches.backends import DEFAULT_BACKEND
from ..matches.runner import DEFAULT_MAX_FORFEITS, Tally
from ..matches.tournament import pairing_done
from ..work.match import MatchRun
from ..work.plan import MatchOptions
from .base import EXIT_INTERRUPTED, bots_registry, guard, settings, warn
from .match import scoreline
from .options import (
    AddressOpt,
    BackendOpt,
    BackendOptionOpt,
    BotLogOpt,
    BotsFileOpt,
    BotTraceOpt,
    DuplicateOpt,
    ForceOpt,
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
    whole_numbers,
)
from .render import RowsFormat, data, plural, progress_bar, safe, say, show, write_data, write_json
from .summary import render_tournament

HELP = """Play a tournament between bots: every pairing plays a match, --games N (sessions of the scoring system,
game by default) or --hands N a pairing; then a crosstable and a rating list.

A round robin by default; --gauntlet K pairs each of the first K bots with each of the others. Every pairing plays
the same deals (one --seed). Ratings are the maximum-likelihood Bradley–Terry (logistic Elo) fit of every game, mean
0 or --anchor NAME[=ELO], with 95% intervals (docs/statistics.md). --transcripts FILE writes every session as it
ends, each naming its pairing; after Ctrl-C, --resume finishes the tournament. --sprt may stop each pairing early.
"""


def register(app: typer.Typer) -> None:
    app.command("tournament", help=HELP)(guard(tournament))


def tournament(
    ctx: typer.Context,
    bots_: Annotated[str, typer.Option("--bots", metavar="A,B,C[,…]",
                                       help="The bots: three or more (two make a match).")],
    hands: HandsOpt = None,
    games: GamesOpt = None,
    gauntlet: Annotated[int | None, typer.Option(
        "--gauntlet", click_type=whole_numbers(1), metavar="K",
        help="The first K bots play each of the others (and not each other).")]
    = None,
    seed: SeedOpt = None,
    workers: MatchWorkersOpt = None,
    backend: BackendOpt = DEFAULT_BACKEND,
    address: AddressOpt = None,
    backend_option: BackendOptionOpt = None,
    variant: MatchVariantOpt = "standard",
    scoring: MatchScoringOpt = None,
    option: OptionOpt = None,
    duplicate: DuplicateOpt = False,
    transcripts: Annotated[str | None, typer.Option(
        "--transcripts", metavar="FILE", help="Write every session's transcript (JSON Lines), each naming its "
                                              "pairing.")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Finish the tournament --transcripts FILE holds.")] = False,
    sprt: SprtOpt = None,
    anchor: Annotated[str | None, typer.Option(
        "--anchor", metavar="NAME[=ELO]", help="Rate NAME at ELO (0 unless given); without it, the ratings' mean "
                                               "is 0.")] = None,
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
    if hands is not None and games is not None:  # one from the config file: the command line's choice wins
        if from_config(ctx, "games") and not from_config(ctx, "hands"):
            games = None
        elif from_config(ctx, "hands") and not from_config(ctx, "games"):
            hands = None
    if hands is not None and scoring not in (None, "hand") and from_config(ctx, "scoring"):
        scoring = None
    if report is not None:
        from .report import check_page

        check_page(report, "--report", force)
    specs = split_bots(bots_)
    if transcripts == "-":
        raise UsageError("--transcripts takes a file: a tournament's summary is its data on standard output")
    if report is not None and transcripts is not None and os.path.abspath(report) == os.path.abspath(transcripts):
        raise UsageError("--report and --transcripts name the same file: give the page a file of its own")
    s = settings(ctx)
    registry = bots_registry(ctx, bots_file)
    options = MatchOptions(tuple(specs), hands=hands, games=games, seed=seed, workers=workers, duplicate=duplicate,
                           variant=variant, scoring=scoring, options=overrides_from(option), sprt=sprt, names=names,
                           backend=backend, backend_options=tuple(backend_option) if backend_option else None,
                           address=address, time_limit=time_limit, start_time_limit=start_time_limit,
                           max_hands=max_hands, bot_log=bot_log, bot_trace=bot_trace, max_forfeits=max_forfeits,
                           transcripts=transcripts, resume=resume, bots_file=bots_file, gauntlet=gauntlet,
                           anchor=anchor, given=bots_)
    run = MatchRun(registry, options, tournament=True, plugins=(s.plugin_dirs, s.disabled))
    with progress_bar("tournament", run.total, enabled=not quiet, unit="items",
                      status=functools.partial(_standing, run.pairings, run.tallies)) as advance:
        advance(run.done)
        run.play(advance)
    summary = run.summary()
    try:
        if run.refused is not None:
            raise run.refused
        if format == "json":
            write_json(summary)
        elif format == "csv":
            write_data(rows.tournament_tables(summary))
        elif run.halted is not None:  # a bot stopped the tournament: what was played, then why, on stderr
            show(render_tournament(summary), _stderr())
        else:
            show(render_tournament(summary))
    except MachineError:  # what was played, on stderr, in the format asked for
        if format == "json":
            print(dumps(summary, indent=2), file=sys.stderr)
        else:
            show(render_tournament(summary), _stderr())
        raise
    if run.stopped:
        data().flush()
        warn(run.stopped)
    if not quiet:
        played, elapsed, done = run.played, run.elapsed, run.done
        sessions = sum(t.sessions for t in run.tallies)
        rate = played / elapsed if elapsed > 0 else 0.0
        earlier = f" ({plural(done, 'session')} from {safe(transcripts, markup=False)})" if done else ""
        say(f"gin tournament: {plural(len(run.pairings), 'pairing')}, {plural(sessions, 'session')}{earlier}; "
            f"{plural(played, 'hand')} played in {elapsed:.1f} s ({rate:,.0f} hands/s, "
            f"{plural(run.workers, 'worker')})")
    if report is not None:
        from .report import write_tournament_page

        write_tournament_page(report, summary, quiet, force, registry=registry)
    if run.halted is not None:  # why it stopped, last (exit 2)
        raise run.halted
    if run.interrupted:  # said under -q too: the answer to the Ctrl-C, and how to go on
        say("gin tournament: interrupted"
            + (f"; finish with --transcripts {safe(transcripts, markup=False)} --resume" if transcripts else ""))
        raise typer.Exit(EXIT_INTERRUPTED)


def _stderr() -> Any:
    from .render import stderr_console

    return stderr_console()


def _standing(matches: list[Any], tallies: list[Tally]) -> str:
    """Beside the progress bar: the pairing being played and its score."""
    for spec, tally in zip(matches, tallies, strict=True):
        if not pairing_done(spec, tally):
            return f"{safe(spec.names[0])} v {safe(spec.names[1])}: {scoreline(tally)}"
    return ""
