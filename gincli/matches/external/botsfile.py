"""Named external bots, defined in a TOML file (``bots.toml`` in the user's
configuration folder, or ``--bots-file``), as chess engine testers define their
engines: a command (with commas, spaces, quotes: no quoting tricks on the
command line), where and how it runs, its limits, and parameters it receives
in ``hello``::

    [bots.deep]
    command = ["python3", "/opt/bots/deep.py", "--fast,quiet"]   # or one string
    cwd = "/opt/bots"
    env = { DEEP_THREADS = "1" }
    time_limit = 2.0           # seconds a decision (default: --time-limit)
    start_time_limit = 60      # seconds to start (default: --start-time-limit)
    parameters = { depth = 3 }
    description = "Our deep searcher."

``gin match --bots deep,simple`` then plays it; ``deep:depth=5`` sets a
parameter for one run.
"""

from __future__ import annotations

import shlex
from pathlib import Path
from typing import Any

from ...base.arguments import seconds_problem
from ...base.config import read_toml
from ...base.errors import ConfigError, quote
from ...base.jsonio import holds_nan_or_infinity
from .protocol import ExternalSpec

KEYS = ("command", "cwd", "env", "time_limit", "start_time_limit", "parameters", "description")

def read_bots_file(path: Path) -> dict[str, ExternalSpec]:
    """The named bots of a bots file; :class:`ConfigError` naming the file and
    the bot when something is wrong."""
    data = read_toml(path, "the bots file")
    bots = data.get("bots")
    if set(data) - {"bots"} or not isinstance(bots, dict):
        raise ConfigError(f"the bots file {path} holds [bots.NAME] tables and nothing else")
    return {name: _spec(path, name, entry) for name, entry in bots.items()}


def _spec(path: Path, name: str, entry: Any) -> ExternalSpec:
    def bad(what: str) -> ConfigError:
        return ConfigError(f"the bots file {path}, bot {quote(name)}: {what}")

    if not name or ":" in name or "," in name or name.startswith("exec"):
        raise bad("a bot's name has no \":\" or \",\" and does not start with exec")
    if not isinstance(entry, dict):
        raise bad("must be a table ([bots.NAME])")
    unknown = set(entry) - set(KEYS)
    if unknown:
        raise bad(f"unknown key {quote(sorted(unknown)[0])}; a bot has {', '.join(KEYS)}")
    command = entry.get("command")
    if isinstance(command, str):
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise bad(f"cannot read its command: {exc}") from None
    elif isinstance(command, list) and all(isinstance(a, str) for a in command):
        argv = list(command)
    else:
        raise bad("needs a \"command\": a string, or a list of strings")
    if not argv:
        raise bad("its command is empty")
    env = entry.get("env", {})
    if not isinstance(env, dict) or not all(isinstance(v, str) for v in env.values()):
        raise bad("\"env\" must be a table of strings")
    limits = {}
    for key in ("time_limit", "start_time_limit"):
        value = entry.get(key)
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float))):
            raise bad(f"\"{key}\" must be a number of seconds")
        if value is not None and seconds_problem(float(value)):
            raise bad(f"\"{key}\": {seconds_problem(float(value))}")
        limits[key] = float(value) if value is not None else None
    params = entry.get("parameters", {})
    if not isinstance(params, dict):
        raise bad("\"parameters\" must be a table")
    if holds_nan_or_infinity(params):  # hello is JSON, which has none
        raise bad("\"parameters\" hold nan or inf, which JSON does not allow (the bot is sent them in hello)")
    cwd = entry.get("cwd")
    if cwd is not None and not isinstance(cwd, str):
        raise bad("\"cwd\" must be a folder's path")
    description = entry.get("description", "")
    return ExternalSpec(tuple(argv), name, cwd, tuple(sorted(env.items())), limits["time_limit"],
                        limits["start_time_limit"], tuple(sorted(params.items())), str(description), str(path))
