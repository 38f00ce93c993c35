"""Any meld rules a plugin gives are solved exactly: the search of a plugin's
melds (``meldrules.HandSearch``, and its compiled twin ``_meldsearch.Search``
where it is built) and what the solver builds on it (least arrangements,
layoffs, the points of a knock or gin) against a brute force written apart:
cards as ints in frozensets, every set of disjoint melds the hand holds tried,
on random meld rules and random hands. And the caches stay bounded."""

from __future__ import annotations

from functools import cache
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from gincli.rulebook import meldrules
from gincli.rulebook.cards import mask_of
from gincli.rulebook.meldrules import HandSearch, MeldSolver
from gincli.rulebook.rules import PLAY_OPTIONS, Rules
from gincli.rulebook.scoring import knock_points

try:
    from gincli.rulebook._meldsearch import Search
except ImportError:  # not built: tests/test_accel.py says whether it should be
    Search = None


class Book:
    """Meld rules by brute force: ``melds`` (frozensets of cards), each card's value."""

    def __init__(self, melds: set[frozenset[int]], values: tuple[int, ...], layoff_on_gin: bool = False):
        self.melds = melds
        self.values = values
        self.layoff_on_gin = layoff_on_gin

    def partitions(self, hand: frozenset[int]) -> list[tuple[frozenset[int], ...]]:
        """Every set of disjoint melds of cards of ``hand``."""
        held = sorted((m for m in self.melds if m <= hand), key=sorted)
        out: list[tuple[frozenset[int], ...]] = []

        def walk(i: int, used: frozenset[int], chosen: tuple[frozenset[int], ...]) -> None:
            out.append(chosen)
            for j in range(i, len(held)):
                if not held[j] & used:
                    walk(j + 1, used | held[j], chosen + (held[j],))

        walk(0, frozenset(), ())
        return out

    def deadwood_of(self, hand: frozenset[int], melds: tuple[frozenset[int], ...]) -> int:
        used = frozenset().union(*melds)
        return sum(self.values[c] for c in hand - used)

    def least(self, hand: frozenset[int]) -> int:
        return min(self.deadwood_of(hand, p) for p in self.partitions(hand))

    def least_arrangements(self, hand: frozenset[int]) -> set[frozenset[frozenset[int]]]:
        parts = self.partitions(hand)
        k = min(self.deadwood_of(hand, p) for p in parts)
        return {frozenset(p) for p in parts if self.deadwood_of(hand, p) == k}

    def fits(self, laid: frozenset[int], knocker: tuple[frozenset[int], ...]) -> bool:
        """Whether the cards can be laid off one by one, each onto a meld it makes a meld with."""

        @cache
        def search(left: frozenset[int], melds: tuple[frozenset[int], ...]) -> bool:
            if not left:
                return True
            return any(m | {c} in self.melds and search(left - {c}, melds[:i] + (m | {c},) + melds[i + 1:])
                       for c in left for i, m in enumerate(melds))

        return search(laid, knocker)

    def defence(self, hand: frozenset[int], knocker: tuple[frozenset[int], ...]) -> tuple[int, int]:
        """The defender's least deadwood after laying off, and the fewest layoffs that leave it."""
        best = (self.least(hand), 0)
        for size in range(1, len(hand) + 1):
            for laid in combinations(sorted(hand), size):
                if self.fits(frozenset(laid), knocker):
                    best = min(best, (self.least(hand - frozenset(laid)), size))
        return best

    def knock_points(self, knocker: frozenset[int], defender: frozenset[int], gin_bonus: int,
                     undercut_bonus: int) -> int:
        """The knocker's points (negative: the defender's) of a knock of ten cards."""
        parts = self.partitions(knocker)
        k = min(self.deadwood_of(knocker, p) for p in parts)
        if k == 0 and not self.layoff_on_gin:
            return self.least(defender) + gin_bonus
        # the knocker spreads the least arrangement that leaves the defender the most
        d = max(self.defence(defender, p)[0] for p in parts if self.deadwood_of(knocker, p) == k)
        if k == 0:
            return 0 if d == 0 else d + gin_bonus
        return d - k if d > k else -(k - d + undercut_bonus)


def as_set(mask: int) -> frozenset[int]:
    return frozenset(c for c in range(52) if mask >> c & 1)


@st.composite
def meld_rules(draw: st.DrawFn, hand_size: int = 10) -> tuple[set[int], tuple[int, ...], int]:
    """Random meld rules (masks of two to five cards, drawn from a few cards so
    that they overlap) with random card values, and a hand of those cards."""
    pool = draw(st.lists(st.integers(0, 51), min_size=hand_size + 2, max_size=hand_size + 6, unique=True))
    melds = draw(st.sets(st.lists(st.sampled_from(pool), min_size=2, max_size=5, unique=True).map(mask_of),
                         max_size=30))
    values = tuple(draw(st.lists(st.integers(0, 12), min_size=52, max_size=52)))
    size = draw(st.integers(0, hand_size))
    hand = mask_of(draw(st.permutations(pool))[:size])
    return melds, values, hand


def searches(melds: set[int], values: tuple[int, ...]) -> list:
    """The searches held to the brute force: the Python's, and the compiled where it is built."""
    found = [HandSearch(sorted(melds), values)]
    if Search is not None:
        found.append(Search(sorted(melds), values, HandSearch(sorted(melds), values).solve))
    return found


@settings(max_examples=400, deadline=None)
@given(meld_rules(11))
def test_the_search_is_the_brute_force_least_deadwood(rules):
    melds, values, hand = rules
    book = Book({as_set(m) for m in melds}, values)
    want = book.least(as_set(hand))
    for search in searches(melds, values):
        assert search.deadwood(hand) == want
        assert search.deadwood(hand) == want  # cached, the same
        for card in range(52):
            if not hand >> card & 1:
                makes = any(m <= as_set(hand) | {card} and card in m for m in book.melds)
                assert search.forms_meld(hand, card) == makes
    python = HandSearch(sorted(melds), values)
    assert python.solve(hand) == want
    for card in as_set(hand):  # within the hand last searched from: its melds and memo, shared
        assert python.solve(hand & ~(1 << card)) == book.least(as_set(hand) - {card})
    wider = hand | 1 << min(set(range(52)) - as_set(hand))  # not within it: searched from anew
    assert python.solve(wider) == book.least(as_set(wider)) and python.solve(hand) == want


@settings(max_examples=200, deadline=None)
@given(meld_rules(10))
def test_the_least_arrangements_are_every_brute_force_least_one(rules):
    melds, values, hand = rules
    book = Book({as_set(m) for m in melds}, values)
    solver = MeldSolver("any", tuple(sorted(melds)), values, False, "any melds")
    found = solver.min_arrangements(hand)
    assert {frozenset(as_set(m) for m in a.melds) for a in found} == book.least_arrangements(as_set(hand))
    for a in found:
        assert a.deadwood == solver.deadwood(hand) == solver.mask_value(a.deadwood_mask)
        assert a.deadwood_mask | a.melded_mask == hand and not a.deadwood_mask & a.melded_mask


@settings(max_examples=150, deadline=None)
@given(meld_rules(8), st.data())
def test_layoffs_leave_the_brute_force_least(rules, data):
    melds, values, knocker = rules
    book = Book({as_set(m) for m in melds}, values)
    solver = MeldSolver("any", tuple(sorted(melds)), values, False, "any melds")
    others = [c for c in range(52) if not knocker >> c & 1]
    near = sorted({c for m in melds for c in as_set(m)} - as_set(knocker))
    defender = mask_of(data.draw(st.permutations(near + others[:4]))[:7])
    for arr in solver.min_arrangements(knocker)[:2]:
        dw, laid, rest = solver.best_defence(defender, arr.melds)
        spread = tuple(as_set(m) for m in arr.melds)
        assert (dw, len(laid)) == book.defence(as_set(defender), spread)
        assert book.fits(frozenset(laid), spread) and rest.deadwood == dw
        grown = list(arr.melds)  # laid in the order given, each onto a meld it makes a meld with
        for c in laid:
            i = next(i for i, m in enumerate(grown) if solver.is_meld(m | 1 << c))
            grown[i] |= 1 << c


RULES = {o.name: o.default for o in PLAY_OPTIONS}


@settings(max_examples=150, deadline=None)
@given(meld_rules(10), st.booleans(), st.data())
def test_knocks_and_gins_score_as_the_brute_force(rules, on_gin, data):
    melds, values, knocker = rules
    book = Book({as_set(m) for m in melds}, values, on_gin)
    solver = MeldSolver("any", tuple(sorted(melds)), values, on_gin, "any melds")
    others = [c for c in range(52) if not knocker >> c & 1]
    defender = mask_of(data.draw(st.permutations(others))[:7])
    k_dw = solver.deadwood(knocker)
    got = knock_points(knocker, defender, k_dw, Rules(RULES, (), solver))
    assert got == book.knock_points(as_set(knocker), as_set(defender), RULES["gin_bonus"], RULES["undercut_bonus"])


@pytest.mark.skipif(Search is None, reason="the compiled search is not built here")
def test_a_hand_too_big_for_the_compiled_search_goes_to_the_python():
    asked = []

    def fallback(hand: int) -> int:
        asked.append(hand)
        return 12345

    cards = list(range(0, 52, 3))  # 18 cards
    melds = [mask_of(c) for c in combinations(cards[:16], 2)]
    search = Search(melds, [1] * 52, fallback)
    assert search.deadwood(mask_of(cards[:16])) == 0 and not asked
    assert search.deadwood(mask_of(cards)) == 12345 and asked == [mask_of(cards)]  # more than 16 cards
    crowded = [mask_of(c) for size in (2, 3, 4, 5) for c in combinations(cards[:16], size)]  # 6,868 melds
    assert Search(crowded, [1] * 52, fallback).deadwood(mask_of(cards[:16])) == 12345
    python = HandSearch(melds, [1] * 52)
    assert python.deadwood(mask_of(cards)) == 2 and python.deadwood(mask_of(cards[:17])) == 1  # two cards in no meld


@pytest.mark.skipif(Search is None, reason="the compiled search is not built here")
def test_the_compiled_search_refuses_what_is_no_hand():
    search = Search([0b111], [1] * 52, lambda hand: 0)
    for bad, error in ((1 << 52, ValueError), (-1, OverflowError), ("7s", TypeError)):
        with pytest.raises(error):
            search.deadwood(bad)
    with pytest.raises(ValueError):
        search.forms_meld(0b11, 52)
    with pytest.raises(ValueError):
        Search([0b1], [1] * 52, lambda hand: 0)  # a meld of one card
    with pytest.raises(ValueError):
        Search([0b11], [1] * 51, lambda hand: 0)


def test_the_python_search_keeps_two_generations_of_hands_at_most():
    search = HandSearch(meldrules.standard_melds(), [1] * 52)
    search.CACHE = 100
    for hand in range(1, 1000):
        search.deadwood(hand << 20)
    assert len(search._new) <= 100 and len(search._old) <= 100
    assert search.deadwood(999 << 20) == search.solve(999 << 20)


def test_the_same_meld_data_is_one_solver_whatever_else_the_rules_say():
    """Rules that differ elsewhere (a knock limit), and a solver sent to a worker,
    share one solver and its cache of hands; other data is another solver."""
    import pickle

    from gincli_builtin.corner import CornerMelds

    rules = {"corner_runs": True, "ace_value": 1, "layoff_on_gin": False, "knock_limit": 10}
    solver = CornerMelds().solver(rules)
    assert CornerMelds().solver({**rules, "knock_limit": 5}) is solver
    assert pickle.loads(pickle.dumps(solver)) is solver
    assert CornerMelds().solver({**rules, "ace_value": 15}) is not solver
