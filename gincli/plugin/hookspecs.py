"""Every hook a gincli plugin can implement (documented in docs/plugins.md).

Hooks that contribute things hand the plugin a ``register`` callable, so
gincli checks each item as it arrives (its type, a unique name) and can name
the plugin at fault. Built-in variants and scoring systems are registered
through these same hooks by the plugins in ``gincli_builtin``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:
    from ..hand.bots import Bot
    from ..hand.moveset import MoveSet
    from ..matches.backends import MatchBackend
    from ..rulebook.meldrules import MeldRules
    from ..rulebook.variant import PendingVariant, Variant
    from ..sessions.systems import ScoringSystem

hookspec = pluggy.HookspecMarker("gincli")
#: Marks a plugin's hook implementations: ``@gincli.hookimpl`` (the name the package presents).
hookimpl = pluggy.HookimplMarker("gincli")


@hookspec
def gincli_register_variants(register: Callable[[Variant | PendingVariant], None]) -> None:
    """Register variants of play.

    Call ``register(variant)`` once per variant, with a
    :class:`gincli.Variant` (or subclass: override ``knock_limit``,
    ``hand_multiplier``, ``needs_upcard``, add ``extra_options``), or with
    :func:`gincli.variant_from_file` for a TOML variant file. Names must be
    unique: a second variant of a name already registered is refused with a
    warning naming the plugin (built-ins register last, so a plugin may
    replace one). Returns nothing; every plugin's implementation is called.
    """


@hookspec
def gincli_register_scoring_systems(register: Callable[[ScoringSystem], None]) -> None:
    """Register scoring systems (how a session of hands is settled).

    Call ``register(system)`` once per system, with an instance of a
    :class:`gincli.ScoringSystem` subclass: a ``name``, a ``description``,
    its ``options`` and ``new_session(players, rules)`` returning a
    :class:`gincli.Session`. Names must be unique, as for variants. Returns
    nothing; every plugin's implementation is called.
    """


@hookspec
def gincli_register_bots(register: Callable[[type[Bot]], None]) -> None:
    """Register bots (players for ``gin match``).

    Call ``register(cls)`` once per bot with a subclass of :class:`gincli.Bot`
    that sets ``name`` and ``description`` and implements ``choose(view)``,
    returning one of ``view.legal()``. gincli makes one instance per seat and
    session, ``cls(rng, seat)``, with a seeded generator. A bot sees only its
    :class:`gincli.PlayerView`. Names must be unique, as for variants. Returns
    nothing; every plugin's implementation is called.
    """


@hookspec
def gincli_register_moves(register: Callable[[MoveSet], None]) -> None:
    """Register move sets: moves a plugin adds to a hand (doubling's ``double``,
    ``accept`` and ``decline`` are the built-in ones).

    Call ``register(moveset)`` once per move set, with an instance of a
    :class:`gincli.MoveSet` subclass: its ``name``, the ``actions`` it adds,
    the ``options`` it adds to every variant, when those turn it on
    (``enabled(rules)``), and what its moves do (``legal``, ``apply``,
    ``finish``...). Names must be unique, and no two move sets may add the same
    action. Returns nothing; every plugin's implementation is called.
    """


@hookspec
def gincli_register_meld_rules(register: Callable[[MeldRules], None]) -> None:
    """Register meld rules: what a meld is, what each card counts in deadwood,
    and whether the defender may lay off onto gin (the built-in
    ``round-the-corner`` rules: ``corner_runs``, ``ace_value``,
    ``layoff_on_gin``).

    Call ``register(rules)`` once per meld rules, with an instance of a
    :class:`gincli.MeldRules` subclass: its ``name``, the ``options`` it adds
    to every variant, when those turn it on (``enabled(rules)``), and its data
    for the rules in force: ``melds(rules)`` (every meld of the deck, as card
    masks), ``card_value(card, rules)``, ``layoff_on_gin(rules)`` and
    ``words(rules)``. gincli solves hands, layoffs, knocks, ``legal()`` and the
    built-in bots from that data. At most one meld rules may be on in a hand.
    Names must be unique, as for variants. Returns nothing; every plugin's
    implementation is called.
    """


@hookspec
def gincli_register_commands(register: Callable[..., None]) -> None:
    """Register ``gin`` subcommands (as ``llm`` plugins do).

    Call ``register(function, name=None, help=None)`` once per command: a
    function written as for Typer (its parameters, with ``typer.Option`` or
    ``typer.Argument`` defaults or ``Annotated`` hints, are the command's
    options and arguments; its docstring is the help, unless ``help`` is given),
    and the command's name (default: the function's name, ``_`` as ``-``). A
    name that is already a command is refused with a warning. gincli runs the
    command like its own: a :class:`gincli.base.errors.GinError` it raises is one
    sentence and its exit status. Returns nothing; every plugin's
    implementation is called.
    """


@hookspec
def gincli_register_match_backends(register: Callable[[MatchBackend], None]) -> None:
    """Register match backends: where ``gin match`` runs its sessions
    (``--backend NAME``; ``local``, worker processes on this machine, is the
    built-in one).

    Call ``register(backend)`` once per backend, with an instance of a
    :class:`gincli.MatchBackend` subclass: a ``name``, a ``description``, the
    ``options`` of ``--backend-option KEY=VALUE`` (name -> description),
    ``start(options, workers)`` returning how many chunks may run at once, and
    ``map(work, chunks)`` yielding ``work(chunk)`` for every chunk of session
    indices, in the order of the chunks. gincli checks every result (the
    chunk asked for, in order) and writes, counts and stops in session order,
    so results never depend on the backend. Names must be unique, as for
    variants. Returns nothing; every plugin's implementation is called.
    """
