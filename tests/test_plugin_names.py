"""Names cannot collide silently (issue 35, criterion 3): an option, a rule id,
a key or an action a plugin shares with the rule book, a built-in or another
plugin is refused for the one that came later (the built-ins first, then the
plugins in order of precedence), in one sentence, and the built-ins keep
working; asked for later, what was left out is that sentence again, exit 4."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from gincli.base.errors import EXIT_PLUGIN_FAULT

GIN = str(Path(sys.executable).with_name("gin"))

CORNER = {"id": "c1", "knocker": "ann",
          "hands": {"ann": ["Qs", "Ks", "As", "2h", "3h", "4h", "5c", "5d", "5s", "9c"],
                    "bob": ["Js", "2s", "7h", "7d", "8c", "9d", "Td", "Jd", "Kc", "Kh"]}}


def moveset(name: str, options: str = "", **attrs: str) -> str:
    """A move set ``name`` with the attributes given (Python source) and the options given
    besides its own ``<name>_on``."""
    body = "".join(f"    {k} = {v}\n" for k, v in attrs.items())
    return (f"from gincli import MoveSet, Option, hookimpl\n\n\n"
            f"class Named(MoveSet):\n"
            f"    name = \"{name}\"\n"
            f"    description = \"a move set with a name it may share\"\n"
            f"    options = (Option(\"{name}_on\", False, \"on\", \"bool\"), {options})\n"
            f"{body}\n"
            f"    def enabled(self, rules):\n"
            f"        return rules[\"{name}_on\"]\n\n\n"
            f"@hookimpl\n"
            f"def gincli_register_moves(register):\n"
            f"    register(Named())\n")


def folder(tmp_path: Path, name: str, **files: str) -> Path:
    where = tmp_path / name
    where.mkdir()
    for file, code in files.items():
        (where / f"{file}.py").write_text(code)
    return where


def gin(tmp_path: Path, *args: str, input: str | None = None):
    env = {"PATH": os.environ["PATH"], "GINCLI_CONFIG_DIR": str(tmp_path / "config"), "PYTHONIOENCODING": "utf-8"}
    res = subprocess.run([GIN, *args], capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300,
                         input=input)
    assert res.returncode != 3 and "Traceback" not in res.stderr, res.stderr
    return res


def warnings(res) -> list[str]:
    return [line for line in res.stderr.splitlines() if line.startswith("gin: warning:")]


#: A plugin's item taking a name the rule book, gincli or a built-in has: what the warning says it is.
BUILT_IN = {
    "an option of the rule book": (moveset("odd", options='Option("gin_bonus", 20, "gin", "int")'),
                                   'its option "gin_bonus" is the rule book\'s'),
    "an option of round-the-corner": (moveset("odd", options='Option("ace_value", 1, "an ace", "int")'),
                                      'its option "ace_value" is the meld rules round-the-corner\'s'),
    "an option of doubling": (moveset("odd", options='Option("decline_bonus", 5, "bonus")'),
                              'its option "decline_bonus" is the move set doubling\'s'),
    "an option of a scoring system": (moveset("odd", options='Option("target", 50, "target")'),
                                      'its option "target" is the scoring system game\'s'),
    "an action of doubling": (moveset("odd", actions='("double",)'), 'its action "double" is the move set doubling\'s'),
    "an action of the rule book": (moveset("odd", actions='("knock",)'), 'its action "knock" is the rule book\'s'),
    "a rule id of gincli": (moveset("odd", rule_ids='{"out-of-turn": "mine"}'),
                            'its rule id "out-of-turn" is gincli\'s'),
    "a rule id of doubling": (moveset("odd", rule_ids='{"answer-expected": "mine"}'),
                              'its rule id "answer-expected" is the move set doubling\'s'),
}


@pytest.mark.parametrize("case", list(BUILT_IN))
def test_a_plugin_taking_a_built_in_name_is_left_out_and_the_built_ins_keep_working(tmp_path, case):
    code, said = BUILT_IN[case]
    plugins = folder(tmp_path, "p", odd=code)
    listed = gin(tmp_path, "--plugins-dir", str(plugins), "plugins", "-f", "json")
    assert listed.returncode == 0
    what = said.split('"')[0].removeprefix("its ").strip()
    assert warnings(listed) == [f'gin: warning: plugin "odd": the move set odd was left out: {said}, and '
                                f'{"an" if what[0] in "ao" else "a"} {what} is one name for all of gincli (give it a '
                                'name of its own, such as one that starts with the plugin\'s name: docs/plugins.md, '
                                '"Naming things")']
    # round-the-corner, doubling and every scoring system as before
    scored = gin(tmp_path, "--plugins-dir", str(plugins), "score", "-f", "json", "--variant", "round-the-corner", "-",
                 input=json.dumps(CORNER))
    assert scored.returncode == 0 and json.loads(scored.stdout)["knocker"]["deadwood"] == 9
    match = gin(tmp_path, "--plugins-dir", str(plugins), "match", "--bots", "simple,expert", "--variant",
                "doubling", "--games", "1", "--seed", "2", "-q", "-f", "json", "--transcripts", "t.jsonl")
    assert match.returncode == 0, match.stderr
    assert gin(tmp_path, "--plugins-dir", str(plugins), "validate", "t.jsonl").returncode == 0
    # what was left out, asked for: its sentence, exit 4
    asked = gin(tmp_path, "--plugins-dir", str(plugins), "deal", "--seed", "1", "-o", "odd_on=true")
    assert asked.returncode == EXIT_PLUGIN_FAULT and said in asked.stderr


#: Two plugins giving one name: what each move set adds beside its own option, and what the warning says.
SHARED = {
    "option": ({"options": 'Option("shared_turn", 3, "a turn")'}, 'its option "shared_turn"'),
    "action": ({"actions": '("wave",)'}, 'its action "wave"'),
    "rule id": ({"rule_ids": '{"wave-late": "a wave too late"}'}, 'its rule id "wave-late"'),
}


@pytest.mark.parametrize("what", list(SHARED))
def test_of_two_plugins_with_one_name_the_later_is_left_out(tmp_path, what):
    attrs, said = SHARED[what]
    first = folder(tmp_path, "first", early=moveset("early", **attrs))
    second = folder(tmp_path, "second", late=moveset("late", **attrs))
    res = gin(tmp_path, "--plugins-dir", str(first), "--plugins-dir", str(second), "plugins", "-f", "json")
    assert res.returncode == 0
    [warning] = warnings(res)
    assert f'plugin "late": the move set late was left out: {said} is the move set early\'s (plugin "early")' in warning
    registered = {p["name"]: p.get("registered", {}) for p in json.loads(res.stdout)["plugins"]}
    assert registered["early"] == {"move_sets": ["early"]} and not registered["late"]
    swapped = gin(tmp_path, "--plugins-dir", str(second), "--plugins-dir", str(first), "plugins")
    assert f"the move set early was left out: {said} is the move set late's" in swapped.stderr
    # the first keeps working; the later, asked for, is its sentence again
    assert gin(tmp_path, "--plugins-dir", str(first), "--plugins-dir", str(second), "deal", "--seed", "1",
               "-o", "early_on=true").returncode == 0
    asked = gin(tmp_path, "--plugins-dir", str(first), "--plugins-dir", str(second), "deal", "--seed", "1",
                "-o", "late_on=true")
    assert asked.returncode == EXIT_PLUGIN_FAULT and f"the move set late was left out: {said}" in asked.stderr


def test_a_scoring_system_and_a_variant_may_not_share_an_option_but_two_scoring_systems_may(tmp_path):
    code = textwrap.dedent("""\
        from gincli import GAME_OPTIONS, Option, ScoringSystem, Variant, hookimpl
        from gincli_builtin.scoring import GameSession


        class Longer(ScoringSystem):
            name = "longer"
            description = "a game, with the game's own options"
            options = GAME_OPTIONS

            def new_session(self, players, rules):
                return GameSession(players, rules)


        class Rounds(Variant):
            extra_options = (Option("target", 3, "rounds"),)


        @hookimpl
        def gincli_register_scoring_systems(register):
            register(Longer())


        @hookimpl
        def gincli_register_variants(register):
            register(Rounds("rounds", "a variant with an option a scoring system has"))
        """)
    plugins = folder(tmp_path, "p", mixed=code)
    res = gin(tmp_path, "--plugins-dir", str(plugins), "variants", "-f", "json")
    assert res.returncode == 0
    [warning] = warnings(res)
    assert 'the variant rounds was left out: its option "target" is the scoring system ' in warning
    listed = json.loads(res.stdout)
    assert "longer" in {s["name"] for s in listed["scoring_systems"]}  # GAME_OPTIONS, as the game's: no clash
    assert "rounds" not in {v["name"] for v in listed["variants"]}
    asked = gin(tmp_path, "--plugins-dir", str(plugins), "deal", "--variant", "rounds", "--seed", "1")
    assert asked.returncode == EXIT_PLUGIN_FAULT and "the variant rounds was left out" in asked.stderr


def test_a_scoring_system_may_give_a_rule_book_option_another_default_but_not_another_kind(tmp_path):
    # as eaai gives next_dealer "alternate": the rule book's option, the variant's defaults still over it
    code = textwrap.dedent("""\
        from gincli import GAME_OPTIONS, Option, ScoringSystem, hookimpl
        from gincli_builtin.scoring import GameSession


        class Tight(ScoringSystem):
            name = "tight"
            description = "a game where the loser deals"
            options = GAME_OPTIONS + (Option("next_dealer", "loser", "who deals", "choice",
                                             ("winner", "loser", "alternate")),)

            def new_session(self, players, rules):
                return GameSession(players, rules)


        class Odd(Tight):
            name = "odd-dealer"
            options = GAME_OPTIONS + (Option("next_dealer", True, "who deals", "bool"),)


        @hookimpl
        def gincli_register_scoring_systems(register):
            register(Tight())
            register(Odd())
        """)
    plugins = folder(tmp_path, "p", tight=code)
    res = gin(tmp_path, "--plugins-dir", str(plugins), "deal", "--scoring", "tight", "--seed", "1", "-f", "json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["options"]["next_dealer"] == "loser"
    [warning] = warnings(res)
    assert 'the scoring system odd-dealer was left out: its option "next_dealer" is the rule book\'s' in warning


def test_a_key_another_move_set_has_is_left_out_and_the_built_ins_keep_theirs(tmp_path):
    plugins = folder(tmp_path, "p", keyed=moveset("keyed", actions='("wave",)', keys='{"wave": "x"}'))
    res = gin(tmp_path, "--plugins-dir", str(plugins), "plugins")
    assert res.returncode == 0
    [warning] = warnings(res)
    assert 'the move set keyed\'s key "x" for wave is the move set doubling\'s key for double' in warning


def test_of_two_plugins_with_one_key_the_later_loses_it(tmp_path):
    first = folder(tmp_path, "first", early=moveset("early", actions='("wave",)', keys='{"wave": "w"}'))
    second = folder(tmp_path, "second", late=moveset("late", actions='("bow", "curtsy")',
                                                     keys='{"bow": "w", "curtsy": "wave"}'))
    res = gin(tmp_path, "--plugins-dir", str(first), "--plugins-dir", str(second), "plugins", "-f", "json")
    assert res.returncode == 0
    assert sorted(warnings(res)) == [
        'gin: warning: plugin "late": the move set late\'s key "w" for bow is the move set early\'s key for wave, '
        "so it was left out (the action's name still works in gin play)",
        'gin: warning: plugin "late": the move set late\'s key "wave" for curtsy is the move set early\'s action, '
        "so it was left out (the action's name still works in gin play)"]
    registered = {p["name"]: p.get("registered", {}) for p in json.loads(res.stdout)["plugins"]}
    assert registered["late"] == {"move_sets": ["late"]}  # only the keys are left out


def test_doublings_keys_still_play_beside_a_plugin_that_wanted_one(tmp_path):
    """gin play under doubling reads x as double whatever a plugin asked for."""
    plugins = folder(tmp_path, "p", keyed=moveset("keyed", actions='("wave",)', keys='{"wave": "x"}'))
    res = gin(tmp_path, "--plugins-dir", str(plugins), "play", "--seed", "3", "--name", "ann", "--bot", "simple",
              "--variant", "doubling", "--transcript", "t.json", input="x\nq\n")
    assert res.returncode == 0, res.stderr
    moves = json.loads((tmp_path / "t.json").read_text())["hands"][0]["moves"]
    assert {"player": "ann", "action": "double"} in [{k: m[k] for k in ("player", "action")} for m in moves]
