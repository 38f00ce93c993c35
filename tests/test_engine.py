"""The hand engine (RULES.md "Dealing", "Play", "Going out"), and the conformance
test: random legal play, invariants at every step, every transcript validated,
scores against a brute-force scorer, and one mutated move rejected at that move."""

from __future__ import annotations

import json
import random

import pytest
import reference as ref

from gincli.formats.transcripts import transcript
from gincli.hand.engine import (
    DISCARD,
    DRAW,
    Hand,
    IllegalMove,
    Move,
    cut_for_deal,
    deal_deck,
    next_dealer,
    shuffled_deck,
)
from gincli.replay.validate import validate
from gincli.rulebook.cards import FULL_DECK_MASK, card_str, cards_of
from gincli.rulebook.rng import SplitMix64
from gincli.rulebook.scoring import HandResult


@pytest.fixture(scope="module")
def standard(registry):
    v = registry.variant("standard")
    return v, registry.rules(v, registry.scoring("hand"), {})


def new_hand(standard, seed=1, dealer="ann"):
    v, rules = standard
    return Hand(("ann", "bob"), dealer, v, rules, deck=shuffled_deck(SplitMix64(seed)))


# -- dealing ------------------------------------------------------------------------------

def test_ten_cards_each_one_at_a_time_starting_with_the_non_dealer():
    deck = list(range(52))
    hands, upcard, stock = deal_deck(deck, "ann", ("ann", "bob"))
    assert cards_of(hands["bob"]) == list(range(0, 20, 2))  # the non-dealer gets the 1st, 3rd, ...
    assert cards_of(hands["ann"]) == list(range(1, 20, 2))
    assert upcard == 20 and stock == list(range(21, 52)) and len(stock) == 31


def test_cutting_for_the_deal_higher_card_deals_suits_break_ties(registry):
    v = registry.variant("standard")
    rules = registry.rules(v, registry.scoring("game"), {})
    low_rules = registry.rules(v, registry.scoring("game"), {"first_dealer": "low"})
    for seed in range(200):
        dealer, cut = cut_for_deal(SplitMix64(seed), ("ann", "bob"), rules)
        a, b = cut["ann"], cut["bob"]
        assert a != b
        higher = "ann" if (a % 13, -(a // 13)) > (b % 13, -(b // 13)) else "bob"
        assert dealer == higher
        assert cut_for_deal(SplitMix64(seed), ("ann", "bob"), low_rules)[0] != higher


def test_same_seed_same_deal_everywhere():
    # SplitMix64 is specified in gincli/rng.py; these values pin it down.
    assert SplitMix64(42).next64() == 0xBDD732262FEB6E95
    assert shuffled_deck(SplitMix64(42))[:5] == shuffled_deck(SplitMix64(42))[:5]
    assert [card_str(c) for c in shuffled_deck(SplitMix64(1))[:3]] == \
        [card_str(c) for c in shuffled_deck(SplitMix64(1))[:3]]


# -- the first upcard, turns, the wall -------------------------------------------------------

def test_first_upcard_non_dealer_then_dealer_then_non_dealer_draws_stock(standard):
    h = new_hand(standard)
    with pytest.raises(IllegalMove, match="out of turn") as e:
        h.apply(Move("ann", "pass"))
    assert e.value.rule == "out-of-turn"
    with pytest.raises(IllegalMove) as e:
        h.apply(Move("bob", "draw", "stock"))
    assert e.value.rule == "first-turn-order"
    h.apply(Move("bob", "pass"))
    h.apply(Move("ann", "pass"))
    with pytest.raises(IllegalMove) as e:
        h.apply(Move("bob", "draw", "discard"))
    assert e.value.rule == "first-turn-order"
    h.apply(Move("bob", "draw", "stock"))
    assert h.phase == DISCARD and h.hands["bob"].bit_count() == 11


def test_taking_the_upcard_then_discarding_passes_the_turn(standard):
    h = new_hand(standard)
    up = h.upcard
    h.apply(Move("bob", "draw", "discard"))
    with pytest.raises(IllegalMove) as e:
        h.apply(Move("bob", "discard", card=up))
    assert e.value.rule == "discard-drawn-upcard"
    other = next(c for c in cards_of(h.hands["bob"]) if c != up)
    h.apply(Move("bob", "discard", card=other))
    assert h.to_act == "ann" and h.phase == DRAW


def test_a_pass_after_the_first_turn_is_not_allowed(standard):
    h = new_hand(standard)
    h.apply(Move("bob", "pass"))
    h.apply(Move("ann", "draw", "discard"))
    h.apply(Move("ann", "discard", card=cards_of(h.hands["ann"])[0] if cards_of(h.hands["ann"])[0] != h.taken
                  else cards_of(h.hands["ann"])[1]))
    with pytest.raises(IllegalMove) as e:
        h.apply(Move("bob", "pass"))
    assert e.value.rule == "pass-not-allowed"


def test_draw_must_be_the_top_card(standard):
    h = new_hand(standard)
    h.apply(Move("bob", "pass"))
    h.apply(Move("ann", "pass"))
    wrong = next(c for c in h.stock[:-1])
    with pytest.raises(IllegalMove) as e:
        h.apply(Move("bob", "draw", "stock", card=wrong))
    assert e.value.rule == "draw-not-on-top"


def test_the_wall_last_two_cards_never_drawn_and_the_hand_is_dead(standard):
    h = new_hand(standard, seed=3)
    h.apply(Move("bob", "pass"))
    h.apply(Move("ann", "pass"))
    while h.phase != "over":
        p = h.to_act
        if h.phase == DRAW:
            assert h.stock_count > 2
            h.apply(Move(p, "draw", "stock"))
        else:
            # discard the card just drawn: nobody ever knocks by accident
            h.apply(Move(p, "discard", card=h.moves[-1].card))
    assert h.stock_count == 2 and h.result.outcome == "dead"
    drawn = sum(1 for m in h.moves if m.action == "draw")
    assert 20 + 1 + drawn == 50  # the 50th card's drawer discarded: dead


def test_knock_over_the_limit_is_rejected_at_the_knock(standard):
    h = new_hand(standard)
    h.apply(Move("bob", "draw", "discard"))
    held = h.hands["bob"]
    from gincli.rulebook.melds import deadwood

    card = next(c for c in cards_of(held) if c != h.taken and deadwood(held & ~(1 << c)) > 10)
    with pytest.raises(IllegalMove) as e:
        h.apply(Move("bob", "knock", card=card))
    assert e.value.rule == "knock-over-limit"


def test_next_dealer_winner_loser_alternate_and_same_after_dead(registry):
    v = registry.variant("standard")
    won = HandResult("knock", "bob", 10, None, None)
    dead = HandResult("dead", None, 0, None, None)
    for rule, expected in (("winner", "bob"), ("loser", "ann"), ("alternate", "bob")):
        rules = registry.rules(v, registry.scoring("game"), {"next_dealer": rule})
        assert next_dealer(rules, ("ann", "bob"), "ann", won) == expected
        assert next_dealer(rules, ("ann", "bob"), "ann", dead) == "ann"


# -- conformance: random legal play --------------------------------------------------------

def check_invariants(h: Hand) -> None:
    a, b = h.hands["ann"], h.hands["bob"]
    pile = 0
    for c in h.pile:
        pile |= 1 << c
    stock = 0
    for c in h.stock:
        stock |= 1 << c
    parts = [a, b, pile, stock]
    assert sum(p.bit_count() for p in parts) == 52, "52 cards at all times"
    assert a | b | pile | stock == FULL_DECK_MASK, "52 distinct cards"
    assert h.stock_count == len(h.stock) >= 2, "the stock never below two"
    if h.phase == DRAW:
        assert a.bit_count() == b.bit_count() == 10
    if h.phase == DISCARD:
        assert h.hands[h.to_act].bit_count() == 11 and h.hands[h.other(h.to_act)].bit_count() == 10


def play_random(h: Hand, rng: random.Random, knock_bias: float = 0.5, greed: float = 0.8) -> HandResult:
    """Random legal play, mostly greedy (discarding to the least deadwood) so that
    every outcome happens: knocks, gins, undercuts, dead hands."""
    from gincli.rulebook.melds import deadwood

    while not h.over:
        check_invariants(h)
        moves = h.legal_moves()
        knocks = [m for m in moves if m.action == "knock"]
        if knocks and rng.random() < knock_bias:
            move = rng.choice(knocks)
        elif h.phase == DISCARD and rng.random() < greed:
            held = h.hands[h.to_act]
            discards = [m for m in moves if m.action == "discard"]
            move = min(discards, key=lambda m: (deadwood(held & ~(1 << m.card)), rng.random()))
        else:
            move = rng.choice(moves)
        if move.action == "layoff":
            break
        h.apply(move)
    h.record_spread()
    return h.result


def test_conformance_random_legal_play(registry, standard):
    v, rules = standard
    rng = random.Random(2026)
    outcomes = {}
    brute_checked = 0
    for i in range(1500):
        h = Hand(("ann", "bob"), rng.choice(["ann", "bob"]), v, rules, deck=shuffled_deck(SplitMix64(i)))
        result = play_random(h, rng)
        outcomes[result.outcome] = outcomes.get(result.outcome, 0) + 1
        doc = json.loads(json.dumps(transcript(("ann", "bob"), "standard", "hand", [h.to_dict()])))
        report = validate(doc, registry)
        assert report.valid and report.complete, report.to_dict()["errors"]
        assert report.hands[0].to_dict() == result.to_dict()
        if result.knocker is not None and brute_checked < 120:
            brute_checked += 1
            knocker = frozenset(ref.card(card_str(c)) for c in cards_of(h.hands[result.knocker.name]))
            defender = frozenset(ref.card(card_str(c)) for c in cards_of(h.hands[result.defender.name]))
            outcome, role, points = ref.score_hand(knocker, defender)
            assert (result.outcome, result.points) == (outcome, points)
            assert result.winner == (result.knocker.name if role == "knocker" else result.defender.name)
        if i % 7 == 0:  # one mutated move is rejected at exactly that move
            moves = doc["hands"][0]["moves"]
            j = rng.randrange(len(moves))
            bad = json.loads(json.dumps(doc))
            bad_move = bad["hands"][0]["moves"][j]
            bad_move["player"] = "bob" if bad_move["player"] == "ann" else "ann"
            report = validate(bad, registry)
            assert not report.valid
            assert (report.errors[0].hand, report.errors[0].move) == (0, j)
    assert set(outcomes) >= {"knock", "gin", "undercut", "dead"}, outcomes
    assert brute_checked >= 50


def test_a_discard_of_a_card_not_held_is_rejected_at_that_move(registry, standard):
    v, rules = standard
    rng = random.Random(5)
    for i in range(50):
        h = Hand(("ann", "bob"), "ann", v, rules, deck=shuffled_deck(SplitMix64(100 + i)))
        play_random(h, rng)
        doc = json.loads(json.dumps(transcript(("ann", "bob"), "standard", "hand", [h.to_dict()])))
        moves = doc["hands"][0]["moves"]
        discards = [k for k, m in enumerate(moves) if m["action"] == "discard"]
        if not discards:
            continue
        j = rng.choice(discards)
        opponent = "bob" if moves[j]["player"] == "ann" else "ann"
        replay = Hand(("ann", "bob"), "ann", v, rules, deck=h.deck)
        for m in moves[:j]:
            replay.apply(Move.from_dict(m))
        moves[j]["card"] = card_str(cards_of(replay.hands[opponent])[0])  # the opponent holds it
        report = validate(doc, registry)
        assert not report.valid and report.errors[0].move == j
        assert report.errors[0].rule == "discard-not-held"


# -- whole sessions ---------------------------------------------------------------------------

def chooser(rng: random.Random):
    from gincli.rulebook.melds import deadwood

    def choose(h: Hand) -> Move:
        moves = h.legal_moves()
        knocks = [m for m in moves if m.action == "knock"]
        if knocks and rng.random() < 0.5:
            return rng.choice(knocks)
        if h.phase == DISCARD and rng.random() < 0.8:
            held = h.hands[h.to_act]
            return min((m for m in moves if m.action == "discard"),
                       key=lambda m: (deadwood(held & ~(1 << m.card)), rng.random()))
        return rng.choice(moves)
    return choose


@pytest.mark.parametrize("scoring", ["game", "hand", "hollywood", "match-500"])
def test_sessions_play_to_the_end_and_validate(registry, scoring):
    from gincli.sessions.table import play_session

    v = registry.variant("standard")
    system = registry.scoring(scoring)
    rules = registry.rules(v, system, {})
    rng = random.Random(scoring)
    for seed in range(4 if scoring == "match-500" else 12):
        rec = play_session(("ann", "bob"), v, rules, system, chooser(rng), seed)
        doc = json.loads(json.dumps(rec.transcript))
        report = validate(doc, registry)
        assert report.valid and report.complete, report.to_dict()["errors"]
        assert report.result == rec.result
        if scoring == "game":
            assert max(rec.result["points"].values()) >= 100
            dealers = [hd["dealer"] for hd in doc["hands"]]
            for prev, hand_doc, nxt in zip(rec.results, doc["hands"], dealers[1:], strict=False):
                assert nxt == (prev.winner or hand_doc["dealer"])  # winner deals; same dealer after dead


def test_claimed_results_and_dealers_are_checked(registry):
    from gincli.sessions.table import play_session

    v = registry.variant("standard")
    system = registry.scoring("game")
    rules = registry.rules(v, system, {})
    rec = play_session(("ann", "bob"), v, rules, system, chooser(random.Random(9)), 4)
    doc = json.loads(json.dumps(rec.transcript))
    bad = json.loads(json.dumps(doc))
    hi = next(i for i, hd in enumerate(bad["hands"]) if hd["result"]["outcome"] != "dead")
    bad["hands"][hi]["result"]["points"] += 1
    r = validate(bad, registry)
    assert (r.valid, r.errors[0].hand, r.errors[0].move, r.errors[0].rule) == (False, hi, None, "claimed-hand-result")
    bad = json.loads(json.dumps(doc))
    bad["result"]["scores"]["ann"] += 1
    r = validate(bad, registry)
    assert r.errors[0].rule == "claimed-session-result" and r.complete
    if len(doc["hands"]) > 1:
        bad = json.loads(json.dumps(doc))
        bad["hands"][1]["dealer"] = "bob" if bad["hands"][1]["dealer"] == "ann" else "ann"
        r = validate(bad, registry)
        assert (r.errors[0].hand, r.errors[0].rule) == (1, "wrong-dealer")
    bad = json.loads(json.dumps(doc))
    bad["hands"].append(bad["hands"][-1])
    r = validate(bad, registry)
    assert r.errors[0].rule == "hand-after-session-end"


def test_a_deal_without_deck_names_every_stock_card(registry, standard):
    v, rules = standard
    h = new_hand(standard, seed=11)
    rng = random.Random(3)
    play_random(h, rng)
    doc = json.loads(json.dumps(transcript(("ann", "bob"), "standard", "hand", [h.to_dict(deck=False)])))
    assert "deck" not in doc["hands"][0]
    assert validate(doc, registry).valid
    for m in doc["hands"][0]["moves"]:
        if m["action"] == "draw" and m["from"] == "stock":
            del m["card"]
            break
    r = validate(doc, registry)
    assert r.errors[0].rule == "draw-card-missing"


@pytest.mark.parametrize("mutate,rule", [
    (lambda d: d.update(format="nope"), "transcript-format"),
    (lambda d: d.update(players=["ann"]), "transcript-format"),
    (lambda d: d.update(variant="nope"), "transcript-options"),
    (lambda d: d.update(options={"knock_limit": "x"}), "transcript-options"),
    (lambda d: d["hands"][0].update(dealer="carl"), "unknown-player"),
    (lambda d: d["hands"][0].update(deck=d["hands"][0]["deck"][:51]), "deck-cards"),
    (lambda d: d["hands"][0]["deal"].update(ann=d["hands"][0]["deal"]["ann"][:9]), "deal-cards"),
    (lambda d: d["hands"][0]["deal"].update(upcard="Zz"), "unknown-card"),
    (lambda d: (d["hands"][0].pop("deck"), d["hands"][0].pop("deal")), "missing-deal"),
    (lambda d: d["hands"][0]["deal"].update(ann=d["hands"][0]["deal"]["bob"], bob=d["hands"][0]["deal"]["ann"]),
     "deal-deck-mismatch"),
    (lambda d: d["hands"][0]["moves"].append({"player": "ann", "action": "dance"}), "malformed-move"),
])
def test_bad_deals_and_headers_are_faults(registry, mutate, rule):
    v = registry.variant("standard")
    rules = registry.rules(v, registry.scoring("game"), {})
    h = Hand(("ann", "bob"), "ann", v, rules, deck=shuffled_deck(SplitMix64(5)))
    doc = json.loads(json.dumps(transcript(("ann", "bob"), "standard", "game", [h.to_dict()])))
    mutate(doc)
    r = validate(doc, registry)
    assert not r.valid and r.errors[0].rule == rule, r.errors


@pytest.mark.parametrize("variant,scoring,options", [
    ("oklahoma", "hollywood", {}),
    ("oklahoma", "hand", {"spade_doubles": True}),
    ("gin-only", "game", {"target": 50}),
    ("standard", "match-500", {"big_gin_bonus": 31}),
    ("standard", "game", {"next_dealer": "alternate", "shutout": "double"}),
])
def test_every_variant_under_every_scoring_plays_validly(registry, variant, scoring, options):
    from gincli.rulebook.cards import CARD_VALUES
    from gincli.sessions.table import play_session

    v = registry.variant(variant)
    system = registry.scoring(scoring)
    rules = registry.rules(v, system, options)
    rng = random.Random(variant + scoring)
    seen = set()
    for seed in range(3 if scoring in ("match-500", "hollywood") else 15):
        rec = play_session(("ann", "bob"), v, rules, system, chooser(rng), seed, options=options)
        doc = json.loads(json.dumps(rec.transcript))
        report = validate(doc, registry)
        assert report.valid and report.complete, report.to_dict()["errors"]
        for hand_doc, result in zip(doc["hands"], rec.results, strict=True):
            seen.add(result.outcome)
            upcard = parse(hand_doc["deal"]["upcard"])
            if result.knocker is None:
                continue
            if variant == "gin-only":
                assert result.outcome in ("gin", "big_gin")
            if variant == "oklahoma" and result.outcome in ("knock", "undercut"):
                limit = 0 if upcard % 13 == 0 else CARD_VALUES[upcard]
                assert result.knocker.deadwood <= limit
            if options.get("spade_doubles") and upcard // 13 == 0:
                assert result.points % 2 == 0
    assert seen - {"dead"}, "some hands end by a knock or gin"


def parse(token: str) -> int:
    from gincli.rulebook.cards import parse_card

    return parse_card(token)


def test_a_hand_that_never_ends_is_stopped_dead_and_validates(registry):
    """Two players who take each other's discards for ever: gincli stops the hand at
    MAX_HAND_MOVES moves, dead, and says so in the transcript."""
    from gincli.hand.engine import MAX_HAND_MOVES
    from gincli.sessions.table import play_session

    v = registry.variant("standard")
    system = registry.scoring("hand")
    rules = registry.rules(v, system, {})

    def stubborn(h):  # takes every discard, throws the lowest card it may
        moves = h.legal_moves()
        takes = [m for m in moves if m.action == "draw" and m.source == "discard"]
        return takes[0] if takes else next((m for m in moves if m.action in ("discard", "pass")), moves[0])

    rec = play_session(("ann", "bob"), v, rules, system, stubborn, 1)
    hand = rec.transcript["hands"][0]
    assert hand["stalled"] is True and len(hand["moves"]) == MAX_HAND_MOVES
    assert rec.results[0].outcome == "dead"
    report = validate(json.loads(json.dumps(rec.transcript)), registry)
    assert report.valid and report.complete, report.errors
    hand["moves"] = hand["moves"][:100]
    report = validate(json.loads(json.dumps(rec.transcript)), registry)
    assert not report.valid and report.errors[0].rule == "stalled-early"
