"""External bots a researcher can trust (docs/bot-protocol.md, gincli-bot/2):
the handshake, replies kept in step by their id, one bad line costing one hand,
processes that never outlive the match, failing fast with the bot's own words,
named bots and parameters, and readable failures."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from conftest import ROOT
from test_match import gin, gone_within, marked, script_bot

from gincli.plugin.registry import load_registry
from gincli.replay.validate import validate


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def play(tmp_path: Path, bot: str, *extra: str, hands: int = 6, env: dict | None = None) -> tuple[dict, Path, str]:
    """A match of ``bot`` against simple: its summary, transcripts and stderr."""
    f = tmp_path / f"t{uuid.uuid4().hex[:6]}.jsonl"
    res = subprocess.run([str(Path(sys.executable).with_name("gin")), "match", "--bots", f"{bot},simple",
                          "--hands", str(hands), "--workers", "1", "--seed", "1", "--transcripts", str(f),
                          "--format", "json", "-q", *extra], capture_output=True, text=True, cwd=ROOT, timeout=300,
                         env={**os.environ, **(env or {})})
    assert res.returncode == 0, res.stderr
    registry = load_registry()
    for line in f.read_text().splitlines():
        assert validate(json.loads(line), registry).valid
    return json.loads(res.stdout), f, res.stderr


def exe(path: Path) -> str:
    return f"exec:{sys.executable} {path}"


def once(tmp_path: Path, code: str, at: int = 3) -> str:
    """A bot that runs ``code`` at its ``at``-th decision, once in the whole match
    (a restarted bot counts its decisions from 0 again)."""
    flag = str(tmp_path / f"done-{uuid.uuid4().hex[:6]}")
    return "import os\n" + script_bot(f"if n == {at} and not os.path.exists({flag!r}): "
                                      f"open({flag!r}, 'w').close(); {code}")


# -- staying in step ---------------------------------------------------------------------------------

@pytest.mark.parametrize("kind,code,forfeits", [
    ("an extra reply", "out(reply)", 0),  # a stale reply: passed over
    ("a blank line", "sys.stdout.write('\\n')", 0),
    ("a log line on stdout", "print('thinking hard...', flush=True)", 1),
    ("pretty-printed JSON", "sys.stdout.write(json.dumps(reply, indent=2) + '\\n'); sys.stdout.flush(); continue", 1),
])
def test_one_stray_line_costs_at_most_the_hand_it_happened_in(tmp_path, kind, code, forfeits):
    bot = write(tmp_path, "stray.py", once(tmp_path, code))
    s, _, _ = play(tmp_path, exe(bot), hands=8)
    ext = s["players"][0]
    assert ext["forfeits"] == forfeits, (kind, s["forfeit_reasons"])
    if kind == "an extra reply":
        assert ext["stale_replies"] == 1
    if forfeits:
        assert "not JSON" in s["forfeit_reasons"][0]["reason"] and s["forfeit_reasons"][0]["count"] == 1


def test_a_reply_without_the_request_id_is_one_forfeit(tmp_path):
    bot = write(tmp_path, "noid.py", once(tmp_path, "del reply['id']", at=2))
    s, _, _ = play(tmp_path, exe(bot))
    assert s["players"][0]["forfeits"] == 1 and "without the request's \"id\"" in s["forfeit_reasons"][0]["reason"]


# -- the handshake ---------------------------------------------------------------------------------------

def test_start_up_has_its_own_limit_and_never_eats_a_decisions_time(tmp_path):
    bot = write(tmp_path, "slow.py", script_bot(hello="time.sleep(1.5)"))  # a JVM warming up
    s, _, _ = play(tmp_path, exe(bot), "--time-limit", "0.5", hands=3)
    assert s["players"][0]["forfeits"] == 0
    assert s["players"][0]["program"] == {"name": "test", "version": "1"}  # its name and version, from ready


def test_a_bot_that_misses_its_start_up_limit_forfeits_then_the_match_stops(tmp_path):
    bot = write(tmp_path, "slower.py", script_bot(hello="time.sleep(3)"))
    res = gin("match", "--bots", f"{exe(bot)},simple", "--hands", "6", "--workers", "1",
              "--start-time-limit", "0.5", "-q")
    assert res.returncode == 2 and "failed to start 3 times in a row" in res.stderr
    assert "did not answer hello within 0.5 s (it read it but wrote nothing: still starting, or not flushing its " \
           "output? gin bots check tells which)" in res.stderr


@pytest.mark.parametrize("command,said", [
    ("exec:python3 no-such-bot.py", "can't open file"),
    ("exec:python3 -c \"import sys; print('no model file here', file=sys.stderr); sys.exit(1)\"",
     "no model file here"),
])
def test_a_bot_that_cannot_start_stops_the_match_quoting_its_stderr(tmp_path, command, said):
    f = tmp_path / "t.jsonl"
    res = gin("match", "--bots", f"{command},simple", "--hands", "20", "--transcripts", str(f), "-q")
    assert res.returncode == 2 and res.stderr.count("gin: error:") == 1
    assert "failed to start 3 times in a row" in res.stderr and said in res.stderr and "Traceback" not in res.stderr


def test_a_bot_that_does_not_flush_gets_a_hint(tmp_path):
    # Its replies sit in its own buffer (as a block-buffered stdout's would), never flushed.
    code = ("import io\nbuffered = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, 'w', closefd=False), 65536))\n"
            + script_bot().replace("sys.stdout.write", "buffered.write").replace("sys.stdout.flush()", "pass"))
    bot = write(tmp_path, "unflushed.py", code)
    res = gin("match", "--bots", f"{exe(bot)},simple", "--hands", "3", "--workers", "1", "--start-time-limit",
              "0.5", "-q")
    assert res.returncode == 2 and "not flushing its output?" in res.stderr


# -- clean processes ---------------------------------------------------------------------------------------

def test_a_bot_that_closes_its_output_but_stays_alive_is_a_crash_at_once(tmp_path):
    bot = write(tmp_path, "mute.py", once(tmp_path, "os.close(1); time.sleep(600)", at=4))
    s, _, _ = play(tmp_path, exe(bot), "--time-limit", "600", hands=4)  # a hang would outlast play()'s timeout
    reason = s["forfeit_reasons"][0]["reason"]
    assert s["players"][0]["forfeits"] == 1 and reason == "closed its output (still running: killed)"


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")
def test_after_a_match_no_process_of_a_bot_is_left(tmp_path):
    child = "import subprocess, sys\nsubprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)'])\n"
    forking = write(tmp_path, "forking.py", child + script_bot())
    wrapper = write(tmp_path, "wrapper.sh", f"#!/bin/sh\n{sys.executable} {forking}\n")  # no exec
    wrapper.chmod(0o755)
    mark = uuid.uuid4().hex
    res = subprocess.run([str(Path(sys.executable).with_name("gin")), "match", "--bots",
                          f"exec:{wrapper},exec:python3 examples/bot.py", "--hands", "6", "-q"], capture_output=True,
                         text=True, cwd=ROOT, timeout=300, env={**os.environ, "GINCLI_TEST_MARK": mark})
    assert res.returncode == 0, res.stderr
    assert gone_within(mark, 5) == [], "a bot's process outlived the match"
    assert marked(mark) == []


# -- named bots and parameters ---------------------------------------------------------------------------

def test_a_bots_file_names_a_bot_whose_command_has_commas(tmp_path):
    bot = write(tmp_path, "params.py", script_bot(hello="m_name = 'depth%s' % m['parameters'].get('depth')")
                .replace("'name': 'test'", "'name': m_name")
                .replace("for line in sys.stdin:", "assert sys.argv[1] == '--fast,quiet'\nfor line in sys.stdin:"))
    bots = write(tmp_path, "bots.toml", f'[bots.deep]\ncommand = ["{sys.executable}", "{bot}", "--fast,quiet"]\n'
                                        'time_limit = 2.0\nparameters = {{ depth = 3 }}\n'.replace("{{", "{")
                 .replace("}}", "}"))
    s, f, _ = play(tmp_path, "deep", "--bots-file", str(bots), hands=2)
    assert s["players"][0]["name"] == "deep" and s["players"][0]["program"]["name"] == "depth3"
    s, _, _ = play(tmp_path, "deep:depth=5", "--bots-file", str(bots), hands=2)
    assert s["players"][0]["program"]["name"] == "depth5"
    assert json.loads(f.read_text().splitlines()[0])["match"]["bots"][0] == "deep"


def test_the_config_folders_bots_file_is_read_and_gin_bots_lists_it(tmp_path, run):
    config = tmp_path / "config"
    config.mkdir()
    (config / "bots.toml").write_text('[bots.ex]\ncommand = "python3 examples/bot.py"\ndescription = "the example"\n')
    res = run("bots", "--format", "json")
    named = {b["name"]: b for b in json.loads(res.stdout)["bots"]}
    assert named["ex"]["description"] == "the example" and named["ex"]["command"] == ["python3", "examples/bot.py"]


def test_a_plugin_bot_takes_parameters(tmp_path):
    s = json.loads(gin("--plugins-dir", "docs/examples", "match", "--bots", "cautious:limit=0,simple", "--hands", "4",
                       "--format", "json", "-q").stdout)
    assert s["bots"][0] == "cautious:limit=0"
    assert s["players"][0]["knocks"] == 0  # a limit of 0: gin only
    res = gin("--plugins-dir", "docs/examples", "match", "--bots", "cautious:speed=1,simple", "--hands", "1", "-q")
    assert res.returncode == 2 and 'unknown option "speed"' in res.stderr
    res = gin("match", "--bots", "simple:depth=2,simple", "--hands", "1", "-q")
    assert res.returncode == 2 and "the bot simple takes no parameters" in res.stderr


# -- readable failures -----------------------------------------------------------------------------------

def test_forfeits_are_grouped_by_reason_with_counts_and_where_each_began(tmp_path):
    bot = write(tmp_path, "flaky.py", script_bot("if n in (2, 9, 16): sys.exit(1)"))
    s, _, _ = play(tmp_path, exe(bot), "--max-forfeits", "0", hands=10)  # it forfeits every hand: never stopped
    groups = s["forfeit_reasons"]
    assert sum(g["count"] for g in groups) == s["players"][0]["forfeits"] >= 2
    for g in groups:  # indices from 0, named so
        assert {"player", "reason", "count", "first_session_index", "first_hand_index"} <= set(g)
    text = gin("match", "--bots", f"{exe(bot)},simple", "--hands", "10", "--workers", "1", "--seed", "1",
               "--max-forfeits", "0").stdout
    assert "forfeit: external, " in text and "times (first in session" in text


def test_bot_log_keeps_each_bots_stderr(tmp_path):
    bot = write(tmp_path, "talker.py", script_bot(hello="print('hello from the bot', file=sys.stderr, flush=True)"))
    logs = tmp_path / "logs"
    play(tmp_path, exe(bot), "--bot-log", str(logs), hands=2)
    files = list(logs.glob("*.log"))
    assert files and "hello from the bot" in files[0].read_text()
