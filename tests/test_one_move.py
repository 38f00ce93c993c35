"""One move, everywhere (issue 35, criteria 1 and 2): a move set is shown the
same move, with the same fields, in a match, in ``gin validate``, in ``gin play``
and in the API (``Move.shown``), so that a restriction that holds in play holds
in validate; and a move its ``check()`` refuses is never offered in ``legal``,
so that no bot forfeits for playing a move it was offered.

The plugins are tests/plugins' third-party ones (written from docs/plugins.md
alone): ``latetake`` (no taking the discard late, written ``move ==
view.take()``), ``mustgin`` (knock only with gin), ``surrender`` (an added move,
and no knock before the fourth turn, kept in ``check()``), ``slowknock``; a
recorder written here logs every move each hook is shown."""

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
    assert {"latetake", "mustgin", "surrender", "slowknock"} <= set(reg.movesets), reg.problems
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


# -- a refusal is a restriction ------------------------------------------------------------------

def surrender_rules(reg):
    """Surrender on, and any deadwood knocks (the rule book then allows a knock
    at every discard: what the move set refuses shows at once)."""
    return reg.rules(reg.variant("standard"), reg.scoring("game"), {"surrender": True, "knock_limit": 100})


def test_legal_never_offers_a_knock_the_move_sets_check_refuses(registry):
    rules = surrender_rules(registry)
    refused_seen = 0
    for seed in range(30):
        rng = SplitMix64(seed)
        hand = Hand(("ann", "bob"), "bob", registry.variant("standard"), rules, deck=shuffled_deck(rng))
        bot = registry.bots["simple"](rng)
        while not hand.finishable and len(hand.moves) < 400:
            view = hand.view(hand.to_act)
            turns = hand.extensions["surrender"]["turns"]
            knocks = [m for m in view.legal() if m.action == "knock"]
            if turns < 4:
                assert not knocks
                refused = [m for m in view._standard() if view.refusal(m) is not None]
                refused_seen += any(m.action == "knock" for m in refused)
                assert all(not view.allows(m) for m in refused)
            for m in knocks:  # what is offered, the hand takes
                hand.rewound(len(hand.moves)).apply(m)
            move = bot.choose(view)
            if move.action == "surrender":
                move = next(m for m in view.legal() if m.action != "surrender")
            hand.apply(move)
    assert refused_seen  # the check() refused knocks the rule book allowed, and legal() left them out


def test_no_bot_forfeits_under_a_move_set_that_refuses_in_check(tmp_path):
    (tmp_path / "greedy.py").write_text(GREEDY)
    for bots in ("simple,expert", f"exec:{sys.executable} greedy.py,random"):
        res = gin("match", "--bots", bots, "--games", "6", "--seed", "1", "-o", "surrender=true", "-q", "-f", "json",
                  "--transcripts", "s.jsonl", cwd=tmp_path)
        assert res.returncode == 0, res.stderr
        summary = json.loads(res.stdout)
        assert [p["forfeits"] for p in summary["players"]] == [0, 0], bots
        assert gin("validate", "s.jsonl", cwd=tmp_path).returncode == 0
        (tmp_path / "s.jsonl").unlink()


def test_gin_play_and_the_api_offer_no_refused_move(tmp_path):
    code = textwrap.dedent("""
        import gincli, json
        hand = gincli.new_hand(7, options={"surrender": True, "knock_limit": 100})
        while not hand.over and len(hand.moves) < 300:
            turns = hand.engine.extensions["surrender"]["turns"]
            legal = hand.legal()
            assert turns >= 4 or not any(m["action"] == "knock" for m in legal), legal
            knock = [m for m in legal if m["action"] == "knock"]
            move = knock[0] if knock else next(m for m in legal if m["action"] != "surrender")
            hand.apply(move)
        print(json.dumps(hand.result["outcome"]))
    """)
    env = {**os.environ, "GINCLI_PLUGINS_DIR": str(PLUGINS), "GINCLI_CONFIG_DIR": str(tmp_path / "config")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    # gin play: after taking the upcard, what the player may do holds no knock, and says which rule takes it out
    res = gin("play", "--bot", "simple", "--seed", "7", "--name", "ann", "-o", "surrender=true", "-o",
              "knock_limit=100", "--transcript", "p.json", cwd=tmp_path, input="d\n?\nq\n")
    assert "You may discard any card but K♠; no knocking now (a rule of surrender: a knock before the hand's fourth " \
           "turn)." in " ".join(res.stdout.split())
    assert "you can knock" not in res.stdout
    free = gin("play", "--bot", "simple", "--seed", "7", "--name", "ann", "-o", "knock_limit=100", "--transcript",
               "q.json", cwd=tmp_path, input="d\n?\nq\n")
    assert "you can knock" in free.stdout


def test_a_move_set_that_refuses_every_move_in_check_is_its_fault(tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "nomove.py").write_text(textwrap.dedent("""
        from gincli import IllegalMove, MoveSet, Option, hookimpl

        class NoMove(MoveSet):
            name = "nomove"
            description = "refuses every move"
            options = (Option("no_move", False, "refuse everything", "bool"),)
            rule_ids = {"nothing": "nothing may be played"}

            def enabled(self, rules):
                return rules["no_move"]

            def check(self, hand, move):
                raise IllegalMove("nothing", "nothing may be played")

        @hookimpl
        def gincli_register_moves(register):
            register(NoMove())
    """))
    res = gin("match", "--bots", "simple,simple", "--games", "1", "-o", "no_move=true", cwd=tmp_path, plugins=folder)
    assert res.returncode == 4
    assert "the move set nomove's check() refused every move" in res.stderr


def test_a_move_set_that_refuses_its_own_offer_is_at_fault_not_the_player(tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "fickle.py").write_text(textwrap.dedent("""
        from gincli import IllegalMove, Move, MoveSet, Option, hookimpl

        class Fickle(MoveSet):
            name = "fickle"
            description = "offers a move it then refuses"
            actions = ("wave",)
            options = (Option("fickle", False, "offer waves", "bool"),)
            rule_ids = {"no-wave": "waving is not allowed"}

            def enabled(self, rules):
                return rules["fickle"]

            def legal(self, view):
                return [Move(view.me, "wave")]

            def apply(self, hand, move):
                raise IllegalMove("no-wave", "waving is not allowed")

        @hookimpl
        def gincli_register_moves(register):
            register(Fickle())
    """))
    (tmp_path / "waver.py").write_text(GREEDY.replace('knocks or takes or [rng.choice(legal)]',
                                                      '[m for m in legal if m["action"] == "wave"]'))
    res = gin("match", "--bots", f"exec:{sys.executable} waver.py,simple", "--games", "1", "-o", "fickle=true",
              cwd=tmp_path, plugins=folder)
    assert res.returncode == 4, res.stderr
    assert "the move set fickle offered" in res.stderr and "then refused it in apply()" in res.stderr


def test_check_is_asked_of_the_rule_books_moves_alone(registry):
    """Doubling's check() refuses every standard move while an offer waits; its own
    answers stay allowed (the built-in bots answer with them)."""
    rules = registry.rules(registry.variant("doubling"), registry.scoring("game"))
    hand = Hand(("ann", "bob"), "bob", registry.variant("doubling"), rules, deck=shuffled_deck(SplitMix64(2)))
    hand.apply(Move("ann", "double"))
    view = hand.view("bob")
    assert view.allows(Move("bob", "accept")) and view.allows(Move("bob", "decline"))
    assert not view.allows(view.take())
    assert [m.action for m in view.legal()] == ["accept", "decline"]


def test_the_environments_mask_leaves_out_what_check_refuses(tmp_path):
    code = textwrap.dedent("""
        import numpy as np
        import gincli.rl
        from gincli.rl.actions import GIN, KNOCK
        env = gincli.rl.env(options={"surrender": True, "knock_limit": 100})
        early_knocks = 0
        for seed in range(5):
            env.reset(seed=seed)
            for agent in env.agent_iter():
                obs, reward, done, truncated, info = env.last()
                if done or truncated:
                    assert not info.get("forfeit"), info
                    env.step(None)
                    continue
                mask = obs["action_mask"]
                hand = env.unwrapped.game.hand
                if hand.extensions["surrender"]["turns"] < 4:
                    early_knocks += int(mask[KNOCK:GIN].sum())
                legal = np.flatnonzero(mask)
                knocks = [a for a in legal if KNOCK <= a < GIN]
                env.step(int(knocks[0] if knocks else legal[-1]))
        assert early_knocks == 0
    """)
    env = {**os.environ, "GINCLI_PLUGINS_DIR": str(PLUGINS), "GINCLI_CONFIG_DIR": str(tmp_path / "config")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr
