"""``gin plugins``: the plugins that are loaded and the hooks each implements."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer

from .base import guard, settings
from .options import FormatOpt
from .render import OutputFormat, emit, listing, safe

if TYPE_CHECKING:
    from ..plugin.registry import Registry

HELP = """List the plugins that are loaded, in order of precedence (plugin folders, the user's config folder,
installed packages, the built-ins: the first to register a name keeps it), the hooks each implements and what each
registered or replaced; and any plugin left out, with why."""


def register(app: typer.Typer) -> None:
    app.command("plugins", help=HELP)(guard(plugins))


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
    emit(format, describe(settings(ctx).registry()), render)


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
