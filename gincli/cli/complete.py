"""Shell completion: what ``gin`` offers at the cursor, for ``gin completion``'s
scripts (bash, zsh, fish; :mod:`gincli.cli.completion`).

:func:`answer` says, for the words typed so far and the one being typed, what
to offer: names (commands, options, choices, and the names an option takes:
variants, scoring systems, bots, rule options and their values, backends,
plugins, players...), files, folders, or nothing at all (a number, a free
text: never files). :data:`NAMES` gives each name-valued option its
completion function, whatever command has it, so that the same option
completes the same way everywhere; options that take a file or a folder say
so in their metavar (``FILE``, ``DIR``). The functions run only when the shell
asks, in a ``gin`` started for that: the registry is loaded then (and its
warnings kept quiet), never at an ordinary start.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import typer

if TYPE_CHECKING:
    from ..plugin.registry import Registry

#: What a completion offers: ``names`` (the items, possibly none: then nothing,
#: and never files), ``files`` or ``dirs`` (the shell completes them itself).
NAMES_KIND, FILES_KIND, DIRS_KIND = "names", "files", "dirs"

#: The characters after which the shell adds no space: more is to come
#: (``spade_doubles=``, ``expert,``, ``exec:``, a folder).
OPEN_ENDS = ("=", ",", ":", "/")


def _registry(ctx: typer.Context) -> Registry:
    """The registry, as the command line read so far would load it (its
    ``--plugins-dir``, ``--disable-plugin`` and ``--bots-file``); its problems are
    not said: a completion writes only completions."""
    root = ctx.find_root()
    obj = root.obj
    cached: Registry | None = getattr(obj, "_completion_registry", None)
    if cached is not None:
        return cached
    from ..plugin.registry import load_registry

    registry = load_registry(list(root.params.get("plugins_dir") or []), list(root.params.get("disable_plugin") or []))
    bots_file = ctx.params.get("bots_file") or ctx.meta.get("gin bots")
    if not bots_file and ctx.parent is not None:  # gin bots --bots-file F check <Tab>
        bots_file = ctx.parent.params.get("bots_file")
    if bots_file:
        try:
            registry.add_bots_file(os.fspath(bots_file))
        except Exception:  # noqa: BLE001  (a bots file that cannot be read completes nothing of its own)
            pass
    if obj is not None:
        try:
            obj._completion_registry = registry
        except AttributeError:
            pass
    return registry


def _quietly(fn: Any) -> Any:
    """A completer that never fails nor writes: anything wrong completes nothing."""
    import functools

    @functools.wraps(fn)
    def wrapper(ctx: typer.Context, incomplete: str) -> list[Any]:
        import contextlib
        import io

        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
                return fn(ctx, incomplete)
        except Exception:  # noqa: BLE001
            return []

    return wrapper


def _first_line(text: str | None, limit: int = 60) -> str:
    """A help text's first line, for a shell's list: cut at a word, with an ellipsis, past ``limit``."""
    line = " ".join((text or "").strip().split("\n")[0].split())
    if len(line) <= limit:
        return line
    cut = line[:limit - 1].rsplit(" ", 1)[0].rstrip(" ,;:")
    return (cut or line[:limit - 1]) + "…"


def _matching(incomplete: str, items: Sequence[Any]) -> list[Any]:
    """The items (names, or (name, help) pairs) that start with ``incomplete``."""
    return [i for i in items if (i[0] if isinstance(i, tuple) else i).startswith(incomplete)]


def _toml_files(incomplete: str) -> list[str]:
    """Variant files and folders on the way to them, for a value that may be a path."""
    out = []
    for path in sorted(glob.glob(glob.escape(os.path.expanduser(incomplete)) + "*")):
        if incomplete.startswith("~"):
            path = "~" + path[len(os.path.expanduser("~")):]
        if os.path.isdir(os.path.expanduser(path)):
            out.append(path + os.sep)
        elif path.endswith(".toml"):
            out.append(path)
    return out


@_quietly
def variants(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``--variant``: the variants loaded, then variant files."""
    registry = _registry(ctx)
    names = [(name, _first_line(v.description)) for name, v in sorted(registry.variants.items())
             if name.startswith(incomplete) and not name.endswith(".toml") and "/" not in name]
    return names + [f for f in _toml_files(incomplete) if f not in dict(names)]


@_quietly
def scoring_systems(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``--scoring``: the scoring systems loaded."""
    registry = _registry(ctx)
    return [(name, _first_line(system.description)) for name, system in sorted(registry.scoring_systems.items())
            if name.startswith(incomplete)]


@_quietly
def bots(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``--bots A,B`` (gin match, gin tournament), ``--bot`` (gin play) and
    ``gin bots check BOT``: the bots loaded, the bots file's, and ``exec:``;
    after a comma, the next one (the ones before kept). ``gin bots check``
    checks external bots only: the bots file's, and ``exec:``."""
    registry = _registry(ctx)
    done, _, last = incomplete.rpartition(",")
    head = done + "," if done else ""
    external_only = ctx.command.name == "check"
    found = [] if external_only else [(name, _first_line(b.description)) for name, b in sorted(registry.bots.items())]
    found += [(name, _first_line(e.description) or "a bot of the bots file") for name, e in
              sorted(registry.named_bots.items())]
    found.append(("exec:", "an external program: exec:COMMAND"))
    return [(head + name, about) for name, about in found if name.startswith(last)]


def _rules_of(ctx: typer.Context) -> dict[str, Any]:
    """The rule options of the variant and scoring system given so far."""
    registry = _registry(ctx)
    params = ctx.params
    variant = params.get("variant")
    variant = variant[0] if isinstance(variant, (list, tuple)) and variant else variant
    try:
        v = registry.variant(os.fspath(variant) if variant else "standard")
    except Exception:  # noqa: BLE001
        v = registry.variant("standard")
    scoring = params.get("scoring") or ("hand" if params.get("hands") or ctx.command.name == "check" else "game")
    try:
        system = registry.scoring(scoring)
    except Exception:  # noqa: BLE001
        system = registry.scoring("game")
    return registry.option_specs(v, system)


#: The values of a rule option of each kind that has names for values (a number has none).
_OPTION_VALUES = {"bool": ("true", "false"), "int-or-off": ("off",), "knock-limit": ("upcard",)}


@_quietly
def options(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``--option KEY=VALUE``: the rule options of the variant and scoring
    system chosen so far (``KEY=``, those not given yet), then a key's values:
    ``true`` and ``false`` for a switch, the choices of a choice, ``off`` or
    ``upcard`` where a number may be that; nothing for a number."""
    specs = _rules_of(ctx)
    key, eq, value = incomplete.partition("=")
    if not eq:
        given = {str(o).partition("=")[0].strip() for o in ctx.params.get("option") or ()}
        return [(f"{name}=", _first_line(spec.description)) for name, spec in sorted(specs.items())
                if name.startswith(key) and name not in given]
    spec = specs.get(key.strip())
    if spec is None:
        return []
    values = spec.choices if spec.kind == "choice" else _OPTION_VALUES.get(spec.kind, ())
    return [f"{key}={v}" for v in values if v.startswith(value)]


@_quietly
def backends(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``--backend``: where a match's sessions may run."""
    registry = _registry(ctx)
    return [(name, _first_line(b.description)) for name, b in sorted(registry.backends.items())
            if name.startswith(incomplete)]


@_quietly
def backend_options(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``--backend-option KEY=VALUE``: the options of the ``--backend`` chosen
    so far (``KEY=``); their values are free (a number, a folder): none offered."""
    registry = _registry(ctx)
    backend = registry.backends.get(ctx.params.get("backend") or "local")
    if backend is None or "=" in incomplete:
        return []
    return [(f"{name}=", _first_line(about)) for name, about in sorted(dict(backend.options).items())
            if name.startswith(incomplete) and name != "address"]


@_quietly
def plugins(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``--disable-plugin``: the plugins loaded."""
    registry = _registry(ctx)
    return [(info.name, info.origin) for info in sorted(registry.plugins, key=lambda i: i.name)
            if info.name.startswith(incomplete)]


def _players_of(ctx: typer.Context) -> list[str]:
    """The players' names the command line gives so far: ``--players``, else
    the bots' names (``--bots``); for gin play, you (``--name``) and the bots'."""
    from ..work.names import bot_names, split_bots

    params = ctx.params
    given = params.get("names") or params.get("players")
    if isinstance(given, str) and given.strip():
        return [n.strip() for n in given.split(",") if n.strip()]
    if ctx.command.name == "play":
        from ..work.names import default_name

        me = (params.get("name") or default_name()).strip()
        specs = [s for s in split_bots(params.get("bot") or "expert") if s]
        return [me, *bot_names(specs, reserved=(me,))]
    if ctx.command.name == "report":
        import os

        words = ctx.meta.get("gincli.words", [])
        return _players_in(list(params.get("files") or ()) or [w for w in words if os.path.isfile(w)])
    specs = [s for s in split_bots(params.get("bots_") or params.get("bots") or "") if s]
    return bot_names(specs) if specs else []


def _players_in(files: list[str]) -> list[str]:
    """The players the first transcript of each file names (gin report
    --anchor): a line of each, read no further than 1 MiB."""
    import json

    found: list[str] = []
    for name in files:
        if name == "-":
            continue
        try:
            with open(name, "rb") as fh:
                head = fh.readline(1 << 20)
            if head[:2] == b"\x1f\x8b":
                import gzip

                with gzip.open(name, "rb") as fh:
                    head = fh.readline(1 << 20)
            players = json.loads(head).get("players")
        except (OSError, ValueError, AttributeError, EOFError):
            continue
        if isinstance(players, list):
            found += [p for p in players if isinstance(p, str) and p not in found]
    return found


@_quietly
def players(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``--dealer`` and ``--anchor``: the players the command line names so far."""
    return _matching(incomplete, list(dict.fromkeys(_players_of(ctx))))


def _fixed(*names: str) -> Callable[[typer.Context, str], list[Any]]:
    def complete(ctx: typer.Context, incomplete: str) -> list[Any]:
        return _matching(incomplete, list(names))

    return complete


def _nothing(ctx: typer.Context, incomplete: str) -> list[Any]:
    return []


#: Each option whose value is a name, by its long name: what completes it, on
#: every command that has it (plugins' commands too). An option that takes a
#: number or free text completes nothing (never files): listed here too, so
#: that no gincli option is left to chance (tests/test_completion.py checks
#: every option of every command against this table and its metavar).
NAMES: dict[str, Callable[[typer.Context, str], list[Any]]] = {
    "--variant": variants, "--scoring": scoring_systems, "--option": options,
    "--bots": bots, "--bot": bots, "--backend": backends, "--backend-option": backend_options,
    "--disable-plugin": plugins, "--dealer": players, "--anchor": players,
    "--input-format": _fixed("json", "jsonl", "toml"), "--color": _fixed("auto", "always", "never"),
    **{name: _nothing for name in ("--seed", "--hands", "--games", "--gauntlet", "--workers", "--max-hands",
                                   "--max-forfeits", "--time-limit", "--start-time-limit", "--players", "--name",
                                   "--record", "--id", "--address", "--sprt")},
}

#: Arguments with names for values, by command path and argument.
ARGUMENTS: dict[tuple[str, str], Callable[[typer.Context, str], list[Any]]] = {
    ("gin config", "what"): _fixed("path"),
    ("gin plugins new", "name"): _nothing,  # a new name: nothing to offer, and never a file
}


def value_kind(param: Any) -> str:
    """What a parameter's value is, by its metavar: a file, a folder, or names."""
    metavar = (getattr(param, "metavar", None) or "").upper()
    if "DIR" in metavar:
        return DIRS_KIND
    if "FILE" in metavar or "PATH" in metavar:
        return FILES_KIND
    return NAMES_KIND


def _param_completions(ctx: Any, param: Any, incomplete: str) -> tuple[str, list[Any]]:
    long_names = [o for o in getattr(param, "opts", ()) if o.startswith("--")]
    named = next((NAMES[o] for o in long_names if o in NAMES), None)
    if named is None:
        named = ARGUMENTS.get((ctx.command_path, param.name))
    if named is not None:
        return NAMES_KIND, _quietly(named)(ctx, incomplete)
    if getattr(param, "_custom_shell_complete", None) is not None or hasattr(param.type, "choices"):
        return NAMES_KIND, [(i.value, i.help) for i in param.shell_complete(ctx, incomplete)]
    kind = value_kind(param)
    if kind == NAMES_KIND and getattr(param, "metavar", None) is None and param.type.name == "text":
        return FILES_KIND, []  # a plugin's free argument: it may well be a file
    return kind, []


def answer(cli: Any, ctx_args: Any, prog_name: str, args: list[str], incomplete: str) -> tuple[str, list[Any]]:
    """What to offer for ``incomplete``, the word being typed after ``args``:
    ``(kind, items)``, each item a full replacement of the word, a name or a
    ``(name, help)`` pair. Anything going wrong offers nothing."""
    import contextlib
    import io

    from .clicks import completion_machinery

    click = completion_machinery()
    try:
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            ctx = click["resolve_context"](cli, dict(ctx_args), prog_name, list(args))
            ctx.meta["gincli.words"] = list(args)  # the words typed: click leaves arguments out of an unfinished line
            obj, value = click["resolve_incomplete"](ctx, list(args), incomplete)
            joined = ""  # --option=VALUE typed as one word: the option's name and = go back in front
            if value != incomplete and incomplete.startswith("-") and incomplete.endswith(value):
                joined = incomplete[:len(incomplete) - len(value)]
            if _is_command(obj):
                kind, found = NAMES_KIND, [(i.value, i.help) for i in obj.shell_complete(ctx, value)]
            else:
                kind, found = _param_completions(ctx, obj, value)
    except Exception:  # noqa: BLE001  (a completion never fails: it offers nothing)
        return NAMES_KIND, []
    items = []
    for item in found:
        name, about = item if isinstance(item, tuple) else (item, None)
        items.append((joined + str(name), _first_line(about) or None))
    return kind, items


def _is_command(obj: Any) -> bool:
    return hasattr(obj, "get_params") and hasattr(obj, "invoke")
