"""gincli.rl's fast paths give the numbers of its general one: with no move
set in play the environments read masks and observations straight from the
hand (no view, no move a legal id), and they are, step by step, what the
seat's view gives through ``PlayerView.legal()`` and ``Encoder.observation``."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("numpy")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import numpy as np  # noqa: E402

import gincli.rl as rl  # noqa: E402

PLAIN = ("standard", "oklahoma", "gin-only", "round-the-corner")


def general(env, agent):
    """``agent``'s observation and mask as the general path makes them, from its view."""
    game = env.game
    view = game.hand.view(agent)
    acting = game.done is None and agent == game.hand.to_act
    mask = game.actions.legal(view.legal())[0] if acting else np.zeros(game.actions.size, np.int8)
    return game.encoder.observation(view), mask


@pytest.mark.parametrize("variant", PLAIN)
def test_the_plain_path_gives_the_views_observations_and_masks_at_every_step(variant):
    env = rl.raw_env(variant=variant, options={"big_gin_bonus": 31}, episode="session", max_hands=4)
    assert env.game.plain
    rnd = random.Random(variant)
    for seed in range(3):
        env.reset(seed=seed)
        while env.agents:
            obs, _, terminated, truncated, _ = env.last()
            for seat in ("player_0", "player_1"):
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
    """A hand of eleven melded cards after the draw: id 107 in the mask, on the plain path too."""
    from gincli.rulebook.cards import parse_cards

    env = rl.raw_env(options={"big_gin_bonus": 31})
    env.reset(seed=1)
    hand = env.game.hand
    seat = hand.to_act
    hand.hands[seat] = sum(1 << c for c in parse_cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js".split(), "cards"))
    hand.phase, hand.taken = "discard", -1
    env.game._mask = None
    mask = env.observe(seat)["action_mask"]
    assert mask[rl.GIN] == 1 and np.array_equal(mask, general(env, seat)[1])
