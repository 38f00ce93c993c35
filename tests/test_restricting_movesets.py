"""A move set that takes standard moves out (``MoveSet.forbids``) and follows
every move (``MoveSet.played``): tests/plugins/slowknock.py, a real plugin file,
forbids knocking before a hand's ``first_knock_turn``-th turn, counting turns in
``played()``. ``legal()``, the external protocol's ``legal``, ``gin play``'s
prompt and hints, the built-in bots and ``gin validate`` all keep to it."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import ROOT

from gincli.hand.engine import Hand, IllegalMove, shuffled_deck
from gincli.rulebook.rng import SplitMix64

PLUGINS = ROOT / "tests" / "plugins"
GIN = str(Path(sys.executable).with_name("gin"))
#: An external bot that knocks whenever ``legal`` offers a knock, else plays the first legal move.
KNOCKER = """\
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        reply = {"type": "ready", "name": "knock-first", "version": "1"}
    elif message["type"] == "decide":
        knocks = [m for m in message["legal"] if m["action"] == "knock"]
        reply = dict(knocks[0] if knocks else message["legal"][0])
    elif message["type"] == "bye":
        break
    else:
        continue
    reply["id"] = message["id"]
    print(json.dumps(reply), flush=True)
"""
SLOW = ("--option", "slow_knock=true", "--option", "first_knock_turn=9")


def gin(*args: str, tmp_path: Path, plugins: Path | None = PLUGINS, input: str | None = None):
    env = {"PATH": "/usr/bin:/bin", "GINCLI_CONFIG_DIR": str(tmp_path / "config"), "PYTHONIOENCODING": "utf-8"}
    pre = ("--plugins-dir", str(plugins)) if plugins is not None else ()
    res = subprocess.run([GIN, *pre, *args], capture_output=True, text=True, cwd=ROOT, env=env, timeout=600,
                         input=input)
    assert res.returncode != 3 and "Traceback" not in res.stderr, res.stderr
    return res


@pytest.fixture(scope="module")
def slow_registry():
    from gincli.plugin.registry import load_registry

    reg = load_registry([PLUGINS])
    assert "slowknock" in reg.movesets, reg.problems
    return reg


def slow_rules(reg, **options):
    return reg.rules(reg.variant("standard"), reg.scoring("game"), {"slow_knock": True, "first_knock_turn": 9,
                                                                    **options})


def test_legal_never_offers_a_knock_before_the_turn_the_move_set_counts(slow_registry):
    rules = slow_rules(slow_registry)
    early_knockable = 0
    for seed in range(40):
        rng = SplitMix64(seed)
        hand = Hand(("ann", "bob"), "bob", slow_registry.variant("standard"), rules, deck=shuffled_deck(rng))
        bot = slow_registry.bots["simple"](rng)
        while not hand.finishable and len(hand.moves) < 400:
            view = hand.view(hand.to_act)
            draws = sum(m.action == "draw" for m in hand.moves)
            assert view.extensions["slowknock"]["turn"] == draws  # played() saw every move
            legal = view.legal()
            knocks = [m for m in legal if m.action == "knock"]
            if draws < 9:
                assert not knocks
                if view.phase == "discard" and any(m.action == "knock" for m in view._standard()):
                    early_knockable += 1
            move = bot.choose(view)
            assert move in legal
            hand.apply(move)
    assert early_knockable > 0  # the rule book alone would have offered knocks early


def test_the_hand_refuses_an_early_knock_with_the_move_sets_rule_id(slow_registry):
    rules = slow_rules(slow_registry)
    for seed in range(200):
        rng = SplitMix64(seed)
        hand = Hand(("ann", "bob"), "bob", slow_registry.variant("standard"), rules, deck=shuffled_deck(rng))
        bot = slow_registry.bots["simple"](rng)
        while not hand.finishable:
            view = hand.view(hand.to_act)
            knock = next((m for m in view._standard() if m.action == "knock"), None)
            if knock is not None and view.extensions["slowknock"]["turn"] < 9:
                moves = len(hand.moves)
                with pytest.raises(IllegalMove) as err:
                    hand.apply(knock)
                assert err.value.rule == "knock-too-early"
                assert "the move set slowknock forbids a knock before" in err.value.message
                assert len(hand.moves) == moves and hand.phase == "discard"  # unchanged
                return
            hand.apply(bot.choose(view))
    pytest.fail("no early knock found")


@pytest.mark.parametrize("bot", ["random", "simple", "expert", "external"])
def test_bots_playing_by_legal_or_the_move_sets_rules_never_forfeit(tmp_path, bot):
    if bot == "external":
        script = tmp_path / "knocker.py"
        script.write_text(KNOCKER)
        bot = f"exec:{sys.executable} {script}"
    res = gin("match", "--bots", f"{bot},simple", "--games", "8", "--seed", "3", *SLOW, "--format", "json", "-q",
              tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout)
    assert [p["forfeits"] for p in summary["players"]] == [0, 0], summary["forfeit_reasons"]
    assert summary["hands"] > 8


def test_the_same_rule_kept_in_check_alone_is_a_restriction_too(tmp_path):
    """The rule, refused only in ``check()`` when a move is applied, takes the early knocks
    out of ``legal()`` as ``forbids()`` does: no bot forfeits, and the transcripts are valid
    (issue 35: a refusal is a restriction)."""
    code = (PLUGINS / "slowknock.py").read_text().replace("def forbids(self, view, move: Move):",
                                                         "def _unused(self, view, move: Move):")
    code += textwrap.dedent("""
        def _check(self, hand, move):
            from gincli import IllegalMove
            state = hand.extensions[self.name]
            if move.action == "knock" and state["turn"] < state["first_knock_turn"]:
                raise IllegalMove("knock-too-early", "too early")
        SlowKnock.check = _check
        """)
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "slowknock.py").write_text(code)
    res = gin("match", "--bots", "simple,simple", "--games", "8", "--seed", "3", *SLOW, "--format", "json", "-q",
              "--transcripts", str(tmp_path / "t.jsonl"), tmp_path=tmp_path, plugins=folder)
    summary = json.loads(res.stdout)
    assert [p["forfeits"] for p in summary["players"]] == [0, 0], summary["forfeit_reasons"]
    assert gin("validate", str(tmp_path / "t.jsonl"), tmp_path=tmp_path, plugins=folder).returncode == 0


def test_gin_validate_refuses_an_early_knock_with_the_move_sets_rule_id(tmp_path):
    f = tmp_path / "t.jsonl"
    res = gin("match", "--bots", "simple,simple", "--games", "4", "--seed", "3", "--option", "first_knock_turn=9",
              "--transcripts", str(f), "-q", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    early = None
    for line in f.read_text().splitlines():
        doc = json.loads(line)
        for hi, h in enumerate(doc["hands"]):
            draws = 0
            for m in h["moves"]:
                draws += m["action"] == "draw"
                if m["action"] == "knock" and draws < 9:
                    early = early or (doc, hi)
    assert early is not None
    doc, hi = early
    assert gin("validate", "-q", "-", tmp_path=tmp_path, input=json.dumps(doc)).returncode == 0
    doc["options"]["slow_knock"] = True
    report = json.loads(gin("validate", "--format", "json", "-", tmp_path=tmp_path, input=json.dumps(doc)).stdout)
    assert not report["valid"]
    error = report["errors"][0]
    assert error["rule"] == "knock-too-early" and error["hand"] == hi, error
    assert "the move set slowknock forbids a knock before the hand's first_knock_turn-th turn" in error["message"]


def test_gin_plays_prompt_and_hint_do_not_offer_an_early_knock(slow_registry):
    from gincli.cli.play import legal_text
    from gincli.cli.screens import best_discard

    rules = slow_rules(slow_registry)
    expert = slow_registry.bots["expert"]
    seen = 0
    for seed in range(60):
        rng = SplitMix64(seed)
        hand = Hand(("ann", "bob"), "bob", slow_registry.variant("standard"), rules, deck=shuffled_deck(rng))
        bot = slow_registry.bots["simple"](rng)
        while not hand.finishable:
            view = hand.view(hand.to_act)
            best = best_discard(view)
            if best is not None and best[0] <= view.knock_limit and view.extensions["slowknock"]["turn"] < 9:
                seen += 1
                text = legal_text(view)
                assert "knock discarding" not in text and "big gin" not in text
                assert "no knocking now (a rule of slowknock: a knock before the hand's first_knock_turn-th turn)" \
                    in text
                hint = expert(SplitMix64(seed), view.me).choose(view)
                assert hint.action != "knock" and hint in view.legal()
            hand.apply(bot.choose(view))
    assert seen > 0


def test_the_prompt_offers_knocks_once_the_move_set_allows_them(slow_registry):
    from gincli.cli.play import legal_text

    rules = slow_rules(slow_registry, first_knock_turn=1)
    for seed in range(60):
        rng = SplitMix64(seed)
        hand = Hand(("ann", "bob"), "bob", slow_registry.variant("standard"), rules, deck=shuffled_deck(rng))
        bot = slow_registry.bots["simple"](rng)
        while not hand.finishable:
            view = hand.view(hand.to_act)
            legal = view.legal()
            if any(m.action == "knock" for m in legal):
                assert "knock discarding" in legal_text(view)
                return
            hand.apply(bot.choose(view))
    pytest.fail("no knock found")


BROKEN = """
    from gincli import MoveSet, Option, hookimpl
    class Broken(MoveSet):
        name = "broken"
        options = (Option("broken", False, "on", "bool"),)
        rule_ids = {{"broken-rule": "anything"}}
        def enabled(self, rules):
            return rules["broken"]
        {body}
    @hookimpl
    def gincli_register_moves(register):
        register(Broken())
    """


@pytest.mark.parametrize("body,said", [
    ("def forbids(self, view, move):\n            return 'no-such-rule'",
     'plugin "broken": the move set broken\'s forbids() returned "no-such-rule", not None or one of its rule_ids '
     '(broken-rule)'),
    ("def forbids(self, view, move):\n            return 'broken-rule'",
     'plugin "broken": the move set broken\'s forbids() forbade every move'),
    ("def forbids(self, view, move):\n            raise KeyError('x')",
     'plugin "broken": the move set broken\'s forbids() failed: KeyError'),
    ("def played(self, hand, move):\n            return {'turn': 1}",
     'plugin "broken": the move set broken\'s played() returned {"turn": 1}, not None (it changes its state'),
    ("def played(self, hand, move):\n            hand.extensions['broken'] = 7",
     'plugin "broken": the move set broken\'s played() returned 7, not a state that stays a dict'),
])
def test_a_move_set_whose_forbids_or_played_breaks_its_contract_is_named(tmp_path, body, said):
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "broken.py").write_text(textwrap.dedent(BROKEN.format(body=body)))
    res = gin("match", "--bots", "random,random", "--hands", "2", "--seed", "1", "--option", "broken=true", "-q",
              tmp_path=tmp_path, plugins=folder)
    assert res.returncode != 0 and said in res.stderr, res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
