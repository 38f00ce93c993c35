"""Plugins: the built-ins through the public hooks, third-party plugins from the
entry-point group and from plugin directories, disabling, broken plugins, and
the separately installable example package in plugins/gincli-hollywood-n."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from gincli.plugin.registry import load_registry

EXAMPLE = ROOT / "plugins" / "gincli-hollywood-n"


def gin(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    full = dict(os.environ)
    full.pop("GINCLI_DEBUG", None)
    full.update(env or {})
    exe = Path(sys.executable).with_name("gin")
    return subprocess.run([str(exe), *args], capture_output=True, text=True, env=full, cwd=cwd, timeout=120)


@pytest.fixture(scope="module")
def installed_example(tmp_path_factory):
    """The example plugin package, installed with pip into a folder of its own."""
    target = tmp_path_factory.mktemp("site")
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--target", str(target),
                    str(EXAMPLE)], check=True, capture_output=True, timeout=600)
    return target


def test_builtins_register_through_the_public_hooks(registry):
    names = {p.name: p for p in registry.plugins}
    assert names["gincli-variants"].hooks == ["gincli_register_variants"]
    assert names["gincli-scoring"].hooks == ["gincli_register_scoring_systems"]
    assert {"standard", "oklahoma", "gin-only"} <= set(registry.variants)
    assert {"hand", "game", "hollywood", "match-500"} <= set(registry.scoring_systems)


def test_the_example_package_installs_and_loads_from_its_entry_point(installed_example, tmp_path):
    env = {"PYTHONPATH": str(installed_example), "GINCLI_CONFIG_DIR": str(tmp_path)}
    res = gin("plugins", "--format", "json", env=env)
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    plugin = next(p for p in data["plugins"] if p["name"] == "hollywood-n")
    assert plugin["source"] == "package gincli-hollywood-n" and not plugin["builtin"]
    assert plugin["hooks"] == ["gincli_register_scoring_systems"]
    assert plugin["registered"] == {"scoring_systems": ["hollywood-n"]}
    systems = json.loads(gin("variants", "--format", "json", env=env).stdout)["scoring_systems"]
    hn = next(s for s in systems if s["name"] == "hollywood-n")
    assert {o["name"]: o["default"] for o in hn["options"]}["games"] == 4
    # disabled by name, it is gone and everything else still works
    res = gin("--disable-plugin", "hollywood-n", "plugins", "--format", "json", env=env)
    assert "hollywood-n" not in {p["name"] for p in json.loads(res.stdout)["plugins"]}


def test_the_example_scoring_system_plays_and_validates(installed_example, monkeypatch):
    import random

    monkeypatch.syspath_prepend(str(installed_example))
    registry = load_registry()
    system = registry.scoring("hollywood-n")
    v = registry.variant("oklahoma")
    rules = registry.rules(v, system, {"games": 4})
    # Hand-worked: ann wins 4 hands of 10; bob 1 of 20. ann's 4th win enters games 1-4.
    from gincli.rulebook.scoring import HandResult

    s = system.new_session(["ann", "bob"], rules)
    for w, p in (("ann", 10), ("bob", 20), ("ann", 10), ("ann", 10), ("ann", 10)):
        s.add_hand(HandResult("knock", w, p, None, None))
    assert [g["points"]["ann"] for g in s.result()["games"]] == [40, 30, 20, 10]
    assert [g["points"]["bob"] for g in s.result()["games"]] == [20, 0, 0, 0]
    # Random legal play of whole sessions, each transcript validated.
    from test_engine import chooser

    from gincli.replay.validate import validate
    from gincli.sessions.table import play_session

    rec = play_session(("ann", "bob"), v, rules, system, chooser(random.Random(1)), 3, options={"games": 4})
    report = validate(json.loads(json.dumps(rec.transcript)), registry)
    assert report.valid and report.complete and len(report.result["games"]) == 4


def write_plugin(folder: Path, name: str, code: str) -> None:
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.py").write_text(code)


GOOD = """
from gincli import Variant, hookimpl

@hookimpl
def gincli_register_variants(register):
    register(Variant("tiny", "Knock with 3 or less.", {"knock_limit": 3}))
"""


@pytest.mark.parametrize("name,code,message", [
    ("broken_import", "import no_such_module\n", 'plugin "broken_import"'),
    ("misspelt", "from gincli import hookimpl\n@hookimpl\ndef gincli_register_variant(register):\n    pass\n",
     'plugin "misspelt"'),
    ("wrong_type", "from gincli import hookimpl\n@hookimpl\ndef gincli_register_variants(register):\n"
                   "    register('standard')\n", 'plugin "wrong_type"'),
    ("duplicate", "from gincli import Variant, hookimpl\n@hookimpl\ndef gincli_register_variants(register):\n"
                  "    register(Variant('tiny', 'again'))\n", 'the variant "tiny" of plugin "duplicate" was left out'),
    ("raises", "from gincli import hookimpl\n@hookimpl\ndef gincli_register_scoring_systems(register):\n"
               "    raise RuntimeError('boom')\n", 'plugin "raises"'),
])
def test_a_broken_plugin_is_named_and_the_rest_still_works(tmp_path, name, code, message):
    folder = tmp_path / "plugins"
    write_plugin(folder, "a_good", GOOD)
    write_plugin(folder, name, code)
    env = {"GINCLI_CONFIG_DIR": str(tmp_path / "config")}
    res = gin("--plugins-dir", str(folder), "variants", "--format", "json", env=env)
    assert res.returncode == 0
    assert message in res.stderr and "Traceback" not in res.stderr
    assert "tiny" in {v["name"] for v in json.loads(res.stdout)["variants"]}
    res = gin("--plugins-dir", str(folder), "score", "--format", "json", "--variant", "tiny",
              str(ROOT / "examples" / "hands.jsonl"), env=env)
    assert res.returncode == 1  # the 8-deadwood knock is over tiny's limit of 3; the others score
    assert any("over the knock limit of 3" in r.get("error", "") for r in map(json.loads, res.stdout.splitlines()))


def test_plugins_directory_from_the_environment_and_disabling(tmp_path):
    folder = tmp_path / "plugins"
    write_plugin(folder, "a_good", GOOD)
    env = {"GINCLI_PLUGINS_DIR": str(folder), "GINCLI_CONFIG_DIR": str(tmp_path / "c")}
    assert "tiny" in gin("variants", "--format", "json", env=env).stdout
    env["GINCLI_DISABLE_PLUGINS"] = "a_good"
    assert "tiny" not in gin("variants", "--format", "json", env=env).stdout
    res = gin("--disable-plugin", "gincli-variants", "score", str(ROOT / "examples" / "hands.jsonl"),
              env={"GINCLI_CONFIG_DIR": str(tmp_path / "c")})
    assert res.returncode == 2 and 'unknown variant "standard"' in res.stderr


def test_a_variant_from_only_a_toml_file_in_the_config_directory(tmp_path):
    variants = tmp_path / "config" / "variants"
    variants.mkdir(parents=True)
    (variants / "friday.toml").write_text('base = "oklahoma"\ndescription = "Our table."\n'
                                          "[options]\ngin_bonus = 20\n")
    (variants / "broken.toml").write_text('base = "standard"\n[options]\nginbonus = 20\n')
    env = {"GINCLI_CONFIG_DIR": str(tmp_path / "config")}
    res = gin("variants", "--format", "json", env=env)
    friday = next(v for v in json.loads(res.stdout)["variants"] if v["name"] == "friday")
    opts = {o["name"]: o["default"] for o in friday["options"]}
    assert opts["gin_bonus"] == 20 and opts["knock_limit"] == "upcard"
    assert "broken.toml" in res.stderr and 'unknown option "ginbonus"' in res.stderr


@pytest.mark.parametrize("text,message", [
    ('base = "standard"\ncolour = "red"\n', 'unknown key "colour"'),
    ('base = "standard"\n[options]\nknock_limit = -1\n', "knock_limit must be a whole number >= 0"),
    ('base = "standard"\n[options]\nshutout = "triple"\n', 'shutout must be one of "bonus", "double"'),
    ('base = "nope"\n', 'unknown base variant "nope"'),
    ('base = "standard"\n[options\n', "is not valid TOML"),
])
def test_a_wrong_variant_file_names_the_file_the_key_and_what_is_allowed(tmp_path, text, message):
    path = tmp_path / "table.toml"
    path.write_text(text)
    res = gin("score", "--variant", str(path), str(ROOT / "examples" / "hands.jsonl"),
              env={"GINCLI_CONFIG_DIR": str(tmp_path / "c")})
    assert res.returncode == 2
    assert str(path) in res.stderr and message in res.stderr and "Traceback" not in res.stderr


def test_a_config_variant_file_taking_a_builtins_name_with_other_rules_is_left_out_with_a_warning(tmp_path):
    variants = tmp_path / "config" / "variants"
    variants.mkdir(parents=True)
    (variants / "mine.toml").write_text('name = "standard"\n[options]\ngin_bonus = 50\n')
    (variants / "copy.toml").write_text('name = "standard"\n[options]\ngin_bonus = 25\n')
    res = gin("variants", "--format", "json", env={"GINCLI_CONFIG_DIR": str(tmp_path / "config")})
    standard = next(v for v in json.loads(res.stdout)["variants"] if v["name"] == "standard")
    assert {o["name"]: o["default"] for o in standard["options"]}["gin_bonus"] == 25
    assert str(variants / "mine.toml") in res.stderr and "gin_bonus 50 here, 25 there" in res.stderr
    assert "copy.toml" not in res.stderr  # the same rules under the same name: nothing lost


def test_a_variant_file_given_by_path_may_not_take_a_builtins_name_for_other_rules(tmp_path):
    path = tmp_path / "table.toml"
    path.write_text('name = "standard"\n[options]\ngin_bonus = 50\n')
    res = gin("score", "--variant", str(path), str(ROOT / "examples" / "hands.jsonl"),
              env={"GINCLI_CONFIG_DIR": str(tmp_path / "c")})
    assert res.returncode == 2 and str(path) in res.stderr and 'the variant "standard"' in res.stderr


@pytest.mark.parametrize("content,message", [
    (b"\x7fELF\x02\x01\x01\x00\x00\x00\xff\xfe", "is not UTF-8 text"),
    (b'name = "big"\n[options]\ngin_bonus = ' + b"1" * 5000 + b"\n", "holds a number gincli cannot read"),
    (b'name = ""\n', '"name" may not be empty'),
])
def test_a_variant_file_gincli_cannot_use_gets_a_sentence_naming_it(tmp_path, content, message):
    path = tmp_path / "table.toml"
    path.write_bytes(content)
    res = gin("score", "--variant", str(path), str(ROOT / "examples" / "hands.jsonl"),
              env={"GINCLI_CONFIG_DIR": str(tmp_path / "c")})
    assert res.returncode == 2 and str(path) in res.stderr and message in res.stderr
    assert "Traceback" not in res.stderr


def test_a_byte_order_mark_is_accepted_at_the_start_of_a_variant_file(tmp_path):
    path = tmp_path / "table.toml"
    path.write_bytes(b'\xef\xbb\xbfname = "bom"\nbase = "standard"\n')
    res = gin("score", "-f", "json", "--variant", str(path), str(ROOT / "examples" / "hand.toml"),
              env={"GINCLI_CONFIG_DIR": str(tmp_path / "c")})
    assert res.returncode == 0, res.stderr


def test_every_package_of_gincli_is_installed():
    """``pip install .`` (not editable, as CI installs) ships every package: one
    left out of pyproject's list is missing from the install."""
    import tomllib

    from conftest import ROOT

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "gincli").rglob("__init__.py")}
    assert found <= listed, f"pyproject.toml does not install {sorted(found - listed)}"


def test_entry_points_and_versions_are_read_as_importlib_metadata_reads_them():
    """gincli reads the installed packages' entry points from their metadata
    folders itself (importlib.metadata costs a tenth of a command's start-up):
    the same entry points, in the same order, with the same packages and
    versions, for every group this interpreter's packages declare."""
    import importlib.metadata as metadata

    from gincli.base import packages

    groups = {ep.group for dist in metadata.distributions() for ep in dist.entry_points} | {"gincli", "none-such"}
    assert "gincli" in groups and "console_scripts" in groups
    for group in sorted(groups):
        theirs = [(ep.name, ep.value, ep.dist.name, ep.dist.version) for ep in metadata.entry_points(group=group)]
        ours = [(ep.name, ep.value, ep.dist.name, ep.dist.version) for ep in packages.entry_points(group)]
        assert ours == theirs, group
    for dist in metadata.distributions():
        assert packages.version(dist.metadata["Name"]) == dist.version, dist.metadata["Name"]
    assert packages.version("no-such-package-here") is None
    ray = [ep for ep in packages.entry_points("gincli") if ep.name == "ray"]
    if ray:  # the README's test command installs it
        assert ray[0].load().__name__ == "gincli_ray"
