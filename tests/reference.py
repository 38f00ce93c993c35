"""Brute-force references, written independently of gincli's optimised code.

They work on cards as ``(rank, suit)`` pairs with rank 1..13 (ace low), try
every possibility, and are obviously correct rather than fast.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations

RANKS = "A23456789TJQK"
SUITS = "shdc"


def card(name: str) -> tuple[int, int]:
    return RANKS.index(name[0]) + 1, SUITS.index(name[1])


def name(c: tuple[int, int]) -> str:
    return RANKS[c[0] - 1] + SUITS[c[1]]


def value(c: tuple[int, int]) -> int:
    return min(c[0], 10)


def is_meld(cards: frozenset) -> bool:
    if len(cards) < 3:
        return False
    ranks = {r for r, _ in cards}
    suits = {s for _, s in cards}
    if len(ranks) == 1:
        return len(cards) <= 4
    if len(suits) == 1:
        rs = sorted(ranks)
        return rs == list(range(rs[0], rs[0] + len(rs)))
    return False


def all_melds(hand: frozenset) -> list[frozenset]:
    """Every subset of the hand that is a meld (sets of 3-4, runs of 3+)."""
    cards = sorted(hand)
    out = []
    for size in range(3, len(cards) + 1):
        for combo in combinations(cards, size):
            fs = frozenset(combo)
            if is_meld(fs):
                out.append(fs)
    return out


def partitions(hand: frozenset) -> list[tuple[frozenset, ...]]:
    """Every way of choosing disjoint melds from the hand."""
    melds = all_melds(hand)
    results: list[tuple[frozenset, ...]] = []

    def walk(i: int, used: frozenset, chosen: tuple[frozenset, ...]) -> None:
        results.append(chosen)
        for j in range(i, len(melds)):
            if not (melds[j] & used):
                walk(j + 1, used | melds[j], chosen + (melds[j],))

    walk(0, frozenset(), ())
    return results


def deadwood_of(hand: frozenset, melds: tuple[frozenset, ...]) -> int:
    used = frozenset().union(*melds) if melds else frozenset()
    return sum(value(c) for c in hand - used)


@cache
def min_deadwood(hand: frozenset) -> int:
    return min(deadwood_of(hand, p) for p in partitions(hand))


def fits(layoffs: frozenset, knocker_melds: tuple[frozenset, ...]) -> bool:
    """Whether the cards can be laid off one by one, in some order, each onto
    some meld of the knocker's (as it has grown so far)."""

    @cache
    def search(left: frozenset, melds: tuple[frozenset, ...]) -> bool:
        if not left:
            return True
        for c in left:
            for i, m in enumerate(melds):
                if is_meld(m | {c}):
                    grown = melds[:i] + (m | {c},) + melds[i + 1:]
                    if search(left - {c}, grown):
                        return True
        return False

    return search(frozenset(layoffs), tuple(knocker_melds))


def defender_best(hand: frozenset, knocker_melds: tuple[frozenset, ...]) -> int:
    """The defender's least deadwood: any fitting layoffs, any melds of the rest."""
    best = None
    cards = sorted(hand)
    for size in range(len(cards) + 1):
        for combo in combinations(cards, size):
            laid = frozenset(combo)
            if size and not fits(laid, knocker_melds):
                continue
            dw = min_deadwood(hand - laid)
            if best is None or dw < best:
                best = dw
    assert best is not None
    return best


def knocker_choice(knocker: frozenset, defender: frozenset) -> tuple[int, int]:
    """(knocker deadwood, defender deadwood) under FORMATS.md's choice rule: the
    knocker's arrangement of minimum deadwood that leaves the defender worst off."""
    parts = partitions(knocker)
    k = min(deadwood_of(knocker, p) for p in parts)
    d = max(defender_best(defender, p) for p in parts if deadwood_of(knocker, p) == k)
    return k, d


def could_lay_off(c: tuple[int, int], knocker_melds: tuple[frozenset, ...]) -> bool:
    """A quick filter: a card can only ever be laid off if it shares a set's
    rank or a run's suit (the search in ``fits`` decides)."""
    for m in knocker_melds:
        ranks = {r for r, _ in m}
        suits = {s for _, s in m}
        if (len(ranks) == 1 and c[0] in ranks) or (len(suits) == 1 and c[1] in suits):
            return True
    return False


def defender_best_fast(hand: frozenset, knocker_melds: tuple[frozenset, ...]) -> int:
    """``defender_best``, trying as layoffs only cards that pass ``could_lay_off``."""
    candidates = sorted(c for c in hand if could_lay_off(c, knocker_melds))
    best = min_deadwood(hand)
    for size in range(1, len(candidates) + 1):
        for combo in combinations(candidates, size):
            laid = frozenset(combo)
            if fits(laid, knocker_melds):
                best = min(best, min_deadwood(hand - laid))
    return best


def score_hand(knocker: frozenset, defender: frozenset, gin_bonus: int = 25, undercut_bonus: int = 25,
               big_gin_bonus: int | None = None) -> tuple[str, str, int]:
    """(outcome, winner role, points) of a knock, by brute force and the rule book."""
    parts = partitions(knocker)
    k = min(deadwood_of(knocker, p) for p in parts)
    if len(knocker) == 11:
        assert k == 0 and big_gin_bonus is not None
        return "big_gin", "knocker", min_deadwood(defender) + big_gin_bonus
    if k == 0:
        return "gin", "knocker", min_deadwood(defender) + gin_bonus
    d = max(defender_best_fast(defender, p) for p in parts if deadwood_of(knocker, p) == k)
    if d > k:
        return "knock", "knocker", d - k
    return "undercut", "defender", k - d + undercut_bonus
