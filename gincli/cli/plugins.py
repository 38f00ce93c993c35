"""``gin plugins``: the plugins that are loaded and the hooks each implements."""

from __future__ import annotations

from typing import Any

import typer

from . import guard, settings
from .options import FormatOpt
from .render import OutputFormat, stdout_console, write_json

HELP = """List the plugins that are loaded (built-in, installed through the gincli entry-point group, or from a plugins directory), the hooks each implements and what each registered; and any plugin left out, with why."""


def register(app: typer.Typer) -> None:
    app.command("plugins", help=HELP)(guard(plugins))


def describe(registry: Any) -> dict[str, Any]:
    """Everything ``gin plugins --format json`` prints."""
    registered: dict[str, dict[str, list[str]]] = {}
    for (kind, name), plugin in registry.owner.items():
        registered.setdefault(plugin, {}).setdefault(kind + "s", []).append(name)
    return {
        "plugins": [{"name": p.name, "source": p.source, "builtin": p.builtin, "hooks": p.hooks,
                     "registered": {k: sorted(v) for k, v in registered.get(p.name, {}).items()}}
                    for p in registry.plugins],
        "problems": list(registry.problems),
    }


def plugins(
    ctx: typer.Context,
    format: FormatOpt = OutputFormat.text,
) -> None:
    data = describe(settings(ctx).registry())
    if format is OutputFormat.json:
        write_json(data)
        return
    from rich.table import Table

    console = stdout_console()
    table = Table(title="Plugins", title_justify="left", show_lines=True)
    table.add_column("plugin", style="bold cyan", no_wrap=True)
    table.add_column("from", overflow="fold")
    table.add_column("hooks", no_wrap=True)
    table.add_column("registered")
    for p in data["plugins"]:
        what = "\n".join(f"{kind}: {', '.join(names)}" for kind, names in p["registered"].items())
        table.add_row(p["name"], p["source"], "\n".join(p["hooks"]), what or "—")
    console.print(table)
    for problem in data["problems"]:
        console.print(f"[yellow]left out:[/] {problem}")
