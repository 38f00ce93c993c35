"""The bot protocol, ``gincli-bot/2`` (docs/bot-protocol.md), and the bot that
speaks it.

Every request gincli sends carries an ``id``; the reply must echo it. A program
starts with a handshake: ``hello`` (its seat, the players, the rules, a seed,
its parameters), answered by ``ready`` (its name and version) within its own
start-up limit, so starting never eats a decision's time. Then a ``decide``
for each decision, answered within the decision's limit by one JSON object on
one line. Blank lines are passed over; a reply with an earlier request's id is
stale and discarded (counted); anything else (a line that is not JSON, not an
object, no id, an id never sent) is a protocol error. Every failure (a
protocol error, an illegal move, a crash, a hang) costs the hand it happened
in: the seat forfeits it and the program is started again, with a new
handshake, for the next.
A program that cannot start, or dies before it answers anything, several times
in a row stops the match with the last lines of its standard error.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TypeGuard

from ...base.errors import UsageError, clip, quote
from ...base.jsonio import loads
from ...hand.bots import Bot, BotError, StoppedByBot, TimeOut
from ...hand.moves import IllegalMove, Move
from ...hand.view import PlayerView
from ...rulebook.cards import CARD_NAMES, cards_of
from ...rulebook.rng import SplitMix64
from .process import Program, program_for

PROTOCOL = "gincli-bot/2"
DEFAULT_TIME_LIMIT = 5.0
DEFAULT_START_TIME_LIMIT = 30.0
#: Starts in a row that fail (no ``ready``, or death before any answer) before the match stops.
START_FAILURES = 3


#: The names of a suit's cards held, by suit and the suit's 13 bits of a mask (filled as met).
_SUIT_NAMES: tuple[dict[int, list[str]], ...] = ({}, {}, {}, {})


def mask_names(mask: int) -> list[str]:
    """The names of the cards of a mask, in deck order (as ``cards_of``), a suit at a time."""
    out: list[str] = []
    for s in (0, 1, 2, 3):
        bits = (mask >> (13 * s)) & 0x1FFF
        if bits:
            table = _SUIT_NAMES[s]
            found = table.get(bits)
            if found is None:
                found = table[bits] = [CARD_NAMES[c] for c in cards_of(bits << (13 * s))]
            out += found
    return out


def view_to_json(view: PlayerView, options: bool = True) -> dict[str, Any]:
    """A view as the protocol sends it: cards by name. A ``decide`` leaves out
    ``options`` (``options=False``): they come once, in ``hello``."""
    names = CARD_NAMES
    out = {
        "me": view.me, "opponent": view.opponent, "dealer": view.dealer, "phase": view.phase,
        "hand": mask_names(view.hand), "upcard": names[view.upcard],
        "discard_pile": [names[c] for c in view.discard_pile], "stock_count": view.stock_count,
        "passes": list(view.passes), "my_took": [names[c] for c in view.my_took],
        "opponent_took": [names[c] for c in view.opponent_took],
        "my_discards": [names[c] for c in view.my_discards],
        "opponent_discards": [names[c] for c in view.opponent_discards],
        "taken": names[view.taken] if view.taken >= 0 else None, "must_draw_stock": view.must_draw_stock,
        "knock_limit": view.knock_limit, "big_gin": view.big_gin,
        "scores": view.scores, "hand_number": view.hand_number, "hand_index": view.hand_number,
        "extensions": view.extensions,
    }
    if options:
        out["options"] = dict(view.rules)
    return out


def legal_json(legal: list[Move]) -> list[dict[str, Any]]:
    """The legal moves as a reply writes them: without ``player`` (the seat's own)."""
    names = CARD_NAMES
    out = []
    for m in legal:
        if m.melds is None and m.cards is None and not m.fields:  # the common moves, built directly
            d: dict[str, Any] = {"action": m.action}
            if m.source is not None:
                d["from"] = m.source
            if m.card is not None:
                d["card"] = names[m.card]
        else:
            d = m.to_dict()
            del d["player"]
        out.append(d)
    return out


class BotStartFailure(StoppedByBot):
    """An external bot that cannot be made to play: the match stops (exit 2)."""


@dataclass(frozen=True)
class ExternalSpec:
    """How to run an external bot: ``exec:COMMAND``, or a named bot of a bots file."""

    argv: tuple[str, ...]
    label: str  # how messages name it: the exec: spec, or the bots file's name
    cwd: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    time_limit: float | None = None  # None: the command line's --time-limit
    start_time_limit: float | None = None  # None: --start-time-limit
    parameters: tuple[tuple[str, Any], ...] = ()
    description: str = ""
    source: str = ""

    @classmethod
    def from_command(cls, command: str) -> ExternalSpec:
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise UsageError(f"cannot read the command of exec:{command}: {exc}") from None
        if not argv:
            raise UsageError("exec: needs a command, for example exec:python3 examples/bot.py")
        return cls(tuple(argv), f"exec:{command}")


@dataclass
class Settings:
    """What the command line says of every external bot (a bots file may say
    otherwise for its own)."""

    time_limit: float = DEFAULT_TIME_LIMIT
    start_time_limit: float = DEFAULT_START_TIME_LIMIT
    log_dir: str | None = None
    trace_dir: str | None = None


def external_bot(spec: ExternalSpec, settings: Settings | None = None) -> type[Bot]:
    """A bot class for an external program."""
    config = settings or Settings()

    class ExternalBot(Bot):
        name = spec.label
        description = spec.description or f"an external program speaking the {PROTOCOL} protocol"
        external = spec
        options = config  # the command line's limits and bot log, set by gin match and gin play

        #: The session it plays, for people (``session 3``, ``pairing 2 session 3``): the bot log
        #: and the trace mark each line with it (gin match sets it).
        session_name = "session 1"

        def __init__(self, rng: SplitMix64, seat: str = ""):
            super().__init__(rng, seat)
            opts = type(self).options
            # A file for each seat and process (a worker's programs write their own).
            name = f"{_file_name(seat)}.{os.getpid()}"
            log = Path(opts.log_dir) / f"{name}.log" if opts.log_dir else None
            trace = Path(opts.trace_dir) / f"{name}.trace" if opts.trace_dir else None
            self.program = program_for((spec.label, spec.argv, seat, opts.log_dir, opts.trace_dir), lambda: Program(
                spec.argv, cwd=spec.cwd, env=dict(spec.env), log=log, label=spec.label, trace=trace))
            self.time_limit = spec.time_limit or opts.time_limit
            self.start_time_limit = spec.start_time_limit or opts.start_time_limit
            self.greeted = False
            self.identity: dict[str, Any] = self.program.identity
            self.stale = 0  # replies passed over in this session
            self.answered = False  # whether it answered a decision in this session
            self.start_failure: str | None = None  # why its last start failed, if it did
            self.failed_here = 0  # starts that failed in this session

        # -- the conversation ------------------------------------------------------------------

        def _request(self, message: dict[str, Any], limit: float) -> dict[str, Any]:
            """Send a request with a new id and return the reply that echoes it."""
            program = self.program
            program.request_id += 1
            rid = message["id"] = program.request_id  # each message is built for this request alone
            program.send(message)
            while True:
                try:
                    raw = program.line(limit, keep=message["type"] == "hello")
                except TimeOut as exc:
                    if message["type"] != "hello":
                        raise
                    hint = start_hint(exc, program.unread())  # asked before the kill: what it had read
                    program.kill()
                    raise TimeOut(exc.limit, "hello", hint, silent=exc.silent) from None
                if not raw.strip():
                    continue  # a blank line says nothing
                try:
                    reply = loads(raw.decode("utf-8"))  # no NaN, Infinity nor 1e400: a reply is plain JSON
                except (ValueError, RecursionError):
                    program.kill()
                    raise BotError(f"replied with a line that is not JSON: "
                                   f"{quote(raw.decode(errors='replace'))} (a reply is one JSON object on one "
                                   "line)") from None
                if not isinstance(reply, dict):
                    program.kill()
                    raise BotError(f"replied {quote(reply)}, not a JSON object")
                if "id" not in reply:
                    program.kill()
                    raise BotError(f"replied without the request's \"id\" ({rid}): {quote(reply)}")
                if reply["id"] != rid:
                    if not program.sent_earlier(reply["id"]):
                        program.note(f"the line above echoes the id {quote(reply['id'])}, which was never sent")
                        program.kill()
                        raise BotError(wrong_id(reply["id"], rid))
                    program.note(f"the line above answers the earlier request {reply['id']}: a stale reply, "
                                 "passed over")
                    program.stale += 1  # an extra or late reply: passed over
                    self.stale += 1
                    continue
                return reply

        def _start(self, view: PlayerView) -> None:
            """Start the program if it is not running, and greet it: ``hello``,
            answered by ``ready`` within the start-up limit."""
            program = self.program
            if not program.alive():
                program.start()
                self.greeted = False
            if self.greeted:
                return
            hello = {"type": "hello", "protocol": PROTOCOL, "seat": view.me, "opponent": view.opponent,
                     "players": list(self.players) or [view.me, view.opponent], "options": dict(view.rules),
                     # 53 bits: every JSON parser (JavaScript's, jq) reads it exactly
                     "seed": self.rng.next64() >> 11, "parameters": dict(spec.parameters)}
            inexact = inexact_integer(hello)
            if inexact:
                program.kill()
                raise BotStartFailure(f"cannot send the bot {spec.label} its hello: {inexact} is past 2**53 - 1, "
                                      "which JSON parsers such as JavaScript's read inexactly (give it as a string)")
            reply = self._request(hello, self.start_time_limit)
            if reply.get("type") != "ready":
                program.kill()
                raise BotError(f"answered hello with {quote(reply)}, not {{\"type\": \"ready\", ...}}")
            program.identity = self.identity = {"name": str(reply.get("name", ""))[:80],
                                                "version": str(reply.get("version", ""))[:40]}
            self.greeted = True

        def choose(self, view: PlayerView) -> Move:
            program = self.program
            program.context = f"{self.session_name} hand {view.hand_number + 1}"
            answered = False
            try:
                self._start(view)
                answered = True
                legal = view.legal()
                reply = self._request({"type": "decide", "view": view_to_json(view, options=False),
                                       "legal": legal_json(legal)}, self.time_limit)
            except BotError as exc:
                if not answered:
                    self._failed_start(exc)
                raise
            program.failed_starts = 0
            self.answered = True
            reply = {k: v for k, v in reply.items() if k != "id"}
            reply.setdefault("player", view.me)
            try:
                move = Move.from_dict(reply)
            except IllegalMove as exc:
                program.kill()
                raise BotError(f"replied with a move that cannot be read: {exc.message}") from None
            if move.player != view.me:
                program.kill()
                raise BotError(f"replied for {quote(move.player)}, not its own seat {quote(view.me)}")
            return move

        def _failed_start(self, exc: BotError) -> None:
            """A start that failed: the match stops after several in a row."""
            program = self.program
            program.failed_starts += 1
            self.failed_here += 1
            self.start_failure = exc.reason
            self.stderr = program.stderr_tail()
            if program.failed_starts >= START_FAILURES:
                program.kill()
                raise start_failure(spec.label, program.failed_starts, exc.reason, self.stderr)

        def hand_over(self, view: PlayerView, result: dict) -> None:
            self.program.context = f"{self.session_name} hand {view.hand_number + 1}"
            forfeit = result.get("forfeit")
            if forfeit and forfeit.get("player") == view.me:  # what the trace reads back: why the hand was lost
                self.program.note(f"{view.me} forfeits the hand: {forfeit.get('reason', '')}")
            if self.greeted and self.program.alive():
                try:
                    self.program.send({"type": "hand_over", "view": view_to_json(view), "result": result})
                except BotError:
                    pass

    return ExternalBot


def start_hint(exc: TimeOut, unread: int | None) -> str:
    """Why a program may not have answered its hello in time, from what it did:
    nothing read yet is a start slower than the limit; read but nothing
    written, a slow start or replies it does not flush (``gin bots check``
    waits to tell them apart; a match does not)."""
    if not exc.silent:
        return ""
    if unread:
        return " (it had not read it yet: if it starts slower than that, raise --start-time-limit)"
    said = "it read it but wrote nothing" if unread == 0 else "it wrote nothing since it started"
    return f" ({said}: still starting, or not flushing its output? gin bots check tells which)"


def wrong_id(echoed: Any, rid: int) -> str:
    """The reason of a reply whose id no request had (not a stale one: that id was never sent)."""
    if str(echoed) == str(rid):  # the id as a string, say
        return f"replied with the id {quote(echoed)}, not the number {rid} it was sent (echo the id as it came)"
    return f"replied with the id {quote(echoed)}, which was never sent (the request's id is {rid})"


#: The largest integer every JSON parser reads exactly (a double's 53 bits).
MAX_EXACT = 2**53 - 1


def inexact_integer(value: Any, where: str = "") -> str:
    """The first integer of a message past 53 bits (named by its path), or ``""``."""
    if isinstance(value, bool):
        return ""
    if isinstance(value, int):
        return f"{where or 'a value'} = {value}" if abs(value) > MAX_EXACT else ""
    if isinstance(value, dict):
        items: Any = value.items()
    elif isinstance(value, (list, tuple)):
        items = enumerate(value)
    else:
        return ""
    for key, item in items:
        found = inexact_integer(item, f"{where}.{key}" if where else str(key))
        if found:
            return found
    return ""


def start_failure(label: str, times: int, reason: str, stderr: list[str]) -> BotStartFailure:
    """The sentence that stops a match whose bot cannot start: why, and the last
    lines of its standard error."""
    return BotStartFailure(f"the bot {label} failed to start {times} times in a row (last: {reason})"
                           f"{stderr_quoted(stderr)}")


def stderr_quoted(stderr: list[str]) -> str:
    """The last lines of a bot's standard error, for a sentence that stops a
    match: each line once, where it was last written (a line each start wrote
    again), cut to 200 characters."""
    lines: list[str] = []
    for line in reversed(stderr):
        line = clip(line, 200)
        if line not in lines:
            lines.insert(0, line)
    return ("; its standard error ends: " + " | ".join(lines) if lines
            else "; it wrote nothing on its standard error")


def _file_name(seat: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in seat)[:60] or "bot"


class ExternalFactory(Protocol):
    """What gincli reads and sets of an external program's bot class (:func:`external_bot`'s)."""

    external: ExternalSpec
    options: Settings

    def __call__(self, rng: SplitMix64, seat: str = "") -> Bot: ...


def is_external(factory: object) -> TypeGuard[ExternalFactory]:
    """Whether a bot factory runs an external program (:class:`ExternalFactory`)."""
    return isinstance(getattr(factory, "external", None), ExternalSpec)


class Speaking(Protocol):
    """What gincli reads and sets of an external bot (a bot of :func:`external_bot`'s class)."""

    name: str
    session_name: str
    program: Program
    identity: dict[str, Any]
    stale: int
    answered: bool
    start_failure: str | None
    failed_here: int
    stderr: list[str]


def speaks(bot: Bot) -> TypeGuard[Speaking]:
    """Whether ``bot`` is an external program's (:class:`Speaking`)."""
    return is_external(type(bot))


def configure(factory: Any, time_limit: float, start_time_limit: float, log_dir: str | None,
              trace_dir: str | None = None) -> None:
    """Give an external bot class the command line's limits, bot log and trace."""
    if is_external(factory):
        factory.options = Settings(time_limit, start_time_limit, log_dir, trace_dir)


def identities(bots: Mapping[str, Bot]) -> dict[str, dict[str, Any]]:
    """What each external bot of a session said of itself in its handshake (name,
    version), and how many stale replies it sent, by seat."""
    out = {}
    for seat, b in bots.items():
        if speaks(b):
            # Starts that failed in a row at the session's end (since its last answer, or all of this session's).
            trailing = b.program.failed_starts if b.answered else b.failed_here
            out[seat] = {**b.identity, "stale_replies": b.stale, "label": b.name, "answered": b.answered,
                         "failed_starts": trailing}
            if trailing and b.start_failure:  # gin match counts these, across sessions
                out[seat].update(failed_start=b.start_failure, stderr=b.stderr)
    return out
