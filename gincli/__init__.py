"""gincli: a plugin-based command-line toolkit for gin rummy.

The public API for plugin authors and scripts: ``hookimpl`` marks a plugin's
hook implementations; :class:`Variant`, :class:`ScoringSystem`,
:class:`Session`, :class:`MoveSet`, :class:`Bot` and :class:`Option` are what
plugins register or build on; the solver
and scorer are importable for scripts (``gincli.melds.deadwood``,
``gincli.scoring.score_position``).
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing is not imported: nothing is, until a name is used (see gincli.entry)

__version__ = "0.1.0"

#: The public names, and the module each comes from. They are imported on first
#: use (``gincli.Variant``, ``from gincli import hookimpl``), so that ``gin
#: --help`` and ``gin --version`` start without loading the engine or pluggy.
_LAZY = {
    "OFF": "rules", "Option": "rules", "Rules": "rules",
    "GAME_OPTIONS": "session", "Game": "session", "HollywoodSheet": "session", "ScoringSystem": "session",
    "Seating": "session", "Session": "session",
    "PendingVariant": "variant", "Variant": "variant",
    "Bot": "bots",
    "RecordError": "errors",
    "IllegalMove": "moves", "Move": "moves",
    "MoveSet": "moveset",
    "HandResult": "scoring",
    "PlayerView": "view",
    "BackendError": "backends", "MatchBackend": "backends", "MatchWork": "backends",
}


def __getattr__(name: str) -> Any:
    import importlib

    if name == "hookimpl":
        import pluggy

        #: Marks a plugin's hook implementations: ``@gincli.hookimpl``.
        value = pluggy.HookimplMarker("gincli")
    elif name in _LAZY:
        value = getattr(importlib.import_module(f".{_LAZY[name]}", __name__), name)
    else:
        try:  # a submodule, as ``import gincli; gincli.melds`` found it when this module imported them all
            value = importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:
    from typing import Any

    import pluggy

    from .backends import BackendError, MatchBackend, MatchWork
    from .bots import Bot
    from .errors import RecordError
    from .moves import IllegalMove, Move
    from .moveset import MoveSet
    from .rules import OFF, Option, Rules
    from .scoring import HandResult
    from .session import GAME_OPTIONS, Game, HollywoodSheet, ScoringSystem, Seating, Session
    from .variant import PendingVariant, Variant
    from .view import PlayerView

    hookimpl: pluggy.HookimplMarker


def variant_from_file(path: str) -> PendingVariant:
    """A variant read from a TOML variant file, ready to ``register()``."""
    from pathlib import Path

    from .variant import PendingVariant

    return PendingVariant.from_file(Path(path))


__all__ = ["BackendError", "MatchBackend", "MatchWork", "Bot", "HandResult", "IllegalMove", "Move", "MoveSet", "RecordError", "PlayerView", "hookimpl", "Option", "Rules", "OFF", "ScoringSystem", "Seating", "Session", "Game", "HollywoodSheet", "GAME_OPTIONS", "Variant", "PendingVariant",
           "variant_from_file", "__version__"]
