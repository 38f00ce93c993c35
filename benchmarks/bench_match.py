"""`gin match` speed: simple against simple, hands per second, beside OpenSpiel's
SimpleGinRummyBot against itself (../shared/bench/os_match_peer.py) in the same run.

    python benchmarks/bench_match.py [--hands 20000] [--repeats 3]
"""

from __future__ import annotations

import argparse
import subprocess

from common import PEER_BENCH, gin_command, peer_python, table, wall

#: The columns of this benchmark's table (run.py prints the same).
HEADER = ("command", "input", "best wall time", "speed", "ratio")


def speed(n: int, repeats: int) -> list[tuple[str, ...]]:
    gin = gin_command()
    runs = {
        "gin match --bots simple,simple --workers 1": gin + ["match", "--bots", "simple,simple", "--hands", str(n),
                                                            "--workers", "1", "-q", "--format", "json"],
        "gin match --bots simple,simple --workers 2": gin + ["match", "--bots", "simple,simple", "--hands", str(n),
                                                            "--workers", "2", "-q", "--format", "json"],
    }
    best = {name: float("inf") for name in runs}
    peer_best = 0.0
    peer = peer_python()
    peer_n = max(200, n // 10)  # the peer is slow: fewer hands, same measure (hands per second)
    for _ in range(repeats):
        for name, cmd in runs.items():
            best[name] = min(best[name], wall(cmd))
        if peer:
            out = subprocess.run([peer, str(PEER_BENCH / "os_match_peer.py"), str(peer_n)], capture_output=True,
                                 text=True, check=True)
            peer_best = max(peer_best, float(out.stdout.strip()))
    rows = []
    single = n / best["gin match --bots simple,simple --workers 1"]
    for name, seconds in best.items():
        rate = n / seconds
        ratio = f"{rate / peer_best:.1f}x the peer" if peer_best else "peer not set up"
        note = f", {rate / single:.2f}x one worker" if "workers 2" in name else ""
        rows.append((name, f"{n:,} hands", f"{seconds:.2f} s (with start-up)", f"{rate:,.0f} hands/s",
                     ratio + note))
    if peer_best:
        rows.append(("OpenSpiel SimpleGinRummyBot x2 (os_match_peer.py)", f"{peer_n:,} hands", "",
                     f"{peer_best:,.0f} hands/s", "1.0x"))
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    print(table(speed(args.hands, args.repeats), HEADER))


if __name__ == "__main__":
    main()
