"""The user's configuration folder, and ``config.toml`` in it: defaults for the
command line.

The folder is ``$GINCLI_CONFIG_DIR``, else ``$XDG_CONFIG_HOME/gincli``, else
``~/.config/gincli``; it also holds ``plugins/``, ``variants/`` and
``bots.toml``. ``config.toml`` gives defaults that any option given on the
command line overrides::

    variant = "oklahoma"     # every command with a --variant
    scoring = "hollywood"    # every command with a --scoring
    workers = 2              # every command with a --workers
    color = "never"          # the global --color: auto, always or never
    import_time_limit = 5    # seconds a plugin may take to import (GINCLI_IMPORT_TIME_LIMIT wins)

    [match]                  # a command's own options, by their long name
    games = 100
    bots = "expert,simple"

This module is light on purpose (no engine, no pluggy): ``gin`` reads it at
every start.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .errors import ConfigError, quote

ENV_CONFIG_DIR = "GINCLI_CONFIG_DIR"
ENV_PLUGINS_DIR = "GINCLI_PLUGINS_DIR"
ENTRY_POINT_GROUP = "gincli"  # installed plugin packages
ENV_DISABLE = "GINCLI_DISABLE_PLUGINS"  # plugins not to load, by name
CONFIG_FILE = "config.toml"

#: The keys of the top level: what each must be, in words, and its check.
COLOR_MODES = ("auto", "always", "never")
#: The most worker processes an option takes (a run uses no more than the cores, nor its work, need).
MAX_WORKERS = 1024
#: The seconds a plugin's import may be given (``import_time_limit``, ``GINCLI_IMPORT_TIME_LIMIT``):
#: long enough for a slow machine, short enough to wait for at a prompt.
IMPORT_LIMIT_RANGE = (0.1, 600.0)
TOP_KEYS: dict[str, str] = {
    "variant": "a variant's name or a variant file (a string)",
    "scoring": "a scoring system's name (a string)",
    "workers": "a whole number of worker processes, from 1 to 1024",
    "color": "auto, always or never",
    "import_time_limit": "a number of seconds from 0.1 to 600 that a plugin may take to import",
}


def _xdg_dir(env: str, xdg: str, *home: str) -> Path:
    """``$env``, else ``$xdg/gincli``, else ``~/<home>/gincli`` (the XDG base directories)."""
    given = os.environ.get(env)
    if given:
        return Path(given)
    return Path(os.environ.get(xdg) or os.path.join(os.path.expanduser("~"), *home)) / "gincli"


def config_dir() -> Path:
    """The user's gincli configuration directory (``GINCLI_CONFIG_DIR``, else
    ``$XDG_CONFIG_HOME/gincli``, else ``~/.config/gincli``)."""
    return _xdg_dir(ENV_CONFIG_DIR, "XDG_CONFIG_HOME", ".config")


def data_dir() -> Path:
    """Where gincli keeps what it makes, such as gin play's games
    (``GINCLI_DATA_DIR``, else ``$XDG_DATA_HOME/gincli``, else ``~/.local/share/gincli``)."""
    return _xdg_dir("GINCLI_DATA_DIR", "XDG_DATA_HOME", ".local", "share")


def config_path() -> Path:
    return config_dir() / CONFIG_FILE


def read_toml(path: Path, what: str, missing_ok: bool = False) -> dict[str, Any]:
    """A TOML file gincli reads (the config file, a variant file, a bots file),
    a byte-order mark allowed: its table, or :class:`ConfigError` in one sentence
    naming ``what`` and the file; a missing file is empty if ``missing_ok``."""
    try:
        data = _read_regular(path, what)
    except OSError as exc:
        if missing_ok and isinstance(exc, FileNotFoundError):
            return {}
        reason = "it is a directory" if isinstance(exc, IsADirectoryError) else exc.strerror or exc
        raise ConfigError(f"cannot read {what} {path}: {reason}") from None
    import tomllib

    from .jsonio import strip_bom

    try:
        return tomllib.loads(strip_bom(data).decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{what} {path} is not UTF-8 text (is it a TOML file?)") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{what} {path} is not valid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{what} {path} is nested too deeply") from None
    except ValueError as exc:  # an integer past Python's digit limit
        raise ConfigError(f"{what} {path} holds a number gincli cannot read: {str(exc).split(';')[0]}") from None


#: The largest TOML file gincli reads (a config, variant or bots file is a few hundred bytes).
MAX_TOML_BYTES = 1 << 20


def _read_regular(path: Path, what: str) -> bytes:
    """The bytes of a regular file, opened without waiting: a FIFO or a device
    where a file is expected (which would never end, or never start) is a
    :class:`ConfigError`, as is a file past :data:`MAX_TOML_BYTES`."""
    import stat

    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError(21, "Is a directory")
        if not stat.S_ISREG(st.st_mode):
            raise ConfigError(f"cannot read {what} {path}: it is not a regular file (a FIFO or a device?)")
        if st.st_size > MAX_TOML_BYTES:
            raise ConfigError(f"cannot read {what} {path}: it holds {st.st_size:,} bytes, past the "
                              f"{MAX_TOML_BYTES:,} a TOML file of gincli's may hold")
        os.set_blocking(fd, True)
        parts = []
        while chunk := os.read(fd, 65536):
            parts.append(chunk)
        return b"".join(parts)
    finally:
        os.close(fd)


def read_config(path: Path | None = None, commands: tuple[str, ...] = ()) -> dict[str, Any]:
    """The settings of ``config.toml`` (``{}`` when there is none), checked at
    the top level: the keys of :data:`TOP_KEYS`, and a table for each of
    ``commands`` (their keys are checked against the command's options by
    :func:`gincli.cli.defaults.command_defaults`). :class:`ConfigError` naming the file and the key."""
    path = path or config_path()
    doc = read_toml(path, "the config file", missing_ok=True)
    for key, value in doc.items():
        if isinstance(value, dict):
            if key not in commands:
                raise ConfigError(f"the config file {path}: [{key}] is not a gin command; tables are for "
                                  f"{', '.join(commands)}")
            continue
        if key not in TOP_KEYS:
            raise ConfigError(f"the config file {path}: unknown key {quote(key)}; the top level has "
                              f"{', '.join(TOP_KEYS)}, and [COMMAND] tables")
        if not _fits(key, value):
            raise ConfigError(f"the config file {path}: {key} must be {TOP_KEYS[key]}, not {quote(value)}")
    return doc


def _fits(key: str, value: Any) -> bool:
    if key == "workers":
        return type(value) is int and 1 <= value <= MAX_WORKERS
    if key == "color":
        return value in COLOR_MODES
    if key == "import_time_limit":
        low, high = IMPORT_LIMIT_RANGE
        return type(value) in (int, float) and low <= value <= high
    return isinstance(value, str) and value != ""


def default_map(doc: dict[str, Any], commands: tuple[str, ...]) -> dict[str, Any]:
    """Click's ``default_map`` for the root command: ``color`` for the global
    option, and for each command the top-level keys overlaid by its table
    (``import_time_limit`` is no option: :func:`gincli.cli.base.Settings.registry` reads it)."""
    top = {k: v for k, v in doc.items() if not isinstance(v, dict) and k != "import_time_limit"}
    out: dict[str, Any] = {}
    if "color" in top:
        out["color"] = top["color"]
    shared = {k: v for k, v in top.items() if k != "color"}
    for name in commands:
        table = doc.get(name)
        out[name] = {**shared, **table} if isinstance(table, dict) else dict(shared)
    return out
