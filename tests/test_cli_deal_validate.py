"""``gin deal`` and ``gin validate`` through Typer's CliRunner."""

from __future__ import annotations

import json

from helpers import json_lines


def test_deal_is_reproducible_and_cuts_for_the_deal(run):
    a = run("deal", "--seed", "7", "--format", "json")
    b = run("deal", "--seed", "7", "--format", "json")
    assert a.exit_code == 0 and a.stdout == b.stdout
    doc = json.loads(a.stdout)
    assert doc["format"] == "gincli-transcript/1" and doc["players"] == ["ann", "bob"] and doc["seed"] == 7
    hand = doc["hands"][0]
    assert hand["moves"] == [] and len(hand["deck"]) == 52 and set(doc["cut"]) == {"ann", "bob"}
    assert len(hand["deal"]["ann"]) == len(hand["deal"]["bob"]) == 10 and hand["deal"]["upcard"] == hand["deck"][20]
    assert run("deal", "--seed", "8", "--format", "json").stdout != a.stdout


def test_deal_options(run):
    doc = json.loads(run("deal", "--seed", "1", "--players", "north,south", "--dealer", "south",
                         "--variant", "oklahoma", "--option", "spade_doubles=true", "-f", "json").stdout)
    assert doc["players"] == ["north", "south"] and doc["hands"][0]["dealer"] == "south"
    assert doc["variant"] == "oklahoma" and "cut" not in doc
    assert doc["options"]["spade_doubles"] is True and doc["options"]["knock_limit"] == "upcard"


def test_deal_text_shows_both_hands_the_upcard_and_the_stock(run):
    res = run("deal", "--seed", "7")
    assert res.exit_code == 0
    assert "upcard" in res.stdout and "31 cards" in res.stdout and "♠" in res.stdout or "♥" in res.stdout


def test_deal_toml_reads_back(run):
    import tomllib

    doc = tomllib.loads(run("deal", "--seed", "3", "--format", "toml").stdout)
    assert doc["format"] == "gincli-transcript/1" and len(doc["hands"][0]["deck"]) == 52


def test_deal_errors(run):
    assert run("deal", "--players", "ann").exit_code == 2
    res = run("deal", "--dealer", "carl")
    assert res.exit_code == 2 and "not one of the players" in res.stderr


def test_deal_piped_to_validate_is_valid_not_complete(run):
    for fmt in ("json", "toml"):
        dealt = run("deal", "--seed", "5", "--format", fmt).stdout
        res = run("validate", "--format", "json", "-", input=dealt)
        assert res.exit_code == 0, res.stderr
        [report] = json_lines(res.stdout)
        assert report["valid"] is True and report["complete"] is False and report["errors"] == []
        assert list(report)[:6] == ["id", "valid", "complete", "errors", "hands", "scores"]


def test_validate_reports_the_first_fault_and_exits_1(run, tmp_path):
    doc = json.loads(run("deal", "--seed", "5", "--format", "json", "--dealer", "ann").stdout)
    doc["id"] = "g1"
    doc["hands"][0]["moves"] = [{"player": "ann", "action": "pass"}]
    f = tmp_path / "t.jsonl"
    good = dict(doc, id="g0", hands=[dict(doc["hands"][0], moves=[])])
    f.write_text(json.dumps(good) + "\n" + json.dumps(doc) + "\n{oops\n")
    res = run("validate", "--format", "json", str(f))
    assert res.exit_code == 1
    reports = json_lines(res.stdout)
    assert [r["valid"] for r in reports] == [True, False, False]
    assert reports[1]["errors"] == [{"hand": 0, "move": 0, "rule": "out-of-turn",
                                     "message": "ann moved out of turn: it is bob's turn to take or refuse the upcard"}]
    assert "line 3 is not valid JSON" in reports[2]["errors"][0]["message"]
    text = run("validate", str(f))
    assert text.exit_code == 1
    assert "out-of-turn" in text.stdout and "→" in text.stdout  # the offending move shown in context
    assert "1 valid" in text.stderr


def test_validate_unreadable_input_exits_2(run, tmp_path):
    res = run("validate", str(tmp_path / "missing.json"))
    assert res.exit_code == 2 and "no such file" in res.stderr


def test_a_transcript_made_with_a_variant_file_validates_where_the_file_is_unknown(run, tmp_path):
    table = tmp_path / "knock7.toml"
    table.write_text('name = "knock7"\nbase = "standard"\n[options]\nknock_limit = 7\n')
    f = tmp_path / "t.jsonl"
    res = run("match", "--bots", "simple,simple", "--games", "2", "--variant", str(table), "--transcripts", str(f),
              "--format", "json", "-q")
    assert res.exit_code == 0, res.stderr
    assert json.loads(res.stdout)["variant"] == "knock7"  # the summary names the variant, not its file
    docs = [json.loads(line) for line in f.read_text().splitlines()]
    assert all(d["variant"] == "knock7" and d["options"]["knock_limit"] == 7 for d in docs)
    table.unlink()  # another machine, which never had the file
    res = run("validate", "--format", "json", str(f))
    reports = [json.loads(line) for line in res.stdout.splitlines()]
    assert res.exit_code == 0 and all(r["valid"] and r["complete"] for r in reports)
    # The rules travel with the transcript: a knock of 8 or more under knock7's rules is a fault.
    doc = docs[0]
    doc["options"]["knock_limit"] = 10
    assert json.loads(run("validate", "--format", "json", "-", input=json.dumps(doc)).stdout)["valid"]
    del doc["options"]["knock_limit"]  # not every rule: the variant cannot be known
    report = json.loads(run("validate", "--format", "json", "-", input=json.dumps(doc)).stdout)
    assert not report["valid"] and report["errors"][0]["rule"] == "transcript-options"


def test_validate_variant_is_repeatable_and_makes_each_file_known(run, tmp_path):
    files = []
    for name, limit in (("seven", 7), ("five", 5)):
        path = tmp_path / f"{name}.toml"
        path.write_text(f'name = "{name}"\nbase = "standard"\n[options]\nknock_limit = {limit}\n')
        files.append(path)
    docs = []
    for name in ("seven", "five"):
        res = run("deal", "--seed", "3", "--variant", str(tmp_path / f"{name}.toml"), "--format", "json")
        doc = json.loads(res.stdout)
        doc.pop("options")  # without its rules, the variant must be known here
        docs.append(json.dumps(doc))
    res = run("validate", "--format", "json", "--variant", str(files[0]), "--variant", str(files[1]), "-",
              input="\n".join(docs) + "\n")
    assert res.exit_code == 0 and all(json.loads(line)["valid"] for line in res.stdout.splitlines())


def test_plugins_in_the_config_folder_load(run, tmp_path):
    folder = tmp_path / "config" / "plugins"
    folder.mkdir(parents=True)
    (folder / "mine.py").write_text("from gincli import Variant, hookimpl\n@hookimpl\n"
                                    "def gincli_register_variants(register):\n"
                                    "    register(Variant('mine', 'from the config folder'))\n")
    res = run("plugins", "--format", "json")
    mine = next(p for p in json.loads(res.stdout)["plugins"] if p["name"] == "mine")
    assert mine["origin"] == "user config" and mine["registered"] == {"variants": ["mine"]}
