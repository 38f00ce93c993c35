"""RULES.md, "Going out", "Layoffs" and "Scoring a hand"; FORMATS.md's choice rule."""

from __future__ import annotations

import pytest
import reference as ref
from helpers import cards, mask, record
from hypothesis import assume, given, settings, strategies as st

from gincli.base.errors import RecordError
from gincli.formats.records import HandScorer, parse_position
from gincli.rulebook.cards import card_str, mask_of
from gincli.rulebook.layoffs import best_defence, order_layoffs
from gincli.rulebook.melds import deadwood


@pytest.fixture(scope="module")
def scorer(registry):
    return lambda **kw: HandScorer(registry, kw.pop("variant", None), "game", kw)


def score(scorer, rec, **options):
    return scorer(**options).score(rec).to_dict()


# -- knock, undercut, gin, big gin, dead -----------------------------------------------

# The seed's example (RULES.md "Scoring a hand"): the knocker melds 7-7-7 and J-Q-K of
# spades with 8 deadwood; the defender melds K-K-K, lays off the ten of spades, and is
# left with 32 (10+8+6+5+2+1): the knocker scores 24.
KNOCKER = "7s 7h 7d 7c Js Qs Ks As 2c 5d"
DEFENDER = "Kd Kh Kc Ts Qh 8d 6c 5h 2h Ac"


def test_knock_scores_the_difference_seed_example(scorer):
    r = score(scorer, record(KNOCKER, DEFENDER))
    assert (r["outcome"], r["winner"], r["points"]) == ("knock", "ann", 24)
    assert r["knocker"]["deadwood"] == 8 and r["defender"]["deadwood"] == 32
    assert r["defender"]["layoffs"] == ["Ts"]
    assert r["defender"]["melds"] == [["Kh", "Kd", "Kc"]]


def test_undercut_scores_difference_plus_25_seed_example(scorer):
    # The seed's variation: the defender ends with 6 against the knocker's 8: 2 + 25 = 27.
    r = score(scorer, record(KNOCKER, "Kd Kh Kc Ts 9d 9h 9c 4h 2h Ac"))
    assert r["defender"]["deadwood"] == 7  # 4h 2h Ac: 7; make it 6 below
    r = score(scorer, record(KNOCKER, "Kd Kh Kc Ts 9d 9h 9c 3h 2h Ac"))
    assert (r["outcome"], r["winner"], r["points"]) == ("undercut", "bob", 2 + 25)


def test_a_tie_is_an_undercut(scorer):
    r = score(scorer, record(KNOCKER, "Kd Kh Kc Ts 9d 9h 9c 4h 3h Ac"))
    assert r["defender"]["deadwood"] == r["knocker"]["deadwood"] == 8
    assert (r["outcome"], r["winner"], r["points"]) == ("undercut", "bob", 25)


def test_gin_scores_defender_deadwood_plus_25_and_no_layoffs(scorer):
    r = score(scorer, record("7s 7h 7d 7c Js Qs Ks 2c 3c 4c", "Ts 9s 5c Qh 8d 6h 5h 2h Ac Kd"))
    assert r["outcome"] == "gin" and r["winner"] == "ann"
    # Ts 9s would extend J-Q-K and 5c the clubs run, but nobody lays off onto gin.
    assert r["defender"]["layoffs"] == []
    assert r["points"] == r["defender"]["deadwood"] + 25 == 10 + 9 + 5 + 10 + 8 + 6 + 5 + 2 + 1 + 10 + 25


def test_layoffs_onto_gin_are_an_error(scorer):
    with pytest.raises(RecordError, match="onto gin"):
        score(scorer, record("7s 7h 7d 7c Js Qs Ks 2c 3c 4c", "Ts 9s 5c Qh 8d 6h 5h 2h Ac Kd", layoffs=["Ts"]))


def test_big_gin_needs_its_option_and_scores_31(scorer):
    eleven = "7s 7h 7d 7c Js Qs Ks 2c 3c 4c 5c"
    rec = record(eleven, "Ts 9s 6c Qh 8d 6h 5h 2h Ac Kd")
    with pytest.raises(RecordError, match="big gin is off"):
        score(scorer, rec)
    r = score(scorer, rec, big_gin_bonus=31)
    assert (r["outcome"], r["winner"]) == ("big_gin", "ann")
    assert r["points"] == r["defender"]["deadwood"] + 31


def test_eleven_cards_that_do_not_all_meld_are_not_big_gin(scorer):
    with pytest.raises(RecordError, match="11 cards"):
        score(scorer, record("7s 7h 7d 7c Js Qs Ks 2c 3c 4c 9h", "Ts 9s 6c Qh 8d 6h 5h 2h Ac Kd"),
              big_gin_bonus=31)


def test_dead_hand_nobody_scores(scorer):
    r = score(scorer, record(KNOCKER, DEFENDER, knocker=None))
    assert (r["outcome"], r["winner"], r["points"]) == ("dead", None, 0)


def test_knock_limit_default_10_is_an_option(scorer):
    rec = record("7s 7h 7d 7c Js Qs Ks As 2c 8d", "Kd Kh Kc Ts Qh 9d 6c 5h 2h Ac")  # 11 deadwood
    with pytest.raises(RecordError, match="11 deadwood, over the knock limit of 10"):
        score(scorer, rec)
    assert score(scorer, rec, knock_limit=11)["outcome"] == "knock"


def test_bonuses_are_options(scorer):
    gin = record("7s 7h 7d 7c Js Qs Ks 2c 3c 4c", "Ts 9s 5c Qh 8d 6h 5h 2h Ac Kd")
    assert score(scorer, gin, gin_bonus=20)["points"] == score(scorer, gin)["points"] - 5
    under = record(KNOCKER, "Kd Kh Kc Ts 9d 9h 9c 3h 2h Ac")
    assert score(scorer, under, undercut_bonus=10)["points"] == 2 + 10


# -- layoffs ----------------------------------------------------------------------------

def test_layoff_fourth_card_of_a_set(scorer):
    r = score(scorer, record("7s 7h 7d Js Qs Ks As 2c 3d 4d", "7c Kd Kh 9d 8h 6c 5h 2h Ac 3c"))
    assert "7c" in r["defender"]["layoffs"]


def test_runs_grow_card_by_card_9_then_10_onto_6_7_8():
    knocker_melds = [mask("6s 7s 8s")]
    dw, laid, _ = best_defence(mask("9s Ts Kd Kh 2c 3d 4h Qh Jd 5c"), knocker_melds)
    assert [card_str(c) for c in laid] == ["9s", "Ts"]
    assert order_layoffs(cards("Ts 9s"), knocker_melds) == cards("9s Ts")
    with pytest.raises(RecordError, match="does not fit"):
        order_layoffs(cards("Ts"), knocker_melds)


def test_runs_grow_at_either_end():
    knocker_melds = [mask("6s 7s 8s")]
    order = order_layoffs(cards("4s 9s 5s"), knocker_melds)
    run = set(cards("6s 7s 8s"))
    for c in order:  # each card, in the order given, extends the run as it has grown
        assert c - 1 in run or c + 1 in run
        run.add(c)
    assert sorted(order) == cards("4s 5s 9s")


def test_declared_layoffs_that_do_not_fit_are_an_error(scorer):
    with pytest.raises(RecordError, match="does not fit"):
        score(scorer, record(KNOCKER, DEFENDER, layoffs=["Qh"]))


def test_declared_layoffs_are_used_not_replaced(scorer):
    r = score(scorer, record(KNOCKER, DEFENDER, layoffs=[]))
    assert r["defender"]["layoffs"] == [] and r["defender"]["deadwood"] == 42


def test_knocker_never_lays_off(scorer):
    # bob's K-K-K could take ann's Kc... but the knocker lays nothing off.
    r = score(scorer, record("7s 7h 7d Js Qs Ks As 2c 3d Kc", "Kd Kh 9d 9h 9c 6c 5h 2h Ac 3c"), knock_limit=20)
    assert "layoffs" not in r["knocker"]


# -- the choice rule (FORMATS.md) ----------------------------------------------------------

def test_knocker_arrangement_leaves_the_defender_least_to_lay_off(scorer):
    # 3s in the run 2s-3s-4s (3h 3d left: 6) or in the set 3s-3h-3d (2s 4s left: 6):
    # equal deadwood for ann. bob holds 5s and 3c: against the run he would lay off the
    # 5s, against the set the 3c. The worst for bob is the set, which leaves him the 5s.
    r = score(scorer, record("2s 3s 4s 3h 3d 7c 8c 9c Tc Jc", "5s 3c Kd Kh Qd Jh 9h 8d 6h Ah"))
    assert ["3s", "3h", "3d"] in r["knocker"]["melds"]
    assert r["defender"]["layoffs"] == ["3c"]
    assert (r["knocker"]["deadwood"], r["defender"]["deadwood"], r["points"]) == (6, 69, 63)


def test_declared_melds_are_checked(scorer):
    with pytest.raises(RecordError, match="is not a meld"):
        score(scorer, record(KNOCKER, DEFENDER, melds={"ann": [["7s", "7h", "Js"]]}))
    with pytest.raises(RecordError, match="does not hold"):
        score(scorer, record(KNOCKER, DEFENDER, melds={"ann": [["Kd", "Kh", "Kc"]]}))
    with pytest.raises(RecordError, match="two melds"):
        score(scorer, record(KNOCKER, DEFENDER, melds={"ann": [["7s", "7h", "7d"], ["7s", "7c", "7h"]]}))


def test_declared_melds_are_used_even_when_worse(scorer):
    # ann spreads only the sevens: J-Q-K stays deadwood (38), over the limit.
    with pytest.raises(RecordError, match="over the knock limit"):
        score(scorer, record(KNOCKER, DEFENDER, melds={"ann": [["7s", "7h", "7d", "7c"]]}))
    r = score(scorer, record(KNOCKER, DEFENDER, melds={"bob": []}))
    assert r["defender"]["melds"] == [] and r["defender"]["deadwood"] == 32 + 30


def twenty_cards():
    """A knocker's hand built from melds and low cards, and a defender's hand drawn
    mostly from the cards around those melds, so that layoffs are common."""
    @st.composite
    def build(draw):
        knocker: list[int] = []
        for _ in range(draw(st.integers(1, 3))):
            if draw(st.booleans()):  # a set
                r = draw(st.integers(0, 12))
                suits = draw(st.lists(st.integers(0, 3), min_size=3, max_size=4, unique=True))
                meld = [s * 13 + r for s in suits]
            else:  # a run
                s, lo = draw(st.integers(0, 3)), draw(st.integers(0, 10))
                n = draw(st.integers(3, min(5, 13 - lo)))
                meld = [s * 13 + r for r in range(lo, lo + n)]
            knocker += [c for c in meld if c not in knocker]
        low = [c for c in range(52) if c % 13 < 4 and c not in knocker]
        knocker += draw(st.permutations(low))[:max(0, 10 - len(knocker))]
        knocker = knocker[:10]
        near = sorted({c + d for c in knocker for d in (-2, -1, 1, 2, 13, 26, 39, -13, -26, -39)
                       if 0 <= c + d < 52 and (abs(d) > 2 or (c + d) // 13 == c // 13)} - set(knocker))
        k = draw(st.integers(0, min(10, len(near))))
        defender = draw(st.permutations(near))[:k]
        rest = [c for c in range(52) if c not in knocker and c not in defender]
        defender += draw(st.permutations(rest))[:10 - len(defender)]
        return knocker, defender
    return build()


@settings(max_examples=60, deadline=None)
@given(twenty_cards())
def test_choice_rule_matches_brute_force(deal):
    ann, bob = deal
    k_mask = mask_of(ann)
    assume(0 < deadwood(k_mask) <= 10)
    from gincli.plugin.registry import load_registry

    scorer = HandScorer(load_registry(entry_points=False), None)
    rec = {"hands": {"ann": [card_str(c) for c in ann], "bob": [card_str(c) for c in bob]}, "knocker": "ann"}
    r = scorer.score(rec).to_dict()
    k, d = ref.knocker_choice(frozenset(ref.card(card_str(c)) for c in ann),
                              frozenset(ref.card(card_str(c)) for c in bob))
    assert (r["knocker"]["deadwood"], r["defender"]["deadwood"]) == (k, d)
    assert r["points"] == (d - k if d > k else k - d + 25)


@settings(max_examples=100, deadline=None)
@given(twenty_cards(), st.data())
def test_defender_best_matches_brute_force(deal, data):
    ann, bob = deal
    from gincli.rulebook.melds import min_arrangements

    arrs = min_arrangements(mask_of(ann))
    arr = data.draw(st.sampled_from(arrs))
    dw, laid, rest = best_defence(mask_of(bob), arr.melds)
    kmelds = tuple(frozenset(ref.card(card_str(c)) for c in cards_of_mask(m)) for m in arr.melds)
    assert dw == ref.defender_best(frozenset(ref.card(card_str(c)) for c in bob), kmelds)
    assert ref.fits(frozenset(ref.card(card_str(c)) for c in laid), kmelds)


def cards_of_mask(m):
    from gincli.rulebook.cards import cards_of

    return cards_of(m)


# -- malformed positions -------------------------------------------------------------------

@pytest.mark.parametrize("rec,message", [
    ({"hands": {"ann": ["As"] * 10, "bob": []}}, "appears twice in ann's hand"),
    (record(KNOCKER, "7s Kh Kc Ts Qh 8d 6c 5h 2h Ac"), "7s is in both ann's and bob's hands"),
    (record(KNOCKER, "Kh Kc Ts Qh 8d 6c 5h 2h Ac"), "bob holds 9 cards"),
    (record(KNOCKER, DEFENDER, knocker="carl"), "knocker \"carl\" is not a player"),
    ({"hands": {"ann": KNOCKER.split()}}, "exactly two players"),
    ({"hands": {"a": [], "b": [], "c": []}}, "exactly two players"),
    ({"hands": "nope"}, "needs \"hands\""),
    (record(KNOCKER, DEFENDER, melds={"carl": []}), "not a player"),
    (record(KNOCKER, DEFENDER, layoffs=["Xx"]), "unknown card \"Xx\""),
    (record(KNOCKER, DEFENDER, layoffs=["9c"]), "not in bob's hand"),
    (record(KNOCKER, DEFENDER, upcard="Zz"), "upcard"),
])
def test_malformed_records_are_one_sentence_errors(registry, rec, message):
    with pytest.raises(RecordError, match=message.replace("(", r"\(")):
        HandScorer(registry, None).score(rec)


def test_position_reads_every_field():
    pos = parse_position(record(KNOCKER, DEFENDER, upcard="10♥", layoffs=["Ts"],
                                melds={"ann": [["7s", "7h", "7d", "7c"]]}))
    assert pos.players == ("ann", "bob") and pos.knocker == "ann"
    assert card_str(pos.upcard) == "Th" and [card_str(c) for c in pos.layoffs] == ["Ts"]
    assert pos.melds["ann"] == [mask("7s 7h 7d 7c")]
