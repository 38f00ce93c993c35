"""Duplicate deals (``--duplicate``): the two sessions of a pair give each player, hand for hand, the cards the
other held, with the same upcard and stock, whoever deals; each hand's deal comes from the pair's seed and the
hand's index alone; and the transcripts stay valid."""

from __future__ import annotations

import json

import pytest

from gincli.hand.engine import cut_cards, deal_deck, shuffled_deck
from gincli.matches.runner import MatchSpec, play_match_session
from gincli.replay.validate import validate
from gincli.rulebook.rng import SplitMix64


def two_player_systems() -> list[str]:
    from gincli.plugin.registry import load_registry

    return sorted(name for name, system in load_registry().scoring_systems.items() if 2 in system.players)


def test_every_two_player_system_of_the_registry_is_checked_below():
    assert {"hand", "game", "hollywood", "match-500", "eaai"} <= set(two_player_systems())


def pairs_of(registry, bots, scoring, seed, pairs, options=None):
    """The transcripts of ``pairs`` duplicate pairs, each (session 2k, session 2k+1)."""
    unit = "hands" if scoring == "hand" else "games"
    spec = MatchSpec(bots, ("ann", "bob"), unit, 2 * pairs, seed, "standard", scoring, options or {}, True)
    docs = [json.loads(play_match_session(spec, i, registry, True).transcript or "") for i in range(2 * pairs)]
    return [(docs[k], docs[k + 1]) for k in range(0, len(docs), 2)]


def cards_of(doc, hand):
    """Each player's ten cards, the upcard and the stock of a transcript's hand, dealt from its deck as RULES.md
    deals (ten each, one at a time, the non-dealer first)."""
    from gincli.rulebook.cards import CARD_NAMES

    return deal_deck([CARD_NAMES.index(c) for c in hand["deck"]], hand["dealer"], doc["players"])


#: Each two-player system under each rule for the next dealer (eaai's own rules alternate the deal).
SYSTEMS = [(s, d) for s in two_player_systems() for d in ("winner", "loser", "alternate")
           if s != "eaai" or d == "winner"]


@pytest.mark.parametrize(("scoring", "next_dealer"), SYSTEMS)
def test_each_player_holds_in_one_session_the_cards_the_other_held_in_the_other(registry, scoring, next_dealer):
    """Over long sessions (a game of a dozen hands, hollywood's three games, match-500's several), for every hand
    index both sessions reach: whatever the dealers did, ann holds in one what bob held in the other and the
    upcard and the stock are the same. Where the winner or the loser deals next, both cases are met: the
    dealers drift apart as hands are won."""
    pairs = 12 if scoring == "hand" else 3
    options = {} if scoring == "eaai" else {"next_dealer": next_dealer}
    compared = {"same dealer": 0, "other dealer": 0}
    for first, second in pairs_of(registry, ("simple", "simple"), scoring, 4242, pairs, options):
        assert first["seed"] == second["seed"] and first["players"] == second["players"][::-1]
        assert first["hands"] and second["hands"]
        for h1, h2 in zip(first["hands"], second["hands"], strict=False):  # every hand index both reach
            held1, up1, stock1 = cards_of(first, h1)
            held2, up2, stock2 = cards_of(second, h2)
            assert held1["ann"] == held2["bob"] and held1["bob"] == held2["ann"]
            assert (up1, stock1) == (up2, stock2)
            compared["same dealer" if h1["dealer"] == h2["dealer"] else "other dealer"] += 1
        for doc in (first, second):
            report = validate(doc, registry)
            assert report.valid and report.complete, report.errors
    assert compared["other dealer"] > 0
    if scoring not in ("hand", "eaai") and next_dealer != "alternate":
        assert compared["same dealer"] > 0, compared


def test_a_hand_is_dealt_from_the_pair_seed_and_its_index_alone(registry):
    """Hand k's deck is the k-th shuffle after the cut of the pair's seed; where the session's first dealer does
    not deal it, its first twenty cards are swapped two by two (so that they still go to the same players)."""
    for first, second in pairs_of(registry, ("simple", "expert"), "game", 77, 3):
        for doc in (first, second):
            rng = SplitMix64(doc["seed"])
            cut_cards(rng, doc["players"])
            first_dealer = doc["hands"][0]["dealer"]
            for hand in doc["hands"]:
                deck = shuffled_deck(rng)
                if hand["dealer"] != first_dealer:
                    deck[0:20:2], deck[1:20:2] = deck[1:20:2], deck[0:20:2]
                assert hand["deck"] == [_name(c) for c in deck]


def _name(card: int) -> str:
    from gincli.rulebook.cards import CARD_NAMES

    return CARD_NAMES[card]


def test_without_duplicate_every_hand_is_dealt_from_the_shuffle_as_it_is(registry):
    spec = MatchSpec(("simple", "simple"), ("ann", "bob"), "games", 2, 5, "standard", "game", {}, False)
    doc = json.loads(play_match_session(spec, 0, registry, True).transcript or "")
    rng = SplitMix64(doc["seed"])
    cut_cards(rng, doc["players"])
    assert len({h["dealer"] for h in doc["hands"]}) == 2
    for hand in doc["hands"]:
        assert hand["deck"] == [_name(c) for c in shuffled_deck(rng)]


def test_a_duplicate_match_says_what_its_pairs_gained_and_draws_its_intervals_from_them():
    """gin match's pairs.correlation and pairs.effective, against the sessions' results read from the
    transcripts and the statistics module; the net result a game has its interval from the pairs' means."""
    import statistics

    from gincli import play_match

    res = play_match(["expert", "simple"], games=24, duplicate=True, seed=12, workers=1)
    first = res.summary["players"][0]["name"]
    scores = [1.0 if (t["result"] or {}).get("winner") == first else 0.0 for t in res.transcripts]
    ones, twos = scores[0::2], scores[1::2]
    pairs = res.summary["pairs"]
    assert pairs["correlation"] == pytest.approx(statistics.correlation(ones, twos), abs=5e-4)
    means = [(a + b) / 2 for a, b in zip(ones, twos, strict=True)]
    effective = 12 * statistics.variance(scores) / statistics.variance(means)
    assert pairs["effective"] == pytest.approx(effective, abs=0.05)
    nets = [t["result"]["scores"][first] - sum(v for k, v in t["result"]["scores"].items() if k != first)
            for t in res.transcripts]
    pair_nets = [(a + b) / 2 for a, b in zip(nets[0::2], nets[1::2], strict=True)]
    half = 1.959963984540054 * statistics.stdev(pair_nets) / 12 ** 0.5
    net = res.summary["players"][0]["net_per_game"]
    assert net["samples"] == 12 and net["mean"] == pytest.approx(statistics.mean(nets), abs=0.005)
    assert (net["low"], net["high"]) == pytest.approx((net["mean"] - half, net["mean"] + half), abs=0.01)
