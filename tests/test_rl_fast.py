"""gincli.rl's fast paths give the numbers of its general one. With no move
set in play the environments read masks and observations straight from the
hand (no view, no move a legal id): step by step, what the seat's view gives
through ``PlayerView.legal()`` and ``Encoder.observation``. The compiled
module (``gincli/rl/_stdplay.c``) answers as the Python code does (its
choices, masks and observations on hypothesis's hands; every build of it
tests/test_accel.py makes, through held_to_the_python), and the vector
environment's games, played by it or by the engine, are the AEC
environment's, move for move, on random games, hypothesis's, forfeits and the
move cap included."""

from __future__ import annotations

import importlib.util
import os
import random
import shutil
import subprocess
import sys
import sysconfig
from unittest import mock

import pytest
from hypothesis import example, given, settings, strategies as st

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402

import gincli.rl as rl  # noqa: E402
from gincli.base.errors import UsageError  # noqa: E402
from gincli.hand.engine import MAX_HAND_MOVES  # noqa: E402
from gincli.hand.view import MAY_GO_BIG_GIN, standard_choices  # noqa: E402
from gincli.rl.actions import ActionTable  # noqa: E402
from gincli.rl.compiled import STDPLAY  # noqa: E402
from gincli.rl.compiled_game import CompiledGame  # noqa: E402
from gincli.rl.game import AGENTS, Game  # noqa: E402
from gincli.rl.observe import OBSERVATION_SIZE, PHASE_INDEX, encode_python  # noqa: E402
from gincli.rulebook.meldrules import STANDARD  # noqa: E402

PLAIN = ("standard", "oklahoma", "gin-only", "round-the-corner")
compiled = STDPLAY
needs_compiled = pytest.mark.skipif(compiled is None, reason="gincli.rl._stdplay is not built here")


def general(env, agent):
    """``agent``'s observation and mask as the general path makes them, from its view."""
    game = env.game
    view = game.hand.view(agent)
    acting = game.done is None and agent == game.hand.to_act
    mask = game.actions.legal(view.legal())[0] if acting else np.zeros(game.actions.size, np.int8)
    return game.encoder.observation(view), mask


def engine_env(render_mode=None, **rules):
    """The AEC environment with its game played by the engine (never by the compiled module)."""
    env = rl.raw_env(render_mode=render_mode, **rules)
    env.game = Game(**rules)
    return env


@pytest.mark.parametrize("engine", [False, True], ids=["as-built", "engine"])
@pytest.mark.parametrize("variant", PLAIN)
def test_the_plain_path_gives_the_views_observations_and_masks_at_every_step(variant, engine):
    rules = {"variant": variant, "options": {"big_gin_bonus": 31}, "episode": "session", "max_hands": 4}
    env = engine_env(**rules) if engine else rl.raw_env(**rules)
    assert env.game.plain
    rnd = random.Random(variant)
    for seed in range(3):
        env.reset(seed=seed)
        while env.agents:
            obs, _, terminated, truncated, _ = env.last()
            for seat in AGENTS:
                o = env.observe(seat)
                expected_obs, expected_mask = general(env, seat)
                assert np.array_equal(o["observation"], expected_obs), (variant, seed, seat)
                assert np.array_equal(o["action_mask"], expected_mask), (variant, seed, seat)
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rnd.randrange(len(legal))]))


def test_big_gin_is_offered_where_the_rules_have_it():
    """A hand of eleven melded cards after the draw: id 107 in the mask, on
    the plain path and by the compiled module."""
    from gincli.rulebook.cards import parse_cards

    env = engine_env(options={"big_gin_bonus": 31})
    env.reset(seed=1)
    hand = env.game.hand
    seat = hand.to_act
    held = sum(1 << c for c in parse_cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js".split(), "cards"))
    hand.hands[seat] = held
    hand.phase, hand.taken = "discard", -1
    mask = env.observe(seat)["action_mask"]
    assert mask[rl.GIN] == 1 and np.array_equal(mask, general(env, seat)[1])
    if compiled is not None:
        assert compiled.choices(PHASE_INDEX["discard"], held, -1, 10, True, False, True, 20)[0] & MAY_GO_BIG_GIN


LOCKSTEP = [{}, {"variant": "oklahoma", "normalize": True}, {"variant": "gin-only"},
            {"options": {"big_gin_bonus": 31}, "episode": "session", "max_hands": 5}]


@needs_compiled
@pytest.mark.parametrize("rules", LOCKSTEP, ids=[str(r) for r in LOCKSTEP])
def test_the_compiled_aec_environment_is_the_engines_move_for_move(rules):
    """Two AEC environments, one played by the compiled module and one by the
    engine, given the same actions (an illegal one now and then): the same
    agents, observations, masks, rewards and info at every step, the same
    render, and the same hand read from the game, move for move and at its end."""
    fast, slow = rl.raw_env(render_mode="ansi", **rules), engine_env(render_mode="ansi", **rules)
    assert isinstance(fast.game, CompiledGame) and not isinstance(slow.game, CompiledGame)
    rnd = random.Random(str(rules))
    for seed in range(6):
        fast.reset(seed=seed)
        slow.reset(seed=seed)
        while slow.agents:
            assert fast.agents == slow.agents and fast.agent_selection == slow.agent_selection
            for agent in AGENTS:
                a, b = fast.observe(agent), slow.observe(agent)
                assert np.array_equal(a["observation"], b["observation"]) and np.array_equal(
                    a["action_mask"], b["action_mask"]), (seed, agent)
            assert (fast.rewards, fast._cumulative_rewards, fast.terminations, fast.truncations, fast.infos) == \
                (slow.rewards, slow._cumulative_rewards, slow.terminations, slow.truncations, slow.infos)
            obs, _, terminated, truncated, _ = slow.last()
            if terminated or truncated:
                assert fast.game.hand.to_dict() == slow.game.hand.to_dict()
                fast.step(None)
                slow.step(None)
                continue
            if rnd.random() < 0.1:
                assert fast.game.hand.to_dict() == slow.game.hand.to_dict() and fast.render() == slow.render()
                assert fast.game.legal()[1] == slow.game.legal()[1]
            ids = np.flatnonzero(obs["action_mask"] if rnd.random() > 0.003 else obs["action_mask"] == 0)
            action = int(ids[rnd.randrange(len(ids))])
            fast.step(action)
            slow.step(action)


# -- the compiled module against the Python code ---------------------------------------------



def _compiler() -> str | None:
    cc = (sysconfig.get_config_var("CC") or "").split()
    return shutil.which(cc[0]) if cc else None


def test_the_compiled_play_is_built_where_a_compiler_is():
    if _compiler() is None:
        return
    import gincli.rl._stdplay as built

    assert built.OBSERVATION_SIZE == OBSERVATION_SIZE and built.MAX_HAND_MOVES == MAX_HAND_MOVES
    assert (compiled is not None) == (os.environ.get("GINCLI_PURE", "") in ("", "0"))


def test_gincli_pure_turns_the_compiled_play_off(tmp_path):
    code = ("import gincli.rl as rl; from gincli.rl.compiled import STDPLAY; "
            "print(STDPLAY is None, rl.vector_env(2).compiled)")
    built = importlib.util.find_spec("gincli.rl._stdplay") is not None  # whatever GINCLI_PURE says here
    for pure, expected in (("1", ["True", "False"]), ("0", [str(not built), str(built)])):
        out = subprocess.run([sys.executable, "-c", code], env=dict(os.environ, GINCLI_PURE=pure),
                             capture_output=True, text=True, check=True, cwd=tmp_path).stdout
        assert out.split() == expected


hands = st.integers(0, (1 << 52) - 1)
cards = st.integers(0, 51)


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(phase=st.sampled_from(["offer", "draw", "discard", "over"]), held=hands, taken=st.integers(-1, 51),
       limit=st.integers(0, 40), big_gin=st.booleans(), must_draw=st.booleans(), pile=st.booleans(),
       stock=st.integers(0, 31), size=st.sampled_from([11, 10, 12]))
@example(phase="discard", held=0b111_0000000000_111_0000000000_111_0000000000_11, taken=-1, limit=0, big_gin=True,
         must_draw=False, pile=True, stock=10, size=11)
def test_compiled_choices_and_masks_are_the_rule_books(phase, held, taken, limit, big_gin, must_draw, pile, stock,
                                                       size):
    held = _cards(held, size)
    expected = standard_choices(phase, held, taken, limit, big_gin, must_draw, pile, stock, STANDARD)
    got = compiled.choices(PHASE_INDEX[phase], held, taken, limit, big_gin, must_draw, pile, stock)
    assert got == expected
    table = ActionTable()
    out = np.full(table.size, 7, np.int8)
    compiled.mask(out, *got)
    assert np.array_equal(out, table.mask_of_python(*expected))


def _cards(mask: int, size: int) -> int:
    """The lowest ``size`` cards of a random mask (a hand of that many cards, when it has them)."""
    out = 0
    while mask and out.bit_count() < size:
        low = mask & -mask
        out |= low
        mask ^= low
    return out


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(hand=hands, top=st.integers(-1, 51), on_pile=hands, took=hands, mine=hands, theirs=hands,
       passed=st.sampled_from([0, 1, 1 << 51]), phase=st.sampled_from([0, 1, 2, 3, 4]), limit=st.integers(0, 200),
       stock=st.integers(0, 31))
def test_compiled_observations_are_the_layouts(hand, top, on_pile, took, mine, theirs, passed, phase, limit, stock):
    out = np.full(OBSERVATION_SIZE, 9, np.float32)
    compiled.observe(out, hand, top, on_pile, took, mine, theirs, passed, phase, limit, stock)
    expected = encode_python(hand, top, on_pile, took, mine, theirs, passed, phase, limit, stock)
    assert out.tobytes() == expected.tobytes()


def held_to_the_python(module) -> None:
    """A build of the compiled module (``module``; tests/test_accel.py builds it with
    each compiler, with and without the plain C bit operations) answers as the
    Python code does: its choices and masks in every phase, its observations, and
    the games its ``Batch`` plays in a vector environment, move for move the
    engine's in the AEC environment."""
    rng = random.Random(2028)
    table = ActionTable()
    out = np.empty(table.size, np.int8)
    for _ in range(2_000):
        held = _cards(rng.getrandbits(52), rng.choice((10, 11, 11)))
        phase = rng.choice(("offer", "draw", "discard", "discard", "over"))
        taken, limit = rng.randrange(-1, 52), rng.randrange(12)
        table_state = (rng.random() < 0.5, rng.random() < 0.5, rng.random() < 0.5, rng.randrange(32))
        expected = standard_choices(phase, held, taken, limit, *table_state, STANDARD)
        got = module.choices(PHASE_INDEX[phase], held, taken, limit, *table_state)
        assert got == expected, (phase, held, taken, limit, table_state)
        module.mask(out, *got)
        assert np.array_equal(out, table.mask_of_python(*expected))
        obs = np.empty(OBSERVATION_SIZE, np.float32)
        masks = [rng.getrandbits(52) for _ in range(4)]  # on the pile, taken, discarded by each seat
        top = rng.randrange(-1, 52)
        module.observe(obs, held, top, *masks, 1 << 7, PHASE_INDEX[phase], limit, 17)
        assert obs.tobytes() == encode_python(held, top, *masks, 1 << 7, PHASE_INDEX[phase], limit, 17).tobytes()
    from gincli.rl import compiled_game, vector

    with mock.patch.object(compiled_game, "STDPLAY", module), mock.patch.object(vector, "STDPLAY", module):
        venv = rl.vector_env(3, options={"big_gin_bonus": 31})  # its hands played by this build, whatever is installed
        assert venv.compiled
        stories = play_vector(venv, 40, 400, random_actions(rng, illegal=0.01))
    for i, story in enumerate(stories):
        replay_in_aec(story, 40 + i, options={"big_gin_bonus": 31})


# -- the vector environment, game by game ------------------------------------------------------

def random_actions(rng: random.Random, illegal: float = 0.0):
    """A chooser: a legal id of each row, drawn uniformly; now and then (``illegal``) one the mask does not allow."""
    def choose(masks: np.ndarray, step: int) -> list[int]:
        out = []
        for mask in masks:
            ids = np.flatnonzero(mask) if rng.random() >= illegal else np.flatnonzero(mask == 0)
            out.append(int(ids[rng.randrange(len(ids))]))
        return out
    return choose


def play_vector(venv, seed: int, steps: int, choose) -> list[list[tuple]]:
    """Each game's story through the vector environment, its actions chosen by
    ``choose(masks, step)``: every step's seat, observation, mask and action,
    then its rewards, ends and what info told."""
    obs, info = venv.reset(seed=seed)
    stories: list[list[tuple]] = [[] for _ in range(venv.num_envs)]
    for step in range(steps):
        actions = choose(obs["action_mask"], step)
        before = obs, info["to_act"]
        obs, rewards, terminated, truncated, info = venv.step(actions)
        for i, story in enumerate(stories):
            hand_over = info["hand_over"][i] if "hand_over" in info else None
            final = info["final_obs"][i] if "final_obs" in info else None
            story.append((int(before[1][i]), before[0]["observation"][i], before[0]["action_mask"][i], actions[i],
                          tuple(rewards[i]), bool(terminated[i]), bool(truncated[i]), hand_over, final))
    return stories


def replay_in_aec(story: list[tuple], seed: int, env_of=None, **rules) -> None:
    """The AEC environment (played by the engine unless ``env_of`` makes it), dealt from ``seed`` and given the
    same actions, tells the same story."""
    env = (env_of or engine_env)(**rules)
    env.reset(seed=seed)
    for step, (seat, obs, mask, action, rewards, terminated, truncated, hand_over, final) in enumerate(story):
        agent = env.agent_selection
        assert AGENTS.index(agent) == seat, step
        seen = env.observe(agent)
        assert np.array_equal(seen["observation"], obs), step
        assert np.array_equal(seen["action_mask"], mask), step
        env.step(action)
        assert (env.rewards[AGENTS[0]], env.rewards[AGENTS[1]]) == rewards, step
        if hand_over is not None:
            assert env.infos == {a: hand_over for a in AGENTS}, step
        assert (all(env.terminations.values()), all(env.truncations.values())) == (terminated, truncated), step
        if terminated or truncated:
            for s, a in enumerate(AGENTS):
                assert np.array_equal(env.observe(a)["observation"], final[s]), step
            env.reset()  # the next episode: the seeds after the first, as the vector environment deals it
        else:
            assert final is None


CASES = [({}, 3, 300), ({"variant": "oklahoma"}, 4, 300), ({"variant": "gin-only"}, 3, 400),
         ({"options": {"big_gin_bonus": 31}, "normalize": True}, 3, 300),
         ({"episode": "session", "max_hands": 3}, 3, 500), ({"variant": "round-the-corner"}, 2, 250),
         ({"variant": "doubling", "episode": "session", "max_hands": 2}, 2, 300)]


@pytest.mark.parametrize("forced", [False, True], ids=["as-built", "engine"])
@pytest.mark.parametrize(("rules", "n", "steps"), CASES, ids=[str(c[0]) for c in CASES])
def test_each_game_of_the_vector_environment_is_the_aec_environments(rules, n, steps, forced):
    """Game ``i`` from seed S is the AEC environment's from seed S + i, move for
    move, episode after episode, forfeits included: played by the compiled
    module where the rules allow it, and (``engine``) by the engine."""
    venv = rl.vector_env(n, **rules)
    plain = rules.get("variant", "standard") in ("standard", "oklahoma", "gin-only")
    assert venv.compiled == (compiled is not None and plain)
    if forced:
        venv = _engine_only(venv)
    stories = play_vector(venv, 100, steps, random_actions(random.Random(str(rules)), illegal=0.01))
    for i, story in enumerate(stories):
        replay_in_aec(story, 100 + i, **rules)
    ends = sum(s[5] or s[6] for story in stories for s in story)
    assert ends >= n  # every game went through an episode's end at least


def _engine_only(venv):
    """The vector environment with its games played by the engine (the path without the compiled module)."""
    venv.compiled, venv._batch = False, None
    return venv


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, (1 << 64) - 3), picks=st.lists(st.integers(0, 1 << 20), min_size=1, max_size=300),
       illegal=st.sets(st.integers(0, 299), max_size=2))
def test_hypothesis_games_of_the_vector_environment_are_the_aec_environments(seed, picks, illegal):
    """Any seed, any choice of the legal ids, an illegal one now and then."""
    def choose(masks: np.ndarray, step: int) -> list[int]:
        pick = picks[step % len(picks)]
        rows = (np.flatnonzero((m == 0) if step in illegal else m) for m in masks)
        return [int(ids[pick % len(ids)]) for ids in rows]

    stories = play_vector(rl.vector_env(2), seed, len(picks), choose)
    for i, story in enumerate(stories):
        replay_in_aec(story, seed + i)
        replay_in_aec(story, seed + i, env_of=rl.raw_env)


def test_a_hand_that_never_ends_is_stopped_at_the_move_cap_in_the_vector_environment_too():
    """Both seats take each other's discards for ever: the hand is dead at
    MAX_HAND_MOVES moves, the episode truncated, as in the AEC environment."""
    rng = random.Random(5)

    def taker(masks: np.ndarray, step: int) -> list[int]:
        out = []
        for mask in masks:
            discards = [i for i in np.flatnonzero(mask) if rl.DISCARD <= i < rl.KNOCK]
            out.append(rl.TAKE if mask[rl.TAKE] else int(rng.choice(discards)) if discards else
                       int(np.flatnonzero(mask)[0]))
        return out

    stories = play_vector(rl.vector_env(2), 7, MAX_HAND_MOVES + 5, taker)
    for i, story in enumerate(stories):
        assert [s[6] for s in story].index(True) == MAX_HAND_MOVES - 1
        assert story[MAX_HAND_MOVES - 1][7]["result"]["outcome"] == "dead"
        replay_in_aec(story, 7 + i)
        replay_in_aec(story, 7 + i, env_of=rl.raw_env)  # the AEC environment as built, compiled where it can be


def test_the_vector_environments_faults_are_one_sentence_and_play_nothing():
    with pytest.raises(UsageError, match="n, the number of games, is a whole number of 1 or more, not 0"):
        rl.vector_env(0)
    venv = rl.vector_env(3)
    with pytest.raises(UsageError, match="call reset"):
        venv.step([0, 0, 0])
    obs, info = venv.reset(seed=1)
    legal = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    for wrong, words in (([0, 0], "the actions are 3 action ids"), ([0.5, 0, 0], "the actions are 3 action ids"),
                         ([0, 111, 0], "an action is an id from 0 to 110, not 111 \\(game 1\\)"),
                         ([[0, 0, 0]], "not an array of shape \\(1, 3\\)|the actions are 3")):
        with pytest.raises(UsageError, match=words):
            venv.step(wrong)
    again, *_ = venv.step(legal)  # nothing was played by the wrong ones
    twin = rl.vector_env(3)
    twin.reset(seed=1)
    assert np.array_equal(twin.step(legal)[0]["observation"], again["observation"])
    with pytest.raises(UsageError, match="seed: 18446744073709551614 is not between 0 and 18446744073709551613"):
        venv.reset(seed=(1 << 64) - 2)
