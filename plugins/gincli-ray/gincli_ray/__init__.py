"""gincli-ray: ``gin match --backend ray`` plays a match's sessions on a Ray
cluster (docs/distributed.md).

Each chunk of sessions is one Ray task; the driver (``gin match``) keeps at most
twice as many in flight as there are CPUs to run them, and takes the results
in the order of the chunks, so it writes the transcripts, counts and stops
(``--sprt``) exactly as the local backend does: the results are byte for byte
the same. A task whose worker dies is run again (``max_retries``); sessions
are seeded one by one, so a retried chunk plays the very same sessions and
only its one result is counted.

``ray`` is imported only when the backend starts: loading the plugin costs
``gin`` nothing.
"""

from __future__ import annotations

import logging
import os
from collections import deque
from collections.abc import Iterator, Mapping
from typing import Any

from gincli import BackendError, MatchBackend, MatchWork, hookimpl
from gincli.errors import quote

#: Times a chunk is run again when the worker (or node) running it dies.
MAX_RETRIES = 3


def play_chunk(work: MatchWork, indices: list[int]) -> Any:
    """A Ray task: play a chunk of sessions (its process title is ray::play_chunk)."""
    return work(indices)


class RayBackend(MatchBackend):
    name = "ray"
    description = ("The nodes of a Ray cluster: address=HOST:PORT (or RAY_ADDRESS), else a local Ray instance "
                   "with --workers CPUs; a chunk whose worker dies is played again.")
    options = {
        "address": "the cluster to connect to: HOST:PORT of its head, or auto for the one ray start started "
                   "here (default: RAY_ADDRESS, else a local instance started for the match)",
        "max_retries": f"how many times a chunk is played again when its worker dies ({MAX_RETRIES})",
        "working_dir": "a folder Ray ships to every node, where the tasks run (runtime_env working_dir): "
                       "exec: bots and relative paths are found there",
    }

    def __init__(self) -> None:
        self.workers = 1
        self.retries = MAX_RETRIES
        self.working_dir: str | None = None
        self._connected = False  # by start(): stop() lets go

    def start(self, options: Mapping[str, str], workers: int | None) -> int:
        retries = options.get("max_retries", str(MAX_RETRIES))
        if not retries.isdigit():
            raise ValueError(f"max_retries must be a whole number >= 0, not {quote(retries)}")
        self.retries = int(retries)
        self.working_dir = options.get("working_dir") or None
        if self.working_dir is not None and not os.path.isdir(self.working_dir):
            raise ValueError(f"working_dir must be a folder, and {quote(self.working_dir)} is not one")
        try:
            import ray
        except ImportError as exc:
            raise BackendError(f"the backend ray needs the ray package, which cannot be imported ({exc}): "
                               "pip install ./plugins/gincli-ray installs it") from None
        address = options.get("address") or os.environ.get("RAY_ADDRESS") or None
        if not ray.is_initialized():  # else: this process is a Ray driver already (a script, a test): use it
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False,
                                      "logging_level": logging.ERROR}
            if self.working_dir is not None:
                kwargs["runtime_env"] = {"working_dir": self.working_dir}
            try:
                if address is None:
                    ray.init(address="local", num_cpus=workers or os.cpu_count() or 1, **kwargs)
                else:
                    ray.init(address=address, **kwargs)
            except (ConnectionError, RuntimeError, ValueError, TimeoutError) as exc:
                text = " ".join(str(exc).split())
                text = text if len(text) <= 160 else text[:160] + "…"
                where = f"the Ray cluster at {address}" if address else "a local Ray instance"
                raise BackendError(f"cannot {'reach' if address else 'start'} {where}: {text}") from None
            self._connected = True
        cpus = int(ray.cluster_resources().get("CPU", 0))
        if cpus < 1:
            self.stop()
            raise BackendError("the Ray cluster has no CPU to run sessions on")
        self.workers = min(workers, cpus) if workers and address else cpus
        return self.workers

    def chunk_size(self, unit: str, remaining: int, workers: int) -> int:
        # A task costs about a millisecond: chunks of a few hundred hands keep that
        # below 1%, and four chunks a worker still balance the load.
        most = 256 if unit == "hands" else 16
        return max(1, min(most, remaining // (4 * workers) or 1))

    def map(self, work: MatchWork, chunks: Iterator[list[int]]) -> Iterator[Any]:
        import dataclasses

        import ray

        if self.working_dir is not None:
            work = dataclasses.replace(work, cwd="")  # the tasks run in the shipped folder
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
            for ref, _ in pending:  # --sprt decided, Ctrl-C: what is still running is not wanted
                try:
                    ray.cancel(ref, force=True)
                except Exception:
                    pass

    def _get(self, ref: Any, chunk: list[int]) -> Any:
        import ray
        from ray.exceptions import RayError

        try:
            return ray.get(ref)
        except RayError as exc:
            lines = [line for line in str(exc).splitlines() if line.strip()]
            text = lines[0] if lines else type(exc).__name__
            text = text if len(text) <= 160 else text[:160] + "…"
            raise BackendError(f"Ray could not play sessions {chunk[0]} to {chunk[-1]} (after up to "
                               f"{self.retries} retries): {type(exc).__name__}: {text}") from None

    def stop(self) -> None:
        if self._connected:
            import ray

            self._connected = False
            ray.shutdown()


@hookimpl
def gincli_register_match_backends(register):
    register(RayBackend())
