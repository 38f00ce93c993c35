"""Loading the plugins: pluggy's plugin manager with gincli's hook
specifications, and the plugins found, in order of precedence, from the first
to win a name to the last:

0. the plugins a program gives itself (:mod:`gincli.testing`'s, a file or a module);
1. plugin folders given with ``--plugins-dir``, in the order given;
2. plugin folders in ``GINCLI_PLUGINS_DIR``;
3. the ``plugins/`` folder of the user's configuration folder;
4. installed packages (the ``gincli`` entry-point group), by name;
5. the built-ins (``DEFAULT_PLUGINS``), which go through the very same hooks.

A plugin that fails to import, or whose hooks pluggy refuses, is left out with
one sentence naming it; the rest of gincli still works. Plugin code that runs
while plugins load (an import here, a ``register`` hook in
:mod:`.registration`) is bounded (:func:`plugin_code`): a time limit, a notice
naming it while it is slow, and standard output, file descriptor 1 included,
kept for gincli's data.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from ..base.config import ENTRY_POINT_GROUP, ENV_DISABLE, ENV_PLUGINS_DIR, IMPORT_LIMIT_RANGE, config_dir
from ..base.contract import StrayOutput
from ..base.errors import quote
from . import hookspecs

#: Built-in plugins: module name -> plugin name. Registered last, so any other
#: plugin may replace a built-in variant, scoring system, bot or move set.
DEFAULT_PLUGINS: dict[str, str] = {
    "gincli_builtin.variants": "gincli-variants",
    "gincli_builtin.scoring": "gincli-scoring",
    "gincli_builtin.bots": "gincli-bots",
    "gincli_builtin.doubling": "gincli-doubling",
    "gincli_builtin.corner": "gincli-round-the-corner",
    "gincli_builtin.backends": "gincli-backends",
}

#: Where plugins come from, in order of precedence (``PluginInfo.origin``).
ORIGINS = ("given", "--plugins-dir", "GINCLI_PLUGINS_DIR", "user config", "package", "built-in")


@dataclass
class PluginInfo:
    """One loaded plugin: its name, where it came from (``origin``, one of
    :data:`ORIGINS`, and ``source``, the file or package), the hooks it
    implements."""

    name: str
    source: str
    hooks: list[str] = field(default_factory=list)
    builtin: bool = False
    origin: str = "built-in"


def split_names(text: str | None) -> list[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


class PluginLoading:
    """The plugin manager, built in two steps: hook specs, then the plugins in
    order of precedence (the module's docstring). Made, it has loaded every
    plugin but the built-ins (:meth:`adds_commands` can tell, cheaply, whether
    any adds a command: ``gin --help``); :meth:`finish` adds the built-ins, last,
    and returns ``(manager, plugins loaded, problems)``, each problem one
    sentence naming a plugin that was left out, or what it did wrong.

    ``notice`` hears of a plugin that is slow to import, while it imports (gin's
    warnings; worker processes pass none). ``given``: plugins a program names
    itself, first, each ``(name, where)``: a ``.py`` file or a package's folder
    (a :class:`~pathlib.Path`), or a module's name to import. ``isolated``:
    nothing from the environment, the user's folder or installed packages, only
    what is given, ``plugin_dirs`` and the built-ins (a plugin's tests then hold
    whatever else is installed)."""

    def __init__(self, plugin_dirs: Iterable[str | Path] = (), disabled: Iterable[str] = (),
                 entry_points: bool = True, notice: Callable[[str], None] | None = None, *,
                 given: Iterable[tuple[str, str | Path]] = (), isolated: bool = False):
        self.pm = pluggy.PluginManager("gincli")
        self.pm.add_hookspecs(hookspecs)
        self.blocked = set(disabled) | (set() if isolated else set(split_names(os.environ.get(ENV_DISABLE))))
        for name in self.blocked:
            self.pm.set_blocked(name)
        self.infos: list[PluginInfo] = []
        self.problems: list[str] = []
        #: Every plugin name met, and where: to tell a clash, and what --disable-plugin meant.
        self.seen: dict[str, str] = {}
        self._finished = False

        for name, where in given:
            if self._candidate(name, str(where)):
                load = (functools.partial(_import_path, name, where) if isinstance(where, Path)
                        else functools.partial(importlib.import_module, where))
                obj = _guarded_import(name, str(where), load, self.problems, notice)
                if obj is not None:
                    self._add(obj, name, str(where), "given")

        folders = [(Path(d), "--plugins-dir") for d in plugin_dirs]
        if not isolated:
            folders += [(Path(d), "GINCLI_PLUGINS_DIR") for d in os.environ.get(ENV_PLUGINS_DIR, "").split(os.pathsep)
                        if d]
            user = config_dir() / "plugins"
            if user.is_dir():
                folders.append((user, "user config"))
        for directory, origin in folders:
            if not directory.is_dir():
                self.problems.append(f"plugins directory {directory} does not exist")
                continue
            for path in sorted(directory.iterdir()):
                if path.name.startswith(("_", ".")):
                    continue
                if path.suffix == ".py" and path.is_file():  # not a FIFO or a device, which would never end
                    name = path.stem
                elif (path / "__init__.py").is_file():
                    name = path.name
                else:
                    continue
                if not self._candidate(name, str(path)):
                    continue
                obj = _guarded_import(name, str(path), functools.partial(_import_path, name, path), self.problems,
                                      notice)
                if obj is not None:
                    self._add(obj, name, str(path), origin)

        if entry_points and not isolated:
            from ..base.packages import entry_points as find_entry_points

            for ep in sorted(find_entry_points(ENTRY_POINT_GROUP), key=lambda e: e.name):
                dist = getattr(ep.dist, "name", None) or "?"
                if not self._candidate(ep.name, f"package {dist}"):
                    continue
                obj = _guarded_import(ep.name, f"package {dist}", ep.load, self.problems, notice)
                if obj is not None:
                    self._add(obj, ep.name, f"package {dist}", "package")

    def adds_commands(self) -> bool:
        """Whether a plugin loaded so far implements ``gincli_register_commands``
        (the built-ins add no command)."""
        return bool(self.pm.hook.gincli_register_commands.get_hookimpls())

    def finish(self) -> tuple[pluggy.PluginManager, list[PluginInfo], list[str]]:
        """The built-ins added (once): ``(manager, plugins loaded, problems)``."""
        if not self._finished:
            self._finished = True
            for module, name in DEFAULT_PLUGINS.items():
                if self._candidate(name, "built-in"):
                    self._add(importlib.import_module(module), name, "built-in", "built-in")
            for name in sorted(self.blocked - set(self.seen)):
                self.problems.append(f"--disable-plugin {quote(name)} names no plugin (the plugins are "
                                     f"{', '.join(sorted(self.seen))})")
        return self.pm, self.infos, self.problems

    def _add(self, obj: object, name: str, source: str, origin: str) -> None:
        pm = self.pm
        try:
            pm.register(obj, name=name)
            pm.check_pending()
        except pluggy.PluginValidationError as exc:
            if pm.is_registered(obj):
                pm.unregister(obj)
            self.problems.append(f"plugin \"{name}\" ({source}) was not loaded: {_invalid_hooks(pm, obj, exc)}")
            return
        except ValueError as exc:  # pluggy refuses a second plugin object
            self.problems.append(f"plugin \"{name}\" ({source}) was not loaded: {exc}")
            return
        hooks = sorted(h.name for h in (pm.get_hookcallers(obj) or []))
        self.infos.append(PluginInfo(name, source, hooks, origin == "built-in", origin))
        self.problems.extend(_unmarked(obj, name, hooks))

    def _candidate(self, name: str, source: str) -> bool:
        """Whether to load the plugin ``name`` found at ``source``."""
        if name in self.blocked:
            self.seen.setdefault(name, source)
            return False
        if name in self.seen:
            self.problems.append(f"plugin \"{name}\" ({source}) was left out: a plugin of that name comes first, "
                                 f"from {self.seen[name]}")
            return False
        self.seen[name] = source
        return True


def _invalid_hooks(pm: pluggy.PluginManager, plugin: object, exc: Exception) -> str:
    """Why pluggy refused a plugin's hooks, in gincli's words: a hook that does not
    exist, or a parameter a hook does not have (pluggy calls hooks by keyword)."""
    hooks = sorted(n for n, f in vars(hookspecs).items() if n.startswith("gincli_") and inspect.isfunction(f))
    for attr in dir(plugin):
        try:
            opts = pm.parse_hookimpl_opts(plugin, attr)
        except Exception:
            continue
        if opts is None:
            continue
        hook = opts.get("specname") or attr
        spec = getattr(hookspecs, hook, None)
        if spec is None or not inspect.isfunction(spec):
            return (f"{hook} is not one of gincli's hooks ({', '.join(hooks)}; docs/plugins.md has each), so gincli "
                    "would never call it")
        allowed = list(inspect.signature(spec).parameters)
        try:
            given = list(inspect.signature(getattr(plugin, attr)).parameters)
        except (TypeError, ValueError):
            continue
        wrong = [p for p in given if p not in allowed]
        if wrong:
            return (f"its {hook} takes {', '.join(quote(p) for p in wrong)}, which the hook does not have: its "
                    f"parameters are {', '.join(allowed)} (gincli calls hooks by keyword, so a hook implementation "
                    "names each parameter as the hook does, or leaves it out)")
    return " ".join(str(exc).replace("\\n", " ").split())


def _unmarked(plugin: object, name: str, hooks: list[str]) -> list[str]:
    """Functions of a plugin module named like a hook (``gincli_...``) but not
    marked ``@gincli.hookimpl``: gincli never calls them, which is never meant."""
    if not isinstance(plugin, ModuleType):
        return []
    out = []
    for attr, value in vars(plugin).items():
        if (attr.startswith("gincli_") and inspect.isfunction(value) and attr not in hooks
                and value.__module__ == plugin.__name__):
            out.append(f"plugin \"{name}\": {attr} is not marked @gincli.hookimpl, so gincli never calls it")
    return out


#: How long a plugin may take to import (and each of its hooks at registration), in
#: seconds: ``GINCLI_IMPORT_TIME_LIMIT``, else ``import_time_limit`` in config.toml.
#: A plugin past it is left out and gincli goes on; a user waits that long at most.
IMPORT_TIME_LIMIT = 5.0
ENV_IMPORT_TIME_LIMIT = "GINCLI_IMPORT_TIME_LIMIT"
SETS_THE_LIMIT = f"{ENV_IMPORT_TIME_LIMIT}, or import_time_limit in config.toml, sets the limit"
#: After this long (at most half the limit), a plugin still importing is named on stderr.
IMPORT_NOTICE = 1.0


class PluginTimeout(BaseException):
    """Raised in plugin code past its time limit (a BaseException: no
    ``except Exception`` in the plugin swallows it)."""


def _guarded_import(name: str, source: str, load: Callable[[], Any], problems: list[str],
                    notice: Callable[[str], None] | None = None) -> Any:
    """``load()``, a plugin's import, as plugin code (:func:`plugin_code`): an
    exception, a ``sys.exit()`` or an import past the time limit leaves the
    plugin out with one sentence in ``problems`` (``None`` is returned). With
    ``notice``, a plugin still importing after :data:`IMPORT_NOTICE` is named
    through it while it runs, so that a user waiting knows who for."""
    limit = import_time_limit(problems)
    try:
        with plugin_code(limit, _still_importing(name, source, limit) if notice else None, notice):
            return load()
    except PluginTimeout:
        problems.append(f"plugin \"{name}\" ({source}) did not finish importing within {limit:g} s; it was left "
                        f"out (a loop at import? {SETS_THE_LIMIT})")
    except SystemExit as exc:
        problems.append(f"plugin \"{name}\" ({source}) called sys.exit({exc.code!r}) while importing; it was left "
                        "out")
    except Exception as exc:  # a broken plugin must not break gincli
        problems.append(f"plugin \"{name}\" ({source}) failed to import: {type(exc).__name__}: {exc}")
    return None


def _still_importing(name: str, source: str, limit: float) -> str:
    return (f"plugin \"{name}\" ({source}) is still importing after {_notice_after(limit):g} s; it is left out at "
            f"{limit:g} s ({SETS_THE_LIMIT})")


def _notice_after(limit: float) -> float:
    return min(IMPORT_NOTICE, limit / 2)


@contextlib.contextmanager
def plugin_code(limit: float, still: str | None = None, notice: Callable[[str], None] | None = None) -> Any:
    """Run plugin code at load time (its import, its hooks at registration):
    its prints go to stderr (said once), and so does whatever it writes to file
    descriptor 1 (``os.write(1, ...)``, a C library's ``printf``), so that
    standard output holds gincli's data only; past ``limit`` seconds it is
    stopped (:class:`PluginTimeout`); after :func:`_notice_after`, ``still``
    is said through ``notice`` while it runs."""
    with contextlib.redirect_stdout(_stray(sys.stdout)), _fd1_to_stderr(), _time_limit(limit), \
            _watch(still, _notice_after(limit), notice):
        yield


def _stray(stdout: Any) -> Any:
    """Where a plugin's prints go while it loads: stderr, said once (the
    command's stand-in when one is in place already)."""
    return stdout if isinstance(stdout, StrayOutput) else StrayOutput()


@contextlib.contextmanager
def _fd1_to_stderr() -> Any:
    """File descriptor 1 pointed at stderr's (at ``/dev/null`` when stderr is
    closed), then put back: what plugin code writes below Python's ``sys.stdout``
    cannot reach standard output. Ctrl-C is held while the descriptors are
    switched, so that an interrupt never leaves standard output pointed
    elsewhere. Another thread's writes to descriptor 1 meanwhile go to stderr
    too (in gin, no other thread writes there while plugins load)."""
    _flush(sys.stdout, sys.__stdout__)  # gincli's own data first, in order
    with _sigint_held():
        try:
            saved = os.dup(1)
        except OSError:  # no standard output at all: nothing to keep apart
            saved = -1
        if saved >= 0:
            try:
                os.dup2(2, 1)
            except OSError:
                try:
                    null = os.open(os.devnull, os.O_WRONLY)
                    os.dup2(null, 1)
                    os.close(null)
                except OSError:
                    os.close(saved)
                    saved = -1
    try:
        yield
    finally:
        if saved >= 0:
            _flush(sys.__stdout__)  # what a plugin left in the real stdout's buffer goes where it wrote
            with _sigint_held():
                os.dup2(saved, 1)
                os.close(saved)


def _flush(*streams: Any) -> None:
    for stream in streams:
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # said by gincli's own next write, if it matters
            pass


@contextlib.contextmanager
def _sigint_held() -> Any:
    """SIGINT blocked in this thread meanwhile (delivered once it is unblocked)."""
    import signal

    held = hasattr(signal, "pthread_sigmask")
    if held:
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        if held and signal.SIGINT not in before:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


@contextlib.contextmanager
def _watch(still: str | None, after: float, notice: Callable[[str], None] | None) -> Any:
    """``notice(still)`` from a thread of its own after ``after`` seconds, unless
    the block is done by then: said while the main thread is busy in plugin
    code, even code that holds it in C."""
    if still is None or notice is None:
        yield
        return
    import threading

    done = threading.Event()

    def watch() -> None:
        if not done.wait(after):
            try:
                notice(still)
            except Exception:  # stderr gone: nothing to tell
                pass

    threading.Thread(target=watch, name="gincli-import-notice", daemon=True).start()
    try:
        yield
    finally:
        done.set()


def import_time_limit(problems: list[str] | None = None) -> float:
    """``GINCLI_IMPORT_TIME_LIMIT`` (gin sets it from config.toml's
    ``import_time_limit`` when it is not set, so that worker processes share
    it), else :data:`IMPORT_TIME_LIMIT`; a value that is not a number of seconds
    within :data:`IMPORT_LIMIT_RANGE` is said in ``problems`` and the default used."""
    text = os.environ.get(ENV_IMPORT_TIME_LIMIT, "").strip()
    if not text:
        return IMPORT_TIME_LIMIT
    low, high = IMPORT_LIMIT_RANGE
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if low <= value <= high:
        return value
    if problems is not None:
        problem = (f"{ENV_IMPORT_TIME_LIMIT}={quote(text)} is not a number of seconds from {low:g} to {high:g}; "
                   f"the default, {IMPORT_TIME_LIMIT:g} s, is used")
        if problem not in problems:
            problems.append(problem)
    return IMPORT_TIME_LIMIT


@contextlib.contextmanager
def _time_limit(seconds: float) -> Any:
    """Raise :class:`PluginTimeout` in this thread after ``seconds`` (where the
    system has interval timers and this is the main thread; else no limit)."""
    import signal
    import threading

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise PluginTimeout()

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _import_path(name: str, path: Path) -> ModuleType:
    target = path / "__init__.py" if path.is_dir() else path
    modname = f"gincli_plugin_{name}"
    spec = importlib.util.spec_from_file_location(modname, target,
                                                  submodule_search_locations=[str(path)] if path.is_dir() else None)
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {target}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[modname] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(modname, None)
        raise
    return module
