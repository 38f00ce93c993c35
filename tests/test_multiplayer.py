"""RULES.md, "More than two players": cutthroat, chouette and partnership gin as
scoring systems that seat two players a hand and settle the session."""

from __future__ import annotations

import json
import random

import pytest
from helpers import cards
from hypothesis import given, settings, strategies as st

from gincli.rulebook.scoring import HandResult
from gincli.sessions.systems import Seating


def won(winner: str, points: int) -> HandResult:
    return HandResult("knock", winner, points, None, None)


DEAD = HandResult("dead", None, 0, None, None)


def cut(**named: str) -> dict[str, int]:
    return {name: cards(card)[0] for name, card in named.items()}


@pytest.fixture(scope="session")
def new(registry):
    def make(scoring: str, players: str, **options):
        system = registry.scoring(scoring)
        rules = registry.rules(registry.variant("standard"), system, options)
        return system.new_session(players.split(), rules)
    return make


def play(session, seating: Seating, *results: HandResult) -> list[Seating]:
    """Enter hands one by one as gincli does; returns the seating of each hand, then the next."""
    seats = [seating]
    for r in results:
        session.add_hand(r)
        if session.finished:
            break
        seats.append(session.next_seating(seats[-1], r))
    return seats


# -- who plays and who deals -------------------------------------------------------------------

def test_cutthroat_lowest_cut_sits_out_and_the_middle_deals_to_the_highest(new):
    s = new("cutthroat", "ann bob cat")
    seat = s.first_seating(cut(ann="5h", bob="Kd", cat="9s"))
    assert set(seat.players) == {"bob", "cat"} and seat.dealer == "cat"


def test_cutthroat_the_loser_sits_out_and_who_sat_out_deals_to_the_winner(new):
    s = new("cutthroat", "ann bob cat")
    first = s.first_seating(cut(ann="5h", bob="Kd", cat="9s"))  # cat deals to bob; ann sits out
    seats = play(s, first, won("bob", 10), DEAD, won("ann", 20))
    assert (set(seats[1].players), seats[1].dealer) == ({"ann", "bob"}, "ann")  # cat lost: ann deals to bob
    assert seats[2] == seats[1]  # a dead hand: the same two, the same dealer
    assert (set(seats[3].players), seats[3].dealer) == ({"ann", "cat"}, "cat")  # bob lost: cat deals to ann


def test_cutthroat_ties_on_rank_are_broken_by_suit(new):
    s = new("cutthroat", "ann bob cat")
    seat = s.first_seating(cut(ann="Ks", bob="Kh", cat="Kd"))  # spades high: ann, bob, cat
    assert set(seat.players) == {"ann", "bob"} and seat.dealer == "bob"


def test_chouette_the_highest_cut_is_the_box_and_deals_every_hand(new):
    s = new("chouette", "ann bob cat dan")
    seat = s.first_seating(cut(ann="5h", bob="Kd", cat="9s", dan="2c"))
    assert s.box == "bob" and s.captain == "cat" and s.line == ["ann", "dan"]
    assert set(seat.players) == {"bob", "cat"} and seat.dealer == "bob"


def test_chouette_a_captain_who_loses_goes_to_the_end_of_the_line(new):
    s = new("chouette", "ann bob cat dan")
    first = s.first_seating(cut(ann="5h", bob="Kd", cat="9s", dan="2c"))
    seats = play(s, first, won("cat", 10), DEAD, won("bob", 5), won("ann", 7), won("bob", 3))
    captains = [next(p for p in st.players if p != "bob") for st in seats]
    assert captains == ["cat", "cat", "cat", "ann", "ann", "dan"]
    assert all(st.dealer == "bob" for st in seats)
    assert s.line == ["cat", "ann"]


def test_partnership_pairs_change_every_deal_and_the_lower_cut_team_deals(new):
    s = new("partnership", "ann bob cat dan")  # teams: ann & cat, bob & dan
    first = s.first_seating(cut(ann="Kd", bob="5h"))  # bob's card is lower: his team deals
    assert s.cutters() == ("ann", "bob")
    seats = play(s, first, won("ann", 10), won("dan", 4), won("cat", 6), DEAD)
    assert [st.players for st in seats[:4]] == [("ann", "bob"), ("cat", "dan"), ("ann", "dan"), ("cat", "bob")]
    assert [st.dealer for st in seats[:2]] == ["bob", "dan"]  # bob's team deals at both tables
    assert [st.dealer for st in seats[2:4]] == ["ann", "cat"]  # ann's team won the deal (10 v 4): it deals
    assert seats[4].players == ("ann", "bob") and seats[4].dealer == "ann"  # 6 v 0: ann & cat deal again


def test_partnership_a_tied_deal_is_not_won_and_the_same_team_deals(new):
    s = new("partnership", "ann bob cat dan")
    first = s.first_seating(cut(ann="5h", bob="Kd"))  # ann's team deals
    seats = play(s, first, won("bob", 8), won("cat", 8))
    assert seats[2].dealer == "ann" and s.deals == [[None, 0, [8, 8]]]


# -- settling -------------------------------------------------------------------------------------

def test_cutthroat_settles_every_pair_with_bonuses_and_shutout_payments(new):
    s = new("cutthroat", "ann bob cat")
    first = s.first_seating(cut(ann="5h", bob="Kd", cat="9s"))
    play(s, first, won("bob", 30), won("ann", 20), won("bob", 75))
    assert s.finished
    r = s.result()
    # bob: 105 + 100 game + 2 boxes = 255; ann: 20 + 1 box = 45; cat: 0, shut out.
    assert r["totals"] == {"ann": 45, "bob": 255, "cat": 0} and r["winner"] == "bob"
    # bob: (255-45) + (255-0) + 100 from cat = 565; ann: (45-255) + (45-0) = -165; cat: -255 - 45 - 100 = -400
    assert r["scores"] == {"ann": -165, "bob": 565, "cat": -400}
    assert sum(r["scores"].values()) == 0


def test_chouette_the_box_against_every_partner(new):
    s = new("chouette", "ann bob cat")
    first = s.first_seating(cut(ann="5h", bob="Kd", cat="9s"))  # bob is the box
    play(s, first, won("bob", 40), won("cat", 10), won("bob", 65))
    r = s.result()
    # box: 105 + 100 + 2 boxes = 255; partners: 10 + 1 box = 35; N = 220, each partner pays it.
    assert r["box"] == "bob" and r["totals"] == {"box": 255, "partners": 35} and r["winner"] == "box"
    assert r["scores"] == {"ann": -220, "bob": 440, "cat": -220}


def test_chouette_a_partnership_win_is_paid_by_the_box_to_every_partner(new):
    s = new("chouette", "ann bob cat dan")
    first = s.first_seating(cut(ann="5h", bob="Kd", cat="9s", dan="2c"))
    play(s, first, won("cat", 60), won("bob", 10), won("ann", 45))
    r = s.result()
    # partners: 105 + 100 + 2 boxes = 255; box: 10 + 25 = 35; N = 220 to each of three partners.
    assert r["winner"] == "partners" and r["scores"] == {"ann": 220, "bob": -660, "cat": 220, "dan": 220}


def test_partnership_a_deal_scores_the_difference_and_teams_settle(new):
    s = new("partnership", "ann bob cat dan")
    first = s.first_seating(cut(ann="5h", bob="Kd"))
    play(s, first, won("ann", 70), won("dan", 10), won("cat", 40), DEAD, won("bob", 5), won("dan", 5))
    assert not s.finished  # 60 + 40 = 100 < 125
    play(s, s._seat(), won("ann", 30), DEAD)
    r = s.result()
    # team 0: 60 + 40 + 30 = 130 + 100 game + 3 deals x 25 = 305; team 1: 10 + 1 deal x 25 = 35; N = 270
    assert r["teams"] == [["ann", "cat"], ["bob", "dan"]] and r["totals"] == [305, 35] and r["winner"] == 0
    assert r["scores"] == {"ann": 270, "bob": -270, "cat": 270, "dan": -270}


def test_partnership_target_is_125_by_default_and_an_option(registry):
    system = registry.scoring("partnership")
    assert registry.rules(registry.variant("standard"), system, {})["target"] == 125
    assert registry.rules(registry.variant("standard"), system, {"target": 200})["target"] == 200


def test_systems_declare_how_many_players_they_take(registry):
    counts = {name: s.players for name, s in registry.scoring_systems.items()}
    assert counts["cutthroat"] == (3,) and counts["chouette"] == (3, 4) and counts["partnership"] == (4,)
    assert counts["game"] == (2,)


# -- properties over random sessions --------------------------------------------------------------

hand_results = st.lists(st.tuples(st.integers(0, 9), st.integers(1, 60)), min_size=1, max_size=80)


@pytest.mark.parametrize("scoring,players", [("cutthroat", "a b c"), ("chouette", "a b c"),
                                             ("chouette", "a b c d"), ("partnership", "a b c d")])
@settings(max_examples=60, deadline=None)
@given(draws=hand_results, cards_cut=st.permutations(range(52)))
def test_net_results_sum_to_zero_and_seats_follow_the_rules(new, scoring, players, draws, cards_cut):
    s = new(scoring, players)
    names = players.split()
    seat = s.first_seating({p: cards_cut[i] for i, p in enumerate(s.cutters())})
    for pick, points in draws:
        assert len(set(seat.players)) == 2 and set(seat.players) <= set(names) and seat.dealer in seat.players
        result = DEAD if pick == 0 else won(seat.players[pick % 2], points)
        s.add_hand(result)
        if s.finished:
            break
        nxt = s.next_seating(seat, result)
        if scoring == "cutthroat":
            if result.winner is None:
                assert nxt == seat
            else:
                out = next(p for p in names if p not in seat.players)
                assert nxt.dealer == out and set(nxt.players) == {out, result.winner}
        if scoring == "chouette":
            assert nxt.dealer == seat.dealer and seat.dealer in nxt.players
        seat = nxt
    r = s.result()
    assert sum(r["scores"].values()) == 0
    assert json.loads(json.dumps(r)) == r


def knocking_random(rng: random.Random):
    """A player of random legal moves who knocks whenever it can (so sessions end)."""
    def choose(hand):
        moves = hand.legal_moves()
        knocks = [m for m in moves if m.action == "knock"]
        return knocks[0] if knocks else rng.choice(moves)
    return choose


def test_every_scoring_system_plays_sessions_with_random_bots(registry):
    """Conformance: every system, every player count it takes, random play to the end;
    every transcript re-validates."""
    from gincli.replay.validate import validate
    from gincli.sessions.table import play_session

    v = registry.variant("standard")
    for name, system in sorted(registry.scoring_systems.items()):
        for n in system.players:
            players = ["ann", "bob", "cat", "dan"][:n]
            rules = registry.rules(v, system, {})
            choose = knocking_random(random.Random(name))
            for seed in range(3):
                rec = play_session(players, v, rules, system, choose, seed)
                report = validate(json.loads(json.dumps(rec.transcript)), registry)
                assert report.valid and report.complete, (name, n, seed, report.to_dict()["errors"])
                assert report.result == rec.result
                if n > 2:
                    assert sum(rec.result["scores"].values()) == 0
                    assert all(set(h["players"]) <= set(players) for h in rec.transcript["hands"])


@pytest.mark.parametrize("scoring,players", [("cutthroat", "a b c"), ("chouette", "a b c d"),
                                             ("partnership", "a b c d")])
def test_scores_so_far_are_the_results_scores_at_every_hand(new, scoring, players):
    s = new(scoring, players)
    seat = s.first_seating({p: i for i, p in enumerate(s.cutters())})
    rng = random.Random(scoring)
    while not s.finished:
        assert s.scores_so_far() == s.result()["scores"]
        result = DEAD if rng.random() < 0.2 else won(seat.players[rng.randrange(2)], rng.randrange(1, 40))
        s.add_hand(result)
        if not s.finished:
            seat = s.next_seating(seat, result)
    assert s.scores_so_far() == s.result()["scores"]


# -- gin validate: the seats of three and four players ----------------------------------------------

def played(registry, scoring: str, players: tuple[str, ...], seed: int = 4) -> dict:
    from gincli.sessions.table import play_session

    v = registry.variant("standard")
    system = registry.scoring(scoring)
    rules = registry.rules(v, system, {})
    choose = knocking_random(random.Random(seed))
    return json.loads(json.dumps(play_session(players, v, rules, system, choose, seed,
                                              options=dict(rules)).transcript))


def fault(registry, doc) -> tuple[str, int | None]:
    from gincli.replay.validate import validate

    report = validate(doc, registry)
    assert not report.valid
    return report.errors[0].rule, report.errors[0].hand


def test_validate_names_the_wrong_pair_at_its_hand(registry):
    doc = played(registry, "cutthroat", ("ann", "bob", "cat"))
    h = doc["hands"][3]
    out = next(p for p in doc["players"] if p not in h["players"])
    h["players"] = [h["dealer"], out]  # the hand's loser-to-be sits in for the one who should play
    assert fault(registry, doc) == ("wrong-players", 3)


def test_validate_names_the_wrong_dealer_under_chouette(registry):
    doc = played(registry, "chouette", ("ann", "bob", "cat"))
    h = doc["hands"][1]
    other = next(p for p in h["players"] if p != h["dealer"])
    h["dealer"] = other  # the box deals every hand
    assert fault(registry, doc) == ("wrong-dealer", 1)


def test_validate_names_a_partnership_deal_out_of_order(registry):
    doc = played(registry, "partnership", ("ann", "bob", "cat", "dan"))
    doc["hands"][0], doc["hands"][1] = doc["hands"][1], doc["hands"][0]
    rule, hand = fault(registry, doc)
    assert (rule, hand) in (("deal-order", 0), ("cut-seats", 0))
    doc = played(registry, "partnership", ("ann", "bob", "cat", "dan"))
    doc["hands"][2], doc["hands"][3] = doc["hands"][3], doc["hands"][2]
    assert fault(registry, doc) == ("deal-order", 2)


def test_validate_checks_the_cut_against_the_first_seats(registry):
    doc = played(registry, "cutthroat", ("ann", "bob", "cat"))
    cut = doc["cut"]
    low = min(cut, key=lambda p: (("A23456789TJQK".index(cut[p][0])), -"shdc".index(cut[p][1])))
    high = max(cut, key=lambda p: (("A23456789TJQK".index(cut[p][0])), -"shdc".index(cut[p][1])))
    doc["cut"][low], doc["cut"][high] = cut[high], cut[low]
    assert fault(registry, doc) == ("cut-seats", 0)
    doc = played(registry, "cutthroat", ("ann", "bob", "cat"))
    del doc["cut"]
    assert fault(registry, doc) == ("cut-cards", None)
    doc = played(registry, "cutthroat", ("ann", "bob", "cat"))
    doc["cut"]["bob"] = doc["cut"]["ann"]
    assert fault(registry, doc) == ("cut-cards", None)


@pytest.mark.parametrize("scoring,players,key,value", [
    ("cutthroat", ("ann", "bob", "cat"), "totals", {"ann": 0, "bob": 0, "cat": 0}),
    ("chouette", ("ann", "bob", "cat", "dan"), "box", "nobody"),
    ("partnership", ("ann", "bob", "cat", "dan"), "winner", 7),
    ("partnership", ("ann", "bob", "cat", "dan"), "scores", {"ann": 1, "bob": -1, "cat": 1, "dan": -1}),
])
def test_validate_checks_a_claimed_settlement(registry, scoring, players, key, value):
    doc = played(registry, scoring, players)
    doc["result"][key] = value
    assert fault(registry, doc) == ("claimed-session-result", None)


def test_validate_needs_each_hands_players_with_more_than_two(registry):
    doc = played(registry, "cutthroat", ("ann", "bob", "cat"))
    del doc["hands"][0]["players"]
    assert fault(registry, doc) == ("hand-players", 0)


def test_the_example_bot_plays_the_three_systems(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    from conftest import ROOT

    gin = str(Path(sys.executable).with_name("gin"))
    for scoring, bots in (("cutthroat", "exec:python3 examples/bot.py,simple,expert"),
                          ("chouette", "simple,exec:python3 examples/bot.py,expert"),
                          ("partnership", "exec:python3 examples/bot.py,simple,expert,random")):
        f = tmp_path / f"{scoring}.jsonl"
        res = subprocess.run([gin, "match", "--bots", bots, "--scoring", scoring, "--games", "2", "-q",
                              "--transcripts", str(f), "--format", "json"], capture_output=True, text=True,
                             cwd=ROOT, timeout=600)
        assert res.returncode == 0, res.stderr
        assert all(p["forfeits"] == 0 for p in json.loads(res.stdout)["players"])
        assert subprocess.run([gin, "validate", "-q", str(f)], cwd=ROOT, capture_output=True).returncode == 0
