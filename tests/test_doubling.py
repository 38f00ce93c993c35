"""RULES.md, "Doubling": the doubling move set (a built-in plugin through the
``gincli_register_moves`` hook), in the engine, in gin validate and gin score,
and its score against a brute-force reference."""

from __future__ import annotations

import json
import random

import pytest
import reference as ref
from helpers import json_lines
from hypothesis import given, settings, strategies as st

from gincli.formats.records import HandScorer
from gincli.hand.engine import Hand, IllegalMove, Move, shuffled_deck
from gincli.replay.validate import validate
from gincli.rulebook.cards import CARD_NAMES
from gincli.rulebook.rng import SplitMix64


@pytest.fixture(scope="module")
def rules_of(registry):
    def make(**options):
        return registry.rules(registry.variant("doubling"), registry.scoring("game"), options)
    return make


def hand(registry, rules, seed: int = 3) -> Hand:
    """A hand bob deals: ann, the non-dealer, acts first."""
    return Hand(("ann", "bob"), "bob", registry.variant("doubling"), rules, deck=shuffled_deck(SplitMix64(seed)))


def test_the_doubling_variant_is_standard_with_doubling_on_and_games_to_200(registry, rules_of):
    rules = rules_of()
    assert rules["doubling"] is True and rules["target"] == 200 and rules["decline_bonus"] == 10
    assert [ms.name for ms in rules.movesets] == ["doubling"]
    standard = registry.rules(registry.variant("standard"), registry.scoring("game"), {})
    assert standard["doubling"] is False and standard.movesets == ()


def test_any_variant_may_turn_doubling_on(registry):
    rules = registry.rules(registry.variant("oklahoma"), registry.scoring("hollywood"), {"doubling": True})
    assert [ms.name for ms in rules.movesets] == ["doubling"]


def test_an_offer_comes_at_the_start_of_a_turn_and_an_accepted_one_doubles_the_stake(registry, rules_of):
    h = hand(registry, rules_of())
    assert Move("ann", "double") in h.view("ann").legal()  # before taking or refusing the first upcard
    h.apply(Move("ann", "double"))
    assert h.to_act == "bob" and h.view("bob").legal() == [Move("bob", "accept"), Move("bob", "decline")]
    h.apply(Move("bob", "accept"))
    assert h.extensions["doubling"]["multiplier"] == 2 and h.to_act == "ann"  # the offerer goes on
    assert Move("ann", "double") not in h.view("ann").legal()  # only the accepter may offer the next
    h.apply(Move("ann", "pass"))
    assert Move("bob", "double") in h.view("bob").legal()
    h.apply(Move("bob", "double"))
    h.apply(Move("ann", "accept"))
    assert h.extensions["doubling"]["multiplier"] == 4


def test_no_offer_after_drawing(registry, rules_of):
    h = hand(registry, rules_of())
    h.apply(Move("ann", "draw", "discard"))
    assert all(m.action != "double" for m in h.view("ann").legal())
    with pytest.raises(IllegalMove) as err:
        h.apply(Move("ann", "double"))
    assert err.value.rule == "double-out-of-turn"


@pytest.mark.parametrize("moves,rule", [
    ([Move("bob", "double")], "double-out-of-turn"),  # not bob's turn
    ([Move("ann", "double"), Move("bob", "accept"), Move("ann", "pass"), Move("bob", "pass"),
      Move("ann", "double")], "double-not-yours"),  # ann offered last: only bob may offer the next
    ([Move("ann", "double"), Move("bob", "pass")], "answer-expected"),  # a move that is not an answer
    ([Move("ann", "double"), Move("ann", "pass")], "answer-expected"),
    ([Move("ann", "accept")], "no-offer-pending"),
    ([Move("ann", "double"), Move("ann", "accept")], "out-of-turn"),  # one does not answer one's own offer
])
def test_offers_and_answers_out_of_place_are_faults_with_rule_ids(registry, rules_of, moves, rule):
    h = hand(registry, rules_of())
    for m in moves[:-1]:
        h.apply(m)
    with pytest.raises(IllegalMove) as err:
        h.apply(moves[-1])
    assert err.value.rule == rule


def test_max_multiplier_caps_the_stake(registry, rules_of):
    h = hand(registry, rules_of(max_multiplier=2))
    h.apply(Move("ann", "double"))
    h.apply(Move("bob", "accept"))
    h.apply(Move("ann", "pass"))
    assert all(m.action != "double" for m in h.view("bob").legal())
    with pytest.raises(IllegalMove) as err:
        h.apply(Move("bob", "double"))
    assert err.value.rule == "double-over-cap"


def test_a_declined_double_ends_the_hand_for_the_offerer(registry, rules_of):
    from gincli.rulebook.melds import deadwood

    h = hand(registry, rules_of())
    h.apply(Move("ann", "double"))
    h.apply(Move("bob", "accept"))
    h.apply(Move("ann", "pass"))
    h.apply(Move("bob", "double"))
    dw_bob, dw_ann = deadwood(h.hands["bob"]), deadwood(h.hands["ann"])
    h.apply(Move("ann", "decline"))
    r = h.result
    assert h.over and r.outcome == "declined" and r.winner == "bob"
    assert r.points == (10 + max(0, dw_ann - dw_bob)) * 2  # the multiplier before the offer
    assert r.claim() == {"outcome": "declined", "winner": "bob", "points": r.points, "multiplier": 2,
                         "offerer": "bob"}


def test_a_hand_that_ends_otherwise_is_multiplied_and_says_so(registry, rules_of):
    rules = rules_of()
    for seed in range(40):
        h = hand(registry, rules, seed)
        h.apply(Move("ann", "double"))
        h.apply(Move("bob", "accept"))
        rng = random.Random(seed)
        while not h.finishable:
            moves = [m for m in h.legal_moves() if m.action not in ("double",)]
            knocks = [m for m in moves if m.action == "knock"]
            h.apply(knocks[0] if knocks else rng.choice(moves))
        r = h.finish()
        if r.outcome == "dead":
            continue
        plain = Hand(("ann", "bob"), "bob", registry.variant("standard"),
                     registry.rules(registry.variant("standard"), registry.scoring("game"), {}),
                     deck=shuffled_deck(SplitMix64(seed)))
        for m in h.moves:
            if m.action not in ("double", "accept"):
                plain.apply(Move(m.player, m.action, m.source, m.card, m.melds, m.cards))
        base = plain.finish()
        assert (r.outcome, r.winner, r.points) == (base.outcome, base.winner, base.points * 2)
        assert r.to_dict()["multiplier"] == 2
        return
    pytest.fail("no hand ended by a knock")


def test_gin_validate_replays_doubling_and_names_the_rule_of_a_fault(registry):
    from gincli.sessions.table import play_session

    v = registry.variant("doubling")
    system = registry.scoring("game")
    rules = registry.rules(v, system, {})
    bots = {n: registry.bot(b)(SplitMix64(5).derive(i), n) for i, (n, b) in enumerate((("ann", "expert"),
                                                                                        ("bob", "random")))}
    rec = play_session(("ann", "bob"), v, rules, system, lambda h: bots[h.to_act].choose(h.view(h.to_act)), 5,
                       options=dict(rules))
    doc = json.loads(json.dumps(rec.transcript))
    report = validate(doc, registry)
    assert report.valid and report.complete, report.errors
    assert any(m["action"] == "double" for h in doc["hands"] for m in h["moves"])
    # The same transcript with an offer moved past a draw: a fault at that move, with its rule id.
    for hi, h in enumerate(doc["hands"]):
        draws = [i for i, m in enumerate(h["moves"]) if m["action"] == "draw"]
        if draws:
            i = draws[0]
            h["moves"].insert(i + 1, {"player": h["moves"][i]["player"], "action": "double"})
            report = validate(doc, registry)
            assert not report.valid and report.errors[0].to_dict()["rule"] == "double-out-of-turn"
            assert (report.errors[0].hand, report.errors[0].move) == (hi, i + 1)
            break


# -- hand records (gin score) -----------------------------------------------------------------

KNOCKER, DEFENDER = "7s 7h 7d 7c Js Qs Ks As 2c 5d", "Kh Kd Kc Ts Ac 2h 5h 6c 8d Qh"


def rec(**extra):
    return {"hands": {"ann": KNOCKER.split(), "bob": DEFENDER.split()}, **extra}


def test_a_record_under_doubling_gives_its_multiplier_and_the_result_carries_it(registry):
    scorer = HandScorer(registry, "doubling")
    r = scorer.score(rec(knocker="ann", multiplier=4)).to_dict()
    assert (r["outcome"], r["points"], r["multiplier"]) == ("knock", 24 * 4, 4)
    assert scorer.score(rec(knocker="ann")).to_dict()["multiplier"] == 1


def test_a_declined_record_is_scored_as_the_rule_says(registry):
    r = HandScorer(registry, "doubling").score(rec(outcome="declined", offerer="ann", multiplier=2)).to_dict()
    # ann 8 deadwood, bob 42 (ten cards, no layoffs): (10 + 34) x 2
    assert r["outcome"] == "declined" and r["winner"] == "ann" and r["points"] == 88 and r["multiplier"] == 2


@pytest.mark.parametrize("extra,message", [
    ({"multiplier": 3}, "\"multiplier\" must be 1, 2, 4, 8"),
    ({"multiplier": True}, "\"multiplier\" must be 1, 2, 4, 8"),
    ({"outcome": "declined"}, "needs \"offerer\""),
    ({"outcome": "knock"}, "may only be \"declined\""),
    ({"offerer": "ann"}, "only for a declined hand"),
])
def test_a_wrong_doubling_field_is_an_error_for_that_record(registry, extra, message):
    from gincli.base.errors import RecordError

    with pytest.raises(RecordError, match=message):
        HandScorer(registry, "doubling").score(rec(knocker="ann" if "outcome" not in extra else None, **extra))


def test_doubling_fields_with_doubling_off_are_an_error_not_ignored(run, tmp_path):
    f = tmp_path / "r.jsonl"
    f.write_text(json.dumps(rec(knocker="ann", multiplier=2)) + "\n" + json.dumps(rec(knocker="ann")) + "\n")
    res = run("score", "--format", "json", str(f))
    out = json_lines(res.stdout)
    assert res.exit_code == 1 and "belongs to doubling, which is off" in out[0]["error"]
    assert out[1]["points"] == 24 and "multiplier" not in out[1]  # without doubling, the output is as ever


def test_the_max_multiplier_is_checked_in_records(registry):
    from gincli.base.errors import RecordError

    with pytest.raises(RecordError, match="past max_multiplier 4"):
        HandScorer(registry, "doubling", overrides={"max_multiplier": 4}).score(rec(knocker="ann", multiplier=8))


# -- against the brute-force reference ----------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.data(), st.sampled_from([1, 2, 4, 8]), st.integers(0, 30))
def test_a_declined_score_is_the_bonus_plus_the_deadwood_difference_times_the_stake(registry, data, m, bonus):
    offerer, decliner = data.draw(st.builds(lambda p: (p[:10], p[10:20]), st.permutations(range(52))))
    record = {"hands": {"ann": [CARD_NAMES[c] for c in offerer], "bob": [CARD_NAMES[c] for c in decliner]},
              "outcome": "declined", "offerer": "ann", "multiplier": m}
    r = HandScorer(registry, "doubling", overrides={"decline_bonus": bonus}).score(record)
    d_off = ref.min_deadwood(frozenset(ref.card(CARD_NAMES[c]) for c in offerer))
    d_dec = ref.min_deadwood(frozenset(ref.card(CARD_NAMES[c]) for c in decliner))
    assert r.points == (bonus + max(0, d_dec - d_off)) * m and r.winner == "ann"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(["ann", "bob", None]), st.integers(1, 40), st.sampled_from([1, 2, 4])),
                min_size=1, max_size=30))
def test_the_multiplier_reaches_game_totals_but_never_the_bonuses(registry, hands):
    """A game's totals under doubling: each hand's points times its multiplier, then
    the game, box and shutout bonuses, never multiplied (by hand, not by gincli)."""
    from gincli.rulebook.scoring import HandResult

    system = registry.scoring("game")
    rules = registry.rules(registry.variant("doubling"), system, {})
    session = system.new_session(("ann", "bob"), rules)
    points = {"ann": 0, "bob": 0}
    wins = {"ann": 0, "bob": 0}
    winner = None
    for who, pts, m in hands:
        r = HandResult("knock" if who else "dead", who, pts * m if who else 0, None, None, multiplier=m)
        session.add_hand(r)
        if who and winner is None:
            points[who] += pts * m
            wins[who] += 1
            if points[who] >= 200:
                winner = who
    total = dict(points)
    if winner:
        loser = "bob" if winner == "ann" else "ann"
        total[winner] += 100 + (100 if wins[loser] == 0 else 0)
        for p in total:
            total[p] += 25 * wins[p]
    assert session.result()["scores"] == total
