"""benchmarks/search_oracle.py: master's searched discards scored by playing on
from the true position; benchmarks/hand_guess.py: its worlds' guesses at the
opponent's hand scored on the true hand."""

from __future__ import annotations

import json
import subprocess
import sys

from conftest import ROOT

SCRIPT = ROOT / "benchmarks" / "search_oracle.py"


def oracle(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=300)


def test_rows_are_scored_on_the_same_positions_and_replay_from_a_file(tmp_path):
    saved = tmp_path / "positions.jsonl"
    res = oracle("--hands", "3", "--replays", "2", "--seed", "5", "--rows", "16,16,32:z=0,16:known=1",
                 "--save", str(saved), "--format", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    positions = [json.loads(line) for line in saved.read_text().splitlines()]
    assert out["positions"] == len(positions) > 0 and out["replays"] == 2
    for p in positions:
        assert len(p["worths"]) == len(p["ids"]) >= 2 and all(len(w) == 2 for w in p["worths"])
        assert p["theirs"].bit_count() == 10 and not p["theirs"] & p["mine"]
        assert all(card is None for seat, action, source, card in p["history"] if source == "stock")
    first, same, eager, known = out["rows"]
    assert "vs_first" not in first
    # the same settings and seed choose the same discards: no difference, position by position
    assert same["gain"] == first["gain"] and same["vs_first"] == 0 and same["vs_first_error"] == 0
    assert eager["settings"]["z"] == 0 and eager["switched"] >= first["switched"]
    assert known["settings"]["known"] == 1
    # read back, and searched on two workers: the same choices
    again = oracle("--load", str(saved), "--rows", "16,16,32:z=0,16:known=1", "--seed", "5", "--workers", "2",
                   "--format", "json")
    assert again.returncode == 0, again.stderr
    assert json.loads(again.stdout)["rows"] == out["rows"]


def test_a_bad_row_or_file_is_refused_in_one_sentence(tmp_path):
    res = oracle("--rows", "192:depth=3")
    assert res.returncode == 2 and "'192:depth=3' is not worlds with settings" in res.stderr
    missing = oracle("--load", str(tmp_path / "none.jsonl"))
    assert missing.returncode == 2 and "cannot read the positions in" in missing.stderr
    negative = oracle("--rows", "192:draws=-1")
    assert negative.returncode == 2 and "'192:draws=-1': the settings are 0 or more" in negative.stderr
    other = tmp_path / "other.jsonl"
    other.write_text('{"hand": 1}\n')
    foreign = oracle("--load", str(other))
    assert foreign.returncode == 2
    assert "holds lines that are not positions kept by search_oracle.py --save" in foreign.stderr
    (tmp_path / "empty.jsonl").write_text("")
    empty = oracle("--load", str(tmp_path / "empty.jsonl"))
    assert empty.returncode == 2 and "holds no positions search_oracle.py kept (--save)" in empty.stderr
    for r in (res, missing, negative, foreign, empty):
        assert "Traceback" not in r.stderr


def test_the_guesses_at_the_opponents_hand_are_scored_on_the_true_hand():
    res = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "hand_guess.py"), "--hands", "4", "--seed", "3",
                          "--samples", "60", "--format", "json",
                          "--guesses", "uniform,master,discards:4:6,history:0:0,history:0.5:1:master"],
                         capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    rows = {r["guess"]: r for r in out["rows"]}
    assert out["positions"] > 0 and set(rows) == {"uniform", "master", "discards:4:6", "history:0:0",
                                                  "history:0.5:1:master"}
    for r in rows.values():
        assert r["loglik"] < 0 and 0 < r["held"] < 1
    # what the opponent took and refused tells something: master's weights guess better than none
    assert rows["master"]["loglik"] > rows["uniform"]["loglik"]
    assert rows["master"]["held"] > rows["uniform"]["held"]
    # histories walked back with no move read guess as the uniform guess does (every hand now has as
    # many histories); read, the moves give the cards held more chance
    assert abs(rows["history:0:0"]["held"] - rows["uniform"]["held"]) < 0.02
    assert abs(rows["history:0:0"]["loglik"] - rows["uniform"]["loglik"]) < 0.5
    assert rows["history:0.5:1:master"]["held"] > rows["uniform"]["held"] + 0.05
    bad = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "hand_guess.py"), "--guesses", "discards:0:2"],
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "'discards:0:2' is not a guess" in bad.stderr and "Traceback" not in bad.stderr


def test_the_verdicts_are_scored_raw_and_calibrated_on_the_kept_positions(tmp_path):
    saved = tmp_path / "positions.jsonl"
    assert oracle("--hands", "4", "--replays", "2", "--seed", "5", "--rows", "16", "--save", str(saved)).returncode == 0
    script = str(ROOT / "benchmarks" / "verdict_calibration.py")

    def calibrate(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, script, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)

    res = calibrate("--load", str(saved), "--worlds", "8,32", "--seed", "5", "--format", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert out["positions"] == len(saved.read_text().splitlines()) > 0
    assert [r["worlds"] for r in out["rows"]] == [8, 32]
    for r in out["rows"]:
        assert abs(r["calibrated"] - r["raw"] - r["difference"]) < 1e-9
        assert len(r["fits"]) == 2 and all(len(f) == 4 for f in r["fits"])  # a fit for each fold
    # on two workers, the same verdicts: each position searched by its own seed
    again = calibrate("--load", str(saved), "--worlds", "8,32", "--seed", "5", "--format", "json", "--workers", "2")
    assert again.returncode == 0 and json.loads(again.stdout) == out
    missing = calibrate("--load", str(tmp_path / "none.jsonl"))
    assert missing.returncode == 2 and "cannot read the positions in" in missing.stderr
    one = tmp_path / "one.jsonl"
    one.write_text(saved.read_text().splitlines()[0] + "\n")
    alone = calibrate("--load", str(one), "--worlds", "8")
    assert alone.returncode == 2 and "holds one position: the fit needs two or more" in alone.stderr
    assert "Traceback" not in missing.stderr + alone.stderr


def test_the_search_trials_choose_as_master_with_one_kind_and_replay(tmp_path):
    """benchmarks/trials/search_rows.py: its row of master's play-outs alone
    chooses as search_oracle.py's row of every discard in every world; its rows
    of several kinds of play-out, and of worlds drawn by the opponent's
    discards, choose on the same positions, the same on two workers."""
    saved = tmp_path / "positions.jsonl"
    kept = oracle("--hands", "4", "--replays", "2", "--seed", "5", "--rows", "16:halving=0", "--save", str(saved),
                  "--format", "json")
    assert kept.returncode == 0, kept.stderr
    project = json.loads(kept.stdout)["rows"][0]
    script = str(ROOT / "benchmarks" / "trials" / "search_rows.py")

    def trial(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, script, *args], capture_output=True, text=True, cwd=ROOT, timeout=300)

    rows = "base:16,mixed:16,knocks:16,drawn:8,fit:8:32:2"
    res = trial("--load", str(saved), "--rows", rows, "--seed", "5", "--format", "json")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    base, mixed, knocks, drawn, fitted = out["rows"]
    assert [drawn["row"], fitted["row"]] == ["drawn:8", "fit:8:32:2"]
    assert out["positions"] == len(saved.read_text().splitlines()) == len(mixed["choices"]) > 0
    assert (base["gain"], base["switched"]) == (project["gain"], project["switched"])
    assert all("vs_first" in r for r in (mixed, knocks, drawn, fitted))
    again = trial("--load", str(saved), "--rows", rows, "--seed", "5", "--format", "json", "--workers", "2")
    assert again.returncode == 0 and json.loads(again.stdout) == out
    for wrong in ("deeper:16", "fit:8", "fit:8:16:0", "drawn:0"):
        bad = trial("--load", str(saved), "--rows", wrong)
        assert bad.returncode == 2 and f"{wrong!r} is not a row" in bad.stderr and "Traceback" not in bad.stderr
