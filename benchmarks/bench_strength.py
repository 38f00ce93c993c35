"""Playing strength and speed of the strong bots against the EAAI baseline ``simple``.

    python benchmarks/bench_strength.py [--games 2000] [--seed 1] [--workers 2]
                                        [--bots expert] [--variant standard] [--speed-hands 3000]

For each bot B of --bots (default: expert; a plugin's bots too):

* strength: ``gin match --bots B,simple --games N --duplicate --seed S`` (every deal
  played twice, seats swapped): B's share of games won with its 95% interval, the
  Elo difference, and the points per hand of both;
* speed: ``gin match --bots B,simple --hands H --workers 1``: hands per second on
  one worker.

Everything is reproducible by seed; only the speed depends on the machine.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess

from common import gin_command, table

SPEED = re.compile(r"\(([\d,.]+) hands/s, 1 worker\)")


def strength(bot: str, games: int, seed: int, workers: int, variant: str) -> dict:
    cmd = gin_command() + ["match", "--bots", f"{bot},simple", "--games", str(games), "--duplicate",
                           "--seed", str(seed), "--workers", str(workers), "--variant", variant, "-q",
                           "--format", "json"]
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def speed(bot: str, hands: int, seed: int) -> float:
    cmd = gin_command() + ["match", "--bots", f"{bot},simple", "--hands", str(hands), "--workers", "1",
                           "--seed", str(seed), "--format", "json"]  # not -q: the speed line is on stderr
    out = subprocess.run(cmd, capture_output=True, text=True, check=True)
    found = SPEED.search(out.stderr)
    if not found:
        raise RuntimeError(f"no speed line in: {out.stderr!r}")
    return float(found.group(1).replace(",", ""))


def elo(e: dict) -> str:
    """The Elo difference and its error; unbounded (null in JSON) when one side won every game."""
    if e["diff"] is None or e["error"] is None:
        return "unbounded (one side won every game)"
    return f"{e['diff']:+.0f} ± {e['error']:.0f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000, help="games per bot, an even number (duplicate deals)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=2, help="workers for the strength matches")
    ap.add_argument("--bots", default="expert", help="bots to measure, against simple")
    ap.add_argument("--variant", default="standard")
    ap.add_argument("--speed-hands", type=int, default=3000)
    args = ap.parse_args()
    bots = args.bots.split(",")
    rows = []
    for bot in bots:
        games = args.games + args.games % 2
        s = strength(bot, games, args.seed, args.workers, args.variant)
        w = s["win_rate"]
        me, other = s["players"]
        hands = args.speed_hands
        rate = speed(bot, hands, args.seed)
        rows.append((f"{bot} vs simple", f"{s['games']:,} games, {s['hands']:,} hands",
                     f"{100 * w['value']:.1f}% ({100 * w['low']:.1f}-{100 * w['high']:.1f}%)",
                     elo(s["elo"]),
                     f"{me['points_per_hand']:.2f} vs {other['points_per_hand']:.2f}",
                     f"{rate:,.0f} hands/s ({hands:,} hands)"))
    print(f"{args.variant}, duplicate deals, seed {args.seed}")
    print(table(rows, ("match", "played", "games won (95% interval)", "Elo", "points/hand",
                       "speed, one worker")))


if __name__ == "__main__":
    main()
