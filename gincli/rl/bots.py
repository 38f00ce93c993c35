"""A policy over the environments' observations, as a bot: :func:`policy_bot`
wraps ``policy(observation, action_mask) -> action id`` into a
:class:`gincli.Bot` class, which plays in :func:`gincli.play_match` (an
instance of it) and in ``gin match`` and ``gin tournament`` (registered by a
plugin through ``gincli_register_bots``), rated beside ``master`` and external
programs. It sees what the environments show a seat, built from its view
alone, and its moves are checked as any bot's: an id that is not legal, or an
exception the policy raises, forfeits the hand with the reason."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..base.errors import UsageError, quote, shorten
from ..hand.bots import Bot, BotError
from ..hand.moves import Move
from ..hand.view import PlayerView
from ..rulebook.rng import SplitMix64
from .actions import ActionTable
from .observe import Encoder

#: A policy: the observation (``float32``) and the action mask (``int8``) in, an action id out.
Policy = Callable[[np.ndarray, np.ndarray], Any]


def policy_bot(policy: Policy, name: str = "policy", description: str = "") -> type[Bot]:
    """A bot class whose moves ``policy`` chooses; ``name`` is its name in ``gin
    match --bots`` and in summaries. Make one with no arguments to hand to
    :func:`gincli.play_match` (``policy_bot(fn)()``); register the class itself
    in a plugin's ``gincli_register_bots``."""
    if not callable(policy):
        raise UsageError(f"policy_bot takes a callable (observation, action_mask) -> action id, not {quote(policy)}")
    if not isinstance(name, str) or not name or any(ch.isspace() or ch in ",:" for ch in name):
        raise UsageError(f"a bot's name is one word without commas or colons, not {quote(name)}")

    called = getattr(policy, "__name__", type(policy).__name__)

    class PolicyBot(Bot):
        """A bot whose moves a policy over gincli.rl's observations chooses."""

        def __init__(self, rng: SplitMix64 | None = None, seat: str = ""):
            super().__init__(rng if rng is not None else SplitMix64(0), seat)
            self._tables: dict[int, tuple[Any, ActionTable, Encoder]] = {}

        def choose(self, view: PlayerView) -> Move:
            found = self._tables.get(id(view.rules))
            if found is None or found[0] is not view.rules:
                movesets = tuple(getattr(view.rules, "movesets", ()))
                found = self._tables[id(view.rules)] = (view.rules, ActionTable(movesets), Encoder(movesets))
            _, table, encoder = found
            mask, by_id = table.legal(view.legal())
            try:
                action = policy(encoder.observation(view), mask)
            except Exception as exc:
                raise BotError(f"the policy {name} raised {type(exc).__name__}: {shorten(str(exc))}") from None
            move = None
            if isinstance(action, (int, np.integer)) and not isinstance(action, bool):
                move = by_id.get(int(action))
            if move is None:
                what = (f" ({table.describe(int(action))})" if isinstance(action, (int, np.integer))
                        and not isinstance(action, bool) else "")
                raise BotError(f"the policy {name} chose {quote(action)}{what}, which is not a legal action now")
            return move

    PolicyBot.name = name
    PolicyBot.description = description or f"a policy over gincli.rl's observations: {called}"
    PolicyBot.__qualname__ = PolicyBot.__name__ = f"PolicyBot_{name}"
    return PolicyBot
