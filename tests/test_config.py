"""``config.toml`` in the configuration folder: defaults for the options, which
the command line overrides; a wrong file is one sentence naming it and the key
(exit 2); ``gin config`` shows the file and the defaults in effect."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from helpers import json_lines

GIN = str(Path(sys.executable).with_name("gin"))
HANDS = str(ROOT / "examples" / "hands.jsonl")


@pytest.fixture
def config(tmp_path):
    """Write the config file of the ``run`` fixture's configuration folder."""
    def write(text: str) -> Path:
        folder = tmp_path / "config"
        folder.mkdir(exist_ok=True)
        path = folder / "config.toml"
        path.write_text(text, encoding="utf-8")
        return path

    return write


def test_top_level_defaults_apply_and_the_command_line_wins(run, config):
    config('variant = "oklahoma"\nscoring = "hollywood"\n')
    doc = json.loads(run("deal", "--seed", "3", "-f", "json").stdout)
    assert (doc["variant"], doc["scoring"]) == ("oklahoma", "hollywood")
    doc = json.loads(run("deal", "--seed", "3", "-f", "json", "--variant", "standard", "-s", "game").stdout)
    assert (doc["variant"], doc["scoring"]) == ("standard", "game")


def test_a_command_table_sets_that_commands_options(run, config):
    config('workers = 1\n[score]\nformat = "json"\nquiet = true\n')
    res = run("score", HANDS)
    assert res.exit_code == 0, res.stderr
    assert [r["points"] for r in json_lines(res.stdout)] == [18, 83, 30, 16, 0]
    assert res.stderr == ""  # quiet
    res = run("score", "--format", "text", HANDS)
    assert res.stdout.startswith("knock · standard")
    # the table is score's only: validate still writes for people
    deal = run("deal", "--seed", "1", "-f", "json").stdout
    assert run("validate", "-", input=deal).stdout.startswith("✓")


def test_validate_takes_the_top_level_variant_as_its_first(run, config):
    doc = json.loads(run("deal", "--seed", "2", "-f", "json", "--variant", "oklahoma").stdout)
    del doc["variant"]  # a transcript naming no variant: --variant, else the config file's, applies
    config('variant = "oklahoma"\n')
    res = run("validate", "-f", "json", "-", input=json.dumps(doc))
    assert res.exit_code == 0, res.stdout + res.stderr
    assert json_lines(res.stdout)[0]["variant"] == "oklahoma"
    res = run("validate", "-f", "json", "--variant", "gin-only", "-", input=json.dumps(doc))
    assert json_lines(res.stdout)[0]["variant"] == "gin-only"


def test_color_default_and_the_flag_wins(run, config):
    config('color = "always"\n')
    assert "\x1b[" in run("score", "-q", HANDS).stdout
    assert "\x1b[" not in run("--color", "never", "score", "-q", HANDS).stdout


def test_help_shows_the_configured_defaults(run, config):
    config('color = "never"\n[score]\nworkers = 3\n[match]\ngames = 100\n')
    assert "[default: never]" in " ".join(run("--help").stdout.split())
    assert "[default: 3; 1<=x<=1024]" in " ".join(run("score", "--help").stdout.split())
    assert "[default: 100; x>=1]" in " ".join(run("match", "--help").stdout.split())


@pytest.mark.parametrize("text,said", [
    ("variant = [\n", "is not valid TOML"),
    ("colour = \"never\"\n", 'unknown key "colour"'),
    ("workers = \"two\"\n", 'workers must be a whole number of worker processes, from 1 to 1024, not "two"'),
    ("workers = 0\n", "workers must be a whole number"),
    ("color = \"sometimes\"\n", 'color must be auto, always or never, not "sometimes"'),
    ("[scor]\nformat = \"json\"\n", "[scor] is not a gin command"),
    ("[score]\nnope = 1\n", "unknown key [score] nope; gin score has no --nope option"),
    ("[score]\nworkers = 0\n", "[score] workers is not accepted: 0 is not between 1 and 1024"),
    ("[score]\nformat = \"xml\"\n", "[score] format is not accepted"),
    ("[score]\nquiet = \"yes\"\n", '[score] quiet must be true or false, not "yes"'),
    ("[match]\ngames = \"lots\"\n", "[match] games is not accepted"),
])
def test_a_bad_config_file_is_one_sentence_naming_the_file_and_the_key_exit_2(run, config, text, said):
    path = config(text)
    command = "match" if "[match]" in text else "score"
    res = run(command, HANDS) if command == "score" else run("match", "--bots", "simple,simple")
    assert res.exit_code == 2
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"gin: error: the config file {path}")
    assert said in lines[0], lines[0]
    assert res.stdout == ""


def test_help_and_version_still_work_with_a_bad_config_file(run, config):
    config("variant = [\n")
    assert run("--help").exit_code == 0
    res = run("--version")
    assert res.exit_code == 0 and res.stdout.startswith("gincli ")
    res = run("config")
    assert res.exit_code == 2 and "is not valid TOML" in res.stderr


def test_gin_config_shows_the_file_and_the_defaults_in_effect(run, config, tmp_path):
    res = run("config", "--format", "json")
    data = json.loads(res.stdout)
    assert data["path"] == str(tmp_path / "config" / "config.toml") and data["exists"] is False
    assert data["defaults"]["variant"] == {"value": "standard", "from": "built-in"}
    config('scoring = "hollywood"\nworkers = 2\n[match]\ngames = 100\n')
    data = json.loads(run("config", "--format", "json").stdout)
    assert data["exists"] is True
    assert data["defaults"]["scoring"] == {"value": "hollywood", "from": "config file"}
    assert data["defaults"]["workers"] == {"value": 2, "from": "config file"}
    assert data["commands"] == {"match": {"games": 100}}
    text = run("config").stdout
    assert "scoring  hollywood" in text and "[match]" in text and "games = 100" in text
    assert run("config", "path").stdout.strip() == str(tmp_path / "config" / "config.toml")
    config("[match]\ngamez = 100\n")
    res = run("config")
    assert res.exit_code == 2 and "unknown key [match] gamez" in res.stderr


def test_the_config_folder_is_found_as_for_plugins_and_bots(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("GINCLI_CONFIG_DIR", "XDG_CONFIG_HOME")}
    env["HOME"] = str(tmp_path / "home")

    def path(**extra: str) -> str:
        res = subprocess.run([GIN, "config", "path"], capture_output=True, text=True, env={**env, **extra},
                             timeout=300)
        assert res.returncode == 0, res.stderr
        return res.stdout.strip()

    assert path() == str(tmp_path / "home" / ".config" / "gincli" / "config.toml")
    assert path(XDG_CONFIG_HOME=str(tmp_path / "xdg")) == str(tmp_path / "xdg" / "gincli" / "config.toml")
    assert path(XDG_CONFIG_HOME=str(tmp_path / "xdg"), GINCLI_CONFIG_DIR=str(tmp_path / "c")) == \
        str(tmp_path / "c" / "config.toml")
    # and it is read from there, by the installed command
    (tmp_path / "xdg" / "gincli").mkdir(parents=True)
    (tmp_path / "xdg" / "gincli" / "config.toml").write_text('[score]\nformat = "json"\nquiet = true\n')
    res = subprocess.run([GIN, "score", HANDS], capture_output=True, text=True, timeout=300,
                         env={**env, "XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    assert res.returncode == 0 and len(json_lines(res.stdout)) == 5
