"""Dealing a hand, checked as ``gin deal`` checks it: the players, the table
ready for its first deal, the transcript that starts a game (``gin deal``,
``gin play``, :func:`gincli.deal`, :func:`gincli.new_hand`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..base.arguments import FLAGS, Spelling
from ..base.errors import UsageError, quote
from ..hand.engine import Hand
from ..sessions.table import Table
from .checks import check_dealer, check_seats, random_seed

if TYPE_CHECKING:
    from ..plugin.registry import Registry


def parse_players(text: str, say: Spelling = FLAGS, given: Any = None) -> tuple[str, ...]:
    """``--players A,B``: two names or more, each different (``given``: what
    the sentence quotes, the API's list rather than its names joined)."""
    names = [n.strip() for n in text.split(",")]
    if len(names) < 2 or not all(names) or len(set(names)) != len(names):
        commas, shown = (" separated by commas", text) if given is None else ("", given)
        raise UsageError(f"{say('players')} takes different names{commas}, not {quote(shown)}", parameters=("players",))
    return tuple(names)


def deal_table(registry: Registry, names: tuple[str, ...], *, seed: int | None, dealer: str | None, variant: str,
               scoring: str, overrides: dict[str, Any], say: Spelling = FLAGS) -> tuple[Table, Any, Any, Any]:
    """A table ready for its first deal, checked as ``gin deal`` checks it
    (:class:`UsageError` in one sentence, naming the arguments as ``say``
    spells them): the table, the variant, the scoring system and the rules.
    Without a seed, a random one."""
    v = registry.variant(variant)
    system = registry.scoring(scoring)
    check_seats(system, len(names), say("players"), "names")
    check_dealer(dealer, names, say)
    if seed is None:
        seed = random_seed()
    try:
        rules = registry.rules(v, system, overrides, where=say("options"))
        table = Table(names, v, rules, system, seed, dealer=dealer)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return table, v, system, rules


def deal_transcript(registry: Registry, names: tuple[str, ...], *, seed: int | None, dealer: str | None, variant: str,
                    scoring: str, overrides: dict[str, Any], id: Any = None,
                    say: Spelling = FLAGS) -> tuple[Hand, dict[str, Any]]:
    """``gin deal``'s hand and transcript (:func:`gincli.deal` too)."""
    table, v, system, rules = deal_table(registry, names, seed=seed, dealer=dealer, variant=variant,
                                         scoring=scoring, overrides=overrides, say=say)
    hand = table.deal()
    written = registry.transcript_options(v, rules)
    doc = table.transcript(id=id, options=written, current=True,
                           plugins=registry.transcript_plugins(v, system, rules, written))
    return hand, doc
