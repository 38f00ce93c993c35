"""One move, everywhere (issue 35, criterion 1): a move set is shown the same
move, with the same fields, in a match, in ``gin validate``, in ``gin play`` and
in the API (``Move.shown``), so that a restriction that holds in play holds in
validate.

The plugins are tests/plugins' third-party ones (written from docs/plugins.md
alone): ``latetake`` (no taking the discard late, written ``move ==
view.take()``), ``mustgin`` (knock only with gin), ``slowknock``; a recorder
written here logs every move each hook is shown."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ROOT

from gincli.hand.engine import Hand, shuffled_deck
from gincli.hand.moves import Move
from gincli.rulebook.rng import SplitMix64

PLUGINS = ROOT / "tests" / "plugins"
GIN = str(Path(sys.executable).with_name("gin"))

#: A move set that logs every move a hook is shown (one JSON line each, to $MOVE_LOG)
#: and refuses nothing; it overrides every hook a move is given to.
RECORDER = '''
import json, os
from gincli import Move, MoveSet, Option, hookimpl


def log(hook, move):
    with open(os.environ["MOVE_LOG"], "a") as f:
        f.write(json.dumps([hook, move.player, move.action, move.source, move.card, move.melds, move.cards,
                            move.fields]) + "\\n")


class Recorder(MoveSet):
    name = "recorder"
    description = "logs the moves each hook is shown"
    actions = ("tap",)
    options = (Option("record_moves", False, "log the moves", "bool"),)
    rule_ids = {"tap-late": "a tap after the first turn"}

    def enabled(self, rules):
        return rules["record_moves"]

    def start(self, rules):
        return {"draws": 0, "tapped": False}

    def legal(self, view):
        state = view.extensions[self.name]
        return [Move(view.me, "tap", fields={"times": 1})] if not state["draws"] and not state["tapped"] else []

    def forbids(self, view, move):
        log("forbids", move)

    def check(self, hand, move):
        log("check", move)

    def apply(self, hand, move):
        log("apply", move)
        hand.extensions[self.name]["tapped"] = True

    def played(self, hand, move):
        log("played", move)
        if move.action == "draw":
            hand.extensions[self.name]["draws"] += 1


@hookimpl
def gincli_register_moves(register):
    register(Recorder())
'''

#: An external bot that plays what a restriction most often refuses: a knock
#: whenever ``legal`` offers one, else the discard pile's top, else a random legal move.
GREEDY = """\
import json, random, sys
rng = random.Random(7)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        reply = {"type": "ready", "name": "greedy", "version": "1"}
    elif message["type"] == "decide":
        legal = message["legal"]
        taps = [m for m in legal if m["action"] == "tap"]
        knocks = [m for m in legal if m["action"] == "knock"]
        takes = [m for m in legal if m.get("from") == "discard"]
        reply = dict((taps or knocks or takes or [rng.choice(legal)])[0])
    elif message["type"] == "bye":
        break
    else:
        continue
    reply["id"] = message["id"]
    print(json.dumps(reply), flush=True)
"""


def gin(*args: str, cwd: Path, plugins: Path = PLUGINS, input: str | None = None, env: dict | None = None):
    environ = {"PATH": os.environ["PATH"], "GINCLI_CONFIG_DIR": str(cwd / "config"), "PYTHONIOENCODING": "utf-8",
               **(env or {})}
    res = subprocess.run([GIN, "--plugins-dir", str(plugins), *args], capture_output=True, text=True, cwd=cwd,
                         env=environ, timeout=600, input=input)
    assert res.returncode != 3 and "Traceback" not in res.stderr, res.stderr
    return res


@pytest.fixture(scope="module")
def registry():
    from gincli.plugin.registry import load_registry

    reg = load_registry([PLUGINS])
    assert {"latetake", "mustgin", "slowknock"} <= set(reg.movesets), reg.problems
    assert not reg.problems
    return reg


# -- Move.shown: the one form --------------------------------------------------------------------

@pytest.mark.parametrize("given, shown", [
    (Move("ann", "draw", "stock", 7), Move("ann", "draw", "stock")),
    (Move("ann", "draw", "discard", 7), Move("ann", "draw", "discard")),
    (Move("ann", "knock", None, 7, melds=[7, 56]), Move("ann", "knock", None, 7)),
    (Move("ann", "layoff", melds=[7], cards=[3]), Move("ann", "layoff")),
    (Move("ann", "tap", card=0), Move("ann", "tap", fields={"card": "As"})),
    (Move("ann", "tap", fields={"times": 2}), Move("ann", "tap", fields={"times": 2})),
])
def test_a_move_is_shown_as_the_player_chose_it(given, shown):
    assert given.shown() == shown
    assert Move.from_dict(given.to_dict()).shown() == shown  # what a transcript holds, read back


def test_a_view_builds_the_moves_in_the_form_they_are_shown(registry):
    rules = registry.rules(registry.variant("standard"), registry.scoring("game"))
    hand = Hand(("ann", "bob"), "bob", registry.variant("standard"), rules, deck=shuffled_deck(SplitMix64(1)))
    view = hand.view("ann")
    for m in [view.pass_(), view.take(), view.draw_stock(), view.discard(3), view.knock(3), view.knock(None)]:
        assert m.shown() == m


# -- the same moves in a match, gin validate, gin play and the API ------------------------------

def _log(path: Path) -> list[tuple]:
    lines = path.read_text().splitlines() if path.exists() else []
    path.unlink(missing_ok=True)
    return [tuple(json.dumps(x) for x in json.loads(line)) for line in lines]


def _hooks(log: list[tuple], *hooks: str) -> list[tuple]:
    return [e for e in log if json.loads(e[0]) in hooks]


@pytest.fixture
def recorder(tmp_path):
    folder = tmp_path / "rec"
    folder.mkdir()
    (folder / "recorder.py").write_text(RECORDER)
    return folder


def test_a_move_set_is_shown_the_same_moves_in_a_match_in_validate_and_in_the_api(recorder, tmp_path):
    log = tmp_path / "moves.log"
    env = {"MOVE_LOG": str(log)}
    (tmp_path / "greedy.py").write_text(GREEDY)
    res = gin("match", "--bots", f"exec:{sys.executable} greedy.py,simple", "--scoring", "hand", "--games", "4",
              "--seed", "4", "--workers", "1", "-o", "record_moves=true", "--transcripts", "t.jsonl", "-q",
              cwd=tmp_path, plugins=recorder, env=env)
    assert res.returncode == 0, res.stderr
    played = _log(log)
    assert {json.loads(e[0]) for e in played} == {"forbids", "check", "apply", "played"}
    assert gin("validate", "t.jsonl", cwd=tmp_path, plugins=recorder, env=env).returncode == 0
    replayed = _log(log)
    # what a hook is told of a move played is the same, in the same order
    assert _hooks(replayed, "played", "apply") == _hooks(played, "played", "apply")
    # the moves asked about before they are played: in validate, those played, as the match asked about them
    assert set(_hooks(replayed, "check", "forbids")) <= set(_hooks(played, "check", "forbids"))

    # the API: each session's hand again, dealt from its seed, its moves played through GameHand
    code = textwrap.dedent("""
        import json, gincli
        for line in open("t.jsonl"):
            t = json.loads(line)
            hand = gincli.new_hand(t["seed"], players=t["players"], scoring="hand", options=t["options"])
            for m in t["hands"][0]["moves"]:
                if not hand.over:  # gincli spreads for the defender, as in the match
                    hand.apply(m)
    """)
    env_api = {**os.environ, "MOVE_LOG": str(log), "GINCLI_PLUGINS_DIR": str(recorder),
               "GINCLI_CONFIG_DIR": str(tmp_path / "config")}
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env_api, check=True, timeout=300)
    assert _hooks(_log(log), "played", "apply") == _hooks(played, "played", "apply")


def test_gin_play_shows_a_move_set_the_moves_validate_shows_it(recorder, tmp_path):
    log = tmp_path / "moves.log"
    env = {"MOVE_LOG": str(log)}
    moves = "p\n" + "s\n1\n" * 60 + "q\n"
    res = gin("play", "--bot", "simple", "--seed", "3", "--name", "ann", "-o", "record_moves=true",
              "--transcript", "p.json", cwd=tmp_path, plugins=recorder, input=moves, env=env)
    assert res.returncode in (0, 1), res.stderr
    played = _log(log)
    assert gin("validate", "p.json", cwd=tmp_path, plugins=recorder, env=env).returncode == 0
    replayed = _log(log)
    assert _hooks(played, "played") and _hooks(replayed, "played", "apply") == _hooks(played, "played", "apply")


# -- a restriction that holds in play holds in validate ------------------------------------------

def test_a_late_take_refused_in_play_is_refused_in_validate(tmp_path):
    """latetake writes its rule ``move == view.take()``: in validate the draw
    carries its card in the transcript, and is shown without it."""
    res = gin("match", "--bots", "simple,simple", "--games", "4", "--seed", "3", "-o", "last_take_turn=2",
              "--transcripts", "free.jsonl", "-q", cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    text = (tmp_path / "free.jsonl").read_text().replace('"last_take_turn": 2', '"no_late_take": true, '
                                                                                '"last_take_turn": 2')
    (tmp_path / "late.jsonl").write_text(text)
    out = gin("validate", "-f", "json", "late.jsonl", cwd=tmp_path)
    reports = [json.loads(line) for line in out.stdout.splitlines()]
    assert reports and all(not r["valid"] and r["errors"][0]["rule"] == "take-too-late" for r in reports)
    played = gin("match", "--bots", "simple,simple", "--games", "4", "--seed", "3", "-o", "no_late_take=true",
                 "-o", "last_take_turn=2", "--transcripts", "kept.jsonl", "-q", cwd=tmp_path)
    assert played.returncode == 0, played.stderr
    assert gin("validate", "kept.jsonl", cwd=tmp_path).returncode == 0
