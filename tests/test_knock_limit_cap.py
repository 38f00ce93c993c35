"""The option ``knock_limit_cap``: a TOML variant caps Oklahoma's upcard knock
limit without Python (docs/variants.md, "A capped Oklahoma")."""

from __future__ import annotations

import json

import pytest
from helpers import json_lines

from gincli.rulebook.cards import parse_card

CAPPED = """\
name = "oklahoma-7"
base = "oklahoma"
description = "Oklahoma, but the knock limit is never above 7."

[options]
knock_limit_cap = 7
"""

#: ann knocks with 8 deadwood (the 8c): under a king upcard, Oklahoma's limit is 10, capped 7.
ANN = "As 2s 3s 4h 5h 6h Qs Qd Qc 8c".split()
BOB = "8d 9d Td Kh Ks Kc 2d 5d 6c 7s".split()


@pytest.mark.parametrize("upcard,limit", [("Kd", 7), ("8h", 7), ("7c", 7), ("3h", 3), ("Ah", 0)])
def test_the_upcards_value_capped_is_the_knock_limit(registry, upcard, limit):
    variant = registry.variant("oklahoma")
    rules = registry.rules(variant, registry.scoring("hand"), {"knock_limit_cap": 7})
    assert variant.checked_knock_limit(rules, parse_card(upcard)) == limit


def test_the_cap_is_off_by_default_and_caps_a_number_too(registry):
    variant = registry.variant("standard")
    system = registry.scoring("hand")
    assert registry.rules(variant, system)["knock_limit_cap"] == "off"
    assert variant.checked_knock_limit(registry.rules(variant, system), None) == 10
    assert variant.checked_knock_limit(registry.rules(variant, system, {"knock_limit_cap": 4}), None) == 4
    assert variant.checked_knock_limit(registry.rules(registry.variant("oklahoma"), system), parse_card("Kd")) == 10


def test_a_variant_file_caps_oklahoma_in_gin_score_and_gin_match(run, tmp_path):
    path = tmp_path / "oklahoma-7.toml"
    path.write_text(CAPPED)
    records = tmp_path / "r.jsonl"
    records.write_text("".join(json.dumps({"id": up, "upcard": up, "knocker": "ann", "hands": {"ann": ANN, "bob": BOB}})
                               + "\n" for up in ("Kd", "8h", "7c")))
    out = json_lines(run("score", "--format", "json", "--variant", str(path), str(records)).stdout)
    assert [o.get("error") for o in out] == ["ann knocked with 8 deadwood, over the knock limit of 7"] * 3
    plain = json_lines(run("score", "--format", "json", "--variant", "oklahoma", str(records)).stdout)
    assert [o.get("outcome") for o in plain] == ["knock", "knock", None]  # 10, 8, then 7: over the 7's limit
    transcripts = tmp_path / "t.jsonl"
    res = run("match", "--bots", "simple,random", "--hands", "20", "--seed", "1", "--variant", str(path), "-q",
              "--transcripts", str(transcripts), "--format", "json")
    assert res.exit_code == 0, res.stderr
    docs = [json.loads(line) for line in transcripts.read_text().splitlines()]
    assert all(d["options"]["knock_limit_cap"] == 7 and d["variant"] == "oklahoma-7" for d in docs)
    assert run("validate", "-q", "--variant", str(path), str(transcripts)).exit_code == 0
