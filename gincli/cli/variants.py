"""``gin variants``: the variants of play and scoring systems that are loaded."""

from __future__ import annotations

from typing import Any

import typer

from ..rules import format_value
from . import guard, settings
from .options import FormatOpt
from .render import OutputFormat, stdout_console, write_json

HELP = """List the variants of play and the scoring systems that are loaded, with their options and defaults."""


def register(app: typer.Typer) -> None:
    app.command("variants", help=HELP)(guard(variants))


def describe(registry: Any) -> dict[str, Any]:
    """Everything ``gin variants --format json`` prints."""
    variants = []
    for name, v in sorted(registry.variants.items()):
        if name.endswith(".toml"):
            continue
        own = {k: val for k, val in v.defaults.items() if k in v.options}
        values = {o.name: own.get(o.name, o.default) for o in v.options.values()}
        variants.append({
            "name": name, "description": v.description, "plugin": registry.owner.get(("variant", name)),
            "source": v.source,
            "options": [{"name": o.name, "default": values[o.name], "allowed": o.allowed(),
                         "description": o.description} for o in v.options.values()],
        })
    systems = []
    for name, s in sorted(registry.scoring_systems.items()):
        systems.append({
            "name": name, "description": s.description, "plugin": registry.owner.get(("scoring system", name)),
            "options": [{"name": o.name, "default": o.default, "allowed": o.allowed(),
                         "description": o.description} for o in s.options],
        })
    return {"variants": variants, "scoring_systems": systems}


def variants(
    ctx: typer.Context,
    format: FormatOpt = OutputFormat.text,
) -> None:
    data = describe(settings(ctx).registry())
    if format is OutputFormat.json:
        write_json(data)
        return
    from rich.table import Table

    console = stdout_console()
    table = Table(title="Variants of play", title_justify="left", show_lines=True)
    table.add_column("variant", style="bold cyan", no_wrap=True)
    table.add_column("description")
    table.add_column("options (default)")
    table.add_column("from", style="dim")
    base = {o["name"]: o["default"] for o in data["variants"][0]["options"]} if data["variants"] else {}
    standard = next((v for v in data["variants"] if v["name"] == "standard"), None)
    if standard:
        base = {o["name"]: o["default"] for o in standard["options"]}
    for v in data["variants"]:
        opts = []
        for o in v["options"]:
            changed = v["name"] != "standard" and o["default"] != base.get(o["name"], o["default"])
            text = f"{o['name']} = {format_value(o['default'])}"
            opts.append(f"[bold yellow]{text}[/]" if changed else text)
        table.add_row(v["name"], v["description"], "\n".join(opts), v["plugin"] or "")
    console.print(table)
    table = Table(title="Scoring systems", title_justify="left", show_lines=True)
    table.add_column("scoring", style="bold cyan", no_wrap=True)
    table.add_column("description")
    table.add_column("options (default)")
    table.add_column("from", style="dim")
    for s in data["scoring_systems"]:
        opts = "\n".join(f"{o['name']} = {format_value(o['default'])}" for o in s["options"]) or "—"
        table.add_row(s["name"], s["description"], opts, s["plugin"] or "")
    console.print(table)
    console.print("[dim]Options are set with --option key=value; changed defaults are highlighted.[/]")
