"""The cost of an external bot: a trivial program that answers the first legal
move (benchmarks/first_bot.py, gincli-bot/2 over pipes) against `simple`,
beside its in-process twin (benchmarks/plugins/first.py), decisions of that
seat per second on one worker.

    python benchmarks/bench_bots.py [--hands 2000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

from common import HERE, best_of_alternating, gin_command, table, wall

#: The columns of this benchmark's table (run.py prints the same).
HEADER = ("bot (against simple, one worker)", "its decisions", "best wall time", "speed", "ratio")

BOTS = {
    "external (first legal move, over a pipe)": f"exec:{sys.executable} {HERE / 'first_bot.py'}",
    "in-process twin (first legal move)": "first",
}


def decisions(cmd: list[str]) -> int:
    """The first seat's decisions in the match (counted once, from its transcripts)."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.jsonl"
        wall(cmd + ["--transcripts", str(path)])
        n = 0
        for line in path.read_text().splitlines():
            doc = json.loads(line)
            me = doc["players"][0]
            n += sum(1 for h in doc["hands"] for m in h["moves"] if m["player"] == me and m["action"] != "layoff")
        return n


def speed(hands: int, repeats: int) -> list[tuple[str, ...]]:
    gin = gin_command() + ["--plugins-dir", str(HERE / "plugins")]
    cmds = {name: gin + ["match", "--bots", f"{bot},simple", "--hands", str(hands), "--workers", "1", "--seed",
                         "1", "-q", "--format", "json"] for name, bot in BOTS.items()}
    counts = {name: decisions(cmd) for name, cmd in cmds.items()}
    best = best_of_alternating(cmds, repeats)
    twin = counts["in-process twin (first legal move)"] / best["in-process twin (first legal move)"]
    rows = []
    for name in cmds:
        rate = counts[name] / best[name]
        rows.append((name, f"{counts[name]:,} decisions", f"{best[name]:.2f} s", f"{rate:,.0f} decisions/s",
                     f"{rate / twin:.2f}x in-process"))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(table(speed(args.hands, args.repeats), HEADER))


if __name__ == "__main__":
    main()
