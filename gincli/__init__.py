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
TYPE_CHECKING = False  # typing is not imported: nothing is, until a name is used (see gincli.entry)
if TYPE_CHECKING:
    import signal as _signal  # typeshed has no stub of the C module: these are its functions
else:
    import _signal

_interrupt_held = (hasattr(_signal, "pthread_sigmask")
                   and _signal.SIGINT not in _signal.pthread_sigmask(_signal.SIG_BLOCK, {_signal.SIGINT}))
from . import entry  # noqa: F401  (imported for its handler, in the gin command only; then it unblocks)
from .base.lazy import alias_modules, keep_names, lazy_names
from .base.version import __version__

#: The public names, by the module each comes from: the one list of them
#: (``__all__`` too). They are imported on first use (``gincli.Variant``, ``from
#: gincli import hookimpl``), so that ``gin --help`` and ``gin --version`` start
#: without loading the engine or pluggy. The imports under ``TYPE_CHECKING``
#: at the end say the same to type checkers, which do not run this table
#: (tests/test_api.py holds them to it).
_PUBLIC = {
    "api.calls": ("MatchResult", "TournamentResult", "Transcripts", "deal", "play_match", "play_tournament", "score",
                  "validate"),
    "api.hands": ("GameHand", "new_hand"),
    "base.errors": ("GinError", "RecordError", "UsageError"),
    "hand.bots": ("Bot",),
    "hand.moves": ("IllegalMove", "Move"),
    "hand.moveset": ("MoveSet",),
    "hand.view": ("PlayerView",),
    "matches.backends": ("BackendError", "MatchBackend", "MatchWork"),
    "plugin.hookspecs": ("hookimpl",),
    "rulebook.meldrules": ("MeldRules", "standard_melds"),
    "rulebook.rules": ("OFF", "Option", "Rules"),
    "rulebook.scoring": ("HandResult", "Position", "Spread"),
    "rulebook.variant": ("PendingVariant", "Variant", "variant_from_file"),
    "sessions.systems": ("GAME_OPTIONS", "Game", "HollywoodSheet", "ScoringSystem", "Seating", "Session"),
}
_LAZY = {name: module for module, names in _PUBLIC.items() for name in names}
__all__ = [*_LAZY, "__version__"]

#: The module paths of earlier releases (gincli.melds ...), which still import: the
#: same modules, now in their layer's folder (docs/architecture.md).
_MOVED = {
    "errors": "base.errors", "contract": "base.contract", "config": "base.config", "formats.jsonio": "base.jsonio",
    "cards": "rulebook.cards", "melds": "rulebook.melds", "layoffs": "rulebook.layoffs", "rules": "rulebook.rules",
    "variant": "rulebook.variant", "scoring": "rulebook.scoring", "rng": "rulebook.rng",
    "moves": "hand.moves", "moveset": "hand.moveset", "engine": "hand.engine", "view": "hand.view",
    "bots": "hand.bots", "session": "sessions.systems", "table": "sessions.table",
    "match": "matches.runner", "backends": "matches.backends", "parallel": "base.pool",
    "stats": "matches.stats", "external": "matches.external", "external.process": "matches.external.process",
    "external.protocol": "matches.external.protocol", "external.botsfile": "matches.external.botsfile",
    "hookspecs": "plugin.hookspecs", "plugins": "plugin.registry", "validate": "replay.validate",
}

__getattr__, __dir__ = lazy_names(__name__, _LAZY)
alias_modules({f"{__name__}.{old}": f"{__name__}.{new}" for old, new in _MOVED.items()})
keep_names(__name__, frozenset(_LAZY))  # gincli.validate: the function, though the old module path imports too


if TYPE_CHECKING:
    from .api.calls import (
        MatchResult as MatchResult,
        TournamentResult as TournamentResult,
        Transcripts as Transcripts,
        deal as deal,
        play_match as play_match,
        play_tournament as play_tournament,
        score as score,
        validate as validate,
    )
    from .api.hands import GameHand as GameHand, new_hand as new_hand
    from .base.errors import GinError as GinError, RecordError as RecordError, UsageError as UsageError
    from .hand.bots import Bot as Bot
    from .hand.moves import IllegalMove as IllegalMove, Move as Move
    from .hand.moveset import MoveSet as MoveSet
    from .hand.view import PlayerView as PlayerView
    from .matches.backends import BackendError as BackendError, MatchBackend as MatchBackend, MatchWork as MatchWork
    from .plugin.hookspecs import hookimpl as hookimpl
    from .rulebook.meldrules import MeldRules as MeldRules, standard_melds as standard_melds
    from .rulebook.rules import OFF as OFF, Option as Option, Rules as Rules
    from .rulebook.scoring import HandResult as HandResult, Position as Position, Spread as Spread
    from .rulebook.variant import (
        PendingVariant as PendingVariant,
        Variant as Variant,
        variant_from_file as variant_from_file,
    )
    from .sessions.systems import (
        GAME_OPTIONS as GAME_OPTIONS,
        Game as Game,
        HollywoodSheet as HollywoodSheet,
        ScoringSystem as ScoringSystem,
        Seating as Seating,
        Session as Session,
    )
