"""External bots: a program in any language, speaking JSON lines over its
standard input and output (docs/bot-protocol.md).

gincli starts the program once per seat (and worker process) and keeps it for
the whole match: for each decision it writes one ``decide`` line and waits, at
most the time limit, for one reply line holding a move. An illegal reply, a
crash or a hang raises :class:`~gincli.bots.BotError`, so the seat forfeits
the hand; a program that died or hung is started again for the next hand.
"""

from __future__ import annotations

import collections
import json
import os
import selectors
import shlex
import signal
import subprocess
import time
from typing import Any

from .bots import Bot, BotError
from .cards import CARD_NAMES, cards_of
from .errors import quote
from .formats.jsonio import dumps
from .moves import IllegalMove, Move
from .parallel import die_with_parent, prctl
from .rng import SplitMix64
from .view import PlayerView

PROTOCOL = "gincli-bot/1"
DEFAULT_TIME_LIMIT = 5.0


def view_to_json(view: PlayerView) -> dict[str, Any]:
    """A view as the protocol sends it: cards by name."""
    names = CARD_NAMES
    return {
        "me": view.me, "opponent": view.opponent, "dealer": view.dealer, "phase": view.phase,
        "hand": [names[c] for c in cards_of(view.hand)], "upcard": names[view.upcard],
        "discard_pile": [names[c] for c in view.discard_pile], "stock_count": view.stock_count,
        "passes": list(view.passes), "my_took": [names[c] for c in view.my_took],
        "opponent_took": [names[c] for c in view.opponent_took],
        "my_discards": [names[c] for c in view.my_discards],
        "opponent_discards": [names[c] for c in view.opponent_discards],
        "taken": names[view.taken] if view.taken >= 0 else None, "must_draw_stock": view.must_draw_stock,
        "knock_limit": view.knock_limit, "big_gin": view.big_gin, "options": dict(view.rules),
        "scores": view.scores, "hand_number": view.hand_number, "extensions": view.extensions,
    }


#: The longest reply line a bot may send.
MAX_REPLY = 1 << 20


class LineBuffer:
    """Bytes read from a bot, cut into lines in linear time: each byte is
    scanned for a newline once (``scanned`` counts them) and copied once into
    its line; a line longer than ``limit`` is refused."""

    def __init__(self, limit: int = MAX_REPLY):
        self.limit = limit
        self.parts: list[bytes] = []  # the start of the current line
        self.size = 0
        self.lines: collections.deque[bytes] = collections.deque()  # whole lines not yet taken
        self.scanned = 0

    def feed(self, chunk: bytes) -> bytes | None:
        """Take a chunk; return the next whole line (without its newline), if any.
        ``ValueError`` when a line grows past the limit."""
        self.scanned += len(chunk)
        start = 0
        end = chunk.find(b"\n")
        while end >= 0:
            self._grow(chunk[start:end])
            self.lines.append(b"".join(self.parts))
            self.parts, self.size = [], 0
            start = end + 1
            end = chunk.find(b"\n", start)
        if start < len(chunk):
            self._grow(chunk[start:])
        return self.line()

    def _grow(self, piece: bytes) -> None:
        self.size += len(piece)
        if self.size > self.limit:
            raise ValueError(f"replied with more than {self.limit // (1 << 20)} MiB without a newline")
        self.parts.append(piece)

    def line(self) -> bytes | None:
        """The next whole line read, if any."""
        return self.lines.popleft() if self.lines else None


class Program:
    """One running bot program, reused across sessions; restarted after it dies."""

    def __init__(self, command: str, time_limit: float):
        self.command = command
        self.argv = shlex.split(command)
        self.time_limit = time_limit
        self.proc: subprocess.Popen[bytes] | None = None
        self.buffer = LineBuffer()

    def start(self) -> None:
        parent = os.getpid()
        prctl()  # looked up here: the child may not allocate between fork and exec
        try:
            # Its own process group, killed whole (a bot that forks); SIGKILL when we die.
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=None if os.environ.get("GINCLI_DEBUG") else subprocess.DEVNULL,
                                         start_new_session=True,
                                         preexec_fn=lambda: die_with_parent(signal.SIGKILL, parent))
        except OSError as exc:
            raise BotError(f"could not start `{self.command}`: {exc.strerror or exc}") from None
        self.buffer = LineBuffer()

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def send(self, message: dict[str, Any]) -> None:
        if not self.alive():
            self.restart()
        assert self.proc is not None and self.proc.stdin is not None
        try:
            self.proc.stdin.write(dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            code = self.proc.poll()
            self.kill()
            raise BotError(f"exited (status {code})" if code is not None else "closed its input") from None

    def receive(self) -> Any:
        """One reply line, within the time limit."""
        assert self.proc is not None and self.proc.stdout is not None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + self.time_limit
        line = self.buffer.line()
        with selectors.DefaultSelector() as sel:
            sel.register(fd, selectors.EVENT_READ)
            while line is None:
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(left):
                    self.kill()
                    raise BotError(f"did not answer within {self.time_limit:g} s")
                chunk = os.read(fd, 65536)
                if not chunk:
                    code = self.proc.wait()
                    self.kill()
                    raise BotError(f"exited (status {code})")
                try:
                    line = self.buffer.feed(chunk)
                except ValueError as exc:
                    self.kill()
                    raise BotError(str(exc)) from None
        try:
            return json.loads(line)
        except (ValueError, RecursionError):
            raise BotError(f"replied with something that is not JSON: {quote(line.decode(errors='replace'))}") from None

    def restart(self) -> None:
        self.kill()
        self.start()

    def kill(self) -> None:
        """Kill the program and whatever it started (its process group)."""
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                pass
            try:
                self.proc.wait(timeout=5)
            except (OSError, subprocess.TimeoutExpired):
                pass
            for stream in (self.proc.stdin, self.proc.stdout):
                try:
                    if stream:
                        stream.close()
                except OSError:
                    pass
        self.proc = None

    def close(self, grace: float = 2.0) -> None:
        """Say bye and give the program ``grace`` seconds to exit; then kill it."""
        if grace > 0 and self.alive():
            try:
                self.send({"type": "bye"})
                assert self.proc is not None
                self.proc.wait(timeout=grace)
            except (BotError, subprocess.TimeoutExpired):
                pass
        self.kill()


#: Running programs of this process, by (command, seat).
_programs: dict[tuple[str, str], Program] = {}


def close_all(grace: float = 2.0) -> None:
    """Close every program this process runs; ``grace=0`` (a worker ending
    from a signal handler) only kills their process groups, taking no lock."""
    for program in list(_programs.values()):
        if grace > 0:
            program.close(grace)
        elif program.proc is not None:
            try:
                os.killpg(program.proc.pid, signal.SIGKILL)
            except OSError:
                pass
    _programs.clear()


def external_bot(command: str) -> type[Bot]:
    """A bot class for ``exec:COMMAND``."""

    class ExternalBot(Bot):
        name = f"exec:{command}"
        description = "an external program speaking the gincli-bot/1 protocol"
        time_limit = DEFAULT_TIME_LIMIT

        def __init__(self, rng: SplitMix64, seat: str = ""):
            super().__init__(rng, seat)
            key = (command, seat)
            program = _programs.get(key)
            if program is None:
                program = _programs[key] = Program(command, self.time_limit)
            program.time_limit = self.time_limit
            self.program = program
            self.greeted = False

        def choose(self, view: PlayerView) -> Move:
            program = self.program
            if not program.alive():
                program.restart()
                self.greeted = False
            if not self.greeted:
                program.send({"type": "hello", "protocol": PROTOCOL, "seat": view.me, "opponent": view.opponent,
                              "players": list(self.players) or [view.me, view.opponent],
                              "options": dict(view.rules), "seed": self.rng.next64()})
                self.greeted = True
            legal = view.legal()
            program.send({"type": "decide", "view": view_to_json(view), "legal": [m.to_dict() for m in legal]})
            reply = program.receive()
            if not isinstance(reply, dict):
                raise BotError(f"replied {quote(reply)}, not a move object")
            reply.setdefault("player", view.me)
            try:
                move = Move.from_dict(reply)
            except IllegalMove as exc:
                raise BotError(f"replied with a move that cannot be read: {exc.message}") from None
            if move.player != view.me:
                raise BotError(f"replied for {quote(move.player)}, not its own seat {quote(view.me)}")
            return move

        def hand_over(self, view: PlayerView, result: dict) -> None:
            if self.program.alive():
                try:
                    self.program.send({"type": "hand_over", "view": view_to_json(view), "result": result})
                except BotError:
                    pass

    return ExternalBot
