"""Random masked play, hands and steps a second: gincli's environments against
RLCard's gin-rummy environment, side by side, several runs of each in turn
(so that a busy moment of the machine falls on every one), min-max. The
target is 10 times RLCard's hands a second.

    python benchmarks/rl_speed.py [--runs 5] [--seconds 3] [--batch 256]

The forms measured: PettingZoo's AEC environment (``gincli.rl.env()``,
PettingZoo's loop and wrapper and all), the vector environment
(``gincli.rl.vector_env(n)``) of one game and of ``--batch`` games, and RLCard.
Every one plays the same policy, standard rules, one hand an episode: at
every step, one of the legal actions drawn uniformly (from the action mask,
for the vector environment a row at a time in numpy; from RLCard's
``legal_actions``), each game's observation and mask (RLCard's state) built
at every step, the hand scored at its end. RLCard is not a dependency of
gincli: install it in the same environment for this benchmark alone (``pip
install rlcard``); without it, gincli's figures alone are printed.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable

import numpy as np
from common import table

HEADER = ("environment", "runs", "hands/s min", "hands/s max", "steps/s min", "steps/s max", "steps/hand",
          "x RLCard")
TARGET = 10.0
#: One run: (hands finished, steps played, seconds).
Run = Callable[[float, int], tuple[int, int, float]]


def aec_run(seconds: float, seed: int) -> tuple[int, int, float]:
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


def vector_run(n: int) -> Run:
    def run(seconds: float, seed: int) -> tuple[int, int, float]:
        import gincli.rl

        venv = gincli.rl.vector_env(n)
        rng = np.random.default_rng(seed)

        def step(obs: dict[str, np.ndarray]) -> tuple[dict[str, np.ndarray], np.ndarray]:
            # a legal id of each row, uniformly: the k-th legal one, k drawn below the row's count
            legal = np.cumsum(obs["action_mask"], axis=1)
            k = (rng.random(n) * legal[:, -1]).astype(np.int64)
            obs, _, terminated, truncated, _ = venv.step((legal > k[:, None]).argmax(axis=1))
            return obs, terminated | truncated

        hands = steps = 0
        start = time.perf_counter()
        obs, _ = venv.reset(seed=seed)
        while time.perf_counter() - start < seconds:
            obs, ended = step(obs)
            steps += n
            hands += int(np.count_nonzero(ended))
        elapsed = time.perf_counter() - start
        # Untimed: the hands under way played out, so that steps/hand counts whole hands only.
        going = np.ones(n, bool)
        more = 0
        while going.any():
            obs, ended = step(obs)
            more += int(np.count_nonzero(going))
            going &= ~ended
        VECTOR_STEPS_PER_HAND.append((steps + more) / (hands + n))
        return hands, steps, elapsed
    return run


#: The vector runs' steps a hand, over whole hands (their hands a second count the hands ended in time).
VECTOR_STEPS_PER_HAND: list[float] = []


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
    parser.add_argument("--batch", type=int, default=256, help="the vector environment's larger number of games")
    args = parser.parse_args()
    from gincli.rl.compiled import STDPLAY

    runners: dict[str, Run] = {"gincli.rl.env()": aec_run, "vector_env(1)": vector_run(1),
                               f"vector_env({args.batch})": vector_run(args.batch)}
    try:
        import rlcard  # noqa: F401

        runners["RLCard gin-rummy"] = rlcard_run
    except ImportError:
        print("RLCard is not installed (pip install rlcard): gincli's figures alone")
    print("gincli.rl's compiled play:", "built" if STDPLAY is not None else "not built (or GINCLI_PURE=1)")
    hands: dict[str, list[float]] = {name: [] for name in runners}
    steps: dict[str, list[float]] = {name: [] for name in runners}
    per_hand: dict[str, list[float]] = {name: [] for name in runners}
    for run in range(args.runs):  # in turn, so that a busy moment of the machine falls on all
        for name, play in runners.items():
            n, s, dt = play(args.seconds, 1000 * run + 1)
            hands[name].append(n / dt)
            steps[name].append(s / dt)
            per_hand[name].append(VECTOR_STEPS_PER_HAND.pop() if VECTOR_STEPS_PER_HAND else s / max(n, 1))
    theirs = hands.get("RLCard gin-rummy")
    rows = []
    for name, rates in hands.items():
        ratio = ""
        if theirs and name != "RLCard gin-rummy":  # each run against RLCard's of the same round
            each = [ours / other for ours, other in zip(rates, theirs, strict=True)]
            ratio = f"{min(each):.1f} to {max(each):.1f}"
        rows.append((name, str(args.runs), f"{min(rates):.0f}", f"{max(rates):.0f}", f"{min(steps[name]):.0f}",
                     f"{max(steps[name]):.0f}", f"{sum(per_hand[name]) / len(per_hand[name]):.0f}", ratio))
    print(table(rows, HEADER))
    if theirs:
        print(f"x RLCard: each run's hands a second over RLCard's in the same round, min to max (target "
              f"{TARGET:.0f}x); medians: "
              + ", ".join(f"{name} {np.median(r) / np.median(theirs):.1f}x" for name, r in hands.items()
                          if name != "RLCard gin-rummy"))


if __name__ == "__main__":
    main()
