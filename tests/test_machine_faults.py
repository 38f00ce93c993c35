"""The faults of the user's machine (issue 18): one writer per file, full disks
and special files, closed and odd standard streams, limits that are checked,
plugins that misbehave, files for people written safely. Each is one sentence
and a documented exit status (never exit 3, never a hang), and nothing already
written is lost. Real ``gin`` processes throughout."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import one_error

ROOT = Path(__file__).resolve().parent.parent
GIN = str(Path(sys.executable).with_name("gin"))
HANDS = str(ROOT / "examples" / "hands.jsonl")


def env_for(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GINCLI_")}
    env["GINCLI_CONFIG_DIR"] = str(tmp_path / "config")
    env.update(extra)
    return env


def gin(tmp_path: Path, *args: str, env: dict[str, str] | None = None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([GIN, *args], capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env=env or env_for(tmp_path), **kw)


def one_sentence(res: subprocess.CompletedProcess, *words: str) -> str:
    """The run ended with exit 2 and one ``gin: error:`` line holding ``words``, no traceback."""
    return one_error(res, 2, *words)


SLOW_BOT = '''
import os
import time
from gincli import hookimpl
from gincli_builtin.bots import SimpleBot

HOLD = os.path.join(os.path.dirname(__file__), "hold")


class Slow(SimpleBot):
    """simple, but once the file the file hold names holds a session, waiting at
    each decision while hold is there (the test takes it away when it has seen
    what it came for)."""
    name = "slow"

    def choose(self, view):
        while True:
            try:
                with open(HOLD) as fh:
                    watched = fh.read()
            except OSError:
                break
            if not (watched and os.path.exists(watched) and os.path.getsize(watched)):
                break
            time.sleep(0.01)
        return super().choose(view)


@hookimpl
def gincli_register_bots(register):
    register(Slow)
'''


@pytest.fixture
def slow_plugins(tmp_path):
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "slowbot.py").write_text(SLOW_BOT)
    return str(folder)


def _wait_for_lines(path: Path, n: int, proc: subprocess.Popen, limit: float = 60.0) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        assert proc.poll() is None, proc.communicate()
        time.sleep(0.02)
    raise AssertionError(f"{path} never held {n} lines")


# -- one writer a file -------------------------------------------------------------------------

@pytest.mark.parametrize("second", [["--resume"], []], ids=["resume", "fresh"])
def test_two_matches_on_one_transcripts_file_one_writes_the_other_is_refused(tmp_path, slow_plugins, second):
    target = tmp_path / "t.jsonl"
    args = ["--plugins-dir", slow_plugins, "match", "--bots", "slow,random", "--games", "6", "--seed", "7",
            "--workers", "1", "-q", "--transcripts", str(target)]
    hold = Path(slow_plugins) / "hold"
    hold.write_text(str(target))  # once a session is written, the match waits at its next decision
    first = subprocess.Popen([GIN, *args], cwd=tmp_path, env=env_for(tmp_path), stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        _wait_for_lines(target, 1, first)
        before = target.read_bytes()
        loser = gin(tmp_path, *args, *second)
        one_sentence(loser, str(target), "is being written by another gin run")
        assert loser.stdout == ""
        assert target.read_bytes()[:len(before)] == before  # the loser wrote nothing, truncated nothing
        assert first.poll() is None  # the first was writing all along
    finally:
        hold.unlink(missing_ok=True)
        out, err = first.communicate(timeout=120)
    assert first.returncode == 0, err
    alone = tmp_path / "alone.jsonl"
    solo = gin(tmp_path, *args[:-1], str(alone))
    assert solo.returncode == 0, solo.stderr
    assert target.read_bytes() == alone.read_bytes()  # every session once, as a run alone writes them
    again = gin(tmp_path, *args, "--resume")  # and the file is still one --resume accepts
    assert again.returncode == 0, again.stderr


def test_a_second_gin_play_on_the_same_transcript_is_refused(tmp_path):
    target = tmp_path / "game.json"
    first = subprocess.Popen([GIN, "play", "--bot", "random", "--seed", "3", "--transcript", str(target)],
                             cwd=tmp_path, env=env_for(tmp_path), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 30
        while not target.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        assert target.exists(), "gin play saved no transcript"
        before = target.read_bytes()
        res = gin(tmp_path, "play", "--bot", "random", "--seed", "3", "--transcript", str(target), input="q\n")
        one_sentence(res, str(target), "being written by another gin run")
        assert target.read_bytes() == before
    finally:
        first.communicate("q\n", timeout=30)
    assert json.loads(target.read_text())["format"] == "gincli-transcript/1"
    assert not (tmp_path / ".game.json.lock").exists()  # the lock goes with the run


# -- full disks, special files ------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["score", HANDS], ["score", "-f", "json", HANDS], ["deal", "--seed", "1", "-f", "json"],
    ["match", "--bots", "simple,random", "--games", "2", "--seed", "1", "-f", "json"],
    ["variants", "-f", "json"], ["config"],
], ids=lambda a: " ".join(a[:3]))
def test_standard_output_on_a_full_disk_is_one_sentence(tmp_path, args):
    with open("/dev/full", "w") as full:
        res = subprocess.run([GIN, *args], stdout=full, stderr=subprocess.PIPE, text=True, cwd=tmp_path,
                             env=env_for(tmp_path), timeout=120)
    one_sentence(res, "cannot write to standard output", "no space is left on the device")


def test_transcripts_on_a_full_disk_keep_the_summary_on_stderr(tmp_path):
    res = gin(tmp_path, "match", "--bots", "simple,random", "--games", "2", "--seed", "1", "-f", "json",
              "--transcripts", "/dev/full")
    one_sentence(res, "cannot write the transcripts to /dev/full", "no space is left", "--resume")
    assert res.stdout == ""
    summary = res.stderr[:res.stderr.index("gin: error:")]
    assert json.loads(summary)["sessions"] == 0  # the first session's line was refused: none counted


def _file_size_limit(limit: int):
    def set_limit() -> None:  # a file past `limit` bytes fails to grow (EFBIG), as on a disk that fills up
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return set_limit


def test_a_disk_filling_up_mid_match_leaves_whole_sessions_that_resume_finishes(tmp_path):
    args = ["match", "--bots", "simple,random", "--games", "12", "--seed", "5", "--workers", "1", "-q"]
    whole = gin(tmp_path, *args, "--transcripts", "whole.jsonl")
    assert whole.returncode == 0, whole.stderr
    lines = (tmp_path / "whole.jsonl").read_bytes().splitlines(keepends=True)
    room = sum(len(line) for line in lines[:5]) + len(lines[5]) // 2  # five sessions and half the sixth
    res = subprocess.run([GIN, *args, "--transcripts", "cut.jsonl"], capture_output=True, text=True, cwd=tmp_path,
                         env=env_for(tmp_path), timeout=120, preexec_fn=_file_size_limit(room))
    one_sentence(res, "cannot write the transcripts to cut.jsonl", "the 5 sessions written before it are kept")
    assert "5 sessions" in res.stderr or "games" in res.stderr  # the summary of what was played, on stderr
    assert (tmp_path / "cut.jsonl").read_bytes() == b"".join(lines[:5])  # no line cut short
    done = gin(tmp_path, *args, "--transcripts", "cut.jsonl", "--resume")
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "cut.jsonl").read_bytes() == b"".join(lines)


@pytest.mark.skipif(not os.path.exists("/proc/version"), reason="no /proc here")
def test_a_special_file_as_transcripts_is_one_sentence(tmp_path):
    res = gin(tmp_path, "match", "--bots", "simple,random", "--games", "2", "--seed", "1", "-q",
              "--transcripts", "/proc/version")
    one_sentence(res, "/proc/version")


# -- standard streams ----------------------------------------------------------------------------

def test_a_closed_standard_output_is_one_sentence(tmp_path):
    res = subprocess.run([GIN, "score", HANDS], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         cwd=tmp_path, env=env_for(tmp_path), timeout=60,
                         preexec_fn=lambda: os.close(1))
    one_sentence(res, "standard output is closed")


def test_with_stderr_closed_messages_never_reach_the_data(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text(Path(HANDS).read_text() + "not json\n")
    res = subprocess.run([GIN, "score", "-f", "json", str(bad)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, cwd=tmp_path, env=env_for(tmp_path), timeout=60, preexec_fn=lambda: os.close(2))
    assert res.returncode == 1
    lines = res.stdout.splitlines()
    assert lines and all(isinstance(json.loads(line), dict) for line in lines)  # data only: no "gin score:" line
    match = subprocess.run([GIN, "match", "--bots", "simple,random", "--games", "2", "--seed", "1", "--transcripts",
                            "t.jsonl"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, cwd=tmp_path,
                           env=env_for(tmp_path), timeout=60, preexec_fn=lambda: os.close(2))
    assert match.returncode == 0 and "gin match:" not in match.stdout
    assert all(json.loads(line)["format"] == "gincli-transcript/1"
               for line in (tmp_path / "t.jsonl").read_text().splitlines())


def test_an_ascii_terminal_gets_letters_for_suits_and_json_stays_utf8(tmp_path):
    env = env_for(tmp_path, PYTHONIOENCODING="ascii")
    text = gin(tmp_path, "score", HANDS, env=env)
    assert text.returncode == 0, text.stderr
    assert "7s 7h 7d" in text.stdout
    names = tmp_path / "names.jsonl"
    names.write_text(json.dumps({"id": "café ♠", "hands": {"ann": "7s 7h 7d Ts Js Qs Ks As 2c 5d".split(),
                                                          "bob": "Kh Kd Kc 9s Ac 2h 4c 5h 6c 8d".split()},
                                 "knocker": "ann"}, ensure_ascii=False) + "\n", encoding="utf-8")
    res = subprocess.run([GIN, "score", "-f", "json", str(names)], capture_output=True, cwd=tmp_path, env=env,
                         timeout=60)
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout.decode("utf-8"))["id"] == "café ♠"


def test_a_name_that_is_not_utf8_is_refused(tmp_path):
    res = subprocess.run([os.fsencode(GIN), b"play", b"--bot", b"random", b"--name", b"\xff\xfe"],
                         capture_output=True, cwd=tmp_path, env=env_for(tmp_path), timeout=60, input=b"q\n")
    assert res.returncode == 2
    assert b"--name is not valid UTF-8" in res.stderr and b"Traceback" not in res.stderr


# -- limits ---------------------------------------------------------------------------------------

@pytest.mark.parametrize("value", ["nan", "inf", "1e7", "0", "-1"])
@pytest.mark.parametrize("option", ["--time-limit", "--start-time-limit"])
def test_time_limits_past_what_a_system_can_wait_are_refused(tmp_path, option, value):
    res = gin(tmp_path, "match", "--bots", "simple,random", "--games", "1", option, value)
    one_sentence(res, option)


@pytest.mark.parametrize("where", ["config", "bots file"])
def test_time_limits_are_checked_in_the_config_and_bots_files(tmp_path, where):
    (tmp_path / "config").mkdir()
    if where == "config":
        (tmp_path / "config" / "config.toml").write_text("[match]\ntime_limit = nan\n")
        res = gin(tmp_path, "match", "--bots", "simple,random", "--games", "1")
        one_sentence(res, "config.toml", "time_limit", "nan is not a number of seconds")
    else:
        (tmp_path / "bots.toml").write_text('[bots.slow]\ncommand = "true"\nstart_time_limit = 1e7\n')
        res = gin(tmp_path, "match", "--bots-file", "bots.toml", "--bots", "slow,random", "--games", "1")
        one_sentence(res, "bots.toml", "start_time_limit", "not between 0.01 and 86,400")


def test_workers_are_bounded_and_never_more_than_the_cores(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text("workers = 9223372036854775807\n")
    one_sentence(gin(tmp_path, "score", HANDS), "workers must be a whole number of worker processes")
    (tmp_path / "config" / "config.toml").unlink()
    one_sentence(gin(tmp_path, "score", "--workers", "5000", HANDS), "--workers")
    res = gin(tmp_path, "match", "--bots", "simple,random", "--games", "8", "--seed", "1", "--workers", "400")
    assert res.returncode == 0, res.stderr
    cores = len(os.sched_getaffinity(0))
    assert f"{cores} worker" in res.stderr.splitlines()[-1]


@pytest.mark.parametrize("value", ["nan,nan", "0,inf", "1e6,2e6", "-inf,0"])
def test_sprt_bounds_that_are_not_elo_differences_are_a_usage_error(tmp_path, value):
    res = gin(tmp_path, "match", "--bots", "simple,random", "--games", "2", "--sprt", value, "-f", "json")
    one_sentence(res, "--sprt takes Elo differences")
    assert res.stdout == ""


def test_an_option_from_the_config_file_yields_to_the_command_line(tmp_path):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text('scoring = "hollywood"\n[match]\ngames = 100\n')
    res = gin(tmp_path, "match", "--bots", "simple,random", "--hands", "5", "--seed", "1", "-f", "json")
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout)
    assert summary["hands"] == 5 and summary["unit"] == "hand" and summary["scoring"] == "hand"
    both = gin(tmp_path, "match", "--bots", "simple,random", "--hands", "5", "--games", "2")
    one_sentence(both, "give either --hands N or --games N")  # both on the command line: still a choice to make


def test_completion_run_by_hand_is_one_sentence(tmp_path):
    env = env_for(tmp_path, _GIN_COMPLETE="bash_complete")
    res = gin(tmp_path, env=env)
    one_sentence(res, "COMP_WORDS is not set")


# -- plugins --------------------------------------------------------------------------------------

NOISY = {
    "exits.py": "import sys\nsys.exit(4)\n",
    "loops.py": "while True:\n    pass\n",
    "hookexit.py": textwrap.dedent('''
        import sys
        from gincli import hookimpl

        @hookimpl
        def gincli_register_variants(register):
            sys.exit("no")
        '''),
    "chatty.py": textwrap.dedent('''
        print("chatty imports")
        from gincli import Bot, hookimpl

        class Chatty(Bot):
            name = "chatty"

            def choose(self, view):
                print("chatty thinks")
                moves = view.legal()
                return moves[self.rng.below(len(moves))]

        @hookimpl
        def gincli_register_bots(register):
            print("chatty registers")
            register(Chatty)
        '''),
}


@pytest.fixture
def noisy(tmp_path):
    folder = tmp_path / "noisy"
    folder.mkdir()
    for name, code in NOISY.items():
        (folder / name).write_text(code)
    return env_for(tmp_path, GINCLI_PLUGINS_DIR=str(folder), GINCLI_IMPORT_TIME_LIMIT="1")


def test_plugins_that_exit_loop_or_print_cannot_take_gincli_down(tmp_path, noisy):
    for workers in ("1", "2"):
        res = gin(tmp_path, "match", "--bots", "chatty,random", "--games", "2", "--seed", "1", "--workers", workers,
                  "-f", "json", env=noisy)
        assert res.returncode == 0, res.stderr
        assert json.loads(res.stdout)["sessions"] == 2  # stdout holds the data, and only the data
        assert 'plugin "exits"' in res.stderr and "sys.exit(4)" in res.stderr
        assert 'plugin "loops"' in res.stderr and "within 1 s" in res.stderr
        assert 'plugin "hookexit"' in res.stderr and "sys.exit('no')" in res.stderr
        assert res.stderr.count("printed to standard output") == 1  # said once
        assert "chatty thinks" in res.stderr
    listing = gin(tmp_path, "match", "--bots", "chatty,random", "--games", "2", "--seed", "1", "--transcripts", "-",
                  env=noisy)
    assert [json.loads(line)["id"] for line in listing.stdout.splitlines()] == ["s0", "s1"]


def test_help_and_version_work_whatever_a_plugin_does(tmp_path, noisy):
    version = gin(tmp_path, "--version", env=noisy)
    assert version.returncode == 0 and version.stdout.startswith("gincli ")
    helped = gin(tmp_path, "--help", env=noisy)
    assert helped.returncode == 0 and "Commands" in helped.stdout and "Traceback" not in helped.stderr


@pytest.mark.parametrize("where", ["config.toml", "variants/fifo.toml", "bots.toml"])
def test_a_fifo_where_a_toml_file_goes_never_hangs(tmp_path, where):
    path = tmp_path / "config" / where
    path.parent.mkdir(parents=True)
    os.mkfifo(path)
    for args in (["--version"], ["--help"]):
        assert gin(tmp_path, *args).returncode == 0
    res = gin(tmp_path, "bots")
    if where == "config.toml":
        one_sentence(res, str(path), "not a regular file")
    else:  # a file of the plugin layer: left out with a warning, the rest works
        assert res.returncode == 0 and "not a regular file" in res.stderr and str(path) in res.stderr


# -- files for people ------------------------------------------------------------------------------

def test_a_report_page_never_follows_a_symlink_nor_overwrites_without_force(tmp_path):
    pytest.importorskip("plotly")
    gin(tmp_path, "match", "--bots", "simple,random", "--games", "2", "--seed", "1", "-q", "--transcripts", "t.jsonl")
    secret = tmp_path / "secret.txt"
    secret.write_text("keep me")
    (tmp_path / "link.html").symlink_to(secret)
    res = gin(tmp_path, "report", "t.jsonl", "--output", "link.html")
    one_sentence(res, "link.html", "symbolic link")
    assert secret.read_text() == "keep me"
    (tmp_path / "old.html").write_text("an earlier page")
    one_sentence(gin(tmp_path, "report", "t.jsonl", "--output", "old.html"), "old.html already exists", "--force")
    one_sentence(gin(tmp_path, "match", "--bots", "simple,random", "--games", "2", "--report", "old.html"),
                 "old.html already exists")
    assert (tmp_path / "old.html").read_text() == "an earlier page"
    forced = gin(tmp_path, "report", "t.jsonl", "--output", "old.html", "--force")
    assert forced.returncode == 0, forced.stderr
    assert "<html" in (tmp_path / "old.html").read_text()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]  # written whole, nothing left over
