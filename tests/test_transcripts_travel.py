"""Transcripts travel: a transcript holds only what its rules need (no option of
a move set that is off and at its defaults), and one that needs a plugin says
which (its ``plugins`` field), so that ``gin validate`` on a machine without it
names the plugin, not only an unknown option. Tested with a real plugin folder
(tests/plugins/slowknock.py), present and absent; files written before gincli
left those options out still resume."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

from conftest import ROOT

PLUGINS = ROOT / "tests" / "plugins"
GIN = str(Path(sys.executable).with_name("gin"))
SLOW_OPTIONS = ("slow_knock", "first_knock_turn")
DOUBLING_OPTIONS = ("doubling", "max_multiplier", "decline_bonus")


def gin(*args: str, tmp_path: Path, plugins: Path | None = PLUGINS, input: str | None = None):
    env = {"PATH": "/usr/bin:/bin", "GINCLI_CONFIG_DIR": str(tmp_path / "config"),
           "GINCLI_DATA_DIR": str(tmp_path / "data"), "PYTHONIOENCODING": "utf-8"}
    pre = ("--plugins-dir", str(plugins)) if plugins is not None else ()
    res = subprocess.run([GIN, *pre, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=600,
                         input=input)
    assert res.returncode != 3 and "Traceback" not in res.stderr, res.stderr
    return res


def validate(doc: dict, tmp_path: Path, plugins: Path | None) -> dict:
    res = gin("validate", "--format", "json", "-", tmp_path=tmp_path, plugins=plugins, input=json.dumps(doc))
    return json.loads(res.stdout)


def transcripts_of_every_command(tmp_path: Path, *options: str) -> list[dict]:
    """A transcript written by gin deal, gin match, gin tournament and gin play, with ``options``."""
    opts = [a for o in options for a in ("--option", o)]
    docs = [json.loads(gin("deal", "--seed", "2", "--format", "json", *opts, tmp_path=tmp_path).stdout)]
    m = tmp_path / "m.jsonl"
    assert gin("match", "--bots", "simple,random", "--games", "1", "--seed", "2", *opts, "--transcripts", str(m),
               "-q", tmp_path=tmp_path).returncode == 0
    docs.append(json.loads(m.read_text().splitlines()[0]))
    t = tmp_path / "t.jsonl"
    res = gin("tournament", "--bots", "simple,random,expert", "--games", "1", "--seed", "2", *opts,
              "--transcripts", str(t), "-q", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    docs.append(json.loads(t.read_text().splitlines()[0]))
    p = tmp_path / "p.json"
    res = gin("play", "--seed", "2", "--name", "ann", "--bot", "simple", "--transcript", str(p), *opts,
              tmp_path=tmp_path, input="q\n")
    assert p.exists(), res.stderr
    docs.append(json.loads(p.read_text()))
    return docs


def test_plain_play_with_a_move_set_plugin_installed_writes_none_of_its_options(tmp_path):
    for doc in transcripts_of_every_command(tmp_path):
        assert not set(doc["options"]) & set(SLOW_OPTIONS + DOUBLING_OPTIONS), doc["options"]
        assert {"knock_limit", "gin_bonus", "target"} <= set(doc["options"])  # the rule book's, the system's
        assert "plugins" not in doc
        for plugins in (PLUGINS, None):  # it validates where the plugin is, and where it is not
            report = validate(doc, tmp_path, plugins)
            assert report["valid"], report["errors"]


def test_a_transcript_that_needs_the_plugin_names_it_and_validate_says_it_is_missing(tmp_path):
    for doc in transcripts_of_every_command(tmp_path, "slow_knock=true"):
        assert doc["options"]["slow_knock"] is True and doc["options"]["first_knock_turn"] == 3
        assert doc["plugins"] == {"slowknock": {"movesets": ["slowknock"], "options": list(SLOW_OPTIONS)}}
        assert validate(doc, tmp_path, PLUGINS)["valid"]
        report = validate(doc, tmp_path, None)
        assert not report["valid"]
        error = report["errors"][0]
        assert error["rule"] == "plugin-missing", error
        assert error["message"] == ('this transcript needs the plugin "slowknock" (move set "slowknock", options '
                                    '"slow_knock" and "first_knock_turn"), which is not installed')
    text = gin("validate", "-", tmp_path=tmp_path, plugins=None, input=json.dumps(doc))
    assert text.returncode == 1
    assert 'this transcript needs the plugin "slowknock" (move set "slowknock", options' in text.stdout


def test_an_option_of_a_move_set_that_is_off_is_written_when_it_is_not_the_default(tmp_path):
    doc = json.loads(gin("deal", "--seed", "2", "--format", "json", "--option", "first_knock_turn=5",
                         tmp_path=tmp_path).stdout)
    assert doc["options"]["first_knock_turn"] == 5 and "slow_knock" not in doc["options"]
    assert doc["plugins"] == {"slowknock": {"movesets": ["slowknock"], "options": ["first_knock_turn"]}}
    assert validate(doc, tmp_path, PLUGINS)["valid"]
    error = validate(doc, tmp_path, None)["errors"][0]
    assert error["message"] == ('this transcript needs the plugin "slowknock" (move set "slowknock", option '
                                '"first_knock_turn"), which is not installed')
    del doc["plugins"]  # a transcript that does not say: the option, as before
    error = validate(doc, tmp_path, None)["errors"][0]
    assert error["rule"] == "transcript-options" and "first_knock_turn" in error["message"]


VARIANT_PLUGIN = '''
    from gincli import ScoringSystem, Variant, hookimpl
    from gincli.rulebook.rules import Option

    __version__ = "1.4.2"

    class Lowball(Variant):
        extra_options = (Option("low_bonus", 5, "a bonus of its own"),)

    @hookimpl
    def gincli_register_variants(register):
        register(Lowball("lowball", "gin only, its own bonus", {"knock_limit": 0}))
    '''


def test_a_plugins_variant_is_named_with_its_version_and_validate_names_the_plugin(tmp_path):
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "lowball.py").write_text(textwrap.dedent(VARIANT_PLUGIN))
    doc = json.loads(gin("deal", "--seed", "2", "--variant", "lowball", "--format", "json", tmp_path=tmp_path,
                         plugins=folder).stdout)
    assert doc["options"]["low_bonus"] == 5 and doc["options"]["knock_limit"] == 0
    assert doc["plugins"] == {"lowball": {"version": "1.4.2", "variant": "lowball", "options": ["low_bonus"]}}
    assert validate(doc, tmp_path, folder)["valid"]
    error = validate(doc, tmp_path, None)["errors"][0]
    assert error == {"hand": None, "move": None, "rule": "plugin-missing",
                     "message": 'this transcript needs the plugin "lowball" 1.4.2 (variant "lowball", option '
                                '"low_bonus"), which is not installed'}
    (folder / "lowball.py").write_text(textwrap.dedent(VARIANT_PLUGIN).replace('"lowball", "gin only',
                                                                                 '"highball", "gin only'))
    error = validate(doc, tmp_path, folder)["errors"][0]
    assert error["rule"] == "plugin-missing"
    assert "the plugin \"lowball\" installed here does not provide that" in error["message"]


def test_a_malformed_plugins_field_is_said(tmp_path):
    doc = json.loads(gin("deal", "--seed", "2", "--format", "json", tmp_path=tmp_path).stdout)
    doc["plugins"] = ["slowknock"]
    error = validate(doc, tmp_path, None)["errors"][0]
    assert error["rule"] == "plugin-missing" and "\"plugins\" must be an object" in error["message"]


def test_a_match_file_written_with_every_option_resumes(tmp_path):
    """Files gincli wrote before it left out the options of move sets that were off
    hold every option: a resumed match takes them as its own."""
    full = tmp_path / "full.jsonl"
    args = ["match", "--bots", "simple,random", "--games", "4", "--seed", "6", "-q", "--format", "json"]
    expected = gin(*args, "--transcripts", str(full), tmp_path=tmp_path)
    assert expected.returncode == 0, expected.stderr
    docs = [json.loads(line) for line in full.read_text().splitlines()]
    everything = {**docs[0]["options"], "doubling": False, "max_multiplier": "off", "decline_bonus": 10,
                  "slow_knock": False, "first_knock_turn": 3}
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps({**d, "options": everything}) + "\n" for d in docs[:2]))
    resumed = gin(*args, "--transcripts", str(old), "--resume", tmp_path=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["players"] == json.loads(expected.stdout)["players"]
    assert old.read_text().splitlines()[2:] == full.read_text().splitlines()[2:]
    # gin report reads the file, its sessions written both ways, as the match that wrote them
    reported = gin("report", str(old), "--output", str(tmp_path / "old.html"), "-f", "json", tmp_path=tmp_path)
    assert reported.returncode == 0, reported.stderr
    again = gin("report", str(full), "--output", str(tmp_path / "full.html"), "-f", "json", tmp_path=tmp_path)
    assert json.loads(reported.stdout) == json.loads(again.stdout)
    # ... but not a file whose rules differ, written either way
    for options in ({**everything, "first_knock_turn": 4}, {**docs[0]["options"], "first_knock_turn": 4}):
        other = tmp_path / "other.jsonl"
        other.write_text("".join(json.dumps({**d, "options": options}) + "\n" for d in docs[:2]))
        refused = gin(*args, "--transcripts", str(other), "--resume", tmp_path=tmp_path)
        assert refused.returncode == 2 and "first_knock_turn: 4 there, 3 here" in refused.stderr, refused.stderr
    # a newer file without an option this run sets
    other.write_text("".join(json.dumps(d) + "\n" for d in docs[:2]))
    refused = gin(*args, "--option", "first_knock_turn=4", "--transcripts", str(other), "--resume",
                  tmp_path=tmp_path)
    assert refused.returncode == 2 and "first_knock_turn" in refused.stderr, refused.stderr


def test_a_tournament_file_written_with_every_option_resumes(tmp_path):
    whole = tmp_path / "whole.jsonl"
    args = ["tournament", "--bots", "simple,random,expert", "--games", "2", "--seed", "4", "-q", "-f", "json"]
    expected = gin(*args, "--transcripts", str(whole), tmp_path=tmp_path)
    assert expected.returncode == 0, expected.stderr
    docs = [json.loads(line) for line in whole.read_text().splitlines()]
    everything = {**docs[0]["options"], "doubling": False, "max_multiplier": "off", "decline_bonus": 10,
                  "slow_knock": False, "first_knock_turn": 3}
    old = tmp_path / "old.jsonl"
    old.write_text("".join(json.dumps({**d, "options": everything}) + "\n" for d in docs[:3]))
    resumed = gin(*args, "--transcripts", str(old), "--resume", tmp_path=tmp_path)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout) == json.loads(expected.stdout)
    assert old.read_text().splitlines()[3:] == whole.read_text().splitlines()[3:]
