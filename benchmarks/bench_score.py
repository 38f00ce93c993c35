"""`gin score` end to end, start-up included, on the end positions of real play,
beside OpenSpiel's scorer on the same file in the same run; dead hands apart;
and peak memory on a million records.

    python benchmarks/bench_score.py [--hands 10000] [--repeats 5] [--memory-records 1000000]

The records are the hands gincli's built-in bots played against each other
(``real_records.py``: ``expert`` against ``simple``, ``simple`` against itself,
``expert`` against itself, ``--hands`` of each that did not end dead, made once
into benchmarks/data/): knocks, undercuts and gins as they come at a table. The
hands that ended dead are timed as a file of their own (gincli scores them for
nothing, the peer still solves both hands). Each round runs every command once,
gincli and the peer in turn; the table gives each command's range over the
rounds, and the peer's time over gincli's (above 1: gincli is faster) from the
best of each and round by round. First, gincli's output is checked to be the
same bytes with its compiled accelerator and without (``GINCLI_PURE=1``), on one
core and on all.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

from common import DATA, HERE, PEER_BENCH, gin_command, peak_memory_mb, peer_python, records_file, table, wall

#: The columns of this benchmark's table (run.py prints the same).
HEADER = ("command", "input", "wall time, min-max", "throughput (best)", "peer time / this, best (rounds)")
MEMORY_HEADER = ("command", "input", "peak PSS, all processes", "peak RSS summed over processes")
PEER = "OpenSpiel peer (os_score_peer.py)"


def real_files(hands: int, seed: int = 1) -> tuple[Path, Path]:
    """benchmarks/data/real-N-S.jsonl (the hands that did not end dead) and
    real-dead-N-S.jsonl, made once by real_records.py (git ignores the folder)."""
    DATA.mkdir(exist_ok=True)
    live, dead = DATA / f"real-{hands}-{seed}.jsonl", DATA / f"real-dead-{hands}-{seed}.jsonl"
    if not (live.exists() and dead.exists()):
        tmp = [p.with_suffix(".tmp") for p in (live, dead)]
        subprocess.run([sys.executable, str(HERE / "real_records.py"), *map(str, tmp), "--hands", str(hands),
                        "--seed", str(seed), "--gin", " ".join(gin_command())], check=True)
        tmp[0].rename(live)
        tmp[1].rename(dead)
    return live, dead


def count(path: Path) -> int:
    with open(path, "rb") as fh:
        return sum(1 for _ in fh)


def same_output(path: Path) -> list[str]:
    """gin score --format json's output with the accelerator and without, on one
    core and on all: every one the same bytes (else the benchmark stops)."""
    gin = gin_command() + ["score", "-q", "--format", "json"]
    outs = {}
    for pure in ("0", "1"):
        for workers in (["--workers", "1"], []):
            done = subprocess.run(gin + workers + [str(path)], capture_output=True, check=True,
                                  env=dict(os.environ, GINCLI_PURE=pure))
            outs[f"GINCLI_PURE={pure} {' '.join(workers) or 'all cores'}"] = done.stdout
    first = next(iter(outs.values()))
    differ = [name for name, out in outs.items() if out != first]
    if differ:
        raise SystemExit(f"{path.name}: gin score's output differs: {', '.join(differ)}")
    return list(outs)


def rounds(commands: dict[str, tuple[list[str], dict[str, str] | None]], repeats: int) -> dict[str, list[float]]:
    """Every command once a round, in turn, ``repeats`` rounds: each one's times."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeats):
        for name, (cmd, env) in commands.items():
            times[name].append(_wall(cmd, env))
    return times


def _wall(cmd: list[str], env: dict[str, str] | None) -> float:
    if env is None:
        return wall(cmd)
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        return wall(cmd)
    finally:
        for k, v in saved.items():
            if v is None:
                del os.environ[k]
            else:
                os.environ[k] = v


def speed(path: Path, label: str, repeats: int, pure: bool = True) -> list[tuple[str, ...]]:
    gin = gin_command() + ["score", "-q", "--format", "json"]
    commands: dict[str, tuple[list[str], dict[str, str] | None]] = {
        "gin score --format json --workers 1": (gin + ["--workers", "1", str(path)], None),
        "gin score --format json (all cores)": (gin + [str(path)], None),
    }
    if pure:
        commands["the same, --workers 1, pure Python (GINCLI_PURE=1)"] = (gin + ["--workers", "1", str(path)],
                                                                          {"GINCLI_PURE": "1"})
    peer = peer_python()
    if peer:
        commands[PEER] = ([peer, str(PEER_BENCH / "os_score_peer.py"), str(path)], None)
    times = rounds(commands, repeats)
    n = count(path)
    base = times.get(PEER)
    rows = []
    for name, ts in times.items():
        if base is None:
            ratio = "peer not set up"
        elif name == PEER:
            ratio = ""
        else:
            per_round = [b / t for b, t in zip(base, ts, strict=True)]
            ratio = f"{min(base) / min(ts):.2f}x ({min(per_round):.2f}-{max(per_round):.2f}x)"
        rows.append((name, f"{n:,} {label}", f"{min(ts):.3f}-{max(ts):.3f} s", f"{n / min(ts):,.0f} records/s",
                     ratio))
    return rows


def real(hands: int, repeats: int, seed: int = 1) -> list[tuple[str, ...]]:
    """The whole speed benchmark: the output checked (said on stdout), then the
    real hands' rows and the dead hands' rows."""
    live, dead = real_files(hands, seed)
    for path in (live, dead):
        print(f"{path.name}: the same bytes under " + ", ".join(same_output(path)))
    return speed(live, "hands of real play", repeats) + speed(dead, "dead hands of the same play", repeats, pure=False)


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
    ap.add_argument("--hands", type=int, default=10_000, help="records of each pairing of bots (3 pairings)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--memory-records", type=int, default=1_000_000, help="0 skips the memory run")
    args = ap.parse_args()
    print(table(real(args.hands, args.repeats, args.seed), HEADER))
    if args.memory_records:
        print()
        print(table(memory(args.memory_records), MEMORY_HEADER))


if __name__ == "__main__":
    main()
