"""Irregularities at the table, and their remedies (RULES.md; FORMATS.md
"Irregularities"): each remedy the rules allow, replayed by gin validate, each
refusal at its exact move with its own rule id, and the end-of-hand rule for a
wrong number of cards held to a brute-force reference."""

from __future__ import annotations

import random

import pytest
import reference as ref

import gincli

ANN = ["2s", "7s", "5h", "Kh", "3d", "6d", "7d", "8d", "Td", "5c"]
BOB = ["As", "9s", "3h", "6h", "7h", "Ad", "Ac", "3c", "7c", "9c"]


def move(player, action, **fields):
    return {"player": player, "action": action, **fields}


def stock(player, card):
    return move(player, "draw", **{"from": "stock", "card": card})


def pile(player):
    return move(player, "draw", **{"from": "discard"})


def exposed(player, card):
    return move(player, "draw", **{"from": "exposed", "card": card})


def hand(moves, ann=ANN, bob=BOB, upcard="9d", dealer="bob", **more):
    return {"dealer": dealer, "deal": {"ann": ann, "bob": bob, "upcard": upcard}, "moves": moves, **more}


def transcript(*hands, scoring="hand"):
    return {"format": "gincli-transcript/1", "variant": "standard", "scoring": scoring, "players": ["ann", "bob"],
            "hands": list(hands)}


def fault(report):
    return [(e["hand"], e["move"], e["rule"]) for e in report["errors"]]


ELEVEN, NINE = ANN + ["Qs"], ANN[:9]
# ann's nine cards found after her first draw (she took the upcard and discarded)
FOUND_SHORT = [pile("ann"), move("ann", "discard", card="Kh"), stock("bob", "Qs"), move("bob", "discard", card="Qs"),
               move("ann", "irregular-hand", cards=9)]
FOUND_LONG = [pile("ann"), move("ann", "discard", card="Kh"), stock("bob", "Js"), move("bob", "discard", card="Js"),
              move("ann", "irregular-hand", cards=11)]
SEEN = [move("ann", "pass"), move("bob", "pass"), stock("ann", "6s"), move("ann", "seen", cards=["Kd"], in_turn=True)]
KNOCK = [pile("ann"), move("ann", "knock", card="Kh")]  # 22 deadwood: illegal by its count alone
BAD_SPREAD = [pile("ann"), move("ann", "knock", card="Kh", melds=[["6d", "7d", "8d", "9d", "Td"], ["2s", "7s", "5h"]])]
SPREAD = move("bob", "layoff", melds=[["As", "Ad", "Ac"]])

ALLOWED = {
    "redeal before the first draw": hand([move("ann", "irregular-hand", cards=11),
                                          move("bob", "remedy", choice="redeal")], ann=ELEVEN),
    "a forced redeal recorded by the offender": hand([move("ann", "irregular-hand", cards=11),
                                                      move("ann", "remedy", choice="redeal")], ann=ELEVEN),
    "both hands wrong": hand(FOUND_SHORT[:4] + [move("ann", "irregular-hand", cards=9),
                                                move("bob", "irregular-hand", cards=11),
                                                move("ann", "remedy", choice="redeal")],
                             ann=NINE, bob=BOB + ["Qh"]),
    "redeal chosen after the first draw": hand(FOUND_SHORT + [move("bob", "remedy", choice="redeal")], ann=NINE),
    "too few: continue, a turn that only draws": hand(FOUND_SHORT + [move("bob", "remedy", choice="continue"),
                                                                     stock("ann", "Js"), stock("bob", "Jh"),
                                                                     move("bob", "discard", card="Jh"),
                                                                     stock("ann", "Jc"), move("ann", "discard",
                                                                                              card="Jc")], ann=NINE),
    "too many: continue, a turn that only discards": hand(FOUND_LONG + [move("bob", "remedy", choice="continue"),
                                                                        move("ann", "discard", card="Qs"),
                                                                        stock("bob", "Jh"),
                                                                        move("bob", "discard", card="Jh"),
                                                                        stock("ann", "Jc")], ann=ELEVEN),
    "found short in the offender's turn: that draw corrects": hand([pile("ann"),
                                                                    move("ann", "irregular-hand", cards=10),
                                                                    move("bob", "remedy", choice="continue"),
                                                                    stock("bob", "Js")], ann=NINE),
    "the other player takes the exposed card": hand(SEEN + [move("ann", "discard", card="Kh"), exposed("bob", "Kd"),
                                                            move("bob", "discard", card="Kd")]),
    "the offender's turn to take it": hand(SEEN + [move("ann", "discard", card="Kh"), stock("bob", "Qh"),
                                                   move("bob", "discard", card="Qh"), exposed("ann", "Kd")]),
    "exposed cards go under the top card": hand(SEEN + [move("ann", "discard", card="Kh"), stock("bob", "Qh"),
                                                        move("bob", "discard", card="Qh"), stock("ann", "5d"),
                                                        move("ann", "discard", card="5d"),
                                                        move("bob", "draw", **{"from": "discard", "card": "5d"})]),
    "an illegal knock accepted": hand(KNOCK + [move("ann", "illegal-knock"), move("bob", "remedy", choice="accept")]),
    "an illegal knock found before the spread: play on": hand(KNOCK + [move("ann", "illegal-knock"),
                                                                       move("bob", "remedy", choice="continue"),
                                                                       pile("bob")]),
    "a bad spread: continue is forced": hand(BAD_SPREAD + [move("ann", "illegal-knock"),
                                                           move("ann", "remedy", choice="continue")]),
    "found after the spread: play exposed": hand(KNOCK + [SPREAD, move("ann", "illegal-knock"),
                                                          move("bob", "remedy", choice="play-exposed"),
                                                          stock("bob", "Qs")]),
    "found after the spread: pick up": hand(KNOCK + [SPREAD, move("ann", "illegal-knock"),
                                                     move("bob", "remedy", choice="pick-up"), stock("bob", "Qs")]),
}


@pytest.mark.parametrize("name", ALLOWED)
def test_each_remedy_the_rules_allow_is_valid(name):
    report = gincli.validate(transcript(ALLOWED[name]))
    assert report["valid"], report["errors"]


REFUSED = {
    "continue where a redeal is forced": (hand([move("ann", "irregular-hand", cards=11),
                                                move("bob", "remedy", choice="continue")], ann=ELEVEN),
                                          1, "remedy-not-allowed"),
    "the offender chooses": (hand(FOUND_SHORT + [move("ann", "remedy", choice="continue")], ann=NINE),
                             5, "remedy-wrong-player"),
    "no remedy": (hand(FOUND_SHORT + [stock("ann", "Js")], ann=NINE), 5, "remedy-missing"),
    "a count that is not held": (hand([move("ann", "irregular-hand", cards=10)], ann=ELEVEN), 0,
                                 "irregular-hand-count"),
    "a count that is right": (hand([move("bob", "irregular-hand", cards=10)], ann=ELEVEN), 0, "irregular-hand-count"),
    "a wrong deal with nothing found": (hand([move("ann", "pass")], ann=ELEVEN), None, "deal-cards"),
    "a correction that discards too": (hand(FOUND_SHORT + [move("bob", "remedy", choice="continue"),
                                                           stock("ann", "Js"), move("ann", "discard", card="Js")],
                                            ann=NINE), 7, "correction-expected"),
    "a correction that draws": (hand(FOUND_LONG + [move("bob", "remedy", choice="continue"), stock("ann", "Jh")],
                                     ann=ELEVEN), 6, "correction-expected"),
    "a remedy with nothing to remedy": (hand([move("bob", "remedy", choice="redeal")]), 0, "remedy-not-allowed"),
    "seen in turn, said out of turn": (hand(SEEN[:3] + [move("ann", "seen", cards=["Kd"], in_turn=False)]), 3,
                                       "seen-turn"),
    "seen cards not in the stock": (hand(SEEN[:3] + [move("ann", "seen", cards=["As"], in_turn=True)]), 3,
                                    "seen-cards"),
    "the offender takes first": (hand(SEEN + [move("ann", "discard", card="Kh"), pile("bob"),
                                              move("bob", "discard", card="Jc"), exposed("ann", "Kd")],
                                      bob=BOB[:9] + ["Jc"]), 7, "exposed-draw"),
    "seen out of turn: the offender never takes": (hand(SEEN[:3] + [move("bob", "seen", cards=["Kd"], in_turn=False),
                                                                     move("ann", "discard", card="Kh"),
                                                                     exposed("bob", "Kd")]), 5, "exposed-draw"),
    "an illegal knock never found": (hand(KNOCK), 1, "knock-over-limit"),
    "an illegal knock found after the layoffs": (hand(KNOCK + [move("bob", "layoff", cards=["5d"]),
                                                               move("ann", "illegal-knock")]), 1, "knock-over-limit"),
    "accept after the spread": (hand(KNOCK + [SPREAD, move("ann", "illegal-knock"),
                                              move("bob", "remedy", choice="accept")]), 4, "remedy-not-allowed"),
    "accept a bad spread": (hand(BAD_SPREAD + [move("ann", "illegal-knock"), move("bob", "remedy", choice="accept")]),
                            3, "remedy-not-allowed"),
    "the knocker accepts": (hand(KNOCK + [move("ann", "illegal-knock"), move("ann", "remedy", choice="accept")]),
                            3, "remedy-wrong-player"),
    "a legal knock called illegal": (hand([move("ann", "pass"), move("bob", "pass"), stock("ann", "6s"),
                                           move("ann", "discard", card="Kh"), move("ann", "illegal-knock")]), 4,
                                     "knock-not-illegal"),
}


@pytest.mark.parametrize("name", REFUSED)
def test_each_refusal_has_its_rule_id_at_its_move(name):
    raw, at, rule = REFUSED[name]
    report = gincli.validate(transcript(raw))
    assert fault(report) == [(0, at, rule)]


def test_a_knock_ban_after_seeing_a_card_lifts_at_the_next_turn_and_spares_gin():
    # ann (2s 3s 4s 7d 8d 9d Kh Kc Ks 5c) takes 6d: discarding 5c leaves 0, discarding 2s leaves 5
    ann = ["2s", "3s", "4s", "7d", "8d", "9d", "Kh", "Kc", "Ks", "5c"]
    seen = [move("ann", "pass"), move("bob", "pass"), stock("ann", "6d"),
            move("ann", "seen", cards=["Qd"], in_turn=True)]
    banned = gincli.validate(transcript(hand(seen + [move("ann", "knock", card="2s")], ann=ann, upcard="9h")))
    assert fault(banned) == [(0, 4, "knock-banned")]
    gin = gincli.validate(transcript(hand(seen + [move("ann", "knock", card="5c")], ann=ann, upcard="9h")))
    assert gin["valid"] and gin["hands"][0]["outcome"] == "gin"
    later = seen + [move("ann", "discard", card="5c"), stock("bob", "Jh"), move("bob", "discard", card="Jh"),
                    stock("ann", "5d"), move("ann", "knock", card="5d")]
    assert gincli.validate(transcript(hand(later, ann=ann, upcard="9h")))["valid"]


def test_a_redeal_is_void_and_the_same_dealer_deals_again():
    void = hand([move("ann", "irregular-hand", cards=11), move("bob", "remedy", choice="redeal")], ann=ELEVEN,
                result={"outcome": "redeal", "winner": None, "points": 0})
    again = hand(KNOCK + [move("ann", "illegal-knock"), move("bob", "remedy", choice="accept")])
    report = gincli.validate(transcript(void, again, scoring="game"))
    assert report["valid"], report["errors"]
    assert [h["outcome"] for h in report["hands"]] == ["redeal", "knock"]
    assert report["result"]["hands"] == [["ann", 22]]  # the voided hand is no hand of the game
    other = dict(again, dealer="ann")
    assert fault(gincli.validate(transcript(void, other, scoring="game"))) == [(1, None, "wrong-dealer")]
    # under hand scoring a session that ends on a redeal is not complete: the hand is dealt again
    assert not gincli.validate(transcript(void))["complete"]


def test_a_wrong_count_found_at_the_spread_is_scored_by_the_end_of_hand_rule():
    ann = ["6d", "7d", "8d", "2s", "3s", "4s", "Kh", "Kc", "Ks", "5c"]
    knock = [pile("ann"), move("ann", "knock", card="5c")]
    short_bob = BOB[:9]
    for moves in (knock + [move("bob", "irregular-hand", cards=9)],
                  knock + [move("bob", "layoff"), move("bob", "irregular-hand", cards=9)]):
        report = gincli.validate(transcript(hand(moves, ann=ann, bob=short_bob)))
        assert report["valid"], report["errors"]
        h = report["hands"][0]
        assert (h["outcome"], h["winner"]) == ("gin", "ann")
        assert h["defender"]["deadwood"] == 35 + 10 and h["points"] == 45 + 25
        assert h["irregular_hands"] == {"bob": 9}
    too_many = gincli.validate(transcript(hand(knock + [move("ann", "irregular-hand", cards=11)], ann=ann + ["Qd"])))
    assert [(h["outcome"], h["winner"], h["points"]) for h in too_many["hands"]] == [("irregular", None, 0)]


def test_an_unmarked_wrong_count_says_how_to_mark_it():
    record = {"knocker": "ann", "hands": {"ann": ANN[:9], "bob": BOB}}
    [entry] = gincli.score([record])
    assert '"irregular": true' in entry["error"]


# -- the end-of-hand rule against a brute-force reference ------------------------------------------

def reference_score(knocker: list[str], defender: list[str], penalty: int = 10) -> tuple[str, str | None, int]:
    """(outcome, winner role, points) of a knock where either hand may hold a
    wrong number of cards, by brute force and RULES.md's end-of-hand rule."""
    k_cards = frozenset(ref.card(c) for c in knocker)
    d_cards = frozenset(ref.card(c) for c in defender)
    k_pen = max(10 - len(k_cards), 0) * penalty
    d_pen = max(10 - len(d_cards), 0) * penalty
    parts = ref.partitions(k_cards)
    k = min(ref.deadwood_of(k_cards, p) for p in parts) + k_pen
    if k == 0:
        outcome, role, points, bonus = "gin", "knocker", ref.min_deadwood(d_cards) + d_pen + 25, 25
    else:
        d = max(ref.defender_best_fast(d_cards, p) for p in parts
                if ref.deadwood_of(k_cards, p) + k_pen == k) + d_pen
        outcome, role, points, bonus = ("knock", "knocker", d - k, 0) if d > k else ("undercut", "defender",
                                                                                    k - d + 25, 25)
    held = len(k_cards) if role == "knocker" else len(d_cards)
    if held > 10:
        return "irregular", None, 0
    return outcome, role, points - (bonus if held < 10 else 0)


def knocking_hand(rng: random.Random, size: int, taken: list[str]) -> list[str]:
    """``size`` cards, none of ``taken``, that may knock: a run and a set of three,
    and the rest low cards (or, a third of the time, all in the run: gin)."""
    ranks = "A23456789TJQK"
    while True:
        gin = rng.random() < 0.3
        length = size - 3 if gin else 5
        suit, start = rng.choice("shdc"), rng.randrange(0, 14 - length)
        cards = [ranks[start + i] + suit for i in range(length)]
        rank = rng.choice([r for r in ranks if r not in ranks[start:start + length]])
        cards += [rank + s for s in rng.sample("shdc", 3)]
        low = [r + s for r in "A23" for s in "shdc" if r + s not in cards]
        cards += rng.sample(low, size - len(cards))
        if not set(cards) & set(taken):
            return cards


def test_the_end_of_hand_rule_matches_a_brute_force_reference():
    rng = random.Random(36)
    deck = [r + s for r in "A23456789TJQK" for s in "shdc"]
    outcomes = set()
    for _ in range(60):
        knocker = knocking_hand(rng, rng.choice((9, 10, 11)), [])
        size = rng.choice((9, 10, 11))
        defender = (knocking_hand(rng, size, knocker) if rng.random() < 0.5
                    else rng.sample([c for c in deck if c not in knocker], size))
        [result] = gincli.score([{"irregular": True, "knocker": "k", "hands": {"k": knocker, "d": defender}}])
        assert "error" not in result, result
        outcome, role, points = reference_score(knocker, defender)
        winner = {"knocker": "k", "defender": "d", None: None}[role]
        assert (result["outcome"], result["winner"], result["points"]) == (outcome, winner, points), (knocker,
                                                                                                       defender)
        outcomes.add((outcome, len(knocker) - 10, len(defender) - 10))
    assert {o for o, _, _ in outcomes} == {"knock", "undercut", "gin", "irregular"}
    assert {(o, d) for o, _, d in outcomes if o in ("gin", "undercut")} >= {("gin", -1), ("undercut", -1)}


def test_gin_play_records_a_table_s_game_with_its_irregularities(tmp_path):
    """gin play --record: a scorer enters each deal, both players' moves and the
    irregularities with their remedies; the transcript validates as it was played."""
    import subprocess
    import sys
    from pathlib import Path

    lines = ["2s 7s 5h Kh 3d 6d 7d 8d Td 5c Qs", " ".join(BOB), "9d", "irregular ann 11", "remedy continue",
             "remedy redeal",  # refused (a redeal is forced before the first draw), then chosen
             " ".join(ANN), "As Ad Ac 2h 3h 4h 7c 8c 9c 5s", "9d", "d", "k Kh", "illegal", "remedy accept", "",
             "q"]
    gin = Path(sys.executable).parent / "gin"
    out = subprocess.run([str(gin), "play", "--record", "ann,bob", "--dealer", "bob", "--transcript", "t.json"],
                         input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "the rules allow only redeal there, not continue" in out.stdout
    assert "bob undercuts and wins 42" in out.stdout
    import json

    report = gincli.validate(json.loads((tmp_path / "t.json").read_text()))
    assert report["valid"], report["errors"]
    assert [(h["outcome"], h["winner"], h["points"]) for h in report["hands"]] == [("redeal", None, 0),
                                                                                  ("undercut", "bob", 42)]
