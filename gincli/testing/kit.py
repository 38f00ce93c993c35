"""The kit's work: a plugin loaded as gincli loads it, its matches and their
transcripts validated through the very code ``gin match`` and ``gin validate``
run (:class:`~gincli.work.match.MatchRun`,
:func:`~gincli.work.validate.validated`), and its contract checked."""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib.util import find_spec
from pathlib import Path
from types import ModuleType
from typing import Any

from ..base.arguments import KEYWORDS, argument, texts, whole_number
from ..base.errors import GinError, UsageError, quote
from ..base.jsonio import dumps, loads
from ..formats.containers import Item
from ..formats.store import MemorySink
from ..plugin.registry import Registry, load_registry
from ..work.match import MatchRun
from ..work.plan import MatchOptions
from ..work.python import overrides as read_options
from ..work.validate import validated, validation_defaults

#: The built-in bots a check plays with: one plain, one strong, one that plays any legal move.
BOTS = ("simple", "expert", "random", "simple")


class PluginCheckFailed(AssertionError):
    """What a check found wrong with a plugin: one sentence a line (an
    ``AssertionError``, so that a test framework shows it as a failed test)."""

    def __init__(self, failures: Sequence[str]):
        self.failures = list(failures)
        super().__init__("\n".join(self.failures))


@dataclass
class Played:
    """A match played by :meth:`LoadedPlugin.play`: ``summary``, what ``gin
    match --format json`` writes, and ``transcripts``, each session's
    transcript (FORMATS.md) as a dict."""

    summary: dict[str, Any]
    transcripts: list[dict[str, Any]] = field(default_factory=list)

    @property
    def forfeits(self) -> dict[str, int]:
        """Each player's forfeited hands (a bot that forfeits for a move it was
        offered is a plugin's fault)."""
        return {p["name"]: p["forfeits"] for p in self.summary["players"]}


def _project_plugins(folder: Path) -> list[tuple[str, str | Path]]:
    """A project's plugins: the entry points of its pyproject.toml's ``gincli``
    group, each its module as installed, or a module of the folder when it is not."""
    try:
        project = tomllib.loads((folder / "pyproject.toml").read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise UsageError(f"load_plugin: {folder / 'pyproject.toml'} cannot be read: {exc}") from None
    points = project.get("project", {}).get("entry-points", {}).get("gincli", {})
    if not isinstance(points, dict) or not points:
        raise UsageError(f"load_plugin: {folder / 'pyproject.toml'} declares no entry point in the group gincli "
                         "([project.entry-points.gincli])")
    found: list[tuple[str, str | Path]] = []
    for name, value in points.items():
        module = str(value).split(":")[0].strip()
        if _importable(module):
            found.append((name, module))
            continue
        local = [p for p in (folder / f"{module}.py", folder / module) if p.exists()]
        if not local:
            raise UsageError(f"load_plugin: the entry point {name} = {quote(value)} of {folder / 'pyproject.toml'} "
                             f"names a module that neither imports nor is in the folder: pip install -e {folder}")
        found.append((name, local[0]))
    return found


def _importable(module: str) -> bool:
    """Whether ``module`` is a module's name that imports here (found, not run)."""
    try:
        return bool(module) and all(p.isidentifier() for p in module.split(".")) and find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def _given(where: str | os.PathLike[str] | ModuleType, name: str | None
           ) -> tuple[list[tuple[str, str | Path]], list[Path]]:
    """What ``where`` names: plugins given (a file, a package's folder, a module)
    and folders of plugins."""
    if isinstance(where, ModuleType):
        return [(name or where.__name__.rsplit(".", 1)[-1], where.__name__)], []
    if not isinstance(where, (str, os.PathLike)):
        raise UsageError(f"load_plugin: {quote(where)} is not a plugin's file, folder or module")
    path = Path(where)
    if path.is_file() and path.suffix == ".py":
        return [(name or path.stem, path)], []
    if path.is_dir() and (path / "__init__.py").is_file():
        return [(name or path.name, path)], []
    if path.is_dir() and (path / "pyproject.toml").is_file():
        return _project_plugins(path), []
    if path.is_dir():
        return [], [path]
    text = os.fspath(where)
    if not _importable(text):
        raise UsageError(f"load_plugin: {quote(text)} is neither a plugin's file (.py), a folder nor a module "
                         "that imports")
    return [(name or text.rsplit(".", 1)[-1], text)], []


def load_plugin(where: str | os.PathLike[str] | ModuleType, *, name: str | None = None) -> LoadedPlugin:
    """Load a plugin as gincli does, beside the built-ins and nothing else (no
    other installed plugin, no ``GINCLI_PLUGINS_DIR``, no user folder), so that
    its tests hold wherever they run. ``where``: its ``.py`` file, its package's
    folder, a folder of plugins, a project's folder (its pyproject.toml's
    ``gincli`` entry points), or its module (imported, or its name). ``name``:
    the plugin's name (a file's or module's by default). A plugin that does
    not import is :class:`PluginCheckFailed`, with gincli's sentence."""
    given, folders = _given(where, name)
    registry = load_registry(folders, given=given, isolated=True)
    names = tuple(info.name for info in registry.plugins if info.origin in ("given", "--plugins-dir"))
    if not names:
        raise PluginCheckFailed(registry.problems or [f"load_plugin: {quote(os.fspath(str(where)))} holds no plugin"])
    return LoadedPlugin(names, registry, tuple(folders))


class LoadedPlugin:
    """A plugin (or a folder's plugins) loaded by :func:`load_plugin`:
    ``names``, the plugin names; ``registry``, gincli's registry with them;
    ``problems``, the warnings ``gin`` would print as it loads them (each item
    left out, and why); ``registered``, what they registered, by kind
    (``{"move set": ["latetake"]}``)."""

    def __init__(self, names: tuple[str, ...], registry: Registry, folders: tuple[Path, ...] = ()):
        self.names = names
        self.registry = registry
        self.problems = list(registry.problems)
        self._folders = tuple(str(f) for f in folders)
        self.registered: dict[str, list[str]] = {}
        for (kind, item), plugin in registry.owner.items():
            if plugin in names:
                self.registered.setdefault(kind, []).append(item)

    def __repr__(self) -> str:
        return f"<LoadedPlugin {', '.join(self.names)}: {self.registered}>"

    def play(self, bots: Sequence[str] = BOTS[:2], *, games: int | None = None, hands: int | None = None,
             seed: int = 1, variant: str = "standard", scoring: str | None = None,
             options: Mapping[str, Any] | Sequence[str] | None = None) -> Played:
        """Play a match with the plugin loaded, as ``gin match`` does with these
        arguments (one game when neither ``games`` nor ``hands`` is given), in
        this process: the summary and every transcript. ``bots``: names of bots
        (built-in, the plugin's). A mistake in an argument is a
        :class:`~gincli.base.errors.UsageError`; a plugin's fault that stops the
        match, a :class:`~gincli.base.errors.GinError` naming it."""
        names = tuple(argument("bots", texts, bots, "bots' names", "a bot's name"))
        if games is None and hands is None:
            games = 1
        opts = MatchOptions(names, games=None if games is None else argument("games", whole_number, games, 1),
                            hands=None if hands is None else argument("hands", whole_number, hands, 1),
                            seed=argument("seed", whole_number, seed, 0), workers=1, variant=variant,
                            scoring=scoring, options=read_options(options), given=list(names))
        sink = MemorySink()
        run = MatchRun(self.registry, opts, say=KEYWORDS, sink=sink, plugins=(self._folders, ()))
        run.play()
        if run.refused is not None:
            raise run.refused
        if run.halted is not None:
            raise run.halted
        if run.interrupted:
            raise KeyboardInterrupt
        return Played(loads(dumps(run.summary())), [loads(line) for line in sink.lines])

    def validate(self, transcripts: Iterable[Mapping[str, Any]], *, variant: str | None = None,
                 scoring: str | None = None, options: Mapping[str, Any] | Sequence[str] | None = None
                 ) -> list[dict[str, Any]]:
        """Replay transcripts with the plugin on, as ``gin validate`` does: each
        one's report (``valid``, ``complete``, ``errors`` with their rule ids,
        the hands' scores), in order. ``variant``, ``scoring`` and ``options``
        fill in what a transcript leaves out."""
        defaults = validation_defaults(self.registry, [variant] if variant else [], scoring, read_options(options),
                                       where="options")
        state = {"registry": self.registry, "defaults": defaults, "invalid_only": False}
        items = [Item("<transcript>", i, None, dict(t)) for i, t in enumerate(transcripts)]
        return [loads(line) for chunk in validated(state, items) for line in chunk.text.splitlines() if line]

    def check(self, *, bots: Sequence[str] = BOTS[:2], games: int = 1, seed: int = 1, variant: str | None = None,
              scoring: str | None = None, options: Mapping[str, Any] | Sequence[str] | None = None
              ) -> list[Played]:
        """Check the plugin's contract: it loaded with no warning and
        registered something; and for each variant, scoring system, move set,
        meld rules and bot it registered, a short match (``games``, ``bots``)
        under it leaves no bot forfeiting and stops on no fault, and every
        transcript replays valid and complete with the plugin on, its claimed
        results (the points) those of the replay. A move set or meld rules is turned on by ``options`` or, when
        none are given, by its options that are off by default (``bool``).
        ``variant``, ``scoring`` and ``options`` are the rules of every match.
        Returns the matches; :class:`PluginCheckFailed` lists what failed."""
        failures = list(self.problems)
        if not self.registered:
            failures.append(f"plugin {', '.join(self.names)} registered nothing")
        played: list[Played] = []
        for what, rules in self._scenarios(list(bots), variant, scoring, options, failures):
            try:
                match = self.play(**rules, games=games, seed=seed)
            except UsageError:
                raise
            except GinError as exc:
                failures.append(f"{what}: the match stopped: {exc}")
                continue
            played.append(match)
            failures += [f"{what}: {player} forfeited {n} hand(s): "
                         f"{'; '.join(r['reason'] for r in match.summary['forfeit_reasons']) or 'see the summary'}"
                         for player, n in match.forfeits.items() if n]
            for report, transcript in zip(self.validate(match.transcripts), match.transcripts, strict=True):
                if not (report["valid"] and report["complete"]):  # its claimed results included: the same points
                    errors = report["errors"] or [{"rule": "incomplete", "message": "the transcript stops early"}]
                    failures.append(f"{what}: the transcript {transcript.get('id')} played is refused by gin "
                                    f"validate: {errors[0]['rule']}: {errors[0]['message']}")
        if failures:
            raise PluginCheckFailed(failures)
        return played

    def _scenarios(self, bots: list[str], variant: str | None, scoring: str | None,
                   options: Mapping[str, Any] | Sequence[str] | None, failures: list[str]
                   ) -> list[tuple[str, dict[str, Any]]]:
        """A match for each item the plugin registered: what it is, and its arguments of :meth:`play`."""
        base = {"bots": bots, "variant": variant or "standard", "scoring": scoring, "options": options}
        out: list[tuple[str, dict[str, Any]]] = []
        reg = self.registry
        for kind, items in self.registered.items():
            for name in items:
                what = f"the {kind} {name}"
                if kind == "variant":
                    out.append((what, {**base, "variant": name}))
                elif kind == "scoring system":
                    seats = min(reg.scoring_systems[name].players)
                    out.append((what, {**base, "scoring": name, "bots": (bots + list(BOTS))[:seats]}))
                elif kind == "bot":
                    out.append((what, {**base, "bots": [name, bots[0]]}))
                elif kind in ("move set", "meld rules"):
                    table = reg.movesets if kind == "move set" else reg.meld_rules
                    on = options if options is not None else {
                        o.name: True for o in table[name].options if o.kind == "bool" and o.default is False}
                    if not on:
                        failures.append(f"{what} has no option off by default to turn it on: give check() the "
                                        "options that do (options={...})")
                        continue
                    if kind == "move set" and not self._turns_on(name, variant or "standard", scoring, on):
                        failures.append(f"{what} is not on with the options {dumps(read_options(on))}: give "
                                        "check() the options that turn it on (options={...})")
                        continue
                    out.append((f"{what} (options {dumps(read_options(on))})", {**base, "options": on}))
        return out

    def _turns_on(self, moveset: str, variant: str, scoring: str | None, options: Any) -> bool:
        reg = self.registry
        try:
            rules = reg.rules(reg.variant(variant), reg.scoring(scoring or "game"), read_options(options),
                              where="options")
        except (ValueError, GinError):
            return True  # the match says what is wrong, in its sentence
        return any(ms.name == moveset for ms in rules.movesets)
