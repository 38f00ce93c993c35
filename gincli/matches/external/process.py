"""A bot's process: started in its own process group (killed whole, so a bot
that forks or a wrapper that does not ``exec`` leaves nothing behind), dying
with the process that runs it, its output read line by line within a time
limit (end of output is a crash at once), its standard error read through a
pipe that a thread drains all the time (a chatty bot never blocks, nothing
grows on disk): its last lines kept in memory, bounded, to quote when it
fails, and every line appended to a file of ``--bot-log DIR`` when asked for,
after a marker of the session and hand it came in (:attr:`Program.context`).
With ``--bot-trace DIR``, every line sent and every line read is written to a
file of its own, timestamped and marked the same way.

Either file that the system stops taking (a full disk, a quota, a file size
limit) stops the run: what was written of a line is taken back, so the file
ends with whole lines, and the next exchange with the bot (or the end of the
run, :func:`close_all`) raises :class:`BotLogError` naming the file. The
draining of standard error goes on meanwhile: a bot never blocks on it.
"""

from __future__ import annotations

import collections
import errno
import json
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import IO, Any

from ...base.errors import MachineError, os_reason
from ...base.jsonio import unsigned_zeros
from ...base.processes import die_with_parent, prctl
from ...hand.bots import BotError, TimeOut

#: The longest reply line a bot may send.
MAX_REPLY = 1 << 20
#: How long a bot has to exit after ``bye`` (then it is killed).
EXIT_GRACE = 2.0
#: What is kept in memory of a bot's standard error: its last non-blank lines,
#: each cut to its first ``TAIL_LINE`` bytes.
TAIL_LINES = 20
TAIL_LINE = 4096
#: Once its program is killed, at most this much more of a bot's standard error
#: is read (what it wrote before it died; a helper that outlived it may go on).
LAST_WORDS = 4 << 20


class BotLogError(MachineError):
    """A --bot-log or --bot-trace file cannot be written: the match stops (exit 2)."""


#: Held while lines are appended to a bot log or trace, and cut back if the system refuses them
#: (:func:`append_whole`): a worker ended by a signal (:func:`close_all` with ``grace=0``) waits
#: for it before it exits, so that no file is left ending in part of a line.
_appending = threading.Lock()
#: How long a worker that is ending waits for a line being appended.
APPEND_WAIT = 0.5  # seconds


def _new_lock() -> None:
    """A forked child's own :data:`_appending`: a thread of the parent may have held it."""
    global _appending
    _appending = threading.Lock()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_new_lock)


def append_whole(fd: int, data: bytes, keep: int) -> None:
    """Append every byte of ``data`` to the file open on ``fd`` (``O_APPEND``);
    when the system refuses (a full disk), the file is cut back to its last
    whole line (the first ``keep`` bytes, or the lines of ``data`` that were
    written whole before the refusal) and the ``OSError`` raised."""
    view = memoryview(data)
    done = 0
    with _appending:
        try:
            while view:
                written = os.write(fd, view)
                if not written:
                    raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
                view = view[written:]
                done += written
        except OSError:
            line_end = data.rfind(b"\n", 0, done)
            if line_end >= 0:
                keep = max(keep, _size(fd) - done + line_end + 1)
            try:
                os.ftruncate(fd, keep)
            except OSError:
                pass
            raise


def _size(fd: int) -> int:
    try:
        return os.lseek(fd, 0, os.SEEK_END)
    except OSError:
        return 0


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
        end = chunk.find(b"\n")
        if end == len(chunk) - 1 and not self.parts and not self.lines:  # the common case: one whole line
            if end > self.limit:
                raise ValueError(f"replied with more than {self.limit // (1 << 20)} MiB without a newline")
            return chunk[:end]
        start = 0
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


class StderrTail:
    """The last lines of a bot's standard error, bounded: at most
    :data:`TAIL_LINES` non-blank lines of at most :data:`TAIL_LINE` bytes, and
    the start of the line being written. Fed by one drain thread at a time, read
    by the program's own (each update is one atomic step under the GIL)."""

    def __init__(self) -> None:
        self.lines: collections.deque[bytes] = collections.deque(maxlen=TAIL_LINES)
        self.partial = b""  # the start of the current line, at most TAIL_LINE bytes

    def feed(self, chunk: bytes) -> None:
        """Take a chunk of the stream; only its last lines are looked at (each
        byte at most once), so a chatty bot costs little."""
        first = chunk.find(b"\n")
        if first < 0:
            self._grow(chunk)
            return
        self._grow(chunk[:first])
        self._end_line()
        last = chunk.rfind(b"\n")
        found: list[bytes] = []  # the last whole lines between the first and the last newline, last first
        end = last
        while end > first and len(found) < TAIL_LINES:
            start = chunk.rfind(b"\n", first, end)
            line = chunk[start + 1:end]
            if line.strip():
                found.append(line[:TAIL_LINE])
            end = start
        self.lines.extend(reversed(found))
        self.partial = chunk[last + 1:last + 1 + TAIL_LINE]

    def _grow(self, piece: bytes) -> None:
        room = TAIL_LINE - len(self.partial)
        if room > 0 and piece:
            self.partial += piece[:room]

    def _end_line(self) -> None:
        if self.partial.strip():
            self.lines.append(self.partial)
        self.partial = b""

    def tail(self, lines: int, size: int) -> list[str]:
        """The last ``lines`` non-blank lines, within their last ``size`` bytes
        (the first of them may be the end of a line)."""
        kept = list(self.lines)  # a copy in one step: the drain thread may append meanwhile
        partial = self.partial
        if partial.strip():
            kept.append(partial)
        out: list[str] = []
        left = size
        for raw in reversed(kept[-lines:] if lines > 0 else ()):
            if left <= 0:
                break
            raw = raw[-left:]
            left -= len(raw) + 1
            if raw.strip():
                out.append(raw.decode(errors="replace").rstrip())
        return out[::-1]


class _Drain:
    """One running program's standard error, read by a daemon thread until its
    end (every process holding it exited) or :meth:`stop`; each chunk goes to
    the tail and, whole, to the log file. The thread owns the pipe and the log
    file and closes them. :meth:`catch_up` reads, from the match's thread, what
    the pipe holds already, before the match moves on: each read and what is
    done with it, on either thread, holds :attr:`lock`, so that chunks are
    taken in order and a line is marked where the match was when it was
    written, not where it is when the thread gets to it."""

    def __init__(self, fd: int, tail: StderrTail, log: IO[bytes] | None,
                 marker: Callable[[], bytes] = lambda: b""):
        self.fd = fd
        self.tail = tail
        self.log = log
        self.marker = marker  # what each line of the log begins with: where the match is when it is read
        self.line_start = True  # whether the next byte of the log begins a line
        self.end = _size(log.fileno()) if log is not None else 0  # the log's size (this thread its one writer)
        self.whole = self.end  # its size up to its last whole line
        #: Why the log stopped taking what the program wrote (a full disk), for the program to raise.
        self.fault: OSError | None = None
        self.pid = os.getpid()  # a forked child holds copies of these, never their thread
        self.lock = threading.Lock()
        self.closed = False
        self.wake = self.waker = -1
        self.thread = threading.Thread(target=self._run, name="gincli-bot-stderr", daemon=True)
        try:
            self.wake, self.waker = os.pipe()  # written (and closed) by stop()
            self.thread.start()
        except BaseException:
            self._close()
            self._close_waker()
            raise

    def _run(self) -> None:
        try:
            poller = select.poll()
            poller.register(self.fd, select.POLLIN)
            poller.register(self.wake, select.POLLIN)
            while True:
                events = dict(poller.poll())
                if self.wake in events:  # the program was killed: what it wrote is in the pipe
                    with self.lock:
                        self._last_words()
                    break
                if events.get(self.fd):
                    with self.lock:
                        if not self._read_one(0):
                            break
        except OSError:
            pass
        finally:
            with self.lock:
                self._close()

    def _read_one(self, wait: int | None) -> bool:
        """One chunk from the pipe, if it has one within ``wait`` ms (``None``:
        it has one now), taken; False at its end. Holding :attr:`lock`."""
        if wait is not None:
            poller = select.poll()
            poller.register(self.fd, select.POLLIN)
            if not poller.poll(wait):
                return True
        chunk = os.read(self.fd, 65536)
        if not chunk:
            return False
        self._take(chunk)
        return True

    def catch_up(self) -> None:
        """What the pipe holds now, taken before the match moves on (from the
        match's thread; nothing in a forked child)."""
        if os.getpid() != self.pid:
            return
        with self.lock:
            if self.closed:
                return
            try:
                for _ in range(16):  # a bot writing without end is the thread's to follow
                    poller = select.poll()
                    poller.register(self.fd, select.POLLIN)
                    if not poller.poll(0) or not self._read_one(None):
                        return
            except OSError:
                return

    def _last_words(self) -> None:
        """What is left in the pipe, without waiting (a helper of the bot that
        left its process group may hold it open, and go on writing)."""
        os.set_blocking(self.fd, False)
        left = LAST_WORDS
        while left > 0:
            try:
                chunk = os.read(self.fd, 65536)
            except BlockingIOError:
                return
            if not chunk:
                return
            self._take(chunk)
            left -= len(chunk)

    def _take(self, chunk: bytes) -> None:
        self.tail.feed(chunk)
        if self.log is not None:
            data = self._marked(chunk)
            fd = self.log.fileno()
            try:
                append_whole(fd, data, self.whole)
            except OSError as exc:  # a full disk: the log stops (the program says so), the draining never does
                self.fault = exc
                self._close_log()
                return
            end = data.rfind(b"\n")
            if end >= 0:
                self.whole = self.end + end + 1
            self.end += len(data)

    def cut_back(self, wait: float) -> None:
        """The log cut back to its last whole line, as the process ends by a signal: a bot's line
        read in part (the rest not written yet) would be left unfinished. Waits at most ``wait``
        for a chunk being taken, and keeps :attr:`lock` for the exit to come."""
        if os.getpid() != self.pid or not self.lock.acquire(timeout=wait):
            return
        if self.log is not None and self.end > self.whole:
            try:
                os.ftruncate(self.log.fileno(), self.whole)
            except (OSError, ValueError):
                pass

    def _marked(self, chunk: bytes) -> bytes:
        """The chunk with the marker before each line it begins."""
        mark = self.marker()
        if not mark:
            return chunk
        pieces = chunk.split(b"\n")
        out = []
        last = len(pieces) - 1
        for i, piece in enumerate(pieces):
            if i == last and not piece:
                break  # the chunk ended with a newline: the next line has not begun
            if self.line_start:
                out.append(mark)
            out.append(piece)
            if i < last:
                out.append(b"\n")
                self.line_start = True
            else:
                self.line_start = False
        return b"".join(out)

    def _close_log(self) -> None:
        if self.log is not None:
            try:
                self.log.close()
            except OSError as exc:
                self.fault = self.fault or exc
            self.log = None

    def _close(self) -> None:
        self.closed = True
        for fd in (self.fd, self.wake):
            if fd >= 0:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._close_log()

    def stop(self, timeout: float = 2.0) -> None:
        """End the thread, once the program is dead: it reads what is left, then
        closes everything. Bounded; nothing at all in a forked child."""
        if os.getpid() != self.pid:
            return
        if self.thread.is_alive():  # else it met the end of the stream already
            try:
                os.write(self.waker, b"x")
            except OSError:
                pass
            self.thread.join(timeout)
        self._close_waker()

    def _close_waker(self) -> None:
        if self.waker >= 0:
            try:
                os.close(self.waker)
            except OSError:
                pass
            self.waker = -1


class Program:
    """One running bot program, reused across sessions; started again (with a new
    handshake) after it died, hung or broke the protocol.

    ``argv`` is the command; ``cwd`` and ``env`` (added to gincli's own
    environment) where and how it runs; ``log`` a file every byte of its
    standard error is appended to, across restarts (its last lines are kept in
    memory in any case: :meth:`stderr_tail`).
    """

    def __init__(self, argv: Sequence[str], *, cwd: str | None = None, env: Mapping[str, str] | None = None,
                 log: Path | None = None, label: str = "", trace: Path | None = None):
        self.argv = list(argv)
        self.label = label or " ".join(self.argv)
        self.cwd = cwd
        self.env = dict(env or {})
        self.log = log
        self.trace_path = trace
        self.trace: IO[bytes] | None = None  # the --bot-trace file, once opened (it stays open across restarts)
        self.trace_end = 0  # its size
        #: The bot log or the trace stopped taking lines (a full disk): raised at the next exchange.
        self.fault: BotLogError | None = None
        self.fault_raised = False
        self._context = ""
        self._mark = (b"", "")  # the log's marker, and the context it was made for
        self.proc: subprocess.Popen[bytes] | None = None
        self.buffer = LineBuffer()
        self.stderr = StderrTail()  # the last lines of its standard error, across restarts
        self.drain: _Drain | None = None  # what reads it, while it runs
        self.selector: Any = None  # a select.poll of its output, for its life
        self.stdin_fd = -1  # its input's descriptor, written directly
        self.wrote = False  # whether it wrote anything on its output since it started
        self.starts = 0
        # What the protocol keeps of the program across sessions:
        self.request_id = 0  # the id of the last request
        self.first_id = 1  # the first id sent to the running process (the ids it may echo: first_id to request_id)
        self.stale = 0  # replies passed over: they echoed an earlier request's id
        self.failed_starts = 0  # starts in a row that did not reach a first answer
        self.identity: dict[str, Any] = {}  # the name and version its handshake gave

    def start(self) -> None:
        self.kill()
        parent = os.getpid()
        prctl()  # looked up here: the child may not allocate between fork and exec
        log = None
        self.check_files()
        if self.log is not None:
            try:
                self.log.parent.mkdir(parents=True, exist_ok=True)
                log = open(self.log, "ab", buffering=0)  # noqa: SIM115  (the stderr drain owns it; unbuffered)
                if self.context:  # in a match: where each start begins
                    fd = log.fileno()
                    append_whole(fd, self.marker() + f"== gincli starts `{self.label}` ==\n".encode(errors="replace"),
                                 _size(fd))
            except OSError as exc:
                if log is not None:
                    log.close()
                raise self._fault(BotLogError(f"cannot write the bot log to {self.log}: {os_reason(exc)}")) \
                    from None
        if self.trace_path is not None and self.trace is None:
            try:
                self.trace_path.parent.mkdir(parents=True, exist_ok=True)
                self.trace = open(self.trace_path, "ab", buffering=0)  # noqa: SIM115  (kept open: closed by close_trace())
                self.trace_end = _size(self.trace.fileno())
            except OSError as exc:
                if log is not None:
                    log.close()
                raise self._fault(BotLogError(f"cannot write the bot trace to {self.trace_path}: "
                                              f"{os_reason(exc)}")) from None
        env = {**os.environ, **self.env} if self.env else None
        read, write = os.pipe()  # its standard error: both ends closed when we exec anything else
        try:
            # Its own process group, killed whole (a bot that forks); SIGKILL when we die.
            self.proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=write, cwd=self.cwd, env=env, start_new_session=True,
                                         preexec_fn=lambda: die_with_parent(signal.SIGKILL, parent))
        except OSError as exc:
            os.close(read)
            if log is not None:
                log.close()
            raise BotError(f"could not start `{self.label}`: {exc.strerror or exc}") from None
        finally:
            os.close(write)  # only the program holds it now: its end is the end of the stream
        try:
            self.drain = _Drain(read, self.stderr, log, self.marker)
        except (RuntimeError, OSError) as exc:  # no thread to be had
            self.kill()
            raise BotError(f"could not read the standard error of `{self.label}`: {exc}") from None
        self.buffer = LineBuffer()
        self.wrote = False
        self.first_id = self.request_id + 1
        self.starts += 1
        self.selector = None
        self.stdin_fd = -1
        if self.trace is not None:
            self.note(f"started `{self.label}` (pid {self.proc.pid})")

    @property
    def context(self) -> str:
        """Where the match is (``session 3 hand 2``): each line of the log and
        the trace is marked with it. As it changes, what the program wrote on
        its standard error until then is read first, and marked where it was written."""
        return self._context

    @context.setter
    def context(self, value: str) -> None:
        if value != self._context and self.drain is not None and self.log is not None:
            self.drain.catch_up()
        self._context = value

    def marker(self) -> bytes:
        """What each line of the bot log begins with: ``[session 3 hand 2] ``."""
        context = self.context
        if self._mark[1] != context:
            self._mark = ((f"[{context}] " if context else "").encode(errors="replace"), context)
        return self._mark[0]

    def _traced(self, arrow: bytes, line: bytes) -> None:
        """One line of the trace: a timestamp (UTC), where the match is, ``>``
        (sent) or ``<`` (read) or ``!`` (what gincli made of it), the line.
        Written whole or not at all: :class:`BotLogError` when the system refuses."""
        assert self.trace is not None
        now = time.time()
        stamp = time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1e6):06d}Z"
        data = b"%s [%s] %s %s\n" % (stamp.encode(), self.context.encode(errors="replace"), arrow, line)
        try:
            append_whole(self.trace.fileno(), data, self.trace_end)
        except OSError as exc:  # a full disk: the trace ends with the line before, and the match stops
            self.close_trace()
            raise self._fault(BotLogError(f"cannot write the bot trace to {self.trace_path}: {os_reason(exc)}")) \
                from None
        self.trace_end += len(data)

    def _fault(self, exc: BotLogError) -> BotLogError:
        """``exc``, kept as this program's fault (the first one) and marked as raised."""
        self.fault = self.fault or exc
        self.fault_raised = True
        return self.fault

    def file_fault(self) -> BotLogError | None:
        """Why the bot log or the trace stopped taking lines, if one did."""
        if self.fault is None and self.drain is not None and self.drain.fault is not None:
            self.fault = BotLogError(f"cannot write the bot log to {self.log}: {os_reason(self.drain.fault)}")
        return self.fault

    def check_files(self) -> None:
        """:class:`BotLogError` when the bot log or the trace stopped taking lines."""
        fault = self.file_fault()
        if fault is not None:
            raise self._fault(fault)

    def note(self, text: str) -> None:
        """A line of the trace saying what gincli did or made of a reply (a restart, a fault)."""
        if self.trace is not None:
            self._traced(b"!", text.encode(errors="replace"))

    def close_trace(self) -> None:
        if self.trace is not None:
            try:
                self.trace.close()
            except OSError as exc:
                self.fault = self.fault or BotLogError(f"cannot write the bot trace to {self.trace_path}: "
                                                       f"{os_reason(exc)}")
            self.trace = None

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def send(self, message: Mapping[str, Any]) -> None:
        """Write one message, one line; :class:`BotError` when the program is gone."""
        self.send_line(encode(message))

    def send_line(self, data: bytes) -> None:
        """Write one line (``data``, one JSON object without its newline) straight
        to the program's input, in one system call as a rule: no buffer, no flush."""
        if self.proc is None or self.proc.stdin is None:
            raise BotError("is not running")
        self.check_files()
        if self.trace is not None:
            self._traced(b">", data)
        if self.stdin_fd < 0:
            self.stdin_fd = self.proc.stdin.fileno()
        view = data + b"\n"
        try:
            while view:
                view = view[os.write(self.stdin_fd, view):]
        except OSError:
            code = self.proc.poll()
            self.kill()
            raise BotError(f"exited (status {code})" if code is not None else "closed its input") from None

    def line(self, limit: float, keep: bool = False) -> bytes:
        """The next line the program writes, within ``limit`` seconds; the end of
        its output is a crash at once (it is killed), and so is a time-out
        (:class:`~gincli.hand.bots.TimeOut`), unless ``keep``: the program is
        then left running, for the caller to see what it does next."""
        assert self.proc is not None and self.proc.stdout is not None
        line = self.buffer.line()
        if line is None:
            line = self._read(limit, keep)
        self.check_files()
        if self.trace is not None:
            self._traced(b"<", line)
        return line

    def _read(self, limit: float, keep: bool) -> bytes:
        assert self.proc is not None and self.proc.stdout is not None
        line = None
        fd = self.proc.stdout.fileno()
        deadline = time.monotonic() + limit
        if self.selector is None:  # one for the life of the process: a decision is a few dozen microseconds
            self.selector = select.poll()
            self.selector.register(fd, select.POLLIN)
        poll = self.selector.poll
        while line is None:
            left = deadline - time.monotonic()
            # in whole milliseconds, rounded up: never a busy wait, never a moment early
            if left <= 0 or not poll(int(-(-left * 1000 // 1))):
                silent = not self.wrote
                if not keep:
                    self.kill()
                raise TimeOut(limit, silent=silent)
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

    def sent_earlier(self, rid: Any) -> bool:
        """Whether ``rid`` is the id of a request this process was sent before the last one."""
        return type(rid) is int and self.first_id <= rid < self.request_id

    def unread(self) -> int | None:
        """How many bytes sent to the program it has not read yet (what waits in
        its input pipe), where the system says (Linux); None elsewhere."""
        if self.proc is None or self.proc.stdin is None or not sys.platform.startswith("linux"):
            return None
        import array
        import fcntl
        import termios

        count = array.array("i", [0])
        try:
            fcntl.ioctl(self.proc.stdin.fileno(), termios.FIONREAD, count, True)
        except (OSError, ValueError):
            return None
        return count[0]

    def close_input(self) -> None:
        """Close the program's input: it reads the end of it (and a program that
        holds its replies in a buffer writes them as it exits)."""
        if self.proc is not None and self.proc.stdin is not None:
            try:
                self.proc.stdin.close()
            except OSError:
                pass
            self.stdin_fd = -1

    def exit_status(self, wait: float = 0.2) -> int | None:
        """Its exit status, waiting a little for it to exit; None if it runs on."""
        assert self.proc is not None
        try:
            return self.proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            return None

    def stderr_tail(self, lines: int = 5, size: int = 4096) -> list[str]:
        """The last non-blank lines the program wrote on its standard error
        (at most ``lines``, within ``size`` bytes), all of them once it was
        killed. What the pipe holds already is read first: a line written
        before the last reply is in the tail, however far behind the draining
        thread is."""
        if self.drain is not None:
            self.drain.catch_up()
        return self.stderr.tail(lines, size)

    def kill(self) -> None:
        """Kill the program and whatever it started (its process group); every
        wait has a limit."""
        self.selector = None
        self.stdin_fd = -1
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
        if self.drain is not None:  # after the kill: what it wrote until it died is read first
            self.drain.stop()
            self.file_fault()
            self.drain = None

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
        self.close_trace()


_encode = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
_fast_encode: Callable[[Any], bytes] | None
try:  # optional (pip install 'gincli[fast]'): five to ten times json's speed
    from orjson import dumps as _fast_encode
except ImportError:  # pragma: no cover
    _fast_encode = None


def encode(message: Any) -> bytes:
    """A message as one line of strict JSON (without its newline), compact; with
    orjson when it is installed (UTF-8 as it is), else json (ASCII escapes).
    What orjson cannot write (an integer past 64 bits, a key that is not a
    string, a lone surrogate) goes through json. A negative zero is written
    ``0.0``, as gincli writes JSON everywhere (:func:`~gincli.base.jsonio.dumps`);
    what reaches a bot holds no NaN (a bots file's parameters are checked)."""
    if _fast_encode is not None:
        try:
            line = _fast_encode(message)
        except TypeError:
            pass
        else:
            return unsigned_zeros(line.decode()).encode() if b"-0.0" in line else line
    return unsigned_zeros(_encode(message)).encode()

#: Running programs of this process, by (command, seat).
_programs: dict[tuple[Any, ...], Program] = {}


def program_for(key: tuple[Any, ...], make: Any) -> Program:
    """The program of a seat (``key``), made by ``make()`` the first time."""
    program = _programs.get(key)
    if program is None:
        program = _programs[key] = make()
    return program


def restart_counts() -> None:
    """Forget the failed starts of every program of this process: a chunk of a
    match's sessions begins (they follow one another; the match counts across chunks)."""
    for program in _programs.values():
        program.failed_starts = 0


#: What the workers' :func:`close_all` refused as they ended normally (a bot
#: log full as a bot said its last words), told by the pool through
#: :func:`end_fault`: the run's, returned by the next :func:`close_all` here.
_end_faults: list[BaseException] = []


def end_fault(fault: BaseException) -> None:
    """Keep what a worker's :func:`close_all` refused as it ended (the pool's
    ``cleanup_fault``), for this process's :func:`close_all` to return."""
    _end_faults.append(fault)


def close_all(grace: float = EXIT_GRACE) -> BotLogError | None:
    """Close every program this process runs; ``grace=0`` (a worker ending
    from a signal handler) only kills their process groups, then cuts each bot
    log back to its last whole line (a bot's line read in part) and waits (at
    most :data:`APPEND_WAIT` in all) for a line being appended to a bot log or
    trace on another thread, holding the locks for the exit to come: no file is
    left with part of a line.
    Returns the first bot log or trace that stopped taking lines and was not
    raised yet (what a bot wrote on its standard error as it ended), for the
    caller to raise: the run stops with it."""
    fault = None
    programs = list(_programs.values())
    for program in programs:
        if grace > 0:
            program.close(grace)
            if fault is None and program.fault is not None and not program.fault_raised:
                fault = program.fault
        elif program.proc is not None:
            try:
                os.killpg(program.proc.pid, signal.SIGKILL)
            except OSError:
                pass
    _programs.clear()
    if grace <= 0:
        deadline = time.monotonic() + APPEND_WAIT
        for program in programs:
            if program.drain is not None:
                program.drain.cut_back(max(0.0, deadline - time.monotonic()))
        _appending.acquire(timeout=max(0.0, deadline - time.monotonic()))  # never released: the process ends
    if grace > 0:
        ended = _end_faults[0] if _end_faults else None  # a worker's bots', told as it ended
        _end_faults.clear()
        if fault is None and isinstance(ended, BotLogError):
            fault = ended
    return fault
