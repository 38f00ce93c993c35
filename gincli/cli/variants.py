"""``gin variants``: the variants of play and scoring systems that are loaded."""

from __future__ import annotations

from typing import Any

import typer

from ..rulebook.rules import format_value
from .base import guard, settings
from .options import FormatOpt
from .render import OutputFormat, emit, listing, safe

HELP = """List the variants of play and the scoring systems that are loaded, with their options and defaults."""


def register(app: typer.Typer) -> None:
    app.command("variants", help=HELP)(guard(variants))


def describe(registry: Any) -> dict[str, Any]:
    """Everything ``gin variants --format json`` prints."""
    variants = []
    for name, v in sorted(registry.variants.items()):
        if name.endswith(".toml"):
            continue
        specs = registry.play_options(v)  # the rule book's, the variant's own, the move sets'
        own = {k: val for k, val in v.defaults.items() if k in specs}
        variants.append({
            "name": name, "description": v.description, "plugin": registry.owner.get(("variant", name)),
            "source": v.source,
            "options": [{"name": o.name, "default": own.get(o.name, o.default), "allowed": o.allowed(),
                         "description": o.description} for o in specs.values()],
            # what it sets of the scoring systems' options (the variant doubling plays to 200)
            "scoring_options": {k: val for k, val in v.defaults.items() if k not in specs},
        })
    systems = []
    for name, s in sorted(registry.scoring_systems.items()):
        systems.append({
            "name": name, "description": s.description, "plugin": registry.owner.get(("scoring system", name)),
            "players": list(s.players),
            "options": [{"name": o.name, "default": o.default, "allowed": o.allowed(),
                         "description": o.description} for o in s.options],
        })
    return {"variants": variants, "scoring_systems": systems}


def variants(
    ctx: typer.Context,
    format: FormatOpt = OutputFormat.text,
) -> None:
    emit(format, describe(settings(ctx).registry()), render)


def render(data: dict[str, Any]) -> Any:
    """Two tables; a variant's defaults that differ from standard's are highlighted."""
    from rich.console import Group
    from rich.text import Text

    standard = next((v for v in data["variants"] if v["name"] == "standard"), {"options": []})
    base = {o["name"]: o["default"] for o in standard["options"]}

    def options(v: dict[str, Any]) -> str:
        lines = []
        for o in v["options"]:
            text = safe(f"{o['name']} = {format_value(o['default'])}")
            changed = o["name"] in base and o["default"] != base[o["name"]]
            lines.append(f"[bold yellow]{text}[/]" if changed else text)
        for key, value in v.get("scoring_options", {}).items():
            lines.append(f"[bold yellow]{safe(f'{key} = {format_value(value)}')}[/] [dim](scoring)[/]")
        return "\n".join(lines) or "—"

    def players(counts: list[int]) -> str:
        return " or ".join(str(n) for n in counts) + " players"

    columns = ("description", "options (default)", "from")
    return Group(
        listing("Variants of play", "variant",
                ((v["name"], v["description"], options(v), v["plugin"] or "") for v in data["variants"]),
                *columns, markup=columns[1:2]),
        listing("Scoring systems", "scoring",
                ((s["name"], f"{s['description']} [{players(s['players'])}]", options(s), s["plugin"] or "")
                 for s in data["scoring_systems"]), *columns, markup=columns[1:2]),
        Text.from_markup("[dim]Options are set with --option key=value; changed defaults are highlighted.[/]"),
    )
