"""Start-up time of the installed ``gin``: wall time of ``gin --help`` and
``gin --version`` (and ``gin score`` on one record), several runs each, min /
median / max. The target is 0.15 s for ``gin --help`` from a wheel install.

    python benchmarks/bench_startup.py [--runs 20] [--gin PATH]

``--gin`` times another installed ``gin`` (for instance one installed from a wheel,
``python -m venv /tmp/wheelvenv && /tmp/wheelvenv/bin/pip install .``); by
default the ``gin`` next to this interpreter. The user's configuration folder is
replaced by an empty one, so that no plugins or config file of the user's count.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from common import ROOT, gin_command, table

#: The columns of this benchmark's table (run.py prints the same).
HEADER = ("command", "min", "median", "max", "")

TARGET = 0.15  # seconds, gin --help from a wheel install

COMMANDS = {
    "gin --help": ["--help"],
    "gin --version": ["--version"],
    "gin score (one record)": ["score", "-q", "--format", "json", str(ROOT / "examples" / "hand.toml")],
}


def times(cmd: list[str], runs: int, env: dict[str, str]) -> list[float]:
    out = []
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL,
                       env=env, check=True)
        out.append(time.perf_counter() - t)
    return out


def main(runs: int = 20, gin: list[str] | None = None) -> list[tuple[str, ...]]:
    gin = gin or gin_command()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GINCLI_CONFIG_DIR=str(Path(tmp) / "config"), NO_COLOR="1")
        env.pop("GINCLI_PLUGINS_DIR", None)
        for args in COMMANDS.values():  # warm the disk cache and the bytecode cache once
            times(gin + args, 1, env)
        samples: dict[str, list[float]] = {name: [] for name in COMMANDS}
        for _ in range(runs):  # alternating: noise on a shared machine spreads over all of them
            for name, args in COMMANDS.items():
                samples[name] += times(gin + args, 1, env)
    rows = []
    for name, ts in samples.items():
        verdict = ""
        if name == "gin --help":
            verdict = "within target" if statistics.median(ts) <= TARGET else f"over the {TARGET} s target"
        rows.append((name, f"{min(ts):.3f} s", f"{statistics.median(ts):.3f} s", f"{max(ts):.3f} s", verdict))
    return rows


if __name__ == "__main__":
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--gin", help="the gin executable to time (default: the one next to this Python)")
    args = ap.parse_args()
    print(" ".join(args.gin and [args.gin] or gin_command()))
    print(table(main(args.runs, [args.gin] if args.gin else None), HEADER))
