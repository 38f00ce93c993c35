"""`gin validate` end to end, start-up included, on transcripts `gin match` wrote:
hands replayed and checked per second on one worker (and on all cores).

    python benchmarks/bench_validate.py [--hands 10000] [--repeats 5]

The transcripts are those of `gin match --bots simple,simple --hands N
--transcripts benchmarks/data/t10k.jsonl --seed 1`, made once. OpenSpiel has
no transcript checker to stand beside it.
"""

from __future__ import annotations

import argparse
import json

from common import best_of_alternating, gin_command, table, transcripts_file

#: The columns of this benchmark's table (run.py prints the same).
HEADER = ("command", "input", "best wall time", "speed")


def speed(hands: int, repeats: int) -> list[tuple[str, ...]]:
    path = transcripts_file(hands)
    with open(path, "rb") as fh:
        count = sum(len(json.loads(line)["hands"]) for line in fh if line.strip())
    gin = gin_command()
    commands = {
        "gin validate -q -f json --workers 1": gin + ["validate", "-q", "-f", "json", "--workers", "1", str(path)],
        "gin validate -q -f json (all cores)": gin + ["validate", "-q", "-f", "json", str(path)],
    }
    best = best_of_alternating(commands, repeats)
    return [(name, f"{count:,} hands", f"{seconds:.2f} s", f"{count / seconds:,.0f} hands/s")
            for name, seconds in best.items()]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=10_000)
    ap.add_argument("--repeats", type=int, default=5)
    args = ap.parse_args()
    print(table(speed(args.hands, args.repeats), HEADER))


if __name__ == "__main__":
    main()
