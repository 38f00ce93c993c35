"""One seat against a bot, as a Gymnasium environment:
``gymnasium.make("gincli/GinRummy-v0", opponent="expert")`` once
:mod:`gincli.rl` is imported. The opponent is anything ``gin match --bots``
takes (a bot's name with its parameters, ``exec:COMMAND``, a named bot of
the configuration folder's bots file) or a Python bot object as
:func:`gincli.play_match` takes it (a :class:`gincli.Bot` instance, or a
callable ``(view, legal) -> move``); it plays as in a match: a seeded
generator of its own, its failures forfeiting the hand with the reason."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium

from ..base.errors import UsageError, quote
from ..hand.bots import Bot
from ..hand.engine import Hand
from ..matches.external import close_all, configure, is_external
from ..matches.external.protocol import DEFAULT_START_TIME_LIMIT, DEFAULT_TIME_LIMIT
from ..matches.pybots import bot_factory, label_of
from ..rulebook.rng import SplitMix64
from .aec import spaces_of
from .game import AGENTS, Game, registry

#: Episodes in a row that may end before the learner's first move (its opponent
#: forfeiting at once) before ``reset`` says so, as ``gin match --max-forfeits`` does.
MAX_EMPTY_EPISODES = 10


class GinRummyEnv(gymnasium.Env):
    """The seat ``seat`` (``player_0`` by default) is the learner; ``opponent``
    plays the other. Spaces, rewards and ``info`` are the AEC environment's
    (:class:`gincli.rl.raw_env`), for the learner's seat: a step plays the
    learner's action, then the opponent's moves until the learner is to act
    again or the episode is over; its reward is what the learner won or lost
    meanwhile. ``time_limit``, ``start_time_limit`` and ``bot_log`` are ``gin
    match``'s, for an ``exec:`` opponent."""

    metadata = {"render_modes": ["human", "ansi"], "render_fps": 4}

    def __init__(self, opponent: Any = "random", variant: str = "standard", scoring: str = "game",
                 options: Mapping[str, Any] | Sequence[str] | None = None, episode: str = "hand",
                 normalize: bool = False, max_hands: int = 10_000, seat: str = AGENTS[0],
                 render_mode: str | None = None, time_limit: float = DEFAULT_TIME_LIMIT,
                 start_time_limit: float = DEFAULT_START_TIME_LIMIT, bot_log: str | None = None):
        if seat not in AGENTS:
            raise UsageError(f"seat is {' or '.join(AGENTS)}, not {quote(seat)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise UsageError(f"render_mode is None, \"human\" or \"ansi\", not {quote(render_mode)}")
        self.game = Game(variant, scoring, options, episode, normalize, max_hands)
        self.seat = seat
        self.other = AGENTS[1] if seat == AGENTS[0] else AGENTS[0]
        self.render_mode = render_mode
        self.action_space, self.observation_space = spaces_of(self.game)
        if isinstance(opponent, str):
            self._factory = registry().bot(opponent)
            configure(self._factory, time_limit, start_time_limit, bot_log)
            self.opponent_name = opponent
        elif isinstance(opponent, Bot) or callable(opponent):
            self.opponent_name = label_of(opponent)
            self._factory = bot_factory(opponent, self.opponent_name)
        else:
            raise UsageError(f"the opponent is {quote(opponent)}: give a bot's name, exec:COMMAND, a gincli.Bot or "
                             "a callable (view, legal) -> move")
        self._external = is_external(self._factory)
        self._bot: Bot | None = None
        self.game.on_hand = self._hand_over

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Any, dict]:
        super().reset(seed=seed)
        info: dict[str, Any] = {}
        for _ in range(MAX_EMPTY_EPISODES):
            self._close_bot()
            self.game.start(seed)
            seed = None  # the episodes an opponent's forfeits skip over come from the seeds after it
            index = AGENTS.index(self.other)
            assert self.game.seed is not None
            self._bot = self._factory(SplitMix64(self.game.seed).derive(1 + index), self.other)
            self._bot.players = AGENTS
            _, info = self._opponent_moves()
            if self.game.done is None:
                break
        else:
            reason = (info.get("result") or {}).get("forfeit") or {}
            raise UsageError(f"the opponent {self.opponent_name} ended {MAX_EMPTY_EPISODES} episodes in a row "
                             f"before {self.seat} could move (the last: {reason.get('reason', 'no reason given')})")
        if self.render_mode == "human":
            self.render()
        return self.game.observe(self.seat), info

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict]:
        game = self.game
        if game.done is not None or game.hand is None:
            raise UsageError("the episode is over: call reset() before the next step")
        rewards, info = game.play(action)
        reward = rewards[self.seat]
        more, later = self._opponent_moves()
        reward += more
        info = later or info or {}
        if self.render_mode == "human":
            self.render()
        return (game.observe(self.seat), float(reward), game.done == "terminated", game.done == "truncated",
                info)

    def _opponent_moves(self) -> tuple[float, dict[str, Any]]:
        """The opponent plays until the learner is to act or the episode is over."""
        game = self.game
        total = 0.0
        info: dict[str, Any] = {}
        while game.done is None and game.to_act != self.seat:
            rewards, ended = game.bot_turn(self._choose)
            total += rewards[self.seat]
            if ended is not None:
                info = ended
        return total, info

    def _choose(self, hand: Hand) -> Any:
        assert self._bot is not None
        return self._bot.choose(hand.view(hand.to_act))

    def _hand_over(self, hand: Hand, result: Any) -> None:
        bot = self._bot
        if bot is not None and type(bot).hand_over is not Bot.hand_over:
            bot.hand_over(hand.view(self.other), result.to_dict())

    def _close_bot(self) -> None:
        if self._bot is not None:
            bot, self._bot = self._bot, None
            bot.close()

    def render(self) -> str | None:
        return self.game.render_as(self.render_mode)

    def close(self) -> None:
        self._close_bot()
        if self._external:
            close_all()
        super().close()
