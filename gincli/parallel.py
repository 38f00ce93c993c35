"""Ordered, bounded parallel work over worker processes.

Large inputs are cut into chunks; each chunk is handled by a worker process
and the results come back in input order. At most ``2 × workers`` chunks are
in flight, so memory stays constant however long the input is. With one
worker, or when the whole input fits in one chunk, nothing is forked.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
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


def _init(setup: Callable[[], dict[str, Any]] | None) -> None:
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C
    if not _state and setup is not None:
        _state.update(setup())
    gc.freeze()


def ordered_map(fn: Callable[[T], R], chunks: Iterable[T], workers: int,
                setup: Callable[[], dict[str, Any]] | None = None,
                state: dict[str, Any] | None = None) -> Iterator[R]:
    """``map(fn, chunks)`` in input order, over ``workers`` processes.

    ``fn`` must be a module-level function; it reads shared, read-only state
    from :func:`worker_state`, given here as ``state`` (inherited by forked
    workers) or rebuilt in each worker by ``setup``.
    """
    _state.clear()
    if state:
        _state.update(state)
    elif setup is not None:
        _state.update(setup())
    it = iter(chunks)
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
    pool = ctx.Pool(workers, _init, (setup,))
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
