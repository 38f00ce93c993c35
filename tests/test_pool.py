"""gincli.base.pool: results in input order; with the default worker count, a
small input is handled in gin's own process and workers start only for what
is left after the warm-up."""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import pickle
import signal
import time

import pytest
from hypothesis import given, settings, strategies as st

from gincli.base import pool
from gincli.base.errors import GinError, RecordError
from gincli.base.pool import WorkerError, WorkerException, ordered_map


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


# The pool: order, exceptions, a worker that dies, ending early, big messages.

HANG = 60  # seconds: a generous bound; what fails is a hang, not slowness


def gone(pid: int) -> bool:
    """Whether ``pid`` is reaped (a zombie still answers signal 0)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


def assert_no_children(pids=()) -> None:
    assert multiprocessing.active_children() == []
    assert all(gone(pid) for pid in pids), [pid for pid in pids if not gone(pid)]


@pytest.fixture(autouse=True)
def bounded():
    """A hang fails the test (SIGALRM) instead of stalling the run."""
    def ring(signum, frame):
        raise TimeoutError(f"hung for {HANG} s")

    old = signal.signal(signal.SIGALRM, ring)
    signal.alarm(HANG)
    yield
    signal.alarm(0)
    signal.signal(signal.SIGALRM, old)
    assert multiprocessing.active_children() == []


def uneven(chunk: int) -> tuple[int, int]:
    time.sleep(0.05 if chunk % 7 == 0 else 0.001)
    return chunk * chunk, os.getpid()


def test_uneven_chunks_come_back_in_order_and_every_worker_takes_some():
    out = list(ordered_map(uneven, range(80), 3))
    assert [r for r, _ in out] == [c * c for c in range(80)]
    assert len({pid for _, pid in out}) == 3
    assert_no_children({pid for _, pid in out})


def test_never_more_workers_than_chunks():
    out = list(ordered_map(where, range(3), 8))
    assert [c for c, _ in out] == [0, 1, 2]
    assert 1 <= len({pid for _, pid in out}) <= 3


def failing(chunk: int) -> int:
    if chunk == 5:
        raise RecordError("record 5 is not a hand", rule="hand-format")
    if chunk == 6:
        raise ValueError("six")
    return chunk


def test_an_exception_in_a_worker_is_raised_as_itself_after_the_results_before_it():
    got = []
    with pytest.raises(RecordError) as caught:
        for r in ordered_map(failing, range(20), 2):
            got.append(r)
    assert got == [0, 1, 2, 3, 4]
    assert type(caught.value) is RecordError and caught.value.message == "record 5 is not a hand"
    assert caught.value.rule == "hand-format" and caught.value.exit_code == 1
    assert "failing" in str(caught.value.__cause__)  # the worker's traceback, for GINCLI_DEBUG
    with pytest.raises(ValueError, match="^six$"):
        list(ordered_map(failing, range(6, 20), 2))


HERE = os.getpid()  # the process that runs the tests (a forked worker has another pid)


def somewhere(chunk: int) -> tuple[int, int]:
    time.sleep(0.003)
    return chunk, os.getpid()


@pytest.mark.parametrize("workers", [2, 3])
def test_a_helped_map_works_here_too_beside_one_worker_fewer(workers):
    """With ``helps``, this process takes chunks too, while its workers have two
    each in hand: N processes at work on N "workers", this one and N - 1
    started; the results in order."""
    out = list(ordered_map(somewhere, range(80), workers, helps=True))
    assert [c for c, _ in out] == list(range(80))
    pids = [pid for _, pid in out]
    assert len(set(pids)) == workers and HERE in pids
    assert 0 < pids.count(HERE) < 80
    assert_no_children(set(pids) - {HERE})


def fails_here(chunk: int) -> int:
    if os.getpid() == HERE and chunk >= 10:
        raise RecordError(f"chunk {chunk} failed here", rule="hand-format")
    time.sleep(0.003)
    return chunk


def test_an_exception_in_a_chunk_handled_here_comes_in_its_place_as_itself():
    """A chunk this process takes (``helps``) that raises: the results before
    it first, then the exception itself (no worker's traceback behind it)."""
    got = []
    with pytest.raises(RecordError) as caught:
        for r in ordered_map(fails_here, range(200), 2, helps=True):
            got.append(r)
    assert got and got == list(range(len(got))) and len(got) >= 10
    assert caught.value.message == f"chunk {len(got)} failed here" and caught.value.__cause__ is None


class Unpicklable(Exception):
    def __init__(self, what: str, extra: int):  # pickles, but cannot be rebuilt from its args
        super().__init__(what)


def unpicklable(chunk: int) -> int:
    if chunk == 3:
        raise Unpicklable("odd one", 1)
    return chunk


def test_an_exception_that_cannot_cross_is_its_type_and_message():
    with pytest.raises(WorkerException, match="Unpicklable: odd one"):
        list(ordered_map(unpicklable, range(10), 2))


def chunks_then_a_failure():
    yield from range(6)
    raise GinError("the input is cut short")


def test_an_exception_of_the_chunks_comes_after_the_results_before_it():
    got = []
    with pytest.raises(GinError, match="cut short"):
        for r in ordered_map(where, chunks_then_a_failure(), 2):
            got.append(r[0])
    assert got == list(range(6))


def dies(chunk: int) -> tuple[int, int]:
    if chunk == 9:
        os.kill(os.getpid(), signal.SIGKILL)  # as the out-of-memory killer does
    time.sleep(0.005)
    return chunk, os.getpid()


def test_a_worker_killed_mid_run_is_one_sentence_not_a_hang():
    got = []
    with pytest.raises(WorkerError) as caught:
        for r in ordered_map(dies, range(40), 2):
            got.append(r)
    assert [c for c, _ in got] == list(range(9))  # the results before it
    message = caught.value.message
    assert "worker process" in message and "died" in message and "signal 9" in message, message
    assert isinstance(caught.value, GinError) and caught.value.exit_code == 2
    assert_no_children({pid for _, pid in got})


def exits(chunk: int) -> int:
    if chunk == 4:
        os._exit(7)
    return chunk


def test_a_worker_that_exits_is_said_with_its_status():
    with pytest.raises(WorkerError, match="exited with status 7"):
        list(ordered_map(exits, range(10), 2))


def slow(chunk: int) -> tuple[int, int]:
    time.sleep(0.02)
    return chunk, os.getpid()


def test_closing_the_generator_early_leaves_no_process():
    results = ordered_map(slow, range(10_000), 2)
    got = [next(results) for _ in range(5)]
    results.close()
    assert [c for c, _ in got] == list(range(5))
    assert_no_children({pid for _, pid in got})


def stubborn(chunk: int) -> tuple[int, int]:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # a worker SIGTERM cannot end: SIGKILL must
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
    if chunk > 2:
        time.sleep(3600)
    return chunk, os.getpid()


def test_a_worker_that_ignores_sigterm_is_killed():
    results = ordered_map(stubborn, range(100), 2)
    got = [next(results) for _ in range(2)]
    results.close()
    assert_no_children({pid for _, pid in got})


def interrupted():
    yield from range(8)
    raise KeyboardInterrupt


def test_ctrl_c_in_the_parent_ends_the_workers():
    got = []
    with pytest.raises(KeyboardInterrupt):
        for r in ordered_map(slow, interrupted(), 2):
            got.append(r)
    assert_no_children({pid for _, pid in got})


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="the fork start method")
def test_a_ctrl_c_while_a_worker_starts_leaves_no_process(monkeypatch):
    forked = multiprocessing.get_context("fork").Process
    real = forked.start
    started = []

    def start(self):
        real(self)
        started.append(self.pid)
        os.kill(os.getpid(), signal.SIGINT)  # held until the worker is known to the pool

    monkeypatch.setattr(forked, "start", start)
    handler = signal.getsignal(signal.SIGINT)
    for _ in range(10):  # the signal may go to any thread of this process: the test runner's too
        started.clear()
        with pytest.raises(KeyboardInterrupt):
            list(ordered_map(slow, range(10), 2))
        assert started
        assert_no_children(started)
        # and this process is left as it was: SIGINT neither blocked nor handled otherwise
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])
        assert signal.getsignal(signal.SIGINT) is handler


MIB = 1 << 20


def big(chunk: bytes) -> tuple[str, bytes]:
    return hashlib.sha256(chunk).hexdigest(), chunk * 2  # a result twice the chunk


def test_big_chunks_and_big_results_do_not_deadlock():
    chunks = [bytes([i]) * (3 * MIB + i) for i in range(8)]  # bigger than any pipe holds
    out = list(ordered_map(big, chunks, 2))
    assert [h for h, _ in out] == [hashlib.sha256(c).hexdigest() for c in chunks]
    assert all(r == c * 2 for (_, r), c in zip(out, chunks, strict=True))


def from_setup(chunk: int) -> tuple[int, str, int]:
    return chunk, pool.worker_state()["name"], os.getpid()


def make_state() -> dict:
    return {"name": "built by setup"}


def test_spawned_workers_build_their_state_with_setup(monkeypatch):
    monkeypatch.setattr(pool, "START_METHOD", "spawn")
    # This module is tests.test_pool (importlib mode): a spawned worker imports it from the project.
    monkeypatch.syspath_prepend(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    out = list(ordered_map(from_setup, range(6), 2, setup=make_state))
    assert [c for c, _, _ in out] == list(range(6))
    assert {name for _, name, _ in out} == {"built by setup"}
    assert os.getpid() not in {pid for _, _, pid in out}


def test_forked_workers_inherit_the_state():
    out = list(ordered_map(from_setup, range(6), 2, state={"name": "inherited"}))
    assert {name for _, name, _ in out} == {"inherited"}


def test_maps_read_in_turn_in_one_process_each_see_their_own_state():
    a = ordered_map(from_setup, range(3), 1, state={"name": "a"})
    b = ordered_map(from_setup, range(3), 1, state={"name": "b"})
    assert [next(a)[:2], next(b)[:2], next(a)[:2], next(b)[:2]] == [(0, "a"), (0, "b"), (1, "a"), (1, "b")]
    # Workers forked once another map of this process has run inherit their own map's state.
    forked = list(ordered_map(from_setup, range(6), 2, state={"name": "forked"}))
    assert {name for _, name, _ in forked} == {"forked"} and os.getpid() not in {pid for _, _, pid in forked}
    assert next(a)[:2] == (2, "a")


def test_with_one_worker_a_chunk_is_taken_only_when_its_turn_comes():
    taken = []

    def chunks():
        for n in range(3):
            taken.append(n)
            yield n

    out = ordered_map(from_setup, chunks(), 1, state={"name": "lazy"})
    assert next(out)[0] == 0 and taken == [0]
    assert next(out)[0] == 1 and taken == [0, 1]


# stream=True: a chunk's work is a generator, each item comes out as soon as it and all before it are made.

def items(chunk: tuple[int, int]) -> object:
    start, n = chunk
    for i in range(start, start + n):
        time.sleep(0.002 if i % 5 else 0.02)
        yield i, os.getpid()


@pytest.mark.parametrize("workers", [1, 2, 3])
def test_streamed_items_come_in_order_in_lists_of_those_ready(workers):
    chunks = [(start, 1 + start % 4) for start in range(0, 100, 5)]
    out = list(ordered_map(items, chunks, workers, stream=True))
    assert all(isinstance(ready, list) and ready for ready in out)
    flat = [i for ready in out for i, _ in ready]
    assert flat == [i for start, n in chunks for i in range(start, start + n)]
    if workers == 1:
        assert all(len(ready) == 1 for ready in out)  # in this process: each item as it is made
        assert {pid for ready in out for _, pid in ready} == {os.getpid()}
    else:
        assert os.getpid() not in {pid for ready in out for _, pid in ready}
        assert_no_children({pid for ready in out for _, pid in ready})


def waits_for_its_reader(chunk: tuple[str, int]) -> object:
    """Yields one item, then waits until the reader has it (a file the test makes) before the next."""
    folder, number = chunk
    yield number, "first"
    flag = os.path.join(folder, f"got-{number}")
    deadline = time.monotonic() + HANG / 3
    while not os.path.exists(flag) and time.monotonic() < deadline:
        time.sleep(0.005)
    yield number, "second" if os.path.exists(flag) else "only once the chunk was done"


@pytest.mark.parametrize("workers", [1, 2])
def test_a_streamed_item_comes_out_before_its_chunk_is_done(tmp_path, workers):
    got = []
    for ready in ordered_map(waits_for_its_reader, [(str(tmp_path), n) for n in range(4)], workers, stream=True):
        for number, what in ready:
            got.append((number, what))
            if what == "first":
                (tmp_path / f"got-{number}").touch()
    assert got == [(n, w) for n in range(4) for w in ("first", "second")]


def fails_midway(chunk: int) -> object:
    for i in range(chunk * 3, chunk * 3 + 3):
        if i == 13:
            raise RecordError("item 13 is not a hand", rule="hand-format")
        yield i


@pytest.mark.parametrize("workers", [1, 2])
def test_a_streamed_chunk_that_raises_midway_gives_its_items_before_first(workers):
    got = []
    with pytest.raises(RecordError, match="^item 13 is not a hand$"):
        for ready in ordered_map(fails_midway, range(10), workers, stream=True):
            got.extend(ready)
    assert got == list(range(13))


def dies_midway(chunk: int) -> object:
    for i in range(chunk * 3, chunk * 3 + 3):
        if i == 16:
            # An item may wait to be written, until the next one comes or the worker's watcher
            # looks (every pool.WATCH_EVERY): the items made that long before the death are sent.
            time.sleep(3 * pool.WATCH_EVERY)
            os.kill(os.getpid(), signal.SIGKILL)
        time.sleep(0.002)
        yield i, os.getpid()


def test_a_worker_killed_midway_through_a_streamed_chunk_is_one_sentence_after_its_items():
    got = []
    with pytest.raises(WorkerError, match="signal 9"):
        for ready in ordered_map(dies_midway, range(20), 2, stream=True):
            got.extend(ready)
    assert [i for i, _ in got] == list(range(16))
    assert_no_children({pid for _, pid in got})


def unpicklable_at_7(chunk: int) -> object:
    for i in range(chunk * 3, chunk * 3 + 3):
        yield (lambda: None) if i == 7 else i


def test_a_streamed_item_that_does_not_pickle_ends_its_chunk_after_the_items_before_it():
    """Items are pickled together, several to a message: one that does not pickle is still the
    end of its chunk where it stands, after every item before it and none after (in gin's own
    process, one worker, nothing is pickled)."""
    got = []
    with pytest.raises(Exception, match="pickle"):
        for ready in ordered_map(unpicklable_at_7, range(10), 2, stream=True):
            got.extend(ready)
    assert got == list(range(7))


def made_quickly(chunk: int) -> object:
    for i in range(chunk * 200, chunk * 200 + 200):
        yield i, os.getpid()


def test_items_made_close_together_share_a_message_and_come_in_order(monkeypatch):
    """A worker writes the items it makes within pool.GATHER of its last write together: the
    first at once, the rest in one message with the chunk's end after them (here GATHER is an
    hour: they all come within it), every item once, in order."""
    monkeypatch.setattr(pool, "GATHER", 3600.0)
    read, write = os.pipe()
    batches = pool._Batches(write)
    for i in range(2000):
        assert batches.add(i)
    assert batches.end(pickle.dumps((True, None)))
    os.close(write)
    messages, items = 0, []
    with os.fdopen(read, "rb") as fh:
        while head := fh.read(pool._HEADER):
            size = int.from_bytes(head, "big")
            body = fh.read(size & (pool._PART - 1))
            if size & pool._PART:
                messages += 1
                items.extend(pickle.loads(body))
            else:
                assert pickle.loads(body) == (True, None)
                assert items == list(range(2000))  # the end after every item
    assert items == list(range(2000))
    assert messages == 2


def test_an_item_that_waits_is_written_by_the_watcher_once_it_is_late(monkeypatch):
    """An item made within pool.GATHER of the last write waits (for the next one, or the
    worker's watcher thread); the watcher's call writes it once it has waited that long, and
    not before (a slow session after a quick one)."""
    read, write = os.pipe()
    monkeypatch.setattr(pool, "GATHER", 3600.0)
    batches = pool._Batches(write)
    assert batches.add("first")  # nothing was written before: at once
    assert batches.add("second")  # the last write was just now: it waits
    os.set_blocking(read, False)

    def messages() -> list:
        got = []
        try:
            while head := os.read(read, pool._HEADER):
                got.extend(pickle.loads(os.read(read, int.from_bytes(head, "big") & (pool._PART - 1))))
        except BlockingIOError:
            pass
        return got

    assert messages() == ["first"]
    batches.late()
    assert messages() == []  # not late yet
    monkeypatch.setattr(pool, "GATHER", 0.0)
    batches.late()
    assert messages() == ["second"]
    os.close(read)
    os.close(write)


def endless(chunk: int) -> object:
    while True:
        time.sleep(0.01)
        yield chunk, os.getpid()


def test_closing_a_stream_early_leaves_no_process():
    results = ordered_map(endless, range(100), 2, stream=True)
    got = next(results) + next(results)
    results.close()
    assert {c for c, _ in got} == {0}
    assert_no_children({pid for _, pid in got})


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 3000), st.integers(1, 300), st.integers(0, 8))
def test_chunks_keep_every_item_in_order_and_shrink_at_both_ends(n, size, ramp):
    """chunked(): every item once, in order, no list over ``size``; with
    ``ramp`` (the workers), the first lists an eighth, a quarter and a half of
    ``size``, and over a sequence the last ones no more than the items left over
    twice ``ramp``, so that no worker is left alone with a whole chunk; over an
    iterator (its length unknown) the lists keep their size to the end."""
    from gincli.base.pool import chunked

    lists = list(chunked(range(n), size, ramp))
    assert [i for c in lists for i in c] == list(range(n)) and all(0 < len(c) <= size for c in lists)
    left = n
    for k, c in enumerate(lists):
        ramped = [max(1, size // d) for d in (8, 4, 2) for _ in range(ramp)]
        cap = min(ramped[k] if k < len(ramped) else size, max(1, -(-left // (2 * ramp)))) if ramp else size
        assert len(c) == min(cap, left), (k, lists)
        left -= len(c)
    plain = [len(c) for c in chunked(iter(range(n)), size)]
    assert plain == [size] * (n // size) + ([n % size] if n % size else [])


def buffered(chunk: int) -> tuple[int, pickle.PickleBuffer, list[pickle.PickleBuffer], bytes]:
    """Buffers of any size in a result, beside other values, as ``gin score``'s workers send their output."""
    return (chunk, pickle.PickleBuffer(bytes([chunk % 256]) * (chunk * 40_000)),
            [pickle.PickleBuffer(bytearray(b"ab" * chunk)), pickle.PickleBuffer(b"")], b"in band %d" % chunk)


def test_buffers_in_a_result_arrive_whole_and_in_order_as_views_of_the_message():
    """A ``pickle.PickleBuffer`` in a chunk's result is written after the rest
    of it, never copied into its pickle, and comes back as a view of the
    message, the same bytes; many, big (past a pipe's size) or empty."""
    got = list(ordered_map(buffered, range(12), workers=3))
    assert [g[0] for g in got] == list(range(12))
    for chunk, big, small, plain in got:
        assert isinstance(big, memoryview) and bytes(big) == bytes([chunk % 256]) * (chunk * 40_000)
        assert [bytes(b) for b in small] == [b"ab" * chunk, b""] and plain == b"in band %d" % chunk
    here = list(ordered_map(buffered, range(3), workers=1))  # in this process: the buffers as made
    assert [bytes(h[1]) for h in here] == [bytes(g[1]) for g in got[:3]]
