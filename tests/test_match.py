"""Bots and ``gin match``: the view, the built-in bots, reproducibility whatever
the workers, duplicate deals, transcripts that validate, resume, Ctrl-C, the
SPRT, and external bots that crash, hang or cheat."""

from __future__ import annotations

import dataclasses
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT
from helpers import json_lines, mask

from gincli.hand.engine import Hand, Move, shuffled_deck
from gincli.hand.view import PlayerView
from gincli.replay.validate import validate
from gincli.rulebook.rng import SplitMix64

GIN = str(Path(sys.executable).with_name("gin"))


def gin(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([GIN, *args], capture_output=True, text=True, cwd=ROOT, timeout=600, **kw)


# -- the view -------------------------------------------------------------------------------

def test_a_view_holds_only_what_the_seat_may_know(registry):
    names = {f.name for f in dataclasses.fields(PlayerView)}
    assert names == {"me", "opponent", "dealer", "phase", "hand", "upcard", "discard_pile", "stock_count",
                     "passes", "my_took", "opponent_took", "my_discards", "opponent_discards", "taken",
                     "must_draw_stock", "knock_limit", "big_gin", "rules", "scores", "hand_number", "extensions",
                     "refusal"}  # a move set's check() asked of a move: None unless one is in play
    v = registry.variant("standard")
    h = Hand(("ann", "bob"), "ann", v, registry.rules(v, registry.scoring("game"), {}),
             deck=shuffled_deck(SplitMix64(1)))
    h.apply(Move("bob", "pass"))
    h.apply(Move("ann", "pass"))
    h.apply(Move("bob", "draw", "stock"))  # a stock draw: ann must not learn the card
    bob_hand = h.hands["bob"]
    h.apply(Move("bob", "discard", card=[c for c in range(52) if bob_hand >> c & 1][0]))
    view = h.view("ann")
    assert view.hand == h.hands["ann"] and view.opponent_took == () and len(view.opponent_discards) == 1
    assert view.refusal is None
    values = [getattr(view, n) for n in names]
    assert not any(isinstance(x, Hand) for x in values), "no reference to the engine"
    assert all(x != bob_hand for x in values if isinstance(x, int) and x > 1 << 20), "nor to bob's cards"
    with pytest.raises(dataclasses.FrozenInstanceError):
        view.hand = 0  # type: ignore[misc]


def test_simple_takes_the_upcard_only_to_form_a_meld_and_knocks_at_once(registry):
    from gincli.rulebook.melds import forms_meld
    from gincli_builtin.bots import SimpleBot

    assert forms_meld(mask("7s 7h 2c"), mask("7d").bit_length() - 1)
    assert forms_meld(mask("5c 6c 9d"), mask("7c").bit_length() - 1)
    assert not forms_meld(mask("5c 9c 9d"), mask("7c").bit_length() - 1)
    bot = SimpleBot(SplitMix64(1))
    base = dict(me="ann", opponent="bob", dealer="bob", upcard=0, discard_pile=(), stock_count=20, passes=(),
                my_took=(), opponent_took=(), my_discards=(), opponent_discards=(), taken=-1,
                must_draw_stock=False, knock_limit=10, big_gin=False,
                rules=registry.rules(registry.variant("standard"), registry.scoring("game"), {}), scores={},
                hand_number=0)
    hand = mask("7s 7h 2c 3d 9h Jc Qd Ks 4h 5s")
    top = mask("7d").bit_length() - 1
    assert bot.choose(PlayerView(phase="draw", hand=hand, **{**base, "discard_pile": (top,)})).source == "discard"
    top = mask("8c").bit_length() - 1
    assert bot.choose(PlayerView(phase="draw", hand=hand, **{**base, "discard_pile": (top,)})).source == "stock"
    eleven = mask("7s 7h 7d 2c 3c 4c 9h 9d 9s Ah Kd")  # discarding Kd leaves 1: knock
    move = bot.choose(PlayerView(phase="discard", hand=eleven, **base))
    assert move.action == "knock" and move.card == mask("Kd").bit_length() - 1
    taken = mask("Kd").bit_length() - 1  # never discards the card just taken
    move = bot.choose(PlayerView(phase="discard", hand=eleven, **{**base, "taken": taken}))
    assert move.card != taken


def test_simple_stops_trading_discards_late_in_a_hand(registry):
    from gincli_builtin.bots import TRADING_TURNS, SimpleBot

    bot = SimpleBot(SplitMix64(1))
    hand = mask("7s 7h 2c 3d 9h Jc Qd Ks 4h 5s")
    top = mask("7d").bit_length() - 1  # melds with 7s 7h
    others = [c for c in range(52) if not (hand >> c & 1) and c != top] * 2  # discarded, taken back, again
    base = dict(me="ann", opponent="bob", dealer="bob", upcard=0, discard_pile=(top,), stock_count=20, passes=(),
                my_took=(), opponent_took=(), opponent_discards=(), taken=-1, must_draw_stock=False, knock_limit=10,
                big_gin=False, rules=registry.rules(registry.variant("standard"), registry.scoring("game"), {}),
                scores={}, hand_number=0, phase="draw", hand=hand)

    def source(discards: list[int]) -> str:
        return bot.choose(PlayerView(**base, my_discards=tuple(discards))).source

    early = [top, *others[:TRADING_TURNS - 2]]  # its own discard, taken back: early in a hand, as ever
    assert source(early) == "discard"
    late = [top, *others[:TRADING_TURNS - 1]]  # past TRADING_TURNS discards: not its own again
    assert source(late) == "stock"
    assert source(others[:TRADING_TURNS + 5]) == "discard"  # another's card it still takes


def test_two_simple_bots_under_a_plugins_loose_melds_end_their_hands(tmp_path):
    # benchmarks/plugins/mixed_runs.py: any three consecutive ranks meld, suits mixed; almost any
    # discard melds, and two simple bots traded discards until gincli stopped the hand at 2,000 moves.
    out = tmp_path / "t.jsonl"
    res = gin("--plugins-dir", str(ROOT / "benchmarks" / "plugins"), "match", "--bots", "simple,simple", "--hands",
              "300", "--seed", "1", "-o", "mixed_runs=true", "--transcripts", str(out), "-q", "-f", "json")
    assert res.returncode == 0, res.stderr
    moves = [len(h["moves"]) for line in out.read_text().splitlines() for h in json.loads(line)["hands"]]
    assert len(moves) == 300 and max(moves) < 400


def test_gin_bots_lists_the_builtins(run):
    res = run("bots", "--format", "json")
    assert {b["name"] for b in json.loads(res.stdout)["bots"]} >= {"random", "simple", "expert"}


# -- gin match ---------------------------------------------------------------------------------

def test_same_seed_same_transcripts_and_summary_whatever_the_workers(tmp_path):
    outs = []
    for w in ("1", "2"):
        f = tmp_path / f"t{w}.jsonl"
        res = gin("match", "--bots", "expert,simple", "--games", "6", "--seed", "9", "--workers", w,
                  "--transcripts", str(f), "--format", "json", "-q")
        assert res.returncode == 0, res.stderr
        outs.append((res.stdout, f.read_text()))
    assert outs[0] == outs[1]
    summary = json.loads(outs[0][0])
    for key in ("hands", "games", "players", "dead_hands", "win_rate", "elo"):
        assert key in summary
    assert summary["games"] == 6 and sum(p["games_won"] for p in summary["players"]) == 6
    for p in summary["players"]:
        assert {"name", "bot", "hands_won", "games_won", "points"} <= set(p)
    lines = outs[0][1].splitlines()
    assert len(lines) == 6
    from gincli.plugin.registry import load_registry

    registry = load_registry()
    for line in lines:
        report = validate(json.loads(line), registry)
        assert report.valid and report.complete, report.errors


def test_duplicate_plays_each_deal_twice_with_seats_swapped(tmp_path):
    f = tmp_path / "d.jsonl"
    res = gin("match", "--bots", "simple,random", "--hands", "4", "--duplicate", "--transcripts", str(f), "-q",
              "--format", "json")
    assert res.returncode == 0, res.stderr
    docs = json_lines(f.read_text())
    for a, b in ((docs[0], docs[1]), (docs[2], docs[3])):
        assert a["seed"] == b["seed"] and a["players"] == b["players"][::-1]
        assert a["hands"][0]["deck"] == b["hands"][0]["deck"]
        # the bot that sat in a seat in one session sits in the other seat in the next
        dealer_seat = a["players"].index(a["hands"][0]["dealer"])
        assert b["players"].index(b["hands"][0]["dealer"]) == dealer_seat
    assert docs[0]["seed"] != docs[2]["seed"]
    assert gin("match", "--bots", "simple,random", "--hands", "3", "--duplicate").returncode == 2


def test_resume_finishes_what_an_interrupted_run_left(tmp_path):
    full = tmp_path / "full.jsonl"
    args = ["match", "--bots", "simple,expert", "--games", "5", "--seed", "4", "-q", "--format", "json"]
    expected = gin(*args, "--transcripts", str(full))
    part = tmp_path / "part.jsonl"
    lines = full.read_text().splitlines(keepends=True)
    part.write_text("".join(lines[:2]) + lines[2][:50])  # two sessions, then a line cut short
    assert gin(*args, "--transcripts", str(part)).returncode == 2  # refuses to overwrite
    resumed = gin(*args, "--transcripts", str(part), "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert part.read_text() == full.read_text()
    assert json.loads(resumed.stdout) == json.loads(expected.stdout)
    other = gin("match", "--bots", "simple,expert", "--games", "5", "--seed", "5", "--transcripts", str(part),
                "--resume")
    assert other.returncode == 2 and "another match" in other.stderr


def test_ctrl_c_leaves_a_valid_file_and_resume_completes_it(tmp_path):
    f = tmp_path / "c.jsonl"
    args = [GIN, "match", "--bots", "expert,expert", "--games", "40", "--seed", "1", "--workers", "2",
            "--transcripts", str(f), "-q"]
    proc = subprocess.Popen(args, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and (not f.exists() or f.stat().st_size == 0):
        time.sleep(0.2)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "--resume" in err and "Traceback" not in err
    done = f.read_text()
    assert done.endswith("\n")
    assert 0 < len(done.splitlines()) < 40
    for line in done.splitlines():
        json.loads(line)
    res = gin("match", "--bots", "expert,expert", "--games", "40", "--seed", "1", "--transcripts", str(f),
              "--resume", "-q", "--format", "json")
    assert res.returncode == 0 and len(f.read_text().splitlines()) == 40
    assert json.loads(res.stdout)["games"] == 40


def test_sprt_stops_once_it_decides():
    res = gin("match", "--bots", "simple,random", "--games", "400", "--seed", "1", "--sprt", "0,100", "--format",
              "json", "-q")
    s = json.loads(res.stdout)
    assert s["sprt"]["result"] == "H1" and s["games"] < 400
    assert s["sprt"]["llr"] >= s["sprt"]["upper"]


def script_bot(decide: str = "", hello: str = "") -> str:
    """A bot speaking gincli-bot/2 that answers the first legal move, with
    ``decide`` (and ``hello``) code run first (``n`` counts its decisions)."""
    return ("import json, sys, time\n"
            "def out(obj):\n    sys.stdout.write(json.dumps(obj) + '\\n')\n    sys.stdout.flush()\n"
            "n = 0\n"
            "for line in sys.stdin:\n"
            "    m = json.loads(line)\n"
            "    if m['type'] == 'hello':\n"
            + "".join(f"        {code}\n" for code in hello.splitlines())
            + "        out({'type': 'ready', 'id': m['id'], 'name': 'test', 'version': '1'})\n"
            "    elif m['type'] == 'decide':\n"
            "        n += 1\n"
            "        reply = dict(m['legal'][0], id=m['id'])\n"
            + "".join(f"        {code}\n" for code in decide.splitlines())
            + "        out(reply)\n"
            "    elif m['type'] == 'bye':\n"
            "        break\n")


BROKEN = {
    "crash": script_bot("if n == 3: sys.exit(3)"),
    "hang": script_bot("if n % 7 == 0: time.sleep(30)"),
    "illegal": script_bot("if m['view']['phase'] == 'discard': reply = {'action': 'discard', 'card': 'As', "
                          "'id': m['id']}"),
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_a_failing_external_bot_forfeits_the_hand_and_the_match_goes_on(tmp_path, kind):
    script = tmp_path / f"{kind}.py"
    script.write_text(BROKEN[kind])
    f = tmp_path / "t.jsonl"
    res = gin("match", "--bots", f"exec:{sys.executable} {script},simple", "--hands", "6", "--workers", "1",
              "--seed", "1", "--time-limit", "0.5", "--transcripts", str(f), "--format", "json", "-q")
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert s["hands"] == 6
    ext = s["players"][0]
    assert ext["forfeits"] >= 1 and s["forfeit_reasons"]
    from gincli.plugin.registry import load_registry

    registry = load_registry()
    for line in f.read_text().splitlines():
        assert validate(json.loads(line), registry).valid


def test_the_example_external_bot_plays_a_whole_game(tmp_path):
    f = tmp_path / "t.jsonl"
    res = gin("match", "--bots", "exec:python3 examples/bot.py,simple", "--games", "1", "--workers", "1",
              "--transcripts", str(f), "--format", "json", "-q")
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert s["games"] == 1 and all(p["forfeits"] == 0 for p in s["players"])
    assert gin("validate", str(f), "-q").returncode == 0


@pytest.mark.parametrize("args,message", [
    (["--bots", "simple"], "at least two"),
    (["--bots", "simple,simple,simple", "--games", "2"], "game takes 2 players, so --bots needs 2 bots, not 3"),
    (["--bots", "simple,simple,simple", "--games", "2", "--scoring", "cutthroat", "--sprt", "0,50"],
     "--sprt is for two players"),
    (["--bots", "simple,simple,simple", "--games", "2", "--scoring", "cutthroat", "--duplicate"],
     "--duplicate is for two players"),
    (["--bots", "simple,simple,simple", "--games", "2", "--scoring", "cutthroat", "--names", "a,b"],
     "--players takes 3 different names"),
    (["--bots", "simple,nobody", "--hands", "1"], 'unknown bot "nobody"'),
    (["--bots", "simple,exec:no-such-program-xyz", "--hands", "1"], "is not a program"),
    (["--bots", "simple,simple"], "either --hands N or --games N"),
    (["--bots", "simple,simple", "--hands", "2", "--scoring", "game"], "--hands plays hands"),
    (["--bots", "simple,simple", "--games", "2", "--sprt", "5,1"], "elo0 < elo1"),
    (["--bots", "simple,simple", "--games", "2", "--resume"], "--resume needs --transcripts"),
])
def test_match_usage_errors(run, args, message):
    res = run("match", *args)
    assert res.exit_code == 2 and message in res.stderr


# -- --resume never destroys a file it did not write ---------------------------------------------

MATCH = ["match", "--bots", "simple,random", "--games", "4", "--seed", "3", "--workers", "1", "-q", "-f", "json"]


def played(run, path, *extra):
    res = run(*MATCH, "--transcripts", str(path), *extra)
    assert res.exit_code == 0, res.stderr
    return path.read_bytes()


@pytest.mark.parametrize("content", [b"my notes\n", b"my notes", b"\n", b"{}\n"])
def test_resume_refuses_a_file_that_is_not_this_matchs_transcripts_and_leaves_it(run, tmp_path, content):
    notes = tmp_path / "notes.txt"
    notes.write_bytes(content)
    link = tmp_path / "link.jsonl"
    link.symlink_to(notes)
    for target in (notes, link):
        res = run(*MATCH, "--transcripts", str(target), "--resume")
        assert res.exit_code == 2 and "line 1 is not a transcript of this match" in res.stderr
        assert notes.read_bytes() == content


def test_resume_refuses_a_file_holding_other_lines_after_the_sessions(run, tmp_path):
    f = tmp_path / "m.jsonl"
    full = played(run, f)
    lines = full.splitlines(keepends=True)
    f.write_bytes(lines[0] + b"my notes\n" + lines[1])
    res = run(*MATCH, "--transcripts", str(f), "--resume")
    assert res.exit_code == 2 and "line 2 is not a transcript" in res.stderr
    assert f.read_bytes() == lines[0] + b"my notes\n" + lines[1]


@pytest.mark.parametrize("change,what", [
    (["--option", "gin_bonus=50"], "options differ (gin_bonus: 25 there, 50 here)"),
    (["--bots", "random,random", "--names", "simple,random"], "bots differ"),
    (["--bots", "random,simple"], "bots differ"),
    (["--duplicate"], "duplicate differs (false there, true here)"),
    (["--seed", "4"], "seed differs (3 there, 4 here)"),
    (["--variant", "oklahoma"], 'variant differs ("standard" there, "oklahoma" here)'),
    (["--scoring", "hollywood"], 'scoring differs ("game" there, "hollywood" here)'),
])
def test_resume_refuses_a_file_from_a_different_match_saying_what_differs(run, tmp_path, change, what):
    f = tmp_path / "m.jsonl"
    before = played(run, f)
    args = MATCH + change
    if "--bots" in change:  # the later --bots wins; keep one
        i = args.index("--bots")
        del args[i:i + 2]
    res = run(*args, "--transcripts", str(f), "--resume")
    assert res.exit_code == 2 and "line 1 is from another match: its " + what in res.stderr, res.stderr
    assert f.read_bytes() == before


def test_resume_drops_only_a_last_line_cut_short_and_appends_through_a_symlink(run, tmp_path):
    full = played(run, tmp_path / "full.jsonl")
    lines = full.splitlines(keepends=True)
    part = tmp_path / "part.jsonl"
    part.write_bytes(lines[0] + lines[1][:60])
    link = tmp_path / "link.jsonl"
    link.symlink_to(part)
    res = run(*MATCH, "--transcripts", str(link), "--resume")
    assert res.exit_code == 0, res.stderr
    assert link.is_symlink() and part.read_bytes() == full


def test_resume_says_when_the_file_holds_more_sessions_than_asked(run, tmp_path):
    f = tmp_path / "m.jsonl"
    before = played(run, f)
    args = list(MATCH)
    args[args.index("4")] = "2"
    res = run(*args, "--transcripts", str(f), "--resume")
    assert res.exit_code == 2 and "already holds 4 sessions, more than the 2 asked" in res.stderr
    assert f.read_bytes() == before


def test_resume_refuses_what_is_not_a_regular_file(run, tmp_path):
    import os

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    res = run(*MATCH, "--transcripts", str(fifo), "--resume")
    assert res.exit_code == 2 and "is not a regular file" in res.stderr


def test_every_transcript_names_its_match_and_carries_the_rules_it_needs(run, tmp_path, registry):
    f = tmp_path / "m.jsonl"
    played(run, f, "--option", "gin_bonus=30")
    docs = json_lines(f.read_text())
    assert [d["match"] for d in docs] == [{"bots": ["simple", "random"], "names": ["simple", "random"], "seed": 3,
                                            "duplicate": False, "unit": "games"}] * 4
    rules = registry.rules(registry.variant("standard"), registry.scoring("game"), {"gin_bonus": 30})
    # a move set and meld rules that are off, at their defaults
    off = ("doubling", "max_multiplier", "decline_bonus", "corner_runs", "ace_value", "layoff_on_gin",
           "knock_limit_cap", "irregular_hand_penalty")  # and gincli's own additions to the rule book
    assert all(d["options"] == {k: v for k, v in rules.items() if k not in off} for d in docs)
    assert all("plugins" not in d for d in docs)  # the built-ins only


# -- no silent caps ------------------------------------------------------------------------------

def test_a_session_stopped_by_the_hand_cap_is_reported_and_marked(run, tmp_path):
    f = tmp_path / "m.jsonl"
    res = run("match", "--bots", "simple,simple", "--games", "2", "--option", f"target={10**18}", "--max-hands", "30",
              "--workers", "1", "--transcripts", str(f), "-f", "json", "-q")
    assert res.exit_code == 0, res.stderr
    summary = json.loads(res.stdout)
    assert summary["capped_sessions"] == 2 and summary["max_hands"] == 30 and summary["hands"] == 60
    assert "2 sessions reached the hand cap of 30 hands unsettled" in res.stderr
    docs = json_lines(f.read_text())
    assert all(d["capped"] is True and len(d["hands"]) == 30 for d in docs)
    text = run("match", "--bots", "simple,simple", "--games", "1", "--option", f"target={10**18}", "--max-hands", "5",
               "--workers", "1")
    assert "1 session reached the hand cap of 5 hands unsettled" in text.stdout


def test_a_settled_session_is_not_marked_capped(run, tmp_path):
    f = tmp_path / "m.jsonl"
    res = run(*MATCH, "--transcripts", str(f))
    assert json.loads(res.stdout)["capped_sessions"] == 0
    assert not any("capped" in d for d in json_lines(f.read_text()))


# -- workers and bots die with the run -----------------------------------------------------------

FORKING = "import subprocess, sys\nsys.exit(subprocess.call([sys.executable, 'examples/bot.py']))\n"
HANGING = script_bot("if n > 20: time.sleep(600)")


def marked(mark: str) -> list[int]:
    """The live processes whose environment holds the test's marker."""
    import os

    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/environ", "rb") as fh:
                if f"GINCLI_TEST_MARK={mark}".encode() in fh.read().split(b"\0"):
                    found.append(int(pid))
        except OSError:
            continue
    return found


def start_match(tmp_path, mark: str, bots: str, *extra: str) -> tuple[subprocess.Popen, list[int]]:
    import os

    f = tmp_path / "m.jsonl"
    env = dict(os.environ, GINCLI_TEST_MARK=mark)
    env.pop("GINCLI_DEBUG", None)
    proc = subprocess.Popen([GIN, "match", "--bots", bots, "--games", "1000", "--workers", "2", "--transcripts",
                             str(f), "-q", *extra], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + 60
    while time.time() < deadline and len(marked(mark)) < 5:  # gin, 2 workers, bots
        time.sleep(0.2)
    time.sleep(1)  # every bot started
    running = marked(mark)
    assert len(running) >= 5, running
    return proc, running


def gone_within(mark: str, seconds: float) -> list[int]:
    deadline = time.time() + seconds
    while time.time() < deadline and marked(mark):
        time.sleep(0.2)
    return marked(mark)


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_after_sigkill_of_gin_its_workers_and_bots_exit_by_themselves(tmp_path):
    import uuid

    wrapper = tmp_path / "forking.py"
    wrapper.write_text(FORKING)
    mark = uuid.uuid4().hex
    proc, _ = start_match(tmp_path, mark, f"exec:{sys.executable} {wrapper},exec:python3 examples/bot.py")
    proc.kill()
    _, err = proc.communicate(timeout=30)
    assert gone_within(mark, 10) == []
    assert "Traceback" not in err


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_after_ctrl_c_with_several_workers_no_bot_is_left_even_a_hung_one(tmp_path):
    import uuid

    hanging = tmp_path / "hanging.py"
    hanging.write_text(HANGING)
    mark = uuid.uuid4().hex
    proc, _ = start_match(tmp_path, mark, f"exec:{sys.executable} {hanging},exec:python3 examples/bot.py",
                          "--time-limit", "300")
    time.sleep(2)  # the hanging bots are asleep in their decisions by now
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "Traceback" not in err
    assert gone_within(mark, 10) == []


def test_a_worker_ends_on_sigterm_even_when_its_main_thread_cannot_take_the_signal(tmp_path):
    # The race this stands for: SIGTERM handled just before the main thread blocks in a pool lock,
    # its Python handler then never ran and the run hung at its end.
    script = tmp_path / "stuck.py"
    script.write_text(
        "import signal, time\n"
        "from gincli.base.pool import ordered_map\n"
        "def work(chunk):\n"
        "    if chunk == [2]:\n"
        "        signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})\n"
        "        time.sleep(300)\n"
        "    return chunk\n"
        "results = ordered_map(work, [[1], [2], [3]], 2)\n"
        "print(next(results))\n"
        "results.close()  # terminates the pool: SIGTERM to the worker asleep in [2]\n"
        "print('done')\n")
    res = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert res.stdout.split() == ["[1]", "done"], res.stderr  # well before the 300 s the stuck task sleeps


@pytest.mark.parametrize("scoring,bots", [("cutthroat", "simple,expert,random"),
                                          ("chouette", "simple,expert,random,simple"),
                                          ("partnership", "expert,simple,expert,simple")])
def test_a_match_of_three_or_four_bots_is_the_same_whatever_the_workers_and_resumes(tmp_path, scoring, bots):
    outs = []
    for w in ("1", "2"):
        f = tmp_path / f"{scoring}{w}.jsonl"
        res = gin("match", "--bots", bots, "--games", "4", "--scoring", scoring, "--seed", "5", "--workers", w,
                  "--transcripts", str(f), "--format", "json", "-q")
        assert res.returncode == 0, res.stderr
        outs.append((res.stdout, f.read_text()))
    assert outs[0] == outs[1]
    summary = json.loads(outs[0][0])
    n = len(bots.split(","))
    assert len(summary["players"]) == n and "win_rate" not in summary and "elo" not in summary
    for p in summary["players"]:
        assert {"games_won", "hands_played", "hands_won", "net_per_game"} <= set(p)
        assert p["net_per_game"]["samples"] == 4
    assert abs(sum(p["net_per_game"]["mean"] for p in summary["players"])) < 1e-6  # nets sum to zero
    assert sum(p["hands_played"] for p in summary["players"]) == 2 * summary["hands"]
    assert gin("validate", "-q", str(tmp_path / f"{scoring}1.jsonl")).returncode == 0
    # Cut after two sessions, resumed: the same file and summary.
    f = tmp_path / f"{scoring}1.jsonl"
    lines = f.read_text().splitlines(keepends=True)
    f.write_text("".join(lines[:2]) + lines[2][:40])
    res = gin("match", "--bots", bots, "--games", "4", "--scoring", scoring, "--seed", "5", "--transcripts", str(f),
              "--resume", "--format", "json", "-q")
    assert res.returncode == 0, res.stderr
    assert f.read_text() == outs[0][1] and json.loads(res.stdout) == summary


def test_a_session_outcome_crosses_from_a_worker_whole():
    """SessionOutcome pickles as its fields in order (its own ``__reduce__``, for the driver's
    speed): every field, each set to other than its default, comes back as it was."""
    import pickle

    from gincli.matches.runner import SessionOutcome

    values = {"index": 7, "hands": [("knock", "a", 12, None, ("a", "b")), ("gin", "b", 31, "a", ("a", "b"))],
              "winner": "b", "transcript": '{"hands": []}', "forfeits": [("a", "timed out", 1)], "capped": True,
              "scores": {"a": -1.5, "b": 1.5}, "winners": ["b"], "programs": {"a": {"name": "x", "version": "1"}},
              "stalled": 2, "unfinished": True}
    assert set(values) == {f.name for f in dataclasses.fields(SessionOutcome)}
    for field in dataclasses.fields(SessionOutcome):  # none of them at its default: a swap would show
        assert values[field.name] != field.default
    for capped, unfinished in ((True, False), (False, True)):  # the two flags told apart too
        sent = dict(values, capped=capped, unfinished=unfinished)
        back = pickle.loads(pickle.dumps(SessionOutcome(**sent), pickle.HIGHEST_PROTOCOL))
        assert type(back) is SessionOutcome
        assert dataclasses.asdict(back) == sent
