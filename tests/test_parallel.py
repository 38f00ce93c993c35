"""gincli.parallel: results in input order; with the default worker count, a
small input is handled in gin's own process and workers start only for what
is left after the warm-up."""

from __future__ import annotations

import os
import time

from gincli.parallel import ordered_map


def where(chunk: int) -> tuple[int, int]:
    time.sleep(0.01)
    return chunk, os.getpid()


def test_a_small_input_within_the_warmup_never_starts_workers():
    out = list(ordered_map(where, range(10), 2, warmup=5.0))
    assert [c for c, _ in out] == list(range(10))
    assert {pid for _, pid in out} == {os.getpid()}


def test_after_the_warmup_the_rest_goes_to_the_workers_in_order():
    out = list(ordered_map(where, range(60), 2, warmup=0.05))
    assert [c for c, _ in out] == list(range(60))
    pids = [pid for _, pid in out]
    assert pids[0] == os.getpid()  # the first chunks: here
    assert pids[-1] != os.getpid() and len(set(pids) - {os.getpid()}) >= 1  # the rest: workers


def test_workers_asked_for_start_at_once():
    out = list(ordered_map(where, range(8), 2))
    assert [c for c, _ in out] == list(range(8))
    assert os.getpid() not in {pid for _, pid in out}
