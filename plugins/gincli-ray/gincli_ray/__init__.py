"""gincli-ray: ``gin match --backend ray`` plays a match's sessions on a Ray
cluster (docs/distributed.md in gincli's repository).

Each chunk of sessions is one Ray task, a streaming generator: its sessions
are played one after another (in a thread of the task) and each outcome is
sent to the driver as the session ends; sessions that end in quick succession
travel together, at most a hundredth of a second times the match's CPUs
apart (a Ray object costs the driver about a third of a millisecond), never
waiting for the next session to end. The driver (``gin match``) keeps at most twice as many tasks
in flight as there are CPUs to run them and takes the outcomes in session
order, each as soon as it and every one before it are in, so it writes the
transcripts, counts and stops (``--sprt``) exactly as the local backend does:
the results are byte for byte the same. When the worker (or node) running a
task dies, the driver starts a task again (``max_retries``) for the sessions
of that chunk it has not had (Ray's own retry would play the whole chunk
again, and its outcomes travel in lists that differ from one run to the next);
sessions are seeded one by one, so they are the very same sessions: nothing is
lost or counted twice.

``ray`` is imported only when the backend starts: loading the plugin costs
``gin`` nothing.
"""

from __future__ import annotations

import dataclasses
import os
import queue
import threading
import time
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any

from gincli import BackendError, MatchBackend, MatchWork, hookimpl
from gincli.base.errors import clip, quote
from gincli.base.pool import default_workers
from gincli.matches.backends import ChunkFault

#: Times a chunk (what is left of it) is run again when the worker (or node) running it dies.
MAX_RETRIES = 3
#: Seconds to wait for a cluster's head to answer before saying it cannot be reached.
CONNECT_TIMEOUT = 10.0
#: The hint a chunk that failed on a node carries (a bot's command or a plugin missing there).
NODE_HINT = "every node needs gincli, the plugins and the bots' commands (docs/distributed.md)"
#: A Ray object costs the driver about a third of a millisecond: a task sends the outcomes of sessions
#: that end in quick succession together, at most once in this many seconds for each CPU of the match
#: (a hundred objects a second in all, whatever the cluster's size). A session that ends after a quieter
#: spell is sent at once.
SEND_EVERY = 0.01  # seconds, times the CPUs
#: How often a task waiting for its next outcome looks whether it is cancelled.
LOOK_EVERY = 0.1  # seconds


class _Raised:
    """An exception of the sessions' thread, to raise in the task's (``GINCLI_DEBUG``)."""

    def __init__(self, exc: BaseException):
        self.exc = exc


_DONE = object()


def play_chunk(work: MatchWork, indices: list[int], every: float = 0.0) -> Iterator[list[Any]]:
    """A Ray task: play a chunk of sessions (its process is ``ray::play_chunk``),
    yielding lists of their outcomes (a streaming generator): a session's
    outcome as soon as it ends, or, if the last list went less than ``every``
    seconds ago, with the others that end until then (the sessions are played
    in a thread of their own, so that a list waits for no session's end). A Ray
    worker outlives the match, so the external bots it started are closed after
    every chunk: none is left running on a node."""
    from gincli.matches.external import close_all

    try:
        work.registry()  # in the main thread, where a plugin's import has a time limit (an alarm)
    except Exception:
        pass  # said by work.stream, as a fault of the chunk
    ended: queue.SimpleQueue[Any] = queue.SimpleQueue()
    stop = threading.Event()

    def play() -> None:
        try:
            for outcome in work.stream(indices):
                ended.put(outcome)
                if stop.is_set():
                    return
        except BaseException as exc:  # GINCLI_DEBUG's exceptions, or the task's end (KeyboardInterrupt)
            ended.put(_Raised(exc))
        finally:
            ended.put(_DONE)

    player = threading.Thread(target=play, name="gincli-ray-sessions", daemon=True)
    player.start()
    try:
        batch: list[Any] = []
        sent = float("-inf")
        while True:
            now = time.monotonic()
            if batch and now - sent >= every:
                yield batch
                batch = []
                sent = time.monotonic()
                continue
            try:  # a cancelled task is told between waits
                item = ended.get(timeout=min(LOOK_EVERY, sent + every - now) if batch else LOOK_EVERY)
            except queue.Empty:
                continue
            if item is _DONE:
                break
            if isinstance(item, _Raised):
                if batch:
                    yield batch
                raise item.exc
            batch.append(item)
        if batch:
            yield batch
    finally:
        stop.set()
        if player.is_alive():  # cancelled (--sprt decided, Ctrl-C): the session being played stops too
            _interrupt(player)
            player.join(LOOK_EVERY * 20)
        close_all()


def _interrupt(thread: threading.Thread) -> None:
    """Raise KeyboardInterrupt in ``thread`` (at its next Python instruction)."""
    import ctypes

    if thread.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(KeyboardInterrupt))


class RayBackend(MatchBackend):
    name = "ray"
    description = ("The nodes of a Ray cluster (--address, or RAY_ADDRESS), else a local Ray instance with "
                   "--workers CPUs; a chunk whose worker dies is played again.")
    options = {
        "address": "the cluster to connect to (--address): HOST:PORT of its head, or auto for the one ray start "
                   "started on this machine; default RAY_ADDRESS, else a local instance started for the match",
        "max_retries": f"how many times a chunk is played again when its worker dies ({MAX_RETRIES})",
        "working_dir": "a folder Ray ships to every node, where the tasks run (a runtime environment's "
                       "working_dir): exec: bots and the relative paths of the match are found there",
    }

    def __init__(self) -> None:
        self.workers = 1
        self.retries = MAX_RETRIES
        self.working_dir: str | None = None
        self._connected = False  # by start(): stop() lets go

    def start(self, options: Mapping[str, str], workers: int | None) -> int:
        retries = options.get("max_retries", str(MAX_RETRIES))
        if not retries.isdigit():
            raise ValueError(f"max_retries must be a whole number, 0 or more, not {quote(retries)}")
        self.retries = int(retries)
        self.working_dir = options.get("working_dir") or None
        if self.working_dir is not None:
            if not os.path.isdir(self.working_dir):
                raise ValueError(f"working_dir must be a folder, and {quote(self.working_dir)} is not one")
            self.working_dir = os.path.abspath(self.working_dir)
        try:
            import ray
        except ImportError as exc:
            raise BackendError(f"the backend ray needs the ray package, which cannot be imported ({exc}): "
                               "pip install ./plugins/gincli-ray installs it") from None
        address = options.get("address") or os.environ.get("RAY_ADDRESS") or None
        quiet_driver()
        if not ray.is_initialized():  # else this process is a Ray driver already (a script, a test): use it
            if address is not None:
                reachable(address)
                token_auth()
            import logging

            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                      "logging_level": logging.ERROR}
            if self.working_dir is not None:
                kwargs["runtime_env"] = {"working_dir": self.working_dir}
            try:
                if address is None:
                    ray.init(address="local", num_cpus=workers or default_workers(), **kwargs)
                else:
                    ray.init(address=address, **kwargs)
            except Exception as exc:  # ray raises ConnectionError, RuntimeError, ValueError... each one sentence here
                text = " ".join(str(exc).split()) or type(exc).__name__
                text = clip(text, 160)
                where = f"the Ray cluster at {address}" if address else "a local Ray instance"
                raise BackendError(f"cannot {'reach' if address else 'start'} {where}: {text}") from None
            self._connected = True
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if cpus < 1:
            self.stop()
            raise BackendError("the Ray cluster has no CPU to run sessions on")
        # --workers with a cluster: at most that many chunks at once (a share of a cluster one has in common)
        self.workers = min(workers, cpus) if workers else cpus
        return self.workers

    def chunk_size(self, unit: str, remaining: int, workers: int) -> int:
        # A task costs about a millisecond of scheduling and a round trip: chunks of a few
        # hundred hands keep that below 1% of the work, and eight chunks a CPU still
        # balance the load (and stop soon after --sprt decides).
        most = 250 if unit == "hands" else 16
        return max(1, min(most, remaining // (8 * workers) or 1))

    def map(self, work: MatchWork, chunks: Iterator[list[int]]) -> Iterator[Any]:
        import ray

        if self.working_dir is not None:
            work = dataclasses.replace(work, cwd="")  # the tasks run in the folder shipped
        # Retried here, not by Ray: what is left of the chunk (see the module's docstring).
        options: dict[str, Any] = {"num_cpus": 1, "max_retries": 0, "retry_exceptions": False,
                                   "num_returns": "streaming"}
        task = ray.remote(**options)(play_chunk)
        shared = ray.put(work)
        every = SEND_EVERY * self.workers
        pending: deque[list[Any]] = deque()  # [the task's outcomes (a stream), its sessions, times run]
        limit = 2 * self.workers
        try:
            for chunk in chunks:
                pending.append([task.remote(shared, chunk, every), chunk, 1])
                if len(pending) >= limit:
                    yield from self._outcomes(pending[0], task, shared, every)
                    pending.popleft()
            while pending:
                yield from self._outcomes(pending[0], task, shared, every)
                pending.popleft()
        finally:
            for stream, _, _ in pending:  # --sprt decided, Ctrl-C: what is still queued or running is not wanted
                try:
                    ray.cancel(stream)
                except Exception:
                    pass

    def _outcomes(self, running: list[Any], task: Any, shared: Any, every: float) -> Iterator[Any]:
        """A chunk's outcomes, each list as soon as its task yields it, or its
        fault. ``running`` is the task's stream, its sessions and how many times
        they were started: a worker or node that died starts the sessions not
        had yet again, as many times as ``max_retries`` allows; then (or any
        other failure) it is one sentence, after the sessions played."""
        import ray
        from ray.exceptions import NodeDiedError, ObjectLostError, OutOfMemoryError, RayError, WorkerCrashedError

        stream, chunk, runs = running
        got = 0
        while got < len(chunk):
            try:
                ready = ray.get(next(stream))  # waits for the next
            except StopIteration:  # never before the chunk's last session, or its fault
                return
            except RayError as exc:
                if isinstance(exc, (WorkerCrashedError, NodeDiedError, ObjectLostError, OutOfMemoryError)) \
                        and runs <= self.retries:
                    chunk = chunk[got:]
                    got = 0
                    runs += 1
                    stream = task.remote(shared, chunk, every)
                    running[:] = [stream, chunk, runs]
                    continue
                lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
                text = clip(lines[-1] if lines else type(exc).__name__, 160)
                raise BackendError(f"Ray could not play sessions {chunk[got]} to {chunk[-1]} (tried "
                                   f"{1 + self.retries} times at most): {type(exc).__name__}: {text}") from None
            for n, item in enumerate(ready):
                if isinstance(item, ChunkFault):  # the sessions before it first, then the fault ends the match
                    if n:
                        yield ready[:n]
                    yield dataclasses.replace(item, message=f"{item.message} (on the Ray node {item.host}: "
                                                            f"{NODE_HINT})", host="")
                    return
            got += len(ready)
            yield ready

    def stop(self) -> None:
        if self._connected:
            import ray

            self._connected = False
            ray.shutdown()


def reachable(address: str) -> None:
    """A cluster's head answers at ``address`` (HOST:PORT, ``ray://HOST:PORT``),
    or one sentence: ray itself would retry for minutes, printing as it goes."""
    if address == "auto" or ":" not in address:
        return
    host, _, port = address.removeprefix("ray://").rpartition(":")
    if not port.isdigit():
        raise BackendError(f"--address takes HOST:PORT (the head of a Ray cluster) or auto, not {quote(address)}")
    import socket

    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        why = exc.strerror or str(exc) or type(exc).__name__
        raise BackendError(f"cannot reach the Ray cluster at {address}: {why} (is ray start --head running "
                           "there, and the port open?)") from None


def quiet_driver() -> None:
    """Keep standard output for gin match's data. Ray's driver prints the
    cluster's error messages (a worker that died, its task retried) on standard
    output: they go to standard error. Ray has no setting for it, so its
    printing function is wrapped (where this Ray version has it; the tests
    check stdout). Tasks cancelled once --sprt decides are not errors to report."""
    os.environ.setdefault("RAY_IGNORE_UNHANDLED_ERRORS", "1")
    try:
        from ray._private import worker as driver
    except ImportError:
        return
    original = getattr(driver, "print_to_stdstream", None)
    if original is None or getattr(original, "to_stderr", False):
        return

    def to_stderr(data: dict[str, Any], ignore_prefix: bool) -> Any:
        return original(dict(data, is_err=True), ignore_prefix)

    to_stderr.to_stderr = True  # type: ignore[attr-defined]
    driver.print_to_stdstream = to_stderr


def token_auth() -> None:
    """Send this machine's Ray token when there is one. ``ray start --head``
    turns token authentication on by default, while a driver connecting to the
    cluster sends its token only under RAY_AUTH_MODE=token (without it, ray
    retries for a minute, printing as it goes); a cluster without
    authentication lets the token be. An explicit RAY_AUTH_MODE is kept."""
    if os.environ.get("RAY_AUTH_MODE"):
        return
    path = os.environ.get("RAY_AUTH_TOKEN_PATH") or os.path.join(os.path.expanduser("~"), ".ray", "auth_token")
    if os.environ.get("RAY_AUTH_TOKEN") or os.path.isfile(path):
        os.environ["RAY_AUTH_MODE"] = "token"


@hookimpl
def gincli_register_match_backends(register):
    register(RayBackend())
