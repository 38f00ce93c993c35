"""Meld rules off the rule book's fast path, for the speed benchmark: with
``mixed_runs`` on, any three cards of consecutive ranks meld, whatever their
suits (A-2-3 of three suits is a meld), beside the rule book's sets and runs."""

from gincli import MeldRules, Option, hookimpl, standard_melds


class MixedRuns(MeldRules):
    name = "mixed-runs"
    description = "any three cards of consecutive ranks meld, suits mixed"
    options = (Option("mixed_runs", False, "any three cards of consecutive ranks meld, whatever their suits", "bool"),)

    def enabled(self, rules):
        return rules["mixed_runs"]

    def melds(self, rules):
        mixed = [1 << (a * 13 + r) | 1 << (b * 13 + r + 1) | 1 << (c * 13 + r + 2)
                 for r in range(11) for a in range(4) for b in range(4) for c in range(4)]
        return standard_melds() + mixed

    def words(self, rules):
        return "a set is 3 or 4 cards of one rank; a run 3 or more of one suit in sequence, or any 3 in sequence"


@hookimpl
def gincli_register_meld_rules(register):
    register(MixedRuns())
