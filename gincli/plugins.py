"""The plugin manager and the registry of what plugins contribute.

:func:`load_registry` is the one factory: it builds a pluggy plugin manager
with gincli's hook specifications, registers third-party plugins (the
``gincli`` entry-point group, then plugin directories), then the built-ins
(``DEFAULT_PLUGINS``, which go through the very same hooks), checks every
plugin's hooks, and collects the variants and scoring systems each one
registers. A plugin that fails to import or breaks a hook's contract is left
out with one clear sentence naming it (``Registry.problems``); the rest of
gincli still works.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import pluggy

from . import hookspecs
from .errors import ConfigError, PluginError, UsageError, quote
from .rules import PLAY_OPTIONS, Option, Rules, format_value, resolve
from .bots import Bot
from .moves import ACTIONS
from .moveset import MoveSet
from .session import ScoringSystem
from .variant import PendingVariant, Variant

#: Built-in plugins: module name -> plugin name. Registered after third-party
#: plugins, so a third-party plugin may replace a built-in variant or system.
DEFAULT_PLUGINS: dict[str, str] = {
    "gincli_builtin.variants": "gincli-variants",
    "gincli_builtin.scoring": "gincli-scoring",
    "gincli_builtin.bots": "gincli-bots",
    "gincli_builtin.doubling": "gincli-doubling",
}
ENTRY_POINT_GROUP = "gincli"
ENV_DISABLE = "GINCLI_DISABLE_PLUGINS"
ENV_PLUGINS_DIR = "GINCLI_PLUGINS_DIR"
ENV_CONFIG_DIR = "GINCLI_CONFIG_DIR"

#: What each kind of item is registered through, and must be an instance of.
KINDS: dict[str, tuple[str, tuple[type, ...]]] = {
    "variant": ("gincli_register_variants", (Variant, PendingVariant)),
    "scoring system": ("gincli_register_scoring_systems", (ScoringSystem,)),
    "bot": ("gincli_register_bots", (type,)),
    "move set": ("gincli_register_moves", (MoveSet,)),
}


@dataclass
class PluginInfo:
    """One loaded plugin: its name, where it came from, the hooks it implements."""

    name: str
    source: str
    hooks: list[str] = field(default_factory=list)
    builtin: bool = False


def config_dir() -> Path:
    """The user's gincli configuration directory (``GINCLI_CONFIG_DIR``, else
    ``$XDG_CONFIG_HOME/gincli``, else ``~/.config/gincli``)."""
    env = os.environ.get(ENV_CONFIG_DIR)
    if env:
        return Path(env)
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "gincli"


def split_names(text: str | None) -> list[str]:
    return [n.strip() for n in (text or "").split(",") if n.strip()]


def make_plugin_manager(plugin_dirs: Iterable[str | Path] = (), disabled: Iterable[str] = (),
                        entry_points: bool = True) -> tuple[pluggy.PluginManager, list[PluginInfo], list[str]]:
    """Build the plugin manager: hook specs, third-party plugins, built-ins.

    Returns ``(manager, plugins loaded, problems)``; each problem is one
    sentence naming a plugin that was left out.
    """
    pm = pluggy.PluginManager("gincli")
    pm.add_hookspecs(hookspecs)
    blocked = set(disabled) | set(split_names(os.environ.get(ENV_DISABLE)))
    for name in blocked:
        pm.set_blocked(name)
    infos: list[PluginInfo] = []
    problems: list[str] = []

    def add(obj: object, name: str, source: str, builtin: bool = False) -> None:
        try:
            pm.register(obj, name=name)
            pm.check_pending()
        except pluggy.PluginValidationError as exc:
            if pm.is_registered(obj):
                pm.unregister(obj)
            problems.append(f"plugin \"{name}\" ({source}) was not loaded: {exc}")
            return
        except ValueError as exc:  # a second plugin of the same name
            problems.append(f"plugin \"{name}\" ({source}) was not loaded: {exc}")
            return
        hooks = sorted(h.name for h in (pm.get_hookcallers(obj) or []))
        infos.append(PluginInfo(name, source, hooks, builtin))

    if entry_points:
        from importlib.metadata import entry_points as find_entry_points

        for ep in find_entry_points(group=ENTRY_POINT_GROUP):
            if ep.name in blocked or pm.has_plugin(ep.name):
                continue
            dist = getattr(ep.dist, "name", None) or "?"
            try:
                obj = ep.load()
            except Exception as exc:  # a broken plugin must not break gincli
                problems.append(f"plugin \"{ep.name}\" (package {dist}) failed to import: "
                                f"{type(exc).__name__}: {exc}")
                continue
            add(obj, ep.name, f"package {dist}")

    dirs = [Path(d) for d in plugin_dirs]
    dirs += [Path(d) for d in os.environ.get(ENV_PLUGINS_DIR, "").split(os.pathsep) if d]
    for directory in dirs:
        if not directory.is_dir():
            problems.append(f"plugins directory {directory} does not exist")
            continue
        for path in sorted(directory.iterdir()):
            if path.name.startswith(("_", ".")):
                continue
            if path.suffix == ".py":
                name = path.stem
            elif (path / "__init__.py").is_file():
                name = path.name
            else:
                continue
            if name in blocked or pm.has_plugin(name):
                continue
            try:
                obj = _import_path(name, path)
            except Exception as exc:
                problems.append(f"plugin \"{name}\" ({path}) failed to import: {type(exc).__name__}: {exc}")
                continue
            add(obj, name, str(path))

    for module, name in DEFAULT_PLUGINS.items():
        if name in blocked:
            continue
        add(importlib.import_module(module), name, "built-in", builtin=True)
    return pm, infos, problems


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
        self.owner: dict[tuple[str, str], str] = {}
        self._rules_cache: dict[Any, Rules] = {}
        pending: list[tuple[str, PendingVariant]] = []
        self._clashes: list[PendingVariant] = []  # variant files naming a variant already registered
        # Third-party plugins first, built-ins last: the first of a name wins.
        ordered = [p for p in plugins if not p.builtin] + [p for p in plugins if p.builtin]
        for kind, (hook, types) in KINDS.items():
            for info in ordered:
                plugin = pm.get_plugin(info.name)
                if plugin is None or hook not in info.hooks:
                    continue
                others = [p for p in pm.get_plugins() if p is not plugin]
                caller = pm.subset_hook_caller(hook, remove_plugins=others)
                register = self._registrar(kind, types, info.name, pending)
                try:
                    caller(register=register)
                except Exception as exc:
                    problems.append(f"plugin \"{info.name}\": its {hook} hook failed: {type(exc).__name__}: {exc}")
        self._add_user_variants(pending)
        self._bind(pending)
        self._settle_clashes()

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

    def _registrar(self, kind: str, types: tuple[type, ...], plugin: str,
                   pending: list[tuple[str, PendingVariant]]) -> Callable[[Any], None]:
        table: dict[str, Any] = {"variant": self.variants, "scoring system": self.scoring_systems,
                                 "bot": self.bots, "move set": self.movesets}[kind]

        def register(item: Any) -> None:
            if not isinstance(item, types) or (kind == "bot" and not issubclass(item, Bot)):
                what = "a subclass of gincli.Bot" if kind == "bot" else f"a {kind}"
                raise TypeError(f"register() takes {what}, not {item!r}")
            name = getattr(item, "name", None)
            if not isinstance(name, str) or not name:
                raise TypeError(f"a {kind} needs a non-empty name")
            if name in table or any(p.name == name for _, p in pending if kind == "variant"):
                if isinstance(item, PendingVariant):
                    self._clashes.append(item)  # settled once bound: same rules, or a warning
                    return
                first = self.owner.get((kind, name), "another plugin")
                self.problems.append(f"plugin \"{plugin}\" registered the {kind} \"{name}\", "
                                     f"already registered by \"{first}\"; the second was ignored")
                return
            if kind == "move set":
                self._check_moveset(item, plugin)
            self.owner[(kind, name)] = plugin
            if isinstance(item, PendingVariant):
                pending.append((plugin, item))
            else:
                table[name] = item

        return register

    def _check_moveset(self, ms: MoveSet, plugin: str) -> None:
        """A move set's actions and options may not take those of the rule book or
        of another move set."""
        taken = {a: "the rule book" for a in ACTIONS}
        options = {o.name: "the rule book" for o in PLAY_OPTIONS}
        for other in self.movesets.values():
            taken.update(dict.fromkeys(other.actions, f"the move set {other.name}"))
            options.update(dict.fromkeys((o.name for o in other.options), f"the move set {other.name}"))
        if not isinstance(ms.actions, tuple) or not all(isinstance(a, str) and a for a in ms.actions):
            raise TypeError(f"the move set {ms.name}'s actions must be a tuple of names")
        for action in ms.actions:
            if action in taken:
                raise TypeError(f"the move set {ms.name} adds the action {action!r}, which is {taken[action]}'s")
        for opt in ms.options:
            if not isinstance(opt, Option):
                raise TypeError(f"the move set {ms.name}'s options must be gincli.Option objects")
            if opt.name in options:
                raise TypeError(f"the move set {ms.name} adds the option {opt.name!r}, which is {options[opt.name]}'s")

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
        if pv.base is None:
            base = Variant(pv.name, pv.description, {}, pv.source)
        else:
            base = self.variants.get(pv.base)
            if base is None:
                raise ConfigError(f"variant file {pv.source}: unknown base variant \"{pv.base}\"; "
                                  f"the variants are {', '.join(sorted(self.variants))}")
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
        named = sorted(n for n in self.variants if not n.endswith(".toml") and "/" not in n)
        raise UsageError(f"unknown variant {quote(name)}; the variants are {', '.join(named)}")

    def bot(self, spec: str) -> Any:
        """A bot factory by name, or ``exec:COMMAND`` for an external program;
        :class:`UsageError` when unknown."""
        if spec.startswith("exec:"):
            from .external import external_bot

            import shlex
            import shutil

            command = spec[len("exec:"):].strip()
            if not command:
                raise UsageError("exec: needs a command, for example exec:python3 examples/bot.py")
            try:
                program = shlex.split(command)[0]
            except ValueError as exc:
                raise UsageError(f"cannot read the command of {spec}: {exc}") from None
            if shutil.which(program) is None:
                raise UsageError(f"cannot run {spec}: {program} is not a program on the PATH or a path")
            return external_bot(command)
        found = self.bots.get(spec)
        if found is None:
            raise UsageError(f"unknown bot {quote(spec)}; the bots are {', '.join(sorted(self.bots))}, "
                             "or exec:COMMAND for an external program")
        return found

    def scoring(self, name: str) -> ScoringSystem:
        found = self.scoring_systems.get(name)
        if found is None:
            raise UsageError(f"unknown scoring system {quote(name)}; the scoring systems are "
                             f"{', '.join(sorted(self.scoring_systems))}")
        return found

    def play_options(self, variant: Variant) -> dict[str, Option]:
        """The options of play of a variant: the rule book's, the variant's own, and
        those of every move set (which any variant may turn on)."""
        specs = dict(variant.options)
        for ms in self.movesets.values():
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
        own = {k: v for k, v in variant.defaults.items() if k in specs}
        values = resolve(specs, own, overrides or {}, where=where)
        rules = Rules(values, tuple(ms for ms in self.movesets.values() if self._enabled(ms, values)))
        if key is not None:
            self._rules_cache[key] = rules
        return rules


    def _enabled(self, ms: MoveSet, values: Rules) -> bool:
        try:
            on = ms.enabled(values)
        except Exception as exc:
            raise PluginError(f"plugin \"{self.owner.get(('move set', ms.name), '?')}\": its move set {ms.name} "
                              f"failed to say whether it is on: {type(exc).__name__}: {exc}") from None
        if not isinstance(on, bool):
            raise PluginError(f"plugin \"{self.owner.get(('move set', ms.name), '?')}\": its move set {ms.name} "
                              f"answered enabled() with {on!r}, not true or false")
        return on


def load_registry(plugin_dirs: Iterable[str | Path] = (), disabled: Iterable[str] = (),
                  entry_points: bool = True) -> Registry:
    """Load every plugin and collect what it registers (the one factory)."""
    pm, infos, problems = make_plugin_manager(plugin_dirs, disabled, entry_points)
    return Registry(pm, infos, problems)
