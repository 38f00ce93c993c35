"""What the Python faces share (the API, the learning environments): the
plugins loaded once a process, as ``gin`` loads them; the ``options`` and
``seed`` arguments, read and checked in the sentences of the API
(``options: ...``, ``seed: ...``).

It imports the layers below it, never a face."""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any

from ..base.arguments import SEED_MAX, argument, texts, whole_number
from ..base.errors import UsageError, quote
from ..plugin.registry import Registry, load_registry
from ..rulebook.rules import parse_assignments

_registry: Registry | None = None


def registry() -> Registry:
    """The plugins, loaded once a process as ``gin`` loads them (built-ins,
    installed plugins, ``GINCLI_PLUGINS_DIR``, the configuration folder's);
    a plugin left out is a warning (:mod:`warnings`), as ``gin`` warns on stderr."""
    global _registry
    if _registry is None:
        _registry = load_registry()
        for problem in _registry.problems:
            warnings.warn(problem, stacklevel=4)
    return _registry


def overrides(options: Mapping[str, Any] | Sequence[str] | None) -> dict[str, Any]:
    """``options``: a mapping of option names to values, or ``--option``'s
    ``key=value`` strings (read as ``--option`` reads them). The values are
    checked with the rules they set, in the sentences of ``--option``."""
    if options is None:
        return {}
    if isinstance(options, Mapping):
        for key in options:
            if not isinstance(key, str):
                raise UsageError(f"options: the key {quote(key)} is not an option's name (text)")
        return {k.replace("-", "_"): v for k, v in options.items()}
    if isinstance(options, (str, bytes)) or not isinstance(options, Sequence):
        raise UsageError(f"options: {quote(options)} is not a mapping of options nor a list of key=value strings")
    items = argument("options", texts, options, "key=value strings", "a key=value string")
    try:
        return parse_assignments(items, "options")
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def seed(seed: Any) -> int | None:
    return None if seed is None else argument("seed", whole_number, seed, 0, SEED_MAX)
