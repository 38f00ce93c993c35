# file: aces_high.py
from gincli import MeldRules, Option, hookimpl, standard_melds


class AcesHigh(MeldRules):
    name = "aces-high"
    description = "an ace may end a run above the king (Q-K-A) and counts 11"
    options = (Option("aces_high", False, "aces rank high too: Q-K-A is a run, and an ace counts 11", "bool"),)

    def enabled(self, rules):
        return rules["aces_high"]

    def melds(self, rules):
        high = []
        for suit in range(4):  # card = suit * 13 + rank, rank 0 (ace) to 12 (king)
            for start in range(1, 12):  # 2..Q: the run goes from there up to the king, then the ace
                high.append(sum(1 << (suit * 13 + r) for r in range(start, 13)) | 1 << (suit * 13))
        return standard_melds() + high

    def card_value(self, card, rules):
        return 11 if card % 13 == 0 else super().card_value(card, rules)

    def words(self, rules):
        return "a set is 3 or 4 cards of one rank; a run 3 or more of one suit in sequence, an ace low or high"


@hookimpl
def gincli_register_meld_rules(register):
    register(AcesHigh())
