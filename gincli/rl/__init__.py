"""Environments for reinforcement learning (docs/rl.md): gin rummy as a
PettingZoo AEC environment (:func:`env`, :class:`raw_env`), as a Gymnasium
environment against a bot (``gymnasium.make("gincli/GinRummy-v0",
opponent=...)``, registered when this package is imported), the fixed table of
action ids (:mod:`.actions`), the observation a seat gets (:mod:`.observe`),
many games a step as numpy arrays for batch training (:func:`vector_env`),
and :func:`policy_bot`, which makes a policy over those observations a bot of
``gin match`` and :func:`gincli.play_match`.

A face beside the command line and the Python API, in the layer below them:
it may import every layer up to the plugin layer and the replay (the rule
book, the hand, the sessions, the matches' bots, the registry), never
gincli.cli or gincli.api. It needs numpy,
PettingZoo and Gymnasium, the extra ``gincli[rl]``; ``import gincli`` never
loads them."""

try:
    import gymnasium as _gymnasium
    import numpy as _numpy  # noqa: F401
    import pettingzoo as _pettingzoo  # noqa: F401
except ImportError as _failed:
    from importlib.util import find_spec as _find_spec

    _absent = []
    for _name in ("numpy", "pettingzoo", "gymnasium"):  # each looked for, so that the sentence names them all
        try:
            if _find_spec(_name) is None:
                _absent.append(_name)
        except ValueError:  # set aside in sys.modules
            _absent.append(_name)
    _absent = _absent or [str(_failed.name)]  # installed, but it does not import: the one that failed
    raise ImportError(f"gincli.rl needs numpy, pettingzoo and gymnasium ({' and '.join(_absent)} "
                      f"{'is' if len(_absent) == 1 else 'are'} not installed): pip install 'gincli[rl]'") from None

from .actions import ACCEPT, DECLINE, DISCARD, DOUBLE, FIXED_ACTIONS, GIN, KNOCK, PASS, STOCK, TAKE, ActionTable
from .aec import env, raw_env
from .bots import policy_bot
from .observe import OBSERVATION_SIZE, PHASES, PLANES, REWARD_SCALE, Encoder
from .single import GinRummyEnv
from .vector import GinRummyVectorEnv, vector_env

#: The Gymnasium id of the one-seat environment (:class:`GinRummyEnv`).
ENV_ID = "gincli/GinRummy-v0"

if ENV_ID not in _gymnasium.registry:
    _gymnasium.register(id=ENV_ID, entry_point="gincli.rl.single:GinRummyEnv")

__all__ = ["ENV_ID", "ACCEPT", "DECLINE", "DISCARD", "DOUBLE", "FIXED_ACTIONS", "GIN", "KNOCK", "PASS", "STOCK",
           "TAKE", "ActionTable", "env", "raw_env", "policy_bot", "OBSERVATION_SIZE", "PHASES", "PLANES",
           "REWARD_SCALE", "Encoder", "GinRummyEnv", "GinRummyVectorEnv", "vector_env"]
