"""Every output file fails loudly (issue 31): a bot trace, a bot log, a
transcript or a report page that the machine stops taking (a full disk, a file
size limit) stops the run with one sentence naming the file and the reason,
exit 2, and what was written before stays whole: complete lines, valid files.
A standard error that refuses writes drops gincli's messages, as a closed one
does, and leaves the exit status alone. A huge reply of a bot is refused
without being held. Real ``gin`` processes and real files throughout: a full
disk is ``/dev/full`` (ENOSPC), a disk that fills up mid-run a file size limit
(``RLIMIT_FSIZE``: EFBIG past it)."""

from __future__ import annotations

import json
import os
import re
import resource
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import one_error

ROOT = Path(__file__).resolve().parent.parent
GIN = str(Path(sys.executable).with_name("gin"))
PY = sys.executable
BOT = f"exec:{PY} {ROOT / 'examples' / 'bot.py'}"
STAMP = r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z"
#: A line of the bot log, and of the trace (docs/bot-protocol.md).
LINE = {"--bot-log": re.compile(r"\[session \d+ hand \d+\] .*"),
        "--bot-trace": re.compile(rf"{STAMP} \[session \d+ hand \d+\] [<>!] .*")}
SUFFIX = {"--bot-log": "log", "--bot-trace": "trace"}
NAME = {"--bot-log": "the bot log", "--bot-trace": "the bot trace"}


def env_for(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GINCLI_")}
    env["GINCLI_CONFIG_DIR"] = str(tmp_path / "config")
    env["GINCLI_DATA_DIR"] = str(tmp_path / "data")
    return env


def gin(tmp_path: Path, *args: str, limit: int | None = None, before=None, **kw) -> subprocess.CompletedProcess:
    """``gin ARGS`` in ``tmp_path``; with ``limit``, no file it writes may grow past
    ``limit`` bytes; ``before(pid)`` runs in the child just before gin starts."""
    def setup() -> None:
        if limit is not None:  # SIGXFSZ ignored: a write past the limit fails with EFBIG, as on a full disk
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        if before is not None:
            before(os.getpid())
    kw.setdefault("capture_output", True)
    return subprocess.run([GIN, *args], text=True, cwd=tmp_path, timeout=300, env=env_for(tmp_path),
                          preexec_fn=setup, **kw)


def one_sentence(res: subprocess.CompletedProcess, *words: str) -> str:
    """The run ended with exit 2 and one ``gin: error:`` line holding ``words``, no traceback."""
    return one_error(res, 2, *words)


def whole_lines(path: Path, pattern: re.Pattern[str]) -> list[str]:
    """The file's lines: every one of them complete (the file ends with a newline) and well formed."""
    data = path.read_text()
    assert data == "" or data.endswith("\n"), data[-200:]
    lines = data.splitlines()
    for line in lines:
        assert pattern.fullmatch(line), line[:200]
    return lines


def whole_sessions(path: Path) -> int:
    """The transcripts file holds whole sessions only, each valid JSON; how many."""
    data = path.read_bytes()
    assert data == b"" or data.endswith(b"\n")
    lines = data.splitlines()
    assert all(json.loads(line)["format"] == "gincli-transcript/1" for line in lines)
    return len(lines)


#: A bot that says a long line on its standard error at each decision (its log grows fast).
CHATTY = textwrap.dedent("""\
    import json, sys
    def out(obj):
        sys.stdout.write(json.dumps(obj) + "\\n")
        sys.stdout.flush()
    n = 0
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "hello":
            out({"type": "ready", "id": m["id"], "name": "chatty", "version": "1"})
        elif m["type"] == "decide":
            n += 1
            print("thinking about decision", n, "x" * SIZE, file=sys.stderr, flush=True)
            out(dict(m["legal"][0], id=m["id"]))
        elif m["type"] == "bye":
            LAST
            break
    """)


def chatty(tmp_path: Path, last: str = "pass", size: int = 1500) -> str:
    path = tmp_path / "chatty.py"
    path.write_text(CHATTY.replace("LAST", last).replace("SIZE", str(size)))
    return f"exec:{PY} {path}"


def to_dev_full(folder: Path, seat: str, option: str):
    """What makes the file a bot run in process ``pid`` writes (``SEAT.PID.log``) a link to /dev/full."""
    folder.mkdir()

    def link(pid: int) -> None:
        os.symlink("/dev/full", folder / f"{seat}.{pid}.{SUFFIX[option]}")
    return link


# -- the bot log and the trace --------------------------------------------------------------------

@pytest.mark.parametrize("option", ["--bot-log", "--bot-trace"])
@pytest.mark.parametrize("command", ["match", "tournament"])
def test_a_bot_log_or_trace_on_a_full_disk_stops_the_run(tmp_path, command, option):
    folder = tmp_path / "out"
    bots = f"{chatty(tmp_path)},simple" if command == "match" else f"{chatty(tmp_path)},simple,random"
    res = gin(tmp_path, command, "--bots", bots, "--hands", "4", "--workers", "1", "--seed", "1", "-q", "-f", "json",
              option, "out", "--transcripts", "t.jsonl", before=to_dev_full(folder, "external", option))
    one_sentence(res, f"cannot write {NAME[option]} to out/external.", "no space is left on the device")
    assert res.stdout == ""
    assert whole_sessions(tmp_path / "t.jsonl") == 0


@pytest.mark.parametrize("workers", ["1", "2"])
@pytest.mark.parametrize("option", ["--bot-log", "--bot-trace"])
def test_a_bot_log_or_trace_that_fills_up_mid_match_keeps_whole_lines_and_resume_finishes(tmp_path, option,
                                                                                           workers):
    bot = chatty(tmp_path)
    folder = tmp_path / "out"
    args = ["match", "--bots", f"{bot},simple", "--hands", "30", "--seed", "4", "-q", "--workers", workers,
            "--transcripts", "t.jsonl"]
    res = gin(tmp_path, *args, option, "out", limit=40_000)
    one_sentence(res, f"cannot write {NAME[option]} to out/external.", "the file is too large")
    files = list(folder.glob(f"external.*.{SUFFIX[option]}"))
    assert files
    for f in files:
        assert whole_lines(f, LINE[option])
    assert any(f.stat().st_size > 30_000 for f in files)  # it was cut back near the limit, to a whole line
    played = whole_sessions(tmp_path / "t.jsonl")
    assert played < 30
    done = gin(tmp_path, *args, "--resume")
    assert done.returncode == 0, done.stderr
    assert whole_sessions(tmp_path / "t.jsonl") == 30


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_bot_log_that_fills_up_with_a_bots_last_words_is_said_at_the_end(tmp_path, workers):
    """What a bot writes on its standard error as it ends (after ``bye``) is
    drained after its last exchange: the log that refuses it is found when the
    match closes its bots, and the summary of what was played goes to stderr."""
    bot = chatty(tmp_path, last='for i in range(200): print("last words", i, "y" * 1000, file=sys.stderr, flush=True)',
                 size=10)
    res = gin(tmp_path, "match", "--bots", f"{bot},simple", "--hands", "2", "--workers", workers, "--seed", "2",
              "-f", "json", "--bot-log", "logs", limit=60_000)
    one_sentence(res, "cannot write the bot log to logs/external.", "the file is too large")
    assert res.stdout == ""
    summary = res.stderr[:res.stderr.index("gin: error:")]
    assert json.loads(summary)["hands"] == 2  # the match was played: what it gave, on stderr
    logs = list((tmp_path / "logs").glob("*.log"))  # one a process that ran the bot
    assert logs and all(whole_lines(log, LINE["--bot-log"]) for log in logs)


def test_gin_play_stops_when_its_bot_trace_fills_up_and_keeps_its_transcript(tmp_path):
    res = gin(tmp_path, "play", "--bot", BOT, "--seed", "2", "--name", "ann", "--bot-trace", "trace",
              "--transcript", "p.json", input="p\n" + "s\n11\n" * 30 + "q\n", limit=4000)
    one_sentence(res, "cannot write the bot trace to trace/external.", "the file is too large")
    (trace,) = (tmp_path / "trace").glob("*.trace")
    assert whole_lines(trace, re.compile(rf"{STAMP} \[session \d+ hand \d+\] [<>!] .*"))
    assert json.loads((tmp_path / "p.json").read_text())["format"] == "gincli-transcript/1"


@pytest.mark.parametrize("option", ["--bot-log", "--bot-trace"])
def test_gin_play_with_its_bot_log_or_trace_on_a_full_disk_stops(tmp_path, option):
    folder = tmp_path / "out"
    res = gin(tmp_path, "play", "--bot", chatty(tmp_path), "--seed", "2", "--name", "ann", option, "out",
              "--transcript", "p.json", input="p\ns\n11\nq\n", before=to_dev_full(folder, "external", option))
    one_sentence(res, f"cannot write {NAME[option]} to out/external.", "no space is left on the device")
    assert json.loads((tmp_path / "p.json").read_text())["format"] == "gincli-transcript/1"


# -- transcripts -----------------------------------------------------------------------------------

def test_gin_play_never_takes_a_special_file_for_its_transcript(tmp_path):
    """gin play saves its transcript whole, in the file's place: a special file
    (/dev/full, a FIFO) would be replaced by a regular one. A FIFO of the
    test's own stands for it (never /dev/full itself: a gin that did replace it
    would break the machine's /dev/full when run as root)."""
    fifo = tmp_path / "fifo.json"
    os.mkfifo(fifo)
    res = gin(tmp_path, "play", "--bot", "simple", "--seed", "2", "--transcript", "fifo.json", input="q\n")
    one_sentence(res, "--transcript fifo.json is not a regular file")
    assert fifo.is_fifo() and not (tmp_path / ".fifo.json.lock").exists()


def test_gin_play_whose_transcript_stops_fitting_keeps_the_last_move_saved(tmp_path):
    first = gin(tmp_path, "play", "--bot", "simple", "--seed", "2", "--transcript", "first.json", input="p\nq\n")
    assert first.returncode == 0, first.stderr
    room = (tmp_path / "first.json").stat().st_size + 200  # a few moves more, not thirty
    res = gin(tmp_path, "play", "--bot", "simple", "--seed", "2", "--transcript", "p.json",
              input="p\n" + "s\n11\n" * 30 + "q\n", limit=room)
    one_sentence(res, "cannot save the transcript to p.json", "the file is too large",
                 "the file holds the play up to the last move saved")
    saved = json.loads((tmp_path / "p.json").read_text())
    moves = sum(len(h.get("moves", [])) for h in saved["hands"])
    assert 2 <= moves < 40
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_transcripts_that_stop_fitting_keep_whole_sessions(tmp_path, command):
    bots = "simple,random" if command == "match" else "simple,random,expert"
    args = [command, "--bots", bots, "--hands", "40", "--seed", "3", "--workers", "1", "-q", "--transcripts"]
    full = gin(tmp_path, *args, "/dev/full")
    one_sentence(full, "cannot write the transcripts to /dev/full", "no space is left on the device")
    res = gin(tmp_path, *args, "t.jsonl", limit=20_000)
    one_sentence(res, "cannot write the transcripts to t.jsonl", "the file is too large")
    assert 1 <= whole_sessions(tmp_path / "t.jsonl") < 40 * (1 if command == "match" else 3)


# -- report pages ----------------------------------------------------------------------------------

@pytest.mark.parametrize("command", ["report", "match", "tournament"])
def test_a_report_page_that_does_not_fit_is_not_written_at_all(tmp_path, command):
    pytest.importorskip("plotly")
    made = gin(tmp_path, "match", "--bots", "simple,random", "--games", "2", "--seed", "1", "-q",
               "--transcripts", "t.jsonl")
    assert made.returncode == 0, made.stderr
    args = {"report": ["report", "t.jsonl"],
            "match": ["match", "--bots", "simple,random", "--games", "2", "--seed", "1"],
            "tournament": ["tournament", "--bots", "simple,random,expert", "--hands", "2", "--seed", "1"]}[command]
    option = "--output" if command == "report" else "--report"
    res = gin(tmp_path, *args, "-q", option, "page.html", limit=100_000)
    one_sentence(res, "cannot write the report to page.html", "the file is too large")
    assert not (tmp_path / "page.html").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    (tmp_path / "full.html").symlink_to("/dev/full")  # a full disk's page: never written through the link
    one_sentence(gin(tmp_path, *args, "-q", option, "full.html", "--force"), "full.html", "symbolic link")
    assert Path("/dev/full").is_char_device()


# -- standard error ------------------------------------------------------------------------------

@pytest.mark.parametrize("args,status", [
    (["match", "--bots", "simple,random", "--games", "2", "--seed", "1", "-f", "json"], 0),
    (["score", "-f", "json", str(ROOT / "examples" / "hands.jsonl")], 0),
    (["score", "-f", "json", str(ROOT / "examples" / "bad-hands.jsonl")], 1),
    (["match", "--bots", "simple,nobody"], 2),
], ids=["match", "score", "score-bad-record", "usage"])
def test_a_full_standard_error_drops_the_messages_and_keeps_the_status(tmp_path, args, status):
    """``2>/dev/full`` is a standard error that takes nothing, as ``2>&-`` is:
    gincli's messages are lost, the data and the exit status are what they
    would be (a full stderr is no bad record, exit 1, nor a machine fault of
    the run's: nothing of its output was lost)."""
    with open("/dev/full", "w") as full:
        res = gin(tmp_path, *args, capture_output=False, stdout=subprocess.PIPE, stderr=full)
    assert res.returncode == status
    told = gin(tmp_path, *args)
    assert res.stdout == told.stdout and told.returncode == status
    assert bool(res.stdout) == (status != 2)


# -- a bot's reply -------------------------------------------------------------------------------

#: A bot that answers every decision with 100 MiB and a newline, written 64 KiB at a time (so
#: that it stays small itself: the memory measured is gincli's).
HUGE = textwrap.dedent("""\
    import json, sys
    block = b"x" * 65536
    for line in sys.stdin:
        m = json.loads(line)
        if m["type"] == "hello":
            sys.stdout.write(json.dumps({"type": "ready", "id": m["id"], "name": "huge", "version": "1"}) + "\\n")
            sys.stdout.flush()
        elif m["type"] == "decide":
            try:
                for _ in range(1600):
                    sys.stdout.buffer.write(block)
                sys.stdout.buffer.write(b"\\n")
                sys.stdout.flush()
            except BrokenPipeError:
                sys.exit(0)
        elif m["type"] == "bye":
            break
    """)

PEAK = textwrap.dedent("""\
    import json, resource, subprocess, sys
    res = subprocess.run(sys.argv[1:], capture_output=True, text=True)
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB: gin's, its workers', its bots'
    print(json.dumps({"status": res.returncode, "stdout": res.stdout, "stderr": res.stderr, "peak": peak}))
    """)


def peak_of(tmp_path: Path, *args: str) -> dict:
    """Run ``gin ARGS`` from a fresh process, which says the largest resident
    set of its children (gin and what gin started): this test process's
    children of other tests do not count."""
    out = subprocess.run([PY, "-c", PEAK, GIN, *args], capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env=env_for(tmp_path))
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


def test_a_100_mib_reply_is_refused_without_being_held(tmp_path):
    huge = tmp_path / "huge.py"
    huge.write_text(HUGE)
    args = ["match", "--hands", "2", "--workers", "1", "--seed", "1", "-q", "-f", "json", "--max-forfeits", "0"]
    normal = peak_of(tmp_path, *args, "--bots", f"{BOT},simple")
    assert normal["status"] == 0, normal["stderr"]
    big = peak_of(tmp_path, *args, "--bots", f"exec:{PY} {huge},simple")
    assert big["status"] == 0, big["stderr"]
    summary = json.loads(big["stdout"])
    assert summary["players"][0]["forfeits"] == 2
    assert "more than 1 MiB without a newline" in summary["forfeit_reasons"][0]["reason"]
    assert big["peak"] < normal["peak"] + 60 * 1024, (big["peak"], normal["peak"])  # KiB: 100 MiB was never held


@pytest.mark.parametrize("command", ["match", "tournament"])
def test_transcripts_on_a_full_disk_with_format_json_give_the_summary_as_json_on_stderr(tmp_path, command):
    """What was played goes to stderr in the format asked for (JSON, not the
    text for people), and the sentence says what --resume finishes."""
    bots = "simple,random" if command == "match" else "simple,random,expert"
    res = gin(tmp_path, command, "--bots", bots, "--games", "2", "--seed", "1", "--workers", "1", "-f", "json",
              "--transcripts", "/dev/full")
    error = one_sentence(res, "cannot write the transcripts to /dev/full", f"finish the {command} with --resume")
    assert res.stdout == ""
    summary = json.loads(res.stderr[:res.stderr.index(error)])
    assert summary["seed"] == 1


def test_a_worker_ended_while_a_line_is_cut_back_leaves_whole_lines(tmp_path):
    """A worker ended by a signal (close_all with grace 0, then its exit) while
    a bot log's line is being appended: the system took part of it and refused
    the rest, and the line is cut back before the process ends. The race that
    let a match's second worker leave part of a line when both logs filled up
    at once, made slow here (a refusal 0.3 s after the part written)."""
    log = tmp_path / "bot.log"
    script = textwrap.dedent(f"""
        import errno, os, threading, time
        from gincli.matches.external import process

        log = os.open({str(log)!r}, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        first = b"[session 1 hand 1] whole\\n"
        os.write(log, first)
        real = os.write
        def short_then_refused(fd, data):
            if fd != log:
                return real(fd, data)
            if os.fstat(fd).st_size == len(first):
                return real(fd, bytes(data[:8]))  # the part the system took
            time.sleep(0.3)
            raise OSError(errno.EFBIG, "File too large")
        os.write = short_then_refused
        def append():
            try:
                process.append_whole(log, b"[session 1 hand 2] cut by the limit\\n", len(first))
            except OSError:
                pass
        threading.Thread(target=append, daemon=True).start()
        time.sleep(0.05)
        process.close_all(grace=0)
        os._exit(0)
    """)
    res = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert log.read_bytes() == b"[session 1 hand 1] whole\n"


def test_a_worker_ended_while_a_bots_line_is_half_read_cuts_the_log_back(tmp_path):
    """A worker ended by a signal while the bot log holds part of a line (the
    bot has written its start, the rest not yet): the log is cut back to its
    last whole line before the process ends. The race behind the two-worker
    bot-log test's file that ended in "thinking about decision"."""
    from gincli.matches.external.process import StderrTail, _Drain

    read, write = os.pipe()
    path = tmp_path / "bot.log"
    with open(path, "ab", buffering=0) as log:
        drain = _Drain(read, StderrTail(), log, lambda: b"[session 2 hand 1] ")
        try:
            os.write(write, b"whole line\nthinking about decision")
            drain.catch_up()
            assert path.read_bytes() == b"[session 2 hand 1] whole line\n[session 2 hand 1] thinking about decision"
            drain.cut_back(1.0)
            assert path.read_bytes() == b"[session 2 hand 1] whole line\n"
        finally:
            drain.lock.release()
            os.close(write)
            drain.stop()
