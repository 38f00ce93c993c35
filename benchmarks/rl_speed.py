"""Random masked play, hands a second: gincli's PettingZoo AEC environment
(``gincli.rl.env()``, wrappers and all, observations and masks built every
step) against RLCard's gin-rummy environment, side by side, several runs of
each in turn, min-max. The target is 10 times RLCard's.

    python benchmarks/rl_speed.py [--runs 5] [--seconds 3]

Both play the same policy: at every step, one of the legal actions drawn
uniformly (from the action mask, from RLCard's ``legal_actions``), standard
rules, one hand an episode. RLCard is not a dependency of gincli: install it
in the same environment for this benchmark alone (``pip install rlcard``);
without it, gincli's figures alone are printed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
from common import table

HEADER = ("environment", "runs", "hands/s min", "hands/s max", "steps/hand")
TARGET = 10.0


def gincli_run(seconds: float, seed: int) -> tuple[int, int, float]:
    import gincli.rl

    env = gincli.rl.env()
    rnd = random.Random(seed)
    hands = steps = 0
    flat = np.flatnonzero
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset(seed=seed + hands)
        for _agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = flat(obs["action_mask"])
            env.step(int(legal[int(rnd.random() * len(legal))]))
            steps += 1
        hands += 1
    return hands, steps, time.perf_counter() - start


def rlcard_run(seconds: float, seed: int) -> tuple[int, int, float]:
    import rlcard

    env = rlcard.make("gin-rummy", config={"seed": seed})
    rnd = random.Random(seed)
    hands = steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, _ = env.reset()
        while not env.is_over():
            legal = list(state["legal_actions"])
            state, _ = env.step(legal[int(rnd.random() * len(legal))])
            steps += 1
        hands += 1
    return hands, steps, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=3.0, help="how long each run plays")
    args = parser.parse_args()
    runners: dict[str, Callable[[float, int], tuple[int, int, float]]] = {"gincli.rl.env()": gincli_run}
    try:
        import rlcard  # noqa: F401

        runners["RLCard gin-rummy"] = rlcard_run
    except ImportError:
        print("RLCard is not installed (pip install rlcard): gincli's figures alone")
    rates: dict[str, list[float]] = {name: [] for name in runners}
    steps: dict[str, list[float]] = {name: [] for name in runners}
    for run in range(args.runs):  # in turn, so that a busy moment of the machine falls on both
        for name, play in runners.items():
            n, s, dt = play(args.seconds, 1000 * run + 1)
            rates[name].append(n / dt)
            steps[name].append(s / n)
    rows = [(name, str(args.runs), f"{min(r):.0f}", f"{max(r):.0f}", f"{sum(steps[name]) / len(steps[name]):.0f}")
            for name, r in rates.items()]
    print(table(rows, HEADER))
    if "RLCard gin-rummy" in rates:
        ours, theirs = rates["gincli.rl.env()"], rates["RLCard gin-rummy"]
        low, high = min(ours) / max(theirs), max(ours) / min(theirs)
        print(f"gincli / RLCard: {low:.1f}x to {high:.1f}x (target {TARGET:.0f}x); "
              f"medians {sorted(ours)[len(ours) // 2] / sorted(theirs)[len(theirs) // 2]:.1f}x")


if __name__ == "__main__":
    main()
