"""Options shared by the commands, declared once."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..base.arguments import FLAGS, SEED_MAX, Spelling, seconds as checked_seconds, whole_number  # noqa: F401
from ..base.config import MAX_WORKERS
from ..base.errors import UsageError
from ..work.checks import check_dealer, check_seats, overrides_from, random_seed, utf8_text  # noqa: F401
from ..work.names import bot_names, default_name, split_bots  # noqa: F401  (imported from here by the commands)
from . import complete
from .clicks import IntRange
from .render import OutputFormat, RowsFormat


class WholeNumber(IntRange):
    """An option that takes a whole number, from ``low`` (to ``high``): every
    integer option of every command, on the command line and in config.toml,
    refused in the same words as the Python API's arguments
    (:func:`gincli.base.arguments.whole_number`): ``'x' is not a whole number``,
    ``0 must be at least 1``, ``-1 is not between 0 and 18446744073709551615``
    (after click's ``invalid value for '--seed':``). A number in config.toml
    must be an integer there (``1.5`` and ``true`` are refused, not rounded)."""

    name = "whole number"

    def __init__(self, low: int, high: int | None = None):
        super().__init__(min=low, max=high)
        self.low, self.high = low, high  # click types min and max as floats

    def convert(self, value: Any, param: Any, ctx: Any) -> Any:
        try:
            return whole_number(value, self.low, self.high, text=True)
        except ValueError as exc:
            self.fail(str(exc), param, ctx)


def whole_numbers(low: int, high: int | None = None) -> WholeNumber:
    """The type of an integer option: whole numbers from ``low`` (to ``high``)."""
    return WholeNumber(low, high)


QUIET_HELP = "Only errors and warnings on stderr: no progress bar, no summary, no closing line."

VariantOpt = Annotated[str | None, typer.Option(
    "--variant", metavar="NAME|FILE.toml", autocompletion=complete.variants,
    show_default="standard",
    help="Variant of play for records that do not name one.")]
ScoringOpt = Annotated[str, typer.Option("--scoring", "-s", metavar="NAME", autocompletion=complete.scoring_systems,
                                         help="Scoring system whose options apply.")]
OptionOpt = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="KEY=VALUE", autocompletion=complete.options,
    help="Set a rule option, e.g. big_gin_bonus=31; repeatable.")]
FormatOpt = Annotated[OutputFormat, typer.Option("--format", "-f", help="text for people, json for programs.")]
RowsFormatOpt = Annotated[RowsFormat, typer.Option(
    "--format", "-f", help="text for people, json for programs, csv for a spreadsheet (a row each, RFC 4180).")]
InputFormatOpt = Annotated[str | None, typer.Option(
    "--input-format", metavar="json|jsonl|toml", show_default="sniffed", help="Container of standard input.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)]
def _workers_option(what: str) -> Any:
    """``--workers N`` for a command that works on large inputs in chunks: ``what`` N is."""
    return typer.Option("--workers", "-j", click_type=whole_numbers(1, MAX_WORKERS), metavar="N",
                        show_default="all cores", help=f"{what}, for large inputs (at most the cores).")


WorkersOpt = Annotated[int | None, _workers_option("Worker processes")]
ScoreWorkersOpt = Annotated[int | None, _workers_option("Processes that score: gin's own and N - 1 workers")]


def workers_for(asked: int | None) -> int:
    """The worker processes a run on this machine uses: those asked, but no
    more than the cores this process may use (all of them when none are asked)."""
    from ..base.pool import default_workers

    cores = default_workers()
    return cores if asked is None else max(1, min(asked, cores))


SEED_HELP = "The seed: the same seed plays the same deals."
SeedOpt = Annotated[int | None, typer.Option("--seed", click_type=whole_numbers(0, SEED_MAX), metavar="N",
                                             help=SEED_HELP, show_default="random, printed")]

# External bots (gin match, gin play, gin bots).
def seconds(value: Any) -> float:
    """A time limit (``--time-limit``, ``--start-time-limit``, and the same keys
    of config.toml): a number of seconds from 0.01 to 86,400 (a day:
    :func:`gincli.base.arguments.seconds`); NaN and infinity are refused."""
    try:
        return checked_seconds(value, text=True)
    except ValueError as exc:
        raise typer.BadParameter(str(exc)) from None


TimeLimitOpt = Annotated[float, typer.Option("--time-limit", parser=seconds, metavar="SECONDS",
                                             help="Per decision, for external bots and the bots of third-party "
                                                  "plugins (0.01 to 86400).")]
StartTimeLimitOpt = Annotated[float, typer.Option(
    "--start-time-limit", parser=seconds, metavar="SECONDS",
    help="For an external bot to start and answer its handshake (0.01 to 86400).")]
BotsFileOpt = Annotated[str | None, typer.Option(
    "--bots-file", metavar="FILE", help="Named external bots (TOML); also bots.toml in the config folder.")]
BotLogOpt = Annotated[str | None, typer.Option(
    "--bot-log", metavar="DIR",
    help="Keep each external bot's standard error in DIR: a file per seat and process, each line marked with its "
         "session and hand.")]
BotTraceOpt = Annotated[str | None, typer.Option(
    "--bot-trace", metavar="DIR",
    help="Keep every line sent to each external bot and every line it answered in DIR, timestamped, with the "
         "session and hand.")]


MaxForfeitsOpt = Annotated[int, typer.Option(
    "--max-forfeits", click_type=whole_numbers(0), metavar="N",
    help="Stop the match (exit 2) once a bot forfeits N hands in a row, quoting the last reasons; 0: never.")]


def files_given(files: list[str] | None, command: str, what: str) -> list[str]:
    """The FILE... arguments of ``command``; none is one sentence saying what
    is missing and how to give it (exit 2), not the whole help."""
    if not files:
        raise UsageError(f"gin {command} needs {what} to read: give one or more files, or - for standard input "
                         f"(gin {command} --help says more)")
    return files


def from_config(ctx: typer.Context, name: str) -> bool:
    """Whether the value of the option ``name`` came from config.toml (click's
    default map), so that the command line's choice of another may override it."""
    source = ctx.get_parameter_source(name)
    return source is not None and source.name == "DEFAULT_MAP"


# Matches (gin match, gin tournament): declared once.
HandsOpt = Annotated[int | None, typer.Option("--hands", click_type=whole_numbers(1), metavar="N",
                                              help="Play N hands, each settled alone (scoring hand).")]
GamesOpt = Annotated[int | None, typer.Option("--games", click_type=whole_numbers(1), metavar="N",
                                              help="Play N sessions of the scoring system.")]
MatchWorkersOpt = Annotated[int | None, typer.Option(
    "--workers", "-j", click_type=whole_numbers(1, MAX_WORKERS), metavar="W", show_default="all cores",
    help="Worker processes, at most the cores (on a cluster: CPUs used at most).")]
BackendOpt = Annotated[str, typer.Option(
    "--backend", metavar="NAME", autocompletion=complete.backends,
    help="Where the sessions run: local (worker processes here), or a backend a plugin adds, such as ray "
         "(gin plugins lists them).")]
AddressOpt = Annotated[str | None, typer.Option(
    "--address", metavar="ADDR", show_default="RAY_ADDRESS, else a local instance",
    help="The cluster a backend such as ray connects to (HOST:PORT of its head, or auto).")]
BackendOptionOpt = Annotated[list[str] | None, typer.Option(
    "--backend-option", metavar="KEY=VALUE",
    help="An option of the backend (repeatable): ray takes max_retries=N, working_dir=DIR.")]
MatchVariantOpt = Annotated[str, typer.Option("--variant", metavar="NAME|FILE.toml", autocompletion=complete.variants,
                                              help="Variant of play.")]
MatchScoringOpt = Annotated[str | None, typer.Option("--scoring", "-s", metavar="NAME",
                                                     autocompletion=complete.scoring_systems,
                                                     show_default="game", help="Scoring system of --games.")]
DuplicateOpt = Annotated[bool, typer.Option("--duplicate", help="Play every deal twice, seats swapped.")]
SprtOpt = Annotated[str | None, typer.Option(
    "--sprt", metavar="ELO0,ELO1[,ALPHA,BETA]",
    help="Stop once the SPRT accepts H0 (elo0) or H1 (elo1); alpha and beta 0.05 unless given.")]
PlayersOpt = Annotated[str | None, typer.Option("--players", "--names", metavar="A,B[,C,D]",
                                                show_default="the bots' names",
                                                help="The players' names, one for each bot.")]
ReportOpt = Annotated[str | None, typer.Option(
    "--report", metavar="FILE.html",
    help="Also draw it as an HTML page that opens offline (needs gincli[report]).")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Replace the --report page if it exists.")]
MaxHandsOpt = Annotated[int, typer.Option("--max-hands", click_type=whole_numbers(1), metavar="N",
                                          help="Stop a session still unsettled after N hands (it is reported).")]
