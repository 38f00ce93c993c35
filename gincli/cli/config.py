"""``gin config [path]``: the config file and the defaults in effect."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from .app import COMMANDS, GinGroup
from .base import guard, settings
from .options import FormatOpt
from .render import OutputFormat, safe, write_data, write_json

HELP = """Show the config file (config.toml in the config folder) and the defaults in effect.

The config file gives defaults to options: variant, scoring, workers and color at the top level (for every command
that has the option), import_time_limit (the seconds a plugin may take to import; GINCLI_IMPORT_TIME_LIMIT wins),
and a [COMMAND] table for a command's own options by their long names, for instance [match] games = 100. Options
given on the command line always win. gin config path prints only the file's path. See docs/config.md.

Exit status: 0; 2 when the config file is wrong (the file and the key are named).
"""

#: The defaults of the top-level keys when the config file does not set them.
BUILT_IN = {"variant": "standard", "scoring": "game", "workers": None, "color": "auto", "import_time_limit": 5}


def register(app: typer.Typer) -> None:
    app.command("config", help=HELP)(guard(config_command))


def config_command(
    ctx: typer.Context,
    what: Annotated[str | None, typer.Argument(metavar="[path]", help="path: print only the file's path.")]
    = None,
    format: FormatOpt = OutputFormat.text,
) -> None:
    from ..base.errors import UsageError

    s = settings(ctx)
    if what not in (None, "path"):
        raise UsageError(f"gin config takes path or nothing, not {what!r}")
    if what == "path":
        if format is OutputFormat.json:
            write_json({"path": str(s.config_file)})
        else:
            write_data(safe(str(s.config_file), markup=False) + "\n")
        return
    group = ctx.find_root().command
    assert isinstance(group, GinGroup), "the root command is gin's group"
    for name in COMMANDS:  # check each command's table against its options, as running it would
        if isinstance(s.config.get(name), dict):
            group.get_command(ctx.find_root(), name)
    if s.config_error is not None:
        raise s.config_error
    emit_config(format, describe(s))


def describe(s: Any) -> dict[str, Any]:
    """What ``gin config --format json`` prints."""
    import os

    values = {key: {"value": s.config.get(key, default), "from": "config file" if key in s.config else "built-in"}
              for key, default in BUILT_IN.items()}
    given = os.environ.get("GINCLI_IMPORT_TIME_LIMIT", "").strip()
    if given:  # the environment wins over the file (gincli.plugin.registry reads it)
        values["import_time_limit"] = {"value": given, "from": "GINCLI_IMPORT_TIME_LIMIT"}
    root = s.config
    commands = {name: dict(table) for name, table in root.items() if isinstance(table, dict)}
    return {"path": str(s.config_file), "exists": s.config_file.is_file(), "defaults": values, "commands": commands}


def emit_config(format: OutputFormat, data: dict[str, Any]) -> None:
    if format is OutputFormat.json:
        write_json(data)
        return
    state = "" if data["exists"] else " (there is none: the built-in defaults apply)"
    lines = [f"config file: {safe(data['path'], markup=False)}{state}"]
    for key, entry in data["defaults"].items():
        value = entry["value"]
        shown = "all cores" if key == "workers" and value is None else str(value)
        if key == "import_time_limit":
            shown += " s"
        lines.append(f"  {key:<8} {safe(shown, markup=False):<12} ({entry['from']})")
    for name, table in data["commands"].items():
        lines.append(f"[{name}]")
        for key, value in table.items():
            lines.append(f"  {safe(key, markup=False)} = {safe(_toml(value), markup=False)}")
    write_data("\n".join(lines) + "\n")


def _toml(value: Any) -> str:
    from ..base.jsonio import dumps

    if isinstance(value, bool):
        return "true" if value else "false"
    return dumps(value)
