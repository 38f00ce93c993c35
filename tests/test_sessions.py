"""RULES.md, "A game" and "Scoring systems": settling sessions of hands."""

from __future__ import annotations

import pytest

from gincli.rulebook.scoring import HandResult


def won(winner: str, points: int) -> HandResult:
    return HandResult("knock", winner, points, None, None)


DEAD = HandResult("dead", None, 0, None, None)


@pytest.fixture
def session(registry):
    def make(scoring: str, variant: str = "standard", **options):
        system = registry.scoring(scoring)
        rules = registry.rules(registry.variant(variant), system, options)
        return system.new_session(["ann", "bob"], rules)
    return make


def play(s, *hands):
    for h in hands:
        s.add_hand(h)
    return s


def test_game_first_to_the_target_wins_with_game_and_box_bonuses(session):
    s = play(session("game"), won("ann", 60), won("bob", 20), DEAD, won("ann", 45))
    assert s.finished
    r = s.result()
    # ann: 105 + 100 game + 2 boxes x 25 = 255; bob: 20 + 1 box x 25 = 45.
    assert r["scores"] == {"ann": 255, "bob": 45} and r["winner"] == "ann"
    assert r["net"] == 210


def test_shutout_bonus_when_the_loser_won_no_hand(session):
    r = play(session("game"), won("ann", 60), won("ann", 45)).result()
    assert r["scores"] == {"ann": 105 + 100 + 100 + 50, "bob": 0}


def test_shutout_double_doubles_points_and_game_bonus_before_the_box(session):
    r = play(session("game", shutout="double"), won("ann", 60), won("ann", 45)).result()
    assert r["scores"] == {"ann": (105 + 100) * 2 + 50, "bob": 0}


def test_target_is_an_option(session):
    s = play(session("game", target=150), won("ann", 120))
    assert not s.finished
    assert s.result() == {"scores": {"ann": 120, "bob": 0}, "winner": None, "points": {"ann": 120, "bob": 0},
                          "hands_won": {"ann": 1, "bob": 0}, "net": 0, "hands": [["ann", 120]]}


def test_hand_scoring_sums_each_hand_and_never_closes(session):
    s = play(session("hand"), won("ann", 60), won("bob", 20), DEAD, won("ann", 45))
    assert not s.finished and s.result() == {"scores": {"ann": 105, "bob": 20}}


def test_hollywood_nth_win_enters_games_one_to_n(session):
    s = play(session("hollywood"), won("ann", 10), won("bob", 20), won("ann", 30), won("ann", 40))
    games = s.result()["games"]
    # ann's wins: 1st -> game 1; 2nd -> games 1, 2; 3rd -> games 1, 2, 3. bob's 1st -> game 1.
    assert [g["points"]["ann"] for g in games] == [80, 70, 40]
    assert [g["points"]["bob"] for g in games] == [20, 0, 0]


def test_hollywood_closed_games_take_no_more_and_target_is_125(session):
    s = play(session("hollywood"), won("ann", 130))  # game 1 closes at once
    s = play(s, won("bob", 10))  # bob's first win would go to game 1, which is closed
    games = s.result()["games"]
    assert games[0]["winner"] == "ann" and games[0]["points"]["bob"] == 0
    assert not s.finished
    s = play(s, won("ann", 130), won("ann", 130))  # closes games 2 and 3
    assert s.finished
    r = s.result()
    assert r["winner"] == "ann" and r["scores"]["ann"] == sum(g["scores"]["ann"] for g in r["games"])


def test_match_500_credits_each_games_net_to_its_winner(session):
    s = session("match-500")
    play(s, won("ann", 100))  # game 1: ann 100 + 100 + 100 shutout + 25 = 325, net 325
    assert s.result()["scores"] == {"ann": 325, "bob": 0} and not s.finished
    play(s, won("bob", 50), won("ann", 100))  # game 2: ann 100+100+25 = 225, bob 50+25 = 75, net 150
    assert s.result()["scores"] == {"ann": 475, "bob": 0}
    play(s, won("ann", 100))  # game 3: ann 325 net
    assert s.finished and s.result()["winner"] == "ann" and len(s.result()["games"]) == 3
