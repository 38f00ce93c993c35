"""``gin variants``: the variants of play and scoring systems that are loaded."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..base.errors import UsageError, quote
from ..rulebook.rules import format_value
from . import complete
from .base import guard, settings
from .options import FormatOpt
from .render import OutputFormat, emit, listing, safe

if TYPE_CHECKING:
    from ..plugin.registry import Registry

HELP = """List the variants of play and the scoring systems that are loaded, with their options and defaults.

Where the terminal is narrower than the full tables, a line or two each: what it is and what a variant changes from
standard (--long: the full tables however narrow). gin variants NAME shows one variant, scoring system or variant
file: each option, its default and what it means."""

#: The widest the description column of the full tables is (``--long``): the tables fit this plus the other columns.
DESCRIPTION_WIDTH = 44


def register(app: typer.Typer) -> None:
    app.command("variants", help=HELP)(guard(variants))


def _names(ctx: typer.Context, incomplete: str) -> list[Any]:
    """``gin variants NAME``: the variants (and variant files), then the scoring systems."""
    return list(complete.variants(ctx, incomplete) or []) + list(complete.scoring_systems(ctx, incomplete) or [])


def describe_variant(registry: Registry, name: str, v: Any) -> dict[str, Any]:
    """A variant as ``gin variants --format json`` gives it."""
    specs = registry.play_options(v)  # the rule book's, the variant's own, the move sets'
    own = {k: val for k, val in v.defaults.items() if k in specs}
    return {
        "name": name, "description": v.description, "plugin": registry.owner.get(("variant", name)),
        "source": v.source,
        "options": [{"name": o.name, "default": own.get(o.name, o.default), "allowed": o.allowed(),
                     "description": o.description} for o in specs.values()],
        # what it sets of the scoring systems' options (the variant doubling plays to 200)
        "scoring_options": {k: val for k, val in v.defaults.items() if k not in specs},
    }


def describe_system(registry: Registry, name: str, s: Any) -> dict[str, Any]:
    """A scoring system as ``gin variants --format json`` gives it."""
    return {
        "name": name, "description": s.description, "plugin": registry.owner.get(("scoring system", name)),
        "players": list(s.players),
        "options": [{"name": o.name, "default": o.default, "allowed": o.allowed(),
                     "description": o.description} for o in s.options],
    }


def describe(registry: Registry) -> dict[str, Any]:
    """Everything ``gin variants --format json`` prints."""
    return {"variants": [describe_variant(registry, name, v) for name, v in sorted(registry.variants.items())
                         if not name.endswith(".toml")],
            "scoring_systems": [describe_system(registry, name, s)
                                for name, s in sorted(registry.scoring_systems.items())]}


def describe_one(registry: Registry, name: str) -> dict[str, Any]:
    """``gin variants NAME``: the variant and the scoring system of that name
    (one of them, or both if a plugin gave both the name), or the variant a
    variant file makes; with the rest of the data's shape."""
    variants, systems = [], []
    if name in registry.scoring_systems:
        systems.append(describe_system(registry, name, registry.scoring_systems[name]))
    a_file = name.endswith(".toml") or "/" in name
    if name in registry.variants or a_file:
        v = registry.variant(name)  # a variant file that cannot be read or is wrong: its own sentence
        variants.append(describe_variant(registry, v.name if a_file else name, v))
    elif not systems:
        known = sorted(n for n in registry.variants if not n.endswith(".toml") and "/" not in n)
        raise UsageError(f"no variant or scoring system is called {quote(name)}; the variants are "
                         f"{', '.join(known)}, the scoring systems {', '.join(sorted(registry.scoring_systems))}")
    return {"variants": variants, "scoring_systems": systems}


def variants(
    ctx: typer.Context,
    name: Annotated[str | None, typer.Argument(
        metavar="[NAME]", autocompletion=_names, show_default=False,
        help="A variant, a scoring system or a variant file (FILE.toml): its options, their defaults and "
             "meaning.")] = None,
    long: Annotated[bool, typer.Option("--long", "-l", help="Every option of every variant and scoring system, "
                                                            "however narrow the terminal.")] = False,
    format: FormatOpt = OutputFormat.text,
) -> None:
    registry = settings(ctx).registry()
    if name is not None:
        data = describe_one(registry, name)
        emit(format, data, lambda d: render_one(d, describe(registry)))
        return
    emit(format, describe(registry), lambda d: render(d) if long else Fitting(render(d), render_compact(d)))


def _standard(data: dict[str, Any]) -> dict[str, Any]:
    standard: dict[str, Any] = next((v for v in data["variants"] if v["name"] == "standard"), {"options": []})
    return {o["name"]: o["default"] for o in standard["options"]}


def changed(v: dict[str, Any], base: dict[str, Any]) -> list[str]:
    """What a variant sets differently from standard, ``key=value`` each as
    ``--option`` takes it (its scoring options too)."""
    out = [f"{o['name']}={format_value(o['default'])}" for o in v["options"]
           if o["name"] in base and o["default"] != base[o["name"]]]
    return out + [f"{k}={format_value(val)}" for k, val in v.get("scoring_options", {}).items()]


def players(counts: list[int]) -> str:
    return " or ".join(str(n) for n in counts) + " players"


HINT = ("gin variants NAME: one variant's or scoring system's options, their defaults and meaning; "
        "gin variants --long: every option of each. Options are set with --option key=value.")


def render(data: dict[str, Any]) -> Any:
    """Two tables of every option; a variant's defaults that differ from standard's are highlighted."""
    from rich.console import Group
    from rich.text import Text

    base = _standard(data)

    def options(v: dict[str, Any]) -> str:
        lines = []
        for o in v["options"]:
            text = safe(f"{o['name']} = {format_value(o['default'])}")
            changed = o["name"] in base and o["default"] != base[o["name"]]
            lines.append(f"[bold yellow]{text}[/]" if changed else text)
        for key, value in v.get("scoring_options", {}).items():
            lines.append(f"[bold yellow]{safe(f'{key} = {format_value(value)}')}[/] [dim](scoring)[/]")
        return "\n".join(lines) or "—"

    columns = ("description", "options (default)", "from")
    tables = [
        listing("Variants of play", "variant",
                ((v["name"], v["description"], options(v), v["plugin"] or "") for v in data["variants"]),
                *columns, markup=columns[1:2]),
        listing("Scoring systems", "scoring",
                ((s["name"], f"{s['description']} [{players(s['players'])}]", options(s), s["plugin"] or "")
                 for s in data["scoring_systems"]), *columns, markup=columns[1:2]),
    ]
    for table in tables:
        table.columns[1].max_width = DESCRIPTION_WIDTH
    return Group(*tables,
                 Text.from_markup("[dim]Options are set with --option key=value; changed defaults are highlighted.[/]"))


def render_compact(data: dict[str, Any]) -> Any:
    """A line or two a variant and a scoring system, for a narrow terminal: its
    description, and for a variant what it changes from standard."""
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    base = _standard(data)
    variants = Table(title="Variants of play", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                     show_edge=False)
    variants.add_column("variant", style="bold cyan", no_wrap=True)
    variants.add_column("what it is (and what it changes from standard)")
    for v in data["variants"]:
        cell = Text(safe(v["description"], markup=False))
        sets = changed(v, base)
        if sets:
            cell.append("\n" + ", ".join(safe(s, markup=False) for s in sets), style="yellow")
        variants.add_row(safe(v["name"]), cell)
    systems = Table(title="Scoring systems", title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False,
                    show_edge=False)
    systems.add_column("scoring", style="bold cyan", no_wrap=True)
    systems.add_column("players", no_wrap=True)
    systems.add_column("what it is")
    for s in data["scoring_systems"]:
        systems.add_row(safe(s["name"]), " or ".join(str(n) for n in s["players"]),
                        Text(safe(s["description"], markup=False)))
    return Group(variants, Text(""), systems, Text(""), Text(HINT, style="dim"))


class Fitting:
    """The full tables where they fit the width (each option on a line of its
    own), else the compact view."""

    def __init__(self, full: Any, compact: Any):
        self.full, self.compact = full, compact

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.measure import Measurement

        widest = max(Measurement.get(console, options.update_width(10_000), r).maximum
                     for r in self.full.renderables)
        yield self.full if widest <= options.max_width else self.compact


def render_one(data: dict[str, Any], everything: dict[str, Any]) -> Any:
    """One variant (and/or scoring system): what it is, where it comes from,
    then a table of its options: the default (highlighted where a variant's
    differs from standard's) and what the option means."""
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    base = _standard(everything)
    meanings = {o["name"]: o["description"] for s in everything["scoring_systems"] for o in s["options"]}
    parts: list[Any] = []

    def table() -> Any:
        t = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
        t.add_column("option", style="bold", no_wrap=True)
        t.add_column("default", no_wrap=True)
        t.add_column("meaning")
        return t

    for v in data["variants"]:
        where = ", ".join(x for x in (v["plugin"], v.get("source")) if x)
        parts.append(Text.assemble((safe(v["name"], markup=False), "bold cyan"), " · variant of play"))
        parts.append(Text(safe(v["description"], markup=False)))
        if where:
            parts.append(Text(f"from {safe(where, markup=False)}", style="dim"))
        t = table()
        for o in v["options"]:
            changed = o["name"] in base and o["default"] != base[o["name"]]
            t.add_row(Text(safe(o["name"], markup=False)), Text(safe(format_value(o["default"]), markup=False),
                                                               style="bold yellow" if changed else ""),
                      Text(safe(o["description"] or "", markup=False)))
        for key, value in v.get("scoring_options", {}).items():
            t.add_row(Text(safe(key, markup=False)), Text(safe(format_value(value), markup=False), style="bold yellow"),
                      Text(safe(meanings.get(key) or "", markup=False) + " (an option of the scoring system)"))
        parts += [Text(""), t, Text("")]
    for s in data["scoring_systems"]:
        parts.append(Text.assemble((safe(s["name"], markup=False), "bold cyan"),
                                   f" · scoring system for {players(s['players'])}"))
        parts.append(Text(safe(s["description"], markup=False)))
        if s["plugin"]:
            parts.append(Text(f"from {safe(s['plugin'], markup=False)}", style="dim"))
        parts.append(Text(""))
        if s["options"]:
            t = table()
            for o in s["options"]:
                t.add_row(Text(safe(o["name"], markup=False)), Text(safe(format_value(o["default"]), markup=False)),
                          Text(safe(o["description"] or "", markup=False)))
            parts.append(t)
        else:
            parts.append(Text("no options of its own"))
        parts.append(Text(""))
    parts.append(Text(("Highlighted: a default that differs from standard's. " if data["variants"] else "")
                      + "Options are set with --option key=value.", style="dim"))
    return Group(*parts)
