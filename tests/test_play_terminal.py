"""``gin play`` in a real terminal: tmux runs it, keys are typed with
``send-keys`` and the screen is read with ``capture-pane``, as a player sees it,
through to a finished hand and a transcript that ``gin validate`` accepts."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from test_play import first_hand, seed_where

from gincli.replay.validate import validate

TMUX = shutil.which("tmux")
GIN = str(Path(sys.executable).with_name("gin"))

pytestmark = pytest.mark.skipif(TMUX is None, reason="tmux is not installed here (.ci/run installs it from the "
                                                     "system packages)")


class Pane:
    """A tmux session of its own (its own server socket), one window of the given size."""

    def __init__(self, tmp_path: Path, command: str, width: int = 80, height: int = 24):
        self.socket = f"gincli-test-{uuid.uuid4().hex[:8]}"
        env = {"PATH": f"{Path(GIN).parent}:/usr/bin:/bin", "HOME": str(tmp_path), "LANG": "C.UTF-8",
               "LC_ALL": "C.UTF-8", "TERM": "xterm-256color", "GINCLI_CONFIG_DIR": str(tmp_path / "config"),
               "GINCLI_DATA_DIR": str(tmp_path / "data")}
        self.exit_file = tmp_path / "exit"
        full = f"{command}; echo $? > {self.exit_file}; sleep 600"
        subprocess.run([TMUX, "-L", self.socket, "-f", "/dev/null", "new-session", "-d", "-s", "play",
                        "-x", str(width), "-y", str(height), full], env=env, check=True)
        self.width, self.height = width, height

    def screen(self) -> str:
        return subprocess.run([TMUX, "-L", self.socket, "capture-pane", "-p", "-t", "play"], capture_output=True,
                              text=True, check=True).stdout

    def type(self, text: str) -> None:
        """Type a line and wait for the screen to change (on a busy machine, a
        bot's turn and the redraw can take seconds: typing on before it shows
        answers a screen that is gone)."""
        before = self.screen()
        subprocess.run([TMUX, "-L", self.socket, "send-keys", "-t", "play", "-l", text], check=True)
        subprocess.run([TMUX, "-L", self.socket, "send-keys", "-t", "play", "Enter"], check=True)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            now = self.screen()
            if now != before and not now.rstrip().endswith("> " + text):
                return
            time.sleep(0.03)

    def wait_for(self, *texts: str, timeout: float = 30) -> str:
        """The screen, once it shows one of ``texts``."""
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if any(t in screen for t in texts):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never showed {texts!r}; it shows:\n{screen}")
            time.sleep(0.05)

    def close(self) -> None:
        subprocess.run([TMUX, "-L", self.socket, "kill-server"], capture_output=True)


READY = ("? moves · h hint", "Enter: next hand", "You left", "is over")


def test_a_hand_played_in_a_terminal(registry, tmp_path):
    seed = seed_where(registry, lambda h: h.to_act == "ann")  # ann is offered the upcard first
    upcard = first_hand(registry, seed).upcard
    path = tmp_path / "game.json"
    pane = Pane(tmp_path, f"gin play --seed {seed} --bot simple --name ann --transcript {path}")
    try:
        screen = pane.wait_for(*READY)
        lines = screen.splitlines()
        assert lines[0].startswith(f"gin · standard · game · hand 1 · simple deals · seed {seed}")
        assert len(lines) <= 24 and all(len(line) <= 80 for line in lines)
        for seen in ("simple", "10 cards", "discards", "on top", "stock      31 cards · knock limit 10",
                     "you (ann)", "deadwood", "score      ann 0 · simple 0 (game to 100)",
                     "Your turn: take the upcard"):
            assert seen in screen, seen
        pane.type("zz")
        assert "first, take the upcard" in pane.wait_for("first, take the upcard")
        pane.type("?")
        assert "You may take the upcard" in pane.wait_for("You may take")
        pane.type("d")  # take the upcard, then take it back: nothing was revealed
        pane.wait_for("discard any card but")
        pane.type("u")
        screen = pane.wait_for("taken back")
        assert "Your turn: take the upcard" in screen
        pane.type("p")
        for _ in range(200):  # pass, then draw from the stock and throw the highest deadwood card
            screen = pane.wait_for(*READY)
            if "over —" in screen:
                break
            if "you can knock" in screen or "you can go gin" in screen:
                pane.type("k")
            elif "Your turn: discard" in screen:
                pane.type("11")
            elif "Your turn: draw" in screen:
                pane.type("s")
            elif "Your turn: take the upcard" in screen:
                pane.type("p")
            else:
                pane.type("s")
        screen = pane.wait_for("Enter: next hand", "is over")
        assert "hand 1 over — " in screen
        assert "(knocker)" in screen or "dead hand" in screen
        assert " = " in screen or "nobody scores" in screen  # the points explained
        pane.type("q")
        screen = pane.wait_for("You left")
        assert "You left after 1 hand." in screen.replace("\n", " ")
        deadline = time.monotonic() + 10
        # the shell creates the file before it writes the status: wait for the status
        while not (pane.exit_file.exists() and pane.exit_file.read_text().strip()) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert pane.exit_file.read_text().strip() == "0"
    finally:
        pane.close()
    doc = json.loads(path.read_text())
    report = validate(doc, registry)
    assert report.valid and len(report.hands) == 1, report.errors
    assert doc["hands"][0]["deal"]["upcard"] == f"{'A23456789TJQK'[upcard % 13]}{'shdc'[upcard // 13]}"


def test_a_wide_terminal_shows_the_score_pad_beside_the_table(registry, tmp_path):
    path = tmp_path / "wide.json"
    pane = Pane(tmp_path, f"gin play --seed 3 --bot simple --name ann --transcript {path}", width=130, height=40)
    try:
        screen = pane.wait_for(*READY)
        first = screen.splitlines()[0]
        assert first.startswith("gin · standard · game") and first.rstrip().endswith("game")  # the pad's title
        assert any("┃" in line and "ann" in line and "you (ann)" not in line for line in screen.splitlines())
    finally:
        pane.close()


SLOW_START = '''
import time
from gincli import hookimpl
from gincli_builtin.bots import SimpleBot


class Sleepy(SimpleBot):
    name = "sleepy"
    slept = False

    def choose(self, view):
        if not Sleepy.slept:  # the first decision of each worker takes long: no chunk ends for a while
            Sleepy.slept = True
            time.sleep(4)
        return super().choose(view)


@hookimpl
def gincli_register_bots(register):
    register(Sleepy)
'''


def test_a_match_shows_its_progress_bar_before_the_first_results_come(tmp_path):
    """The bar is there within about a second of the start, even while no
    session has ended yet (issue 19: it used to wait for the first chunk)."""
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    (plugins / "sleepy.py").write_text(SLOW_START)
    pane = Pane(tmp_path, f"gin --plugins-dir {plugins} match --bots sleepy,simple --games 40 --seed 1 --workers 1",
                width=120)
    try:
        screen = pane.wait_for("0/40", timeout=3.5)  # the first session is still being played
        assert "eta" in screen and "sleepy 0" in screen
        pane.wait_for("gin match: 40 sessions", timeout=120)
    finally:
        pane.close()
