"""benchmarks/playout_calibration.py: the table it prints adds up."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_the_calibration_table_adds_up():
    out = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "playout_calibration.py"), "--hands", "8",
                          "--seed", "3", "--draws", "0,2", "--worlds", "20", "--format", "json"],
                         capture_output=True, text=True, cwd=ROOT, check=True)
    table = json.loads(out.stdout)
    rows = {r["stock"]: r for r in table["rows"]}
    whole = rows.pop("all")
    assert whole["positions"] == sum(r["positions"] for r in rows.values()) > 0
    for key in ("ended",):
        weighted = sum(r[key] * r["positions"] for r in rows.values()) / whole["positions"]
        assert abs(weighted - whole[key]) < 0.05
    for d in ("0", "2"):
        weighted = sum(r["playouts"][d] * r["positions"] for r in rows.values()) / whole["positions"]
        assert abs(weighted - whole["playouts"][d]) < 0.05
    # the improving draws make the opponent stronger: master's play-outs score less
    assert whole["playouts"]["2"] < whole["playouts"]["0"]
    assert "playing 8 hands of master (THEIR_DRAWS 2)" in out.stderr
