"""Run every benchmark and print the figures, gincli beside the OpenSpiel peer.

    python benchmarks/run.py            # everything (the memory run takes a few minutes)
    python benchmarks/run.py --quick    # smaller inputs, no million-record memory run

Playing strength (benchmarks/bench_strength.py, a few minutes) and Ray
(benchmarks/bench_ray.py, needs the gincli-ray plugin) run apart.

Set up the peer once (see docs/benchmarks.md); without it, gincli's side runs alone.
"""

from __future__ import annotations

import argparse
import platform
import sys

import bench_bots
import bench_match
import bench_score
import bench_solver
import bench_startup
import bench_validate
import meld_rules
from common import gin_command, peer_python, table


def main() -> None:
    ap = argparse.ArgumentParser(description="gincli benchmarks")
    ap.add_argument("--quick", action="store_true", help="small inputs, no memory run")
    args = ap.parse_args()
    print(f"Python {platform.python_version()} on {platform.machine()}; peer: {peer_python() or 'not set up'}\n")
    print(table(bench_solver.main(50_000 if args.quick else 200_000), bench_solver.HEADER))
    print()
    print(table(bench_score.real(1_000 if args.quick else 10_000, 2 if args.quick else 5), bench_score.HEADER))
    print()
    print(table(bench_validate.speed(2_000 if args.quick else 10_000, 2 if args.quick else 5), bench_validate.HEADER))
    print()
    print(table(bench_match.speed(1_000 if args.quick else 20_000, 1 if args.quick else 3), bench_match.HEADER))
    print()
    print(table(bench_bots.speed(200 if args.quick else 2_000, 1 if args.quick else 3), bench_bots.HEADER))
    print()
    print(table(bench_startup.main(3 if args.quick else 20), bench_startup.HEADER))
    print()
    hands = {"simple": 300 if args.quick else 2_000, "expert": 10 if args.quick else 40}
    print(table(meld_rules.measure(gin_command(), hands, 1 if args.quick else 3, 1), meld_rules.HEADER))
    if not args.quick:
        print()
        print(table(bench_score.memory(1_000_000), bench_score.MEMORY_HEADER))
    sys.stdout.flush()


if __name__ == "__main__":
    main()
