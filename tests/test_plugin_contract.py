"""The plugin contract, enforced: a suite of deliberately broken plugins, one
breach each, each named in one sentence, and nothing else lost (no exit 3, the
other records scored, the match played to its end)."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ROOT
from helpers import json_lines

GIN = str(Path(sys.executable).with_name("gin"))
HANDS = str(ROOT / "examples" / "hands.jsonl")


def gin(*args: str, tmp_path: Path, plugins: dict[str, str] | None = None, input: str | None = None):
    env = {"PATH": "/usr/bin:/bin", "GINCLI_CONFIG_DIR": str(tmp_path / "config"), "PYTHONIOENCODING": "utf-8"}
    folder = tmp_path / "plugins"
    folder.mkdir(exist_ok=True)
    for name, code in (plugins or {}).items():
        (folder / f"{name}.py").write_text(textwrap.dedent(code))
    res = subprocess.run([GIN, "--plugins-dir", str(folder), *args], capture_output=True, text=True, cwd=ROOT,
                         env=env, timeout=600, input=input)
    assert res.returncode != 3 and "Traceback" not in res.stderr, res.stderr
    return res


# -- what a plugin registers ----------------------------------------------------------------------

@pytest.mark.parametrize("code,said", [
    ("""
     from gincli import hookimpl
     @hookimpl
     def gincli_register_variants(register):
         register("standard")
     """, 'plugin "bad" called register() with "\'standard\'", not a variant'),
    ("""
     from gincli import Variant, hookimpl
     @hookimpl
     def gincli_register_variants(register):
         return [Variant("lost", "returned, not registered")]
     """, 'plugin "bad": its gincli_register_variants hook returned'),
    ("""
     from gincli import Variant
     def gincli_register_variants(register):
         register(Variant("lost", "never called"))
     """, 'plugin "bad": gincli_register_variants is not marked @gincli.hookimpl'),
    ("""
     from gincli import Variant, hookimpl
     @hookimpl
     def gincli_register_variants(register):
         register(Variant("typo", "a misspelt option", {"knock_limt": 5}))
     """, 'plugin "bad": the variant typo has a default for "knock_limt", which is not an option'),
    ("""
     from gincli import ScoringSystem, hookimpl
     class Many(ScoringSystem):
         name = "many"
         players = (2, 9)
     @hookimpl
     def gincli_register_scoring_systems(register):
         register(Many())
     """, "the scoring system many's players must be a tuple of counts from 2 to 4"),
    ("""
     from gincli import MoveSet, hookimpl
     class Steal(MoveSet):
         name = "steal"
         actions = ("draw",)
     @hookimpl
     def gincli_register_moves(register):
         register(Steal())
     """, "the move set steal was left out: its action \"draw\" is the rule book's"),
])
def test_a_registration_breach_is_one_warning_naming_the_plugin_and_the_rest_loads(tmp_path, code, said):
    res = gin("variants", "--format", "json", tmp_path=tmp_path, plugins={"bad": code})
    assert res.returncode == 0 and said in res.stderr
    assert res.stderr.count("gin: warning:") == 1
    assert {"standard", "oklahoma"} <= {v["name"] for v in json.loads(res.stdout)["variants"]}


def test_disabling_a_plugin_that_does_not_exist_is_said(tmp_path):
    res = gin("--disable-plugin", "gincli-bost", "bots", tmp_path=tmp_path)
    assert res.returncode == 0 and '--disable-plugin "gincli-bost" names no plugin' in res.stderr


def test_a_clash_warns_once_naming_what_lost_and_replacing_a_builtin_is_silent(tmp_path):
    one = """
        from gincli import Variant, hookimpl
        @hookimpl
        def gincli_register_variants(register):
            register(Variant("house", "ours"))
            register(Variant("standard", "our standard: knock with 5", {"knock_limit": 5}))
        """
    two = """
        from gincli import Variant, hookimpl
        @hookimpl
        def gincli_register_variants(register):
            register(Variant("house", "theirs"))
        """
    res = gin("plugins", "--format", "json", tmp_path=tmp_path, plugins={"a_one": one, "b_two": two})
    assert res.stderr.count("gin: warning:") == 1
    assert 'the variant "house" of plugin "b_two" was left out: plugin "a_one" registered that name first' \
        in res.stderr
    plugins = {p["name"]: p for p in json.loads(res.stdout)["plugins"]}
    assert plugins["a_one"]["replaces"] == ["the variant standard of gincli-variants"]
    assert [p for p in json.loads(res.stdout)["plugins"]][0]["name"] == "a_one"  # folders come first
    res = gin("variants", "--format", "json", tmp_path=tmp_path)
    standard = next(v for v in json.loads(res.stdout)["variants"] if v["name"] == "standard")
    assert {o["name"]: o["default"] for o in standard["options"]}["knock_limit"] == 5


# -- what a plugin's code returns while gincli runs -----------------------------------------------

BROKEN_VARIANT = """
    from gincli import Variant, hookimpl
    class Broken(Variant):
        def knock_limit(self, rules, upcard):
            return {kind}
    @hookimpl
    def gincli_register_variants(register):
        register(Broken("broken", "a plugin's bug"))
    """


@pytest.mark.parametrize("kind,said", [
    ('"ten"', 'knock_limit() returned "ten", not a whole number of 0 or more'),
    ("-1", "knock_limit() returned -1, not a whole number of 0 or more"),
    ("True", "knock_limit() returned true, not a whole number of 0 or more"),
    ("1 / 0", "knock_limit() failed: ZeroDivisionError"),
])
def test_a_variant_returning_a_bad_knock_limit_costs_its_records_only(tmp_path, kind, said):
    lines = [json.loads(line) for line in Path(HANDS).read_text().splitlines()]
    records = [dict(r, variant="broken") if i % 2 else r for i, r in enumerate(lines)]
    res = gin("score", "--format", "json", "-", tmp_path=tmp_path,
              plugins={"broken": BROKEN_VARIANT.format(kind=kind)},
              input="".join(json.dumps(r) + "\n" for r in records))
    out = json_lines(res.stdout)
    assert res.returncode == 4 and len(out) == len(records)
    for r, o in zip(records, out, strict=True):
        if r.get("variant") == "broken" and r.get("knocker"):
            assert o["error"] == f'plugin "broken": the variant broken\'s {said}' or said in o["error"]
        elif r.get("variant") != "broken":
            assert "error" not in o or "broken" not in o["error"]


def test_a_variant_multiplier_below_one_is_a_breach(tmp_path):
    code = """
        from gincli import Variant, hookimpl
        class Free(Variant):
            def hand_multiplier(self, rules, upcard):
                return 0
        @hookimpl
        def gincli_register_variants(register):
            register(Free("free", "no points"))
        """
    res = gin("score", "--format", "json", "--variant", "free", str(ROOT / "examples" / "hand.toml"),
              tmp_path=tmp_path, plugins={"free": code})
    assert res.returncode == 4
    assert "hand_multiplier() returned 0, not a whole number of 1 or more" in json_lines(res.stdout)[0]["error"]


BROKEN_SESSION = """
    from gincli import ScoringSystem, Session, hookimpl
    class Bad(Session):
        def __init__(self, players, rules):
            super().__init__(players, rules)
            self.n = 0
        def add_hand(self, result):
            self.n += 1
            {add}
        @property
        def finished(self):
            return self.n >= 2
        def result(self):
            return {result}
    class BadSystem(ScoringSystem):
        name = "bad"
        def new_session(self, players, rules):
            return Bad(players, rules)
    @hookimpl
    def gincli_register_scoring_systems(register):
        register(BadSystem())
    """


@pytest.mark.parametrize("add,result,said", [
    ("pass", '{"scores": "many"}', 'returned "many", not a whole number for each player'),
    ("pass", "[1, 2]", "returned [1, 2], not "),
    ("raise KeyError('oops')", '{"scores": {p: 0 for p in self.players}}', "session.add_hand() failed: KeyError"),
])
def test_a_session_breaking_its_contract_stops_a_match_with_one_sentence(tmp_path, add, result, said):
    res = gin("match", "--bots", "simple,simple", "--games", "2", "--scoring", "bad", "-q", tmp_path=tmp_path,
              plugins={"bad": BROKEN_SESSION.format(add=add, result=result)})
    assert res.returncode == 4 and 'plugin "bad"' in res.stderr and said in res.stderr
    assert res.stderr.count("gin: error:") == 1


def test_a_session_breaking_its_contract_is_a_plugin_fault_in_gin_validate(tmp_path):
    plugins = {"bad": BROKEN_SESSION.format(add="pass", result='{"scores": "many"}')}
    deal = gin("deal", "--seed", "3", "--scoring", "bad", "--format", "json", tmp_path=tmp_path, plugins=plugins)
    assert deal.returncode == 4 and 'plugin "bad"' in deal.stderr  # it cannot even deal: no score to show
    doc = json.loads(gin("deal", "--seed", "3", "--scoring", "hand", "--format", "json", tmp_path=tmp_path).stdout)
    doc["scoring"] = "bad"  # the hand system has no options of its own: the rules stay right
    res = gin("validate", "--format", "json", "-", tmp_path=tmp_path, plugins=plugins, input=json.dumps(doc))
    report = json.loads(res.stdout)
    assert res.returncode == 4 and not report["valid"]
    assert 'plugin "bad"' in report["errors"][0]["message"]


BROKEN_BOT = """
    from gincli import Bot, hookimpl
    class Bad(Bot):
        name = "bad"
        description = "a bot with a bug"
        def choose(self, view):
            {body}
    @hookimpl
    def gincli_register_bots(register):
        register(Bad)
    """


@pytest.mark.parametrize("body,reason", [
    ("raise RuntimeError('my bug')", "raised RuntimeError: my bug"),
    ("return '7h'", 'returned "7h", not a move'),
    ("return None", "returned null, not a move"),
    ("raise SystemExit(5)", "called sys.exit(5)"),  # gin match goes on: no exit status 5
    ("raise GeneratorExit('odd')", "raised GeneratorExit: odd"),
])
def test_a_plugin_bot_that_fails_forfeits_like_an_external_bot(tmp_path, body, reason):
    f = tmp_path / "t.jsonl"
    res = gin("match", "--bots", "bad,simple", "--hands", "4", "--seed", "1", "--transcripts", str(f), "--format",
              "json", "-q", tmp_path=tmp_path, plugins={"bad": BROKEN_BOT.format(body=body)})
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert s["hands"] == 4 and s["players"][0]["forfeits"] == 4
    assert s["forfeit_reasons"][0]["reason"] == reason and s["forfeit_reasons"][0]["count"] == 4
    assert gin("validate", "-q", str(f), tmp_path=tmp_path, plugins={"bad": BROKEN_BOT.format(body=body)}) \
        .returncode == 0


def test_a_move_set_whose_move_fails_is_named(tmp_path):
    code = """
        from gincli import Move, MoveSet, Option, hookimpl
        class Shout(MoveSet):
            name = "shout"
            actions = ("shout",)
            options = (Option("shouting", False, "shout", "bool"),)
            def enabled(self, rules):
                return rules["shouting"]
            def legal(self, view):
                return [Move(view.me, "shout")] if view.phase == "draw" else []
            def apply(self, hand, move):
                raise ValueError("hoarse")
        @hookimpl
        def gincli_register_moves(register):
            register(Shout())
        """
    deal = json.loads(gin("deal", "--seed", "3", "--format", "json", tmp_path=tmp_path, plugins={"shout": code},
                          ).stdout)
    deal["options"]["shouting"] = True
    pone = next(p for p in deal["players"] if p != deal["hands"][0]["dealer"])
    deal["hands"][0]["moves"] = [{"player": pone, "action": "pass"},
                                 {"player": deal["hands"][0]["dealer"], "action": "pass"},
                                 {"player": pone, "action": "shout"}]
    res = gin("validate", "--format", "json", "-", tmp_path=tmp_path, plugins={"shout": code},
              input=json.dumps(deal))
    report = json.loads(res.stdout)
    assert not report["valid"]
    assert report["errors"][0]["message"] == ("plugin \"shout\": the move set shout's apply() failed: "
                                              "ValueError: hoarse")


def test_a_plugin_adds_a_command(tmp_path):
    code = """
        import typer
        from gincli import hookimpl
        from gincli.base.errors import UsageError

        def hello(name: str = typer.Option("world", help="Whom to greet.")):
            \"\"\"Say hello.\"\"\"
            if name == "nobody":
                raise UsageError("nobody is not a name")
            print(f"hello {name}")

        @hookimpl
        def gincli_register_commands(register):
            register(hello)
            register(hello, name="score")
        """
    plugins = {"hello": code}
    res = gin("hello", "--name", "ann", tmp_path=tmp_path, plugins=plugins)
    assert res.returncode == 0 and res.stdout == "hello ann\n"
    assert 'the command "score" of plugin "hello" was left out: gincli has a command of that name' in res.stderr
    res = gin("hello", "--name", "nobody", tmp_path=tmp_path, plugins=plugins)
    assert res.returncode == 2 and "gin: error: nobody is not a name" in res.stderr
    assert "hello" in gin("--help", tmp_path=tmp_path, plugins=plugins).stdout
    listed = json.loads(gin("plugins", "--format", "json", tmp_path=tmp_path, plugins=plugins).stdout)
    assert next(p for p in listed["plugins"] if p["name"] == "hello")["registered"] == {"commands": ["hello"]}
