"""benchmarks/bench_search.py, the curve of master's search (issue 37): each
number of worlds against a fixed opponent, or against half as many worlds
(``--against half``, what each doubling buys), and a decision's CPU time.
A few games, to hold the script to the matches it says it plays."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT

SCRIPT = ROOT / "benchmarks" / "bench_search.py"


def bench(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_each_doubling_is_played_against_the_worlds_before_it():
    res = bench("--worlds", "8,16", "--against", "half", "--params", "halving=false", "--games", "2",
                "--timing-hands", "2", "--seed", "3", "--format", "json")
    assert res.returncode == 0, res.stderr
    rows = json.loads(res.stdout)
    assert [(r["bot"], r["against"]) for r in rows] == [
        ("master:worlds=8:halving=false", "master:worlds=4:halving=false"),
        ("master:worlds=16:halving=false", "master:worlds=8:halving=false")]
    for r in rows:
        assert r["win_rate"]["samples"] == 1  # two duplicate games: one pair
        assert r["decisions"] > 0 and 0 <= r["mean_ms"] <= r["max_ms"]
    text = bench("--worlds", "8", "--against", "half", "--games", "2", "--timing-hands", "0", "--seed", "3")
    assert text.returncode == 0 and "master:worlds=W against master:worlds=W/2, 2 duplicate games" in text.stdout


def test_half_of_fewer_than_two_worlds_is_refused_in_one_sentence():
    res = bench("--worlds", "0,8", "--against", "half", "--games", "2", "--timing-hands", "0")
    assert res.returncode == 2 and "--against half plays each number of worlds against half as many" in res.stderr
    assert "Traceback" not in res.stderr


def test_the_play_outs_are_timed_compiled_and_in_python():
    res = bench("--worlds", "8", "--games", "0", "--timing-hands", "0", "--playout-positions", "2", "--seed", "4",
                "--format", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["rows"][0]["worlds"] == 8 and out["playouts"]["positions"] == 2
    assert out["playouts"]["python_us"] > 0
    assert out["playouts"]["compiled_us"] is None or 0 < out["playouts"]["compiled_us"] < out["playouts"]["python_us"]
