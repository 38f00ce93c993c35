"""RULES.md, "Melds and deadwood": the solver against a brute-force reference."""

from __future__ import annotations

import reference as ref
from helpers import cards, mask
from hypothesis import given, settings, strategies as st

from gincli.rulebook.cards import card_str, cards_of, mask_of
from gincli.rulebook.melds import arrangements, best_arrangement, deadwood, deadwoods, is_meld, min_arrangements


def dense_hands(min_size: int = 0, max_size: int = 11):
    """Hands drawn from a few ranks and suits, so that sets and runs are common."""
    @st.composite
    def build(draw):
        ranks = draw(st.lists(st.integers(0, 12), min_size=3, max_size=8, unique=True))
        suits = draw(st.lists(st.integers(0, 3), min_size=2, max_size=4, unique=True))
        lo = min(ranks)
        ranks = sorted(set(ranks) | set(range(lo, min(lo + 4, 13))))  # some consecutive ranks for runs
        pool = [s * 13 + r for s in suits for r in ranks]
        size = draw(st.integers(min_size, min(max_size, len(pool))))
        return draw(st.permutations(pool))[:size]
    return build()


any_hands = st.lists(st.integers(0, 51), min_size=0, max_size=11, unique=True)
hands = st.one_of(dense_hands(), any_hands)


def as_ref(hand: list[int]) -> frozenset:
    return frozenset(ref.card(card_str(c)) for c in hand)


@settings(max_examples=400, deadline=None)
@given(hands)
def test_minimum_deadwood_matches_brute_force(hand):
    assert deadwood(mask_of(hand)) == ref.min_deadwood(as_ref(hand))


@settings(max_examples=200, deadline=None)
@given(hands)
def test_every_best_arrangement_is_legal_and_minimal(hand):
    m = mask_of(hand)
    best = min_arrangements(m)
    assert best, "a hand always has an arrangement"
    expected = ref.min_deadwood(as_ref(hand))
    for arr in best:
        used = 0
        for meld in arr.melds:
            assert meld & m == meld, "melds use only cards held"
            assert not meld & used, "a card belongs to at most one meld"
            assert is_meld(cards_of(meld))
            used |= meld
        assert arr.deadwood_mask == m & ~used
        assert arr.deadwood == expected == sum(min(c % 13 + 1, 10) for c in cards_of(arr.deadwood_mask))


@settings(max_examples=100, deadline=None)
@given(st.lists(hands, min_size=1, max_size=20))
def test_batch_form_agrees_with_single(many):
    masks = [mask_of(h) for h in many]
    assert deadwoods(masks) == [deadwood(x) for x in masks]


def test_a_set_is_three_or_four_cards_of_one_rank():
    assert is_meld(cards("7s 7h 7d"))
    assert is_meld(cards("7s 7h 7d 7c"))
    assert not is_meld(cards("7s 7h"))
    assert deadwood(mask("7s 7h 7d 7c")) == 0


def test_a_run_is_three_or_more_of_one_suit_in_sequence():
    assert is_meld(cards("4c 5c 6c"))
    assert is_meld(cards("9d Td Jd Qd Kd"))
    assert not is_meld(cards("4c 5c 7c"))
    assert not is_meld(cards("4c 5h 6c"))


def test_ace_is_low_a23_is_a_run():
    assert is_meld(cards("As 2s 3s"))
    assert deadwood(mask("As 2s 3s")) == 0


def test_no_wrap_around_qka_is_not_a_run():
    assert not is_meld(cards("Qs Ks As"))
    assert deadwood(mask("Qs Ks As")) == 21


def test_a_card_belongs_to_at_most_one_meld():
    # 7s could complete the set or the run, not both: best leaves 8s 9s or 7h 7d.
    assert deadwood(mask("7s 7h 7d 8s 9s")) == 14  # run 7s8s9s, deadwood 7h 7d
    assert deadwood(mask("7s 7h 7d 7c 8s 9s")) == 0  # set 7h7d7c + run 7s8s9s


def test_deadwood_is_the_minimum_over_arrangements():
    # Seed example: 7-7-7 and J-Q-K of spades, deadwood A 2 5 = 8.
    assert deadwood(mask("7s 7h 7d Js Qs Ks As 2c 5d 7c")) == 8
    arr = best_arrangement(mask("7s 7h 7d Js Qs Ks As 2c 5d 7c"))
    assert sorted(card_str(c) for c in cards_of(arr.deadwood_mask)) == ["2c", "5d", "As"]


def test_eleven_card_hands_are_solved():
    assert deadwood(mask("As 2s 3s 4h 5h 6h 7h 9c 9d 9s 9h")) == 0


def test_arrangements_include_each_choice_of_sets():
    # Ts in the set or in the run: two arrangements of equal deadwood.
    best = min_arrangements(mask("Ts Js Qs Th Td"))
    assert len(best) == 2 and {a.deadwood for a in best} == {20}
    assert len(list(arrangements(mask("Ts Js Qs Th Td")))) == 2


@settings(max_examples=200, deadline=None)
@given(dense_hands(6, 11))
def test_min_arrangements_are_every_best_way_to_meld(hand):
    """The cards melded by the arrangements gincli tries are exactly those of every
    arrangement of minimum deadwood the brute force finds (the knocker's choice
    rule picks among them)."""
    ref_hand = as_ref(hand)
    parts = ref.partitions(ref_hand)
    best = min(ref.deadwood_of(ref_hand, p) for p in parts)
    expected = {frozenset().union(*p) if p else frozenset() for p in parts if ref.deadwood_of(ref_hand, p) == best}
    got = {frozenset(ref.card(card_str(c)) for c in cards_of(a.melded_mask)) for a in min_arrangements(mask_of(hand))}
    assert got == expected
