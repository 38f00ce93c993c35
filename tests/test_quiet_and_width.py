"""``-q`` is quiet in every format; what gincli draws on a terminal fits it.

- ``-q``/``--quiet``, on every command that has it and in each of its formats,
  leaves stderr empty on a clean run (only errors and warnings are said).
- The progress line fits any width from 60 columns: it drops whole parts, never
  cuts one, and is gone from the screen after Ctrl-C (tmux, a real terminal).
- A closing line longer than the terminal wraps at spaces, never inside a word.
- ``gin variants`` fits 80 and 60 columns (``--long``, ``NAME`` and the wide
  terminal's full tables besides).
"""

from __future__ import annotations

import io
import json
import re
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from conftest import ROOT

GIN = str(Path(sys.executable).with_name("gin"))
TMUX = shutil.which("tmux")
needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed here (.ci/run installs it from the "
                                                     "system packages)")


def gin(*args: str, cwd: Path = ROOT, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([GIN, *args], capture_output=True, text=True, cwd=cwd, timeout=600, **kw)


# -- -q: only errors (and warnings) on stderr, in every format -----------------------------------------------------

@pytest.fixture(scope="module")
def transcripts(tmp_path_factory) -> Path:
    """A small match's transcripts, for gin report."""
    path = tmp_path_factory.mktemp("quiet") / "match.jsonl"
    res = gin("match", "--bots", "simple,random", "--games", "2", "--seed", "5", "--transcripts", str(path), "-q",
              "-f", "json")
    assert res.returncode == 0, res.stderr
    return path


#: Each command that has -q, with cheap input, and its formats.
QUIET_RUNS = {
    "score": (["score", "examples/hands.jsonl"], ("text", "json", "csv")),
    "validate": (["validate", "examples/match.json"], ("text", "json", "csv")),
    "match": (["match", "--bots", "expert,simple", "--games", "4", "--seed", "1"], ("text", "json", "csv")),
    "tournament": (["tournament", "--bots", "expert,simple,random", "--games", "2", "--seed", "1"],
                   ("text", "json", "csv")),
    "report": (["report", "{transcripts}", "--output", "{tmp}/page.html"], ("text", "json", "csv")),
    "bots check": (["bots", "check", f"exec:{sys.executable} examples/bot.py"], ("text", "json")),
}


def commands_in(help_text: str) -> list[str]:
    """The commands a --help lists."""
    section = help_text.split("\nCommands:\n", 1)[1] if "\nCommands:\n" in help_text else ""
    return re.findall(r"^  (\S+)  ", section, re.M)


def test_every_command_with_quiet_is_checked_here():
    """The commands that take -q (as their --help says) are those QUIET_RUNS runs: a new one is added there."""
    found = set()
    paths = [[c] for c in commands_in(gin("--help").stdout)]
    assert len(paths) > 10
    while paths:
        path = paths.pop()
        text = gin(*path, "--help").stdout
        paths += [[*path, sub] for sub in commands_in(text)]
        if re.search(r"-q, --quiet", text):
            found.add(" ".join(path))
    assert found == set(QUIET_RUNS)


@pytest.mark.parametrize("command,format", [(c, f) for c, (_, formats) in QUIET_RUNS.items() for f in formats])
def test_quiet_leaves_stderr_empty_in_every_format(command, format, transcripts, tmp_path):
    args = [a.format(transcripts=transcripts, tmp=tmp_path) for a in QUIET_RUNS[command][0]]
    res = gin(*args, "--format", format, "-q")
    assert res.returncode == 0, res.stderr
    assert res.stderr == ""
    assert res.stdout  # the data is all there: -q drops nothing of it
    loud = gin(*args, "--format", format, *(["--force"] if command == "report" else []))
    assert loud.returncode == 0
    if command != "bots check":  # which says nothing on stderr but its progress bar, on a terminal only
        assert loud.stderr  # without -q, something is said: the test can fail
    if command in ("score", "validate"):  # the others' data names how long the run took
        assert loud.stdout == res.stdout


def test_quiet_with_the_transcripts_on_stdout_says_nothing(tmp_path):
    """gin match --transcripts - puts the summary on stderr; -q drops it (text and json)."""
    for format in ("text", "json"):
        res = gin("match", "--bots", "simple,random", "--games", "2", "--seed", "1", "--transcripts", "-", "-q",
                  "-f", format)
        assert res.returncode == 0 and res.stderr == ""
        assert len(res.stdout.splitlines()) == 2


def test_quiet_keeps_errors_and_warnings(tmp_path):
    """-q: errors and warnings still said, one line each, and nothing else."""
    res = gin("score", "-q", "-f", "csv", "no-such-file.jsonl")
    assert res.returncode == 2
    assert res.stderr.startswith("gin: error: cannot read no-such-file.jsonl") and res.stderr.count("\n") == 1
    res = gin("match", "--bots", "simple,simple", "--games", "1", "--seed", "1", "--max-hands", "1", "-q", "-f",
              "csv")  # a game of one hand reaches the cap
    assert res.returncode == 0
    assert res.stderr.splitlines() == ["gin: warning: 1 session reached the hand cap of 1 hands unsettled and "
                                       "stopped (raise it with --max-hands)"]


# -- the progress line: whole parts, whatever the width ------------------------------------------------------------

def line(width: int, description: str, completed: float, total: float | None, elapsed: float = 13.0,
         unit: str = "items", status: str = ""):
    from rich.console import Console

    from gincli.cli.render import progress_line

    console = Console(file=io.StringIO(), width=500, color_system="truecolor", force_terminal=True)
    return progress_line(console, width, description, completed, total, elapsed, unit, status)


TIME = re.compile(r"\d+:\d\d:\d\d")
STATUS = "expert 1,234 · simple 1,000 · 55.2% · LLR +1.23 (-2.94, 2.94)"


def parts_of(text: str) -> dict[str, bool]:
    return {"elapsed": bool(re.search(r"\d:\d\d:\d\d (eta|expert)|\d:\d\d:\d\d$", text)), "eta": "eta " in text,
            "bar": "━" in text, "status": "expert 1,234" in text, "llr": "LLR" in text}


@pytest.mark.parametrize("description", ["expert v simple", "a rather long player v another rather long player",
                                         "scoring examples/hands.jsonl"])
def test_the_progress_line_fits_every_width_and_drops_whole_parts(description):
    shown_before = None
    for width in range(200, 17, -1):
        for total, unit, status in ((4000, "items", STATUS), (4000, "items", ""), (10 ** 6, "bytes", ""),
                                    (None, "bytes", ""), (None, "items", STATUS)):
            text = line(width, description, 2345 if total != 10 ** 6 else 420_000, total, 3725.0, unit, status)
            plain = text.plain
            assert text.cell_len <= width, (width, plain)
            count = {("items", True): "2,345/4,000", ("bytes", True): "42%", ("bytes", False): "2.3 kB",
                     ("items", False): "2,345"}[unit, total is not None]
            assert count in plain  # how much is done: always there, whole
            for t in re.findall(r"[\d:]*\d:[\d:]*", plain):
                assert TIME.fullmatch(t), (width, plain)  # 1:02:05, never 1:02:…
            if status and parts_of(plain)["status"]:
                assert any(plain.endswith(STATUS[:n]) for n in [m.start() for m in re.finditer(" · ", STATUS)]
                           + [len(STATUS)]), plain  # the status loses whole parts, from the last
            if "…" in plain:  # the description only, shortened after a word (a first word too long: cut)
                head = plain.split("…")[0]
                assert plain.startswith(head + "… ") and not parts_of(plain)["bar"], plain
                assert description.startswith(head) and (head.endswith(" ") or width < 30), plain
            if total == 4000 and status:
                shown = parts_of(plain)
                if shown_before is not None:  # narrower: never a part back that a wider line had dropped
                    assert all(shown_before[k] or not v for k, v in shown.items()), (width, plain)
                shown_before = shown
    wide = line(200, description, 2345, 4000, 3725.0, "items", STATUS).plain
    assert all(parts_of(wide).values()) and TIME.search(wide)
    if len(description) < 40:  # at 60 columns a description is shortened only if two long names leave no room
        assert "…" not in line(58, description, 2345, 4000, 3725.0, "items", STATUS).plain


def test_the_progress_line_drops_the_time_so_far_first_then_the_time_left():
    full = line(200, "expert v simple", 169, 400, 13.0, "items", "expert 100 · simple 69 · 59.2%").plain
    assert re.search(r"169/400 0:00:13 eta 0:00:17 expert 100 · simple 69 · 59\.2%$", full)
    at_80 = line(78, "expert v simple", 169, 400, 13.0, "items", "expert 100 · simple 69 · 59.2%").plain
    assert "0:00:13" not in at_80 and "eta 0:00:17" in at_80 and at_80.endswith("59.2%")
    at_60 = line(58, "expert v simple", 169, 400, 13.0, "items", "expert 100 · simple 69 · 59.2%").plain
    assert "eta" not in at_60 and at_60.startswith("expert v simple ━") and "169/400" in at_60


# -- the progress line in a real terminal ----------------------------------------------------------------------------

SLOW = '''
import time
from gincli import hookimpl
from gincli_builtin.bots import SimpleBot


class Slow(SimpleBot):
    """A bot that takes its time (asleep: no CPU), so that a small match lasts."""

    name = "slow"

    def choose(self, view):
        time.sleep(0.01)
        return super().choose(view)


@hookimpl
def gincli_register_bots(register):
    register(Slow)
'''


class Pane:
    """A tmux session of its own (its own server socket), one window of the given size."""

    def __init__(self, tmp_path: Path, command: str, width: int, height: int = 40, cwd: Path = ROOT):
        self.socket = f"gincli-test-{uuid.uuid4().hex[:8]}"
        env = {"PATH": f"{Path(GIN).parent}:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8",
               "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "GINCLI_CONFIG_DIR": str(tmp_path / "config"),
               "GINCLI_DATA_DIR": str(tmp_path / "data")}
        full = f"cd {cwd} && {command}; echo '[done]'; sleep 600"
        subprocess.run([TMUX, "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "t",
                        "-x", str(width), "-y", str(height), full], env=env, check=True)
        self.width = width

    def screen(self, joined: bool = True) -> str:
        """What the pane shows (its history too); ``joined``: a line the terminal wrapped is one line."""
        return subprocess.run([TMUX, "-L", self.socket, "capture-pane", "-p", "-S", "-", "-t", "t",
                               *(["-J"] if joined else [])], capture_output=True, text=True, check=True).stdout

    def keys(self, *keys: str) -> None:
        subprocess.run([TMUX, "-L", self.socket, "send-keys", "-t", "t", *keys], check=True)

    def wait_for(self, pattern: str, timeout: float = 60) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if re.search(pattern, screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never showed {pattern!r}; it shows:\n{screen}")
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True)


@pytest.fixture
def slow_plugins(tmp_path) -> Path:
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "slow.py").write_text(SLOW)
    return folder


@needs_tmux
@pytest.mark.parametrize("width", [60, 80, 120])
def test_the_progress_bar_fits_the_terminal_and_is_gone_after_ctrl_c(width, tmp_path, slow_plugins):
    pane = Pane(tmp_path, f"gin --plugins-dir {slow_plugins} match --bots slow,simple --games 400 --seed 1 "
                          "--workers 1 --players 'a rather long name,another long name'", width)
    try:
        screen = pane.wait_for(r"(?<![\d,])[1-9][\d,]*/400(?!\d)")  # a session or more done: a running score
        bar = next(ln for ln in screen.splitlines() if "/400" in ln)
        assert all(len(ln) <= width - 2 for ln in screen.splitlines()), screen  # room for the ^C echo, no wrap
        assert bar.startswith("a rather long name v another long name ━"), bar  # nothing cut at 60 columns
        assert "…" not in bar
        for t in re.findall(r"[\d:]*\d:[\d:]*", bar):
            assert TIME.fullmatch(t), bar
        if width >= 120:
            assert "a rather long name 1" in bar or "a rather long name 0" in bar  # the running score
        pane.keys("C-c")
        screen = pane.wait_for(r"\[done\]")
        assert "━" not in screen and "/400" not in screen and "^C" not in screen, screen  # the bar is gone
        assert re.search(r"^gin match: interrupted after \d+ of 400 sessions$", screen, re.M), screen
    finally:
        pane.close()


# -- closing lines: wrapped at spaces on a terminal ------------------------------------------------------------------

def words(text: str) -> list[str]:
    """The words of a text, numbers masked (a run's time and speed differ from one run to the next)."""
    return re.sub(r"\d[\d.,]*", "N", text).split()


@needs_tmux
def test_no_closing_line_wraps_inside_a_word_at_80_columns(tmp_path):
    """Closing lines and error lines longer than 80 columns (files named as
    given, relative to the folder the commands run in) are broken at spaces on
    the terminal."""
    where = Path("a-folder-with-a-rather-long-name-for-the-files")
    (tmp_path / where).mkdir()
    t = where / "transcripts.jsonl"
    assert gin("match", "--bots", "simple,random", "--games", "2", "--seed", "1", "--transcripts", str(t),
               "-q", cwd=tmp_path).returncode == 0
    examples = ROOT / "examples"
    opts = ["--option", "gin_bonus=20", "--option", "undercut_bonus=10", "--option", "big_gin_bonus=31",
            "--option", "spade_doubles=true", "--option", "box_bonus=20"]
    commands = {
        "score": ["score", str(examples / "hands.jsonl"), str(examples / "bad-hands.jsonl")],
        "resumed match": ["match", "--bots", "simple,random", "--games", "3", "--seed", "1", "--transcripts", str(t),
                          "--resume"],
        "match csv": ["match", "--bots", "simple,random", "--games", "2", "--seed", "1", "-f", "csv", *opts],
        "tournament": ["tournament", "--bots", "expert,simple,random", "--games", "2", "--seed", "1", "--workers",
                       "2", "--report", str(where / "the-page-of-the-tournament.html"), "--force"],
        "validate": ["validate", str(examples / "match.json"), str(examples / "faulty.json")],
    }
    two_sessions = (tmp_path / t).read_bytes()
    piped = {}
    for name, args in commands.items():  # what each says in a pipe: one line each, some longer than 80
        res = gin(*args, cwd=tmp_path)
        piped[name] = res.stderr.splitlines()
    assert any(len(ln) > 80 for lines in piped.values() for ln in lines)  # the test can fail
    (tmp_path / t).write_bytes(two_sessions)  # the resumed match again: one session to play
    script = "; ".join(f"echo '[{name}]'; gin {' '.join(shlex.quote(a) for a in args)} 2>&1 >/dev/null"
                       for name, args in commands.items())
    (tmp_path / "run.sh").write_text(script + "\n")
    pane = Pane(tmp_path, "sh run.sh", 80, height=100, cwd=tmp_path)
    try:
        screen = pane.wait_for(r"\[done\]", timeout=300)
    finally:
        pane.close()
    long_lines = [ln for ln in screen.splitlines() if len(ln) > 80]
    assert not long_lines, screen  # no line the terminal had to wrap: each was broken at a space
    sections = re.split(r"^\[([a-z ]+)\]$", screen, flags=re.M)
    shown = dict(zip(sections[1::2], sections[2::2], strict=True))
    for name, lines in piped.items():
        text = "\n".join(ln for ln in shown[name].splitlines() if not ln.startswith("[done]"))
        assert words(text) == words("\n".join(lines)), (name, text, lines)  # the same words, wrapped


# -- gin variants at 80 and 60 columns -------------------------------------------------------------------------------

def widest(text: str) -> int:
    from rich.cells import cell_len

    return max(cell_len(ln) for ln in text.splitlines())


@pytest.mark.parametrize("columns", [60, 80])
def test_gin_variants_fits_a_narrow_terminal(columns):
    res = gin("variants", env=_env(COLUMNS=str(columns)))
    assert res.returncode == 0 and res.stderr == ""
    out = res.stdout
    assert widest(out) <= columns
    assert len(out.splitlines()) < 80  # the full tables are some 200 lines at 80 columns
    data = json.loads(gin("variants", "-f", "json").stdout)
    for entry in data["variants"] + data["scoring_systems"]:
        assert re.search(rf"^{re.escape(entry['name'])} ", out, re.M), entry["name"]  # a line each
    assert "doubling=true, target=200" in out  # what a variant changes, as --option takes it
    assert "gin variants NAME" in out and "--long" in out  # how to see more
    full = gin("variants", "--long", env=_env(COLUMNS=str(columns))).stdout
    assert widest(full) <= columns and "ace_value" in full and len(full.splitlines()) > 2 * len(out.splitlines())


def test_gin_variants_shows_the_full_tables_where_they_fit():
    wide = gin("variants", env=_env(COLUMNS="160")).stdout
    assert wide == gin("variants", "--long", env=_env(COLUMNS="160")).stdout
    assert "options (default)" in wide and widest(wide) <= 160
    assert "options (default)" not in gin("variants", env=_env(COLUMNS="100")).stdout


@pytest.mark.parametrize("columns", [60, 80])
def test_gin_variants_name_shows_one_variant_or_scoring_system(columns):
    for name, expect in (("oklahoma", r'knock_limit +"upcard"'), ("hollywood", "target +125"),
                         ("examples/my-table.toml", "big_gin_bonus +31")):
        res = gin("variants", name, env=_env(COLUMNS=str(columns)))
        assert res.returncode == 0 and res.stderr == "", res.stderr
        assert re.search(expect, res.stdout) and widest(res.stdout) <= columns
    res = gin("variants", "nope")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr.startswith('gin: error: no variant or scoring system is called "nope"')
    one = json.loads(gin("variants", "doubling", "-f", "json").stdout)
    every = json.loads(gin("variants", "-f", "json").stdout)
    assert one == {"variants": [v for v in every["variants"] if v["name"] == "doubling"], "scoring_systems": []}


def _env(**extra: str) -> dict[str, str]:
    import os

    env = dict(os.environ, NO_COLOR="1", **extra)
    env.pop("GINCLI_DEBUG", None)
    return env


#: gin with its progress log's interval made short (a child of its own: the installed gincli).
LOGGING_GIN = """
import sys
import gincli.cli.render as render
render.LOG_EVERY = 0.2
sys.argv = ["gin", *sys.argv[1:]]
from gincli.entry import main
main()
"""


def test_where_stderr_is_no_terminal_long_work_says_how_far_it_is_in_plain_lines(tmp_path):
    """A log or CI gets no bar, but a line at most each LOG_EVERY seconds (a minute by
    default), the bar's parts in plain text; -q none; stdout is the same either way."""
    args = ["match", "--bots", "simple,random", "--hands", "3000", "--workers", "1", "--seed", "3", "-f", "json"]
    done = subprocess.run([sys.executable, "-c", LOGGING_GIN, *args], capture_output=True, text=True, cwd=tmp_path,
                          timeout=600)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("simple v random: ")]
    assert lines, done.stderr
    line = re.compile(r"simple v random: ([\d,]+)/3,000 · \d:\d\d:\d\d · eta \d:\d\d:\d\d · "
                      r"simple [\d,]+ · random [\d,]+ · [\d.]+%")
    counts = []
    for text in lines:
        m = line.fullmatch(text)
        assert m, text
        counts.append(int(m.group(1).replace(",", "")))
    assert counts == sorted(counts) and counts[-1] <= 3000
    quiet = subprocess.run([sys.executable, "-c", LOGGING_GIN, *args, "-q"], capture_output=True, text=True,
                           cwd=tmp_path, timeout=600)
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert quiet.stdout == done.stdout


def test_the_progress_log_waits_its_interval(monkeypatch):
    from gincli.cli import render

    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    with render.progress_bar("[bold]a.jsonl[/]", 1000, unit="bytes") as advance:
        advance(500)  # within the first minute: nothing
    assert err.getvalue() == ""
    monkeypatch.setattr(render, "LOG_EVERY", 0.0)
    with render.progress_bar("[bold]a.jsonl[/]", 1000, unit="bytes") as advance:
        advance(250)
    assert re.fullmatch(r"a\.jsonl: 25% · 0:00:00 · eta 0:00:00\n", err.getvalue())
    with render.progress_bar("a.jsonl", 1000, enabled=False) as advance:
        advance(250)
    assert err.getvalue().count("\n") == 1


def test_a_progress_line_that_cannot_be_written_stops_nothing_else(tmp_path):
    """stderr on a full disk: the progress lines are dropped (as every message is: cli/streams.py), the
    match goes on to its summary."""
    args = ["match", "--bots", "simple,random", "--hands", "1500", "--workers", "1", "--seed", "3", "-f", "json"]
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-c", LOGGING_GIN, *args], stdout=subprocess.PIPE, stderr=full,
                              text=True, cwd=tmp_path, timeout=600)
    assert json.loads(done.stdout)["hands"] == 1500
