"""External bots an author can debug, and a harness that stops when told
(issue 23): the bot log a file per seat and process, each line marked with its
session and hand; the protocol trace; --max-forfeits; gin bots check; hello at
every session with a 53-bit seed. Real processes throughout."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from test_match import gin, script_bot

from gincli.plugin.registry import load_registry
from gincli.replay.validate import validate

PY = sys.executable


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return f"exec:{PY} {path}"


def valid(path: Path) -> int:
    registry = load_registry()
    lines = path.read_text().splitlines()
    for line in lines:
        assert validate(json.loads(line), registry).valid
    return len(lines)


#: A bot that shakes hands, then answers every decision with a log line on its standard output.
CHATTY_ON_STDOUT = script_bot("print('thinking...', flush=True); continue")


# -- the bot log ----------------------------------------------------------------------------------

@pytest.mark.parametrize("workers", ["1", "3"])
def test_the_fail_fast_error_quotes_stderr_even_when_another_worker_saw_it(tmp_path, workers):
    """The bug: with several workers, the start that stopped the match wrote
    nothing, and the error said so, while the first start had said why."""
    marker = tmp_path / "said-it"
    code = (f"import os, sys\nif not os.path.exists({str(marker)!r}):\n    open({str(marker)!r}, 'w').close()\n"
            "    print('fatal: cannot load weights.bin', file=sys.stderr, flush=True)\nsys.exit(1)\n")
    bot = write(tmp_path, "once.py", code)
    logs = tmp_path / "logs"
    res = gin("match", "--bots", f"{bot},simple", "--hands", "12", "--workers", workers, "-q", "--bot-log", str(logs))
    assert res.returncode == 2 and "failed to start 3 times in a row" in res.stderr, res.stderr
    assert "its standard error ends: fatal: cannot load weights.bin" in res.stderr, res.stderr
    assert "wrote nothing" not in res.stderr and "Traceback" not in res.stderr


def test_the_bot_log_is_a_file_per_seat_and_process_each_line_marked(tmp_path):
    talk = script_bot(decide="print('deciding', n, file=sys.stderr, flush=True)",
                      hello="print('hello, seed', m['seed'], file=sys.stderr, flush=True)")
    bot = write(tmp_path, "talk.py", talk)
    logs = tmp_path / "logs"
    res = gin("match", "--bots", f"{bot},{bot}", "--players", "ann,bob", "--hands", "6", "--workers", "2",
              "--seed", "3", "-q", "--bot-log", str(logs))
    assert res.returncode == 0, res.stderr
    files = sorted(p.name for p in logs.iterdir())
    assert {re.sub(r"\.\d+\.log$", "", f) for f in files} == {"ann", "bob"}
    assert all(re.fullmatch(r"(ann|bob)\.\d+\.log", f) for f in files) and len(files) >= 2
    sessions = set()
    for f in logs.iterdir():
        for line in f.read_text().splitlines():
            m = re.fullmatch(r"\[session (\d+) hand (\d+)\] (.*)", line)
            assert m, line
            sessions.add(int(m[1]))
            assert m[3].startswith(("hello, seed", "deciding", "== gincli starts"))
    assert sessions == {1, 2, 3, 4, 5, 6}  # numbered from 1, as people count


# -- the trace ------------------------------------------------------------------------------------

STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"


def test_the_trace_has_every_line_both_ways_timestamped_with_session_and_hand(tmp_path):
    bot = write(tmp_path, "flaky.py", script_bot("if n == 4: reply = {'action': 'shrug', 'id': m['id']}"))
    traces = tmp_path / "traces"
    res = gin("match", "--bots", f"{bot},simple", "--games", "1", "--workers", "1", "--seed", "5", "-q",
              "--bot-trace", str(traces), "--max-forfeits", "0", "--format", "json")
    assert res.returncode == 0, res.stderr
    (trace,) = traces.glob("external.*.trace")
    lines = trace.read_text().splitlines()
    parsed = []
    for line in lines:
        m = re.fullmatch(rf"({STAMP}) \[session (\d+) hand (\d+)\] ([<>!]) (.*)", line)
        assert m, line
        parsed.append((int(m[2]), int(m[3]), m[4], m[5]))
    assert {s for s, *_ in parsed} == {1}
    sent = [json.loads(text) for _, _, d, text in parsed if d == ">"]
    read = [json.loads(text) for _, _, d, text in parsed if d == "<"]
    hellos = [m for m in sent if m["type"] == "hello"]
    assert hellos and all(0 <= m["seed"] < 2**53 for m in hellos)  # every JSON parser reads it exactly
    decides = [m for m in sent if m["type"] == "decide"]
    assert len(read) == len(decides) + len(hellos)  # every request answered, line by line
    assert any(m["type"] == "hand_over" for m in sent)
    notes = [text for _, _, d, text in parsed if d == "!"]
    assert any(t.startswith("started ") for t in notes)
    assert any("forfeits the hand" in t and "shrug" in t for t in notes), notes  # the forfeit, read back
    # the hand of each decide is its view's hand, counted from 1
    for _, h, d, text in parsed:
        if d == ">" and json.loads(text)["type"] == "decide":
            assert json.loads(text)["view"]["hand_index"] == h - 1


def test_hello_comes_at_every_session_with_the_sessions_own_seed(tmp_path):
    bot = write(tmp_path, "bot.py", script_bot())
    traces = tmp_path / "traces"
    res = gin("match", "--bots", f"{bot},simple", "--hands", "4", "--workers", "1", "--seed", "5", "-q",
              "--bot-trace", str(traces))
    assert res.returncode == 0, res.stderr
    (trace,) = traces.glob("*.trace")
    hellos = [(line.split("] ")[0].split("[")[1], json.loads(line.split(" > ", 1)[1]))
              for line in trace.read_text().splitlines() if " > " in line and '"type":"hello"' in line]
    assert [where for where, _ in hellos] == [f"session {i} hand 1" for i in (1, 2, 3, 4)]
    assert len({m["seed"] for _, m in hellos}) == 4


def test_a_parameter_past_53_bits_is_refused_in_one_sentence(tmp_path):
    bots = tmp_path / "bots.toml"
    bots.write_text(f'[bots.big]\ncommand = ["{PY}", "{ROOT / "examples" / "bot.py"}"]\n'
                    "parameters = { salt = 9007199254740993 }\n")
    res = gin("match", "--bots-file", str(bots), "--bots", "big,simple", "--hands", "2", "--workers", "1", "-q")
    assert res.returncode == 2 and "parameters.salt = 9007199254740993 is past 2**53 - 1" in res.stderr, res.stderr
    assert "Traceback" not in res.stderr


# -- --max-forfeits -------------------------------------------------------------------------------

@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_bot_that_forfeits_hand_after_hand_stops_the_match_and_resumes_once_fixed(tmp_path, workers):
    path = tmp_path / "bot.py"
    path.write_text(CHATTY_ON_STDOUT)
    bot = f"exec:{PY} {path}"
    f = tmp_path / "t.jsonl"
    res = gin("match", "--bots", f"{bot},simple", "--hands", "200", "--workers", workers, "--seed", "9", "-q",
              "--transcripts", str(f))
    assert res.returncode == 2, res.stderr
    assert "external (exec:" in res.stderr and "forfeited 10 hands in a row" in res.stderr, res.stderr
    assert "--max-forfeits 10" in res.stderr and 'not JSON: "thinking..."' in res.stderr
    assert "session 10 hand 1" in res.stderr  # where, counted from 1
    assert f"--transcripts {f} --resume" in res.stderr
    *summary, error = res.stderr.splitlines()  # what was played, for people, then why it stopped, last
    assert error.startswith("gin: error: external") and error.count("gin: error:") == 1
    assert "10 hands played, 0 dead" in "\n".join(summary) and res.stdout == ""
    assert valid(f) == 10  # the transcripts so far, whatever --workers is: the same ten sessions
    path.write_text(script_bot())  # the bot fixed
    res = gin("match", "--bots", f"{bot},simple", "--hands", "200", "--workers", workers, "-q", "--transcripts",
              str(f), "--resume", "--format", "json")
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert s["hands"] == 200 and s["players"][0]["forfeits"] == 10 and valid(f) == 200
    assert s["forfeit_reasons"][0]["first_session_index"] == 0 and s["forfeit_reasons"][0]["first_hand_index"] == 0


def test_max_forfeits_is_a_limit_of_its_own(tmp_path):
    bot = write(tmp_path, "bot.py", CHATTY_ON_STDOUT)
    # Seeded: unseeded, the deal now and then lets simple knock on its first turn, before the bot is asked.
    res = gin("match", "--bots", f"{bot},simple", "--hands", "8", "--workers", "1", "--seed", "1", "-q",
              "--max-forfeits", "3")
    assert res.returncode == 2 and "forfeited 3 hands in a row" in res.stderr
    assert "the last 3: session 1 hand 1, session 2 hand 1, session 3 hand 1: replied" in res.stderr, res.stderr
    res = gin("match", "--bots", f"{bot},simple", "--hands", "12", "--workers", "1", "--seed", "1", "-q",
              "--max-forfeits", "0", "--format", "json")
    assert res.returncode == 0 and json.loads(res.stdout)["players"][0]["forfeits"] == 12
    res = gin("match", "--bots", f"{bot},simple", "--hands", "2", "-q", "--max-forfeits", "-1")
    assert res.returncode == 2 and "-1 must be at least 0" in res.stderr and "Traceback" not in res.stderr


def test_a_tournament_stops_too(tmp_path):
    bot = write(tmp_path, "bot.py", CHATTY_ON_STDOUT)
    res = gin("tournament", "--bots", f"simple,simple,{bot}",  # seeded, as above
              "--hands", "20", "--workers", "1", "--seed", "1", "-q", "--max-forfeits", "4")
    assert res.returncode == 2 and "forfeited 4 hands in a row" in res.stderr, res.stderr
    assert "crosstable" in res.stderr and res.stdout == ""  # what was played, on stderr, before the error
    res = gin("tournament", "--bots", f"simple,simple,{bot}", "--hands", "20", "--workers", "1", "--seed", "1",
              "-q", "--max-forfeits", "4", "-f", "json")
    s = json.loads(res.stdout)
    assert res.returncode == 2 and "forfeited 4 hands in a row" in s["stopped"]
    ext = next(p for p in s["players"] if p["name"] == "external")
    assert ext["forfeits"] == 4 and s["pairings"][1]["forfeits"]["external"] == 4


#: A bot that says on its standard error why it fails, then answers with a log line: every hand forfeited.
TALKS_THEN_FAILS = ("import sys\nprint('loading weights from model.bin', file=sys.stderr, flush=True)\n"
                    + script_bot("print('no weights: guessing', file=sys.stderr, flush=True); "
                                 "print('thinking...', flush=True); continue"))


@pytest.mark.parametrize("hands", ["3", "50"], ids=["on the last hand", "midway"])
def test_a_stop_quotes_the_bots_stderr_and_still_sums_up_what_was_played(tmp_path, hands):
    """Exit 2, the sentence quoting the reasons and the bot's last standard error lines, and the summary of the
    hands played: JSON on stdout (its "stopped" the sentence), whether the stop comes on the last hand or not."""
    bot = write(tmp_path, "bot.py", TALKS_THEN_FAILS)
    res = gin("match", "--bots", f"{bot},simple", "--hands", hands, "--workers", "1", "--seed", "3", "-q",
              "--max-forfeits", "3", "-f", "json")
    assert res.returncode == 2, res.stderr
    s = json.loads(res.stdout)
    assert s["hands"] == 3 and s["players"][0]["forfeits"] == 3 and s["stopped"] in res.stderr
    error = res.stderr.strip()
    assert error.startswith("gin: error: external") and error.count("\n") == 0
    assert ('replied with a line that is not JSON: "thinking..."' in error
            and "its standard error ends: loading weights from model.bin | no weights: guessing" in error)


def test_the_api_raises_the_stop_with_what_was_played(tmp_path):
    import gincli

    bot = write(tmp_path, "bot.py", TALKS_THEN_FAILS)
    with pytest.raises(gincli.UsageError) as info:
        gincli.play_match([bot, "simple"], hands=10, seed=3, workers=1, max_forfeits=2)
    assert "forfeited 2 hands in a row" in info.value.message and "model.bin" in info.value.message
    assert info.value.summary["hands"] == 2 and info.value.summary["stopped"] == info.value.message


# -- gin bots check -------------------------------------------------------------------------------

def minimal_bot_of_the_docs() -> str:
    text = (ROOT / "docs" / "bot-protocol.md").read_text()
    section = text.split("## A minimal bot", 1)[1]
    return section.split("```python\n", 1)[1].split("```", 1)[0]


@pytest.mark.parametrize("which", ["docs", "examples"])
def test_the_docs_minimal_bot_and_the_examples_bot_pass_every_check(tmp_path, which):
    bot = write(tmp_path, "minimal.py", minimal_bot_of_the_docs()) if which == "docs" \
        else f"exec:{PY} {ROOT / 'examples' / 'bot.py'}"
    res = gin("bots", "check", bot, "--format", "json")
    assert res.returncode == 0, res.stdout + res.stderr
    data = json.loads(res.stdout)
    assert data["passed"] and data["summary"]["failed"] == 0
    names = [c["name"] for c in data["checks"]]
    for wanted in ("handshake", "first upcard", "both refused the upcard", "draw", "discard after taking", "knock",
                   "the wall", "a whole hand", "hand_over", "a new session", "big gin", "doubling: the offer",
                   "doubling: the answer", "bye", "a restart"):
        assert wanted in names
    assert [c["number"] for c in data["checks"]] == list(range(1, len(names) + 1))
    for c in data["checks"]:
        assert c["exchange"] and c["problem"] is None
    big = next(c for c in data["checks"] if c["name"] == "big gin")
    decide = json.loads(next(e["line"] for e in big["exchange"] if '"type":"decide"' in e["line"]))
    assert {"action": "knock"} in decide["legal"]
    res = gin("bots", "check", bot)
    assert res.returncode == 0 and "every check passed" in res.stdout


BAD = """import json, sys
for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "ready", "id": m["id"], "name": "bad", "version": "0"}), flush=True)
    elif m["type"] == "decide":
        if m["view"]["taken"]:
            print(json.dumps({"action": "discard", "card": m["view"]["taken"], "id": m["id"]}), flush=True)
        elif m["view"]["stock_count"] == 2:
            print("at the wall!", flush=True)
        else:
            print(json.dumps(dict(m["legal"][0], id=m["id"])), flush=True)
    elif m["type"] == "hand_over":
        print(json.dumps({"id": 0, "thanks": True}), flush=True)
"""


def test_a_bot_that_breaks_the_protocol_is_told_each_fault_with_the_exchange_and_the_fix(tmp_path):
    bot = write(tmp_path, "bad.py", BAD)
    res = gin("bots", "check", bot, "--format", "json")
    assert res.returncode == 1, res.stderr
    checks = {c["name"]: c for c in json.loads(res.stdout)["checks"]}
    failed = {n for n, c in checks.items() if not c["passed"]}
    assert {"discard after taking", "the wall", "hand_over", "bye"} <= failed
    assert {"handshake", "first upcard", "draw", "a restart"}.isdisjoint(failed)
    wall = checks["the wall"]
    assert wall["exchange"][-1] == {"direction": "<", "line": "at the wall!"}
    assert "not JSON" in wall["problem"] and "standard error" in wall["fix"]
    assert "view.taken" in checks["discard after taking"]["fix"]
    assert "never answer hand_over" in checks["hand_over"]["fix"]
    assert "exit on bye" in checks["bye"]["fix"]
    text = gin("bots", "check", bot)
    assert text.returncode == 1 and "✗" in text.stdout and "fix: " in text.stdout and "< at the wall!" in text.stdout
    assert "Traceback" not in text.stderr


def test_gin_bots_check_refuses_what_it_cannot_check(tmp_path):
    res = gin("bots", "check", "simple")
    assert res.returncode == 2 and "runs external bots" in res.stderr
    res = gin("bots", "check", "nobody")
    assert res.returncode == 2 and 'unknown bot "nobody"' in res.stderr
    res = gin("bots", "check", "exec:no-such-program-xyz", "--format", "json")
    assert res.returncode in (1, 2) and "Traceback" not in res.stderr
    assert gin("bots", "--format", "json").returncode == 0  # gin bots alone still lists them


@pytest.mark.parametrize("option", ["--bot-log", "--bot-trace"])
def test_a_folder_that_cannot_be_written_is_one_sentence(tmp_path, option):
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    res = gin("match", "--bots", f"exec:{PY} {ROOT / 'examples' / 'bot.py'},simple", "--hands", "2", "--workers", "1",
              "-q", option, str(blocker / "logs"))
    assert res.returncode == 2 and res.stderr.startswith("gin: error: cannot write the bot ") \
        and "a part of the path is not a folder" in res.stderr, res.stderr
    assert res.stderr.count("\n") == 1 and "Traceback" not in res.stderr


def test_gin_play_keeps_a_trace_of_its_external_bot_too(tmp_path):
    """``gin play --bot-trace DIR``: the exchanges with the external opponent, as in gin match."""
    import subprocess

    trace = tmp_path / "trace"
    proc = subprocess.run([str(Path(sys.executable).with_name("gin")), "play", "--bot",
                           f"exec:{sys.executable} {ROOT / 'examples' / 'bot.py'}", "--seed", "2", "--name", "ann",
                           "--bot-trace", str(trace), "--transcript", str(tmp_path / "p.json")],
                          input="p\nq\n", capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert "Traceback" not in proc.stderr
    files = list(trace.glob("*.trace"))
    assert len(files) == 1, proc.stderr
    lines = files[0].read_text().splitlines()
    assert any('> {"type":"hello"' in line for line in lines)
    assert any(re.search(r'\[session 1 hand 1\] < \{"type": "ready"', line) for line in lines)


# -- what gin bots check says went wrong, and how little it waits --------------------------------------------

#: Bots that cannot start as they should, each its own diagnosis: one that starts slowly (before it reads its
#: input), one that says nothing at all, one whose replies sit in a buffer until it exits.
SLOW_START = "import time\ntime.sleep(1.6)\n" + script_bot()
SILENT = "import sys, time\nfor line in sys.stdin:\n    pass\ntime.sleep(60)\n"
UNFLUSHED = ("import io\nbuffered = io.TextIOWrapper(io.BufferedWriter(io.FileIO(1, 'w', closefd=False), 65536))\n"
             + script_bot().replace("sys.stdout.write", "buffered.write").replace("sys.stdout.flush()", "pass")
             + "buffered.flush()\n")


@pytest.mark.parametrize("code, problem, fix", [
    (SLOW_START, r"it answered its hello after 1\.[6-9] s, past its limit of 1 s \(--start-time-limit\): it starts "
                 r"slower than that", "give it the time it needs (--start-time-limit 4)"),
    (SILENT, r"it read its hello and wrote nothing on standard output in 2 s \(its limit of 1 s, --start-time-limit, "
             r"and 1 s more with its input closed\): it never answered", "flushed at once"),
    (UNFLUSHED, r"it answered its hello only when its input was closed, 1\.\d s after it was sent: it holds its "
                r"replies in a buffer until it exits", "flush standard output at once"),
], ids=["slow start", "silent", "unflushed"])
def test_gin_bots_check_says_why_a_bot_did_not_start_and_fails_the_rest_at_once(tmp_path, code, problem, fix):
    bot = write(tmp_path, "bot.py", code)
    res = gin("bots", "check", bot, "--start-time-limit", "1", "--format", "json")
    assert res.returncode == 1, res.stderr
    out = json.loads(res.stdout)
    first, *rest = out["checks"]
    assert re.fullmatch(problem, first["problem"]), first["problem"]
    assert fix in first["fix"]
    assert len(rest) == 16 and all(c["problem"] == "not run: the bot could not start (check 1, handshake)"
                                   for c in rest)
    assert out["seconds"] < 6  # its limit and as long again at most, once: not 17 times


def test_gin_bots_check_tells_a_stale_reply_from_an_id_never_sent(tmp_path):
    stale = write(tmp_path, "stale.py", script_bot("if n == 2: out(reply)"))  # the 2nd decision answered twice
    checks = json.loads(gin("bots", "check", stale, "--format", "json").stdout)["checks"]
    problems = [c["problem"] for c in checks if not c["passed"]]
    assert problems and "of an earlier request" in problems[0] and "stale or extra reply" in problems[0]
    wrong = write(tmp_path, "wrong.py", script_bot("if n == 2: reply['id'] = 99"))
    checks = json.loads(gin("bots", "check", wrong, "--format", "json").stdout)["checks"]
    problems = [c for c in checks if not c["passed"]]
    assert re.fullmatch(r"it replied with the id 99, which was never sent \(the request's id is \d+\): a protocol "
                        r"error \(a match forfeits the hand\)", problems[0]["problem"])
    text = write(tmp_path, "text.py", script_bot("if n == 2: reply['id'] = str(reply['id'])"))
    checks = json.loads(gin("bots", "check", text, "--format", "json").stdout)["checks"]
    assert "not the number" in next(c for c in checks if not c["passed"])["problem"]


def test_in_a_match_a_wrong_id_is_a_wrong_id_and_the_trace_marks_the_line(tmp_path):
    bot = write(tmp_path, "wrong.py", script_bot("if n == 2: reply['id'] = 99\nif n == 3: out(reply)"))
    res = gin("match", "--bots", f"{bot},simple", "--hands", "1", "--seed", "1", "--workers", "1", "--time-limit",
              "30", "--bot-trace", str(tmp_path / "tr"), "-f", "json", "-q")
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert [g["reason"] for g in s["forfeit_reasons"]] == ["replied with the id 99, which was never sent (the "
                                                            "request's id is 3)"]
    assert s["players"][0].get("stale_replies", 0) == 0  # nothing was taken for an earlier request's answer
    trace = next((tmp_path / "tr").iterdir()).read_text().splitlines()
    marked = [i for i, line in enumerate(trace) if " ! the line above echoes the id 99, which was never sent" in line]
    assert marked and '"id": 99' in trace[marked[0] - 1] and " < " in trace[marked[0] - 1]
    stale = write(tmp_path, "stale.py", script_bot("if n == 2: out(reply)"))
    res = gin("match", "--bots", f"{stale},simple", "--hands", "1", "--seed", "1", "--workers", "1",
              "--bot-trace", str(tmp_path / "tr2"), "-f", "json", "-q")
    s = json.loads(res.stdout)
    assert s["players"][0]["stale_replies"] == 1 and s["players"][0]["forfeits"] == 0
    trace = next((tmp_path / "tr2").iterdir()).read_text()
    assert re.search(r" ! the line above answers the earlier request 3: a stale reply, passed over", trace)
