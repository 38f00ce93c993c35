"""Meld rules keep the contract (issue 35, criterion 4): every fault of a
meld-rules plugin, whatever part of its data is wrong, is a ``plugin-fault`` on
the records and transcripts it touches, the others still processed, in ``gin
score`` and ``gin validate`` as in ``gincli.score`` and ``gincli.validate``; the
run's status is 4. And ``plugin-missing`` names every plugin a transcript needs
that is not here."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ROOT

from gincli.base.errors import EXIT_PLUGIN_FAULT

GIN = str(Path(sys.executable).with_name("gin"))

#: Meld rules right at their defaults, and wrong in one part of their data once
#: ``odd_melds`` is on; a variant ``odd`` turns them on.
ODD = '''
from gincli import MeldRules, Option, Variant, hookimpl, standard_melds


class Odd(MeldRules):
    name = "odd"
    description = "wrong once on"
    options = (Option("odd_melds", False, "play with the odd melds", "bool"),)

    def enabled(self, rules):
        return rules["odd_melds"]

    def melds(self, rules):
        return standard_melds() + ({melds} if rules["odd_melds"] else [])

    def card_value(self, card, rules):
        return {card_value} if rules["odd_melds"] else super().card_value(card, rules)

    def layoff_on_gin(self, rules):
        return {layoff_on_gin} if rules["odd_melds"] else False

    def words(self, rules):
        return {words} if rules["odd_melds"] else "sets and runs"


@hookimpl
def gincli_register_meld_rules(register):
    register(Odd())


@hookimpl
def gincli_register_variants(register):
    register(Variant("odd", "the odd melds", {{"odd_melds": True}}))
'''

FINE = {"melds": "[]", "card_value": "super().card_value(card, rules)", "layoff_on_gin": "False",
        "words": '"sets and runs"'}

#: Each part of the data wrong, and what the sentence says of it.
FAULTS = {
    "a mask past 52 bits": ({"melds": "[1 << 60]"}, "the meld rules odd's melds() returned 1152921504606846976"),
    "a mask of one card": ({"melds": "[1]"}, "the meld rules odd's melds() returned 1"),
    "melds that are no list": ({"melds": "[None]"}, "the meld rules odd's melds() returned null"),
    "melds() raising": ({"melds": "[1 // 0]"}, "the meld rules odd's melds() failed: ZeroDivisionError"),
    "a card value past 100": ({"card_value": "101"}, "the meld rules odd's card_value() returned 101"),
    "a card value that is text": ({"card_value": '"ten"'}, "the meld rules odd's card_value() returned \"ten\""),
    "layoff_on_gin not true or false": ({"layoff_on_gin": "1"}, "the meld rules odd's layoff_on_gin() returned 1"),
    "words that are no sentence": ({"words": '""'}, "the meld rules odd's words() returned \"\""),
}

HAND = {"knocker": "ann", "hands": {"ann": ["As", "2s", "3s", "4h", "5h", "6h", "Qs", "Qd", "Qc", "8c"],
                                    "bob": ["8d", "9d", "Td", "Kh", "Ks", "Kc", "2d", "5d", "6c", "7s"]}}


def plugin(tmp_path: Path, case: str) -> Path:
    folder = tmp_path / "plugins"
    folder.mkdir(exist_ok=True)
    (folder / "odd.py").write_text(ODD.format(**{**FINE, **FAULTS[case][0]}))
    return folder


def gin(tmp_path: Path, *args: str, input: str | None = None):
    env = {"PATH": os.environ["PATH"], "GINCLI_CONFIG_DIR": str(tmp_path / "config"), "PYTHONIOENCODING": "utf-8"}
    res = subprocess.run([GIN, *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300,
                         input=input)
    assert res.returncode != 3 and "Traceback" not in res.stderr and "internal error" not in res.stderr, res.stderr
    return res


def records() -> str:
    return "".join(json.dumps({"id": f"h{i}", **HAND, **({"variant": "odd"} if i == 1 else {})}) + "\n"
                   for i in range(3))


@pytest.fixture(scope="module")
def transcripts(tmp_path_factory) -> list[dict]:
    """Three one-hand transcripts of the rule book, the second under the variant ``odd``."""
    tmp = tmp_path_factory.mktemp("deal")
    docs = []
    for i in range(3):
        doc = json.loads(gin(tmp, "deal", "--seed", str(i), "-f", "json").stdout)
        if i == 1:
            doc["variant"] = "odd"
        docs.append(doc)
    return docs


@pytest.mark.parametrize("case", list(FAULTS))
def test_gin_score_gives_each_record_the_meld_rules_touch_a_plugin_fault_and_scores_the_others(tmp_path, case):
    folder = plugin(tmp_path, case)
    said = FAULTS[case][1]
    res = gin(tmp_path, "--plugins-dir", str(folder), "score", "-f", "json", "-", input=records())
    assert res.returncode == EXIT_PLUGIN_FAULT, res.stderr
    out = [json.loads(line) for line in res.stdout.splitlines()]
    assert [o["id"] for o in out] == ["h0", "h1", "h2"]
    assert said in out[1]["error"] and out[1]["error"].startswith('plugin "odd": ')
    assert "error" not in out[0] and "error" not in out[2]
    # on for every record (--option): each one's error, none dropped
    every = gin(tmp_path, "--plugins-dir", str(folder), "score", "-f", "json", "-o", "odd_melds=true", "-",
                input=records())
    assert every.returncode == EXIT_PLUGIN_FAULT
    assert [said in json.loads(line)["error"] for line in every.stdout.splitlines()] == [True] * 3


@pytest.mark.parametrize("case", list(FAULTS))
def test_gin_validate_reports_a_plugin_fault_on_each_transcript_the_meld_rules_touch(tmp_path, case, transcripts):
    folder = plugin(tmp_path, case)
    said = FAULTS[case][1]
    text = "".join(json.dumps(d) + "\n" for d in transcripts)
    res = gin(tmp_path, "--plugins-dir", str(folder), "validate", "-f", "json", "-", input=text)
    assert res.returncode == EXIT_PLUGIN_FAULT, res.stderr
    reports = [json.loads(line) for line in res.stdout.splitlines()]
    assert [r["valid"] for r in reports] == [True, False, True]
    assert reports[1]["errors"][0]["rule"] == "plugin-fault" and said in reports[1]["errors"][0]["message"]
    every = gin(tmp_path, "--plugins-dir", str(folder), "validate", "-f", "json", "-o", "odd_melds=true", "-",
                input=text)
    assert every.returncode == EXIT_PLUGIN_FAULT
    assert {json.loads(line)["errors"][0]["rule"] for line in every.stdout.splitlines()} == {"plugin-fault"}


def test_the_api_gives_the_same_entries_and_reports_and_raises_nothing(tmp_path, transcripts):
    folder = plugin(tmp_path, "a mask past 52 bits")
    code = textwrap.dedent("""
        import json, sys, gincli
        records = [json.loads(line) for line in sys.stdin.read().splitlines()]
        transcripts = json.loads(sys.argv[1])
        out = {"score": list(gincli.score(records)),
               "score_on": list(gincli.score(records, options={"odd_melds": True})),
               "validate": [gincli.validate(t) for t in transcripts],
               "validate_on": [gincli.validate(t, options={"odd_melds": True}) for t in transcripts]}
        print(json.dumps(out))
    """)
    env = {**os.environ, "GINCLI_PLUGINS_DIR": str(folder), "GINCLI_CONFIG_DIR": str(tmp_path / "config")}
    res = subprocess.run([sys.executable, "-c", code, json.dumps(transcripts)], input=records(), env=env,
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    cli = gin(tmp_path, "--plugins-dir", str(folder), "score", "-f", "json", "-", input=records())
    assert out["score"] == [json.loads(line) for line in cli.stdout.splitlines()]
    assert all("error" in r for r in out["score_on"])
    assert [r["valid"] for r in out["validate"]] == [True, False, True]
    assert out["validate"][1]["errors"][0]["rule"] == "plugin-fault"
    assert {r["errors"][0]["rule"] for r in out["validate_on"]} == {"plugin-fault"}


def test_plugin_missing_names_every_plugin_a_transcript_needs(tmp_path):
    plugins = ROOT / "tests" / "plugins"
    res = gin(tmp_path, "--plugins-dir", str(plugins), "deal", "--seed", "1", "--scoring", "first-to-three", "-o",
              "four_card_sets=true", "-o", "no_late_take=true", "-f", "json")
    assert res.returncode == 0, res.stderr
    doc = json.loads(res.stdout)
    assert set(doc["plugins"]) == {"firstto3", "foursets", "latetake"}
    checked = gin(tmp_path, "validate", "-f", "json", "-", input=res.stdout)
    fault = json.loads(checked.stdout)["errors"][0]
    assert fault["rule"] == "plugin-missing"
    message = fault["message"]
    assert message == ('this transcript needs the plugin "firstto3" (scoring system "first-to-three"), which is not '
                       'installed, and the plugin "latetake" 0.3 (move set "latetake", options "no_late_take" and '
                       '"last_take_turn"), which is not installed, and the plugin "foursets" (meld rules "four-sets", '
                       'option "four_card_sets"), which is not installed')
