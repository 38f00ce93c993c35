"""Shell completion of names: variants, scoring systems, bots, rule options.

Each function here completes one option's value, for ``gin completion``'s
scripts (bash, zsh, fish). They run only when the shell asks, in a ``gin``
started for that: the registry is loaded then (and its warnings kept quiet),
never at an ordinary start. Files are completed by the shell itself, for the
options that take a path.
"""

from __future__ import annotations

import glob
import os
from typing import Any

import typer


def _registry(ctx: typer.Context) -> Any:
    """The registry, as the command line read so far would load it (its
    ``--plugins-dir``, ``--disable-plugin`` and ``--bots-file``); its problems are
    not said: a completion writes only completions."""
    root = ctx.find_root()
    obj = root.obj
    cached = getattr(obj, "_completion_registry", None)
    if cached is not None:
        return cached
    from ..plugin.registry import load_registry

    registry = load_registry(list(root.params.get("plugins_dir") or []), list(root.params.get("disable_plugin") or []))
    bots_file = ctx.params.get("bots_file")
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


def _first_line(text: str | None) -> str:
    return (text or "").strip().split("\n")[0][:60]


def _toml_files(incomplete: str) -> list[str]:
    """Variant files and folders on the way to them, for a value that may be a path."""
    out = []
    for path in sorted(glob.glob(glob.escape(incomplete) + "*")):
        if os.path.isdir(path):
            out.append(path + os.sep)
        elif path.endswith(".toml"):
            out.append(path)
    return out


@_quietly
def variants(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``--variant``: the variants loaded, then variant files."""
    registry = _registry(ctx)
    names = [(name, _first_line(v.description)) for name, v in sorted(registry.variants.items())
             if name.startswith(incomplete)]
    return names + [f for f in _toml_files(incomplete) if f not in dict(names)]


@_quietly
def scoring_systems(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``--scoring``: the scoring systems loaded."""
    registry = _registry(ctx)
    return [(name, _first_line(system.description)) for name, system in sorted(registry.scoring_systems.items())
            if name.startswith(incomplete)]


@_quietly
def bots(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``--bots A,B`` and ``--bot``: the bots loaded, the bots file's, and
    ``exec:``; after a comma, the next one (the ones before kept)."""
    registry = _registry(ctx)
    done, _, last = incomplete.rpartition(",")
    head = done + "," if done else ""
    found = [(name, _first_line(b.description)) for name, b in sorted(registry.bots.items())]
    found += [(name, _first_line(e.description) or "a bot of the bots file") for name, e in
              sorted(registry.named_bots.items())]
    found.append(("exec:", "an external program: exec:COMMAND"))
    return [(head + name, about) for name, about in found if name.startswith(last)]


@_quietly
def options(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``--option KEY=VALUE``: the rule options of the variant and scoring
    system chosen so far (``KEY=``), then a key's values when they are few."""
    registry = _registry(ctx)
    params = ctx.params
    variant = params.get("variant")
    variant = variant[0] if isinstance(variant, list) and variant else variant
    try:
        v = registry.variant(os.fspath(variant) if variant else "standard")
    except Exception:  # noqa: BLE001
        v = registry.variant("standard")
    scoring = params.get("scoring") or ("hand" if params.get("hands") else "game")
    try:
        system = registry.scoring(scoring)
    except Exception:  # noqa: BLE001
        system = registry.scoring("game")
    specs = registry.option_specs(v, system)
    key, eq, value = incomplete.partition("=")
    if not eq:
        return [(f"{name}=", _first_line(spec.description)) for name, spec in sorted(specs.items())
                if name.startswith(key)]
    spec = specs.get(key)
    if spec is None:
        return []
    values = {"bool": ("true", "false"), "choice": spec.choices, "int-or-off": ("off",),
              "knock-limit": ("upcard",)}.get(spec.kind, ())
    return [f"{key}={v}" for v in values if v.startswith(value)]


@_quietly
def backends(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``--backend``: where a match's sessions may run."""
    registry = _registry(ctx)
    return [(name, _first_line(b.description)) for name, b in sorted(registry.backends.items())
            if name.startswith(incomplete)]
