"""A test plugin, written as a third party would from docs/plugins.md: meld
rules where a set needs all four cards of its rank (runs as the rule book's).
With ``four_card_sets`` on, three of a kind is no meld."""

from gincli import MeldRules, Option, hookimpl, standard_melds


class FourSets(MeldRules):
    name = "four-sets"
    description = "a set is all four cards of a rank; runs as the rule book's"
    options = (Option("four_card_sets", False, "a set needs all four cards of its rank", "bool"),)

    def enabled(self, rules):
        return rules["four_card_sets"]

    def melds(self, rules):
        fours = [sum(1 << (suit * 13 + rank) for suit in range(4)) for rank in range(13)]
        runs = [m for m in standard_melds() if len({c // 13 for c in range(52) if m >> c & 1}) == 1]
        return runs + fours

    def words(self, rules):
        return "a set is all four cards of one rank; a run 3 or more of one suit in sequence"


@hookimpl
def gincli_register_meld_rules(register):
    register(FourSets())
