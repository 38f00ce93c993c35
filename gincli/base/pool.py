"""The worker pool: ordered, bounded parallel work over worker processes,
for every command that works in chunks (``gin score``, ``gin validate``, a
match's sessions). It knows no game: what a chunk is and what its work does
are the caller's.

Large inputs are cut into chunks; each chunk is handled by a worker process
and the results come back in input order. At most ``2 × workers`` chunks are
in flight, so memory stays constant however long the input is. With one
worker, or when the whole input fits in one chunk, nothing is forked. A map
whose process ``helps`` handles chunks itself too, beside one worker fewer
(``gin score``: N processes at work on N cores, not N workers and the
process that feeds them and writes their results).

A chunk's result comes back whole, or (``stream``) item by item: the work of a
chunk is then a generator, each item it yields is sent here as it is made (a
partial result; those made within :data:`GATHER` of the worker's last write,
together, within :data:`WATCH_EVERY` at most), and each comes out as soon as it
and every item before it have arrived, not once its chunk is done (a match's
sessions, each written as it ends). A ``pickle.PickleBuffer`` in a chunk's result crosses uncopied: it is
written after the result's pickle, as it is, and comes back as a view of the
message (``gin score``'s output: a chunk's JSON Lines).

The pool is this module's own (:class:`_Pool`), built so that ending it can
never hang. Each worker has a pipe of its own each way, and this process
keeps only the write end of a worker's tasks and the read end of its results:
a worker that dies is the end of its results (EOF) or a failed write (EPIPE),
never a wait. This process writes without blocking and waits only in
``poll``, so a chunk or a result bigger than a pipe holds cannot deadlock, and
it runs no thread that ending the pool would have to join. A chunk goes to
the worker with the least work in hand; workers are started as chunks need
them (never more than there are chunks). An exception raised in a worker is
raised here, in its place in the order; a worker that dies (killed by the
out-of-memory killer, say) is a :class:`WorkerError` sentence there, after the
results before it (with ``stream``, the items it made up to :data:`WATCH_EVERY`
before it died). Ending early (the consumer stops reading, an exception,
Ctrl-C) sends SIGTERM to every worker, SIGKILL a second later to any still
there, and reaps them: it never waits longer than that. Pipes and ``poll``:
POSIX systems, as the bots' process groups.

Workers die with the run: when the parent dies (even by SIGKILL) or
terminates them, each worker runs the caller's clean-up at once (a match's:
killing its bots, whole process groups) and exits, silently. A watcher thread
in each worker acts on SIGTERM and notices a parent that is gone; on Linux the
kernel also sends SIGTERM when the parent dies (``PR_SET_PDEATHSIG``). A worker
whose tasks end (this process closed its pipe) runs the clean-up, then exits.
"""

from __future__ import annotations

import gc
import os
import select
import signal
import sys
import threading
import time
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sized
from typing import TYPE_CHECKING, Any, TypeVar, cast

from .errors import EXIT_UNREADABLE, GinError
from .processes import die_with_parent, prctl

if TYPE_CHECKING:
    from multiprocessing.context import ForkContext, ForkServerContext, SpawnContext

T = TypeVar("T")

#: State a worker function reads: the state of the map whose chunk is handled
#: now, in this process; in a worker, that of its map (inherited when forked,
#: built by the initializer under the spawn start method).
_state: dict[str, Any] = {}


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def worker_state() -> dict[str, Any]:
    return _state


def _use(state: dict[str, Any]) -> None:
    global _state
    _state = state


def _init(setup: Callable[[], dict[str, Any]] | None, parent: int, cleanup: Callable[..., object] | None) -> None:
    global _cleanup
    _cleanup = cleanup
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    # Blocked by the parent while it started this worker (a Ctrl-C then is not this worker's):
    # ignored now, so one that came meanwhile is dropped.
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    # SIGTERM is acted on by the watcher thread, woken through this pipe: a handler in the main
    # thread would not run while it is blocked in a system call or busy in C code.
    wakeup, woken = os.pipe()
    os.set_blocking(woken, False)
    signal.set_wakeup_fd(woken)
    signal.signal(signal.SIGTERM, lambda signum, frame: _quit())
    sys.stderr = _Orphaned(sys.stderr, parent)
    prctl()
    die_with_parent(signal.SIGTERM, parent)
    threading.Thread(target=_watch, args=(parent, wakeup), name="gincli-worker-watch", daemon=True).start()
    # A worker that ends normally (its tasks ended) cleans up too (a match's: its bots, process groups and all).
    if cleanup is not None:
        import multiprocessing.util

        multiprocessing.util.Finalize(None, cleanup, exitpriority=10)
    if not _state and setup is not None:
        _state.update(setup())
    gc.freeze()


#: This worker's clean-up, given to :func:`ordered_map`.
_cleanup: Callable[..., object] | None = None


def _quit() -> None:
    """End this worker now: its clean-up first (``grace=0``: a match's bots
    killed, process groups and all), then itself."""
    try:
        if _cleanup is not None:
            _cleanup(grace=0)
    finally:
        os._exit(0)


#: How often a worker's watcher thread looks whether its parent is gone, and writes the items of a
#: stream that waited (:class:`_Batches`): the longest an item waits to be written.
WATCH_EVERY = 0.1  # seconds


def _watch(parent: int, wakeup: int) -> None:
    """End the worker once it is sent SIGTERM, or once its parent is gone (the
    portable fallback of PR_SET_PDEATHSIG: an orphan's parent is init)."""
    while os.getppid() == parent:
        if select.select([wakeup], [], [], WATCH_EVERY)[0] and signal.SIGTERM in os.read(wakeup, 512):
            break
        batches = _batches
        if batches is not None:
            batches.late()
    _quit()


class _Orphaned:
    """A worker's stderr that falls silent once the parent is gone: nobody is
    left to read a broken pipe's traceback."""

    def __init__(self, stream: Any, parent: int):
        self._stream = stream
        self._parent = parent

    def write(self, text: str) -> int:
        if os.getppid() != self._parent:
            return len(text)
        return self._stream.write(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


#: With the default number of workers, how long work runs in this process
#: before worker processes are started for the rest: starting them costs about
#: a tenth of a second, which small inputs would not win back.
WARMUP = 0.4  # seconds


def ordered_map(fn: Callable[[T], Any], chunks: Iterable[T], workers: int,
                setup: Callable[[], dict[str, Any]] | None = None,
                state: dict[str, Any] | None = None, warmup: float = 0.0,
                cleanup: Callable[..., object] | None = None, stream: bool = False,
                cleanup_fault: Callable[[BaseException], object] | None = None,
                helps: bool = False) -> Iterator[Any]:
    """``map(fn, chunks)`` in input order, over ``workers`` processes.

    ``fn`` must be a module-level function; it reads shared, read-only state
    from :func:`worker_state` as it is called, given here as ``state``
    (inherited by forked workers) or rebuilt in each worker by ``setup``. Each
    map has its own: maps read in turn in one process (two generators of the
    Python API) never see each other's. With one worker, a chunk is taken from
    ``chunks`` only when its turn comes (a caller's records are read as their
    results are asked for). With ``warmup``, chunks are handled here, one
    after another, for that many seconds; only the rest, if any, goes to the
    workers (so that a small input never pays for starting them).

    ``cleanup(grace=...)``, given, runs in each worker as it ends (a match's:
    its bots, process groups and all; ``grace=0`` when it is killed); an
    exception it returns as a worker ends normally is handed here to
    ``cleanup_fault``, once the workers are done (a match's: a bot log that
    refused a bot's last words, kept for whoever closes the bots).

    An exception ``fn`` raises in a worker is raised here, the same type with
    the same message, in its place: after the results of the chunks before
    it; so is one the iterator of chunks raises. A worker that dies is a
    :class:`WorkerError` in the place of its chunk. Closing the generator
    early (or an exception) ends the workers within about a second.

    With ``stream``, ``fn(chunk)`` is an iterable (a generator) of items, and
    what comes out is lists of those items, chunk after chunk, in order: each
    list holds the items ready at that moment after those given before (at
    least one; it never waits for more), so an item comes out as soon as it and
    every item before it are made, not once its chunk is done. An exception
    ``fn``'s generator raises comes after the items it yielded before; a
    worker's death, after those it wrote (all but those of its last
    :data:`WATCH_EVERY` at most). An item is pickled when it is written, with
    the ones made close to it: ``fn`` must not change an item it has yielded.

    With ``helps`` (not with ``stream``), ``workers - 1`` worker processes are
    started, and this process handles a chunk itself whenever each of them has
    two in hand: ``workers`` processes at work, none of them waiting. Its
    result comes in its place; an exception it raises, after the results
    before it, as itself. Made for chunks that each take about as long (a
    chunk here is a while in which the workers' results are not read: each
    worker's results pipe holds two of ``gin score``'s).
    """
    mine = dict(state) if state else (setup() if setup is not None else {})
    it = iter(chunks)
    here = _each_item if stream else _whole
    if workers <= 1:
        for chunk in it:
            yield from here(fn, chunk, mine)
        return
    if warmup > 0:
        deadline = time.perf_counter() + warmup
        for chunk in it:
            yield from here(fn, chunk, mine)
            if time.perf_counter() >= deadline:
                break
    first = next(it, None)
    if first is None:
        return
    second = next(it, None)
    if second is None:
        yield from here(fn, first, mine)
        return
    helped = helps and not stream
    pool = _Pool(fn, workers - helped, mine, setup, cleanup, stream, cleanup_fault, helps=helped)
    try:
        yield from pool.results(_prepend((first, second), it))
        pool.close()
    finally:
        pool.kill()


def _whole(fn: Callable[[Any], Any], chunk: Any, state: dict[str, Any]) -> Iterator[Any]:
    _use(state)
    yield fn(chunk)


def _each_item(fn: Callable[[Any], Any], chunk: Any, state: dict[str, Any]) -> Iterator[Any]:
    """A chunk's items handled in this process, each as it is made (nothing else is ready)."""
    _use(state)
    for item in fn(chunk):
        yield [item]


class WorkerError(GinError):
    """A worker process that died before it sent its results (killed by the
    out-of-memory killer, say), or could not be started: one sentence, exit 2."""

    exit_code = EXIT_UNREADABLE


class WorkerException(Exception):
    """An exception raised in a worker that could not be sent here as itself
    (it does not pickle): its type and message."""


class _RemoteTraceback(Exception):
    """The traceback of an exception raised in a worker: the cause of the one
    raised here, shown with it (``GINCLI_DEBUG=1``)."""

    def __str__(self) -> str:
        return f"\n\"\"\"\n{self.args[0]}\"\"\""


#: The start method of worker processes; ``None``: fork where there is one, else spawn.
START_METHOD: str | None = None


def forks() -> bool:
    """Whether worker processes are forked here (and so inherit this process's
    objects: a Python bot holding a model plays in them); else they are spawned."""
    import multiprocessing

    return (START_METHOD or ("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")) == "fork"
#: After SIGTERM, how long the workers have to end before SIGKILL; after SIGKILL, how long to reap them.
STOP_WAIT = 1.0  # seconds
#: At a normal end (the workers' tasks closed), how long they have to clean up and exit (a match's
#: bots have 2 s to leave after ``bye``); then they are stopped as above.
END_WAIT = 3.0  # seconds
#: How often a wait in which nothing happens checks that the workers it waits for are alive (one
#: whose results pipe some process it started keeps open ends without an end of file).
CHECK_EVERY = 1.0  # seconds
_HEADER = 8  # bytes: a message's length, before it
#: The header's top bit: the message is items of a chunk's result (``stream``: a list of
#: them, pickled), not its end.
_PART = 1 << (8 * _HEADER - 1)
#: With ``stream``, the least time between two waits for the workers' items: a
#: match's hands end thousands a second, and waking for each one cost the
#: driver a tenth of a core; an item waits at most this long to be read. A
#: worker, likewise, writes its items at most once in this time, those made
#: meanwhile together (:class:`_Batches`; one that waits for the next longer than
#: this is written within :data:`WATCH_EVERY`).
GATHER = 0.005  # seconds
#: Bytes read from a worker's results at a time, however many messages they hold (a bigger one is
#: then read straight into a buffer of its size).
_READ = 1 << 16
#: Bytes a worker's pipe holds, where Linux allows (F_SETPIPE_SZ; 64 KiB else): a typical chunk or
#: result in one write, a tenth of the wake-ups. For the first workers only (WIDE_WORKERS): pipe memory
#: is counted per user (pipe-user-pages-soft, 64 MiB), and past it every new pipe of the user is small.
_PIPE_SIZE = 1 << 18
WIDE_WORKERS = 32
#: The results pipe of a worker beside which this process works too (``helps``): while it handles a
#: chunk, it reads nothing, and a worker whose results do not fit its pipe would wait for it; two of
#: ``gin score``'s (some 410 KB each, for 1,000 records of JSON) fit. Linux's limit without privileges.
_HELPED_PIPE_SIZE = 1 << 20

#: The pools not yet ended: a generator never closed is ended at exit, before
#: :mod:`multiprocessing`'s own exit handler would wait for its workers.
_live: set[_Pool] = set()
_at_exit = False


def _end_all() -> None:
    for pool in list(_live):
        if pool.owner == os.getpid():  # not in a process forked from the owner: its workers are not ours
            pool.kill()


class _Worker:
    """This process's side of one worker: the process, the write end of its
    tasks and the read end of its results (both non-blocking), the bytes still
    to write, the numbers of the chunks it has in hand (in the order sent),
    and what is read of the next message: the start of its header, or its
    bytes so far, and whether it is an item of the first chunk in hand (not
    that chunk's end)."""

    __slots__ = ("proc", "tasks", "results", "out", "held", "rest", "body", "got", "part")

    def __init__(self, proc: Any, tasks: int, results: int):
        self.proc = proc
        self.tasks = tasks
        self.results = results
        self.out: deque[memoryview] = deque()
        self.held: deque[int] = deque()
        self.rest = b""  # a header's first bytes
        self.body: bytearray | None = None  # a message bigger than what one read gave
        self.got = 0
        self.part = False


class _Pool:
    """Worker processes for one :func:`ordered_map`: started as chunks need
    them, each fed through pipes of its own; ended by :meth:`close` (a normal
    end) or :meth:`kill` (any end: SIGTERM, SIGKILL, reaped, within about a
    second each)."""

    def __init__(self, fn: Callable[[Any], Any], size: int, state: dict[str, Any],
                 setup: Callable[[], dict[str, Any]] | None, cleanup: Callable[..., object] | None = None,
                 stream: bool = False, cleanup_fault: Callable[[BaseException], object] | None = None,
                 helps: bool = False):
        import multiprocessing  # here: a run on one worker never needs it (a few milliseconds of start-up)

        global _at_exit
        method = START_METHOD or ("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
        # get_context() of a str is typed as the base class, which has no Process: it is one of these
        self.ctx = cast("ForkContext | SpawnContext | ForkServerContext", multiprocessing.get_context(method))
        self.fork = method == "fork"
        self.fn = fn
        self.size = size
        self.state = state
        self.setup = setup
        self.cleanup = cleanup
        self.cleanup_fault = cleanup_fault
        self.stream = stream
        self.helps = helps
        self.workers: list[_Worker] = []  # alive, as far as this process knows
        self.by_fd: dict[int, _Worker] = {}
        self.gone: list[Any] = []  # processes of workers that died
        self.done: dict[int, Any] = {}  # chunk number -> its message, or the exception to raise in its place
        self.parts: dict[int, list[bytes | bytearray]] = {}  # chunk number -> the messages of its items so far (stream)
        self.scratch = bytearray(_READ)
        self.woken = 0.0  # when the last wait ended (stream)
        self.failed = False  # something is to be raised: no more chunks are sent
        self.ended = False
        self.owner = os.getpid()
        _live.add(self)
        if not _at_exit:  # after multiprocessing registered its handler: this one runs first
            import atexit

            atexit.register(_end_all)
            _at_exit = True

    def results(self, chunks: Iterator[Any]) -> Iterator[Any]:
        """Each chunk's result, in order (with ``stream``: lists of the items
        ready); at most twice the workers in flight (with ``helps``, twice the
        workers and this process)."""
        limit = 2 * (self.size + self.helps)
        sent = given = 0
        more = True
        while True:
            while more and not self.failed and sent - given < limit and (not self.helps or self._room()):
                try:
                    chunk = next(chunks)
                except StopIteration:
                    more = False
                    break
                except Exception as exc:  # an input that cannot be read further: after the results before it
                    self._fail(sent, exc)
                else:
                    self._send(sent, chunk)
                sent += 1
            if self.stream:
                before = given
                ready, given, fault = self._ready(given)
                if ready:
                    yield ready
                if fault is not None:
                    raise fault
                if given != before or ready:
                    continue
            if given in self.done:
                got = self.done.pop(given)
                given += 1
                yield _outcome(got)
            elif given == sent:
                return
            elif self.helps and more and not self.failed and sent - given < limit:
                self._wait(0.0)  # what the workers have sent, read, and what waits for them, written
                if given in self.done or self._room():
                    continue
                try:
                    chunk = next(chunks)
                except StopIteration:
                    more = False
                    continue
                except Exception as exc:
                    self._fail(sent, exc)
                else:
                    self._here(sent, chunk)
                sent += 1
            else:
                self._wait()

    def _room(self) -> bool:
        """Whether a worker would take a chunk now (``helps``): one has fewer than two in hand, or
        another may be started."""
        return len(self.workers) < self.size or any(len(w.held) < 2 for w in self.workers)

    def _here(self, number: int, chunk: Any) -> None:
        """Chunk ``number`` handled in this process (``helps``): its result, or the exception it raised."""
        _use(self.state)
        try:
            self.done[number] = _Here(self.fn(chunk))
        except Exception as exc:
            self._fail(number, exc)

    def _ready(self, given: int) -> tuple[list[Any], int, BaseException | None]:
        """The items that have arrived in order from chunk ``given`` on, the
        number of the first chunk not ended yet, and the exception that ended a
        chunk, if one did (to raise after those items)."""
        import pickle

        ready: list[Any] = []
        while True:
            parts = self.parts.pop(given, None)
            if parts:
                for part in parts:
                    ready.extend(pickle.loads(part))
            if given not in self.done:
                return ready, given, None
            got = self.done.pop(given)
            given += 1
            try:
                _outcome(got)  # a chunk's end: nothing, or the exception raised in its place
            except BaseException as exc:
                return ready, given, exc

    def _fail(self, number: int, exc: BaseException) -> None:
        self.done[number] = exc
        self.failed = True

    def _send(self, number: int, chunk: Any) -> None:
        import pickle

        try:
            data = pickle.dumps(chunk, pickle.HIGHEST_PROTOCOL)
        except Exception as exc:
            self._fail(number, exc)
            return
        worker = min(self.workers, key=lambda w: len(w.held), default=None)
        if worker is None or (worker.held and len(self.workers) < self.size):
            try:
                worker = self._start()
            except OSError as exc:
                self._fail(number, WorkerError(f"could not start a worker process: {exc.strerror or exc}"))
                return
        worker.held.append(number)
        worker.out.append(memoryview(len(data).to_bytes(_HEADER, "big") + data))
        self._flush(worker)

    def _start(self) -> _Worker:
        task_r, task_w = os.pipe()
        result_r, result_w = os.pipe()
        if len(self.workers) + len(self.gone) < WIDE_WORKERS:
            _widen(task_w, _PIPE_SIZE)
            _widen(result_w, _HELPED_PIPE_SIZE if self.helps else _PIPE_SIZE)
        # Forked, a worker closes this process's ends of every pool's pipes, its own too: only this
        # process may hold them, or a worker's death or this process's would not be an end of file.
        inherited = [fd for pool in _live for w in pool.workers for fd in (w.tasks, w.results) if fd >= 0]
        inherited = (inherited + [task_w, result_r]) if self.fork else []
        proc = self.ctx.Process(target=_serve, args=(self.fn, self.setup, self.cleanup, os.getpid(), _End(task_r),
                                                     _End(result_w), inherited, self.stream),
                                name=f"gincli-worker-{len(self.workers) + len(self.gone) + 1}", daemon=True)
        _use(self.state)  # what a forked worker inherits, whatever map this process ran meanwhile
        # A Ctrl-C while the worker starts is this process's (the worker ignores SIGINT once it can),
        # raised once the worker is known to kill().
        with _interrupt_held():
            try:
                proc.start()
            except BaseException:
                os.close(task_w)
                os.close(result_r)
                raise
            finally:
                os.close(task_r)
                os.close(result_w)
            os.set_blocking(task_w, False)
            os.set_blocking(result_r, False)
            worker = _Worker(proc, task_w, result_r)
            self.workers.append(worker)
            self.by_fd[task_w] = self.by_fd[result_r] = worker
        return worker

    def _flush(self, worker: _Worker) -> None:
        """Write what the pipe takes now of what is waiting for ``worker``."""
        out = worker.out
        try:
            while out:
                view = out[0]
                n = os.write(worker.tasks, view)
                if n < len(view):
                    out[0] = view[n:]
                    return  # the pipe is full: the rest once poll says it has room
                out.popleft()
        except BlockingIOError:
            pass
        except OSError:  # EPIPE: nobody reads the pipe, the worker is gone
            self._died(worker)

    def _pull(self, worker: _Worker) -> None:
        """Read what ``worker`` has written; a whole message is its next chunk's
        result, or an item of it (``stream``; the chunk's end comes after).
        Small messages are read many at a time."""
        while True:
            body = worker.body
            if body is not None:  # straight into the message's own buffer
                n = self._read(worker, memoryview(body)[worker.got:])
                if n < 0:
                    return
                worker.got += n
                if worker.got == len(body):
                    worker.body = None
                    self._arrived(worker, body, worker.part)
                continue
            scratch = self.scratch
            have = len(worker.rest)
            scratch[:have] = worker.rest
            with memoryview(scratch) as view:
                n = self._read(worker, view[have:])
                if n < 0:
                    return
                end = have + n
                at = 0
                while end - at >= _HEADER:
                    size = int.from_bytes(view[at:at + _HEADER], "big")
                    part = size >= _PART
                    size &= _PART - 1
                    at += _HEADER
                    if end - at >= size:
                        self._arrived(worker, bytes(view[at:at + size]), part)
                        at += size
                    else:  # the rest of it in reads of its own
                        worker.body = body = bytearray(size)
                        body[:end - at] = view[at:end]
                        worker.got = end - at
                        worker.part = part
                        at = end
                worker.rest = bytes(view[at:end])
            if end < len(scratch):  # the pipe is empty now: poll says when there is more
                return

    def _read(self, worker: _Worker, into: memoryview) -> int:
        """Bytes read from ``worker``'s results into ``into``; -1 when there are
        none now, or at the end of the pipe (the worker is gone)."""
        try:
            n = os.readv(worker.results, [into])
        except BlockingIOError:
            return -1
        except OSError:
            n = 0
        if n == 0:  # end of file: the worker is gone
            self._died(worker)
            return -1
        return n

    def _arrived(self, worker: _Worker, message: bytes | bytearray, part: bool) -> None:
        if part:
            self.parts.setdefault(worker.held[0], []).append(message)
        else:
            self.done[worker.held.popleft()] = message

    def _wait(self, timeout: float = CHECK_EVERY) -> None:
        """Wait until a worker's result can be read or its pipe takes more, and act on it;
        ``timeout`` 0: act on what is ready now, and return. With ``stream``, never sooner than
        :data:`GATHER` after the last wait ended: the items made meanwhile are read at once."""
        if self.stream:
            early = self.woken + GATHER - time.monotonic()
            if early > 0:
                time.sleep(early)
        # _reap's, at the end: imported here, while the workers work, not after the last result
        # (it brings tempfile, random and more: some 8 ms, at the end of every run on the pool).
        import multiprocessing.connection  # noqa: F401
        poller = select.poll()
        for w in self.workers:
            if w.held:
                poller.register(w.results, select.POLLIN)
            if w.out:
                poller.register(w.tasks, select.POLLOUT)
        events = poller.poll(timeout * 1000)
        self.woken = time.monotonic()
        if not events:
            if not timeout:
                return
            if not any(w.held for w in self.workers):  # never so: the next result is some worker's
                raise RuntimeError("ordered_map: waiting with no chunk in flight")
            for w in [w for w in self.workers if w.held and w.proc.exitcode is not None]:
                self._died(w)
            return
        for fd, _ in events:
            ready = self.by_fd.get(fd)
            if ready is None:  # died while handling an earlier event
                continue
            if fd == ready.results:
                self._pull(ready)
            else:
                self._flush(ready)

    def _died(self, worker: _Worker) -> None:
        """``worker`` is gone: the chunks it had are a :class:`WorkerError` each, nothing more is sent."""
        self.workers.remove(worker)
        self._close(worker)
        proc = worker.proc
        proc.join(STOP_WAIT)  # its pipe ended: it is ending, if not already reaped
        if proc.exitcode is None:  # it closed its pipe yet lives on
            proc.kill()
            proc.join(STOP_WAIT)
        self.gone.append(proc)
        error = WorkerError(_death(proc.pid, proc.exitcode))
        for number in worker.held:
            self.done[number] = error
        worker.held.clear()
        self.failed = True

    def _close(self, worker: _Worker) -> None:
        for fd in (worker.tasks, worker.results):
            if fd >= 0:
                self.by_fd.pop(fd, None)
                os.close(fd)
        worker.tasks = worker.results = -1
        worker.out.clear()

    def close(self) -> None:
        """The normal end: the workers' tasks end, and they exit (after their
        clean-up); what the clean-up refused (a bot log that did not take a
        bot's last words) goes to ``cleanup_fault``."""
        for w in self.workers:
            if w.tasks >= 0:
                self.by_fd.pop(w.tasks, None)
                os.close(w.tasks)
                w.tasks = -1
        deadline = time.monotonic() + END_WAIT
        for w in self.workers:
            self._last_words(w, deadline)
        _reap([w.proc for w in self.workers], max(0.0, deadline - time.monotonic()))

    def _last_words(self, worker: _Worker, deadline: float) -> None:
        """What ``worker`` says as it ends, until its results pipe closes: a
        fault of its clean-up, if any, goes to ``cleanup_fault``."""
        import pickle

        got = bytearray()
        while worker.results >= 0:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([worker.results], [], [], left)[0]:
                break
            try:
                chunk = os.read(worker.results, _READ)
            except BlockingIOError:
                continue
            except OSError:
                break
            if not chunk:
                break
            got += chunk
        while len(got) >= _HEADER:
            size = int.from_bytes(got[:_HEADER], "big") & ~_PART
            body, got = bytes(got[_HEADER:_HEADER + size]), got[_HEADER + size:]
            try:
                ok, value = pickle.loads(body)
                if not ok:
                    _outcome(body)
            except BaseException as exc:  # the fault itself, rebuilt
                if self.cleanup_fault is not None:
                    self.cleanup_fault(exc)

    def kill(self) -> None:
        """Any end, at once: SIGTERM to every worker still there, SIGKILL to any
        left a second later; reaped, pipes closed. Never blocks much longer."""
        if self.ended:
            return
        self.ended = True
        _live.discard(self)
        procs = [w.proc for w in self.workers] + self.gone
        try:
            for proc in procs:
                proc.terminate()  # only if not reaped yet: the pid is still this worker's
            _reap(procs, STOP_WAIT)
        finally:
            for proc in procs:
                if proc.exitcode is None:
                    proc.kill()
            _reap(procs, STOP_WAIT)
            for w in self.workers:
                self._close(w)
            self.workers.clear()
            for proc in procs:
                if proc.exitcode is not None:
                    proc.close()


class _interrupt_held:
    """A Ctrl-C while the body runs is raised as it ends. SIGINT is blocked
    in this thread (a forked worker starts with it blocked, until it ignores
    it) and, in the main thread, handled by a handler that only notes it: the
    kernel may hand the signal to another thread of the process (a program with
    threads of its own, a test runner's), whose handler would otherwise raise
    in the main thread at once, between the fork and the worker's record."""

    def __enter__(self) -> None:
        # The handler first, then the mask; undone in the other order. A Python handler runs
        # in the main thread when it next can, as the handler in place then is: with the
        # noting one in place while the mask changes, no KeyboardInterrupt can come between
        # the two steps and leave SIGINT blocked in this thread (and in what it starts).
        self.caught: list[Any] = []
        self.previous: Any = None
        self.swapped = (threading.current_thread() is threading.main_thread()
                        and signal.getsignal(signal.SIGINT) is not None)  # None: set outside Python, left alone
        if self.swapped:
            self.previous = signal.signal(signal.SIGINT, lambda signum, frame: self.caught.append(frame))
        self.mask = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})

    def __exit__(self, *exc: Any) -> None:
        signal.pthread_sigmask(signal.SIG_SETMASK, self.mask)  # one that came to this thread: noted now
        if self.swapped:
            signal.signal(signal.SIGINT, self.previous)
        if self.caught and callable(self.previous):  # as the handler in place would have (SIG_IGN: nothing)
            self.previous(signal.SIGINT, sys._getframe())


def _reap(procs: list[Any], timeout: float) -> None:
    """Wait at most ``timeout`` seconds for ``procs`` to end, reaping them."""
    from multiprocessing.connection import wait

    deadline = time.monotonic() + timeout
    while True:
        alive = [p for p in procs if p.exitcode is None]
        left = deadline - time.monotonic()
        if not alive or left <= 0:
            return
        # In short steps: a process the worker started may hold its sentinel open after it died.
        wait([p.sentinel for p in alive], min(left, 0.05))


class _End:
    """The worker's end of a pipe, as handed to it: the same descriptor when
    forked, a duplicate passed to a spawned worker."""

    def __init__(self, fd: int):
        self.fd = fd

    def __reduce__(self) -> Any:
        from multiprocessing.reduction import DupFd

        return _end_of, (DupFd(self.fd),)


def _end_of(dup: Any) -> _End:
    return _End(dup.detach())


def _widen(fd: int, size: int) -> None:
    try:
        import fcntl

        fcntl.fcntl(fd, fcntl.F_SETPIPE_SZ, size)
    except (ImportError, AttributeError, OSError):  # not Linux, or past the user's share of pipe memory
        pass


def _death(pid: int, code: int | None) -> str:
    """A worker's death in one sentence."""
    if code is None:
        how = "it closed its pipe and stopped answering"
    elif code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = "unknown"
        how = f"killed by signal {-code}, {name}" + (": out of memory?" if -code == signal.SIGKILL else "")
    elif code > 0:
        how = f"it exited with status {code}"
    else:
        how = "it exited before it sent its results"
    return f"a worker process (pid {pid}) died ({how}); the results before it were written"


class _Here:
    """The result of a chunk handled in the process that reads the results (``helps``)."""

    __slots__ = ("value",)

    def __init__(self, value: Any):
        self.value = value


def _outcome(got: Any) -> Any:
    """A chunk's result from its message; an exception is raised as itself."""
    if isinstance(got, BaseException):
        raise got
    if type(got) is _Here:
        return got.value
    import pickle

    ok, value = _unpickled(got)
    if ok:
        return value
    pickled, said, text = value
    exc = None
    if pickled is not None:
        try:
            exc = pickle.loads(pickled)
        except Exception:  # a type that does not rebuild from its pickle
            exc = None
    if not isinstance(exc, BaseException):
        exc = WorkerException(said)
    exc.__cause__ = _RemoteTraceback(text)
    raise exc


def _serve(fn: Callable[[Any], Any], setup: Callable[[], dict[str, Any]] | None, cleanup: Callable[..., object] | None,
           parent: int, tasks: Any,
           results: Any, inherited: list[int], stream: bool = False) -> None:
    """A worker: each chunk read from ``tasks``, its result (or the exception
    raised) written to ``results``, until the tasks end. With ``stream``, each
    item ``fn``'s generator yields is written as it comes (a partial result),
    then the chunk's end (or the exception raised)."""
    import pickle

    global _batches
    for fd in inherited:
        try:
            os.close(fd)
        except OSError:
            pass
    tasks, results = tasks.fd, results.fd
    # With ``stream``, how the items are written; the watcher thread (started by _init) writes late ones.
    batches = _batches = _Batches(results) if stream else None
    _init(setup, parent, cleanup)
    reply: bytes | None
    while True:
        data = _read(tasks)
        if data is None:  # the tasks ended: a normal end (or the parent is gone)
            if cleanup is not None:  # cleaned up now, and what that refused told to the parent
                fault = cleanup()
                if isinstance(fault, Exception):
                    _write(results, _message(_failure(fault)))
            return
        try:
            if batches is not None:
                items = fn(pickle.loads(data))
                data = None
                for item in items:
                    if not batches.add(item):
                        return  # the parent stopped reading: it is ending
                reply = pickle.dumps((True, None), pickle.HIGHEST_PROTOCOL)
            else:
                value = fn(pickle.loads(data))
                data = None
                buffers: list[pickle.PickleBuffer] = []
                reply = pickle.dumps((True, value), pickle.HIGHEST_PROTOCOL, buffer_callback=buffers.append)
                value = None
                if buffers:  # sent as they are, after the rest: never copied into the pickle
                    sent = _write(results, *_with_buffers(reply, buffers))
                    reply = None
                    buffers = []  # the memory back before the next chunk
                    if not sent:
                        return  # the parent stopped reading: it is ending
                    continue
        except Exception as exc:
            reply = _failure(exc)
        data = items = None
        if batches is not None:
            if not batches.end(reply):
                return  # the parent stopped reading: it is ending
            continue
        view = _message(reply)
        reply = None  # the memory back while the result is written
        if not _write(results, view):
            return  # the parent stopped reading: it is ending


class _Batches:
    """A worker's items of a stream (a match's sessions, each as it ends), written
    together: an item made at least :data:`GATHER` after the worker's last write
    is written at once, with any made before it that waited; one made sooner
    waits for the next, or for the worker's watcher thread, which writes what
    has waited :data:`GATHER` or more each time it looks (every
    :data:`WATCH_EVERY`). A match's hands end thousands a second, and a write and
    a pickle for each cost the workers a few per cent of their time; the
    driver reads them no oftener than every :data:`GATHER` anyway. Every write
    to the results holds :attr:`lock`, so a chunk's end always comes after its
    items. An item that does not pickle ends its chunk there, as if ``fn`` had
    raised the error: the items before it are sent, the ones after it are not."""

    def __init__(self, fd: int):
        self.fd = fd
        self.lock = threading.Lock()  # the pending items, the pipe, the fault
        self.pending: list[Any] = []
        self.last = float("-inf")  # when the last write began (time.monotonic)
        self.broken = False  # a write failed: nobody reads the pipe
        self.fault: Exception | None = None  # an item that did not pickle: the end of its chunk

    def add(self, item: Any) -> bool:
        """Send ``item``, now or soon; False once nobody reads the pipe. Raises
        the error of an item that did not pickle."""
        with self.lock:
            if self.fault is None and not self.broken:
                self.pending.append(item)
                if time.monotonic() - self.last >= GATHER:
                    self._flush()
            if self.fault is not None:
                raise self.fault
            return not self.broken

    def end(self, reply: bytes) -> bool:
        """Write the items still waiting, then the chunk's end, ``reply`` (or,
        after an item that did not pickle, that error's)."""
        with self.lock:
            self._flush()
            fault, self.fault = self.fault, None
            self.pending = []  # made after an item that did not pickle: not sent
            return not self.broken and self._write(_message(reply if fault is None else _failure(fault)))

    def late(self) -> None:
        """Write what has waited :data:`GATHER` or more (the watcher thread's
        call); never waits for the lock: the worker may be writing, or blocked
        on a full pipe, and the watcher must stay free to end it."""
        if self.pending and self.lock.acquire(blocking=False):
            try:
                if time.monotonic() - self.last >= GATHER:
                    self._flush()
            finally:
                self.lock.release()

    def _flush(self) -> None:
        """The pending items as one message (the lock held); any before one that
        does not pickle, and that one's error kept (:attr:`fault`)."""
        if not self.pending or self.broken or self.fault is not None:
            return
        import pickle

        items, self.pending = self.pending, []
        self.last = time.monotonic()
        try:
            data = pickle.dumps(items, pickle.HIGHEST_PROTOCOL)
        except Exception:
            for n, item in enumerate(items):
                try:
                    pickle.dumps(item, pickle.HIGHEST_PROTOCOL)
                except Exception as exc:
                    self.fault = exc
                    items = items[:n]
                    break
            if not items:
                return
            data = pickle.dumps(items, pickle.HIGHEST_PROTOCOL)
        self._write(_message(data, _PART))

    def _write(self, view: memoryview) -> bool:
        if not _write(self.fd, view):
            self.broken = True
        return not self.broken


#: The items of this worker's stream (:func:`_serve`), for its watcher thread to write when late.
_batches: _Batches | None = None


#: The first byte of a result whose pickle has buffers out of band (a pickle's first byte is PROTO, 0x80).
_BUFFERS = b"B"


def _with_buffers(reply: bytes, buffers: list[Any]) -> list[memoryview]:
    """A result's message, the pickle's out-of-band buffers after it (``pickle.PickleBuffer``s
    in the result: a chunk's output, say), as the parts to write: its header, a table (how many
    buffers, the pickle's length and each buffer's), the pickle, the buffers."""
    views = [memoryview(b).cast("B") for b in buffers]
    table = (_BUFFERS + len(views).to_bytes(4, "big") + len(reply).to_bytes(8, "big")
             + b"".join(len(v).to_bytes(8, "big") for v in views))
    size = len(table) + len(reply) + sum(len(v) for v in views)
    return [memoryview(size.to_bytes(_HEADER, "big") + table), memoryview(reply), *views]


def _unpickled(got: bytes | bytearray) -> Any:
    """A result's message unpickled: its out-of-band buffers (:func:`_with_buffers`) as
    views of the message, not copies."""
    import pickle

    if got[:1] != _BUFFERS:
        return pickle.loads(got)
    view = memoryview(got)
    count = int.from_bytes(view[1:5], "big")
    size = int.from_bytes(view[5:13], "big")
    at = 13 + 8 * count
    lengths = [int.from_bytes(view[13 + 8 * i:21 + 8 * i], "big") for i in range(count)]
    body = view[at:at + size]
    at += size
    buffers = []
    for n in lengths:
        buffers.append(view[at:at + n])
        at += n
    return pickle.loads(body, buffers=buffers)


def _message(data: bytes, flag: int = 0) -> memoryview:
    """``data`` as a message: its length (and ``flag``) first."""
    return memoryview((len(data) | flag).to_bytes(_HEADER, "big") + data)


def _write(fd: int, *views: memoryview) -> bool:
    """Write a message whole, from its parts (blocking, no part copied); False once nobody reads the pipe."""
    left = [v for v in views if v]
    try:
        while left:
            n = os.writev(fd, left[:64])
            while left and n >= len(left[0]):
                n -= len(left.pop(0))
            if n:
                left[0] = left[0][n:]
    except OSError:
        return False
    return True


def _read(fd: int) -> bytearray | None:
    """The next message on ``fd``; ``None`` at the end of the pipe."""
    head = _exactly(fd, _HEADER)
    return None if head is None else _exactly(fd, int.from_bytes(head, "big"))


def _exactly(fd: int, size: int) -> bytearray | None:
    buf = bytearray(size)
    with memoryview(buf) as view:
        got = 0
        while got < size:
            n = os.readv(fd, [view[got:]])
            if n == 0:
                return None
            got += n
    return buf


def _failure(exc: Exception) -> bytes:
    """The message of an exception ``fn`` raised: itself, pickled where it
    pickles, its type and message, and its traceback as text."""
    import pickle
    import traceback

    try:
        said = f"{type(exc).__name__}: {exc}"
    except Exception:
        said = type(exc).__name__
    text = "".join(traceback.format_exception(exc))
    try:
        pickled: bytes | None = pickle.dumps(exc, pickle.HIGHEST_PROTOCOL)
    except Exception:
        pickled = None
    return pickle.dumps((False, (pickled, said, text)), pickle.HIGHEST_PROTOCOL)


def _prepend(head: tuple[T, ...], rest: Iterator[T]) -> Iterator[T]:
    yield from head
    yield from rest


def chunked(items: Iterable[T], size: int, ramp: int = 0) -> Iterator[list[T]]:
    """``items`` in lists of ``size``; with ``ramp`` (the workers), the first
    lists smaller (an eighth of ``size``, then a quarter, a half: ``ramp`` of
    each), so that the first results, and the progress shown, come soon; and
    where ``items`` has a length, the last ones smaller too (none more than
    the items left over twice ``ramp``, down to one), so that the workers end
    together: none is left with a whole chunk to play while the others wait."""
    sizes = [max(1, size // d) for d in (8, 4, 2) for _ in range(ramp)] if ramp else []
    left = len(items) if ramp and isinstance(items, Sized) else None

    def next_limit() -> int:
        limit = sizes.pop(0) if sizes else size
        return limit if left is None else min(limit, max(1, -(-left // (2 * ramp))))

    chunk: list[T] = []
    limit = next_limit()
    for item in items:
        chunk.append(item)
        if len(chunk) >= limit:
            yield chunk
            if left is not None:
                left -= len(chunk)
            chunk = []
            limit = next_limit()
    if chunk:
        yield chunk
