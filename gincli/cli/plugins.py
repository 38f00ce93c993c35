"""``gin plugins``: the plugins that are loaded and the hooks each implements."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from .base import guard, settings
from .options import FormatOpt
from .render import OutputFormat, emit, listing, safe

if TYPE_CHECKING:
    from ..plugin.registry import Registry

HELP = """List the plugins that are loaded, in order of precedence (plugin folders, the user's config folder,
installed packages, the built-ins: the first to register a name keeps it), the hooks each implements and what each
registered or replaced; and any plugin left out, with why."""


NEW_HELP = """Write a new plugin package to start from: the folder gincli-NAME (in --dir, the current folder by
default) with pyproject.toml (its entry point in the gincli group), the plugin module gincli_NAME.py (an example move
set), tests that use gincli.testing, and a README. It installs with pip and passes its own tests. NAME: lower-case
words of letters and digits joined by hyphens.

Exit status: 0; 2 when NAME is not a plugin's name or the folder exists (it never writes over one)."""


def register(app: typer.Typer) -> None:
    group = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None,
                        subcommand_metavar="[new NAME]")
    group.callback(invoke_without_command=True, help=HELP)(guard(plugins))
    group.command("new", help=NEW_HELP)(guard(new))
    app.add_typer(group, name="plugins")


def describe(registry: Registry) -> dict[str, Any]:
    """Everything ``gin plugins --format json`` prints."""
    registered: dict[str, dict[str, list[str]]] = {}
    for (kind, name), plugin in registry.owner.items():
        plural = kind if kind.endswith("s") else kind + "s"  # "meld rules" is plural already
        registered.setdefault(plugin, {}).setdefault(plural.replace(" ", "_"), []).append(name)
    replaced: dict[str, list[str]] = {}
    for (kind, name), builtin in registry.replaced.items():
        replaced.setdefault(registry.owner[(kind, name)], []).append(f"the {kind} {name} of {builtin}")
    return {
        "plugins": [{"name": p.name, "source": p.source, "origin": p.origin, "builtin": p.builtin, "hooks": p.hooks,
                     "registered": {k: sorted(v) for k, v in registered.get(p.name, {}).items()},
                     "replaces": sorted(replaced.get(p.name, []))}
                    for p in registry.plugins],
        "problems": list(registry.problems),
    }


def plugins(
    ctx: typer.Context,
    format: FormatOpt = OutputFormat.text,
) -> None:
    if ctx.invoked_subcommand is not None:  # gin plugins new: its own options
        ctx.obj = ctx.find_root().obj
        return
    emit(format, describe(settings(ctx).registry()), render)


def new(
    name: Annotated[str, typer.Argument(metavar="NAME", help="The plugin's name (my-rule): its package is "
                                                              "gincli-NAME, its module gincli_NAME.")],
    dir: Annotated[Path, typer.Option("--dir", metavar="DIR", help="Where to write the folder gincli-NAME.")]
    = Path("."),
    format: FormatOpt = OutputFormat.text,
) -> None:
    from ..base.errors import UsageError, quote
    from ..base.version import __version__
    from .template import MOST, NAME, files, names

    if not NAME.fullmatch(name) or len(name) > MOST:
        raise UsageError(f"{quote(name)} is not a plugin's name: lower-case words of letters and "
                         f"digits joined by hyphens, starting with a letter, at most {MOST} characters (my-rule)")
    folder = dir / names(name)["package"]
    if folder.exists() or folder.is_symlink():
        raise UsageError(f"{folder} exists: gin plugins new writes a new folder, never over one (give another NAME "
                         "or --dir)")
    written = files(name, __version__)
    try:
        for path, text in written.items():
            (folder / path).parent.mkdir(parents=True, exist_ok=True)
            (folder / path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise UsageError(f"cannot write {folder}: {exc.strerror or exc}") from None
    data = {"name": name, "folder": str(folder), "files": sorted(written), **{
        k: v for k, v in names(name).items() if k in ("package", "module")}}
    emit(format, data, lambda d: "\n".join(
        [safe(f"wrote {Path(d['folder']) / f}") for f in d["files"]]
        + [safe(f"next: pip install -e '{d['folder']}[test]', then pytest {d['folder']}")]))


def render(data: dict[str, Any]) -> Any:
    from rich.console import Group
    from rich.text import Text

    def what(p: dict[str, Any]) -> str:
        lines = [f"{kind.replace('_', ' ')}: {', '.join(safe(n) for n in names)}"
                 for kind, names in p["registered"].items()]
        lines += [f"replaces {safe(r)}" for r in p["replaces"]]
        return "\n".join(lines) or "—"

    rows = ((p["name"], p["source"], "\n".join(safe(h) for h in p["hooks"]), what(p)) for p in data["plugins"])
    order = Text("in order of precedence: the first to register a name keeps it", style="dim")
    problems = [Text.from_markup(f"[yellow]left out:[/] {safe(problem)}") for problem in data["problems"]]
    return Group(listing("Plugins", "plugin", rows, "from", "hooks", "registered", markup=("hooks", "registered")),
                 order, *problems)
