"""The plugin package ``gin plugins new NAME`` writes (docs/plugins.md, "A
plugin package from the template"): a project that installs with pip,
declares its entry point in the ``gincli`` group, registers an example move
set (a restriction: no knocking early in a hand) and tests it with
:mod:`gincli.testing`. Every name in it starts with the plugin's, as
docs/plugins.md's "Naming things" asks."""

from __future__ import annotations

import re

#: A plugin's name: lower-case words of letters and digits joined by hyphens, starting with a letter.
NAME = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
MOST = 40  # characters: the name is the start of its options' and rule ids' names


def names(name: str) -> dict[str, str]:
    """The names a plugin package of ``name`` uses, each derived from it."""
    word = name.replace("-", "_")
    return {"name": name, "word": word, "package": f"gincli-{name}", "module": f"gincli_{word}",
            "cls": "".join(part.title() for part in name.split("-")) + "Restriction"}


PYPROJECT = """\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "{package}"
version = "0.1.0"
description = "A gincli plugin: the move set {name}, no knocking before a hand's {word}_first_knock_turn-th turn."
readme = "README.md"
requires-python = ">=3.11"
dependencies = ["gincli>={version}"]

[project.optional-dependencies]
test = ["pytest"]

# gincli finds the plugin by this entry point once the package is installed.
[project.entry-points.gincli]
{name} = "{module}"

[tool.setuptools]
py-modules = ["{module}"]

[tool.pytest.ini_options]
testpaths = ["tests"]
"""

MODULE = '''\
"""{package}: a gincli plugin, the move set {name}. With the option {word}
on, nobody knocks (gin included) before the hand's {word}_first_knock_turn-th
turn; a turn starts with a draw, either player's.

Made from gincli's template (gin plugins new {name}). docs/plugins.md says
what each hook does, docs/plugin-reference.md what every object a hook
receives holds, field by field."""

from gincli import MoveSet, Option, hookimpl

__version__ = "0.1.0"


class {cls}(MoveSet):
    """A restriction: a rule that takes a move of the rule book out of what a
    player may do. forbids() is asked of every move the player to act is
    offered, by bots and gin play alike, and of every move gin validate
    replays: the rule holds in play and in validation."""

    name = "{name}"
    description = "No knocking before a hand's {word}_first_knock_turn-th turn."
    options = (Option("{word}", False, "no knocking early in a hand", "bool"),
               Option("{word}_first_knock_turn", 4, "the first turn of a hand in which a player may knock"))
    rule_ids = {{"{name}-early-knock": "a knock before the hand's {word}_first_knock_turn-th turn"}}

    def enabled(self, rules):
        return rules["{word}"]

    def start(self, rules):
        return {{"turns": 0, "first": rules["{word}_first_knock_turn"]}}

    def forbids(self, view, move):
        state = view.extensions[self.name]
        if move.action == "knock" and state["turns"] < state["first"]:
            return "{name}-early-knock"
        return None

    def played(self, hand, move):
        if move.action == "draw":
            hand.extensions[self.name]["turns"] += 1


@hookimpl
def gincli_register_moves(register):
    register({cls}())
'''

TESTS = '''\
"""{package}'s tests, with gincli's kit for plugins (gincli.testing)."""

from pathlib import Path

import pytest

from gincli.testing import load_plugin

PROJECT = Path(__file__).resolve().parent.parent
ON = {{"{word}": True, "{word}_first_knock_turn": 8}}


@pytest.fixture(scope="module")
def plugin():
    return load_plugin(PROJECT)  # the entry point of pyproject.toml: the module installed, or the folder's


def test_it_keeps_gincli_s_contract(plugin):
    """It loads with no warning; a match under it has no forfeit and its
    transcripts are valid with it on."""
    plugin.check(options=ON)


def test_nobody_knocks_before_the_first_knock_turn(plugin):
    played = plugin.play(["simple", "expert"], games=2, seed=7, options=ON)
    for transcript in played.transcripts:
        for hand in transcript["hands"]:
            turns = 0
            for move in hand["moves"]:
                turns += move["action"] == "draw"
                assert move["action"] != "knock" or turns >= 8, move


def test_gin_validate_refuses_an_early_knock(plugin):
    played = plugin.play(["simple", "expert"], hands=4, seed=7)  # the rule off: players knock when they can
    early = [t for t in played.transcripts if any(m["action"] == "knock" for m in t["hands"][0]["moves"])]
    assert early
    for transcript in early:
        transcript["options"].update({{"{word}": True, "{word}_first_knock_turn": 100}})
    for report in plugin.validate(early):
        assert not report["valid"]
        assert report["errors"][0]["rule"] == "{name}-early-knock"
'''

README = """\
# {package}

A plugin for [gincli](https://pypi.org/project/gincli/): the move set `{name}`.
With the option `{word}` on, nobody knocks before the hand's
`{word}_first_knock_turn`-th turn (4 by default).

```
pip install -e '.[test]'     # from this folder
gin plugins                  # lists {name}
gin match --bots simple,expert --games 10 -o {word}=true -o {word}_first_knock_turn=6
pytest                       # its tests, with gincli.testing
```

`{module}.py` is the plugin; `tests/` tests it with `gincli.testing`. Every name
it gives (its options, its rule id) starts with the plugin's, so that it takes
none of gincli's or another plugin's (gincli's docs/plugins.md, "Naming things").
"""

#: The files of the package, by path in its folder.
FILES = {"pyproject.toml": PYPROJECT, "{module}.py": MODULE, "tests/test_{word}.py": TESTS, "README.md": README}


def files(name: str, version: str) -> dict[str, str]:
    """The package's files for the plugin ``name``: path -> text."""
    values = {**names(name), "version": version}
    return {path.format(**values): text.format(**values) for path, text in FILES.items()}
