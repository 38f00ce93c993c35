"""RULES.md, "Scoring systems", eaai: the rules of the EAAI 2021 Gin Rummy challenge
(one game to 100 with no game, box or shutout bonus, the net result the difference of
the two scores; gin and undercut bonuses 25, knock limit 10, no big gin; the deal
alternating after every scored hand, the same dealer after a dead hand)."""

from __future__ import annotations

import json
from itertools import pairwise
from pathlib import Path

import pytest
from helpers import json_lines, record

from gincli.base.errors import RecordError
from gincli.formats.records import HandScorer
from gincli.replay.validate import validate
from gincli.rulebook.cards import parse_card
from gincli.rulebook.rules import resolve
from gincli.rulebook.scoring import HandResult
from gincli.sessions.systems import open_session

#: RULES.md's eaai, option by option.
RULE_TEXT = {"target": 100, "game_bonus": 0, "box_bonus": 0, "shutout": "bonus", "shutout_bonus": 0,
             "gin_bonus": 25, "undercut_bonus": 25, "knock_limit": 10, "big_gin_bonus": "off",
             "next_dealer": "alternate"}

def won(winner: str, points: int) -> HandResult:
    return HandResult("knock", winner, points, None, None)


DEAD = HandResult("dead", None, 0, None, None)


@pytest.fixture(scope="module")
def eaai(registry):
    return registry.scoring("eaai")


def eaai_defaults(registry, eaai):
    """The rules eaai's defaults make over the rule book's, before any variant's file."""
    return resolve(registry.option_specs(registry.variant("standard"), eaai))


def standard_rules(registry, eaai, **options):
    return registry.rules(registry.variant("standard"), eaai, options)


def session(registry, eaai, rules=None, **options):
    rules = rules if rules is not None else standard_rules(registry, eaai, **options)
    return open_session(eaai, ["ann", "bob"], rules)


def play(s, *hands):
    for h in hands:
        s.add_hand(h)
    return s


# -- the defaults -------------------------------------------------------------------------------------

def test_eaai_defaults_are_exactly_the_rule_texts(registry, eaai):
    declared = {o.name: o.default for o in eaai.options}
    assert declared == RULE_TEXT
    rules = eaai_defaults(registry, eaai)
    assert {k: rules[k] for k in RULE_TEXT} == RULE_TEXT
    assert eaai.players == (2,)


def test_eaai_defaults_hold_under_the_standard_variant(registry, eaai):
    rules = standard_rules(registry, eaai)
    assert {k: rules[k] for k in RULE_TEXT} == RULE_TEXT


def test_eaai_options_may_still_be_set(registry, eaai):
    rules = standard_rules(registry, eaai, target=150, gin_bonus=20)
    assert rules["target"] == 150 and rules["gin_bonus"] == 20


# -- a game to 100, no bonus ----------------------------------------------------------------------------

def test_eaai_no_bonus_at_the_end_of_a_game(registry, eaai):
    s = play(session(registry, eaai), won("ann", 60), won("bob", 20), DEAD, won("ann", 45))
    assert s.finished
    r = s.result()
    # no game bonus (100), no boxes (25 a hand): the totals are the hands' points
    assert r["scores"] == {"ann": 105, "bob": 20} and r["winner"] == "ann"
    assert r["net"] == 85 == r["scores"]["ann"] - r["scores"]["bob"]
    assert all(v == 0 for part in r["bonuses"].values() for v in part.values())


def test_eaai_no_shutout_bonus_when_the_loser_won_no_hand(registry, eaai):
    r = play(session(registry, eaai), won("ann", 60), won("ann", 45)).result()
    assert r["scores"] == {"ann": 105, "bob": 0} and r["net"] == 105


def test_eaai_first_to_100_wins(registry, eaai):
    s = play(session(registry, eaai), won("ann", 99), won("bob", 60))
    assert not s.finished and s.result()["winner"] is None
    s.add_hand(won("bob", 40))  # exactly 100
    assert s.finished
    r = s.result()
    assert r["winner"] == "bob" and r["scores"] == {"ann": 99, "bob": 100} and r["net"] == 1
    s.add_hand(won("ann", 30))  # the game is over: nothing more is entered
    assert s.result()["scores"] == {"ann": 99, "bob": 100}


def test_eaai_session_result_is_formats_game_result(registry, eaai):
    r = play(session(registry, eaai), won("ann", 100)).result()
    assert r["scores"] == {"ann": 100, "bob": 0} and r["winner"] == "ann"


# -- the hand: gin and undercut 25, knock limit 10, no big gin ---------------------------------------

KNOCKER = "7s 7h 7d 7c Js Qs Ks As 2c 5d"  # RULES.md's example: 8 deadwood


@pytest.fixture(scope="module")
def scorer(registry):
    return lambda **options: HandScorer(registry, None, "eaai", options)


def test_eaai_gin_bonus_25(scorer):
    r = scorer().score(record("7s 7h 7d 7c Js Qs Ks 2c 3c 4c", "Ts 9s 5c Qh 8d 6h 5h 2h Ac Kd")).to_dict()
    assert (r["outcome"], r["winner"]) == ("gin", "ann") and r["points"] == r["defender"]["deadwood"] + 25


def test_eaai_undercut_bonus_25(scorer):
    r = scorer().score(record(KNOCKER, "Kd Kh Kc Ts 9d 9h 9c 3h 2h Ac")).to_dict()  # 6 against 8
    assert (r["outcome"], r["winner"], r["points"]) == ("undercut", "bob", 2 + 25)


def test_eaai_knock_limit_10(scorer):
    with pytest.raises(RecordError, match="knock limit of 10"):
        scorer().score(record("7s 7h 7d 7c Js Qs Ks As 2c 8d", "Kd Kh Kc Ts Qh 9d 6c 5h 2h Ac"))  # 11


def test_eaai_big_gin_is_off_and_refused(registry, eaai, scorer):
    assert {o.name: o.default for o in eaai.options}["big_gin_bonus"] == "off"
    with pytest.raises(RecordError, match="big gin is off"):
        scorer().score(record("7s 7h 7d 7c Js Qs Ks 2c 3c 4c 5c", "Ts 9s 6c Qh 8d 6h 5h 2h Ac Kd"))
    # and in play: bob draws the 5 of clubs to eleven melded cards and spreads them all
    doc = {"format": "gincli-transcript/1", "id": "big", "variant": "standard", "scoring": "eaai",
           "players": ["ann", "bob"],
           "hands": [{"dealer": "ann",
                      "deal": {"bob": ["7s", "7h", "7d", "7c", "Js", "Qs", "Ks", "2c", "3c", "4c"],
                               "ann": ["Ts", "9s", "6c", "Qh", "8d", "6h", "5h", "2h", "Ac", "Kd"], "upcard": "9h"},
                      "moves": [{"player": "bob", "action": "pass"}, {"player": "ann", "action": "pass"},
                                {"player": "bob", "action": "draw", "from": "stock", "card": "5c"},
                                {"player": "bob", "action": "knock"}]}]}
    report = validate(doc, registry)
    assert not report.valid and report.errors[0].rule == "big-gin-off"
    assert report.errors[0].move == 3


def test_eaai_gin_score_scores_hand_records_under_eaais_options(run, tmp_path):
    path = tmp_path / "hands.jsonl"
    path.write_text(json.dumps(record("7s 7h 7d 7c Js Qs Ks 2c 3c 4c", "Ts 9s 5c Qh 8d 6h 5h 2h Ac Kd", id="g"))
                    + "\n" + json.dumps(record(KNOCKER, "Kd Kh Kc Ts 9d 9h 9c 3h 2h Ac", id="u")) + "\n")
    res = run("score", "--scoring", "eaai", "--format", "json", "--quiet", "--workers", "1", str(path))
    assert res.exit_code == 0, res.output
    out = {r["id"]: r for r in json_lines(res.stdout)}
    assert out["g"]["points"] == out["g"]["defender"]["deadwood"] + 25
    assert (out["u"]["outcome"], out["u"]["points"]) == ("undercut", 27)


# -- the deal -----------------------------------------------------------------------------------------

def deals(s, results):
    """The dealer of each hand of a session whose hands end with ``results`` (ann cuts higher)."""
    seat = s.first_seating({"ann": parse_card("Kc"), "bob": parse_card("As")})  # the higher card deals
    dealers = [seat.dealer]
    for result in results:
        s.add_hand(result)
        seat = s.next_seating(seat, result)
        dealers.append(seat.dealer)
    return dealers


RESULTS = [won("ann", 10), won("ann", 5), DEAD, won("bob", 7), DEAD, DEAD, won("ann", 3), won("ann", 8)]
# ann deals; the winner of a scored hand never decides: after every scored hand the other player deals
EXPECTED = ["ann", "bob", "ann", "ann", "bob", "bob", "bob", "ann", "bob"]


def test_eaai_the_deal_alternates_after_scored_hands_and_stays_after_a_dead_hand(registry, eaai):
    assert deals(session(registry, eaai, eaai_defaults(registry, eaai)), RESULTS) == EXPECTED


def test_eaai_the_deal_alternates_under_the_standard_variant(registry, eaai):
    assert deals(session(registry, eaai), RESULTS) == EXPECTED


def alternates(doc) -> bool:
    hands = doc["hands"]
    return all((b["dealer"] == a["dealer"]) == (a["result"]["winner"] is None) for a, b in pairwise(hands))


def test_eaai_a_played_session_deals_alternately(registry, eaai):
    from gincli.rulebook.rng import SplitMix64
    from gincli.sessions.table import play_session
    from gincli_builtin.bots import SimpleBot

    bots = {p: SimpleBot(SplitMix64(i), p) for i, p in enumerate(("ann", "bob"))}
    rules = eaai_defaults(registry, eaai)
    for seed in range(3):
        rec = play_session(("ann", "bob"), registry.variant("standard"), rules, eaai,
                           lambda h: bots[h.to_act].choose(h.view(h.to_act)), seed, options=dict(rules))
        assert len(rec.transcript["hands"]) > 2 and alternates(rec.transcript)
        report = validate(json.loads(json.dumps(rec.transcript)), registry)
        assert report.valid and report.complete and report.result == rec.result


# -- gin match, gin validate, gin play, gin variants -------------------------------------------------

@pytest.fixture(scope="module")
def match(tmp_path_factory):
    """gin match --bots expert,simple --games 20 --scoring eaai --seed 1, its transcripts and summary."""
    import os
    import subprocess
    import sys

    folder = tmp_path_factory.mktemp("eaai")
    path = folder / "t.jsonl"
    env = dict(os.environ, GINCLI_CONFIG_DIR=str(folder / "config"), GINCLI_DATA_DIR=str(folder / "data"))
    res = subprocess.run([str(Path(sys.executable).with_name("gin")), "match", "--bots", "expert,simple", "--games",
                          "20", "--scoring", "eaai", "--seed", "1", "--transcripts", str(path), "--format", "json",
                          "-q"], check=False, capture_output=True, text=True, timeout=600, env=env)
    assert res.returncode == 0, res.stderr
    return path, json.loads(res.stdout)


def test_eaai_a_seeded_matchs_transcripts_validate(registry, match):
    path, summary = match
    assert summary["scoring"] == "eaai" and summary["games"] == 20
    docs = json_lines(path.read_text())
    assert len(docs) == 20
    for doc in docs:
        assert doc["scoring"] == "eaai" and {k: doc["options"][k] for k in RULE_TEXT if k != "next_dealer"} == \
            {k: v for k, v in RULE_TEXT.items() if k != "next_dealer"}
        report = validate(doc, registry)
        assert report.valid and report.complete, report.to_dict()["errors"]
        r = report.result
        # the totals are the hands' points, the winner reached 100, the net is the difference
        assert doc["result"] == {"scores": r["scores"], "winner": r["winner"]}
        assert r["scores"] == r["points"] and r["scores"][r["winner"]] >= 100
        loser = next(p for p in doc["players"] if p != r["winner"])
        assert r["net"] == r["scores"][r["winner"]] - r["scores"][loser]


def test_eaai_a_seeded_match_deals_alternately(match):
    path, _ = match
    assert all(alternates(doc) for doc in json_lines(path.read_text()))


def test_eaai_gin_validate_refuses_a_transcript_claiming_a_game_bonus(registry, match, run, tmp_path):
    path, _ = match
    doc = json_lines(path.read_text())[0]
    winner = doc["result"]["winner"]
    doc["result"]["scores"][winner] += 100  # the game bonus of the game scoring system
    report = validate(doc, registry)
    assert not report.valid and report.errors[0].rule == "claimed-session-result"
    claimed = tmp_path / "claimed.json"
    claimed.write_text(json.dumps(doc))
    res = run("validate", "--format", "json", str(claimed))
    assert res.exit_code == 1 and json_lines(res.stdout)[0]["errors"][0]["rule"] == "claimed-session-result"


def test_eaai_gin_play_plays_a_whole_session(registry, tmp_path):
    from test_play import play as gin_play, script

    lines, table = script(registry, 11, "standard", "eaai")
    res, path = gin_play("--seed", "11", "--bot", "simple", "--scoring", "eaai", input="\n".join(lines) + "\n",
                         tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    doc = json.loads(path.read_text())
    assert doc["scoring"] == "eaai" and doc["hands"] == table.transcript()["hands"]
    report = validate(doc, registry)
    assert report.valid and report.complete and "The eaai is over" in res.stdout


def test_eaai_gin_variants_lists_it_with_its_rules(run):
    res = run("variants", "--format", "json")
    assert res.exit_code == 0
    system = next(s for s in json.loads(res.stdout)["scoring_systems"] if s["name"] == "eaai")
    assert {o["name"]: o["default"] for o in system["options"]} == RULE_TEXT
    assert system["players"] == [2] and system["plugin"] == "gincli-scoring"
