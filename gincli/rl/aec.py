"""Gin rummy as a PettingZoo AEC environment, laid out as PettingZoo's classic
environments are (``env()`` wraps ``raw_env()``; each agent's observation is a
dict of ``observation`` and ``action_mask``; the seed goes through
``reset``). Every variant, scoring system and move set gincli knows plays
here, doubling's offers included: the rules are the engine's own."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import EzPickle
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from .compiled_game import new_game
from .game import AGENTS, Game
from .observe import OBSERVATION_SIZE


def spaces_of(game: Game) -> tuple[spaces.Discrete, spaces.Dict]:
    """The action space (one id a move: :mod:`.actions`) and the observation space of a game's rules."""
    action = spaces.Discrete(game.actions.size)
    observation = spaces.Dict({
        "observation": spaces.Box(low=0.0, high=1.0, shape=(OBSERVATION_SIZE,), dtype=np.float32),
        "action_mask": spaces.Box(low=0, high=1, shape=(game.actions.size,), dtype=np.int8),
    })
    return action, observation


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's order check (``reset`` before ``step``):
    ``gincli.rl.env(variant="oklahoma", scoring="game", options=None,
    episode="hand", normalize=False, render_mode=None)``."""
    return Ordered(raw_env(**kwargs))


class Ordered(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order check, with what a step reads handed straight to the
    environment: the wrapper's own goes through its attribute lookup (twice
    for ``agent_iter``'s next agent, once for ``step``, six times for ``last``)."""

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self.env.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.agent_selection

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.last(observe)


class raw_env(AECEnv, EzPickle):
    """Two agents, ``player_0`` and ``player_1``, who deal, draw, discard, knock
    (and double) as the rules say, one action id a move. The episode is one
    hand (``episode="hand"``) or the scoring system's whole session
    (``"session"``); the rewards are the points as scored, zero-sum, divided by
    :data:`~gincli.rl.observe.REWARD_SCALE` with ``normalize=True``. When a hand
    ends, ``infos[agent]["result"]`` is its score result (as ``gin score``
    writes it) and, at a session's end, ``infos[agent]["session"]`` the
    session's. An id the mask does not allow forfeits the hand for that agent.
    ``reset(options=...)`` takes nothing: the rules are given here."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "name": "gincli_gin_rummy_v0",
                                "is_parallelizable": False, "render_fps": 4}

    def __init__(self, variant: str = "standard", scoring: str = "game",
                 options: Mapping[str, Any] | Sequence[str] | None = None, episode: str = "hand",
                 normalize: bool = False, max_hands: int = 10_000, render_mode: str | None = None):
        EzPickle.__init__(self, variant, scoring, options, episode, normalize, max_hands, render_mode)
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            from ..base.errors import UsageError, quote

            raise UsageError(f"render_mode is None, \"human\" or \"ansi\", not {quote(render_mode)}")
        self.game = new_game(variant, scoring, options, episode, normalize, max_hands)
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents = list(AGENTS)
        built = {a: spaces_of(self.game) for a in AGENTS}  # each agent's own objects, seeded apart
        self.action_spaces = {a: built[a][0] for a in AGENTS}
        self.observation_spaces = {a: built[a][1] for a in AGENTS}

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self.game.start(seed)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in AGENTS}
        self.agent_selection = self.game.to_act
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        return self.game.observe(agent)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        rewards, info = self.game.play(action)
        self.rewards = rewards
        if info is not None:
            self.infos = {a: dict(info) for a in AGENTS}
        done = self.game.done
        if done is None:
            self.agent_selection = self.game.to_act
        else:
            ended = dict.fromkeys(AGENTS, True)
            if done == "terminated":
                self.terminations = ended
            else:
                self.truncations = ended
            self.agent_selection = AGENTS[1] if agent == AGENTS[0] else AGENTS[0]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        return self.game.render_as(self.render_mode)

    def close(self) -> None:
        pass
