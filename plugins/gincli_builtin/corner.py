"""Built-in plugin: the meld rules of round-the-corner gin (RULES.md
"Variants of play"), written against the public ``gincli_register_meld_rules``
hook like any plugin's.

Its three options, which any variant may set: ``corner_runs`` (a run may pass
from K to A to 2), ``ace_value`` (what an ace counts in deadwood) and
``layoff_on_gin`` (the defender may lay off onto gin; left with no deadwood,
the hand is tied: outcome ``gin_tied``). The variant ``round-the-corner``
itself is a variant file (``variants/round-the-corner.toml``) that turns them
on, with its bonuses and target.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gincli import MeldRules, Option, hookimpl, standard_melds
from gincli.rulebook.meldrules import MAX_CARD_VALUE

ACE_VALUE = 1


class CornerMelds(MeldRules):
    name = "round-the-corner"
    description = "runs round the corner (Q-K-A, K-A-2), an ace's deadwood value, layoffs onto gin"
    options = (
        Option("corner_runs", False, "a run may go round the corner, from K to A to 2 (Q-K-A, K-A-2)", "bool"),
        Option("ace_value", ACE_VALUE, "what an ace counts in deadwood", most=MAX_CARD_VALUE),
        Option("layoff_on_gin", False, "the defender may lay off onto gin; a defender left with no deadwood ties "
               "the hand (outcome gin_tied)", "bool"),
    )

    def enabled(self, rules: Mapping[str, Any]) -> bool:
        return bool(rules["corner_runs"]) or rules["ace_value"] != ACE_VALUE or bool(rules["layoff_on_gin"])

    def melds(self, rules: Mapping[str, Any]) -> list[int]:
        return standard_melds(corner=bool(rules["corner_runs"]))

    def card_value(self, card: int, rules: Mapping[str, Any]) -> int:
        if card % 13 == 0:
            return rules["ace_value"]
        return super().card_value(card, rules)

    def layoff_on_gin(self, rules: Mapping[str, Any]) -> bool:
        return bool(rules["layoff_on_gin"])

    def words(self, rules: Mapping[str, Any]) -> str:
        if rules["corner_runs"]:
            return ("a set is 3 or 4 cards of one rank; a run 3 or more of one suit in sequence, which may go "
                    "round the corner from K to A to 2")
        return super().words(rules)


@hookimpl(trylast=True)
def gincli_register_meld_rules(register: Callable[[MeldRules], None]) -> None:
    register(CornerMelds())
