"""The registry: what the loaded plugins contribute, looked up by name.

:func:`load_registry` is the one factory: it loads the plugins
(:mod:`.loading`), collects and checks what each registers
(:mod:`.registration`), and hands back a :class:`Registry`, the read side:
variants, scoring systems and bots by name, the rules a session plays by, and
what a transcript writes of them. The layers below receive it as one of their
own read-only protocols (:class:`gincli.formats.records.RecordSource`,
:class:`gincli.matches.runner.MatchSource`,
:class:`gincli.matches.backends.BackendSource`), each naming only what that
layer needs; mypy checks that the registry is each of them.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import pluggy

from ..base.contract import PluginFault
from ..base.errors import ConfigError, UsageError, quote
from ..hand.bots import Bot
from ..hand.moveset import MoveSet
from ..rulebook.meldrules import MeldRules
from ..rulebook.rng import SplitMix64
from ..rulebook.rules import PLAY_OPTIONS, Option, Rules, resolve
from ..rulebook.variant import PendingVariant, Variant
from ..sessions.systems import ScoringSystem
from .loading import PluginInfo, PluginLoading
from .registration import Catalogue, register

#: Options of play a transcript writes only when they are not at their default: gincli's additions
#: to the rule book (RULES.md names none of them), and irregular_hand_penalty, which only a hand
#: found irregular at the table reads (transcripts of play without one stay as they were).
GINCLI_OPTIONS: dict[str, Any] = {"knock_limit_cap": "off", "irregular_hand_penalty": 10}


class Registry(Catalogue):
    """What the loaded plugins contribute (a :class:`Catalogue`, registered and
    checked when it is made), and the lookups every command makes of it."""

    def __init__(self, pm: pluggy.PluginManager, plugins: list[PluginInfo], problems: list[str]):
        super().__init__(pm, plugins, problems)
        self._bot_cache: dict[str, Callable[[SplitMix64, str], Bot]] = {}
        self._rules_cache: dict[Any, Rules] = {}
        register(self)

    def check_left_out(self, keys: Iterable[str], specs: Mapping[str, Option]) -> None:
        """A :class:`PluginFault` when one of ``keys`` (options asked for) is no
        option only because the plugin that adds it was left out for its fault."""
        for key in keys:
            if key not in specs and key in self._left_out:
                raise PluginFault(self._left_out[key])

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

    def add_bot_object(self, label: str, factory: Callable[[SplitMix64, str], Bot]) -> None:
        """Make ``label`` name a bot factory built in this process (a Python bot
        object of :func:`gincli.play_match`), until :meth:`drop_bot_object`."""
        self._bot_cache[label] = factory

    def drop_bot_object(self, label: str) -> None:
        """Forget what :meth:`add_bot_object` made ``label`` name (the match is over)."""
        self._bot_cache.pop(label, None)

    def bot(self, spec: str) -> Callable[[SplitMix64, str], Bot]:
        """A bot factory for a spec: a bot's name with any parameters
        (``master:samples=40:k=v``), a named bot of a bots file (likewise), or
        ``exec:COMMAND`` for an external program; :class:`UsageError` when it
        cannot be made."""
        found = self._bot_cache.get(spec)
        if found is None:
            found = self._bot_cache[spec] = self._make_bot(spec)
        return found

    def _make_bot(self, spec: str) -> Callable[[SplitMix64, str], Bot]:
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
                  entry_points: bool = True, notice: Callable[[str], None] | None = None,
                  bots_file: str | Path | None = None, *, given: Iterable[tuple[str, str | Path]] = (),
                  isolated: bool = False, loading: PluginLoading | None = None) -> Registry:
    """Load every plugin and collect what it registers (the one factory);
    ``notice``, ``given`` and ``isolated``: as :class:`~.loading.PluginLoading`'s;
    ``bots_file``: its named bots too (:meth:`Registry.add_bots_file`);
    ``loading``: the plugins loaded already but the built-ins (the arguments
    before it are then not used again)."""
    if loading is None:
        loading = PluginLoading(plugin_dirs, disabled, entry_points, notice, given=given, isolated=isolated)
    pm, infos, problems = loading.finish()
    registry = Registry(pm, infos, problems)
    if bots_file is not None:
        registry.add_bots_file(bots_file)
    return registry
