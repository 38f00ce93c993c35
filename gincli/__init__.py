"""gincli: a plugin-based command-line toolkit for gin rummy.

The public API for plugin authors and scripts: ``hookimpl`` marks a plugin's
hook implementations; :class:`Variant`, :class:`ScoringSystem`,
:class:`Session`, :class:`MoveSet`, :class:`Bot` and :class:`Option` are what
plugins register or build on; the solver
and scorer are importable for scripts (``gincli.melds.deadwood``,
``gincli.scoring.score_position``).
"""

from __future__ import annotations

import pluggy

__version__ = "0.1.0"

#: Marks a plugin's hook implementations: ``@gincli.hookimpl``.
hookimpl = pluggy.HookimplMarker("gincli")

from .rules import OFF, Option, Rules  # noqa: E402
from .session import GAME_OPTIONS, Game, HollywoodSheet, ScoringSystem, Seating, Session  # noqa: E402
from .variant import PendingVariant, Variant  # noqa: E402
from .bots import Bot  # noqa: E402
from .errors import RecordError  # noqa: E402
from .moves import IllegalMove, Move  # noqa: E402
from .moveset import MoveSet  # noqa: E402
from .scoring import HandResult  # noqa: E402
from .view import PlayerView  # noqa: E402
from .backends import BackendError, MatchBackend, MatchWork  # noqa: E402


def variant_from_file(path: str) -> PendingVariant:
    """A variant read from a TOML variant file, ready to ``register()``."""
    from pathlib import Path

    return PendingVariant.from_file(Path(path))


__all__ = ["BackendError", "MatchBackend", "MatchWork", "Bot", "HandResult", "IllegalMove", "Move", "MoveSet", "RecordError", "PlayerView", "hookimpl", "Option", "Rules", "OFF", "ScoringSystem", "Seating", "Session", "Game", "HollywoodSheet", "GAME_OPTIONS", "Variant", "PendingVariant",
           "variant_from_file", "__version__"]
