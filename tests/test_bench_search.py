"""benchmarks/bench_search.py, the curve of master's search (issue 37): each
number of worlds (or each budget in time, ``--ms``) against a fixed opponent,
or against half as many worlds (``--against half``, what each doubling buys),
and a decision's CPU time.
A few games, to hold the script to the matches it says it plays."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

SCRIPT = ROOT / "benchmarks" / "bench_search.py"


def bench(*args: str, plugins: Path | None = None) -> subprocess.CompletedProcess:
    """The script's run; ``plugins``, a folder of plugins it loads too."""
    env = {**os.environ, "GINCLI_PLUGINS_DIR": str(plugins)} if plugins else None
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300, env=env)


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
        assert r["forfeits"] == [0, 0] and r["forfeit_reasons"] == []
        assert r["decisions"] > 0 and 0 <= r["mean_ms"] <= r["max_ms"]
    text = bench("--worlds", "8", "--against", "half", "--games", "2", "--timing-hands", "0", "--seed", "3")
    assert text.returncode == 0 and "master:worlds=W against master:worlds=W/2, 2 duplicate games" in text.stdout


def test_the_curve_in_time_names_each_row_by_its_budget():
    res = bench("--ms", "2,4", "--against", "half", "--games", "2", "--timing-hands", "2", "--seed", "3",
                "--format", "json")
    assert res.returncode == 0, res.stderr
    rows = json.loads(res.stdout)
    assert [(r["ms"], r["bot"], r["against"]) for r in rows] == [(2, "master:ms=2", "master:ms=1"),
                                                                 (4, "master:ms=4", "master:ms=2")]
    assert all("worlds" not in r and r["decisions"] > 0 for r in rows)
    assert res.stderr.splitlines() == ["ms 2 done", "ms 4 done"]
    text = bench("--ms", "0,1", "--games", "0", "--timing-hands", "1", "--seed", "3")
    assert text.returncode == 0, text.stderr
    title, head, _, none, one = text.stdout.splitlines()[:5]
    assert title.startswith("master:ms=M against expert") and head.startswith("ms a searched discard")
    assert none.split()[0] == "0" and one.split()[0] == "1"


def test_a_budget_or_worlds_among_the_params_is_refused_in_one_sentence():
    for axis in (("--worlds", "192"), ("--ms", "4")):
        for param in ("ms=4", "worlds=48"):
            res = bench(*axis, "--params", param, "--games", "0", "--timing-hands", "0")
            assert res.returncode == 2, (axis, param)
            assert "--params sets the worlds or a budget, which each row sets" in res.stderr
            assert "Traceback" not in res.stderr
    bad = bench("--ms", "1,x", "--games", "0", "--timing-hands", "0")
    assert bad.returncode == 2 and "--ms takes whole numbers joined by commas, not '1,x'" in bad.stderr


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


KNOCKER = """
from gincli import hookimpl
from gincli_builtin.bots import SimpleBot


class Knocker(SimpleBot):
    name = "always-knocks"
    description = "simple, but knocks at every discard, however much deadwood it holds."

    def choose(self, view):
        move = super().choose(view)
        return view.knock(move.card) if move.action == "discard" else move


@hookimpl
def gincli_register_bots(register):
    register(Knocker)
"""


def test_a_bot_that_forfeits_is_named_with_its_forfeits(tmp_path):
    (tmp_path / "knocker.py").write_text(KNOCKER)
    res = bench("--worlds", "8", "--against", "always-knocks", "--games", "2", "--timing-hands", "0", "--seed", "3",
                plugins=tmp_path)
    assert res.returncode == 0, res.stderr
    line, = [x for x in res.stderr.splitlines() if "forfeited" in x]  # one line a player, its forfeits added up
    assert line.startswith("worlds 8: always-knocks forfeited ")
    assert "(the first: illegal move (knock-over-limit)" in line and "and the games won count them" in line
    as_json = bench("--worlds", "8", "--against", "always-knocks", "--games", "2", "--timing-hands", "0", "--seed",
                    "3", "--format", "json", plugins=tmp_path)  # named for a person in JSON too, the data on stdout
    assert as_json.returncode == 0 and "always-knocks forfeited" in as_json.stderr
    assert json.loads(as_json.stdout)[0]["forfeits"][1] > 0
