"""The cost of an external bot: a trivial program that answers the first legal
move (benchmarks/first_bot.py, gincli-bot/2 over pipes) against `simple`,
beside its in-process twin (benchmarks/plugins/first.py), decisions of that
seat per second on one worker; and beside the pipe's own floor: the same
program sent one real ``decide`` line (encoded once) and read back, as fast as
two processes can, nothing else done (no game, no JSON on gincli's side).

    python benchmarks/bench_bots.py [--hands 2000] [--repeats 3] [--gin "CMD ..."]

``--gin`` times another build of gin (the command that runs it), to compare
before and after a change with the same command.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import subprocess
import sys
import tempfile
import time
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


#: A real decide as gincli sends it (911 bytes with json's default spacing): what the floor passes.
DECIDE = (b'{"type": "decide", "view": {"me": "external", "opponent": "simple", "dealer": "simple", "phase": '
          b'"discard", "hand": ["As", "2s", "3s", "7h", "7d", "7c", "9c", "Tc", "Jd", "Qd", "Kh"], "upcard": "5c", '
          b'"discard_pile": ["5c", "8s", "Ks", "4h", "2d"], "stock_count": 25, "passes": ["external", "simple"], '
          b'"my_took": [], "opponent_took": [], "my_discards": ["Ks", "2d"], "opponent_discards": ["8s", "4h"], '
          b'"taken": null, "must_draw_stock": false, "knock_limit": 10, "big_gin": false, "scores": {"external": '
          b'0, "simple": 0}, "hand_number": 0, "extensions": {}}, "legal": [{"action": "discard", "card": "As"}, '
          b'{"action": "discard", "card": "2s"}, {"action": "discard", "card": "3s"}, {"action": "discard", '
          b'"card": "7h"}, {"action": "discard", "card": "7d"}, {"action": "discard", "card": "7c"}, {"action": '
          b'"discard", "card": "9c"}, {"action": "discard", "card": "Tc"}, {"action": "discard", "card": "Jd"}, '
          b'{"action": "discard", "card": "Qd"}, {"action": "discard", "card": "Kh"}, {"action": "knock", "card": '
          b'"Kh"}], "id": 7}\n')


def floor(trips: int, repeats: int) -> float:
    """Round trips a second of the pipe itself: first_bot.py answering the same
    decide line, written and read with nothing else done; the best of ``repeats``."""
    best = 0.0
    for _ in range(repeats):
        proc = subprocess.Popen([sys.executable, str(HERE / "first_bot.py")], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE)
        assert proc.stdin is not None and proc.stdout is not None
        out, read = proc.stdin.fileno(), proc.stdout.readline
        for _ in range(200):  # warm up
            os.write(out, DECIDE)
            read()
        t = time.perf_counter()
        for _ in range(trips):
            os.write(out, DECIDE)
            read()
        best = max(best, trips / (time.perf_counter() - t))
        proc.stdin.close()
        proc.wait()
    return best


def speed(hands: int, repeats: int, gin_cmd: list[str] | None = None) -> list[tuple[str, ...]]:
    gin = (gin_cmd or gin_command()) + ["--plugins-dir", str(HERE / "plugins")]
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
    trips = counts["external (first legal move, over a pipe)"]
    pipe = floor(trips, repeats)
    rows.append(("the pipe's floor (first_bot.py, one decide line)", f"{trips:,} round trips",
                 f"{trips / pipe:.2f} s", f"{pipe:,.0f} round trips/s", f"{pipe / twin:.2f}x in-process"))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--gin", help="the command that runs the gin to time (default: the installed one)")
    args = ap.parse_args()
    print(table(speed(args.hands, args.repeats, shlex.split(args.gin) if args.gin else None), HEADER))


if __name__ == "__main__":
    main()
