"""Shared helpers of the benchmarks: finding the peer, generating data, timing."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import time
from contextlib import nullcontext
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "data"
SHARED = Path(os.environ.get("GINCLI_SHARED", ROOT.parent / "shared"))
PEER_BENCH = SHARED / "bench"


def peer_python() -> str | None:
    """The OpenSpiel peer's interpreter: GINCLI_PEER_PYTHON, else ./peer-venv."""
    env = os.environ.get("GINCLI_PEER_PYTHON")
    candidates = [env] if env else [str(ROOT / "peer-venv" / "bin" / "python")]
    for c in candidates:
        if c and Path(c).exists():
            return c
    return None


def gin_command() -> list[str]:
    """The installed ``gin`` next to this interpreter, else ``python -m gincli``;
    its bytecode compiled first (:func:`compile_gincli`), so that every benchmark
    times gin as an install has it."""
    compile_gincli()
    exe = Path(sys.executable).with_name("gin")
    if exe.exists():
        return [str(exe)]
    found = shutil.which("gin")
    return [found] if found else [sys.executable, "-m", "gincli"]


@functools.cache
def compile_gincli() -> None:
    """Compile gincli's bytecode, as installing it does (pip compiles what it
    installs): with PYTHONDONTWRITEBYTECODE set, as on some machines, an editable
    install would otherwise compile some 40 modules on every run (about 60 ms),
    which no installed gincli pays. Git ignores ``__pycache__``."""
    import gincli

    folders = [str(Path(gincli.__file__).resolve().parent), str(ROOT / "plugins")]
    subprocess.run([sys.executable, "-m", "compileall", "-q", *folders], stdout=subprocess.DEVNULL, check=True)


def records_file(n: int, seed: int = 1) -> Path:
    """benchmarks/data/records-N.jsonl, generated once (git ignores the folder)."""
    DATA.mkdir(exist_ok=True)
    path = DATA / f"records-{n}-{seed}.jsonl"
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        with open(tmp, "w") as out:
            subprocess.run([sys.executable, str(HERE / "gen_records.py"), str(n), str(seed)], stdout=out,
                           check=True)
        tmp.rename(path)
    return path


def transcripts_file(hands: int, seed: int = 1) -> Path:
    """benchmarks/data/tN.jsonl: N hands of ``simple`` against itself, one
    transcript each, from ``gin match`` (generated once)."""
    DATA.mkdir(exist_ok=True)
    name = f"t{hands // 1000}k.jsonl" if hands % 1000 == 0 else f"t{hands}.jsonl"
    path = DATA / name
    if not path.exists():
        tmp = path.with_suffix(".tmp")
        subprocess.run(gin_command() + ["match", "--bots", "simple,simple", "--hands", str(hands), "--transcripts",
                                        str(tmp), "--seed", str(seed), "-q"], stdout=subprocess.DEVNULL, check=True)
        tmp.rename(path)
    return path


def wall(cmd: list[str], stdin: Path | None = None) -> float:
    """Wall-clock seconds of one run of a command, output thrown away."""
    with open(os.devnull, "wb") as devnull, (open(stdin, "rb") if stdin else nullcontext()) as source:
        t = time.perf_counter()
        subprocess.run(cmd, stdout=devnull, stderr=devnull, check=True, stdin=source)
        return time.perf_counter() - t


def best_of_alternating(commands: dict[str, list[str]], repeats: int) -> dict[str, float]:
    """Run the commands in turn, ``repeats`` rounds; the best time of each
    (machines here are shared and noisy: alternate, take the best)."""
    best = {name: float("inf") for name in commands}
    for _ in range(repeats):
        for name, cmd in commands.items():
            best[name] = min(best[name], wall(cmd))
    return best


def _tree_memory_kb(pid: int, field: str) -> int:
    """Memory of a process and all its descendants (Linux /proc), in kB: ``Rss``
    counts pages shared by forked workers once per process, ``Pss`` shares them out."""
    total = 0
    stack = [pid]
    while stack:
        p = stack.pop()
        try:
            with open(f"/proc/{p}/smaps_rollup") as fh:
                for line in fh:
                    if line.startswith(field + ":"):
                        total += int(line.split()[1])
                        break
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    stack += [int(c) for c in fh.read().split()]
        except (OSError, ValueError):
            continue
    return total


def peak_memory_mb(cmd: list[str], interval: float = 0.05) -> tuple[float, float]:
    """Peak memory of a command and all its worker processes together, sampled
    every ``interval`` seconds: (proportional set size, resident set size), in MB."""
    with open(os.devnull, "wb") as devnull:
        proc = subprocess.Popen(cmd, stdout=devnull, stderr=devnull)
        pss = rss = 0
        while proc.poll() is None:
            pss = max(pss, _tree_memory_kb(proc.pid, "Pss"))
            rss = max(rss, _tree_memory_kb(proc.pid, "Rss"))
            time.sleep(interval)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}")
    return pss / 1024, rss / 1024


def table(rows: list[tuple[str, ...]], header: tuple[str, ...]) -> str:
    widths = [max(len(str(r[i])) for r in [header, *rows]) for i in range(len(header))]
    lines = ["  ".join(str(c).ljust(w) for c, w in zip(header, widths, strict=True))]
    lines.append("  ".join("-" * w for w in widths))
    lines += ["  ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)) for r in rows]
    return "\n".join(lines)
