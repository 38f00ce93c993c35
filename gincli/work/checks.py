"""Checks and small choices the work of the commands shares, whichever face
asks (the command line names its flags, the Python API its arguments, through
a :class:`~gincli.base.arguments.Spelling`): how many players a scoring system
seats, the dealer, names as UTF-8 text, a fresh seed, ``key=value`` options."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..base.arguments import FLAGS, Spelling
from ..base.errors import UsageError, quote
from ..rulebook.rules import parse_assignments


def check_seats(system: Any, given: int, option: str, what: str, others: int = 0) -> None:
    """That the scoring system seats ``given`` (the players ``option`` named, plus
    ``others`` of the command's own: you, in gin play): :class:`UsageError` in one
    sentence saying how many ``what`` to give (gin deal, play, match)."""
    if given + others in system.players:
        return
    takes = " or ".join(str(n) for n in system.players)
    wanted = " or ".join(str(n - others) for n in system.players)
    plural_what = what if wanted != "1" else what.rstrip("s")
    raise UsageError(f"the scoring system {system.name} takes {takes} players, so {option} needs {wanted} "
                     f"{plural_what}, not {given}")


def check_dealer(dealer: str | None, players: Sequence[str], say: Spelling = FLAGS) -> None:
    """``--dealer``: one of two players (with more, they cut for the seats); :class:`UsageError` when not."""
    if dealer is None:
        return
    if len(players) != 2:
        raise UsageError(f"{say('dealer')} is for two players; with more, the players cut for the seats",
                         parameters=("dealer",))
    if dealer not in players:
        raise UsageError(f"{say('dealer')} {quote(dealer)} is not one of the players {players[0]} and {players[1]}",
                         parameters=("dealer",))


def utf8_text(value: str, option: str) -> str:
    """A name given on the command line, which transcripts and screens show:
    :class:`UsageError` when its bytes are not UTF-8 text (the shell passed
    them as they are, and no file format can hold them)."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        raise UsageError(f"{option} is not valid UTF-8 text (check the terminal's or the script's encoding)") \
            from None
    return value


def random_seed() -> int:
    """A seed for a run given none (printed, so that the run can be repeated)."""
    import os

    return int.from_bytes(os.urandom(8), "big") >> 1


def overrides_from(option: list[str] | None, say: Spelling = FLAGS) -> dict[str, Any]:
    """The ``--option key=value`` settings; a malformed one is a usage error."""
    try:
        return parse_assignments(option or [], say("options"))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
