"""Meld solver speed: random ten-card hands per second through the Python API,
on one core, beside OpenSpiel's C++ solver called from Python on the same hands:
the rule book's solver as the engine and the bots call it (``STANDARD.deadwood``,
compiled where the accelerator is built) and melds.py's Python functions.

    python benchmarks/bench_solver.py [N]
"""

from __future__ import annotations

import subprocess
import sys
import time

from common import HERE, peer_python, table
from hands import random_hands

from gincli.rulebook.cards import mask_of, parse_card
from gincli.rulebook.meldrules import STANDARD
from gincli.rulebook.melds import best_arrangement, deadwood, deadwoods

#: The columns of this benchmark's table (run.py prints the same).
HEADER = ("meld solver, random ten-card hands", "speed")


def rate(fn, items, repeats: int = 3) -> float:
    best = float("inf")
    for _ in range(repeats):
        t = time.perf_counter()
        fn(items)
        best = min(best, time.perf_counter() - t)
    return len(items) / best


def main(n: int = 200_000, seed: int = 7) -> list[tuple[str, str]]:
    names = random_hands(n, seed)
    masks = [mask_of(parse_card(c) for c in h) for h in names]
    standard = STANDARD.deadwood
    compiled = "compiled" if standard is not deadwood else "pure Python here"
    rows = [
        (f"gincli STANDARD.deadwood(mask), what the engine and the bots ask ({compiled})",
         rate(lambda ms: [standard(m) for m in ms], masks)),
        ("gincli deadwood(mask), one call a hand (melds.py, Python)",
         rate(lambda ms: [deadwood(m) for m in ms], masks)),
        ("gincli deadwoods(masks), batch", rate(deadwoods, masks)),
        ("gincli from card names (parse + solve)",
         rate(lambda hs: [deadwood(mask_of(parse_card(c) for c in h)) for h in hs], names)),
        ("gincli best_arrangement(mask)", rate(lambda ms: [best_arrangement(m) for m in ms], masks[: n // 4])),
    ]
    peer = peer_python()
    if peer:
        out = subprocess.run([peer, str(HERE / "solver_peer.py"), str(n), str(seed)], capture_output=True,
                             text=True, check=True, cwd=HERE)
        rows.append(("OpenSpiel C++ min_deadwood (from Python)", float(out.stdout)))
    else:
        rows.append(("OpenSpiel peer", "not set up (see docs/benchmarks.md)"))
    return [(name, f"{v:,.0f} hands/s" if isinstance(v, float) else v) for name, v in rows]


if __name__ == "__main__":
    rows = main(int(sys.argv[1]) if len(sys.argv) > 1 else 200_000)
    print(table(rows, HEADER))
