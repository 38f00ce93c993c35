"""A plugin author's kit (issue 35, criterion 6): ``gin plugins new NAME``
writes a package that installs with pip and passes its own tests, which use
``gincli.testing``; ``gincli.testing`` loads a plugin from its file, folder,
project or module, plays and validates with it, and checks its contract,
passing the third-party plugins of the suite and failing broken ones with a
sentence naming what broke."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ROOT

from gincli.base.errors import UsageError
from gincli.testing import LoadedPlugin, PluginCheckFailed, load_plugin

GIN = str(Path(sys.executable).with_name("gin"))
PLUGINS = ROOT / "tests" / "plugins"
EXAMPLES = ROOT / "docs" / "examples"


def gin(cwd: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = {"PATH": os.environ["PATH"], "GINCLI_CONFIG_DIR": str(cwd / "config"), "PYTHONIOENCODING": "utf-8",
            **(env or {})}
    res = subprocess.run([GIN, *args], capture_output=True, text=True, cwd=cwd, env=full, timeout=300)
    assert res.returncode != 3 and "Traceback" not in res.stderr, res.stderr
    return res


def test_the_template_installs_and_passes_its_own_tests(tmp_path):
    made = gin(tmp_path, "plugins", "new", "late-knock", "-f", "json")
    assert made.returncode == 0, made.stderr
    said = json.loads(made.stdout)
    assert said == {"name": "late-knock", "folder": "gincli-late-knock", "package": "gincli-late-knock",
                    "module": "gincli_late_knock",
                    "files": ["README.md", "gincli_late_knock.py", "pyproject.toml", "tests/test_late_knock.py"]}
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(site),
                    str(tmp_path / "gincli-late-knock")], check=True, capture_output=True, timeout=600)
    env = {"PYTHONPATH": str(site)}
    # its own tests, from outside its folder: the module they load is the one installed
    tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "gincli-late-knock"],
                           capture_output=True, text=True, cwd=tmp_path, timeout=600,
                           env={**os.environ, **env, "GINCLI_CONFIG_DIR": str(tmp_path / "config")})
    assert tests.returncode == 0 and "3 passed" in tests.stdout, tests.stdout + tests.stderr
    # gin finds it by its entry point, and plays and validates under it
    listed = {p["name"]: p for p in json.loads(gin(tmp_path, "plugins", "-f", "json", env=env).stdout)["plugins"]}
    assert listed["late-knock"]["source"] == "package gincli-late-knock"
    assert listed["late-knock"]["registered"] == {"move_sets": ["late-knock"]}
    match = gin(tmp_path, "match", "--bots", "simple,expert", "--games", "1", "--seed", "3", "-o", "late_knock=true",
                "--transcripts", "t.jsonl", "-q", "-f", "json", env=env)
    assert match.returncode == 0 and all(p["forfeits"] == 0 for p in json.loads(match.stdout)["players"])
    assert gin(tmp_path, "validate", "t.jsonl", env=env).returncode == 0


@pytest.mark.parametrize("name", ["My-rule", "my_rule", "rule-", "7up", "my--rule", "", "a" * 41, "é"])
def test_gin_plugins_new_refuses_a_name_that_is_not_a_plugin_s(tmp_path, name):
    res = gin(tmp_path, "plugins", "new", name)
    assert res.returncode == 2 and res.stderr.startswith("gin: error: ") and "is not a plugin's name" in res.stderr
    assert res.stderr.count("\n") == 1 and not any(tmp_path.glob("gincli-*"))


def test_gin_plugins_new_never_writes_over_a_folder(tmp_path):
    (tmp_path / "there" / "gincli-mine").mkdir(parents=True)
    (tmp_path / "there" / "gincli-mine" / "keep.txt").write_text("mine")
    res = gin(tmp_path, "plugins", "new", "mine", "--dir", "there", "-f", "json")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == ("gin: error: there/gincli-mine exists: gin plugins new writes a new folder, never over one "
                          "(give another NAME or --dir)\n")
    assert os.listdir(tmp_path / "there" / "gincli-mine") == ["keep.txt"]
    (tmp_path / "file").write_text("")
    res = gin(tmp_path, "plugins", "new", "mine", "--dir", "file")
    assert res.returncode == 2 and res.stderr.startswith("gin: error: cannot write file/gincli-mine: ")


def test_gin_plugins_still_lists_the_plugins(tmp_path):
    res = gin(tmp_path, "--plugins-dir", str(PLUGINS), "plugins", "-f", "json")
    assert res.returncode == 0
    assert "latetake" in {p["name"] for p in json.loads(res.stdout)["plugins"]}


# -- gincli.testing ---------------------------------------------------------------------------------

#: Each third-party plugin of the suite and of the docs, with the options that turn it on (none: its own).
THIRD_PARTY = {
    "latetake": (PLUGINS / "latetake.py", {"no_late_take": True, "last_take_turn": 3}),
    "mustgin": (PLUGINS / "mustgin.py", None),
    "foursets": (PLUGINS / "foursets.py", None),
    "firstto3": (PLUGINS / "firstto3.py", None),
    "surrender": (PLUGINS / "surrender.py", None),
    "slowknock": (PLUGINS / "slowknock.py", None),
    "resign": (EXAMPLES / "resign.py", None),
    "aces_high": (EXAMPLES / "aces_high.py", None),
    "half_oklahoma": (EXAMPLES / "half_oklahoma.py", None),
    "race": (EXAMPLES / "race.py", None),
    "cautious": (EXAMPLES / "cautious.py", None),
}


@pytest.mark.parametrize("name", list(THIRD_PARTY))
def test_every_third_party_plugin_keeps_the_contract(name):
    where, options = THIRD_PARTY[name]
    plugin = load_plugin(where)
    assert plugin.names == (name,) and plugin.registered and not plugin.problems
    played = plugin.check(options=options)
    assert played and all(n == 0 for match in played for n in match.forfeits.values())


def test_a_plugin_loads_from_its_file_its_folder_its_module_or_a_folder_of_plugins(tmp_path, monkeypatch):
    package = tmp_path / "pkgplug"
    package.mkdir()
    (package / "__init__.py").write_text((PLUGINS / "latetake.py").read_text())
    assert load_plugin(package).registered == {"move set": ["latetake"]}
    monkeypatch.syspath_prepend(str(tmp_path))
    by_module = load_plugin("pkgplug", name="late")
    assert by_module.names == ("late",) and by_module.registered == {"move set": ["latetake"]}
    import pkgplug

    assert load_plugin(pkgplug).names == ("pkgplug",)
    every = load_plugin(PLUGINS)
    assert set(every.names) >= {"latetake", "mustgin", "foursets", "firstto3"}
    assert every.registered["scoring system"] == ["first-to-three"]


def test_a_plugin_s_project_folder_loads_its_entry_points(tmp_path):
    assert gin(tmp_path, "plugins", "new", "proj").returncode == 0
    plugin = load_plugin(tmp_path / "gincli-proj")
    assert plugin.names == ("proj",) and plugin.registered == {"move set": ["proj"]}
    (tmp_path / "gincli-proj" / "gincli_proj.py").unlink()
    with pytest.raises(UsageError, match="names a module that neither imports nor is in the folder"):
        load_plugin(tmp_path / "gincli-proj")


@pytest.mark.parametrize("where", ["no/such/place.py", "not a module", 42])
def test_load_plugin_names_what_it_cannot_load(where):
    with pytest.raises(UsageError, match="load_plugin: .* is (neither|not) a plugin's file"):
        load_plugin(where)


def test_a_plugin_that_does_not_import_is_its_sentence(tmp_path):
    (tmp_path / "broken.py").write_text("raise RuntimeError('no luck')\n")
    with pytest.raises(PluginCheckFailed, match=r'plugin "broken" .* failed to import: RuntimeError: no luck'):
        load_plugin(tmp_path / "broken.py")


def test_the_kit_loads_nothing_else_installed(tmp_path, monkeypatch):
    """GINCLI_PLUGINS_DIR and the user's folder are the environment's, not the plugin's."""
    monkeypatch.setenv("GINCLI_PLUGINS_DIR", str(PLUGINS))
    monkeypatch.setenv("GINCLI_CONFIG_DIR", str(tmp_path))
    (tmp_path / "plugins").mkdir()
    (tmp_path / "plugins" / "mine.py").write_text((EXAMPLES / "race.py").read_text())
    plugin = load_plugin(EXAMPLES / "cautious.py")
    assert [p.name for p in plugin.registry.plugins if not p.builtin] == ["cautious"]


def test_play_and_validate_with_the_plugin_on():
    plugin = load_plugin(PLUGINS / "latetake.py")
    played = plugin.play(["simple", "random"], hands=3, seed=4, options=["no_late_take=true", "last_take_turn=2"])
    assert len(played.transcripts) == 3 and played.summary["hands"] == 3
    assert played.transcripts[0]["options"]["no_late_take"] is True
    reports = plugin.validate(played.transcripts)
    assert [r["valid"] for r in reports] == [True] * 3
    with pytest.raises(UsageError, match="games: 0 must be at least 1"):
        plugin.play(games=0)
    with pytest.raises(UsageError, match="unknown option"):
        plugin.play(options={"no_such_option": 1})


BROKEN = {
    "a move set that fails as it is told of a move": ("""\
        from gincli import MoveSet, Option, hookimpl


        class Fragile(MoveSet):
            name = "fragile"
            options = (Option("fragile", False, "on", "bool"),)

            def enabled(self, rules):
                return rules["fragile"]

            def played(self, hand, move):
                if move.action == "discard":
                    raise KeyError("turns")


        @hookimpl
        def gincli_register_moves(register):
            register(Fragile())
        """, "the move set fragile (options {\"fragile\": true}): the match stopped: "),
    "a bot that plays what it is not offered": ("""\
        from gincli import Bot, Move, hookimpl


        class Cheat(Bot):
            name = "cheat"

            def choose(self, view):
                return Move(view.me, "knock", card=view.cards[0])


        @hookimpl
        def gincli_register_bots(register):
            register(Cheat)
        """, "the bot cheat: cheat forfeited "),
    "a move set whose points play and validation do not agree on": ("""\
        from gincli import MoveSet, Option, hookimpl

        CALLS = [0]


        class Drifting(MoveSet):
            name = "drifting"
            options = (Option("drifting", False, "on", "bool"),)

            def enabled(self, rules):
                return rules["drifting"]

            def finish(self, state, result, rules):
                CALLS[0] += 1
                result.points += CALLS[0]
                return result


        @hookimpl
        def gincli_register_moves(register):
            register(Drifting())
        """, "played is refused by gin validate: claimed-hand-result: this hand claims points "),
    "a move set taking a built-in's option": ("""\
        from gincli import MoveSet, Option, hookimpl


        class Corner(MoveSet):
            name = "corner"
            options = (Option("ace_value", 1, "an ace", "int"),)


        @hookimpl
        def gincli_register_moves(register):
            register(Corner())
        """, 'its option "ace_value" is the meld rules round-the-corner\'s'),
    "a move set no option of which turns it on": ("""\
        from gincli import MoveSet, Option, hookimpl


        class Never(MoveSet):
            name = "never"
            options = (Option("never", False, "on", "bool"),)


        @hookimpl
        def gincli_register_moves(register):
            register(Never())
        """, 'the move set never is not on with the options {"never": true}: give check() the options'),
}


@pytest.mark.parametrize("case", list(BROKEN))
def test_a_broken_plugin_fails_its_check_naming_what_broke(tmp_path, case):
    code, said = BROKEN[case]
    (tmp_path / "broken.py").write_text(textwrap.dedent(code))
    plugin = load_plugin(tmp_path / "broken.py")
    assert isinstance(plugin, LoadedPlugin)
    with pytest.raises(PluginCheckFailed) as failed:
        plugin.check()
    assert isinstance(failed.value, AssertionError)
    assert any(said in line for line in failed.value.failures), failed.value.failures
