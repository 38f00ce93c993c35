"""The plugin contract's gaps, closed (issue 22, item 6): each seen by a tester
writing third-party plugins from docs/plugins.md alone. Every breach is one
sentence naming the plugin at fault, never a traceback, exit 3, or a fault
blamed on the input."""

from __future__ import annotations

import json
import re
import sys

import pytest
from conftest import ROOT
from test_plugin_contract import BROKEN_SESSION, gin

BOT = f"exec:{sys.executable} {ROOT / 'examples' / 'bot.py'}"


# -- 1. a scoring system's bad result() in gin validate ---------------------------------------------

def test_a_session_result_breach_in_gin_validate_is_a_plugin_fault_said_whole(tmp_path):
    plugins = {"bad": BROKEN_SESSION.format(add="pass", result='{"scores": "many"}')}
    doc = json.loads(gin("deal", "--seed", "3", "--scoring", "hand", "--format", "json", tmp_path=tmp_path).stdout)
    doc["scoring"] = "bad"
    res = gin("validate", "--format", "json", "-", tmp_path=tmp_path, plugins=plugins, input=json.dumps(doc))
    report = json.loads(res.stdout)
    assert res.returncode == 4 and not report["valid"]
    assert report["errors"][0]["rule"] == "plugin-fault"
    assert report["errors"][0]["message"] == ('plugin "bad": the scoring system bad\'s session.result()["scores"] '
                                              'returned "many", not a whole number for each player')


def test_a_session_failing_to_open_in_gin_validate_is_a_plugin_fault(tmp_path):
    code = """
        from gincli import ScoringSystem, hookimpl
        class Odd(ScoringSystem):
            name = "odd"
            def new_session(self, players, rules):
                return 42
        @hookimpl
        def gincli_register_scoring_systems(register):
            register(Odd())
        """
    doc = json.loads(gin("deal", "--seed", "3", "--scoring", "hand", "--format", "json", tmp_path=tmp_path).stdout)
    doc["scoring"] = "odd"
    res = gin("validate", "--format", "json", "-", tmp_path=tmp_path, plugins={"odd": code}, input=json.dumps(doc))
    fault = json.loads(res.stdout)["errors"][0]
    assert fault["rule"] == "plugin-fault" and fault["message"].startswith('plugin "odd": ')


# -- 2. a move set's state that is not JSON ---------------------------------------------------------

ODD_STATE = """
    from gincli import Move, MoveSet, Option, hookimpl
    class Odd(MoveSet):
        name = "odd"
        actions = ("poke",)
        options = (Option("odd", False, "odd state", "bool"),)
        def enabled(self, rules):
            return rules["odd"]
        def start(self, rules):
            return {START}
        def legal(self, view):
            return [Move(view.me, "poke")] if view.phase == "draw" else []
        def apply(self, hand, move):
            hand.extensions["odd"]["seen"] = {1, 2}
    @hookimpl
    def gincli_register_moves(register):
        register(Odd())
    """


def test_a_move_set_state_that_is_not_json_is_named_with_an_external_bot(tmp_path):
    plugins = {"odd": ODD_STATE.replace("{START}", '{"when": {1, 2}}')}
    res = gin("match", "--bots", f"{BOT},simple", "--hands", "2", "--seed", "1", "--option", "odd=true", "-q",
              tmp_path=tmp_path, plugins=plugins)
    assert res.returncode == 4
    assert res.stderr == ('gin: error: plugin "odd": the move set odd\'s start() returned a state that is not JSON '
                          '(its value["when"] is a set, which JSON has no way to write) (at hand 1 of session s0)\n')


def test_a_move_that_leaves_its_state_not_json_is_named(tmp_path):
    plugins = {"odd": ODD_STATE.replace("{START}", "{}")}
    deal = json.loads(gin("deal", "--seed", "3", "--format", "json", tmp_path=tmp_path, plugins=plugins).stdout)
    deal["options"]["odd"] = True
    dealer = deal["hands"][0]["dealer"]
    pone = next(p for p in deal["players"] if p != dealer)
    deal["hands"][0]["moves"] = [{"player": pone, "action": "pass"}, {"player": dealer, "action": "pass"},
                                 {"player": pone, "action": "poke"}]
    res = gin("validate", "--format", "json", "-", tmp_path=tmp_path, plugins=plugins, input=json.dumps(deal))
    fault = json.loads(res.stdout)["errors"][0]
    assert fault["rule"] == "plugin-fault"
    assert fault["message"] == ('plugin "odd": the move set odd\'s apply() left its state not JSON '
                                '(its value["seen"] is a set, which JSON has no way to write)')


# -- 3. a move set's score_record() result, and an outcome nobody scores ----------------------------

CONCEDE = """
    from gincli import HandResult, MoveSet, Option, hookimpl
    class Concede(MoveSet):
        name = "conceding"
        actions = ("concede",)
        options = (Option("conceding", False, "a player may concede", "bool"),)
        outcomes = ("conceded", "forgotten")
        record_fields = ("conceder",)
        def enabled(self, rules):
            return rules["conceding"]
        def apply(self, hand, move):
            hand.end(HandResult("conceded", hand.other(move.player), 5, None, None, hand.variant.name))
        def score_record(self, state, record, pos, variant, rules):
            if record.get("outcome") != "conceded":
                return None
            winner = next(p for p in pos.players if p != record["conceder"])
            return HandResult("conceded", winner, 5, None, None, variant.name)  # no id: gincli gives the record's
    @hookimpl
    def gincli_register_moves(register):
        register(Concede())
    """

HANDS_OF = {"ann": "As 2s 3s 4h 5h 6h Qs Qd Qc 4c".split(), "bob": "8d 9d Td Kh Kd Kc 2d 5d 6c 7s".split()}


def test_a_move_set_scored_record_keeps_the_record_id_and_an_outcome_nobody_scores_is_an_error(tmp_path):
    records = [{"id": "c1", "hands": HANDS_OF, "outcome": "conceded", "conceder": "ann"},
               {"id": "c2", "hands": HANDS_OF, "outcome": "forgotten"},
               {"id": "c3", "hands": HANDS_OF, "outcome": "resigned"},
               {"id": "c4", "hands": HANDS_OF, "knocker": "ann"}]
    res = gin("score", "--format", "json", "--option", "conceding=true", "-", tmp_path=tmp_path,
              plugins={"concede": CONCEDE}, input="".join(json.dumps(r) + "\n" for r in records))
    out = [json.loads(line) for line in res.stdout.splitlines()]
    assert res.returncode == 4 and [o["id"] for o in out] == ["c1", "c2", "c3", "c4"]
    assert out[0]["outcome"] == "conceded" and out[0]["winner"] == "bob" and out[0]["points"] == 5
    assert out[1]["error"] == ('plugin "concede": the outcome "forgotten" is the move set conceding\'s, but its '
                               'score_record() gave this record no result')
    assert out[2]["error"].startswith('no move set in play has the outcome "resigned"')
    assert out[3]["outcome"] == "knock"


def test_an_outcome_in_a_record_without_move_sets_is_an_error_not_a_dead_hand(tmp_path):
    res = gin("score", "--format", "json", "-", tmp_path=tmp_path,
              input=json.dumps({"id": "x", "hands": HANDS_OF, "outcome": "knock"}) + "\n")
    out = json.loads(res.stdout)
    assert res.returncode == 1 and out["id"] == "x" and "outcome" not in out
    assert out["error"].startswith('no move set in play has the outcome "knock"')


def test_doubling_leaves_another_move_sets_outcome_to_it(tmp_path):
    record = {"id": "c1", "hands": HANDS_OF, "outcome": "conceded", "conceder": "ann"}
    res = gin("score", "--format", "json", "--variant", "doubling", "--option", "conceding=true", "-",
              tmp_path=tmp_path, plugins={"concede": CONCEDE}, input=json.dumps(record) + "\n")
    out = json.loads(res.stdout)
    assert res.returncode == 0 and out["id"] == "c1" and out["outcome"] == "conceded"


# -- 4. a move set's keys that gin play reads itself -----------------------------------------------

def test_a_move_set_key_that_gin_play_reads_itself_is_refused_with_a_sentence(tmp_path):
    code = """
        from gincli import Move, MoveSet, Option, hookimpl
        class Shove(MoveSet):
            name = "shove"
            actions = ("shove", "nudge", "poke", "prod", "jab")
            options = (Option("shoving", False, "shoving", "bool"),)
            keys = {"shove": "u", "nudge": "7h", "poke": "x", "prod": "R", "jab": "j"}
        @hookimpl
        def gincli_register_moves(register):
            register(Shove())
        """
    res = gin("plugins", "--format", "json", tmp_path=tmp_path, plugins={"shove": code})
    assert res.returncode == 0
    assert ('gin: warning: plugin "shove": the move set shove\'s keys: the key "u" for shove is gin play\'s own '
            "(undo), so it was left out (gin play keeps ?, d, h, k, p, q, s, t, u, its words, cards and numbers for "
            "itself)") in res.stderr
    assert 'the key "7h" for nudge reads as a card' in res.stderr
    assert "the move set shove's key \"x\" for poke is the move set doubling's key for double" in res.stderr
    assert 'the key "R" for prod is not one lower-case word' in res.stderr
    assert res.stderr.count("gin: warning:") == 4
    from gincli.plugin.registry import load_registry

    registry = load_registry(plugin_dirs=[tmp_path / "plugins"])
    assert registry.movesets["shove"].keys == {"jab": "j"}  # the action's own name still works


def test_every_word_gin_play_reads_is_reserved():
    from gincli.cli.play import _WORDS
    from gincli.plugin.registration import PLAY_KEYS

    assert set(_WORDS) <= set(PLAY_KEYS)
    assert {"d", "t", "take", "p", "pass", "s", "stock", "k", "knock", "gin"} <= set(PLAY_KEYS)


#: A plugin's Python variant: the knock limit is 3.
TIGHT = """
        from gincli import Variant, hookimpl
        class Tight(Variant):
            def knock_limit(self, rules, upcard):
                return 3
        @hookimpl
        def gincli_register_variants(register):
            register(Tight("tight", "knock with 3"))
        """


# -- 5. where a plugin's Python variant comes from ---------------------------------------------------

def test_gin_variants_says_a_plugins_python_variant_comes_from_that_plugin(tmp_path):
    code = TIGHT + """
            register(Variant("mine", "said where it is from", {}, source="my notes"))
        """
    res = gin("variants", "--format", "json", tmp_path=tmp_path, plugins={"tight": code})
    found = {v["name"]: v for v in json.loads(res.stdout)["variants"]}
    assert found["tight"]["plugin"] == "tight"
    assert found["tight"]["source"] == f"plugin tight ({tmp_path / 'plugins' / 'tight.py'})"
    assert found["mine"]["source"] == "my notes"  # a source the plugin gives stays
    assert found["standard"]["source"].startswith("built-in")


# -- 6. a plugin command's crash ---------------------------------------------------------------------

def test_a_plugin_commands_crash_names_the_plugin_not_a_gincli_bug(tmp_path):
    code = """
        import sys
        from gincli import hookimpl
        def boom():
            \"\"\"Crash.\"\"\"
            {}["x"]
        def leave():
            \"\"\"Leave.\"\"\"
            sys.exit(4)
        @hookimpl
        def gincli_register_commands(register):
            register(boom, name="go-boom")
            register(leave)
        """
    res = gin("go-boom", tmp_path=tmp_path, plugins={"crash": code})
    assert res.returncode == 4
    assert res.stderr == ('gin: error: plugin "crash": its command go-boom failed: KeyError: \'x\' '
                          "(GINCLI_DEBUG=1 shows the traceback)\n")
    res = gin("leave", tmp_path=tmp_path, plugins={"crash": code})
    assert res.returncode == 4 and res.stderr == 'gin: error: plugin "crash": its command leave called sys.exit(4); ' \
                                                 "gincli stopped\n"


# -- 7. a plugin fault that stops a match --------------------------------------------------------------

FLAKY = """
    from gincli import Variant, hookimpl
    class Flaky(Variant):
        def knock_limit(self, rules, upcard):
            if upcard == 12:  # the king of spades
                raise RuntimeError("king of spades")
            return 10
    @hookimpl
    def gincli_register_variants(register):
        register(Flaky("flaky", "fails when the king of spades is the upcard"))
    """

SERIAL = (ROOT / "docs" / "examples" / "serial.py").read_text()


@pytest.mark.parametrize("backend", ["local", "serial"])
def test_a_plugin_fault_that_stops_a_match_names_the_session_and_hand_and_keeps_the_sessions_before(tmp_path,
                                                                                                    backend):
    out = tmp_path / "t.jsonl"
    res = gin("match", "--bots", "simple,simple", "--variant", "flaky", "--games", "20", "--seed", "3", "-q",
              "--transcripts", str(out), "--backend", backend, "--workers", "2", "--format", "json",
              tmp_path=tmp_path, plugins={"flaky": FLAKY, "serial": SERIAL})
    assert res.returncode == 4 and res.stderr.count("gin: error:") == 1
    found = re.fullmatch(r'gin: error: plugin "flaky": the variant flaky\'s knock_limit\(\) failed: RuntimeError: '
                         r"king of spades \(at hand (\d+) of session s(\d+)\)\n", res.stderr)
    assert found, res.stderr
    session = int(found.group(2))
    assert session >= 2  # sessions before it were played (in more than one chunk)
    kept = [json.loads(line) for line in out.read_text().splitlines()]
    assert [d["id"] for d in kept] == [f"s{i}" for i in range(session)]


# -- 8. a hook implementation pluggy refuses -------------------------------------------------------------

def test_a_misnamed_hook_parameter_is_a_sentence_naming_the_plugin_the_hook_and_its_parameters(tmp_path):
    typo = """
        from gincli import Variant, hookimpl
        @hookimpl
        def gincli_register_variants(registr):
            registr(Variant("typo", "never registered"))
        """
    nohook = """
        from gincli import hookimpl
        @hookimpl
        def gincli_register_things(register):
            pass
        """
    res = gin("variants", "--format", "json", tmp_path=tmp_path, plugins={"typo": typo, "nohook": nohook})
    assert res.returncode == 0 and "hookimpl" not in res.stderr and "\\n" not in res.stderr
    folder = tmp_path / "plugins"
    assert (f'gin: warning: plugin "typo" ({folder / "typo.py"}) was not loaded: its gincli_register_variants takes '
            '"registr", which the hook does not have: its parameters are register (gincli calls hooks by keyword, '
            "so a hook implementation names each parameter as the hook does, or leaves it out)\n") in res.stderr
    assert (f'gin: warning: plugin "nohook" ({folder / "nohook.py"}) was not loaded: gincli_register_things is not '
            "one of gincli's hooks (gincli_register_bots, ") in res.stderr
    assert "standard" in {v["name"] for v in json.loads(res.stdout)["variants"]}


# -- 9. a Python variant's unknown default --------------------------------------------------------------

def test_an_unknown_option_in_a_python_variants_defaults_is_an_error_as_in_a_variant_file(tmp_path):
    code = """
        from gincli import Variant, hookimpl
        @hookimpl
        def gincli_register_variants(register):
            register(Variant("typo", "a misspelt option", {"knock_limt": 5}))
        """
    said = 'plugin "typo": the variant typo has a default for "knock_limt", which is not an option (the options are '
    res = gin("score", "--variant", "typo", str(ROOT / "examples" / "hand.toml"), tmp_path=tmp_path,
              plugins={"typo": code})
    assert res.returncode == 4
    assert res.stderr.count("gin: warning: " + said) == 1 and res.stderr.count("gin: error: " + said) == 1
    assert res.stderr.rstrip().endswith("so the variant was left out") and res.stdout == ""
    listed = gin("variants", "--format", "json", tmp_path=tmp_path, plugins={"typo": code})
    assert "typo" not in {v["name"] for v in json.loads(listed.stdout)["variants"]}
    # a variant file's unknown option, in the configuration folder: the same, said again when it is asked for
    (tmp_path / "config" / "variants").mkdir(parents=True)
    (tmp_path / "config" / "variants" / "fast.toml").write_text('base = "standard"\n[options]\nknock_limt = 5\n')
    res = gin("score", "--variant", "fast", str(ROOT / "examples" / "hand.toml"), tmp_path=tmp_path)
    assert res.returncode == 2 and 'gin: error: variant file' in res.stderr
    assert 'unknown option "knock_limt"' in res.stderr.splitlines()[-1]


def test_a_move_set_result_whose_fields_are_not_json_is_named(tmp_path):
    code = CONCEDE.replace('return HandResult("conceded", winner, 5, None, None, variant.name)',
                           'return HandResult("conceded", winner, 5, None, None, variant.name, fields={"at": {1}})')
    record = {"id": "c1", "hands": HANDS_OF, "outcome": "conceded", "conceder": "ann"}
    res = gin("score", "--format", "json", "--option", "conceding=true", "-", tmp_path=tmp_path,
              plugins={"concede": code}, input=json.dumps(record) + "\n")
    assert json.loads(res.stdout) == {"id": "c1", "error": 'plugin "concede": the move set conceding\'s score_record() '
                                                           'returned a result whose fields are not JSON (its value'
                                                           '["at"] is a set, which JSON has no way to write)'}


def test_a_variant_file_may_start_from_a_plugins_python_variant_and_keeps_its_code(tmp_path):
    (tmp_path / "config" / "variants").mkdir(parents=True)
    (tmp_path / "config" / "variants" / "tighter.toml").write_text(
        'name = "tighter"\nbase = "tight"\n[options]\ngin_bonus = 20\n')
    code = TIGHT
    res = gin("score", "--format", "json", "--variant", "tighter", str(ROOT / "examples" / "hand.toml"),
              tmp_path=tmp_path, plugins={"tight": code})
    assert res.returncode == 1 and "gin: warning" not in res.stderr
    assert json.loads(res.stdout)["error"] == "ann knocked with 8 deadwood, over the knock limit of 3"
