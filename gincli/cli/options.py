"""Options shared by the commands, declared once."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from ..errors import UsageError
from ..rules import parse_assignments
from .render import OutputFormat

QUIET_HELP = "Only errors on stderr: no progress bar, no summary line."

VariantOpt = Annotated[str | None, typer.Option(
    "--variant", metavar="NAME|FILE.toml",
    show_default="standard",
    help="Variant of play for records that do not name one.")]
ScoringOpt = Annotated[str, typer.Option("--scoring", "-s", metavar="NAME",
                                         help="Scoring system whose options apply.")]
OptionOpt = Annotated[list[str] | None, typer.Option(
    "--option", "-o", metavar="KEY=VALUE", help="Set a rule option, e.g. big_gin_bonus=31; repeatable.")]
FormatOpt = Annotated[OutputFormat, typer.Option("--format", "-f", help="text for people, json for programs.")]
InputFormatOpt = Annotated[str | None, typer.Option(
    "--input-format", metavar="json|jsonl|toml", show_default="sniffed", help="Container of standard input.")]
QuietOpt = Annotated[bool, typer.Option("--quiet", "-q", help=QUIET_HELP)]
WorkersOpt = Annotated[int | None, typer.Option(
    "--workers", "-j", min=1, metavar="N",
    show_default="all cores", help="Worker processes, for large inputs.")]


SEED_HELP = "The seed: the same seed plays the same deals."
SeedOpt = Annotated[int | None, typer.Option("--seed", metavar="N", help=SEED_HELP, show_default="random, printed")]

# External bots (gin match, gin play, gin bots).
TimeLimitOpt = Annotated[float, typer.Option("--time-limit", min=0.01, metavar="SECONDS",
                                             help="Per decision, for external bots.")]
StartTimeLimitOpt = Annotated[float, typer.Option(
    "--start-time-limit", min=0.01, metavar="SECONDS", help="For an external bot to start and answer its handshake.")]
BotsFileOpt = Annotated[str | None, typer.Option(
    "--bots-file", metavar="FILE", help="Named external bots (TOML); also bots.toml in the config folder.")]
BotLogOpt = Annotated[str | None, typer.Option(
    "--bot-log", metavar="DIR", help="Keep each external bot's standard error in DIR.")]


def random_seed() -> int:
    """A seed for a run given none (printed, so that the run can be repeated)."""
    import os

    return int.from_bytes(os.urandom(8), "big") >> 1


def overrides_from(option: list[str] | None) -> dict[str, Any]:
    """The ``--option key=value`` settings; a malformed one is a usage error."""
    try:
        return parse_assignments(option or [])
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def bot_names(specs: list[str], reserved: tuple[str, ...] = ()) -> list[str]:
    """Names for players given by their bots (``--bots``): the bot's name without
    its parameters (``external`` for an ``exec:`` program), numbered where two
    would share one or a name is taken."""
    base = ["external" if spec.startswith("exec:") else spec.partition(":")[0] for spec in specs]
    out = []
    for i, b in enumerate(base):
        if base.count(b) > 1 or b in reserved:
            n = base[:i].count(b) + 1
            while f"{b}-{n}" in reserved:
                n += 1
            out.append(f"{b}-{n}")
        else:
            out.append(b)
    return out


def split_bots(text: str) -> list[str]:
    """The bots of ``--bots``: separated by commas, but for commas inside quotes
    (``exec:python3 -c "print('a', 'b')"``); a bots file names any command."""
    parts, current, quote_char = [], [], ""
    for ch in text:
        if quote_char:
            if ch == quote_char:
                quote_char = ""
        elif ch in "'\"":
            quote_char = ch
        elif ch == ",":
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(ch)
    parts.append("".join(current).strip())
    return parts
