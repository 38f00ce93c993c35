"""The ``expert`` bot plays by the rule book and as designed: it goes gin when it
can, takes a discard only to make a meld, does not feed the meld the opponent
is building, knocks at once with a hand that cannot improve against an
opponent still throwing tens but waits for gin (or an undercut) otherwise, and
under doubling offers from a near-gin hand, declines a lost cause late and
accepts a fair hand. Every match it plays is legal and replays by seed."""

from __future__ import annotations

import json

import pytest
from helpers import assert_legal_and_replayable, cards, mask

from gincli.hand.moves import Move
from gincli.hand.view import PlayerView
from gincli.matches.runner import MatchSpec, play_match_session
from gincli.replay.validate import validate
from gincli.rulebook.cards import card_str
from gincli.rulebook.rng import SplitMix64


@pytest.fixture(scope="module")
def expert():
    from gincli_builtin.expert import ExpertBot

    return lambda seed=1: ExpertBot(SplitMix64(seed), "ann")


def make_view(registry, hand: str, *, phase: str = "discard", pile: str = "", stock: int = 20,
              opponent_took: str = "", opponent_discards: str = "", my_discards: str = "", variant: str = "standard",
              doubling: dict | None = None, taken: str | None = None) -> PlayerView:
    """ann's view: ``hand`` (10 or 11 cards), the discard pile bottom first."""
    rules = registry.rules(registry.variant(variant), registry.scoring("game"), {})
    pile_cards = cards(pile)
    ext = {}
    if doubling is not None:
        ext["doubling"] = {"multiplier": 1, "offer": None, "holder": None, "max_multiplier": None, **doubling}
    return PlayerView("ann", "bob", "bob", phase, mask(hand), pile_cards[0] if pile_cards else 0, tuple(pile_cards),
                      stock, (), (), tuple(cards(opponent_took)), tuple(cards(my_discards)),
                      tuple(cards(opponent_discards)), cards(taken)[0] if taken else -1, False, 10, False, rules,
                      {"ann": 0, "bob": 0}, 0, ext)


def said(move: Move) -> str:
    """A move in words: ``discard 9c``, ``knock Kc``, ``draw discard``, ``double``."""
    if move.card is not None and move.card >= 0:
        return f"{move.action} {card_str(move.card)}"
    return f"{move.action} {move.source}" if move.source else move.action


def decide(expert, view: PlayerView, seeds: int = 3) -> set[str]:
    """What expert does in ``view`` (the same whatever its seed, in these tests)."""
    out = {said(expert(seed).choose(view)) for seed in range(1, seeds + 1)}
    for seed in range(1, seeds + 1):
        assert expert(seed).choose(view) in view.legal()
    return out


# -- going out --------------------------------------------------------------------------------------


def test_goes_gin_when_a_discard_leaves_no_deadwood(registry, expert):
    view = make_view(registry, "As 2s 3s 4s 7h 7d 7c Jd Qd Kd 9c", pile="5h")
    assert decide(expert, view) == {"knock 9c"}


def test_knocks_at_once_with_a_hand_that_cannot_improve_while_the_opponent_throws_tens(registry, expert):
    # ten points of loose low cards (A, 2, 3, 4 of four suits): no draw helps much; the
    # opponent's first discard was a king, so their hand is still high
    view = make_view(registry, "7h 7d 7c Jd Qd Kd As 2h 3c 4s Kc", pile="Kh", opponent_discards="Kh", stock=29)
    assert decide(expert, view) == {"knock Kc"}


def test_waits_for_gin_with_one_loose_card_early(registry, expert):
    view = make_view(registry, "7h 7d 7c Jd Qd Kd 8s 9s Ts 9c Kc", pile="Kh", opponent_discards="Kh", stock=29)
    assert decide(expert, view) == {"discard Kc"}


def test_waits_with_a_low_count_late_rather_than_knock_into_an_undercut(registry, expert):
    # one point of deadwood; the opponent has been throwing low cards: they are close to
    # knocking, and a knock into our ace is an undercut
    pile = "Qh 9h 8c 5d 4c 3d 2h Jc Js 6d 7d"
    view = make_view(registry, "As 2s 3s 4h 5h 6h 9d Td Jd Ac Kc", pile=pile, opponent_discards=pile, stock=8)
    assert decide(expert, view) == {"discard Kc"}


# -- drawing --------------------------------------------------------------------------------------


def test_takes_a_discard_that_makes_a_meld(registry, expert):
    view = make_view(registry, "As 2s 5h 6h 9d 9c Jd Qc Kh 3c", phase="draw", pile="Kc 3s")
    assert decide(expert, view) == {"draw discard"}


def test_leaves_a_discard_that_makes_no_meld_even_a_low_one(registry, expert):
    view = make_view(registry, "As 2s 5h 6h 9d 9c Jd Qc Kh 3c", phase="draw", pile="Kc Ad")
    assert decide(expert, view) == {"draw stock"}


# -- not feeding the opponent ---------------------------------------------------------------------------


def test_never_feeds_the_run_the_opponent_is_building_when_another_discard_is_as_good(registry, expert):
    # bob took 7h and 8h: 9h completes their run. 9c is as loose as 9h for us (every card
    # that could meld with either is in the pile or with bob) but no use to bob.
    pile = "9s 9d Th Jh 7c 8c Tc Jc"
    hand = "As 2s 3s 4d 5d 6d Qs Qd Qc 9h 9c"
    view = make_view(registry, hand, pile=pile, opponent_took="7h 8h", stock=15)
    assert decide(expert, view) == {"discard 9c"}


# -- doubling ---------------------------------------------------------------------------------------


def test_declines_a_hopeless_double_late(registry, expert):
    pile = "Qc 9h 8d 7c 5s 3h Jd 2c Tc Kc 6c"
    view = make_view(registry, "Ks Qh Jc 9d 8s 6h 4c Td Kh 2s", phase="draw", pile=pile, opponent_discards=pile,
                     opponent_took="7s 5h 5d", stock=6, variant="doubling", doubling={"offer": "bob"})
    assert decide(expert, view) == {"decline"}


def test_accepts_a_double_with_a_fair_hand_early(registry, expert):
    view = make_view(registry, "As 2s 3s 7h 7d 7c Jd Qd Kd 9c", phase="draw", pile="Qc Kh",
                     opponent_discards="Qc Kh", stock=27, variant="doubling", doubling={"offer": "bob"})
    assert decide(expert, view) == {"accept"}


def test_offers_to_double_from_a_near_gin_hand(registry, expert):
    pile = "Qc Kh 9s 8d Th"
    view = make_view(registry, "As 2s 3s 7h 7d 7c Jd Qd Kd Ac", phase="draw", pile=pile, opponent_discards=pile,
                     stock=18, variant="doubling", doubling={})
    assert decide(expert, view) == {"double"}


def test_does_not_offer_from_a_poor_hand_nor_when_the_opponent_holds_the_cube(registry, expert):
    pile = "Qc 9h 8d 7c"
    poor = make_view(registry, "Ks Qh Jc 9d 8s 6h 4c Td Kh 2s", phase="draw", pile=pile, opponent_discards=pile,
                     stock=18, variant="doubling", doubling={})
    assert "double" not in decide(expert, poor)
    held = make_view(registry, "As 2s 3s 7h 7d 7c Jd Qd Kd Ac", phase="draw", pile=pile, opponent_discards=pile,
                     stock=18, variant="doubling", doubling={"holder": "bob", "multiplier": 2})
    assert "double" not in decide(expert, held)


def test_without_doubling_expert_never_offers(registry, expert):
    view = make_view(registry, "As 2s 3s 7h 7d 7c Jd Qd Kd Ac", phase="draw", pile="Qc Kh 9s 8d Th", stock=18)
    assert decide(expert, view) <= {"draw stock", "draw discard"}


# -- whole matches ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["standard", "oklahoma", "gin-only", "doubling"])
def test_every_match_is_legal_and_replays_by_seed(registry, variant):
    assert_legal_and_replayable(registry, ("expert", "simple"), variant, "game", 11)


def test_expert_against_itself_under_doubling_is_legal(registry):
    spec = MatchSpec(("expert", "expert"), ("ann", "bob"), "games", 2, 5, "doubling", "game", {}, False)
    for i in range(2):
        spec_rec = play_match_session(spec, i, registry, True)
        assert validate(json.loads(spec_rec.transcript or ""), registry).valid
