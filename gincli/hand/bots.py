"""Bots: players that decide from a :class:`~gincli.hand.view.PlayerView` alone.

A bot is a subclass of :class:`Bot` registered through the
``gincli_register_bots`` hook (the built-in ``random``, ``simple`` and
``expert`` are registered that way), or an external program named
``exec:COMMAND`` that speaks the JSON-lines protocol of docs/bot-protocol.md.
gincli makes one bot object per seat and session, with its own seeded
generator, so a match is reproducible by seed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..base.errors import UsageError, shorten
from ..rulebook.rng import SplitMix64
from ..rulebook.rules import Option
from .moves import Move
from .view import PlayerView


class BotError(Exception):
    """A bot failed: an illegal reply, a crash, a hang. Its seat forfeits the hand."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class StoppedByBot(UsageError):
    """A bot stopped the run: it forfeited hand after hand, or cannot start
    (exit 2). ``summary``: what was played, where the face hands it on (the
    Python API's ``play_match`` and ``play_tournament``)."""

    summary: dict[str, Any] | None = None


#: How the reason of every time-out begins: the bot did not answer within its limit.
TIME_OUT = "did not answer"


class TimeOut(BotError):
    """A bot that did not answer ``what`` (a decision, a handshake) within
    ``limit`` seconds; ``silent``: it wrote nothing at all since it started."""

    def __init__(self, limit: float, what: str = "", hint: str = "", *, silent: bool = False):
        super().__init__(f"{TIME_OUT}{' ' + what if what else ''} within {limit:g} s{hint}")
        self.limit = limit
        self.silent = silent


def timed_out(reason: str) -> bool:
    """Whether a forfeit's reason is a time-out (:class:`TimeOut`)."""
    return reason.startswith(TIME_OUT + " ")


def failure(exc: BaseException) -> str:
    """What bot code did that raised ``exc``, for a forfeit's reason:
    ``called sys.exit(5)``, ``raised KeyError: 'x'``."""
    if isinstance(exc, SystemExit):
        return f"called sys.exit({exc.code!r})"
    return f"raised {type(exc).__name__}: {shorten(str(exc))}"


class Bot:
    """A player. Subclasses set ``name`` and ``description`` and implement
    :meth:`choose`; ``self.rng`` is a seeded :class:`~gincli.rulebook.rng.SplitMix64`
    (use it, not :mod:`random`, so matches replay by seed)."""

    name: str = ""
    description: str = ""
    #: The parameters the bot takes, as ``gincli.Option`` objects: ``gin match
    #: --bots master:samples=40`` sets one; ``gin bots`` lists them.
    parameters: tuple[Option, ...] = ()
    #: Their values for this bot (the defaults unless the bot's spec set some).
    params: Mapping[str, Any] = {}

    def __init__(self, rng: SplitMix64, seat: str = ""):
        self.rng = rng
        self.seat = seat
        #: The session's players, in the order they were named (set by gincli before
        #: the first move; with three or four players, the opponent changes from hand
        #: to hand: it is ``view.opponent``).
        self.players: tuple[str, ...] = ()

    def choose(self, view: PlayerView) -> Move:
        """The move to make: one of ``view.legal()`` (build it with
        ``view.pass_()``, ``view.take()``, ``view.draw_stock()``,
        ``view.discard(card)`` or ``view.knock(card)``)."""
        raise NotImplementedError

    def allowed(self, view: PlayerView, move: Move) -> Move:
        """``move``, when no move set in play forbids it (``view.allows``); else one
        of ``view.legal()``, drawn with ``self.rng``: for a bot that decides
        without ``legal()``, so that it never plays a move a move set takes out."""
        if view.allows(move):
            return move
        legal = view.legal()
        return legal[self.rng.below(len(legal))] if len(legal) > 1 else legal[0]

    def hand_over(self, view: PlayerView, result: dict) -> None:
        """Told at the end of each hand: the final public view and the hand's
        score result (FORMATS.md). Optional."""

    def close(self) -> None:
        """Release what the bot holds (a process, a file). Optional."""
