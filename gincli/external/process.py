"""A bot's process: started in its own process group (killed whole, so a bot
that forks or a wrapper that does not ``exec`` leaves nothing behind), dying
with the process that runs it, its output read line by line within a time
limit (end of output is a crash at once), its standard error kept (in a file
of ``--bot-log DIR``, else a temporary file) to quote when it fails.
"""

from __future__ import annotations

import collections
import json
import os
import selectors
import signal
import subprocess
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from ..bots import BotError
from ..parallel import die_with_parent, prctl

#: The longest reply line a bot may send.
MAX_REPLY = 1 << 20
#: How long a bot has to exit after ``bye`` (then it is killed).
EXIT_GRACE = 2.0


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
    """One running bot program, reused across sessions; started again (with a new
    handshake) after it died, hung or broke the protocol.

    ``argv`` is the command; ``cwd`` and ``env`` (added to gincli's own
    environment) where and how it runs; ``log`` the file its standard error goes
    to (appended), else a temporary file.
    """

    def __init__(self, argv: Sequence[str], *, cwd: str | None = None, env: Mapping[str, str] | None = None,
                 log: Path | None = None, label: str = ""):
        self.argv = list(argv)
        self.label = label or " ".join(self.argv)
        self.cwd = cwd
        self.env = dict(env or {})
        self.log = log
        self.proc: subprocess.Popen[bytes] | None = None
        self.buffer = LineBuffer()
        self.stderr: IO[bytes] | None = None
        self.selector: selectors.BaseSelector | None = None
        self.wrote = False  # whether it wrote anything on its output since it started
        self.starts = 0
        # What the protocol keeps of the program across sessions:
        self.request_id = 0  # the id of the last request
        self.stale = 0  # replies passed over: they echoed an earlier request's id
        self.failed_starts = 0  # starts in a row that did not reach a first answer
        self.identity: dict[str, Any] = {}  # the name and version its handshake gave

    def start(self) -> None:
        self.kill()
        parent = os.getpid()
        prctl()  # looked up here: the child may not allocate between fork and exec
        if self.stderr is None:
            if self.log is not None:
                self.log.parent.mkdir(parents=True, exist_ok=True)
                self.stderr = open(self.log, "ab")
            else:
                self.stderr = tempfile.TemporaryFile()
        env = {**os.environ, **self.env} if self.env else None
        try:
            # Its own process group, killed whole (a bot that forks); SIGKILL when we die.
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=self.stderr, cwd=self.cwd, env=env, start_new_session=True,
                                         preexec_fn=lambda: die_with_parent(signal.SIGKILL, parent))
        except OSError as exc:
            raise BotError(f"could not start `{self.label}`: {exc.strerror or exc}") from None
        self.buffer = LineBuffer()
        self.wrote = False
        self.starts += 1
        self.selector = None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def send(self, message: Mapping[str, Any]) -> None:
        """Write one message, one line; :class:`BotError` when the program is gone."""
        if self.proc is None or self.proc.stdin is None:
            raise BotError("is not running")
        try:
            # ASCII escapes: valid UTF-8 whatever the names hold, and json's fastest path
            self.proc.stdin.write(json.dumps(message).encode() + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            code = self.proc.poll()
            self.kill()
            raise BotError(f"exited (status {code})" if code is not None else "closed its input") from None

    def line(self, limit: float) -> bytes:
        """The next line the program writes, within ``limit`` seconds; the end of
        its output is a crash at once (it is killed)."""
        assert self.proc is not None and self.proc.stdout is not None
        line = self.buffer.line()
        if line is not None:
            return line
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + limit
        if self.selector is None:  # one for the life of the process: a decision is a few dozen microseconds
            self.selector = selectors.DefaultSelector()
            self.selector.register(fd, selectors.EVENT_READ)
        while line is None:
            left = deadline - time.monotonic()
            if left <= 0 or not self.selector.select(left):
                silent = not self.wrote
                self.kill()
                hint = (" (it wrote nothing at all since it started: does it flush its output after each "
                        "line?)" if silent else "")
                raise BotError(f"did not answer within {limit:g} s{hint}")
            chunk = os.read(fd, 65536)
            if not chunk:
                code = self.exit_status()
                self.kill()
                raise BotError("closed its output" + (f" and exited (status {code})" if code is not None
                                                      else " (still running: killed)"))
            self.wrote = True
            try:
                line = self.buffer.feed(chunk)
            except ValueError as exc:
                self.kill()
                raise BotError(str(exc)) from None
        return line

    def exit_status(self, wait: float = 0.2) -> int | None:
        """Its exit status, waiting a little for it to exit; None if it runs on."""
        assert self.proc is not None
        try:
            return self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def stderr_tail(self, lines: int = 5, size: int = 4096) -> list[str]:
        """The last lines the program wrote on its standard error."""
        if self.stderr is None:
            return []
        try:
            self.stderr.flush()
            end = self.stderr.seek(0, os.SEEK_END)
            self.stderr.seek(max(0, end - size))
            text = self.stderr.read().decode(errors="replace")
        except (OSError, ValueError):
            return []
        return [line.rstrip() for line in text.splitlines() if line.strip()][-lines:]

    def kill(self) -> None:
        """Kill the program and whatever it started (its process group); every
        wait has a limit."""
        if self.selector is not None:
            self.selector.close()
            self.selector = None
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

    def close(self, grace: float = EXIT_GRACE) -> None:
        """Say bye and give the program ``grace`` seconds to exit; then kill its
        process group (what it started too)."""
        if grace > 0 and self.alive():
            try:
                self.send({"type": "bye"})
                assert self.proc is not None
                self.proc.wait(timeout=grace)
            except (BotError, subprocess.TimeoutExpired):
                pass
        self.kill()
        if self.stderr is not None:
            try:
                self.stderr.close()
            except OSError:
                pass
            self.stderr = None


#: Running programs of this process, by (command, seat).
_programs: dict[tuple[Any, ...], Program] = {}


def program_for(key: tuple[Any, ...], make: Any) -> Program:
    """The program of a seat (``key``), made by ``make()`` the first time."""
    program = _programs.get(key)
    if program is None:
        program = _programs[key] = make()
    return program


def close_all(grace: float = EXIT_GRACE) -> None:
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
