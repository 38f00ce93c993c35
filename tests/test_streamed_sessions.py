"""gin match writes each session's transcript as soon as it and every session
before it are finished (issue 21), not once the chunk of sessions it was played
in is done: with one worker (in gin's own process), the local pool's workers and
Ray. A plugin bot plays slowly, says in a side file when each of its sessions
ends, and never ends one session in the middle of a chunk; once the transcripts
file holds every session before that one, the run's whole process group is
killed (SIGKILL), and the file holds exactly those sessions, whole lines, in
order, the very lines an undisturbed run writes. Real ``gin`` processes; no
timing is asserted but generous bounds on the waits."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

GIN = str(Path(sys.executable).with_name("gin"))
SEED = 7
GAMES = 80
#: The session that never ends: in the middle of its chunk with every split of the work tested here
#: (local, 2 workers: [16..25]; 1 worker: [14..29]; Ray, 2 CPUs: [18..22]).
STUCK = 20
WAIT = 180  # seconds: a generous bound; what fails is a file that stops growing, not slowness

BOT = '''
import os
import time

from gincli import hookimpl
from gincli.matches.runner import session_seed
from gincli.rulebook.rng import SplitMix64
from gincli_builtin.bots import SimpleBot

ENDED = {ended!r}
RELEASE = {release!r}
STUCK = {stuck}
#: A session's index by its bot's generator (the first player's: derived with 1 from the session's seed).
SESSIONS = {{SplitMix64(session_seed({seed}, i)).derive(1).state: i for i in range({games})}}


class Stall(SimpleBot):
    name = "stall"
    description = "simple, slowly; session STUCK never ends (until RELEASE exists); says when each ends"

    def __init__(self, rng, seat=""):
        self.session = SESSIONS.get(rng.state)
        super().__init__(rng, seat)

    def choose(self, view):
        time.sleep(0.002)
        if self.session == STUCK:
            deadline = time.monotonic() + 300
            while not os.path.exists(RELEASE) and time.monotonic() < deadline:
                time.sleep(0.05)
        return super().choose(view)

    def close(self):
        fd = os.open(ENDED, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
        os.write(fd, f"{{self.session}}\\n".encode())
        os.close(fd)
        super().close()


@hookimpl
def gincli_register_bots(register):
    register(Stall)
'''


def environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GINCLI_")}
    env.update(GINCLI_CONFIG_DIR=str(tmp_path / "config"), RAY_AUTH_MODE="disabled", RAY_USAGE_STATS_ENABLED="0")
    env.pop("RAY_ADDRESS", None)
    return env


@pytest.fixture
def stall(tmp_path):
    folder = tmp_path / "plugins"
    folder.mkdir()
    ended, release = tmp_path / "ended.txt", tmp_path / "release"
    (folder / "stall.py").write_text(BOT.format(ended=str(ended), release=str(release), stuck=STUCK, seed=SEED,
                                                games=GAMES))
    yield folder, ended, release
    release.touch()  # a Ray worker still in the stuck session (its driver killed) goes on, and ends


def lines_of(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


@pytest.mark.parametrize("where", ["local-2-workers", "local-1-worker",
                                   pytest.param("ray", marks=pytest.mark.xdist_group("ray"))])
def test_a_kill_loses_only_the_sessions_being_played(tmp_path, stall, where, request):
    folder, ended, release = stall
    extra = {"local-2-workers": ["--workers", "2"], "local-1-worker": ["--workers", "1"]}.get(where)
    if extra is None:
        extra = ["--workers", "2", "--backend", "ray", "--address", request.getfixturevalue("ray_address")]
    transcripts = tmp_path / "t.jsonl"
    match = ["--plugins-dir", str(folder), "match", "--bots", "stall,random", "--players", "a,b", "--seed",
             str(SEED), "-q", "--format", "json"]
    proc = subprocess.Popen([GIN, *match, "--games", str(GAMES), "--transcripts", str(transcripts), *extra],
                            cwd=tmp_path, env=environment(tmp_path), stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        deadline = time.monotonic() + WAIT
        while lines_of(transcripts) < STUCK and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.02)
        held = lines_of(transcripts)
        at_the_kill = ended.read_text().split() if ended.exists() else []
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # the whole run: gin, its workers, their bots
        except ProcessLookupError:
            pass
        out, err = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGKILL, (proc.returncode, err.decode(errors="replace"))
    finished = {int(i) for i in at_the_kill}
    before_the_stuck_one = next(i for i in range(GAMES + 1) if i not in finished)
    assert before_the_stuck_one == STUCK and STUCK not in finished
    assert held == STUCK, f"{held} sessions written of the {STUCK} finished with all before them (ended: " \
                          f"{sorted(finished)})"
    data = transcripts.read_bytes()
    assert data.endswith(b"\n")
    assert [json.loads(line)["id"] for line in data.splitlines()] == [f"s{i}" for i in range(STUCK)]
    # the very lines a run that nothing stops writes for those sessions
    release.touch()
    full = tmp_path / "full.jsonl"
    res = subprocess.run([GIN, *match, "--games", str(STUCK), "--transcripts", str(full), "--workers", "1"],
                         cwd=tmp_path, env=environment(tmp_path), stdin=subprocess.DEVNULL, capture_output=True,
                         timeout=WAIT)
    assert res.returncode == 0, res.stderr
    assert data == full.read_bytes()
