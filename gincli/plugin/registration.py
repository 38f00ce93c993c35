"""Registering what plugins contribute, and checking it as it arrives.

:func:`register` calls each loaded plugin's ``register`` hooks (in the order
of :mod:`.loading`) and keeps what passes the checks in a :class:`Catalogue`:
the first to register a name (a variant, a scoring system, a bot, a move set, a
match backend) keeps it. A plugin that replaces a built-in's item does so on
purpose (it is listed by ``gin plugins``); any other clash is a warning naming
what was left out. Variant files (the ``variants/`` folder of the configuration
folder) come after every plugin and never take a name in use: one naming a
registered variant is left out, with a warning when its rules differ.

A hook is plugin code, bounded as an import is (:func:`.loading.plugin_code`).
What it registers is checked as it arrives (:meth:`_Registrar._check_item`,
:func:`option_problem`, each meld rules' data at the defaults); an item that
breaks the contract is left out with a warning, and asking for it by name later
is that sentence again as a :class:`~gincli.base.contract.PluginFault` (exit 4).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import pluggy

from ..base.config import config_dir
from ..base.contract import PluginFault, plugin_of
from ..base.errors import ConfigError, GinError, quote
from ..formats.rule_ids import RULES
from ..hand.bots import Bot
from ..hand.moves import ACTIONS, TABLE_ACTIONS
from ..hand.moveset import MoveSet
from ..matches.backends import MatchBackend, check_backend
from ..rulebook.meldrules import MeldRules
from ..rulebook.rules import OPTION_KINDS, PLAY_OPTIONS, Option, format_value, resolve
from ..rulebook.variant import PendingVariant, Variant
from ..sessions.systems import ScoringSystem
from .loading import SETS_THE_LIMIT, PluginInfo, PluginTimeout, import_time_limit, plugin_code

if TYPE_CHECKING:
    from ..matches.external import ExternalSpec

#: What each kind of item is registered through, and must be an instance of.
KINDS: dict[str, tuple[str, tuple[type[Any], ...]]] = {
    "variant": ("gincli_register_variants", (Variant, PendingVariant)),
    "scoring system": ("gincli_register_scoring_systems", (ScoringSystem,)),
    "bot": ("gincli_register_bots", (type,)),
    "move set": ("gincli_register_moves", (MoveSet,)),
    "meld rules": ("gincli_register_meld_rules", (MeldRules,)),
    "match backend": ("gincli_register_match_backends", (MatchBackend,)),
}

#: gincli's own commands: a plugin may not take their names.
BUILTIN_COMMANDS = ("score", "deal", "validate", "variants", "match", "tournament", "bots", "report", "play", "plugins",
                    "config",
                    "completion")

#: The words ``gin play`` reads itself, at every turn: a move set's ``keys`` may not take
#: them (nor a card, ``7h``, or a number, a card's position on screen). docs/plugins.md lists them.
PLAY_KEYS = {"?": "help", "help": "help", "h": "hint", "hint": "hint", "u": "undo", "undo": "undo", "q": "quit",
             "quit": "quit", "exit": "quit", "d": "take", "t": "take", "take": "take", "p": "pass", "pass": "pass",
             "s": "stock", "stock": "stock", "k": "knock", "knock": "knock", "gin": "knock"}

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


def _rule_books(opt: Option) -> bool:
    """Whether ``opt`` is an option of the rule book declared again, of the same kind
    (and choices): the same option, with a default of its own."""
    book = next((o for o in PLAY_OPTIONS if o.name == opt.name), None)
    return book is not None and (book.kind, book.choices, book.most) == (opt.kind, opt.choices, opt.most)


class Catalogue:
    """What the plugins registered, as :func:`register` kept it: each kind's
    items by name, which plugin registered each, and what was left out for its
    plugin's fault; and the options they make, which the checks at
    registration need as much as the lookups later."""

    def __init__(self, pm: pluggy.PluginManager, plugins: list[PluginInfo], problems: list[str]):
        self.pm = pm
        self.plugins = plugins
        #: What was left out, and why: one sentence each (gin prints them as warnings).
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
        self.named_bots: dict[str, ExternalSpec] = {}
        #: Commands plugins add: name -> (function, help or None, plugin).
        self.commands: dict[str, tuple[Callable[..., Any], str | None, str]] = {}
        self.owner: dict[tuple[str, str], str] = {}
        #: Built-ins' items another plugin replaced, on purpose: (kind, name) -> the built-in plugin.
        self.replaced: dict[tuple[str, str], str] = {}
        self._origin = {info.name: info for info in plugins}
        #: Variants left out for their options, by name: why, said again when one is asked for.
        self._refused: dict[str, GinError] = {}
        #: Scoring systems and bots left out for their plugin's fault, by kind and name: why.
        self._refused_items: dict[tuple[str, str], PluginFault] = {}
        #: Options of items left out for their plugin's fault: name -> why.
        self._left_out: dict[str, str] = {}

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


def register(catalogue: Catalogue) -> None:
    """Call every loaded plugin's ``register`` hooks, in order of precedence,
    and keep in ``catalogue`` what passes the checks; then the configuration
    folder's variant files and named bots. What is left out is a sentence in
    ``catalogue.problems``."""
    _Registrar(catalogue).run()


class _Registrar:
    """One registration: the ``register()`` each hook is given, and the checks."""

    def __init__(self, catalogue: Catalogue):
        self.catalogue = catalogue
        self.problems = catalogue.problems
        self._pending: list[tuple[str, PendingVariant]] = []  # variant files, bound once every plugin registered
        self._clashes: list[PendingVariant] = []  # variant files naming a variant already registered

    def run(self) -> None:
        for kind, (hook, types) in KINDS.items():
            self._call_hook(hook, functools.partial(self._registrar, kind, types))
            if kind == "bot":  # commands after the things they may use
                self._call_hook("gincli_register_commands", self._command_registrar)
        self._settle_names()
        self._settle_keys()
        self._check_meld_data()
        self._add_user_variants()  # files never take a name in use: they come after every plugin
        self._add_user_bots()
        self._bind()
        self._settle_clashes()
        self._check_code_variants()

    def _add_user_variants(self) -> None:
        """Variant files in ``<config dir>/variants``: a variant from a TOML file alone."""
        folder = config_dir() / "variants"
        if not folder.is_dir():
            return
        register = self._registrar("variant", (PendingVariant,), f"user config ({folder})")
        for path in sorted(folder.glob("*.toml")):
            try:
                register(PendingVariant.from_file(path))
            except ConfigError as exc:
                self.problems.append(str(exc))

    def _registrar(self, kind: str, types: tuple[type[Any], ...], plugin: str) -> Callable[[Any], None]:
        """The register() a plugin's hook for ``kind`` is given: each item
        checked, and kept unless its name is taken."""
        kept = self.catalogue
        tables: dict[str, dict[str, Any]] = {"variant": kept.variants, "scoring system": kept.scoring_systems,
                                             "bot": kept.bots, "move set": kept.movesets, "meld rules": kept.meld_rules,
                                             "match backend": kept.backends}
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
            if name in table or any(p.name == name for _, p in self._pending if kind == "variant"):
                first = kept.owner.get((kind, name), "another plugin")
                by = kept._origin.get(plugin)
                if by is not None and by.builtin and first != plugin:
                    kept.replaced[(kind, name)] = plugin  # a plugin replaced a built-in's: on purpose
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
                    kept._refused_items.setdefault((kind, name), PluginFault(sentence))
                return
            if kind == "move set":
                self._check_keys(plugin, item)
            kept.owner[(kind, name)] = plugin
            if isinstance(item, PendingVariant):
                self._pending.append((plugin, item))
            else:
                try:
                    item.plugin = plugin  # for sentences that name the plugin at fault
                    info = kept._origin.get(plugin)
                    if getattr(item, "source", None) == "built-in" and info is not None and not info.builtin:
                        item.source = f"plugin {plugin} ({info.source})"  # the class's default says built-in
                except (AttributeError, TypeError):
                    pass
                table[name] = item

        return register

    def _call_hook(self, hook: str, registrar: Callable[[str], Callable[..., None]]) -> None:
        """Call a ``register`` hook of each plugin, in order of precedence (the
        first of a name wins), with ``registrar(plugin)``'s register(): plugin
        code (:func:`plugin_code`: what it writes to standard output goes to
        stderr, and it has the import's time limit), whose failure (an exception,
        a ``sys.exit()``, values returned instead of registered, a hook past the
        limit) is a problem naming it, what it registered before staying."""
        pm = self.catalogue.pm
        for info in self.catalogue.plugins:
            plugin = pm.get_plugin(info.name)
            if plugin is None or hook not in info.hooks:
                continue
            others = [p for p in pm.get_plugins() if p is not plugin]
            caller = pm.subset_hook_caller(hook, remove_plugins=others)
            limit = import_time_limit()
            try:
                with plugin_code(limit):
                    returned = [r for r in caller(register=registrar(info.name)) if r is not None]
            except PluginTimeout:
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
            if command in BUILTIN_COMMANDS or command in self.catalogue.commands:
                first = "gincli" if command in BUILTIN_COMMANDS else self.catalogue.commands[command][2]
                self.problems.append(f"the command \"{command}\" of plugin \"{plugin}\" was left out: "
                                     f"{first} has a command of that name")
                return
            self.catalogue.commands[command] = (function, help, plugin)
            self.catalogue.owner[("command", command)] = plugin

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
            check_option_list(f"the meld rules {item.name}", item.options)
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
        for name, variant in list(self.catalogue.variants.items()):
            plugin = self.catalogue.owner.get(("variant", name))
            if plugin is None or not isinstance(getattr(variant, "defaults", None), dict):
                continue
            specs = self.catalogue.all_option_specs(variant)
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
        del self.catalogue.variants[name]
        self.catalogue._refused[name] = PluginFault(sentence)
        self.problems.append(sentence)

    def _check_meld_data(self) -> None:
        """Each meld rules' data with every option at its default (melds, card
        values, layoffs onto gin, words: :meth:`MeldRules.checked_data`), as
        plugin code; meld rules that break their contract there are left out, one
        sentence naming the plugin and the method. Under other rules the same
        checks run when they are asked for."""
        if not self.catalogue.meld_rules:
            return
        defaults = resolve(self.catalogue.all_option_specs(Variant("defaults")))
        limit = import_time_limit()
        for name, mr in list(self.catalogue.meld_rules.items()):
            why = None
            try:
                with plugin_code(limit):
                    mr.checked_data(defaults)
            except PluginFault as exc:
                why = f"{exc.message}, with every option at its default"
            except PluginTimeout:
                why = (f"plugin \"{plugin_of(mr)}\": the meld rules {name} did not say what a meld is within "
                       f"{limit:g} s ({SETS_THE_LIMIT})")
            if why is not None:
                del self.catalogue.meld_rules[name]
                self._leave_out_options(mr, f"{why}; the meld rules {name} were left out")
                self.problems.append(f"{why}; the meld rules {name} were left out")

    def _leave_out_options(self, item: Any, sentence: str) -> None:
        """The options of an item left out for its plugin's fault: asked for by
        name, they are that fault again (exit 4), not an unknown option."""
        for opt in getattr(item, "options", None) or ():
            name = getattr(opt, "name", None)
            if isinstance(name, str) and name not in self.catalogue._left_out:
                self.catalogue._left_out[name] = f"{sentence}, and with them the option {quote(name)}"

    def _check_moveset(self, ms: MoveSet) -> None:
        """A move set's names: its actions, outcomes and record fields tuples of
        names, its rule ids a mapping to text, its options sound. Whether another
        has those names is settled once every plugin has registered (:meth:`_settle_names`)."""
        for attr in ("actions", "outcomes", "record_fields"):
            names = getattr(ms, attr, None)
            if not isinstance(names, tuple) or not all(isinstance(a, str) and a.strip() for a in names):
                raise TypeError(f"the move set {ms.name}'s {attr} must be a tuple of names, not {quote(repr(names))}")
        rule_ids = getattr(ms, "rule_ids", None)
        if (not isinstance(rule_ids, Mapping)
                or not all(isinstance(k, str) and k and isinstance(v, str) for k, v in rule_ids.items())):
            raise TypeError(f"the move set {ms.name}'s rule_ids must map rule ids to what each means (text), not "
                            f"{quote(repr(rule_ids))}")
        check_option_list(f"the move set {ms.name}", ms.options)

    def _settle_names(self) -> None:
        """Options, actions and rule ids are each one set of names for all of gincli:
        the rule book's and gincli's first, then the built-in plugins', then the other
        plugins' in order of precedence. An item that takes a name one before it has
        is left out, one sentence naming it, the name and whose it is, so that what
        came first (a built-in above all) keeps working. An option of a move set or
        meld rules is every variant's, so no other option may share it; a scoring
        system's and a variant's own options are in play together, so neither may share
        the other's, while two scoring systems (or two variants), never in play at
        once, may. A scoring system may declare an option of the rule book again,
        of the same kind, to give it another default under that system (as eaai
        does): that is the rule book's option, not another."""
        kept = self.catalogue
        builtin = {info.name for info in kept.plugins if info.builtin}
        rank = {info.name: i for i, info in enumerate(kept.plugins)}
        items: list[tuple[bool, int, str, Any, str]] = []
        for kind, table in (("variant", kept.variants), ("scoring system", kept.scoring_systems),
                            ("move set", kept.movesets), ("meld rules", kept.meld_rules)):
            for name, item in table.items():
                plugin = kept.owner.get((kind, name), "?")
                items.append((plugin not in builtin, rank.get(plugin, 0), kind, item, plugin))
        items.sort(key=lambda entry: entry[:2])  # stable: a plugin's items in the order of the hooks
        every = {o.name: "the rule book's" for o in PLAY_OPTIONS}  # options every variant has
        own: dict[str, dict[str, str]] = {"variant": {}, "scoring system": {}}  # options of one item in play
        actions = {a: "the rule book's" for a in ACTIONS + TABLE_ACTIONS}
        rule_ids = dict.fromkeys(RULES, "gincli's")
        for _, _, kind, item, plugin in items:
            whose = f"the {kind} {item.name}'s" + ("" if plugin in builtin else f" (plugin \"{plugin}\")")
            if kind in own:
                declared = item.extra_options if kind == "variant" else item.options
                options = [o.name for o in declared if not (kind == "scoring system" and _rule_books(o))]
                other = own["scoring system" if kind == "variant" else "variant"]
                taken = {**other, **every}
            else:
                options = [o.name for o in item.options]
                taken = {**own["variant"], **own["scoring system"], **every}
            clash = next((("option", n, taken[n]) for n in options if n in taken), None)
            if kind == "move set":
                clash = (clash or next((("action", a, actions[a]) for a in item.actions if a in actions), None)
                         or next((("rule id", r, rule_ids[r]) for r in item.rule_ids if r in rule_ids), None))
            if clash is not None:
                self._leave_out_clash(kind, item, plugin, *clash)
                continue
            if kind in own:
                for n in options:
                    own[kind].setdefault(n, whose)
            else:
                every.update(dict.fromkeys(options, whose))
            if kind == "move set":
                actions.update(dict.fromkeys(item.actions, whose))
                rule_ids.update(dict.fromkeys(item.rule_ids, whose))

    def _leave_out_clash(self, kind: str, item: Any, plugin: str, what: str, name: str, whose: str) -> None:
        """Leave out an item whose option, action or rule id another has: a warning now,
        and the sentence again, a plugin's fault (exit 4), when it is asked for."""
        kept = self.catalogue
        sentence = (f"plugin \"{plugin}\": the {kind} {item.name} was left out: its {what} {quote(name)} is "
                    f"{whose}, and {'an' if what[0] in 'ao' else 'a'} {what} is one name for all of gincli "
                    "(give it a name of its own, such as one that starts with the plugin's name: docs/plugins.md, "
                    "\"Naming things\")")
        tables: dict[str, dict[str, Any]] = {"variant": kept.variants, "scoring system": kept.scoring_systems,
                                             "move set": kept.movesets, "meld rules": kept.meld_rules}
        del tables[kind][item.name]
        kept.owner.pop((kind, item.name), None)
        self.problems.append(sentence)
        self._leave_out_options(item, sentence)
        if kind == "variant":
            kept._refused[item.name] = PluginFault(sentence)
        else:
            kept._refused_items[(kind, item.name)] = PluginFault(sentence)

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
        owners = {name: self.catalogue.owner.get(("move set", name), "?") for name in self.catalogue.movesets}
        builtin = {info.name for info in self.catalogue.plugins if info.builtin}
        order = sorted(self.catalogue.movesets.values(), key=lambda ms: owners[ms.name] not in builtin)  # stable
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

    def _bind(self) -> None:
        """Give each variant file its base, once every plugin has registered."""
        waiting = list(self._pending)
        while waiting:
            progress = False
            for plugin, pv in list(waiting):
                if pv.base is None or pv.base in self.catalogue.variants:
                    waiting.remove((plugin, pv))
                    progress = True
                    try:
                        self.catalogue.variants[pv.name] = self.catalogue.bind_variant(pv)
                    except ConfigError as exc:
                        self.problems.append(str(exc))
                        self.catalogue._refused[pv.name] = exc
            if not progress:
                for _, pv in waiting:
                    self.problems.append(f"variant file {pv.source}: unknown base variant \"{pv.base}\"; "
                                         f"the variants are {', '.join(sorted(self.catalogue.variants))}")
                break

    def _settle_clashes(self) -> None:
        """A variant file naming a variant already registered is left out: silently
        when its rules are the same, with a warning naming the file when not."""
        for pv in self._clashes:
            try:
                variant = self.catalogue.bind_variant(pv)
            except ConfigError as exc:
                self.problems.append(str(exc))
                continue
            differs = self.catalogue.rules_differ(variant)
            if differs:
                self.problems.append(f"variant file {pv.source} was left out: {differs}")

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
            if name in self.catalogue.bots:
                self.problems.append(f"the bot {quote(name)} of {path} was left out: it is "
                                     f"{self.catalogue.owner.get(('bot', name), 'another plugin')}'s name")
            else:
                self.catalogue.named_bots[name] = spec

