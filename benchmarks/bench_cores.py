"""Issue 37's figures: `gin score` on one worker and on all cores, its text
output beside its JSON, and a match on one worker and on two; each beside
another build of gincli (``--before GIN``, the earlier figure) in the same
run, rounds alternating, min-max over the rounds, with the CPU time of gin's
own process and of its workers (where the limit is), and the load average.

    python benchmarks/bench_cores.py --before /tmp/base/.venv/bin/gin [--repeats 3]

The records are the end positions of real play (``real_records.py``, 30,000
hands, as bench_score.py times them) written ten times over, each copy's ids
made its own: 300,000 records (nothing is cached between records, so each
costs what it did the first time); and 5,000 of them (every sixth). First,
both builds' outputs (text, JSON, CSV) are compared on the 300,000 records.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from bench_score import real_files
from common import DATA, gin_command, peak_memory_mb, table

HEADER = ("what", "build", "wall time, min-max", "CPU: gin's process / its workers (best round)")


def inputs() -> tuple[Path, Path]:
    """benchmarks/data/real-300000.jsonl and real-5000.jsonl, made once."""
    live, _ = real_files(10_000)
    big, small = DATA / "real-300000.jsonl", DATA / "real-5000.jsonl"
    if not (big.exists() and small.exists()):
        lines = live.read_text().splitlines()
        with open(big, "w") as out:
            for copy in range(10):
                for line in lines:
                    record = json.loads(line)
                    record["id"] = f"{record['id']}/{copy}"
                    out.write(json.dumps(record) + "\n")
        small.write_text("".join(line + "\n" for line in lines[::6]))
    return big, small


def run(cmd: list[str]) -> tuple[float, float, float]:
    """Wall seconds of a command, the CPU seconds of its own process and of the
    processes it waited for (its workers), read before it is reaped."""
    tick = os.sysconf("SC_CLK_TCK")
    with open(os.devnull, "wb") as null:
        started = time.perf_counter()
        proc = subprocess.Popen(cmd, stdout=null, stderr=null)
        os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT)
        wall = time.perf_counter() - started
        with open(f"/proc/{proc.pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        proc.wait()
    utime, stime, cutime, cstime = (int(x) / tick for x in fields[11:15])
    return wall, utime + stime, cutime + cstime


def same_output(gins: dict[str, list[str]], path: Path) -> str:
    outs: dict[str, dict[str, bytes]] = {}
    for build, gin in gins.items():
        outs[build] = {}
        for fmt in ("text", "json", "csv"):
            done = subprocess.run(gin + ["score", "-q", "-f", fmt, str(path)], capture_output=True)
            outs[build][fmt] = done.stdout
    first, *rest = outs.values()
    said = []
    for fmt in ("text", "json", "csv"):
        differ = [b for b, o in zip(outs, [first, *rest], strict=True) if o[fmt] != first[fmt]]
        said.append(f"{fmt}: {'the same bytes' if not differ else 'differs in ' + ', '.join(differ)}")
    return "; ".join(said)


def json_reader(gin: list[str]) -> str:
    """What reads ``gin``'s JSON lines: orjson where its interpreter has it
    (the ``fast`` extra; gincli/base/jsonio.py), else the standard library's
    json, some 10% slower on these records: builds compared must have the same."""
    python = Path(gin[0]).with_name("python")  # the environment's, beside its gin
    probe = "import importlib.util as u; print(u.find_spec('orjson') is not None)"
    done = subprocess.run([str(python) if python.exists() else sys.executable, "-c", probe],
                          capture_output=True, text=True)
    return "orjson" if done.stdout.strip() == "True" else "json (the standard library)"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--before", help="the gin of the build to compare with")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--hands", type=int, default=20_000, help="hands of the match")
    args = ap.parse_args()
    big, small = inputs()
    gins = {"this": gin_command()}
    if args.before:
        gins["before"] = [args.before]
    print(f"300,000 records, output of each build: {same_output(gins, big)}")
    readers = {build: json_reader(gin) for build, gin in gins.items()}
    print("JSON lines read with: " + "; ".join(f"{build}: {r}" for build, r in readers.items()))
    if len(set(readers.values())) > 1:
        print("warning: the builds read JSON differently (install both with the same extras, "
              "pip install '.[fast]'): their times differ for that too")
    cases = {
        "score --format json --workers 1, 300,000": ["score", "-q", "-f", "json", "--workers", "1", str(big)],
        "score --format json (all cores), 300,000": ["score", "-q", "-f", "json", str(big)],
        "score (text, all cores), 300,000": ["score", "-q", str(big)],
        "score --format json (all cores), 5,000": ["score", "-q", "-f", "json", str(small)],
        "score (text, all cores), 5,000": ["score", "-q", str(small)],
        f"match simple,simple --workers 1, {args.hands:,} hands": [
            "match", "--bots", "simple,simple", "--hands", str(args.hands), "--workers", "1", "-q", "-f", "json"],
        f"match simple,simple --workers 2, {args.hands:,} hands": [
            "match", "--bots", "simple,simple", "--hands", str(args.hands), "--workers", "2", "-q", "-f", "json"],
    }
    times: dict[tuple[str, str], list[tuple[float, float, float]]] = {}
    loads = []
    for _ in range(args.repeats):
        loads.append(os.getloadavg()[0])
        for what, cmd in cases.items():
            for build, gin in gins.items():
                times.setdefault((what, build), []).append(run(gin + cmd))
    rows = []
    for (what, build), got in times.items():
        walls = [w for w, _, _ in got]
        best = min(got)
        rows.append((what, build, f"{min(walls):.2f}-{max(walls):.2f} s", f"{best[1]:.2f} s / {best[2]:.2f} s"))
    print(table(rows, HEADER))
    print()
    for build in gins:
        def ratio(a: str, b: str, build: str = build) -> str:
            ta, tb = [w for w, _, _ in times[(a, build)]], [w for w, _, _ in times[(b, build)]]
            per = [x / y for x, y in zip(ta, tb, strict=True)]
            return f"{min(ta) / min(tb):.2f}x from the best ({min(per):.2f}-{max(per):.2f}x round by round)"
        names = list(cases)
        print(f"{build}: all cores over one worker, JSON, 300,000: {ratio(names[0], names[1])}")
        print(f"{build}: text over JSON, 300,000: {ratio(names[2], names[1])}")
        print(f"{build}: text over JSON, 5,000: {ratio(names[4], names[3])}")
        print(f"{build}: match, two workers over one: {ratio(names[5], names[6])}")
    print(f"load average (1 minute) at each round's start: {', '.join(f'{x:.1f}' for x in loads)}")
    for build, gin in gins.items():
        pss, rss = peak_memory_mb(gin + ["score", "-q", "-f", "json", str(big)])
        print(f"{build}: gin score --format json (all cores), 300,000: peak {pss:.0f} MB PSS, {rss:.0f} MB RSS summed")


if __name__ == "__main__":
    main()
