"""gincli: a plugin-based command-line toolkit for gin rummy, and its Python API.

For scripts and notebooks (docs/api.md): :func:`score` scores hand records,
:func:`validate` replays a transcript, :func:`deal` deals one, and
:func:`play_match` plays a match between bots (and :func:`play_tournament` a
tournament) (names, ``exec:`` programs,
:class:`Bot` objects or plain callables ``(view, legal) -> move``), each
returning what its ``gin`` command writes with ``--format json``;
:func:`new_hand` deals a :class:`GameHand` to step through move by move. A
mistake in their arguments is a :class:`UsageError` (a :class:`GinError`) in
the command's sentence, naming the argument.

For plugin authors (docs/plugins.md): ``hookimpl`` marks a plugin's hook
implementations; :class:`Variant`, :class:`ScoringSystem`, :class:`Session`,
:class:`MoveSet`, :class:`MeldRules`, :class:`Bot` and :class:`Option` are what
plugins register or build on.
"""

# Before anything is imported: the gin command holds a Ctrl-C until gincli.entry
# can answer it (see there); in a program that imports gincli, entry lets it through.
import _signal

_interrupt_held = (hasattr(_signal, "pthread_sigmask")
                   and _signal.SIGINT not in _signal.pthread_sigmask(_signal.SIG_BLOCK, {_signal.SIGINT}))
from . import entry as _entry  # noqa: E402  (its handler, in the gin command only; then it unblocks)

TYPE_CHECKING = False  # typing is not imported: nothing is, until a name is used (see gincli.entry)

from .base.lazy import alias_modules, keep_names, lazy_names
from .base.version import __version__

#: The public names, and the module each comes from. They are imported on first
#: use (``gincli.Variant``, ``from gincli import hookimpl``), so that ``gin
#: --help`` and ``gin --version`` start without loading the engine or pluggy.
_LAZY = {
    "OFF": "rulebook.rules", "Option": "rulebook.rules", "Rules": "rulebook.rules",
    "GAME_OPTIONS": "sessions.systems", "Game": "sessions.systems", "HollywoodSheet": "sessions.systems",
    "ScoringSystem": "sessions.systems", "Seating": "sessions.systems", "Session": "sessions.systems",
    "PendingVariant": "rulebook.variant", "Variant": "rulebook.variant",
    "Bot": "hand.bots",
    "RecordError": "base.errors", "UsageError": "base.errors", "GinError": "base.errors",
    "IllegalMove": "hand.moves", "Move": "hand.moves",
    "MoveSet": "hand.moveset",
    "MeldRules": "rulebook.meldrules", "standard_melds": "rulebook.meldrules",
    "HandResult": "rulebook.scoring",
    "PlayerView": "hand.view",
    "BackendError": "matches.backends", "MatchBackend": "matches.backends", "MatchWork": "matches.backends",
    "hookimpl": "plugin.hookspecs",
    "variant_from_file": "rulebook.variant",
    "score": "api.calls", "validate": "api.calls", "deal": "api.calls", "play_match": "api.calls",
    "MatchResult": "api.calls", "Transcripts": "api.calls", "play_tournament": "api.calls",
    "TournamentResult": "api.calls",
    "GameHand": "api.hands", "new_hand": "api.hands",
}


#: The module paths of earlier releases (gincli.melds ...), which still import: the
#: same modules, now in their layer's folder (docs/architecture.md).
_MOVED = {
    "errors": "base.errors", "contract": "base.contract", "config": "base.config", "formats.jsonio": "base.jsonio",
    "cards": "rulebook.cards", "melds": "rulebook.melds", "layoffs": "rulebook.layoffs", "rules": "rulebook.rules",
    "variant": "rulebook.variant", "scoring": "rulebook.scoring", "rng": "rulebook.rng",
    "moves": "hand.moves", "moveset": "hand.moveset", "engine": "hand.engine", "view": "hand.view",
    "bots": "hand.bots", "session": "sessions.systems", "table": "sessions.table",
    "match": "matches.runner", "backends": "matches.backends", "parallel": "matches.parallel",
    "stats": "matches.stats", "external": "matches.external", "external.process": "matches.external.process",
    "external.protocol": "matches.external.protocol", "external.botsfile": "matches.external.botsfile",
    "hookspecs": "plugin.hookspecs", "plugins": "plugin.registry", "validate": "replay.validate",
}

__getattr__, __dir__ = lazy_names(__name__, _LAZY)
alias_modules({f"{__name__}.{old}": f"{__name__}.{new}" for old, new in _MOVED.items()})
keep_names(__name__, frozenset(_LAZY))  # gincli.validate: the function, though the old module path imports too


if TYPE_CHECKING:
    from .matches.backends import BackendError, MatchBackend, MatchWork
    from .hand.bots import Bot
    from .base.errors import GinError, RecordError, UsageError
    from .hand.moves import IllegalMove, Move
    from .hand.moveset import MoveSet
    from .rulebook.meldrules import MeldRules, standard_melds
    from .rulebook.rules import OFF, Option, Rules
    from .rulebook.scoring import HandResult
    from .sessions.systems import GAME_OPTIONS, Game, HollywoodSheet, ScoringSystem, Seating, Session
    from .rulebook.variant import PendingVariant, Variant, variant_from_file
    from .hand.view import PlayerView
    from .plugin.hookspecs import hookimpl
    from .api.calls import (MatchResult, TournamentResult, Transcripts, deal, play_match, play_tournament, score,
                            validate)
    from .api.hands import GameHand, new_hand


__all__ = ["BackendError", "MatchBackend", "MatchWork", "Bot", "HandResult", "IllegalMove", "Move", "MoveSet", "MeldRules", "standard_melds", "RecordError", "UsageError", "GinError", "PlayerView", "hookimpl", "Option", "Rules", "OFF", "ScoringSystem", "Seating", "Session", "Game", "HollywoodSheet", "GAME_OPTIONS", "Variant", "PendingVariant",
           "variant_from_file", "__version__",
           "score", "validate", "deal", "play_match", "MatchResult", "Transcripts", "GameHand", "new_hand",
           "play_tournament", "TournamentResult"]
