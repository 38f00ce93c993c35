"""Meld rules of a plugin against the rule book's: `gin match` hands per second
under the rule book's melds and under a third party's meld rules off the fast
path (benchmarks/plugins/mixed_runs.py: any three cards of consecutive ranks
meld, suits mixed, beside the usual sets and runs), `simple` against `simple`
and `expert` against `expert`, one worker, start-up included, the same seed;
several runs, each playing all four in turn: min-max hands per second, and
each run's ratio of the mixed rule to the rule book's (the target: 0.25).
Beside them, from one more run of each writing its transcripts (untimed): the
moves a hand, the hands stopped at gincli's 2,000 moves (two players taking
each other's discards for ever: under the mixed rule `simple` does so), and
the moves a second that makes at the best hands per second, the cost of play
with the hand's length taken out.

    python benchmarks/meld_rules.py [--runs 3] [--simple-hands 2000] [--expert-hands 40] [--gin "CMD ..."]

``--gin`` times another build of gin (the command that runs it), to compare
before and after a change with the same command.
"""

from __future__ import annotations

import argparse
import json
import shlex
import subprocess
import tempfile
from pathlib import Path

from common import HERE, gin_command, table, wall

#: The columns of this benchmark's table.
HEADER = ("bots (one worker)", "rules", "hands", "hands/s (min-max)", "mixed / standard, each run", "moves a hand",
          "stalled", "moves/s (best)")

#: The two meld rules timed: the rule book's, and the plugin's (its option turned on).
RULES = {"standard": [], "mixed runs (plugin)": ["-o", "mixed_runs=true"]}


def match(gin: list[str], bot: str, n: int, seed: int, options: list[str]) -> list[str]:
    return gin + ["--plugins-dir", str(HERE / "plugins"), "match", "--bots", f"{bot},{bot}", "--hands", str(n),
                  "--seed", str(seed), "--workers", "1", "-q", "--format", "json", *options]


def moves(cmd: list[str]) -> tuple[int, int]:
    """The moves of a match's hands, and its hands stopped at 2,000 moves (from its transcripts)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.jsonl"
        subprocess.run(cmd + ["--transcripts", str(path)], stdout=subprocess.DEVNULL, check=True)
        hands = [h for line in path.read_text().splitlines() for h in json.loads(line)["hands"]]
    return sum(len(h["moves"]) for h in hands), sum(1 for h in hands if len(h["moves"]) >= 2000)


def measure(gin: list[str], hands: dict[str, int], runs: int, seed: int) -> list[tuple[str, ...]]:
    rates: dict[tuple[str, str], list[float]] = {(b, r): [] for b in hands for r in RULES}
    for _ in range(runs):
        for bot, n in hands.items():
            for name, options in RULES.items():
                rates[bot, name].append(n / wall(match(gin, bot, n, seed, options)))
    rows = []
    for bot, n in hands.items():
        standard = rates[bot, "standard"]
        for name, options in RULES.items():
            got = rates[bot, name]
            ratio = "" if name == "standard" else ", ".join(f"{m / s:.2f}" for m, s in zip(got, standard, strict=True))
            played, stalled = moves(match(gin, bot, n, seed, options))
            rows.append((f"{bot},{bot}", name, f"{n:,}", f"{min(got):,.1f}-{max(got):,.1f}", ratio,
                         f"{played / n:.1f}", f"{stalled}", f"{max(got) * played / n:,.0f}"))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--simple-hands", type=int, default=2000)
    ap.add_argument("--expert-hands", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gin", help="the command that runs another build of gin")
    args = ap.parse_args()
    gin = shlex.split(args.gin) if args.gin else gin_command()
    hands = {"simple": args.simple_hands, "expert": args.expert_hands}
    print(table(measure(gin, hands, args.runs, args.seed), HEADER))


if __name__ == "__main__":
    main()
