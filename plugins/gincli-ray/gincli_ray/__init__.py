"""gincli-ray: ``gin match --backend ray`` plays a match's sessions on a Ray
cluster (docs/distributed.md in gincli's repository).

Each chunk of sessions is one Ray task; the driver (``gin match``) keeps at
most twice as many in flight as there are CPUs to run them, and takes the
results in the order of the chunks, so it writes the transcripts, counts and
stops (``--sprt``) exactly as the local backend does: the results are byte for
byte the same. A task whose worker dies is run again (``max_retries``);
sessions are seeded one by one, so a retried chunk plays the very same
sessions, and only the one result the driver gets is counted.

``ray`` is imported only when the backend starts: loading the plugin costs
``gin`` nothing.
"""

from __future__ import annotations

import dataclasses
import logging
import os
import socket
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any

from gincli import BackendError, MatchBackend, MatchWork, hookimpl
from gincli.backends import ChunkFault
from gincli.errors import clip, quote
from gincli.parallel import default_workers

#: Times a chunk is run again when the worker (or node) running it dies.
MAX_RETRIES = 3
#: Seconds to wait for a cluster's head to answer before saying it cannot be reached.
CONNECT_TIMEOUT = 10.0
#: The hint a chunk that failed on a node carries (a bot's command or a plugin missing there).
NODE_HINT = "every node needs gincli, the plugins and the bots' commands (docs/distributed.md)"


def play_chunk(work: MatchWork, indices: list[int]) -> Any:
    """A Ray task: play a chunk of sessions (its process is ``ray::play_chunk``).
    A Ray worker outlives the match, so the external bots it started are
    closed after every chunk: none is left running on a node."""
    from gincli.external import close_all

    try:
        return work(indices)
    finally:
        close_all()


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
        task = ray.remote(num_cpus=1, max_retries=self.retries, retry_exceptions=False)(play_chunk)
        shared = ray.put(work)
        pending: deque[tuple[Any, list[int]]] = deque()
        limit = 2 * self.workers
        try:
            for chunk in chunks:
                pending.append((task.remote(shared, chunk), chunk))
                if len(pending) >= limit:
                    yield self._get(*pending.popleft())
            while pending:
                yield self._get(*pending.popleft())
        finally:
            for ref, _ in pending:  # --sprt decided, Ctrl-C: what is still queued or running is not wanted
                try:
                    ray.cancel(ref)
                except Exception:
                    pass

    def _get(self, ref: Any, chunk: list[int]) -> Any:
        import ray
        from ray.exceptions import RayError

        try:
            got = ray.get(ref)
        except RayError as exc:
            lines = [line.strip() for line in str(exc).splitlines() if line.strip()]
            text = lines[-1] if lines else type(exc).__name__
            text = clip(text, 160)
            raise BackendError(f"Ray could not play sessions {chunk[0]} to {chunk[-1]} (tried "
                               f"{1 + self.retries} times at most): {type(exc).__name__}: {text}") from None
        if isinstance(got, ChunkFault):
            return dataclasses.replace(got, message=f"{got.message} (on the Ray node {got.host}: {NODE_HINT})",
                                       host="")
        return got

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
