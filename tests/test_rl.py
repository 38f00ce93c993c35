"""gincli.rl (docs/rl.md): the PettingZoo and Gymnasium environments pass the
ecosystem's own checks, every variant and move set plays through them, the
action ids are the documented ones, a seat observes only what its view holds,
the rewards are the points as scored, the deal of a seed is ``gin deal``'s, and
a policy over the observations is a bot of ``gin match``."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from conftest import ROOT  # noqa: E402

import gincli  # noqa: E402
import gincli.rl as rl  # noqa: E402
from gincli.base.errors import UsageError  # noqa: E402
from gincli.rl.observe import KNOCK_LIMIT_AT, OBSERVATION_SIZE, PHASE_AT, STOCK_AT  # noqa: E402

GIN = str(Path(sys.executable).with_name("gin"))
VARIANTS = ("standard", "oklahoma", "gin-only", "round-the-corner", "doubling")


def play_random(env, seed: int, rng_seed: int = 0, hands: int = 1):
    """Random masked play, PettingZoo's loop: every (agent, observation, reward, info, action)."""
    rnd = random.Random(rng_seed)
    log = []
    for h in range(hands):
        env.reset(seed=seed + h)
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                log.append((agent, None, reward, info, None))
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[rnd.randrange(len(legal))])
            log.append((agent, obs, reward, info, action))
            env.step(action)
    return log


def cards(plane: np.ndarray) -> set[str]:
    from gincli.rulebook.cards import CARD_NAMES

    return {CARD_NAMES[c] for c in np.flatnonzero(plane)}


# -- the ecosystem's own checks -------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_pettingzoo_api_test_passes_for_every_variant(variant):
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # its notes on dict observations, which PettingZoo's classic envs share
        api_test(rl.env(variant=variant), num_cycles=200)


def test_pettingzoo_api_test_passes_for_a_session_with_doubling():
    from pettingzoo.test import api_test

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        api_test(rl.env(variant="oklahoma", options={"doubling": True}, episode="session"), num_cycles=300)


def test_pettingzoo_seed_test_passes():
    from pettingzoo.test import seed_test

    seed_test(rl.env, num_cycles=300)
    seed_test(lambda: rl.env(variant="doubling", episode="session"), num_cycles=300)


@pytest.mark.parametrize("opponent", ["simple", "random"])
def test_gymnasium_check_env_passes(opponent):
    from gymnasium.utils.env_checker import check_env

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gymnasium.make("gincli/GinRummy-v0", opponent=opponent).unwrapped, skip_render_check=True)
        check_env(rl.GinRummyEnv(opponent=opponent, variant="doubling", episode="session"), skip_render_check=True)


# -- determinism and the deal --------------------------------------------------------------

def test_the_same_seed_gives_the_same_episodes():
    a = play_random(rl.env(variant="doubling"), seed=11, hands=5)
    b = play_random(rl.env(variant="doubling"), seed=11, hands=5)
    assert len(a) == len(b)
    for (ag1, o1, r1, i1, a1), (ag2, o2, r2, i2, a2) in zip(a, b, strict=True):
        assert (ag1, r1, i1, a1) == (ag2, r2, i2, a2)
        if o1 is not None:
            assert np.array_equal(o1["observation"], o2["observation"])
            assert np.array_equal(o1["action_mask"], o2["action_mask"])
    c = play_random(rl.env(variant="doubling"), seed=12, hands=5)
    assert [x[3] for x in c if x[1] is None] != [x[3] for x in a if x[1] is None]


def test_resets_without_a_seed_follow_the_last_seed_given():
    one, two = rl.raw_env(), rl.raw_env()
    seen = []
    for env in (one, two):
        env.reset(seed=5)
        env.reset()
        seen.append((env.game.seed, env.observe(env.agent_selection)["observation"].tobytes()))
    assert seen[0] == seen[1] and seen[0][0] != 5


@pytest.mark.parametrize("seed", [1, 7, 123456789])
def test_the_deal_for_a_seed_is_gin_deals(seed):
    """What each seat's observation shows at the start: its ten cards and the
    upcard, exactly those of ``gin deal --seed S`` for the same players."""
    out = subprocess.run([GIN, "deal", "--seed", str(seed), "--players", "player_0,player_1", "--format", "json"],
                         capture_output=True, text=True, check=True, timeout=120).stdout
    deal = json.loads(out)["hands"][0]
    env = rl.env()
    env.reset(seed=seed)
    for agent in env.agents:
        obs = env.observe(agent)["observation"]
        assert cards(obs[0:52]) == set(deal["deal"][agent])
        assert cards(obs[52:104]) == {deal["deal"]["upcard"]}
    assert env.agent_selection != deal["dealer"]  # the non-dealer is offered the upcard first


# -- actions --------------------------------------------------------------------------------

def test_the_action_ids_are_the_documented_table():
    from gincli.hand.moves import Move
    from gincli.rulebook.cards import parse_card

    t = rl.ActionTable()
    assert (rl.STOCK, rl.TAKE, rl.PASS, rl.DISCARD, rl.KNOCK, rl.GIN) == (0, 1, 2, 3, 55, 107)
    assert (rl.DOUBLE, rl.ACCEPT, rl.DECLINE, rl.FIXED_ACTIONS, t.size) == (108, 109, 110, 111, 111)
    assert t.id_of(Move("a", "draw", "stock")) == 0 and t.id_of(Move("a", "draw", "discard")) == 1
    assert t.id_of(Move("a", "pass")) == 2
    assert t.id_of(Move("a", "discard", card=parse_card("As"))) == 3
    assert t.id_of(Move("a", "discard", card=parse_card("Kc"))) == 54
    assert t.id_of(Move("a", "knock", card=parse_card("7h"))) == 55 + 13 + 6
    assert t.id_of(Move("a", "knock")) == 107
    assert [t.id_of(Move("a", x)) for x in ("double", "accept", "decline")] == [108, 109, 110]
    assert t.describe(3 + 13 + 6) == "discard 7h"


def test_a_move_sets_own_moves_come_after_the_fixed_ids_in_registration_order():
    class Bidding(gincli.MoveSet):
        name, actions = "bidding", ("bid", "double")  # double is doubling's: it keeps its id

    class Resigning(gincli.MoveSet):
        name, actions = "resigning", ("resign", "bid")

    t = rl.ActionTable((Bidding(), Resigning()))
    assert t.extra == ("bid", "resign") and t.size == 113
    assert t.id_of(gincli.Move("a", "bid")) == 111 and t.id_of(gincli.Move("a", "resign")) == 112
    assert t.id_of(gincli.Move("a", "double")) == rl.DOUBLE


def test_the_mask_is_the_hands_legal_moves_and_each_id_plays_its_move():
    env = rl.raw_env(variant="doubling", episode="session")
    env.reset(seed=3)
    rnd = random.Random(3)
    for _ in range(600):
        if not env.agents:
            break
        agent = env.agent_selection
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        hand = env.game.hand
        legal = hand.legal_moves()
        ids = {env.game.actions.id_of(m) for m in legal}
        assert set(np.flatnonzero(obs["action_mask"])) == ids
        for other in env.agents:
            if other != agent:
                assert not env.observe(other)["action_mask"].any()
        action = sorted(ids)[rnd.randrange(len(ids))]
        move = env.game.legal()[1][action]
        assert move in legal and env.game.actions.id_of(move) == action
        env.step(action)


def test_doubling_offer_accept_and_decline_have_their_ids():
    env = rl.raw_env(variant="doubling")
    env.reset(seed=2)
    first = env.agent_selection
    assert env.observe(first)["action_mask"][rl.DOUBLE] == 1
    env.step(rl.DOUBLE)
    answerer = env.agent_selection
    assert answerer != first
    obs = env.observe(answerer)
    assert set(np.flatnonzero(obs["action_mask"])) == {rl.ACCEPT, rl.DECLINE}
    assert obs["observation"][PHASE_AT + rl.PHASES.index("answer")] == 1
    env.step(rl.DECLINE)
    result = env.infos[first]["result"]
    assert env.terminations == {"player_0": True, "player_1": True}
    assert result["outcome"] == "declined" and result["winner"] == first
    assert env.rewards[first] == result["points"] == -env.rewards[answerer]


def test_a_plugins_move_set_adds_its_action_and_plays(tmp_path):
    """docs/examples/resign.py's move set, its option on: one id more, 111, and it ends the hand."""
    code = """
import gincli.rl as rl
env = rl.env(options={"resigning": True})
env.reset(seed=1)
assert env.action_space("player_0").n == 112, env.action_space("player_0").n
agent = env.agent_selection
assert env.observe(agent)["action_mask"][111] == 1
env.step(111)
print(env.infos[agent]["result"]["outcome"], env.rewards[agent])
"""
    env = dict(os.environ, GINCLI_PLUGINS_DIR=str(ROOT / "docs" / "examples"))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300,
                          cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == ["resigned", "-15.0"]


def test_an_illegal_action_forfeits_the_hand_and_no_id_is_one_sentence():
    env = rl.raw_env()
    env.reset(seed=4)
    agent = env.agent_selection
    with pytest.raises(UsageError, match="an action is an id from 0 to 110, not 500"):
        env.step(500)
    assert env.agent_selection == agent and not any(env.terminations.values())
    env.step(rl.DISCARD)  # the first turn offers the upcard: no discard
    forfeit = env.infos[agent]["result"]["forfeit"]
    assert forfeit["player"] == agent and "not legal now" in forfeit["reason"]
    assert env.rewards[agent] < 0 and all(env.terminations.values())


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_plays_to_its_end_by_the_mask_alone(variant):
    log = play_random(rl.env(variant=variant), seed=20, hands=8)
    ends = [info["result"] for _, obs, _, info, _ in log if obs is None]
    assert len(ends) == 16 and not any(r.get("forfeit") for r in ends)


# -- observations ---------------------------------------------------------------------------

def reference_planes(view: dict) -> dict[str, set[str]]:
    """The planes as docs/rl.md says them, from the protocol's view (cards by name)."""
    pile = view["discard_pile"]
    took, mine = set(view["opponent_took"]), set(view["my_discards"])
    holds = took - set(pile) - set(view["hand"])
    refused = set(view["opponent_discards"]) | (mine - took)
    if view["opponent"] in view["passes"]:
        refused.add(view["upcard"])
    from gincli.rulebook.cards import CARD_NAMES

    known = set(view["hand"]) | set(pile) | holds
    return {"hand": set(view["hand"]), "discard_top": set(pile[-1:]), "pile": set(pile[:-1]),
            "opponent_took": holds, "opponent_refused": refused, "my_discards": mine,
            "unknown": set(CARD_NAMES) - known}


def test_each_plane_holds_what_docs_rl_md_says_and_nothing_hidden():
    from gincli.matches.external.protocol import view_to_json

    env = rl.raw_env(variant="oklahoma")
    for seed in range(6):
        env.reset(seed=seed)
        rnd = random.Random(seed)
        while env.agents:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            hand = env.game.hand
            for seat in env.agents:
                o = env.observe(seat)["observation"]
                assert o.shape == (OBSERVATION_SIZE,) and o.dtype == np.float32
                expected = reference_planes(view_to_json(hand.view(seat)))
                for i, name in enumerate(rl.PLANES):
                    assert cards(o[52 * i:52 * i + 52]) == expected[name], (seed, seat, name)
                opponent = hand.other(seat)
                from gincli.rulebook.cards import CARD_NAMES, cards_of

                hidden = {CARD_NAMES[c] for c in cards_of(hand.hands[opponent])}
                assert expected["opponent_took"] <= hidden  # what it shows is so ...
                assert hidden - expected["opponent_took"] <= expected["unknown"]  # ... and the rest unknown to it
                assert o[KNOCK_LIMIT_AT + min(hand.limit, 10)] == 1
                assert o[STOCK_AT] == pytest.approx(hand.stock_count / 31)
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rnd.randrange(len(legal))]))


def test_an_observation_is_the_same_whatever_the_cards_a_seat_cannot_see():
    """Two decks alike in a seat's ten cards and the upcard, unlike in the
    opponent's cards and the stock: the seat's first observation is the same."""
    from gincli.hand.engine import Hand, deal_deck

    env = rl.raw_env()
    env.reset(seed=9)
    hand = env.game.hand
    seat = env.agent_selection
    mine, upcard, _ = deal_deck(hand.deck, hand.dealer, hand.players)
    other_cards = [c for c in hand.deck if not mine[seat] >> c & 1 and c != upcard]
    random.Random(1).shuffle(other_cards)
    deck, it = [], iter(other_cards)
    for i, c in enumerate(hand.deck):
        deck.append(c if (mine[seat] >> c & 1 or i == 20) else next(it))
    twin = Hand(hand.players, hand.dealer, hand.variant, hand.rules, deck=deck)
    assert twin.hands[seat] == hand.hands[seat] and twin.hands[hand.other(seat)] != hand.hands[hand.other(seat)]
    enc = env.game.encoder
    assert np.array_equal(enc.observation(twin.view(seat)), enc.observation(hand.view(seat)))


# -- rewards --------------------------------------------------------------------------------

def test_rewards_are_the_hands_points_zero_sum_and_normalised_on_request():
    for normalize, scale in ((False, 1.0), (True, rl.REWARD_SCALE)):
        log = play_random(rl.env(normalize=normalize), seed=30, hands=10)
        finals = [(agent, reward, info["result"]) for agent, obs, reward, info, _ in log if obs is None]
        assert len(finals) == 20
        for agent, reward, result in finals:
            expected = 0 if result["winner"] is None else result["points"] / scale
            assert reward == (expected if result["winner"] == agent else -expected)
        assert any(r != 0 for _, r, _ in finals)


def test_a_session_episodes_return_is_the_sessions_final_difference():
    env = rl.env(episode="session", scoring="game")
    returns = dict.fromkeys(env.possible_agents, 0.0)
    env.reset(seed=8)
    rnd = random.Random(8)
    hands = 0
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        returns[agent] += reward
        if terminated or truncated:
            session = info["session"]
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rnd.randrange(len(legal))]))
        hands = max(hands, env.infos[env.agent_selection].get("hands", 0) if env.agents else hands)
    scores = session["scores"]
    assert session["winner"] in scores and hands > 1
    assert returns["player_0"] == scores["player_0"] - scores["player_1"] == -returns["player_1"]


def test_a_wrong_argument_is_one_sentence():
    with pytest.raises(UsageError, match="unknown variant \"nope\""):
        rl.env(variant="nope")
    with pytest.raises(UsageError, match="the scoring system cutthroat takes 3 players; the environments seat two"):
        rl.env(scoring="cutthroat")
    with pytest.raises(UsageError, match="episode is \"hand\" or \"session\""):
        rl.env(episode="game")
    with pytest.raises(UsageError, match="unknown bot \"nobody\""):
        gymnasium.make("gincli/GinRummy-v0", opponent="nobody")
    with pytest.raises(UsageError, match="knock_limit"):
        rl.env(options={"knock_limit": "lots"})


# -- one seat against a bot -----------------------------------------------------------------

def play_gym(env, seed: int, hands: int = 1):
    rnd = random.Random(seed)
    out = []
    for h in range(hands):
        obs, info = env.reset(seed=seed + h)
        total = 0.0
        while True:
            legal = np.flatnonzero(obs["action_mask"])
            assert len(legal)
            obs, reward, terminated, truncated, info = env.step(int(legal[rnd.randrange(len(legal))]))
            total += reward
            if terminated or truncated:
                break
        out.append((total, info["result"]))
    env.close()
    return out


def test_the_opponent_may_be_a_name_a_program_a_bot_or_a_callable():
    class Stocker(gincli.Bot):
        name = "stocker"

        def choose(self, view):
            legal = view.legal()
            return next((m for m in legal if m.source == "stock"), legal[-1])

    def first(view, legal):
        return legal[0]

    opponents = ["expert", f"exec:{sys.executable} {ROOT / 'examples' / 'bot.py'}", Stocker(gincli.rng.SplitMix64(1)),
                 first]
    for opponent in opponents:
        results = play_gym(gymnasium.make("gincli/GinRummy-v0", opponent=opponent), seed=40, hands=3)
        for total, result in results:
            assert not result.get("forfeit"), (opponent, result)
            assert total == (0 if result["winner"] is None else
                             result["points"] if result["winner"] == "player_0" else -result["points"])


def test_the_learner_may_take_either_seat_and_the_opponent_plays_as_in_a_match():
    a = play_gym(rl.GinRummyEnv(opponent="simple", seat="player_1"), seed=50, hands=4)
    b = play_gym(rl.GinRummyEnv(opponent="simple", seat="player_1"), seed=50, hands=4)
    assert a == b and any(t != 0 for t, _ in a)


def test_an_opponent_that_fails_forfeits_with_its_reason():
    def broken(view, legal):
        raise RuntimeError("no model")

    env = rl.GinRummyEnv(opponent=broken, episode="session", scoring="game")
    obs, info = env.reset(seed=1)
    reasons = [info.get("result", {}).get("forfeit", {}).get("reason", "")]
    while True:
        legal = np.flatnonzero(obs["action_mask"])
        obs, reward, terminated, truncated, info = env.step(int(legal[0]))
        reasons.append(info.get("result", {}).get("forfeit", {}).get("reason", ""))
        if terminated or truncated:
            break
    assert "the bot broken raised RuntimeError: no model" in reasons
    assert info["session"]["winner"] == "player_0"


# -- policies as bots -----------------------------------------------------------------------

def lowest(obs, mask):
    return int(np.flatnonzero(mask)[0])


def test_a_policy_bot_plays_in_play_match():
    Bot = rl.policy_bot(lowest, name="lowest")
    result = gincli.play_match([Bot(), "random"], hands=20, seed=3, workers=1)
    me = result.summary["players"][0]
    assert me["name"] == "lowest" and me["forfeits"] == 0 and me["hands_played"] == 20


def test_a_policy_whose_action_is_not_legal_forfeits_with_the_reason():
    Bot = rl.policy_bot(lambda obs, mask: rl.GIN, name="stubborn")
    result = gincli.play_match([Bot(), "random"], hands=2, seed=3, workers=1)
    assert result.summary["players"][0]["forfeits"] == 2
    assert "the policy stubborn chose 107 (go out without a discard (big gin)), which is not a legal action now" in \
        result.summary["forfeit_reasons"][0]["reason"]


def test_a_policy_bot_of_a_plugin_plays_in_gin_match_and_gin_tournament(tmp_path):
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "lowest_policy.py").write_text(
        "import numpy as np\n"
        "from gincli import hookimpl\n"
        "from gincli.rl import policy_bot\n\n\n"
        "def lowest(obs, mask):\n"
        "    return int(np.flatnonzero(mask)[0])\n\n\n"
        "@hookimpl\n"
        "def gincli_register_bots(register):\n"
        "    register(policy_bot(lowest, name=\"lowest\", description=\"the legal action of the lowest id\"))\n")
    env = dict(os.environ, GINCLI_CONFIG_DIR=str(tmp_path / "config"))
    match = subprocess.run([GIN, "--plugins-dir", str(plugins), "match", "--bots", "lowest,random", "--hands", "10",
                            "--seed", "1", "--format", "json", "-q"], capture_output=True, text=True, env=env,
                           timeout=300)
    assert match.returncode == 0, match.stderr
    players = json.loads(match.stdout)["players"]
    assert players[0]["bot"] == "lowest" and players[0]["forfeits"] == 0
    tour = subprocess.run([GIN, "--plugins-dir", str(plugins), "tournament", "--bots", "lowest,random,simple",
                           "--hands", "4", "--seed", "1", "--format", "json", "-q"], capture_output=True, text=True,
                          env=env, timeout=300)
    assert tour.returncode == 0, tour.stderr
    assert "lowest" in [p["name"] for p in json.loads(tour.stdout)["players"]]


# -- the package ----------------------------------------------------------------------------

def test_import_gincli_loads_none_of_the_extra(tmp_path):
    code = ("import sys, gincli; gincli.deal(seed=1); gincli.new_hand(seed=1); "
            "print([m for m in ('numpy', 'pettingzoo', 'gymnasium') if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120,
                         cwd=tmp_path)
    assert out.stdout.strip() == "[]"


@pytest.mark.parametrize("missing", ["numpy", "pettingzoo", "gymnasium"])
def test_without_the_extra_the_import_says_how_to_install_it(tmp_path, missing):
    code = f"import sys; sys.modules[{missing!r}] = None\nimport gincli.rl"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1] == (
        f"ImportError: gincli.rl needs numpy, pettingzoo and gymnasium ({missing} is not installed): "
        "pip install 'gincli[rl]'")


def test_without_several_packages_the_import_names_each(tmp_path):
    code = "import sys; sys.modules['numpy'] = sys.modules['gymnasium'] = None\nimport gincli.rl"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert proc.returncode == 1
    assert proc.stderr.strip().splitlines()[-1] == (
        "ImportError: gincli.rl needs numpy, pettingzoo and gymnasium (numpy and gymnasium are not installed): "
        "pip install 'gincli[rl]'")


def test_the_gymnasium_id_is_registered_on_import():
    assert rl.ENV_ID in gymnasium.registry
    env = gymnasium.make(rl.ENV_ID, opponent="simple", variant="gin-only")
    assert env.action_space.n == rl.FIXED_ACTIONS and env.observation_space["observation"].shape == (OBSERVATION_SIZE,)


def test_a_bad_seed_or_option_is_the_apis_sentence():
    """The environments and the Python API read ``seed`` and ``options`` with
    the same code (gincli.work.python): the same mistake, the same sentence."""
    import gincli

    for bad in ({"seed": -1}, {"seed": 1.5}, {"options": "knock_limit=5"}, {"options": ["knock_limit"]}):
        with pytest.raises(UsageError) as api:
            if "seed" in bad:
                gincli.deal(**bad)
            else:
                gincli.deal(seed=1, **bad)
        with pytest.raises(UsageError) as env:
            if "seed" in bad:
                gincli.rl.env().reset(**bad)
            else:
                gincli.rl.env(**bad)
        assert str(env.value) == str(api.value), bad
