"""``gin match --backend ray`` (plugins/gincli-ray) on a real local Ray instance,
2 CPUs, started once for the test session (conftest's ``ray_address``): the same
summary and transcripts as a local run whatever the workers, --sprt stopping
with the same decision, progress and the live score back on the driver, resume
after Ctrl-C (locally or on Ray), a Ray worker killed mid-match, an external
bot's command missing on the nodes, a cluster out of reach."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from conftest import ROOT

GIN = str(Path(sys.executable).with_name("gin"))


def environment(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ, RAY_AUTH_MODE="disabled", RAY_USAGE_STATS_ENABLED="0")
    for name in ("GINCLI_DEBUG", "RAY_ADDRESS"):
        env.pop(name, None)
    env.update(extra or {})
    return env


def gin(*args: str, env: dict[str, str] | None = None, cwd: Path = ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([GIN, *args], capture_output=True, text=True, cwd=cwd, timeout=600,
                          env=environment(env), stdin=subprocess.DEVNULL)


def on_ray(address: str, *args: str) -> tuple[str, ...]:
    return (*args, "--backend", "ray", "--address", address)


def one_sentence(res: subprocess.CompletedProcess, code: int = 2) -> str:
    assert res.returncode == code, res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gin: error: "), res.stderr
    assert "Traceback" not in res.stderr
    return lines[0]


@pytest.mark.parametrize("args", [
    ("--bots", "simple,simple", "--hands", "1000", "--seed", "11"),
    ("--bots", "expert,simple", "--games", "8", "--seed", "9", "--duplicate"),
    ("--bots", "exec:python3 examples/bot.py,simple", "--games", "2", "--seed", "1"),
], ids=["hands", "duplicate-games", "external-bot"])
def test_same_summary_and_transcripts_as_a_local_run_whatever_the_workers(ray_address, tmp_path, args):
    common = ("match", *args, "--format", "json", "-q")
    local = gin(*common, "--workers", "2", "--transcripts", str(tmp_path / "local.jsonl"))
    assert local.returncode == 0, local.stderr
    expected = (tmp_path / "local.jsonl").read_bytes()
    for workers in ("1", "2") if "--hands" in args else ("2",):  # one worker and two: once is enough
        f = tmp_path / f"ray-{workers}.jsonl"
        res = gin(*on_ray(ray_address, *common, "--workers", workers, "--transcripts", str(f)))
        assert res.returncode == 0, res.stderr
        assert res.stdout == local.stdout
        assert f.read_bytes() == expected
    summary = json.loads(local.stdout)
    assert summary["sessions"] == len(expected.splitlines())


def test_without_an_address_it_starts_a_local_ray_instance(tmp_path):
    pytest.importorskip("gincli_ray", reason="pip install ./plugins/gincli-ray (the README's test command does)")
    args = ("match", "--bots", "simple,random", "--hands", "200", "--seed", "3", "--format", "json")
    local = gin(*args, "-q", "--workers", "1")
    res = gin(*args, "--backend", "ray", "--workers", "2")
    assert res.returncode == 0, res.stderr
    assert res.stdout == local.stdout
    assert res.stderr.strip().splitlines()[-1].endswith(", 2 workers, backend ray)"), res.stderr


def test_sprt_stops_with_the_same_decision_as_a_local_run(ray_address, tmp_path):
    common = ("match", "--bots", "simple,random", "--games", "400", "--seed", "1", "--sprt", "0,100",
              "--format", "json", "-q")
    local = gin(*common, "--transcripts", str(tmp_path / "local.jsonl"))
    res = gin(*on_ray(ray_address, *common, "--transcripts", str(tmp_path / "ray.jsonl")))
    assert res.returncode == 0, res.stderr
    s = json.loads(res.stdout)
    assert s["sprt"]["result"] == "H1" and s["games"] < 400
    assert res.stdout == local.stdout
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert len((tmp_path / "ray.jsonl").read_bytes().splitlines()) == s["games"]


WATCH = """
import contextlib, json, sys
import gincli.cli.match as match

seen = []

@contextlib.contextmanager
def bar(description, total, enabled=True, unit="bytes", streaming=False, status=None):
    seen.append(["start", total])
    yield lambda done: seen.append([done, status()])

match.progress_bar = bar
sys.argv = ["gin", *sys.argv[2:]]
try:
    from gincli.cli import main
    main()
finally:
    with open(OUT, "w") as fh:
        json.dump(seen, fh)
"""


def test_progress_and_the_live_score_come_back_to_the_driver(ray_address, tmp_path):
    """What gin match hands its progress bar as the Ray results come in: every
    chunk's sessions counted, in order, each time with the running score."""
    out = tmp_path / "seen.json"
    script = WATCH.replace("OUT", repr(str(out)))
    proc = subprocess.run([sys.executable, "-c", script, "-", "match",
                           *on_ray(ray_address, "--bots", "simple,simple", "--hands", "2000", "--seed", "2",
                                   "--format", "json")],
                          capture_output=True, text=True, cwd=ROOT, timeout=600, env=environment())
    assert proc.returncode == 0, proc.stderr
    summary = json.loads(proc.stdout)
    seen = json.loads(out.read_text())
    assert seen[0] == ["start", 2000]
    done = [d for d, _ in seen[1:]]
    assert done == sorted(done) and done[0] == 0 and done[-1] == 2000 and len(done) > 3
    won = {p["name"]: p["hands_won"] for p in summary["players"]}
    assert seen[-1][1].startswith(f"simple-1 {won['simple-1']:,} · simple-2 {won['simple-2']:,} · ")
    assert len({status for _, status in seen[1:]}) > 2  # the score moved as the results came in


def test_resume_after_ctrl_c_on_ray_finishes_locally_or_on_ray_as_one_run(ray_address, tmp_path):
    common = ("match", "--bots", "simple,random", "--hands", "3000", "--seed", "6", "--format", "json", "-q")
    f = tmp_path / "interrupted.jsonl"
    proc = subprocess.Popen([GIN, *on_ray(ray_address, *common, "--transcripts", str(f))], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment(),
                            stdin=subprocess.DEVNULL)
    deadline = time.time() + 120
    while time.time() < deadline and (not f.exists() or f.stat().st_size == 0) and proc.poll() is None:
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "--resume" in err and "Traceback" not in err
    part = f.read_bytes()
    assert part.endswith(b"\n") and 0 < len(part.splitlines()) < 3000
    full = tmp_path / "full.jsonl"
    expected = gin(*common, "--transcripts", str(full))
    assert expected.returncode == 0, expected.stderr
    for where, extra in (("local", ()), ("ray", ("--backend", "ray", "--address", ray_address))):
        copy = tmp_path / f"resumed-{where}.jsonl"
        copy.write_bytes(part)
        res = gin(*common, *extra, "--transcripts", str(copy), "--resume")
        assert res.returncode == 0, res.stderr
        assert res.stdout == expected.stdout, where
        assert copy.read_bytes() == full.read_bytes(), where


VICTIM = '''
import os
import time

from gincli import hookimpl
from gincli_builtin.bots import SimpleBot

MARK = {mark!r}


class Victim(SimpleBot):
    name = "victim"
    description = "simple, but the first process to reach its 2000th decision waits there to be killed"
    decisions = 0

    def choose(self, view):
        Victim.decisions += 1
        if Victim.decisions == 2000:
            try:
                fd = os.open(MARK, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                pass
            else:
                os.write(fd, str(os.getpid()).encode())
                os.close(fd)
                time.sleep(300)
        return super().choose(view)


@hookimpl
def gincli_register_bots(register):
    register(Victim)
'''


def test_a_ray_worker_killed_mid_match_loses_nothing_and_counts_nothing_twice(ray_address, tmp_path):
    """The bot victim makes one Ray worker wait mid-chunk and says which; the test
    kills that worker (SIGKILL); Ray plays its chunk again on another worker, and
    the match is the one an undisturbed local run plays."""
    plugins = tmp_path / "plugins"
    plugins.mkdir()
    mark = tmp_path / "victim.pid"
    (plugins / "victim.py").write_text(VICTIM.format(mark=str(mark)))
    common = ("--plugins-dir", str(plugins), "match", "--bots", "victim,simple", "--hands", "3000", "--seed", "8",
              "--format", "json", "-q")
    f = tmp_path / "ray.jsonl"
    proc = subprocess.Popen([GIN, *on_ray(ray_address, *common, "--transcripts", str(f))], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment(),
                            stdin=subprocess.DEVNULL)
    deadline = time.time() + 300
    pid = ""
    while time.time() < deadline and not pid and proc.poll() is None:
        time.sleep(0.05)
        pid = mark.read_text() if mark.exists() else ""
    assert pid, "no Ray worker reached the victim's 2000th decision"
    title = Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace")
    assert "ray::" in title, title  # a Ray worker, running a task
    os.kill(int(pid), signal.SIGKILL)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    local = tmp_path / "local.jsonl"
    expected = gin(*common, "--workers", "1", "--transcripts", str(local))  # the mark exists: nobody waits
    assert expected.returncode == 0, expected.stderr
    assert out == expected.stdout
    assert f.read_bytes() == local.read_bytes()
    assert json.loads(out)["hands"] == 3000 and len(local.read_bytes().splitlines()) == 3000


def test_an_external_bot_missing_on_the_nodes_is_one_sentence(ray_address, tmp_path):
    """The driver finds the bot's command on its PATH; the Ray workers, started
    without that folder on theirs, do not: one sentence naming the node, at once."""
    folder = tmp_path / "bin"
    folder.mkdir()
    bot = folder / "gincli-test-bot"
    bot.write_text(f"#!{sys.executable}\n" + textwrap.dedent("""
        import json, sys
        for line in sys.stdin:
            m = json.loads(line)
            if m["type"] == "hello":
                print(json.dumps({"type": "ready", "id": m["id"]}), flush=True)
            elif m["type"] == "decide":
                print(json.dumps(dict(m["legal"][0], id=m["id"])), flush=True)
            elif m["type"] == "bye":
                break
        """))
    bot.chmod(0o755)
    path = {"PATH": f"{folder}{os.pathsep}{os.environ.get('PATH', '')}"}
    args = ("match", "--bots", "exec:gincli-test-bot,simple", "--hands", "40", "--seed", "1", "-q")
    assert gin(*args, "--workers", "1", env=path).returncode == 0  # here, it plays
    res = gin(*on_ray(ray_address, *args), env=path)
    line = one_sentence(res)
    assert "cannot run exec:gincli-test-bot: gincli-test-bot is not a program on the PATH or a path" in line
    assert "on the Ray node" in line and "docs/distributed.md" in line
    assert res.stdout == ""


def test_a_bot_shipped_to_the_nodes_with_working_dir_plays_there(ray_address, tmp_path):
    """--backend-option working_dir=DIR: Ray ships the folder to the nodes and the
    tasks run in it, so a bot named relative to it is found (the driver runs
    elsewhere); the match is the one a local run in that folder plays."""
    shipped = tmp_path / "bots"
    shipped.mkdir()
    (shipped / "mybot.py").write_text((ROOT / "examples" / "bot.py").read_text())
    args = ("match", "--bots", "exec:python3 mybot.py,simple", "--games", "2", "--seed", "4", "--format", "json",
            "-q")
    local = gin(*args, "--workers", "1", cwd=shipped)
    assert local.returncode == 0, local.stderr
    res = gin(*on_ray(ray_address, *args, "--backend-option", f"working_dir={shipped}"), cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    assert res.stdout == local.stdout
    assert json.loads(res.stdout)["players"][0]["forfeits"] == 0


def test_a_cluster_out_of_reach_is_one_sentence(tmp_path):
    pytest.importorskip("gincli_ray", reason="pip install ./plugins/gincli-ray (the README's test command does)")
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    f = tmp_path / "t.jsonl"
    res = gin("match", "--bots", "simple,simple", "--hands", "10", "--backend", "ray", "--address",
              f"127.0.0.1:{port}", "--transcripts", str(f))
    line = one_sentence(res)
    assert line.startswith(f"gin: error: cannot reach the Ray cluster at 127.0.0.1:{port}: ")
    assert not f.exists()  # nothing left behind
    res = gin("match", "--bots", "simple,simple", "--hands", "10", "--backend", "ray", "--backend-option",
              "max_retries=many")
    assert one_sentence(res) == \
        'gin: error: --backend-option: max_retries must be a whole number, 0 or more, not "many"'
