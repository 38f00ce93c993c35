"""A brute-force reference for meld rules that change (RULES.md "Variants of
play", round-the-corner), written independently of gincli's solver: cards as
``(rank, suit)`` pairs with rank 1..13 (ace low), every subset tried.

``Book(corner_runs, ace_value, layoff_on_gin)`` is one set of those rules.
"""

from __future__ import annotations

from functools import cache, lru_cache
from itertools import combinations

RANKS = "A23456789TJQK"
SUITS = "shdc"


def card(name: str) -> tuple[int, int]:
    return RANKS.index(name[0]) + 1, SUITS.index(name[1])


class Book:
    def __init__(self, corner_runs: bool = True, ace_value: int = 15, layoff_on_gin: bool = True):
        self.corner_runs = corner_runs
        self.ace_value = ace_value
        self.layoff_on_gin = layoff_on_gin
        self.min_deadwood = lru_cache(maxsize=None)(self._min_deadwood)

    def value(self, c: tuple[int, int]) -> int:
        return self.ace_value if c[0] == 1 else min(c[0], 10)

    def is_meld(self, cards: frozenset) -> bool:
        if len(cards) < 3:
            return False
        ranks = sorted(r for r, _ in cards)
        suits = {s for _, s in cards}
        if len(set(ranks)) == 1:
            return len(cards) <= 4
        if len(suits) != 1:
            return False
        if ranks == list(range(ranks[0], ranks[0] + len(ranks))):
            return True
        if not self.corner_runs:
            return False
        # round the corner: the ranks, on a circle of 13, leave one gap (of any width) between them
        gaps = sum(1 for i in range(len(ranks)) if (ranks[(i + 1) % len(ranks)] - ranks[i]) % 13 != 1)
        return gaps == 1

    def melds_in(self, hand: frozenset) -> list[frozenset]:
        cards = sorted(hand)
        return [frozenset(c) for size in range(3, len(cards) + 1) for c in combinations(cards, size)
                if self.is_meld(frozenset(c))]

    def partitions(self, hand: frozenset) -> list[tuple[frozenset, ...]]:
        melds = self.melds_in(hand)
        out: list[tuple[frozenset, ...]] = []

        def walk(i: int, used: frozenset, chosen: tuple[frozenset, ...]) -> None:
            out.append(chosen)
            for j in range(i, len(melds)):
                if not melds[j] & used:
                    walk(j + 1, used | melds[j], chosen + (melds[j],))

        walk(0, frozenset(), ())
        return out

    def deadwood_of(self, hand: frozenset, melds: tuple[frozenset, ...]) -> int:
        used = frozenset().union(*melds) if melds else frozenset()
        return sum(self.value(c) for c in hand - used)

    def _min_deadwood(self, hand: frozenset) -> int:
        return min(self.deadwood_of(hand, p) for p in self.partitions(hand))

    def fits(self, layoffs: frozenset, knocker_melds: tuple[frozenset, ...]) -> bool:
        """Whether the cards can be laid off one by one, each onto a meld it extends."""

        @cache
        def search(left: frozenset, melds: tuple[frozenset, ...]) -> bool:
            if not left:
                return True
            for c in left:
                for i, m in enumerate(melds):
                    if self.is_meld(m | {c}) and search(left - {c}, melds[:i] + (m | {c},) + melds[i + 1:]):
                        return True
            return False

        return search(frozenset(layoffs), tuple(knocker_melds))

    def defender_best(self, hand: frozenset, knocker_melds: tuple[frozenset, ...]) -> int:
        suits = {s for m in knocker_melds for _, s in m}
        ranks = {r for m in knocker_melds for r, _ in m}
        candidates = sorted(c for c in hand if c[1] in suits or c[0] in ranks)
        best = self.min_deadwood(hand)
        for size in range(1, len(candidates) + 1):
            for combo in combinations(candidates, size):
                laid = frozenset(combo)
                if self.fits(laid, knocker_melds):
                    best = min(best, self.min_deadwood(hand - laid))
        return best

    def score_hand(self, knocker: frozenset, defender: frozenset, gin_bonus: int = 20,
                   undercut_bonus: int = 20) -> tuple[str, str | None, int]:
        """(outcome, winner role, points) of a knock of 10 cards."""
        parts = self.partitions(knocker)
        k = min(self.deadwood_of(knocker, p) for p in parts)
        best = [p for p in parts if self.deadwood_of(knocker, p) == k]
        if k == 0 and not self.layoff_on_gin:
            return "gin", "knocker", self.min_deadwood(defender) + gin_bonus
        d = max(self.defender_best(defender, p) for p in best)
        if k == 0:
            return ("gin_tied", None, 0) if d == 0 else ("gin", "knocker", d + gin_bonus)
        if d > k:
            return "knock", "knocker", d - k
        return "undercut", "defender", k - d + undercut_bonus
