"""The ``master`` bot: legal under every variant and scoring system (doubling,
round-the-corner, eaai, three and four players), reproducible by seed, its
parameter checked; its simulated knocks are settled exactly as the rule book
settles them; it knocks when a knock wins the game where expert would wait."""

from __future__ import annotations

import json
import random

import pytest
from helpers import assert_legal_and_replayable, cards, mask

from gincli.hand.view import PlayerView
from gincli.rulebook.cards import cards_of
from gincli.rulebook.rng import SplitMix64
from gincli.rulebook.scoring import Position, score_position


def make_view(registry, hand: str, *, pile: str, stock: int, scores: dict, opponent_discards: str = "",
              variant: str = "standard", scoring: str = "game") -> PlayerView:
    rules = registry.rules(registry.variant(variant), registry.scoring(scoring), {})
    pile_cards = cards(pile)
    return PlayerView("ann", "bob", "bob", "discard", mask(hand), pile_cards[0], tuple(pile_cards), stock, (), (), (),
                      (), tuple(cards(opponent_discards)), -1, False, 10, False, rules, scores, 3, {})


def master(seed: int = 1):
    from gincli_builtin.master import MasterBot

    return MasterBot(SplitMix64(seed), "ann")


@pytest.mark.parametrize("variant,scoring", [("standard", "game"), ("oklahoma", "game"), ("gin-only", "hand"),
                                             ("doubling", "game"), ("round-the-corner", "game"),
                                             ("standard", "eaai")])
def test_every_match_is_legal_and_replays_by_seed(registry, variant, scoring):
    assert_legal_and_replayable(registry, ("master", "expert"), variant, scoring, 7)


@pytest.mark.parametrize("bots,scoring", [("master,simple,expert", "cutthroat"),
                                          ("master,expert,simple,master", "partnership")])
def test_plays_three_and_four_player_sessions(run, tmp_path, bots, scoring):
    t = tmp_path / "t.jsonl"
    res = run("match", "--bots", bots, "--scoring", scoring, "--games", "1", "--seed", "2", "--workers", "1",
              "-o", "target=40", "-q", "-f", "json", "--transcripts", str(t))
    assert res.exit_code == 0, res.stderr
    assert all(p["forfeits"] == 0 for p in json.loads(res.stdout)["players"])
    checked = run("validate", "-f", "json", str(t))
    assert checked.exit_code == 0, checked.stdout


def test_parameters_are_listed_and_checked(run):
    res = run("bots", "-f", "json")
    assert res.exit_code == 0, res.stderr
    found = next(b for b in json.loads(res.stdout)["bots"] if b["name"] == "master")
    assert [p["name"] for p in found["parameters"]] == ["samples", "worlds", "width", "margin",
                                                          "halving", "ms"]
    for wrong, name in (("samples=many", "samples"), ("width=11", "width"), ("margin=-1", "margin"),
                         ("halving=2", "halving"), ("ms=-1", "ms"), ("ms=fast", "ms")):
        bad = run("match", "--bots", f"master:{wrong},simple", "--hands", "1")
        assert bad.exit_code == 2 and name in bad.stderr and "Traceback" not in bad.stderr, bad.stderr
    ok = run("match", "--bots", "master:samples=4,simple", "--hands", "3", "--seed", "1", "-q",
             "-f", "json")
    assert ok.exit_code == 0, ok.stderr
    timed = run("match", "--bots", "master:ms=1,expert", "--hands", "4", "--seed", "1", "-q", "-f", "json")
    assert timed.exit_code == 0, timed.stderr
    assert all(p["forfeits"] == 0 for p in json.loads(timed.stdout)["players"])


def test_width_0_is_master_knock_and_a_wider_search_plays_otherwise(run):
    """master:width=0 weighs no other discard: it plays master-knock's moves,
    seed for seed; a width and margin that let more discards in change play."""
    def points(bot: str) -> list[int]:
        res = run("match", "--bots", f"{bot},expert", "--hands", "12", "--seed", "5", "-q", "-f", "json")
        assert res.exit_code == 0, res.stderr
        return [p["points"] for p in json.loads(res.stdout)["players"]]
    knock = points("master-knock")
    assert points("master:width=0") == knock
    assert points("master:width=10:margin=30:worlds=24") != knock


@pytest.mark.parametrize("others", [1, 2, 3, 5, 9])
def test_halving_spends_the_same_play_outs_on_the_closest_discards(registry, monkeypatch, others):
    """master:halving=true plays master-knock's discard in every round and
    drops the worse half of the others after each; it spends no more
    play-outs than every discard in every world, and the last round's
    discards have the most worlds. Play-outs that score discard i as i points
    in every world (no spread): the best, the last, is chosen."""
    from gincli.hand import playout
    from gincli_builtin.master import MasterBot, _Knowledge

    calls: list[tuple[list[int], int]] = []

    def search(*args):
        ids, worlds = list(args[9]), args[10]  # playout.search's candidates and worlds
        calls.append((ids, worlds))
        value = {c: i for i, c in enumerate(first_ids)}
        totals = tuple(value[c] * worlds for c in ids)
        return totals, tuple((value[c] - value[ids[0]]) ** 2 * worlds for c in ids)

    monkeypatch.setattr(playout, "search", search)
    view = make_view(registry, "As 3d 5c 7h 9s Jd Kc 2h 4s 6d 8c", pile="Qh", stock=30, scores={"ann": 0, "bob": 0})
    bot = MasterBot(SplitMix64(1), "ann")
    bot.params = {**bot.params, "halving": True, "worlds": 100}
    moves = [view.discard(c) for c in cards_of(view.hand)][:others + 1]
    first_ids = [playout.DISCARD_ID + (m.card or 0) for m in moves]
    chosen = bot._searched(view, _Knowledge(view, bot), moves)
    assert chosen is moves[-1]
    assert all(ids[0] == first_ids[0] for ids, _ in calls)
    assert sum(len(ids) * w for ids, w in calls) <= 100 * len(moves)
    assert [len(ids) - 1 for ids, _ in calls][-1] == min(others, 2)
    for (ids, worlds), (after, more) in zip(calls, calls[1:], strict=False):
        assert len(after) - 1 == len(ids) // 2 and more > worlds
        assert set(after) <= set(ids) and first_ids[-1] in after
    seen = {c: sum(w for ids, w in calls if c in ids) for c in first_ids}
    assert seen[first_ids[-1]] == max(seen.values()) >= 100


@pytest.mark.parametrize("others,halving,budget", [(3, True, 0.010), (5, True, 0.004), (2, False, 0.006),
                                                    (4, True, 0.0)])
def test_a_time_budget_plays_batches_until_each_round_has_spent_its_share(monkeypatch, others, halving, budget):
    """With a budget, search_choice plays batch() new worlds a call (a new seed
    each), until the clock has passed the rounds' shares of the budget, one
    batch a round at least; the rounds halve the discards as without it, and
    the worlds argument plays no part. Play-outs that score discard i as i
    points (no spread) and a clock that a call moves on by a millisecond."""
    from gincli.hand import playout
    from gincli_builtin.master import batch, search_choice

    now = [5.0]
    calls: list[tuple[list[int], int, int, float]] = []
    ids = [playout.DISCARD_ID + c for c in range(others + 1)]

    def search(*args):
        cands, worlds, seed = list(args[9]), args[10], args[11]
        calls.append((cands, worlds, seed, now[0]))
        now[0] += 0.001
        return (tuple(ids.index(c) * worlds for c in cands),
                tuple((ids.index(c) - ids.index(cands[0])) ** 2 * worlds for c in cands))

    monkeypatch.setattr(playout, "search", search)
    seeds = iter(range(1000))
    position = (0, (), playout.DISCARD, -1, 0, 0, b"", 0, (10, 25, 25, -1, 8, 0, 5))
    chosen = search_choice(position, ids, 99999, halving, lambda: next(seeds), 2, 1.0, 0.0, budget,
                           clock=lambda: now[0])
    assert chosen == others  # the best discard, the last
    assert all(worlds == batch() for _, worlds, _, _ in calls)
    assert len({seed for _, _, seed, _ in calls}) == len(calls)
    rounds = max(1, (others - 1).bit_length()) if halving else 1
    sizes = [len(c) for c, _, _, _ in calls]
    assert len(set(sizes)) == rounds and sizes == sorted(sizes, reverse=True)
    for r, size in enumerate(sorted(set(sizes), reverse=True)):
        played = [start for c, _, _, start in calls if len(c) == size]
        share = 5.0 + budget * (r + 1) / rounds
        if len(played) > 1:  # each call begun before the round's share was spent, the round ended at the first past it
            assert all(start < share for start in played[1:])
            assert played[-1] + 0.001 >= share - 1e-9
    assert len(calls) == max(rounds, round(budget / 0.001))


def test_a_budget_draws_fewer_worlds_a_call_where_the_play_outs_are_in_python(monkeypatch):
    """Under a budget a call draws BATCH worlds with the compiled play-outs and
    PURE_BATCH in Python, where each costs some 40 times more: a small budget
    is then overshot by a play-out's cost, not by BATCH of them."""
    from gincli.hand import playout
    from gincli_builtin import master

    assert master.PURE_BATCH < master.BATCH
    monkeypatch.setattr(playout, "PLAYOUT", object())
    assert master.batch() == master.BATCH
    monkeypatch.setattr(playout, "PLAYOUT", None)
    assert master.batch() == master.PURE_BATCH
    rng = random.Random(5)
    deck = list(range(52))
    rng.shuffle(deck)
    mine, top, unknown = deck[:11], deck[11], deck[12:]
    position = (sum(1 << c for c in mine), (top,), playout.DISCARD, -1, 0, 0,
                bytes(16 if c in unknown else 0 for c in range(52)), len(unknown) - 10, (10, 25, 25, -1, 8, 0, 5))
    ids = [playout.DISCARD_ID + c for c in mine[:3]]
    drawn: list[int] = []
    real = playout.search
    monkeypatch.setattr(playout, "search", lambda *a: drawn.append(a[10]) or real(*a))
    master.search_choice(position, ids, 192, True, iter(range(1, 999)).__next__, 2, 1.0, 0.0, 0.001)
    assert drawn and set(drawn) == {master.PURE_BATCH}  # the Python play-outs, a world a call


def knock_position(rules, rng: random.Random) -> tuple[int, int]:
    """A knocker's ten cards likely to knock (up to three melds of the rules,
    drawn at random, and loose cards) and a defender's ten from the rest: ten
    cards drawn at random knock about once in 1,500 deals."""
    k = 0
    for m in rng.sample(rules.melds.meld_masks, 3):
        if not k & m and bin(k | m).count("1") <= 9:
            k |= m
    rest = [c for c in range(52) if not k >> c & 1]
    drawn = rng.sample(rest, 20 - bin(k).count("1"))
    k |= sum(1 << c for c in drawn[:10 - bin(k).count("1")])
    d = sum(1 << c for c in drawn[-10:])
    return k, d


@pytest.mark.parametrize("variant,options", [("standard", {}), ("round-the-corner", {}),
                                             ("round-the-corner", {"layoff_on_gin": False})])
def test_simulated_knocks_are_settled_as_the_rule_book_does(registry, variant, options):
    """The points master counts for a simulated knock or gin are exactly the rule book's
    (score_position: the knocker's choice of melds, the defender's layoffs, the bonuses,
    a gin tied by layoffs)."""
    from gincli_builtin.master import Settlement

    rules = registry.rules(registry.variant(variant), registry.scoring("hand"), options)
    view = PlayerView("ann", "bob", "bob", "discard", 0, 0, (0,), 20, (), (), (), (), (), -1, False, 10, False,
                      rules, {}, 1, {})
    play = Settlement(view)
    rng = random.Random(5)
    checked = 0
    while checked < 400:
        k, d = knock_position(rules, rng)
        dw = rules.melds.deadwood(k)
        if dw > 10:
            continue
        r = score_position(Position(("ann", "bob"), {"ann": k, "bob": d}, "ann", None), registry.variant(variant),
                           rules)
        expected = r.points if r.winner == "ann" else -r.points
        assert play.score(k, dw, d) == expected, (cards_of(k), cards_of(d))
        checked += 1
    # a gin whose defender lays off its last loose card (9s onto the nines): tied where gin takes layoffs
    k, d = mask("As 2s 3s 4s 5h 6h 7h 9c 9d 9h"), mask("Ks Qs Js Kh Qh Jh Kd Qd Jd 9s")
    r = score_position(Position(("ann", "bob"), {"ann": k, "bob": d}, "ann", None), registry.variant(variant), rules)
    assert r.outcome == ("gin_tied" if rules["layoff_on_gin"] else "gin")
    assert play.score(k, 0, d) == (r.points if r.winner == "ann" else -r.points)


def test_knocks_when_the_knock_wins_the_game_where_expert_would_wait(registry):
    from gincli_builtin.expert import ExpertBot

    hand = "7h 7d 7c Jd Qd Kd 8s 9s Ts 9c Kc"  # one loose nine: expert waits for gin early on
    early = make_view(registry, hand, pile="Kh", opponent_discards="Kh", stock=29, scores={"ann": 0, "bob": 0})
    assert ExpertBot(SplitMix64(1), "ann").choose(early).action == "discard"
    assert master().choose(early).action == "discard"
    close = make_view(registry, hand, pile="Kh", opponent_discards="Kh", stock=29, scores={"ann": 97, "bob": 0})
    assert ExpertBot(SplitMix64(1), "ann").choose(close).action == "discard"
    assert master().choose(close).action == "knock"

