"""A reader that goes away (``gin score -f json --workers 2 BIG | head -1``)
ends every command that has workers within seconds, with exit status 0, no
traceback and no process of the run left (issue 18). Real processes, run
many times to catch a race: what fails is a hang (a generous timeout), never
slowness."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GIN = str(Path(sys.executable).with_name("gin"))
HANG = 15  # seconds a run may take to end once its reader is gone: far more than it needs
LEFT = 5  # seconds its processes may take to be gone after it ended


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    out = dict(os.environ, GINCLI_CONFIG_DIR=str(tmp_path_factory.mktemp("config")))
    out.pop("GINCLI_DEBUG", None)
    return out


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    """Hand records enough for the run to be still going when its first line is read (50 chunks)."""
    path = tmp_path_factory.mktemp("closed-pipe") / "big.jsonl"
    some = subprocess.run([sys.executable, str(ROOT / "benchmarks" / "gen_records.py"), "2000", "1"],
                          capture_output=True, check=True, timeout=300).stdout
    path.write_bytes(some * 25)  # 50,000 records: dealing them all anew costs more than the tests themselves
    return path


@pytest.fixture(scope="module")
def transcripts(tmp_path_factory, env):
    path = tmp_path_factory.mktemp("closed-pipe") / "transcripts.jsonl"
    subprocess.run([GIN, "match", "--bots", "simple,random", "--games", "1000", "--seed", "1", "--transcripts",
                    str(path), "--workers", "2", "-q"], check=True, capture_output=True, env=env, timeout=300)
    return path


def group(pgid: int) -> list[str]:
    """The processes of a process group, for a failure's message (Linux's /proc)."""
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if entry.isdigit():
            try:
                stat = Path("/proc", entry, "stat").read_text()
                cmdline = Path("/proc", entry, "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            fields = stat[stat.rindex(")") + 2:].split()  # after the command's name: state, ppid, pgrp
            if int(fields[2]) == pgid:
                found.append(f"{entry} ({fields[0]}) {cmdline.strip()}")
    return found


def first_line_then_close(args: list[str], env: dict[str, str], tmp_path: Path) -> None:
    """Run ``gin ARGS`` in a session of its own, read one line of its output,
    close the pipe (as ``head -1`` does) and check how it ends."""
    errors = tmp_path / "stderr.txt"
    with open(errors, "wb") as err:
        proc = subprocess.Popen([GIN, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=err,
                                env=env, start_new_session=True)
    pgid = proc.pid
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()
        proc.stdout.close()
        try:
            status = proc.wait(timeout=HANG)
        except subprocess.TimeoutExpired:
            pytest.fail(f"gin {' '.join(args)} hung after its reader went away: {group(pgid)}")
        stderr = errors.read_text(errors="replace")
        assert line.startswith(b"{"), (line, stderr)
        assert status == 0, stderr
        for sign in ("Traceback", "Exception ignored", "Error", "error:"):
            assert sign not in stderr, stderr
        deadline = time.monotonic() + LEFT
        while True:
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                break  # the whole run is gone
            if time.monotonic() > deadline:
                pytest.fail(f"processes of gin {' '.join(args)} were left: {group(pgid)}")
            time.sleep(0.05)
    finally:
        try:  # whatever failed, nothing of this run outlives the test
            os.killpg(pgid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


@pytest.mark.parametrize("attempt", range(25))
def test_gin_score_ends_when_its_reader_goes_away(records, env, tmp_path, attempt):
    first_line_then_close(["score", "-f", "json", "--workers", "2", str(records)], env, tmp_path)


@pytest.mark.parametrize("attempt", range(8))
def test_gin_validate_ends_when_its_reader_goes_away(transcripts, env, tmp_path, attempt):
    first_line_then_close(["validate", "-f", "json", "--workers", "2", str(transcripts)], env, tmp_path)


@pytest.mark.parametrize("attempt", range(8))
def test_gin_match_ends_when_the_reader_of_its_transcripts_goes_away(env, tmp_path, attempt):
    first_line_then_close(["match", "--bots", "simple,random", "--games", "5000", "--seed", str(attempt),
                           "--transcripts", "-", "--workers", "2", "-q"], env, tmp_path)
