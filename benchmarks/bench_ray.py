"""`gin match --backend ray` beside the local backend: simple against simple,
20,000 hands, on a local Ray instance with 2 CPUs (started for each of its rounds,
as ``ray.init(num_cpus=2)`` in a process of its own, and shut down after it: its
daemons, idle, would otherwise take CPU from the local rounds) against the local
backend with 2 workers, and the local backend with 1 worker against 2, in the same
run, alternating, several rounds. Needs the plugin: pip install ./plugins/gincli-ray.

    python benchmarks/bench_ray.py [--hands 20000] [--repeats 3]

Two figures a run: the match's own speed (what ``gin match`` reports on stderr:
hands over the time from the first session sent to the last result, start-up and
connecting left out) and the wall time with start-up. Every run is listed; the
summary gives the range over the rounds (machines here are shared and noisy).
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

from common import gin_command, table

HEAD = """
import logging, sys
import ray
ctx = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
print(ctx.address_info["gcs_address"], flush=True)
sys.stdin.read()
ray.shutdown()
"""

SPEED = re.compile(r"played(?: now)? in ([0-9.]+) s \(([0-9,]+) hands/s")


def cpu_seconds() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, float]:
    """(hands per second the match reports, wall seconds with start-up, CPU
    seconds of gin and its worker processes: a Ray cluster's are not counted)."""
    cpu = cpu_seconds()
    t = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, stdin=subprocess.DEVNULL)
    wall = time.perf_counter() - t
    cpu = cpu_seconds() - cpu
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.strip()}")
    found = SPEED.search(proc.stderr)
    if not found:
        raise SystemExit(f"no speed in the output of {' '.join(cmd)}: {proc.stderr.strip()}")
    return float(found.group(2).replace(",", "")), wall, cpu


def span(values: list[float], fmt: str = "{:,.0f}") -> str:
    lo, hi = min(values), max(values)
    return fmt.format(lo) if fmt.format(lo) == fmt.format(hi) else f"{fmt.format(lo)}–{fmt.format(hi)}"


@contextmanager
def ray_instance(env: dict[str, str]) -> Iterator[str]:
    """A local Ray instance of 2 CPUs for one round, in a process of its own: its address; shut down after."""
    head = subprocess.Popen([sys.executable, "-c", HEAD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env)
    assert head.stdin is not None and head.stdout is not None
    try:
        address = head.stdout.readline().strip()
        if not address:
            raise SystemExit("the local Ray instance did not start (pip install ./plugins/gincli-ray)")
        yield address
    finally:
        head.stdin.close()
        head.wait(timeout=60)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=20_000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    env = dict(os.environ, RAY_AUTH_MODE="disabled", RAY_USAGE_STATS_ENABLED="0")
    env.pop("RAY_ADDRESS", None)
    match = gin_command() + ["match", "--bots", "simple,simple", "--hands", str(args.hands), "--seed", "1",
                             "--format", "json"]
    commands = {
        "local, 1 worker": match + ["--workers", "1"],
        "local, 2 workers": match + ["--workers", "2"],
        "ray, local instance of 2 CPUs": match + ["--backend", "ray", "--address"],  # its address added
    }
    runs: dict[str, list[tuple[float, float, float]]] = {name: [] for name in commands}
    print(f"{args.hands:,} hands of simple against simple, {args.repeats} rounds, {os.cpu_count()} CPUs; "
          f"load average before: {os.getloadavg()[0]:.2f}", flush=True)
    for r in range(args.repeats):
        for name, cmd in commands.items():
            if "ray" in name:
                with ray_instance(env) as address:
                    rate, wall, cpu = run(cmd + [address], env)
            else:
                rate, wall, cpu = run(cmd, env)
            runs[name].append((rate, wall, cpu))
            print(f"  round {r + 1}: {name}: {rate:,.0f} hands/s in the match, {wall:.2f} s wall with start-up"
                  + ("" if "ray" in name else f", {cpu:.2f} s CPU"), flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}\n")
    one = [rate for rate, _, _ in runs["local, 1 worker"]]
    two = [rate for rate, _, _ in runs["local, 2 workers"]]
    ray = [rate for rate, _, _ in runs["ray, local instance of 2 CPUs"]]
    rows = []
    for name, got in runs.items():
        rates = [rate for rate, _, _ in got]
        walls = [wall for _, wall, _ in got]
        cpus = [cpu for _, _, cpu in got]
        rows.append((name, span(rates) + " hands/s", span(walls, "{:.2f}") + " s",
                     "(on the cluster)" if "ray" in name else span(cpus, "{:.2f}") + " s"))
    print(table(rows, ("backend", "match speed (range)", "wall time with start-up", "CPU, gin and workers")))
    print()
    cpu_one = [cpu for _, _, cpu in runs["local, 1 worker"]]
    cpu_two = [cpu for _, _, cpu in runs["local, 2 workers"]]
    print(table([
        ("local: 2 workers' speed over 1 worker's (same round)",
         span([b / a for a, b in zip(one, two, strict=True)], "{:.2f}") + "x"),
        ("local: 2 workers' CPU over 1 worker's (the cost of the pool)",
         span([b / a for a, b in zip(cpu_one, cpu_two, strict=True)], "{:.2f}") + "x"),
        ("local 2 workers' speed over ray's with 2 CPUs (same round)",
         span([a / b for a, b in zip(two, ray, strict=True)], "{:.2f}") + "x"),
    ], ("ratio", "range over the rounds")))


if __name__ == "__main__":
    main()
