"""Many games at once, for batch training: :func:`vector_env` steps ``n``
games of the AEC environment's rules together, one action each a step, and
gives their observations, masks and rewards as numpy arrays of ``n`` rows.

Game ``i`` is what :func:`gincli.rl.env` plays from the seed ``seed + i``,
episode after episode (a game that ends is dealt its next episode at once, as
``reset()`` without a seed deals it), with the same observations, masks,
rewards and info, move for move: row ``i`` holds what the seat to act in it
observes, as ``env.last()`` gives it.

Under the rule book's own rules (no move set in play, the standard melds) the
hands are played by the compiled module (:mod:`.compiled`), all ``n`` in one
call a step, and scored at their end by gincli's scoring; under any others, or
where it was not built, each game is played by the engine, as the AEC
environment plays it. tests/test_rl_fast.py holds the two to each other and to
the AEC environment, game by game."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium.vector.utils import batch_space

from ..base.arguments import SEED_MAX
from ..base.errors import UsageError, quote
from .aec import spaces_of
from .compiled import STDPLAY
from .compiled_game import compiled, compiled_result
from .game import AGENTS, Game, check_seed
from .observe import OBSERVATION_SIZE

#: What a step gives: observations and masks, each seat's rewards, the ends, the info.
Step = tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]


def vector_env(n: int, variant: str = "standard", scoring: str = "game",
               options: Mapping[str, Any] | Sequence[str] | None = None, episode: str = "hand",
               normalize: bool = False, max_hands: int = 10_000) -> GinRummyVectorEnv:
    """``n`` games side by side (:class:`GinRummyVectorEnv`); the other
    arguments are :func:`gincli.rl.env`'s."""
    return GinRummyVectorEnv(n, variant, scoring, options, episode, normalize, max_hands)


class GinRummyVectorEnv:
    """``n`` games played together, both seats of each by the one caller.

    ``reset(seed=S)`` deals game ``i`` as ``env.reset(seed=S + i)`` does and
    returns ``(observations, info)``; ``step(actions)``, one action id a game,
    plays each game's seat to act and returns ``(observations, rewards,
    terminated, truncated, info)``:

    - ``observations["observation"]``, ``(n, 381)`` ``float32``, and
      ``observations["action_mask"]``, ``(n, actions)`` ``int8``: what the
      seat to act in each game observes, new arrays each call;
    - ``rewards``, ``(n, 2)``: each seat's reward for the step (``player_0``'s,
      ``player_1``'s), zero-sum;
    - ``terminated``, ``truncated``, ``(n,)`` ``bool``: the games whose
      episode ended with this step; each is dealt its next episode at once, and
      its row holds that episode's first position;
    - ``info["to_act"]``, ``(n,)``: the seat whose observation each row is (0
      for ``player_0``, 1 for ``player_1``). Where a hand ended, the AEC
      environment's info of that step (``result``, ``hands``; ``session`` at a
      session's end) is in ``info["hand_over"][i]``; where an episode ended,
      both seats' last observations (``(2, 381)``, ``player_0``'s first) are in
      ``info["final_obs"][i]``: arrays of ``n`` objects, ``None`` elsewhere,
      with the boolean masks ``info["_hand_over"]`` and ``info["_final_obs"]``,
      present when some game has one.

    An id a game's mask does not allow forfeits that game's hand, as in the
    AEC environment; actions that are not ``n`` action ids are a
    :class:`UsageError` and play nothing."""

    metadata: dict[str, Any] = {"autoreset_mode": "SameStep"}

    def __init__(self, n: int, variant: str = "standard", scoring: str = "game",
                 options: Mapping[str, Any] | Sequence[str] | None = None, episode: str = "hand",
                 normalize: bool = False, max_hands: int = 10_000):
        if type(n) is not int or n < 1:
            raise UsageError(f"n, the number of games, is a whole number of 1 or more, not {quote(n)}")
        self.games = [Game(variant, scoring, options, episode, normalize, max_hands) for _ in range(n)]
        first = self.games[0]
        self.num_envs = n
        self.possible_agents = list(AGENTS)
        self.single_action_space, self.single_observation_space = spaces_of(first)
        self.action_space = batch_space(self.single_action_space, n)
        self.observation_space = batch_space(self.single_observation_space, n)
        self.size = first.actions.size
        #: Whether the compiled module plays the hands (the rule book's own rules, where it was built).
        self.compiled = compiled(first)
        self._batch = STDPLAY.Batch(n, self.size) if self.compiled else None  # type: ignore[union-attr]
        self._dealt = False

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> \
            tuple[dict[str, np.ndarray], dict[str, Any]]:
        """Deal every game a new episode: game ``i`` from ``seed + i``, else
        each from the seeds after its last one (random ones at first)."""
        seed = check_seed(seed)
        n = self.num_envs
        if seed is not None and seed + n - 1 > SEED_MAX:
            raise UsageError(f"seed: {seed} is not between 0 and {SEED_MAX - n + 1} (game i is dealt from seed + i, "
                             f"{n} games)")
        obs = np.empty((n, OBSERVATION_SIZE), np.float32)
        masks = np.empty((n, self.size), np.int8)
        to_act = np.empty(n, np.int8)
        for i, game in enumerate(self.games):
            game.start(None if seed is None else seed + i)
            to_act[i] = self._first(i, obs, masks)
        self._dealt = True
        return {"observation": obs, "action_mask": masks}, {"to_act": to_act}

    def step(self, actions: Any) -> Step:
        if not self._dealt:
            raise UsageError("call reset() before the first step")
        played = self._checked(actions)
        n = self.num_envs
        obs = np.empty((n, OBSERVATION_SIZE), np.float32)
        masks = np.empty((n, self.size), np.int8)
        to_act = np.empty(n, np.int8)
        rewards = np.zeros((n, 2))
        terminated = np.zeros(n, bool)
        truncated = np.zeros(n, bool)
        info: dict[str, Any] = {"to_act": to_act}
        if self._batch is not None:
            ended = np.empty(n, np.int8)
            count = self._batch.step(played, obs, masks, to_act, ended)
            if count < 0:  # an action out of the table: nothing was played
                self._no_id(played)
            if count:
                for i in np.flatnonzero(ended).tolist():
                    self._hand_over(i, self._compiled_result(i), obs, masks, rewards, terminated, truncated, info)
        else:
            self._no_id(played)
            for i, game in enumerate(self.games):
                result = game.play(played[i])
                if result[1] is not None:
                    self._hand_over(i, result, obs, masks, rewards, terminated, truncated, info)
                else:
                    to_act[i] = self._first(i, obs, masks)
        return {"observation": obs, "action_mask": masks}, rewards, terminated, truncated, info

    def close(self) -> None:
        pass

    def _checked(self, actions: Any) -> np.ndarray:
        """The actions as ``int64``, ``n`` integers: else a :class:`UsageError`
        (whether each is an id of the table is checked before anything is played)."""
        n = self.num_envs
        played = actions if type(actions) is np.ndarray else np.asarray(actions)
        if played.shape != (n,) or played.dtype.kind not in "iu":
            raise UsageError(f"the actions are {n} action ids, one a game (integers, shape ({n},)), not "
                             f"{quote(actions) if played.size <= 8 else f'an array of shape {played.shape}'}")
        if played.dtype != np.int64 or not played.flags.c_contiguous:
            return np.ascontiguousarray(self._no_id(played), np.int64)
        return played

    def _no_id(self, actions: np.ndarray) -> Any:
        """A :class:`UsageError` for the first action that is no id of the table, if one is not."""
        wrong = np.flatnonzero((actions < 0) | (actions >= self.size))
        if len(wrong):
            raise UsageError(f"an action is an id from 0 to {self.size - 1}, not {quote(actions[wrong[0]].item())} "
                             f"(game {wrong[0]})")
        return actions

    def _first(self, i: int, obs: np.ndarray, masks: np.ndarray) -> int:
        """Game ``i``'s seat to act, its observation and mask into row ``i``; the
        hand just dealt goes to the compiled module first."""
        game = self.games[i]
        hand = game.hand
        assert hand is not None
        if self._batch is not None:
            assert hand.stock is not None
            return self._batch.deal(i, hand.hands[AGENTS[0]], hand.hands[AGENTS[1]], hand.upcard, bytes(hand.stock),
                                    AGENTS.index(hand.dealer), hand.limit, game.big_gin, obs[i], masks[i])
        seat = game.to_act
        seen = game.observe(seat)
        obs[i] = seen["observation"]
        masks[i] = seen["action_mask"]
        return AGENTS.index(seat)

    def _compiled_result(self, i: int) -> tuple[dict[str, float], dict[str, Any]]:
        """Game ``i``'s hand ended in the compiled module: scored, entered."""
        assert self._batch is not None
        game = self.games[i]
        ending = self._batch.ending(i)
        return game.settle(compiled_result(game, ending), ending[2] == STDPLAY.STALLED)  # type: ignore[union-attr]

    def _hand_over(self, i: int, outcome: tuple[dict[str, float], dict[str, Any] | None], obs: np.ndarray,
                   masks: np.ndarray, rewards: np.ndarray, terminated: np.ndarray, truncated: np.ndarray,
                   info: dict[str, Any]) -> None:
        """Game ``i``'s hand ended: its rewards and info; at its episode's end,
        the last observations and the next episode; its row."""
        n = self.num_envs
        game = self.games[i]
        reward, told = outcome
        rewards[i] = reward[AGENTS[0]], reward[AGENTS[1]]
        if "hand_over" not in info:
            info["hand_over"], info["_hand_over"] = np.full(n, None, object), np.zeros(n, bool)
        info["hand_over"][i], info["_hand_over"][i] = told, True
        if game.done is not None:
            last = np.empty((2, OBSERVATION_SIZE), np.float32)
            for seat, agent in enumerate(AGENTS):
                if self._batch is not None:
                    self._batch.observe(i, seat, last[seat])
                else:
                    last[seat] = game.observe(agent)["observation"]
            if "final_obs" not in info:
                info["final_obs"], info["_final_obs"] = np.full(n, None, object), np.zeros(n, bool)
            info["final_obs"][i], info["_final_obs"][i] = last, True
            terminated[i] = game.done == "terminated"
            truncated[i] = game.done == "truncated"
            game.start(None)
        info["to_act"][i] = self._first(i, obs, masks)
