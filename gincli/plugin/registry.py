"""The plugin manager and the registry of what plugins contribute.

:func:`load_registry` is the one factory: it builds a pluggy plugin manager
with gincli's hook specifications, loads the plugins in order of precedence,
checks every plugin's hooks, and collects what each registers. The order, from
the first to win a name to the last:

1. plugin folders given with ``--plugins-dir``, in the order given;
2. plugin folders in ``GINCLI_PLUGINS_DIR``;
3. the ``plugins/`` folder of the user's configuration folder;
4. installed packages (the ``gincli`` entry-point group), by name;
5. the built-ins (``DEFAULT_PLUGINS``), which go through the very same hooks.

The first to register a name (a variant, a scoring system, a bot, a move set, a match backend)
keeps it. A plugin that replaces a built-in's item does so on purpose (it is
listed by ``gin plugins``); any other clash is a warning naming what was left
out. Variant files (the ``variants/`` folder of the configuration folder) come
after every plugin and never take a name in use: one naming a registered
variant is left out, with a warning when its rules differ. A plugin that fails
to import or breaks a hook's contract is left out with one sentence naming it
(``Registry.problems``); the rest of gincli still works.

Plugin code that runs while plugins load (an import, a ``register`` hook) is
bounded (:func:`_plugin_code`): a time limit, a notice naming it while it is
slow, and standard output, file descriptor 1 included, kept for gincli's data.
What it registers is checked as it arrives (:meth:`Registry._check_item`,
:func:`option_problem`, each meld rules' data at the defaults); an item that
breaks the contract is left out with a warning, and asking for it by name later
is that sentence again as a :class:`~gincli.base.contract.PluginFault` (exit 4).
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import importlib.util
import inspect
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from ..base.config import ENTRY_POINT_GROUP, ENV_DISABLE, ENV_PLUGINS_DIR, IMPORT_LIMIT_RANGE, config_dir
from ..base.contract import PluginFault, StrayOutput, plugin_of
from ..base.errors import ConfigError, GinError, UsageError, quote
from ..hand.bots import Bot
from ..hand.moves import ACTIONS
from ..hand.moveset import MoveSet
from ..matches.backends import MatchBackend, check_backend
from ..rulebook.meldrules import MeldRules
from ..rulebook.rules import OPTION_KINDS, PLAY_OPTIONS, Option, Rules, format_value, resolve
from ..rulebook.variant import PendingVariant, Variant
from ..sessions.systems import ScoringSystem
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

#: What each kind of item is registered through, and must be an instance of.
KINDS: dict[str, tuple[str, tuple[type[Any], ...]]] = {
    "variant": ("gincli_register_variants", (Variant, PendingVariant)),
    "scoring system": ("gincli_register_scoring_systems", (ScoringSystem,)),
    "bot": ("gincli_register_bots", (type,)),
    "move set": ("gincli_register_moves", (MoveSet,)),
    "meld rules": ("gincli_register_meld_rules", (MeldRules,)),
    "match backend": ("gincli_register_match_backends", (MatchBackend,)),
}

#: Options of play that are gincli's additions to the rule book (RULES.md names none of them),
#: with their defaults: a transcript writes one only when it is not at its default.
GINCLI_OPTIONS: dict[str, Any] = {"knock_limit_cap": "off"}

#: gincli's own commands: a plugin may not take their names.
BUILTIN_COMMANDS = ("score", "deal", "validate", "variants", "match", "tournament", "bots", "report", "play", "plugins",
                    "config",
                    "completion")

#: The words ``gin play`` reads itself, at every turn: a move set's ``keys`` may not take
#: them (nor a card, ``7h``, or a number, a card's position on screen). docs/plugins.md lists them.
PLAY_KEYS = {"?": "help", "help": "help", "h": "hint", "hint": "hint", "u": "undo", "undo": "undo", "q": "quit",
             "quit": "quit", "exit": "quit", "d": "take", "t": "take", "take": "take", "p": "pass", "pass": "pass",
             "s": "stock", "stock": "stock", "k": "knock", "knock": "knock", "gin": "knock"}

#: Where plugins come from, in order of precedence (``PluginInfo.origin``).
ORIGINS = ("--plugins-dir", "GINCLI_PLUGINS_DIR", "user config", "package", "built-in")


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


def make_plugin_manager(plugin_dirs: Iterable[str | Path] = (), disabled: Iterable[str] = (),
                        entry_points: bool = True, notice: Callable[[str], None] | None = None,
                        ) -> tuple[pluggy.PluginManager, list[PluginInfo], list[str]]:
    """Build the plugin manager: hook specs, then the plugins in order of
    precedence (the module's docstring). ``notice`` hears of a plugin that is
    slow to import, while it imports (gin's warnings; worker processes pass none).

    Returns ``(manager, plugins loaded, problems)``; each problem is one
    sentence naming a plugin that was left out, or what it did wrong.
    """
    pm = pluggy.PluginManager("gincli")
    pm.add_hookspecs(hookspecs)
    blocked = set(disabled) | set(split_names(os.environ.get(ENV_DISABLE)))
    for name in blocked:
        pm.set_blocked(name)
    infos: list[PluginInfo] = []
    problems: list[str] = []
    seen: dict[str, str] = {}  # every plugin name met, and where: to tell a clash, and what --disable-plugin meant

    def add(obj: object, name: str, source: str, origin: str) -> None:
        try:
            pm.register(obj, name=name)
            pm.check_pending()
        except pluggy.PluginValidationError as exc:
            if pm.is_registered(obj):
                pm.unregister(obj)
            problems.append(f"plugin \"{name}\" ({source}) was not loaded: {_invalid_hooks(pm, obj, exc)}")
            return
        except ValueError as exc:  # pluggy refuses a second plugin object
            problems.append(f"plugin \"{name}\" ({source}) was not loaded: {exc}")
            return
        hooks = sorted(h.name for h in (pm.get_hookcallers(obj) or []))
        infos.append(PluginInfo(name, source, hooks, origin == "built-in", origin))
        problems.extend(_unmarked(obj, name, hooks))

    def candidate(name: str, source: str) -> bool:
        """Whether to load the plugin ``name`` found at ``source``."""
        if name in blocked:
            seen.setdefault(name, source)
            return False
        if name in seen:
            problems.append(f"plugin \"{name}\" ({source}) was left out: a plugin of that name comes first, from "
                            f"{seen[name]}")
            return False
        seen[name] = source
        return True

    folders = [(Path(d), "--plugins-dir") for d in plugin_dirs]
    folders += [(Path(d), "GINCLI_PLUGINS_DIR") for d in os.environ.get(ENV_PLUGINS_DIR, "").split(os.pathsep) if d]
    user = config_dir() / "plugins"
    if user.is_dir():
        folders.append((user, "user config"))
    for directory, origin in folders:
        if not directory.is_dir():
            problems.append(f"plugins directory {directory} does not exist")
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
            if not candidate(name, str(path)):
                continue
            obj = _guarded_import(name, str(path), functools.partial(_import_path, name, path), problems, notice)
            if obj is not None:
                add(obj, name, str(path), origin)

    if entry_points:
        from ..base.packages import entry_points as find_entry_points

        for ep in sorted(find_entry_points(ENTRY_POINT_GROUP), key=lambda e: e.name):
            dist = getattr(ep.dist, "name", None) or "?"
            if not candidate(ep.name, f"package {dist}"):
                continue
            obj = _guarded_import(ep.name, f"package {dist}", ep.load, problems, notice)
            if obj is not None:
                add(obj, ep.name, f"package {dist}", "package")

    for module, name in DEFAULT_PLUGINS.items():
        if candidate(name, "built-in"):
            add(importlib.import_module(module), name, "built-in", "built-in")
    for name in sorted(blocked - set(seen)):
        problems.append(f"--disable-plugin {quote(name)} names no plugin (the plugins are "
                        f"{', '.join(sorted(seen))})")
    return pm, infos, problems


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


class _PluginTimeout(BaseException):
    """Raised in plugin code past its time limit (a BaseException: no
    ``except Exception`` in the plugin swallows it)."""


def _guarded_import(name: str, source: str, load: Callable[[], Any], problems: list[str],
                    notice: Callable[[str], None] | None = None) -> Any:
    """``load()``, a plugin's import, as plugin code (:func:`_plugin_code`): an
    exception, a ``sys.exit()`` or an import past the time limit leaves the
    plugin out with one sentence in ``problems`` (``None`` is returned). With
    ``notice``, a plugin still importing after :data:`IMPORT_NOTICE` is named
    through it while it runs, so that a user waiting knows who for."""
    limit = _import_time_limit(problems)
    try:
        with _plugin_code(limit, _still_importing(name, source, limit) if notice else None, notice):
            return load()
    except _PluginTimeout:
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
def _plugin_code(limit: float, still: str | None = None, notice: Callable[[str], None] | None = None) -> Any:
    """Run plugin code at load time (its import, its hooks at registration):
    its prints go to stderr (said once), and so does whatever it writes to file
    descriptor 1 (``os.write(1, ...)``, a C library's ``printf``), so that
    standard output holds gincli's data only; past ``limit`` seconds it is
    stopped (:class:`_PluginTimeout`); after :func:`_notice_after`, ``still``
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


def _import_time_limit(problems: list[str] | None = None) -> float:
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
    """Raise :class:`_PluginTimeout` in this thread after ``seconds`` (where the
    system has interval timers and this is the main thread; else no limit)."""
    import signal
    import threading

    if not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def expired(signum: int, frame: Any) -> None:
        raise _PluginTimeout()

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


#: An option's name: what ``--option NAME=VALUE``, a variant file and a transcript's
#: ``options`` key it by (``-`` on the command line reads as ``_``).
OPTION_NAME = r"[a-z][a-z0-9_]*"


def check_option_list(what: str, options: Any, field: str = "options") -> None:
    """A plugin's options (or a bot's parameters): a tuple of :class:`Option`,
    each sound (:func:`option_problem`), no name twice; TypeError naming the
    field when not."""
    if not isinstance(options, tuple) or not all(isinstance(o, Option) for o in options):
        raise TypeError(f"{what}'s {field} must be a tuple of gincli.Option objects, not {quote(repr(options))}")
    seen: set[str] = set()
    for opt in options:
        problem = option_problem(opt)
        if problem is None and opt.name in seen:
            problem = "it is declared twice"
        if problem is not None:
            raise TypeError(f"{what}'s option {quote(opt.name)} is wrong: {problem}")
        seen.add(opt.name)


def option_problem(opt: Option) -> str | None:
    """What is wrong with an option a plugin declares, in a clause (None when
    nothing is): its name, its kind, its choices, its ``most``, its description,
    and its default, which must be a value of its own kind and range."""
    import re

    if not isinstance(opt.name, str) or not re.fullmatch(OPTION_NAME, opt.name):
        return "its name must be a lower-case word of letters, digits and _ (as --option NAME=VALUE writes it)"
    if opt.kind not in OPTION_KINDS:
        return f"its kind is {quote(opt.kind)}, not one of {', '.join(OPTION_KINDS)}"
    if opt.kind == "choice":
        choices = opt.choices
        if (not isinstance(choices, tuple) or not choices or len(set(choices)) != len(choices)
                or not all(isinstance(c, str) and c.strip() for c in choices)):
            return f"a choice needs a tuple of different names as its choices, not {quote(repr(choices))}"
    if opt.most is not None and (type(opt.most) is not int or opt.most < 0):
        return f"its most must be a whole number of 0 or more, not {quote(repr(opt.most))}"
    if not isinstance(opt.description, str):
        return f"its description must be text, not {quote(repr(opt.description))}"
    try:
        opt.coerce(opt.default)
    except (ValueError, TypeError):
        return f"its default {quote(opt.default)} is not {opt.allowed()}"
    return None


class Registry:
    """What the loaded plugins contribute: variants and scoring systems by
    name, and which plugin registered each."""

    def __init__(self, pm: pluggy.PluginManager, plugins: list[PluginInfo], problems: list[str]):
        self.pm = pm
        self.plugins = plugins
        self.problems = problems
        self.variants: dict[str, Variant] = {}
        self.scoring_systems: dict[str, ScoringSystem] = {}
        self.bots: dict[str, type[Bot]] = {}
        self.movesets: dict[str, MoveSet] = {}
        #: Meld rules plugins add (what a meld is, what cards count): at most one on at a time.
        self.meld_rules: dict[str, MeldRules] = {}
        #: Where a match's sessions may run (``gin match --backend``).
        self.backends: dict[str, MatchBackend] = {}
        #: External bots named in a bots file: name -> how to run it.
        self.named_bots: dict[str, Any] = {}
        self._bot_cache: dict[str, Any] = {}
        #: Commands plugins add: name -> (function, help or None, plugin).
        self.commands: dict[str, tuple[Callable[..., Any], str | None, str]] = {}
        self.owner: dict[tuple[str, str], str] = {}
        self._rules_cache: dict[Any, Rules] = {}
        pending: list[tuple[str, PendingVariant]] = []
        self._clashes: list[PendingVariant] = []  # variant files naming a variant already registered
        #: Built-ins' items another plugin replaced, on purpose: (kind, name) -> the built-in plugin.
        self.replaced: dict[tuple[str, str], str] = {}
        self._origin = {info.name: info for info in plugins}
        #: Variants left out for their options, by name: why, said again when one is asked for.
        self._refused: dict[str, GinError] = {}
        #: Scoring systems and bots left out for their plugin's fault, by kind and name: why.
        self._refused_items: dict[tuple[str, str], PluginFault] = {}
        #: Options of items left out for their plugin's fault: name -> why.
        self._left_out: dict[str, str] = {}
        for kind, (hook, types) in KINDS.items():
            self._call_hook(pm, plugins, hook, functools.partial(self._registrar, kind, types, pending=pending))
            if kind == "bot":  # commands after the things they may use
                self._call_hook(pm, plugins, "gincli_register_commands", self._command_registrar)
        self._settle_keys()
        self._check_meld_data()
        self._add_user_variants(pending)  # files never take a name in use: they come after every plugin
        self._add_user_bots()
        self._bind(pending)
        self._settle_clashes()
        self._check_code_variants()

    def _add_user_variants(self, pending: list[tuple[str, PendingVariant]]) -> None:
        """Variant files in ``<config dir>/variants``: a variant from a TOML file alone."""
        folder = config_dir() / "variants"
        if not folder.is_dir():
            return
        register = self._registrar("variant", (PendingVariant,), f"user config ({folder})", pending)
        for path in sorted(folder.glob("*.toml")):
            try:
                register(PendingVariant.from_file(path))
            except ConfigError as exc:
                self.problems.append(str(exc))

    def _registrar(self, kind: str, types: tuple[type[Any], ...], plugin: str,
                   pending: list[tuple[str, PendingVariant]]) -> Callable[[Any], None]:
        tables: dict[str, dict[str, Any]] = {"variant": self.variants, "scoring system": self.scoring_systems,
                                             "bot": self.bots, "move set": self.movesets, "meld rules": self.meld_rules,
                                             "match backend": self.backends}
        table = tables[kind]

        def register(item: Any) -> None:
            if not isinstance(item, types) or (kind == "bot" and not issubclass(item, Bot)):
                what = ("a subclass of gincli.Bot" if kind == "bot"
                        else f"a {kind} ({' or '.join(t.__name__ for t in types)})")
                self.problems.append(f"plugin \"{plugin}\" called register() with {quote(repr(item))}, not {what}; "
                                     "it was left out")
                return
            name = getattr(item, "name", None)
            if not isinstance(name, str) or not name.strip():
                self.problems.append(f"plugin \"{plugin}\" registered a {kind} with the name {quote(name)}; a "
                                     f"{kind} needs a name; it was left out")
                return
            if name in table or any(p.name == name for _, p in pending if kind == "variant"):
                first = self.owner.get((kind, name), "another plugin")
                if self._origin.get(plugin) and self._origin[plugin].builtin and first != plugin:
                    self.replaced[(kind, name)] = plugin  # a plugin replaced a built-in's: on purpose
                    return
                if isinstance(item, PendingVariant):
                    self._clashes.append(item)  # settled once bound: same rules, or a warning
                    return
                self.problems.append(f"the {kind} \"{name}\" of plugin \"{plugin}\" was left out: plugin "
                                     f"\"{first}\" registered that name first (gin plugins shows the order)")
                return
            try:
                self._check_item(kind, item)
            except TypeError as exc:
                sentence = f"plugin \"{plugin}\": {exc}; it was left out"
                self.problems.append(sentence)
                self._leave_out_options(item, f"plugin \"{plugin}\": {exc}; its {kind} {name} was left out")
                if kind in ("variant", "scoring system", "bot"):  # asked for by name: the fault again
                    self._refused_items.setdefault((kind, name), PluginFault(sentence))
                return
            if kind == "move set":
                self._check_keys(plugin, item)
            self.owner[(kind, name)] = plugin
            if isinstance(item, PendingVariant):
                pending.append((plugin, item))
            else:
                try:
                    item.plugin = plugin  # for sentences that name the plugin at fault
                    info = self._origin.get(plugin)
                    if getattr(item, "source", None) == "built-in" and info is not None and not info.builtin:
                        item.source = f"plugin {plugin} ({info.source})"  # the class's default says built-in
                except (AttributeError, TypeError):
                    pass
                table[name] = item

        return register

    def _call_hook(self, pm: pluggy.PluginManager, plugins: list[PluginInfo], hook: str,
                   registrar: Callable[[str], Callable[..., None]]) -> None:
        """Call a ``register`` hook of each plugin, in order of precedence (the
        first of a name wins), with ``registrar(plugin)``'s register(): plugin
        code (:func:`_plugin_code`: what it writes to standard output goes to
        stderr, and it has the import's time limit), whose failure (an exception,
        a ``sys.exit()``, values returned instead of registered, a hook past the
        limit) is a problem naming it, what it registered before staying."""
        for info in plugins:
            plugin = pm.get_plugin(info.name)
            if plugin is None or hook not in info.hooks:
                continue
            others = [p for p in pm.get_plugins() if p is not plugin]
            caller = pm.subset_hook_caller(hook, remove_plugins=others)
            limit = _import_time_limit()
            try:
                with _plugin_code(limit):
                    returned = [r for r in caller(register=registrar(info.name)) if r is not None]
            except _PluginTimeout:
                self.problems.append(f"plugin \"{info.name}\": its {hook} hook did not finish within {limit:g} s "
                                     f"({SETS_THE_LIMIT}); what it registered before stays")
                continue
            except SystemExit as exc:
                self.problems.append(f"plugin \"{info.name}\": its {hook} hook called sys.exit({exc.code!r}); what "
                                     "it registered before stays")
                continue
            except Exception as exc:
                self.problems.append(f"plugin \"{info.name}\": its {hook} hook failed: {type(exc).__name__}: {exc}")
                continue
            if returned:
                self.problems.append(f"plugin \"{info.name}\": its {hook} hook returned {quote(returned)} instead "
                                     "of calling register(); nothing it returned was registered")

    def _command_registrar(self, plugin: str) -> Callable[..., None]:
        """The register() of ``gincli_register_commands``: name -> (function, help, plugin)."""

        def register(function: Any, name: str | None = None, help: str | None = None) -> None:
            if not callable(function):
                self.problems.append(f"plugin \"{plugin}\" called register() with {quote(repr(function))}, "
                                     "not a function; it was left out")
                return
            command = name or getattr(function, "__name__", "").replace("_", "-")
            if not isinstance(command, str) or not command or command.startswith("-"):
                self.problems.append(f"plugin \"{plugin}\" registered a command named {quote(command)}; it "
                                     "was left out")
                return
            if command in BUILTIN_COMMANDS or command in self.commands:
                first = "gincli" if command in BUILTIN_COMMANDS else self.commands[command][2]
                self.problems.append(f"the command \"{command}\" of plugin \"{plugin}\" was left out: "
                                     f"{first} has a command of that name")
                return
            self.commands[command] = (function, help, plugin)
            self.owner[("command", command)] = plugin

        return register

    def _check_item(self, kind: str, item: Any) -> None:
        """What a registered item must be, beyond its type and name: TypeError,
        one clause naming the field, when not. Every option it declares is checked
        too (:func:`option_problem`)."""
        description = getattr(item, "description", "")
        if not isinstance(description, str):
            raise TypeError(f"the {kind} {item.name}'s description must be text, not {quote(repr(description))}")
        if kind == "move set":
            self._check_moveset(item)
        elif kind == "meld rules":
            self._check_options(f"the meld rules {item.name}", item.options)
        elif kind == "match backend":
            check_backend(item)
        elif kind == "bot":
            check_option_list(f"the bot {item.name}", getattr(item, "parameters", None), "parameters")
        elif kind == "scoring system":
            counts = getattr(item, "players", None)
            if (not isinstance(counts, tuple) or not counts
                    or not all(type(n) is int and 2 <= n <= 4 for n in counts)):
                raise TypeError(f"the scoring system {item.name}'s players must be a tuple of counts from 2 to 4, "
                                f"not {quote(repr(counts))}")
            check_option_list(f"the scoring system {item.name}", getattr(item, "options", None))
        elif kind == "variant" and isinstance(item, Variant):
            if not isinstance(item.defaults, dict):
                raise TypeError(f"the variant {item.name}'s defaults must be a dict")
            check_option_list(f"the variant {item.name}", item.extra_options, "extra_options")

    def _check_code_variants(self) -> None:
        """A variant made in code with a default for something that is not an
        option: said, since that default would be ignored."""
        for name, variant in list(self.variants.items()):
            plugin = self.owner.get(("variant", name))
            if plugin is None or not isinstance(getattr(variant, "defaults", None), dict):
                continue
            specs = self.all_option_specs(variant)
            unknown = [key for key in variant.defaults if key not in specs]
            if unknown:  # as a variant file's unknown option: never played without it
                self._refuse(name, f"plugin \"{plugin}\": the variant {name} has a default for "
                                   f"{quote(unknown[0])}, which is not an option (the options are "
                                   f"{', '.join(sorted(specs))}), so the variant was left out")
                continue
            for key, value in variant.defaults.items():
                try:
                    specs[key].coerce(value)
                except ValueError as exc:
                    self._refuse(name, f"plugin \"{plugin}\": the variant {name}'s default for {key} is wrong: "
                                       f"{exc}; the variant was left out")
                    break

    def _refuse(self, name: str, sentence: str) -> None:
        """Leave out a plugin's variant: a warning now, and the sentence again,
        a plugin's fault (exit 4), when it is asked for by name."""
        del self.variants[name]
        self._refused[name] = PluginFault(sentence)
        self.problems.append(sentence)

    def _check_meld_data(self) -> None:
        """Each meld rules' data with every option at its default (melds, card
        values, layoffs onto gin, words: :meth:`MeldRules.checked_data`), as
        plugin code; meld rules that break their contract there are left out, one
        sentence naming the plugin and the method. Under other rules the same
        checks run when they are asked for."""
        if not self.meld_rules:
            return
        defaults = resolve(self.all_option_specs(Variant("defaults")))
        limit = _import_time_limit()
        for name, mr in list(self.meld_rules.items()):
            why = None
            try:
                with _plugin_code(limit):
                    mr.checked_data(defaults)
            except PluginFault as exc:
                why = f"{exc.message}, with every option at its default"
            except _PluginTimeout:
                why = (f"plugin \"{plugin_of(mr)}\": the meld rules {name} did not say what a meld is within "
                       f"{limit:g} s ({SETS_THE_LIMIT})")
            if why is not None:
                del self.meld_rules[name]
                self._leave_out_options(mr, f"{why}; the meld rules {name} were left out")
                self.problems.append(f"{why}; the meld rules {name} were left out")

    def _leave_out_options(self, item: Any, sentence: str) -> None:
        """The options of an item left out for its plugin's fault: asked for by
        name, they are that fault again (exit 4), not an unknown option."""
        for opt in getattr(item, "options", None) or ():
            name = getattr(opt, "name", None)
            if isinstance(name, str) and name not in self._left_out:
                self._left_out[name] = f"{sentence}, and with them the option {quote(name)}"

    def check_left_out(self, keys: Iterable[str], specs: Mapping[str, Option]) -> None:
        """A :class:`PluginFault` when one of ``keys`` (options asked for) is no
        option only because the plugin that adds it was left out for its fault."""
        for key in keys:
            if key not in specs and key in self._left_out:
                raise PluginFault(self._left_out[key])

    def _check_moveset(self, ms: MoveSet) -> None:
        """A move set's actions and options may not take those of the rule book or
        of another move set."""
        taken = {a: "the rule book" for a in ACTIONS}
        for other in self.movesets.values():
            taken.update(dict.fromkeys(other.actions, f"the move set {other.name}"))
        for attr in ("actions", "outcomes", "record_fields"):
            names = getattr(ms, attr, None)
            if not isinstance(names, tuple) or not all(isinstance(a, str) and a.strip() for a in names):
                raise TypeError(f"the move set {ms.name}'s {attr} must be a tuple of names, not {quote(repr(names))}")
        rule_ids = getattr(ms, "rule_ids", None)
        if (not isinstance(rule_ids, Mapping)
                or not all(isinstance(k, str) and k and isinstance(v, str) for k, v in rule_ids.items())):
            raise TypeError(f"the move set {ms.name}'s rule_ids must map rule ids to what each means (text), not "
                            f"{quote(repr(rule_ids))}")
        for action in ms.actions:
            if action in taken:
                raise TypeError(f"the move set {ms.name} adds the action {quote(action)}, which is {taken[action]}'s")
        self._check_options(f"the move set {ms.name}", ms.options)

    def _check_options(self, what: str, added: Any) -> None:
        """The options a move set or meld rules add to every variant may not take
        those of the rule book, of a move set or of meld rules."""
        options = {o.name: "the rule book" for o in PLAY_OPTIONS}
        for kind, table in (("move set", self.movesets), ("meld rules", self.meld_rules)):
            for other in table.values():
                options.update(dict.fromkeys((o.name for o in other.options), f"the {kind} {other.name}"))
        check_option_list(what, added)
        for opt in added:
            if opt.name in options:
                raise TypeError(f"{what} adds the option {quote(opt.name)}, which is {options[opt.name]}'s")

    def _check_keys(self, plugin: str, ms: MoveSet) -> None:
        """A move set's ``keys`` (short commands in ``gin play``): each an action of its own
        and a lower-case word that ``gin play`` does not read itself, as a card, a position
        or another move set's; a key that is not is left out with a warning (the action's
        name still works)."""
        import re

        keys = ms.keys
        if not isinstance(keys, Mapping):
            self.problems.append(f"plugin \"{plugin}\": the move set {ms.name}'s keys must be a mapping of its "
                                 f"actions to short commands, not {quote(repr(keys))}; they were left out")
            ms.keys = {}
            return
        card = re.compile(r"(10|[2-9tjqka])\s*[shdc♠♥♦♣]")
        kept = {}
        for action, key in keys.items():
            if action not in ms.actions:
                why = f"{quote(action)} is not one of its actions ({', '.join(ms.actions) or 'it has none'})"
            elif not isinstance(key, str) or not key or key != key.strip().lower() or len(key.split()) != 1:
                why = f"the key {quote(key)} for {action} is not one lower-case word"
            elif key in PLAY_KEYS:
                why = f"the key {quote(key)} for {action} is gin play's own ({PLAY_KEYS[key]})"
            elif key.isdigit() or card.fullmatch(key):
                why = f"the key {quote(key)} for {action} reads as a card or a card's position in gin play"
            else:
                kept[action] = key
                continue
            self.problems.append(f"plugin \"{plugin}\": the move set {ms.name}'s keys: {why}, so it was left out "
                                 f"(gin play keeps {', '.join(sorted(k for k in PLAY_KEYS if len(k) == 1))}, "
                                 f"its words, cards and numbers for itself)")
        if len(kept) != len(keys):
            ms.keys = kept

    def _settle_keys(self) -> None:
        """Two move sets may not give one key (or a key another's action): the built-ins'
        keys stay, then the first plugin's in order of precedence; a later one's is left
        out with a warning naming it."""
        owners = {name: self.owner.get(("move set", name), "?") for name in self.movesets}
        builtin = {info.name for info in self.plugins if info.builtin}
        order = sorted(self.movesets.values(), key=lambda ms: owners[ms.name] not in builtin)  # stable
        taken: dict[str, str] = {}
        for ms in order:
            taken.update({a: f"the move set {ms.name}'s action" for a in ms.actions})
        for ms in order:
            kept = {}
            for action, key in ms.keys.items():
                other = taken.get(key)
                if other is not None and other != f"the move set {ms.name}'s action":
                    self.problems.append(f"plugin \"{owners[ms.name]}\": the move set {ms.name}'s key {quote(key)} "
                                         f"for {action} is {other}, so it was left out (the action's name still "
                                         "works in gin play)")
                    continue
                kept[action] = key
                taken[key] = f"the move set {ms.name}'s key for {action}"
            if len(kept) != len(ms.keys):
                ms.keys = kept

    def _bind(self, pending: list[tuple[str, PendingVariant]]) -> None:
        """Give each variant file its base, once every plugin has registered."""
        waiting = list(pending)
        while waiting:
            progress = False
            for plugin, pv in list(waiting):
                if pv.base is None or pv.base in self.variants:
                    waiting.remove((plugin, pv))
                    progress = True
                    try:
                        self.variants[pv.name] = self.bind_variant(pv)
                    except ConfigError as exc:
                        self.problems.append(str(exc))
                        self._refused[pv.name] = exc
            if not progress:
                for _, pv in waiting:
                    self.problems.append(f"variant file {pv.source}: unknown base variant \"{pv.base}\"; "
                                         f"the variants are {', '.join(sorted(self.variants))}")
                break

    def _settle_clashes(self) -> None:
        """A variant file naming a variant already registered is left out: silently
        when its rules are the same, with a warning naming the file when not."""
        for pv in self._clashes:
            try:
                variant = self.bind_variant(pv)
            except ConfigError as exc:
                self.problems.append(str(exc))
                continue
            differs = self.rules_differ(variant)
            if differs:
                self.problems.append(f"variant file {pv.source} was left out: {differs}")

    def rules_differ(self, variant: Variant) -> str | None:
        """When a variant of the same name is already registered with other rules:
        one clause saying so (the name, where the other is from, what differs)."""
        other = self.variants.get(variant.name)
        if other is None or other is variant:
            return None
        mine, theirs = self.variant_defaults(variant), self.variant_defaults(other)
        diff = [f"{k} {format_value(mine.get(k))} here, {format_value(theirs.get(k))} there"
                for k in sorted(set(mine) | set(theirs)) if mine.get(k) != theirs.get(k)]
        if type(variant) is not type(other):
            diff.append(f"the behaviour of {type(other).__name__}")
        if not diff:
            return None
        return (f"it names the variant {quote(variant.name)}, already defined by {other.source}, but with other rules "
                f"({'; '.join(diff[:3])}{'; …' if len(diff) > 3 else ''}); give it another name")

    def variant_defaults(self, variant: Variant) -> dict[str, Any]:
        """Every option's value under a variant, before any override."""
        specs = self.all_option_specs(variant)
        return {k: variant.defaults.get(k, spec.default) for k, spec in specs.items()}

    def bind_variant(self, pv: PendingVariant) -> Variant:
        """Make a variant from a variant file, checking its options against its base."""
        found = Variant(pv.name, pv.description, {}, pv.source) if pv.base is None else self.variants.get(pv.base)
        if found is None:
            raise ConfigError(f"variant file {pv.source}: unknown base variant \"{pv.base}\"; "
                              f"the variants are {', '.join(sorted(self.variants))}")
        base = found
        specs = self.all_option_specs(base)
        try:
            values = resolve(specs, pv.options, where=f"variant file {pv.source}")
        except ValueError as exc:
            raise ConfigError(str(exc)) from None
        return base.derive(pv.name, pv.description, {k: values[k] for k in pv.options}, pv.source)

    def all_option_specs(self, variant: Variant) -> dict[str, Option]:
        """Options a variant file may set: the variant's, every move set's, and every
        scoring system's."""
        specs = self.play_options(variant)
        for system in self.scoring_systems.values():
            for opt in system.options:
                specs.setdefault(opt.name, opt)
        return specs

    # -- lookups ---------------------------------------------------------------------

    def variant(self, name: str, files: bool = True) -> Variant:
        """A variant by name, or (with ``files``) from a variant file when ``name``
        is a path (ends in ``.toml`` or contains a ``/``). Unknown: :class:`UsageError`."""
        found = self.variants.get(name)
        if found is not None:
            return found
        if files and (name.endswith(".toml") or os.sep in name or "/" in name):
            path = Path(name)
            pv = PendingVariant.from_file(path)
            pv.source = str(path)
            variant = self.bind_variant(pv)
            differs = self.rules_differ(variant)
            if differs:
                raise UsageError(f"variant file {path}: {differs}")
            self.variants[name] = variant
            self.variants.setdefault(variant.name, variant)  # transcripts name it by its name
            return variant
        if name in self._refused:
            raise self._refused[name]
        if ("variant", name) in self._refused_items:
            raise self._refused_items[("variant", name)]
        named = sorted(n for n in self.variants if not n.endswith(".toml") and "/" not in n)
        raise UsageError(f"unknown variant {quote(name)}; the variants are {', '.join(named)}")

    def add_bots_file(self, path: str | Path) -> None:
        """Make the named bots of a bots file known (``--bots-file``); its names
        come before the configuration folder's. :class:`ConfigError` when it is wrong."""
        from ..matches.external.botsfile import read_bots_file

        for name, spec in read_bots_file(Path(path)).items():
            if name in self.bots:
                raise ConfigError(f"the bots file {path} names the bot {quote(name)}, which is "
                                  f"{self.owner.get(('bot', name), 'another plugin')}'s; give it another name")
            self.named_bots[name] = spec
        self._bot_cache.clear()

    def _add_user_bots(self) -> None:
        """The named bots of ``bots.toml`` in the configuration folder; one taking a
        registered bot's name is left out with a warning."""
        from ..matches.external.botsfile import read_bots_file

        path = config_dir() / "bots.toml"
        if not path.exists() or path.is_dir():
            return  # a FIFO or a device is said (read_toml), never read
        try:
            found = read_bots_file(path)
        except ConfigError as exc:
            self.problems.append(str(exc))
            return
        for name, spec in found.items():
            if name in self.bots:
                self.problems.append(f"the bot {quote(name)} of {path} was left out: it is "
                                     f"{self.owner.get(('bot', name), 'another plugin')}'s name")
            else:
                self.named_bots[name] = spec

    def add_bot_object(self, label: str, factory: Any) -> None:
        """Make ``label`` name a bot factory built in this process (a Python bot
        object of :func:`gincli.play_match`), until :meth:`drop_bot_object`."""
        self._bot_cache[label] = factory

    def drop_bot_object(self, label: str) -> None:
        """Forget what :meth:`add_bot_object` made ``label`` name (the match is over)."""
        self._bot_cache.pop(label, None)

    def bot(self, spec: str) -> Any:
        """A bot factory for a spec: a bot's name with any parameters
        (``master:samples=40:k=v``), a named bot of a bots file (likewise), or
        ``exec:COMMAND`` for an external program; :class:`UsageError` when it
        cannot be made."""
        found = self._bot_cache.get(spec)
        if found is None:
            found = self._bot_cache[spec] = self._make_bot(spec)
        return found

    def _make_bot(self, spec: str) -> Any:
        import dataclasses
        import shutil

        from ..matches.external import ExternalSpec, external_bot

        if spec.startswith("exec:"):
            ext = ExternalSpec.from_command(spec[len("exec:"):].strip())
        else:
            name, _, rest = spec.partition(":")
            params = self._bot_params(spec, rest)
            if name in self.named_bots:
                ext = self.named_bots[name]
                if params:
                    ext = dataclasses.replace(ext, parameters=tuple(sorted({**dict(ext.parameters),
                                                                            **params}.items())))
            else:
                cls = self.bots.get(name)
                if cls is None and ("bot", name) in self._refused_items:
                    raise self._refused_items[("bot", name)]
                if cls is None:
                    known = sorted(self.bots) + sorted(self.named_bots)
                    raise UsageError(f"unknown bot {quote(name)}; the bots are {', '.join(known)}, "
                                     "or exec:COMMAND for an external program")
                if not params and not cls.parameters:
                    return cls
                specs = {o.name: o for o in cls.parameters}
                try:
                    values = resolve(specs, params, where=f"the bot {name}")
                except ValueError as exc:
                    raise UsageError(str(exc) if specs else f"the bot {name} takes no parameters") from None
                return type(cls.__name__, (cls,), {"params": values, "__module__": cls.__module__})
        program = ext.argv[0]
        where = Path(ext.cwd) / program if ext.cwd and os.sep in program else Path(program)
        if shutil.which(program) is None and not (os.sep in program and where.is_file()):
            raise UsageError(f"cannot run {ext.label}: {program} is not a program on the PATH or a path")
        return external_bot(ext)

    @staticmethod
    def _bot_params(spec: str, text: str) -> dict[str, Any]:
        """``k=v:k2=v2`` of a bot spec, the values read as ``--option`` values are."""
        from ..rulebook.rules import parse_value

        params: dict[str, Any] = {}
        for item in filter(None, text.split(":")):
            key, sep, value = item.partition("=")
            if not sep or not key.strip():
                raise UsageError(f"a bot's parameters are written name:key=value:key=value, not {quote(spec)}")
            params[key.strip().replace("-", "_")] = parse_value(value)
        return params

    def scoring(self, name: str) -> ScoringSystem:
        found = self.scoring_systems.get(name)
        if found is None and ("scoring system", name) in self._refused_items:
            raise self._refused_items[("scoring system", name)]
        if found is None:
            raise UsageError(f"unknown scoring system {quote(name)}; the scoring systems are "
                             f"{', '.join(sorted(self.scoring_systems))}")
        return found

    def _option_owners(self) -> list[MoveSet | MeldRules]:
        """The move sets and meld rules, whose options any variant may turn on."""
        return [*self.movesets.values(), *self.meld_rules.values()]

    def play_options(self, variant: Variant) -> dict[str, Option]:
        """The options of play of a variant: the rule book's, the variant's own, and
        those of every move set and meld rules (which any variant may turn on)."""
        specs = dict(variant.options)
        for ms in self._option_owners():
            for opt in ms.options:
                specs.setdefault(opt.name, opt)
        return specs

    def option_specs(self, variant: Variant, scoring: ScoringSystem) -> dict[str, Option]:
        specs = self.play_options(variant)
        for opt in scoring.options:
            specs[opt.name] = opt
        return specs

    def rules(self, variant: Variant, scoring: ScoringSystem, overrides: Mapping[str, Any] | None = None,
              where: str = "--option") -> Rules:
        """The rules of a session: option defaults, then the variant's, then
        ``overrides``. A bad override raises ``ValueError`` (one sentence)."""
        try:
            key = (id(variant), scoring.name, tuple(sorted((overrides or {}).items())), where)
            hash(key)
        except TypeError:
            key = None
        if key is not None and key in self._rules_cache:
            return self._rules_cache[key]
        specs = self.option_specs(variant, scoring)
        self.check_left_out(overrides or {}, specs)
        own = {k: v for k, v in variant.defaults.items() if k in specs}
        values = resolve(specs, own, overrides or {}, where=where)
        rules = Rules(values, tuple(ms for ms in self.movesets.values() if self._enabled(ms, values)),
                      self._melds_of(values))
        if key is not None:
            self._rules_cache[key] = rules
        return rules


    def _melds_of(self, values: Rules) -> Any:
        """The meld rules these values turn on, solved (the rule book's unless a
        plugin's are on); ``ValueError`` when two are."""
        on = [mr for mr in self.meld_rules.values() if self._enabled(mr, values, "meld rules")]
        if len(on) > 1:
            raise ValueError(f"the meld rules {on[0].name} and {on[1].name} are both on, and at most one may be "
                             "(they say what a meld is): turn one off")
        return on[0].solver(values) if on else None

    # -- what a transcript writes of its rules ---------------------------------------------

    def transcript_options(self, variant: Variant, rules: Rules) -> dict[str, Any]:
        """The ``options`` a transcript writes (docs/formats.md): every option of
        the rule book, the variant and the scoring system, and those of each move
        set that is on; an option of a move set that is off only when it differs
        from the variant's default. A transcript of plain play then holds nothing
        of a move set that happens to be installed."""
        on = {ms.name for ms in rules.movesets} | {self._meld_rules_on(rules)}
        owned = {o.name: ms.name for ms in self._option_owners() for o in ms.options}
        own = variant.options
        defaults: dict[str, Any] | None = None
        out: dict[str, Any] = {}
        for key, value in rules.items():
            if key in GINCLI_OPTIONS and value == GINCLI_OPTIONS[key]:
                continue  # gincli's own addition to the rule book, at its default: other programs need not know it
            owner = owned.get(key)
            if owner is not None and owner not in on and key not in own:
                if defaults is None:
                    defaults = self.variant_defaults(variant)
                if key in defaults and defaults[key] == value:
                    continue
            out[key] = value
        return out

    def transcript_plugins(self, variant: Variant, system: ScoringSystem, rules: Rules,
                           options: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
        """The ``plugins`` a transcript writes (docs/formats.md): each plugin, but
        gincli's built-ins, that provides what its rules need (the variant, the
        scoring system, a move set that is on, an option written in
        ``options``), by name, with its package and version when known and what it
        provides: so that a machine without it can say which plugin is missing."""
        out: dict[str, dict[str, Any]] = {}

        def need(kind: str, name: str, field: str, item: str | None = None) -> dict[str, Any] | None:
            plugin = self.owner.get((kind, name))
            info = self._origin.get(plugin) if plugin is not None else None
            if info is None or info.builtin:
                return None
            entry = out.get(info.name)
            if entry is None:
                entry = out[info.name] = _plugin_identity(info, self.pm.get_plugin(info.name))
            if field in ("variant", "scoring"):
                entry[field] = name
            else:
                entry.setdefault(field, [])
                if (item or name) not in entry[field]:
                    entry[field].append(item or name)
            return entry

        need("variant", variant.name, "variant")
        need("scoring system", system.name, "scoring")
        for ms in rules.movesets:
            need("move set", ms.name, "movesets")
        melds = self._meld_rules_on(rules)
        if melds is not None:
            need("meld rules", melds, "meld_rules")
        rule_book = {o.name for o in PLAY_OPTIONS}
        extra = {o.name for o in getattr(variant, "extra_options", ())}
        for key in options:
            if key in rule_book:
                continue
            if key in extra:
                need("variant", variant.name, "options", key)
            elif any(o.name == key for o in system.options):
                need("scoring system", system.name, "options", key)
            else:
                ms = next((m for m in self.movesets.values() if any(o.name == key for o in m.options)), None)
                if ms is not None:
                    need("move set", ms.name, "movesets")
                    need("move set", ms.name, "options", key)
                mr = next((m for m in self.meld_rules.values() if any(o.name == key for o in m.options)), None)
                if mr is not None:
                    need("meld rules", mr.name, "meld_rules")
                    need("meld rules", mr.name, "options", key)
        return out

    def _meld_rules_on(self, rules: Rules) -> str | None:
        """The name of the meld rules these rules play with, if a plugin's are on."""
        solver = getattr(rules, "melds", None)
        if solver is None or getattr(solver, "standard", True):
            return None
        return solver.name if solver.name in self.meld_rules else None

    def _enabled(self, ms: MoveSet | MeldRules, values: Rules, kind: str = "move set") -> bool:
        try:
            on = ms.enabled(values)
        except Exception as exc:
            raise PluginFault(f"plugin \"{self.owner.get((kind, ms.name), '?')}\": its {kind} {ms.name} "
                              f"failed to say whether it is on: {type(exc).__name__}: {exc}") from None
        if not isinstance(on, bool):
            raise PluginFault(f"plugin \"{self.owner.get((kind, ms.name), '?')}\": its {kind} {ms.name} "
                              f"answered enabled() with {quote(on)}, not true or false")
        return on


def _plugin_identity(info: PluginInfo, module: Any) -> dict[str, Any]:
    """A plugin as a transcript names it: its package and version, when known."""
    entry: dict[str, Any] = {}
    if info.origin == "package" and info.source.startswith("package "):
        from ..base.packages import version

        package = info.source[len("package "):]
        entry["package"] = package
        found_version = version(package)
        if found_version:
            entry["version"] = found_version
    if "version" not in entry:
        found = getattr(module, "__version__", None)
        if isinstance(found, str) and found:
            entry["version"] = found[:40]
    return entry


def load_registry(plugin_dirs: Iterable[str | Path] = (), disabled: Iterable[str] = (),
                  entry_points: bool = True, notice: Callable[[str], None] | None = None) -> Registry:
    """Load every plugin and collect what it registers (the one factory);
    ``notice``: as :func:`make_plugin_manager`'s."""
    pm, infos, problems = make_plugin_manager(plugin_dirs, disabled, entry_points, notice)
    return Registry(pm, infos, problems)
