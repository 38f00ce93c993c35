"""Every plugin's matches, replayed (issue 35, criterion 1): each third-party
plugin of the suite (tests/plugins, docs/examples) plays matches with the
built-in bots and an external ``exec:`` bot, and every transcript is replayed by
``gin validate`` with the plugin on: what play allowed, validate accepts, with
the same results, and no bot forfeits a hand for a move it was offered."""

from __future__ import annotations

import json
import sys

import pytest
from conftest import ROOT
from test_one_move import GREEDY, PLUGINS, gin

EXAMPLES = ROOT / "docs" / "examples"

#: (plugins folder, gin match arguments): every plugin of the suite that changes play.
SCENARIOS = {
    "latetake": (PLUGINS, ["-o", "no_late_take=true", "-o", "last_take_turn=3"]),
    "mustgin": (PLUGINS, ["-o", "must_gin=true", "--scoring", "hand", "--games", "6"]),
    "surrender": (PLUGINS, ["-o", "surrender=true"]),
    "slowknock": (PLUGINS, ["-o", "slow_knock=true", "-o", "first_knock_turn=6"]),
    "four-sets": (PLUGINS, ["-o", "four_card_sets=true"]),
    "first-to-three": (PLUGINS, ["--scoring", "first-to-three"]),
    "every move set at once": (PLUGINS, ["-o", "no_late_take=true", "-o", "surrender=true", "-o", "slow_knock=true",
                                         "-o", "four_card_sets=true", "--scoring", "first-to-three"]),
    "resigning": (EXAMPLES, ["-o", "resigning=true"]),
    "aces-high": (EXAMPLES, ["-o", "aces_high=true"]),
    "half-oklahoma": (EXAMPLES, ["--variant", "half-oklahoma"]),
    "race": (EXAMPLES, ["--scoring", "race"]),
    "doubling": (EXAMPLES, ["--variant", "doubling"]),
    "round-the-corner": (EXAMPLES, ["--variant", "round-the-corner"]),
}


@pytest.mark.parametrize("bots", ["simple,expert", "greedy,random"])
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_every_transcript_a_plugin_plays_is_valid_with_the_plugin_on(name, bots, tmp_path):
    folder, args = SCENARIOS[name]
    (tmp_path / "greedy.py").write_text(GREEDY)
    bots = bots.replace("greedy", f"exec:{sys.executable} greedy.py")
    if "--games" not in args:
        args = [*args, "--games", "3"]
    res = gin("match", "--bots", bots, "--seed", "5", "--transcripts", "t.jsonl", "-q", "-f", "json", *args,
              cwd=tmp_path, plugins=folder)
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout)
    assert all(p["forfeits"] == 0 for p in summary["players"]), summary["players"]
    out = gin("validate", "-f", "json", "t.jsonl", cwd=tmp_path, plugins=folder)
    reports = [json.loads(line) for line in out.stdout.splitlines()]
    played = [json.loads(line) for line in (tmp_path / "t.jsonl").read_text().splitlines()]
    assert len(reports) == len(played) == summary["games"]
    for report, transcript in zip(reports, played, strict=True):
        assert report["valid"] and report["complete"], report["errors"]
        assert [h["points"] for h in report["hands"]] == [h["result"]["points"] for h in transcript["hands"]]
    assert out.returncode == 0
