"""`gin score` end to end, start-up included, beside OpenSpiel's scorer on the
same file in the same run; and peak memory on a million records.

    python benchmarks/bench_score.py [--records 30000] [--repeats 5] [--memory-records 1000000]
"""

from __future__ import annotations

import argparse

from common import (PEER_BENCH, best_of_alternating, gin_command, peak_memory_mb, peer_python,
                    records_file, table)

#: The columns of this benchmark's table (run.py prints the same).
HEADER = ("command", "input", "best wall time", "throughput", "ratio")
MEMORY_HEADER = ("command", "input", "peak PSS, all processes", "peak RSS summed over processes")


def speed(n: int, repeats: int) -> list[tuple[str, ...]]:
    path = str(records_file(n))
    gin = gin_command()
    commands = {
        "gin score --format json (all cores)": gin + ["score", "-q", "--format", "json", path],
        "gin score --format json --workers 1": gin + ["score", "-q", "--format", "json", "--workers", "1", path],
    }
    peer = peer_python()
    if peer:
        commands["OpenSpiel peer (os_score_peer.py)"] = [peer, str(PEER_BENCH / "os_score_peer.py"), path]
    best = best_of_alternating(commands, repeats)
    base = best.get("OpenSpiel peer (os_score_peer.py)")
    rows = []
    for name, seconds in best.items():
        ratio = f"{base / seconds:.2f}x the peer's speed" if base else "peer not set up"
        rows.append((name, f"{n:,} records", f"{seconds:.2f} s", f"{n / seconds:,.0f} records/s", ratio))
    return rows


def memory(n: int) -> list[tuple[str, ...]]:
    path = str(records_file(n))
    gin = gin_command()
    rows = []
    for label, extra in (("all cores", []), ("--workers 1", ["--workers", "1"])):
        pss, rss = peak_memory_mb(gin + ["score", "-q", "--format", "json", *extra, path])
        rows.append((f"gin score --format json ({label})", f"{n:,} records", f"{pss:.1f} MB", f"{rss:.1f} MB"))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--records", type=int, default=30_000)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--memory-records", type=int, default=1_000_000, help="0 skips the memory run")
    args = ap.parse_args()
    print(table(speed(args.records, args.repeats), HEADER))
    if args.memory_records:
        print()
        print(table(memory(args.memory_records), MEMORY_HEADER))


if __name__ == "__main__":
    main()
