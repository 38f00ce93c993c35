"""The config file's defaults, fitted to a command's options: the part of
reading ``config.toml`` that knows click (the rest, the file and its top level,
is :mod:`gincli.base.config`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..base.errors import ConfigError, click_sentence, quote
from ..base.jsonio import holds_nan_or_infinity


def command_defaults(path: Path, name: str, command: Any, ctx: Any, defaults: dict[str, Any],
                     table: dict[str, Any] | None) -> dict[str, Any]:
    """A command's defaults fitted to its options: a key of its table that is
    not one of its options, or a value its option refuses, is a
    :class:`ConfigError` naming the file, the table and the key; a top-level
    key the command has no option for is left out; one value for an option
    that takes several becomes a list."""
    options = {}  # each option by its long name, with - or _ alike
    for param in command.params:
        if getattr(param, "param_type_name", "") != "option" or param.hidden or param.name in ("help", "version"):
            continue
        for opt in param.opts:
            if opt.startswith("--"):
                options[opt[2:].replace("-", "_")] = param
    given = set(table or {})
    out: dict[str, Any] = {}
    for key, value in defaults.items():
        param = options.get(key.replace("-", "_"))
        where = f"[{name}] {key}" if key in given else key
        if param is None:
            if key in given:
                raise ConfigError(f"the config file {path}: unknown key {where}; gin {name} has no "
                                  f"--{key.replace('_', '-')} option")
            continue
        if param.multiple and not isinstance(value, list):
            value = [value]
        if isinstance(value, (dict, list)) and not param.multiple or param.multiple and not all(
                isinstance(v, (str, int, float, bool)) for v in value):
            raise ConfigError(f"the config file {path}: {where} must be {_kind(param)}, not {quote(value)}")
        if param.is_flag and not isinstance(value, bool):
            raise ConfigError(f"the config file {path}: {where} must be true or false, not {quote(value)}")
        if not param.is_flag and isinstance(value, bool):
            raise ConfigError(f"the config file {path}: {where} takes a value, not {quote(value)}")
        try:
            param.type_cast_value(ctx, value)
        except Exception as exc:  # click's BadParameter: the option refuses the value
            reason = click_sentence(getattr(exc, "message", None) or str(exc))
            raise ConfigError(f"the config file {path}: {where} is not accepted: {reason}") from None
        if holds_nan_or_infinity(value):  # an option of text takes it as "nan", but gin config -f json cannot write it
            raise ConfigError(f"the config file {path}: {where} is not accepted: {quote(value)} is not a number "
                              "JSON allows (for text, put it in quotes)")
        out[param.name] = value
        if isinstance(param.show_default, str):  # "all cores", "random, printed": the config's value instead
            param.show_default = True
    return out


def _kind(param: Any) -> str:
    return "a list of values" if param.multiple else "a single value"
