"""An external bot's standard error (issue 18): read through a pipe drained all
the time, so a chatty bot never blocks and nothing grows on disk; its last
lines kept in memory, bounded, to quote when it fails; everything appended to
``--bot-log DIR`` when asked for, across restarts."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from conftest import ROOT
from test_match import GIN, gin, marked, script_bot

from gincli.hand.bots import BotError
from gincli.matches.external.process import TAIL_LINE, TAIL_LINES, Program

MIB = 1 << 20
#: 1 MiB of stderr, in lines of 1 KiB.
CHATTER = "sys.stderr.write(('x' * 1023 + '\\n') * 1024); sys.stderr.flush()"


def chatty_bot(tmp_path: Path, chatter: bool) -> Path:
    """The first-legal-move bot; with ``chatter``, 50 MiB on its standard error
    per program: 25 MiB before it answers hello, then 1 MiB at each of its first
    25 decisions."""
    hello = f"for _ in range(25): {CHATTER}" if chatter else ""
    decide = f"if n <= 25: {CHATTER}" if chatter else ""
    path = tmp_path / "bot.py"  # one name: the summaries name it
    path.write_text(script_bot(decide, hello))
    return path


def fds_under(pids: list[int], folder: str) -> list[str]:
    """The open files of these processes that lie in ``folder`` (an unlinked
    temporary file too: its link reads ``folder/#123 (deleted)``)."""
    found = []
    for pid in pids:
        try:
            names = os.listdir(f"/proc/{pid}/fd")
        except OSError:
            continue
        for name in names:
            try:
                target = os.readlink(f"/proc/{pid}/fd/{name}")
            except OSError:
                continue
            if target.startswith(folder):
                found.append(target)
    return found


def summary_of(tmp_path: Path, bot: Path, tmpdir: Path) -> tuple[dict, list[str]]:
    """``gin match --bots exec:BOT,random --games 2 --seed 1`` with TMPDIR at
    ``tmpdir``: its summary, and the files of TMPDIR any of its processes
    (gin, its workers, the bots) held open while it ran."""
    mark = uuid.uuid4().hex
    env = {**os.environ, "TMPDIR": str(tmpdir), "GINCLI_TEST_MARK": mark}
    env.pop("GINCLI_DEBUG", None)
    proc = subprocess.Popen([GIN, "match", "--bots", f"exec:{sys.executable} {bot},random", "--games", "2",
                             "--seed", "1", "--format", "json", "-q"], cwd=ROOT, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    held: list[str] = []
    out: list[bytes] = []
    reader = threading.Thread(target=lambda: out.extend(proc.communicate(timeout=300)), daemon=True)
    reader.start()
    while reader.is_alive():
        held += fds_under(marked(mark), str(tmpdir))
        reader.join(0.05)
    assert proc.returncode == 0, out[1].decode(errors="replace")[-2000:]
    return json.loads(out[0]), held


@pytest.mark.skipif(not Path("/proc/self/fd").exists(), reason="needs /proc")
def test_a_bot_writing_50_mib_on_its_stderr_plays_to_the_end_and_nothing_grows_on_disk(tmp_path):
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    quiet, _ = summary_of(tmp_path, chatty_bot(tmp_path, chatter=False), tmpdir)
    started = time.monotonic()
    chatty, held = summary_of(tmp_path, chatty_bot(tmp_path, chatter=True), tmpdir)
    assert chatty == quiet and chatty["games"] == 2 and chatty["players"][0]["forfeits"] == 0
    assert held == [], "gincli kept a bot's standard error in a file of TMPDIR"
    assert list(tmpdir.iterdir()) == []
    assert time.monotonic() - started < 120


@pytest.mark.parametrize("bot_log", [False, True])
def test_a_bot_that_cannot_start_is_quoted_from_its_stderr_with_or_without_bot_log(tmp_path, bot_log):
    code = "import sys; print('no model file here', file=sys.stderr); sys.exit(1)"
    logs = tmp_path / "logs"
    extra = ["--bot-log", str(logs)] if bot_log else []
    res = gin("match", "--bots", f'exec:python3 -c "{code}",simple', "--hands", "20", "--workers", "1", "-q", *extra)
    assert res.returncode == 2 and "failed to start 3 times in a row" in res.stderr, res.stderr
    assert "its standard error ends: no model file here" in res.stderr and "wrote nothing" not in res.stderr
    if bot_log:  # every line, each restart appending to the same file, marked with its session and hand
        (log,) = logs.glob("external.*.log")  # a file for the seat and the process
        lines = log.read_text().splitlines()  # three starts at least (sessions under way may try once more)
        said = [line for line in lines if "== gincli starts" not in line]
        assert len(said) >= 3 and said[0] == "[session 1 hand 1] no model file here"
        assert {line.partition("] ")[2] for line in said} == {"no model file here"}
        assert lines[0] == f'[session 1 hand 1] == gincli starts `exec:python3 -c "{code}"` =='
        assert [line.partition("]")[0] for line in said[:3]] == ["[session 1 hand 1", "[session 2 hand 1",
                                                                   "[session 3 hand 1"]


# -- the program itself ----------------------------------------------------------------------------------

def program(tmp_path: Path, code: str, log: Path | None = None) -> Program:
    path = tmp_path / f"p{uuid.uuid4().hex[:6]}.py"
    path.write_text(code)
    return Program([sys.executable, str(path)], log=log)


def drains() -> int:
    return sum(t.name.startswith("gincli-bot-stderr") for t in threading.enumerate())


def test_the_tail_is_the_last_lines_bounded_and_the_log_has_every_byte(tmp_path):
    log = tmp_path / "logs" / "bot.log"
    code = ("import sys\n"
            "for i in range(200000): sys.stderr.write('line %d\\n' % i)\n"
            "sys.stderr.write('\\n\\n   \\n' + 'y' * 100000 + '\\n\\n')\n"
            "sys.stderr.write('last words, no newline')\n"
            "sys.stderr.flush()\n"
            "print('done', flush=True)\n"
            "sys.stdin.read()\n")
    p = program(tmp_path, code, log)
    before = drains()
    p.start()
    assert drains() == before + 1
    assert p.line(30) == b"done"
    p.kill()
    assert drains() == before
    tail = p.stderr_tail(lines=TAIL_LINES, size=1 << 30)
    assert tail[-1] == "last words, no newline" and tail[-2] == "y" * TAIL_LINE and tail[-3] == "line 199999"
    assert len(tail) == TAIL_LINES and tail[0] == f"line {200000 - TAIL_LINES + 2}"
    assert p.stderr_tail(3, 1 << 30) == tail[-3:] and p.stderr_tail(3, 40) == ["y" * 17, "last words, no newline"]
    default = p.stderr_tail()  # what callers quote: the last 5 lines, within their last 4 KiB
    assert default[-1] == "last words, no newline" and set(default[0]) == {"y"}
    assert len("\n".join(default)) <= 4096
    assert sum(len(line) for line in p.stderr.lines) <= TAIL_LINES * TAIL_LINE
    text = log.read_text()
    assert text.startswith("line 0\nline 1\n") and text.endswith("y" * 100000 + "\n\nlast words, no newline")
    p.start()  # started again: the same log, appended to
    assert p.line(30) == b"done"
    p.close(grace=0)
    assert log.read_text() == text * 2


def test_a_program_that_only_writes_on_its_stderr_never_blocks(tmp_path):
    # 8 MiB on stderr before its first reply: a pipe nobody read would stop it at 64 KiB.
    p = program(tmp_path, f"import sys\nfor _ in range(8): {CHATTER}\nprint('ready', flush=True)\n"
                          "sys.stdin.read()\n")
    p.start()
    try:
        assert p.line(30) == b"ready"
    finally:
        p.close(grace=0)


def test_what_a_bot_says_just_before_it_dies_is_in_the_tail(tmp_path):
    p = program(tmp_path, "import sys\nprint('Traceback...', file=sys.stderr)\n"
                          "print('ValueError: no weights', file=sys.stderr)\nsys.exit(1)\n")
    p.start()
    with pytest.raises(BotError):
        p.line(30)
    assert p.stderr_tail() == ["Traceback...", "ValueError: no weights"]


def test_a_line_written_before_a_reply_is_in_the_tail_however_late_the_drain_thread_is(tmp_path, monkeypatch):
    # A busy machine: the thread that drains the pipe has not run yet when a stop
    # quotes the bot. What the bot wrote (and flushed) before its reply is in the pipe,
    # so the tail reads it there: a stop's sentence is the same on any machine.
    from gincli.matches.external import process

    monkeypatch.setattr(process._Drain, "_run", lambda self: None)  # a thread that never gets to read
    p = program(tmp_path, "import sys\nfor i in range(3):\n"
                          "    print('a new session', i, file=sys.stderr, flush=True)\n"
                          "    print('ready', flush=True)\n"
                          "    sys.stdin.readline()\n")
    p.start()
    try:
        assert p.line(30) == b"ready"
        assert p.stderr_tail() == ["a new session 0"]
        p.send_line(b"go")
        assert p.line(30) == b"ready"
        assert p.stderr_tail() == ["a new session 0", "a new session 1"]
    finally:
        p.close(grace=0)


def test_a_helper_that_left_the_process_group_does_not_keep_the_drain_running(tmp_path):
    # The helper holds the bot's stderr open and outlives the kill of its group: the
    # drain still ends when the program is killed (and the test ends its helper).
    code = ("import os, subprocess, sys, time\n"
            "h = subprocess.Popen([sys.executable, '-c', 'import sys, time\\n"
            "while True: sys.stderr.write(\"helper\\\\n\"); sys.stderr.flush(); time.sleep(0.01)'],"
            " start_new_session=True)\n"
            "print(h.pid, flush=True)\nsys.stdin.read()\n")
    p = program(tmp_path, code)
    before = drains()
    p.start()
    helper = int(p.line(30))
    try:
        time.sleep(0.2)
        started = time.monotonic()
        p.kill()
        assert time.monotonic() - started < 3 and drains() == before
        assert p.stderr_tail(1) == ["helper"]
    finally:
        os.kill(helper, 9)


def test_a_program_that_cannot_be_started_leaves_no_drain(tmp_path):
    before = drains()
    p = Program([str(tmp_path / "no-such-program")])
    with pytest.raises(BotError, match="could not start"):
        p.start()
    assert drains() == before and p.stderr_tail() == []
