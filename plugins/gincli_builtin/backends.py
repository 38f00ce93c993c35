"""Built-in plugin: the match backend ``local``, worker processes on this
machine (:func:`gincli.base.pool.ordered_map`), registered through the same
hook a backend of a third party uses (``gincli_register_match_backends``)."""

from __future__ import annotations

import functools
from collections.abc import Iterator, Mapping
from typing import Any

from gincli import hookimpl
from gincli.base.pool import default_workers, ordered_map, worker_state
from gincli.matches.backends import ChunkFault, MatchBackend, MatchWork
from gincli.matches.external import close_all, end_fault


class LocalBackend(MatchBackend):
    name = "local"
    description = ("Worker processes on this machine (--workers, default and at most all cores); chunks of "
                   "sessions in flight at most twice the workers.")

    workers = 1

    def start(self, options: Mapping[str, str], workers: int | None) -> int:
        self.workers = min(workers, default_workers()) if workers else default_workers()  # never more than the cores
        return self.workers

    def map(self, work: MatchWork, chunks: Iterator[list[int]]) -> Iterator[Any]:
        """Each session's outcome as soon as it and every one before it are
        played (a worker sends each as its session ends): lists of those ready."""
        work.registry()  # loaded here, once: forked workers inherit it (spawned ones load their own)
        # A worker that ends takes its bots with it; what their logs refused as they ended is the match's.
        for ready in ordered_map(_play_chunk, chunks, self.workers, functools.partial(_setup, work), {"work": work},
                                 cleanup=close_all, cleanup_fault=end_fault, stream=True):
            for n, item in enumerate(ready):
                if isinstance(item, ChunkFault):  # the end of the match: the sessions before it first
                    if n:
                        yield ready[:n]
                    yield item
                    return
            yield ready


def _setup(work: MatchWork) -> dict[str, Any]:
    return {"work": work}


def _play_chunk(indices: list[int]) -> Iterator[Any]:
    return worker_state()["work"].stream(indices)


@hookimpl(trylast=True)
def gincli_register_match_backends(register):
    register(LocalBackend())
