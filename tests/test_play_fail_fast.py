"""``gin play`` against a bot that cannot play fails fast, as ``gin match`` does:
an external bot that fails to start (or fails before its first move) stops the
session at once, and one that forfeits ``--max-forfeits`` hands in a row stops
it too, each in one sentence quoting its standard error, exit 2, nothing
claimed (that hand is not scored), the transcript valid and resumable. A
resumed session runs its external bots in the folder it was begun in. The
closing lines never break inside a word in a terminal (tmux, 80 and 60
columns). Every gin runs in a folder of its own under the test's tmp_path,
never in the checkout."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT
from test_play_terminal import READY, TMUX, Pane

from gincli.replay.validate import validate

GIN = str(Path(sys.executable).with_name("gin"))
BOT = ROOT / "examples" / "bot.py"  # a bot that plays

#: Answers its handshake, then dies at its first decision, every time it is started.
DIES = '''
import json, sys
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        print(json.dumps({"type": "ready", "name": "dies", "version": "1", "id": message["id"]}), flush=True)
    elif message["type"] == "decide":
        print("Traceback (most recent call last):", file=sys.stderr)
        print("KeyError: 'model'", file=sys.stderr, flush=True)
        sys.exit(1)
'''

#: Plays, but always passes: legal on the upcard only, so it forfeits every hand.
PASSER = '''
import json, sys
print("passer 1: I only pass", file=sys.stderr, flush=True)
for line in sys.stdin:
    message = json.loads(line)
    if message["type"] == "hello":
        reply = {"type": "ready"}
    elif message["type"] == "decide":
        reply = {"action": "pass"}
    else:
        continue
    reply["id"] = message["id"]
    print(json.dumps(reply), flush=True)
'''

#: What a player who draws from the stock and throws the last card types, whatever is asked
#: (what is not a move now is refused, and the next line read).
PLAYER = "p\ns\n11\n" * 120


def gin(*args: str, cwd: Path, input: str = "", tmp_path: Path) -> subprocess.CompletedProcess:
    env = {"PATH": f"{Path(GIN).parent}:/usr/bin:/bin", "GINCLI_CONFIG_DIR": str(tmp_path / "config"),
           "GINCLI_DATA_DIR": str(tmp_path / "data"), "PYTHONIOENCODING": "utf-8", "HOME": str(tmp_path)}
    return subprocess.run([GIN, *args], input=input, capture_output=True, text=True, cwd=cwd, timeout=300, env=env)


def folder(tmp_path: Path, name: str, **bots: str) -> Path:
    """A folder of its own (the tests never run in the checkout), holding these bot scripts."""
    where = tmp_path / name
    (where / "bots").mkdir(parents=True)
    for file, text in bots.items():
        (where / "bots" / f"{file}.py").write_text(text)
    return where


def one_error_line(res: subprocess.CompletedProcess) -> str:
    """The sentence that stopped the session: the only line of stderr (the table went to stdout)."""
    lines = res.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("gin: error: "), res.stderr
    return lines[0]


def nothing_claimed(res: subprocess.CompletedProcess, path: Path, registry, scored: int):
    """Exit 2, no result on stdout, and a transcript that is valid, not complete, with ``scored``
    hands and then the one the bot stopped in, unscored (no forfeit, no result)."""
    assert res.returncode == 2, res.stderr
    assert "you win" not in res.stdout and "is over" not in res.stdout and "You left" not in res.stdout
    assert "The transcript is in" not in res.stdout
    doc = json.loads(path.read_text())
    report = validate(doc, registry)
    assert report.valid and not report.complete, report.errors
    assert len(report.hands) == scored
    *done, last = doc["hands"]
    assert len(done) == scored and "forfeit" not in last and "result" not in last
    return doc


def test_a_bot_that_cannot_start_stops_the_session_at_once_and_goes_on_once_fixed(registry, tmp_path):
    """The issue's case: the script does not exist. Nothing is claimed; once it is there,
    --resume plays that same hand anew, to the end."""
    here = folder(tmp_path, "here")
    res = gin("play", "--name", "ann", "--bot", "exec:python3 bots/mine.py", "--seed", "1", "--scoring", "hand",
              "--transcript", "x.json", cwd=here, input="p\n" + PLAYER, tmp_path=tmp_path)
    doc = nothing_claimed(res, here / "x.json", registry, scored=0)
    line = one_error_line(res)
    assert line.startswith("gin: error: the bot exec:python3 bots/mine.py failed to start (closed its output and "
                           "exited (status 2)), so the session stops; its standard error ends: "), line
    assert f"can't open file '{here / 'bots' / 'mine.py'}'" in line
    assert line.endswith("; hand 1 is not scored: the transcript so far is in x.json; fix the bot, then go on "
                         "with: gin play --resume --transcript x.json")
    assert doc["play"] == {"human": "ann", "bots": {"external": "exec:python3 bots/mine.py"}, "dealer": None,
                           "cwd": str(here)}
    assert all(m["player"] == "ann" for m in doc["hands"][0]["moves"])  # what ann played of it is kept

    shutil.copy(BOT, here / "bots" / "mine.py")  # fixed
    res = gin("play", "--resume", "--transcript", "x.json", cwd=here, input=PLAYER, tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "hand 1: going on from the transcript, after" in res.stdout and "The hand is over (ann " in res.stdout
    doc = json.loads((here / "x.json").read_text())
    report = validate(doc, registry)
    assert report.valid and report.complete and len(doc["hands"]) == 1, report.errors
    assert "forfeit" not in doc["hands"][0] and any(m["player"] == "external" for m in doc["hands"][0]["moves"])


def test_with_format_json_a_stop_writes_nothing_on_stdout(registry, tmp_path):
    here = folder(tmp_path, "here")
    res = gin("play", "--name", "ann", "--bot", "exec:python3 bots/mine.py", "--seed", "1", "--transcript",
              "x.json", "--format", "json", cwd=here, input="p\n", tmp_path=tmp_path)
    assert res.returncode == 2 and res.stdout == ""  # as gin match on its stops
    assert "gin: error: the bot exec:python3 bots/mine.py failed to start" in res.stderr.splitlines()[-1]
    assert validate(json.loads((here / "x.json").read_text()), registry).valid


def test_a_bot_that_dies_before_its_first_move_is_a_bot_that_cannot_start(registry, tmp_path):
    """It answers its handshake, then dies at its first decision: started again for each hand, it
    would die at every hand, and each would be a forfeit won by nobody's play."""
    here = folder(tmp_path, "here", dies=DIES)
    res = gin("play", "--name", "ann", "--bot", "exec:python3 bots/dies.py", "--seed", "2", "--transcript",
              "d.json", cwd=here, input=PLAYER, tmp_path=tmp_path)
    nothing_claimed(res, here / "d.json", registry, scored=0)
    assert one_error_line(res) == (
        "gin: error: the bot exec:python3 bots/dies.py started, but failed before its first move (closed its output "
        "and exited (status 1)), so the session stops; its standard error ends: Traceback (most recent call last): | "
        "KeyError: 'model'; hand 1 is not scored: the transcript so far is in d.json; fix the bot, then go on with: "
        "gin play --resume --transcript d.json")


def test_max_forfeits_hands_in_a_row_stop_the_session_and_the_last_is_not_scored(registry, tmp_path):
    here = folder(tmp_path, "here", passer=PASSER)
    res = gin("play", "--name", "ann", "--bot", "exec:python3 bots/passer.py", "--seed", "1", "--transcript",
              "f.json", "--max-forfeits", "2", cwd=here, input=PLAYER, tmp_path=tmp_path)
    doc = nothing_claimed(res, here / "f.json", registry, scored=1)
    assert doc["hands"][0]["forfeit"]["player"] == "external"  # the first: a hand lost, as the rules say
    assert one_error_line(res) == (
        "gin: error: the bot exec:python3 bots/passer.py forfeited 2 hands in a row, so the session stops "
        "(--max-forfeits 2); the last 2: hand 1, hand 2: illegal move (pass-not-allowed): external passed, but only "
        "the first upcard may be refused; its standard error ends: passer 1: I only pass; hand 2 is not scored: the "
        "transcript so far is in f.json; fix the bot, then go on with: gin play --resume --transcript f.json")
    moves = len(doc["hands"][1]["moves"])

    shutil.copy(BOT, here / "bots" / "passer.py")  # fixed: hand 2 goes on where it stopped, the bot to move
    res = gin("play", "--resume", "--transcript", "f.json", cwd=here, input="q\n", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    assert f"hand 2: going on from the transcript, after {moves} move" in res.stdout
    doc = json.loads((here / "f.json").read_text())
    assert validate(doc, registry).valid and "forfeit" not in doc["hands"][1]
    assert doc["hands"][1]["moves"][moves]["player"] == "external"


def test_max_forfeits_0_never_stops(registry, tmp_path):
    here = folder(tmp_path, "here", passer=PASSER)
    res = gin("play", "--name", "ann", "--bot", "exec:python3 bots/passer.py", "--seed", "1", "--transcript",
              "f.json", "--max-forfeits", "0", cwd=here, input=PLAYER, tmp_path=tmp_path)
    assert res.returncode == 0 and res.stderr == "", res.stderr
    assert "external forfeits the hand: illegal move" in res.stdout and "The game is over: you win" in res.stdout
    res = gin("play", "--max-forfeits", "-1", cwd=here, tmp_path=tmp_path)
    assert res.returncode == 2 and "-1 must be at least 0" in res.stderr


def test_a_resumed_session_runs_its_bot_in_the_folder_it_was_begun_in(registry, tmp_path):
    """The transcript records that folder (``cwd`` in its ``play`` field); resumed from
    anywhere, ``exec:python3 bots/mine.py`` is that folder's bot."""
    project = folder(tmp_path, "project", mine=BOT.read_text())
    elsewhere = folder(tmp_path, "elsewhere")
    path = tmp_path / "games" / "r.json"
    path.parent.mkdir()
    res = gin("play", "--name", "ann", "--bot", "exec:python3 bots/mine.py", "--seed", "3", "--scoring", "hand",
              "--transcript", str(path), cwd=project, input="s\n11\nq\n", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    assert json.loads(path.read_text())["play"]["cwd"] == str(project)
    res = gin("play", "--resume", "--transcript", str(path), cwd=elsewhere, input=PLAYER, tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "The hand is over (ann " in res.stdout and "forfeit" not in res.stdout
    doc = json.loads(path.read_text())
    assert validate(doc, registry).complete and "forfeit" not in doc["hands"][0]
    assert doc["play"]["cwd"] == str(project)


def test_a_transcript_saved_before_the_folder_was_recorded_still_resumes(registry, tmp_path):
    """Without ``cwd`` its bots run from the current folder, as they always did; from a
    folder where its command's relative path means nothing, the stop says what to do."""
    project = folder(tmp_path, "project", mine=BOT.read_text())
    elsewhere = folder(tmp_path, "elsewhere")
    path = tmp_path / "old.json"
    res = gin("play", "--name", "ann", "--bot", "exec:python3 bots/mine.py", "--seed", "3", "--scoring", "hand",
              "--transcript", str(path), cwd=project, input="s\n11\nq\n", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    doc = json.loads(path.read_text())
    del doc["play"]["cwd"]  # as gincli saved it before
    path.write_text(json.dumps(doc))
    res = gin("play", "--resume", "--transcript", "../old.json", cwd=elsewhere, input=PLAYER, tmp_path=tmp_path)
    nothing_claimed(res, path, registry, scored=0)
    line = one_error_line(res)
    assert line.startswith("gin: error: the bot exec:python3 bots/mine.py failed to start") and \
        f"can't open file '{elsewhere / 'bots' / 'mine.py'}'" in line
    assert line.endswith("; hand 1 is not scored: the transcript so far is in ../old.json, which does not say "
                         "which folder the session was begun in (an older gincli saved it), so the bot ran in this "
                         "one: if its command names a file there, go on from that folder with: gin play --resume "
                         f"--transcript {path}")
    assert "cwd" not in json.loads(path.read_text())["play"]  # nothing guessed: the right folder still works
    res = gin("play", "--resume", "--transcript", str(path), cwd=project, input=PLAYER, tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "The hand is over (ann " in res.stdout
    assert validate(json.loads(path.read_text()), registry).complete


def test_a_recorded_folder_that_is_gone_or_not_absolute_is_refused(registry, tmp_path):
    project = folder(tmp_path, "project", mine=BOT.read_text())
    path = tmp_path / "r.json"
    res = gin("play", "--name", "ann", "--bot", "exec:python3 bots/mine.py", "--seed", "3", "--transcript",
              str(path), cwd=project, input="q\n", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    project.rename(tmp_path / "moved")
    res = gin("play", "--resume", "--transcript", str(path), cwd=tmp_path, input="q\n", tmp_path=tmp_path)
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == (f"gin: error: cannot go on with {path}: its external bots ran in the folder {project}, "
                          "where the session was begun, and it is not a folder here; put it back, or set the \"cwd\" "
                          "of the transcript's \"play\" field to where the bots are now\n")
    doc = json.loads(path.read_text())
    doc["play"]["cwd"] = "moved"
    path.write_text(json.dumps(doc))
    res = gin("play", "--resume", "--transcript", str(path), cwd=tmp_path, input="q\n", tmp_path=tmp_path)
    assert res.returncode == 2
    assert res.stderr == f"gin: error: {path}: the \"cwd\" of its \"play\" field is not a folder's absolute path\n"


# -- in a terminal: the closing lines wrap at spaces, never inside a word -----------------------------

needs_tmux = pytest.mark.skipif(TMUX is None, reason="tmux is not installed here")


def ended(pane: Pane, timeout: float = 60) -> str:
    """The exit status, once the command ended."""
    deadline = time.monotonic() + timeout
    while not pane.exit_file.exists() or not pane.exit_file.read_text().strip():
        if time.monotonic() > deadline:
            raise AssertionError(f"the command never ended; the screen shows:\n{pane.screen()}")
        time.sleep(0.05)
    return pane.exit_file.read_text().strip()


def closing(pane: Pane, first: str) -> list[str]:
    """The last lines of the screen, from the last one that begins with ``first``."""
    lines = pane.screen().rstrip("\n").splitlines()
    while lines and not lines[-1].strip():
        lines.pop()
    start = max(i for i, line in enumerate(lines) if line.startswith(first))
    return lines[start:]


def wrapped_at_spaces(shown: list[str], said: list[str], width: int) -> None:
    """``shown`` (the terminal's lines) is ``said`` (the lines as a pipe gets them, each longer
    than the terminal somewhere) broken at spaces only: every line fits, and joined again
    at the spaces they were broken at they are the same words, none cut."""
    assert any(len(line) > width for line in said), "nothing to wrap: the test would prove nothing"
    assert all(len(line) <= width for line in shown), shown
    assert " ".join(line.strip() for line in shown) == " ".join(said), (shown, said)  # (indented after the first)


def run_in_pane(tmp_path: Path, command: str, width: int) -> Pane:
    return Pane(tmp_path, f"cd {tmp_path} && {command}", width=width, height=24)


@needs_tmux
@pytest.mark.parametrize("width", [80, 60])
def test_closing_lines_through_a_pipe_to_a_terminal_never_break_a_word(registry, tmp_path, width):
    """Moves piped in, the table shown in the terminal: the line after q, the two after
    a finished session, and the sentence of a stop (on stderr, in the terminal too)."""
    (tmp_path / "played-games").mkdir()
    folder(tmp_path, "bots-here", dies=DIES)
    dies = "exec:python3 bots-here/bots/dies.py"
    quit_path = "played-games/a-game-left-early.json"
    pane = run_in_pane(tmp_path, f"printf 'q\\n' | gin play --seed 1 --bot simple --name ann --transcript {quit_path}",
                       width)
    try:
        assert ended(pane) == "0"
        wrapped_at_spaces(closing(pane, "You left"), [f"You left after 0 hands. The transcript so far is in "
                                                      f"{quit_path} (valid, not complete)."], width)
    finally:
        pane.close()
    pane.exit_file.unlink()

    # a finished session: the same one through a pipe first, to know its last lines
    done = ["played-games/a-finished-game-one.json", "played-games/a-finished-game-two.json"]
    args = ["play", "--seed", "5", "--bot", "simple", "--name", "ann", "--scoring", "hand"]
    res = gin(*args, "--transcript", done[0], cwd=tmp_path, input=PLAYER, tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    said = [line.replace(done[0], done[1]) for line in res.stdout.splitlines()[-2:]]
    assert said[0].startswith("The hand is over (ann ") and said[1].startswith("The transcript is in ")
    (tmp_path / "moves.txt").write_text(PLAYER)
    pane = run_in_pane(tmp_path, f"gin {' '.join(args)} --transcript {done[1]} < moves.txt", width)
    try:
        assert ended(pane) == "0"
        wrapped_at_spaces(closing(pane, "The hand is over"), said, width)
    finally:
        pane.close()
    pane.exit_file.unlink()

    # a stop: its sentence on stderr, wrapped in the terminal as well
    stops = ["played-games/a-game-stopped-one.json", "played-games/a-game-stopped-two.json"]
    res = gin("play", "--seed", "2", "--name", "ann", "--bot", dies, "--transcript", stops[0], cwd=tmp_path,
              input=PLAYER, tmp_path=tmp_path)
    said = [one_error_line(res).replace(stops[0], stops[1])]
    pane = run_in_pane(tmp_path, f"gin play --seed 2 --name ann --bot '{dies}' --transcript {stops[1]} < moves.txt",
                       width)
    try:
        assert ended(pane) == "2"
        wrapped_at_spaces(closing(pane, "gin: error:"), said, width)
    finally:
        pane.close()


@needs_tmux
def test_closing_lines_of_a_game_at_the_terminal_never_break_a_word(registry, tmp_path):
    """Played at the keyboard, 80 columns: q, and Ctrl-C."""
    (tmp_path / "played-games").mkdir()
    path = "played-games/a-game-left-at-the-keyboard-early.json"
    pane = run_in_pane(tmp_path, f"gin play --seed 1 --bot simple --name ann --transcript {path}", 80)
    try:
        pane.wait_for(*READY)
        pane.type("q")
        assert ended(pane) == "0"
        wrapped_at_spaces(closing(pane, "You left"), [f"You left after 0 hands. The transcript so far is in {path} "
                                                      "(valid, not complete)."], 80)
    finally:
        pane.close()
    pane.exit_file.unlink()

    path = "played-games/a-game-interrupted-at-the-keyboard-with-ctrl-c.json"
    pane = run_in_pane(tmp_path, f"gin play --seed 1 --bot simple --name ann --transcript {path}", 80)
    try:
        pane.wait_for(*READY)
        subprocess.run([TMUX, "-L", pane.socket, "send-keys", "-t", "play", "C-c"], check=True)
        assert ended(pane) == "130"
        wrapped_at_spaces(closing(pane, "interrupted;"), [f"interrupted; the transcript so far is in {path}"], 80)
    finally:
        pane.close()
    assert validate(json.loads((tmp_path / path).read_text()), registry).valid


HANGS = '''
import time
from gincli import Bot, hookimpl

class Hangs(Bot):
    name = "hangs"
    description = "never answers"

    def choose(self, view):
        time.sleep(3600)

@hookimpl
def gincli_register_bots(register):
    register(Hangs)
'''


def test_a_third_party_plugin_bot_that_hangs_forfeits_at_the_time_limit_and_the_session_stops(tmp_path):
    """gin play's --time-limit covers a third-party plugin's bot as it covers an
    external one: each decision past it forfeits the hand, and --max-forfeits
    stops the session, nothing claimed for the last hand."""
    here = tmp_path / "here"
    (here / "plugins").mkdir(parents=True)
    (here / "plugins" / "hangs.py").write_text(HANGS)
    res = gin("--plugins-dir", "plugins", "play", "--name", "ann", "--bot", "hangs", "--seed", "1",
              "--time-limit", "0.3", "--max-forfeits", "2", "--transcript", "h.json", cwd=here, input=PLAYER,
              tmp_path=tmp_path)
    assert res.returncode == 2, res.stderr
    (error,) = [line for line in res.stderr.splitlines() if line.startswith("gin: error:")]
    assert "forfeited 2 hands in a row" in error and "did not answer within 0.3 s" in error, error
