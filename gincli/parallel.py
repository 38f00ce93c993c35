"""Ordered, bounded parallel work over worker processes.

Large inputs are cut into chunks; each chunk is handled by a worker process
and the results come back in input order. At most ``2 × workers`` chunks are
in flight, so memory stays constant however long the input is. With one
worker, or when the whole input fits in one chunk, nothing is forked.

Workers die with the run: when the parent dies (even by SIGKILL) or
terminates them, each worker kills its bots (their whole process groups) and
exits at once, silently. A watcher thread in each worker acts on SIGTERM and
notices a parent that is gone; on Linux the kernel also sends SIGTERM when the
parent dies (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import gc
import multiprocessing
import multiprocessing.util
import os
import select
import signal
import sys
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")

#: State a worker function reads: set before the pool forks (inherited), or
#: built by the initializer under the spawn start method.
_state: dict[str, Any] = {}


def default_workers() -> int:
    """All the cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def worker_state() -> dict[str, Any]:
    return _state


PR_SET_PDEATHSIG = 1
_prctl: Any = None


def prctl() -> Any:
    """libc's ``prctl`` (Linux), looked up once, before any fork; ``None`` elsewhere."""
    global _prctl
    if _prctl is None:
        _prctl = False
        if sys.platform.startswith("linux"):
            try:
                import ctypes

                _prctl = ctypes.CDLL(None, use_errno=True).prctl
            except (OSError, AttributeError):
                pass
    return _prctl or None


def die_with_parent(sig: int, parent: int) -> None:
    """Have ``sig`` sent to this process when its parent dies, where the kernel
    can (Linux); ``parent`` is the pid expected, in case it died already.
    Safe between fork and exec: no allocation once :func:`prctl` was looked up."""
    call = _prctl or None
    if call is not None:
        call(PR_SET_PDEATHSIG, sig, 0, 0, 0)
    if os.getppid() != parent:
        os.kill(os.getpid(), sig)


def _init(setup: Callable[[], dict[str, Any]] | None, parent: int) -> None:
    from . import external  # now: nothing is imported once the worker must end

    global _close_bots
    _close_bots = external.close_all
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    # SIGTERM is acted on by the watcher thread, woken through this pipe: a handler in the main
    # thread would never run if the signal came just before it blocked in a pool lock.
    wakeup, woken = os.pipe()
    os.set_blocking(woken, False)
    signal.set_wakeup_fd(woken)
    signal.signal(signal.SIGTERM, lambda signum, frame: _quit())
    sys.stderr = _Orphaned(sys.stderr, parent)
    prctl()
    die_with_parent(signal.SIGTERM, parent)
    threading.Thread(target=_watch, args=(parent, wakeup), name="gincli-worker-watch", daemon=True).start()
    # A worker that ends normally (the pool closed) closes its bots too, process groups and all.
    multiprocessing.util.Finalize(None, external.close_all, exitpriority=10)
    if not _state and setup is not None:
        _state.update(setup())
    gc.freeze()


_close_bots: Callable[..., None] | None = None


def _quit() -> None:
    """End this worker now: its bots first (their process groups), then itself."""
    try:
        if _close_bots is not None:
            _close_bots(grace=0)
    finally:
        os._exit(0)


def _watch(parent: int, wakeup: int) -> None:
    """End the worker once it is sent SIGTERM, or once its parent is gone (the
    portable fallback of PR_SET_PDEATHSIG: an orphan's parent is init)."""
    while os.getppid() == parent:
        if select.select([wakeup], [], [], 0.5)[0] and signal.SIGTERM in os.read(wakeup, 512):
            break
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


def ordered_map(fn: Callable[[T], R], chunks: Iterable[T], workers: int,
                setup: Callable[[], dict[str, Any]] | None = None,
                state: dict[str, Any] | None = None, warmup: float = 0.0) -> Iterator[R]:
    """``map(fn, chunks)`` in input order, over ``workers`` processes.

    ``fn`` must be a module-level function; it reads shared, read-only state
    from :func:`worker_state`, given here as ``state`` (inherited by forked
    workers) or rebuilt in each worker by ``setup``. With ``warmup``, chunks
    are handled here, one after another, for that many seconds; only the
    rest, if any, goes to the workers (so that a small input never pays for
    starting them).
    """
    _state.clear()
    if state:
        _state.update(state)
    elif setup is not None:
        _state.update(setup())
    it = iter(chunks)
    if workers > 1 and warmup > 0:
        import time

        deadline = time.perf_counter() + warmup
        for chunk in it:
            yield fn(chunk)
            if time.perf_counter() >= deadline:
                break
    first = next(it, None)
    if first is None:
        return
    second = next(it, None)
    if workers <= 1 or second is None:
        yield fn(first)
        if second is not None:
            yield fn(second)
            for chunk in it:
                yield fn(chunk)
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    pool = ctx.Pool(workers, _init, (setup, os.getpid()))
    try:
        pending: deque[Any] = deque()
        limit = 2 * workers
        for chunk in _prepend((first, second), it):
            pending.append(pool.apply_async(fn, (chunk,)))
            if len(pending) >= limit:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def _prepend(head: tuple[T, ...], rest: Iterator[T]) -> Iterator[T]:
    yield from head
    yield from rest


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    chunk: list[T] = []
    for item in items:
        chunk.append(item)
        if len(chunk) >= size:
            yield chunk
            chunk = []
    if chunk:
        yield chunk
