"""Match backends: where a match's sessions run (docs/plugins.md,
``gincli_register_match_backends``).

The match runner cuts the sessions still to play into chunks of session
indices (``[0, 1, 2, 3]``, ``[4, 5, 6, 7]``...). A backend runs
``work(chunk)`` for each chunk somewhere (worker processes on this machine,
the nodes of a cluster) and yields the results in the order of the chunks;
the runner writes the transcripts, counts and stops (``--sprt``) in session
order, so the results never depend on the backend. A backend may also yield
a chunk's outcomes in pieces, in order, as they are played
(``work.stream(chunk)``), as ``local`` and gincli-ray do, so that each
session is written as soon as it and every session before it are finished.
The built-in backend ``local`` (worker processes, :mod:`gincli.base.pool`)
is registered by the plugin ``gincli-backends`` through the same hook a third
party uses.

What a backend gives back is checked where it crosses into gincli
(:class:`BackendRun`, calling it as all plugin code is called,
:func:`gincli.base.contract.call`): a result that is not the chunk asked for,
in order, or an exception the backend raises, is a
:class:`~gincli.base.contract.PluginFault` naming its plugin (exit 4), never an
internal error; nothing is counted twice or lost. A :class:`GinError` the
backend raises (:class:`BackendError`) is its own sentence for the user.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Generator, Hashable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..base.arguments import FLAGS, Spelling
from ..base.config import ENV_CONFIG_DIR, ENV_DISABLE, ENV_PLUGINS_DIR
from ..base.contract import PluginFault, breach, call, plugin_of
from ..base.errors import GinError, UsageError, debug_enabled, quote

if TYPE_CHECKING:
    from .runner import MatchSource, MatchSpec

#: The backend ``gin match`` uses without ``--backend``.
DEFAULT_BACKEND = "local"

#: Environment variables that decide which plugins and configuration a
#: worker's registry loads: sent with the work, so that a worker anywhere loads
#: what the driver loaded (where those paths exist).
REGISTRY_ENV = (ENV_CONFIG_DIR, ENV_PLUGINS_DIR, ENV_DISABLE, "XDG_CONFIG_HOME")


class MatchBackend:
    """Where a match's sessions run. Subclass it, set ``name`` and a one-line
    ``description``, and implement :meth:`map`; the rest is optional."""

    name: str = ""
    description: str = ""
    #: The options of ``--backend-option KEY=VALUE``: name -> what it means.
    #: Their values reach :meth:`start` as the text typed.
    options: Mapping[str, str] = {}

    def start(self, options: Mapping[str, str], workers: int | None) -> int:
        """Get ready (start worker processes, connect to a cluster) with the
        ``--backend-option`` values given and ``--workers`` (None when not
        given); return how many chunks may run at once. Raise ``ValueError``
        (one sentence) for a bad option value, or a :class:`gincli.base.errors.UsageError`
        for anything else the user must fix."""
        return workers or 1

    def chunk_size(self, unit: str, remaining: int, workers: int) -> int:
        """How many sessions a chunk holds: ``unit`` is ``"hands"`` (a session
        is one hand) or ``"games"``; ``remaining`` sessions are to play over
        ``workers``. Bigger chunks cost less overhead, smaller ones balance the
        load and stop sooner after ``--sprt`` decides (the decision itself
        never depends on the size)."""
        # A chunk costs the driver and its worker about a millisecond (sending, pickling, waking):
        # a few hundred hands (16 games, some hundred hands) keep that to about 1% of the work,
        # and four chunks a worker still balance the load at the end.
        return max(1, min(256 if unit == "hands" else 16, remaining // (4 * workers) or 1))

    def map(self, work: MatchWork, chunks: Iterator[list[int]]) -> Iterator[Any]:
        """``work(chunk)`` for every chunk, somewhere; yield each result, in the
        order of the chunks. ``work`` pickles (by value); it loads the plugins
        once per process. Take chunks only as they can run: the iterator may be
        long. When the caller stops early (``--sprt`` decided, Ctrl-C) the
        generator is closed: cancel what is still running."""
        raise NotImplementedError

    def stop(self) -> None:
        """Release what :meth:`start` took (the match is over, or interrupted)."""


@dataclass
class ChunkFault:
    """A chunk that could not be played, for a reason the user can fix (an
    ``exec:`` program missing on a node, a variant unknown there): its one
    sentence, sent back as a result (so a backend never retries it)."""

    message: str
    exit_code: int
    host: str


class Loader(Protocol):
    """Loads the plugins where the registry cannot be inherited (a spawned
    worker, a cluster's node) as the driver loaded them, with the named bots
    of ``bots_file`` too; the plugin layer hands its own down."""

    def __call__(self, plugin_dirs: Iterable[str], disabled: Iterable[str], *,
                 bots_file: str | None = None) -> MatchSource: ...


#: Each worker process's registry, by what it was loaded from.
_registries: dict[Hashable, MatchSource] = {}


@dataclass
class MatchWork:
    """What a worker needs to play any session of a match: picklable, small.
    Calling it with a chunk of session indices plays them
    (:func:`gincli.matches.runner.play_match_session`) and returns their
    :class:`gincli.matches.runner.SessionOutcome` s in order, or a :class:`ChunkFault`;
    :meth:`stream` yields each outcome as its session ends."""

    spec: MatchSpec
    record: bool
    loader: Loader | None = None
    plugin_dirs: tuple[str, ...] = ()
    disabled: tuple[str, ...] = ()
    bots_file: str | None = None
    env: dict[str, str] = field(default_factory=dict)
    cwd: str = ""

    @classmethod
    def of(cls, spec: MatchSpec, record: bool, loader: Loader, plugin_dirs: Iterable[str],
           disabled: Iterable[str], bots_file: str | None, registry: MatchSource | None = None) -> MatchWork:
        """The work of a match as this process sees it; ``registry``, when
        given, is the one this process (and processes forked from it) use;
        ``loader`` loads it elsewhere."""
        work = cls(spec, record, loader, tuple(os.path.abspath(d) for d in plugin_dirs), tuple(disabled),
                   os.path.abspath(bots_file) if bots_file else None,
                   {k: os.environ[k] for k in REGISTRY_ENV if k in os.environ}, os.getcwd())
        if registry is not None:
            _registries[work.key()] = registry
        return work

    def key(self) -> Hashable:
        return (self.plugin_dirs, self.disabled, self.bots_file, tuple(sorted(self.env.items())))

    def registry(self) -> MatchSource:
        """The plugins as the driver loaded them, loaded once per process."""
        key = self.key()
        found = _registries.get(key)
        if found is None:
            if self.loader is None:
                raise RuntimeError("MatchWork.loader is needed where the registry is not inherited")
            saved = {k: os.environ.get(k) for k in REGISTRY_ENV}
            try:
                for k in REGISTRY_ENV:
                    if k in self.env:
                        os.environ[k] = self.env[k]
                    else:
                        os.environ.pop(k, None)
                found = self.loader(self.plugin_dirs, self.disabled, bots_file=self.bots_file)
            finally:
                for k, v in saved.items():
                    if v is None:
                        os.environ.pop(k, None)
                    else:
                        os.environ[k] = v
            _registries[key] = found
        return found

    def __call__(self, indices: list[int]) -> list[Any] | ChunkFault:
        outcomes: list[Any] = []
        for o in self.stream(indices):
            if isinstance(o, ChunkFault):  # the sessions played before it are kept: it comes last
                return [*outcomes, o] if outcomes else o
            outcomes.append(o)
        return outcomes

    def stream(self, indices: list[int]) -> Iterator[Any]:
        """Play the sessions ``indices`` one after another, yielding each one's
        outcome as soon as it ends; a session that cannot be played is a
        :class:`ChunkFault`, the last item."""
        from .runner import play_match_session

        if self.cwd and os.getcwd() != self.cwd and os.path.isdir(self.cwd):
            os.chdir(self.cwd)  # relative paths (exec:python3 bot.py) as on the driver, where that folder exists
        try:
            registry = self.registry()
            from .external import restart_counts

            restart_counts()  # a chunk's sessions follow one another: across chunks, the match counts
        except Exception as exc:
            if not isinstance(exc, GinError) and debug_enabled():
                raise
            yield _fault(exc, indices)
            return
        for n, i in enumerate(indices):
            try:
                outcome = play_match_session(self.spec, i, registry, self.record)
            except Exception as exc:
                if not isinstance(exc, GinError) and debug_enabled():
                    raise
                yield _fault(exc, indices[n:])
                return
            yield outcome


def host_name() -> str:
    """This machine's name, as a fault names where it happened (without the
    socket module, which costs every gin command's start-up)."""
    try:
        return os.uname().nodename
    except AttributeError:  # not POSIX
        import socket

        return socket.gethostname()


def _fault(exc: Exception, indices: list[int]) -> ChunkFault:
    """Why sessions ``indices`` (the first one's, at least) could not be played."""
    if isinstance(exc, GinError):
        return ChunkFault(exc.message, exc.exit_code, host_name())
    # a bug: said as the CLI says one (exit 3), from wherever it ran
    return ChunkFault(f"internal error while playing sessions {indices[0]} to {indices[-1]}: "
                      f"{type(exc).__name__}: {exc}", 3, host_name())


#: What ``next(stream, _END)`` gives at the end of a backend's results.
_END = object()


class BackendError(GinError):
    """What a backend raises when it cannot run the match (a cluster out of
    reach, a chunk that failed beyond its retries): one sentence, exit status 2."""

    exit_code = 2


class BackendFault(GinError):
    """A chunk could not be played (:class:`ChunkFault`), said where."""

    def __init__(self, message: str, exit_code: int):
        super().__init__(message)
        self.exit_code = exit_code




class BackendSource(Protocol):
    """What choosing a match's backend needs of the plugins (the registry is one)."""

    @property
    def backends(self) -> Mapping[str, MatchBackend]: ...


def backend_named(registry: BackendSource, name: str) -> MatchBackend:
    found = registry.backends.get(name)
    if found is None:
        raise UsageError(f"unknown match backend {quote(name)}; the backends are {', '.join(sorted(registry.backends))}"
                         + ("" if "ray" in registry.backends else " (ray: pip install ./plugins/gincli-ray)"))
    return found


def backend_options(backend: MatchBackend, assignments: Iterable[str] | None,
                    address: str | None = None, say: Spelling = FLAGS) -> dict[str, str]:
    """``--backend-option KEY=VALUE`` values, checked against the backend's
    options; ``--address ADDR`` is the option ``address`` of a backend that
    takes one (a cluster's). ``say``: how the sentences name the arguments."""
    known = dict(backend.options)
    out: dict[str, str] = {}
    options = say("backend_options")
    if address is not None:
        if "address" not in known:
            raise UsageError(f"{say('address')} is for a backend that connects to a cluster (such as "
                             f"{say.given('backend', 'ray')}), and the backend {backend.name} takes no address",
                             parameters=("address", "backend"))
        if not address.strip():
            raise UsageError(f"{say('address')} takes the cluster's address (HOST:PORT of its head, or auto), "
                             "not \"\"", parameters=("address",))
        out["address"] = address.strip()
    for text in assignments or ():
        key, sep, value = text.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise UsageError(f"{options} takes KEY=VALUE, not {quote(text)}")
        if key not in known:
            takes = (f"takes {', '.join(sorted(known))}" if known else "takes no options")
            raise UsageError(f"{options}: the backend {backend.name} {takes}, not {quote(key)}")
        if key in out:
            raise UsageError(f"{options} {key} is given twice" if key != "address" or address is None
                             else f"{say('address')} and {options} address= are the same option: give one",
                             parameters=("address",))
        out[key] = value.strip()
    return out


class BackendRun:
    """A backend started for one match, every value it gives back checked."""

    def __init__(self, backend: MatchBackend, options: Mapping[str, str], workers: int | None):
        self.backend = backend
        self.plugin = plugin_of(backend)

        def start() -> int:
            try:
                return backend.start(dict(options), workers)
            except ValueError as exc:  # a bad --backend-option value, in the backend's sentence
                raise UsageError(f"--backend-option: {' '.join(str(exc).split())}") from None

        got = call(backend, f"the match backend {backend.name}'s start()", start, own=GinError)
        if type(got) is not int or got < 1:
            self.stop()
            raise breach(backend, f"the match backend {backend.name}'s start()", got, "a whole number of 1 or more")
        self.workers = got

    def chunk_size(self, unit: str, remaining: int) -> int:
        got = call(self.backend, f"the match backend {self.backend.name}'s chunk_size()", self.backend.chunk_size,
                   unit, remaining, self.workers, own=GinError)
        if type(got) is not int or got < 1:
            raise breach(self.backend, f"the match backend {self.backend.name}'s chunk_size()", got,
                         "a whole number of 1 or more")
        return got

    def results(self, work: MatchWork, chunks: Iterable[list[int]]) -> Generator[list[Any], None, None]:
        """Lists of outcomes in session order, as the backend yields them: a
        chunk's, or the next sessions of the chunks taken (a backend that
        streams gives each session as it is played); a chunk it could not play
        is its one sentence (:class:`BackendFault`)."""
        from .runner import SessionOutcome

        what = f"the match backend {self.backend.name}"
        sent: deque[list[int]] = deque()  # the chunks taken, not yet given back whole
        at = 0  # how many sessions of the first of them are given back

        def feed() -> Iterator[list[int]]:
            for chunk in chunks:
                sent.append(chunk)
                yield chunk

        stream = call(self.backend, f"{what}'s map()", self.backend.map, work, feed(), own=GinError)
        if not hasattr(stream, "__next__"):
            raise breach(self.backend, f"{what}'s map()", repr(stream), "an iterator of results")
        here = host_name()
        try:
            while True:
                got = call(self.backend, f"{what}'s map()", next, stream, _END, own=GinError)
                if got is _END:
                    if sent:
                        raise PluginFault(f"plugin \"{self.plugin}\": {what} stopped before sessions "
                                          f"{sent[0][at]} and on were played") from None
                    return
                fault = None
                if isinstance(got, list) and len(got) > 1 and isinstance(got[-1], ChunkFault):
                    got, fault = got[:-1], got[-1]  # work(chunk): the sessions played, then why it stopped
                elif isinstance(got, ChunkFault):
                    raise self._fault(got, here)
                if not sent:
                    raise PluginFault(f"plugin \"{self.plugin}\": {what}'s map() yielded a result for no chunk it "
                                      "had taken (one result for each chunk, in the order taken)")
                if not isinstance(got, list) or not got or not self._next(got, sent, at, SessionOutcome):
                    shown = ([o.index if isinstance(o, SessionOutcome) else repr(o) for o in got]
                             if isinstance(got, list) else repr(got))
                    raise breach(self.backend, f"{what}'s map()", shown,
                                 f"the outcomes of sessions {sent[0][at:]} (results go in the order of the chunks)")
                at += len(got)
                while sent and at >= len(sent[0]):
                    at -= len(sent.popleft())
                yield got
                if fault is not None:
                    raise self._fault(fault, here)
        finally:
            close = getattr(stream, "close", None)
            if close is not None:
                try:
                    close()
                except Exception:
                    pass

    @staticmethod
    def _fault(got: ChunkFault, here: str) -> BackendFault:
        where = f" (on {got.host})" if got.host and got.host != here else ""
        return BackendFault(got.message + where, got.exit_code)

    @staticmethod
    def _next(got: list[Any], sent: deque[list[int]], at: int, kind: type[Any]) -> bool:
        """Whether ``got`` holds the outcomes of the next sessions of the
        chunks ``sent``, from session ``at`` of the first, in order."""
        chunks = iter(sent)
        chunk = next(chunks)
        for o in got:
            while at >= len(chunk):
                following = next(chunks, None)
                if following is None:
                    return False
                chunk, at = following, 0
            if not isinstance(o, kind) or o.index != chunk[at]:
                return False
            at += 1
        return True

    def stop(self) -> str | None:
        """Release the backend. A failure to is returned as one sentence (to
        warn of), never raised over the match's result."""
        try:
            call(self.backend, f"the match backend {self.backend.name}'s stop()", self.backend.stop, own=GinError)
        except GinError as exc:
            return str(exc)
        return None


def check_backend(item: Any) -> None:
    """What a registered backend must be, beyond its type (TypeError when not)."""
    options = getattr(item, "options", None)
    if (not isinstance(options, Mapping)
            or not all(isinstance(k, str) and k and isinstance(v, str) for k, v in options.items())):
        raise TypeError(f"the match backend {item.name}'s options must map names to descriptions (text)")
    if type(item).map is MatchBackend.map:
        raise TypeError(f"the match backend {item.name} does not implement map()")


__all__ = ["BackendError", "BackendFault", "BackendRun", "ChunkFault", "DEFAULT_BACKEND", "MatchBackend", "MatchWork",
           "backend_named", "backend_options"]
