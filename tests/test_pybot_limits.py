"""Python bots of the API (docs/api.md) under ``time_limit``, as external bots
are: a decision past it forfeits the hand and the match goes on; a bot that
keeps hanging stops the match as ``max_forfeits`` says; a ``sys.exit()`` in a
bot is its forfeit, never the caller's end; Ctrl-C still ends the caller.

Each match runs in a Python process of its own, so that a thread left hanging
goes with it, and a caller that did not survive shows as its exit status."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import ROOT

PRELUDE = """
import json, sys, threading, time
import gincli
from gincli.base.errors import GinError, UsageError


def hang(view, legal):
    time.sleep(3600)


def reasons(result):
    return [(g["player"], g["reason"], g["count"]) for g in result.summary["forfeit_reasons"]]


def say(**fields):
    print(json.dumps(fields), flush=True)
"""


def python(tmp_path, code: str, timeout: float = 120) -> subprocess.CompletedProcess:
    script = tmp_path / "caller.py"
    script.write_text(PRELUDE + textwrap.dedent(code))
    env = {"PATH": "/usr/bin:/bin", "GINCLI_CONFIG_DIR": str(tmp_path / "config"), "PYTHONIOENCODING": "utf-8"}
    return subprocess.run([sys.executable, str(script)], capture_output=True, text=True, cwd=ROOT, env=env,
                          timeout=timeout)


def said(res: subprocess.CompletedProcess) -> dict:
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    return json.loads(res.stdout.splitlines()[-1])


@pytest.mark.parametrize("workers", [1, 2])
def test_a_hanging_callable_forfeits_each_hand_past_the_time_limit_and_the_match_finishes(tmp_path, workers):
    out = said(python(tmp_path, f"""
        result = gincli.play_match([hang, "simple"], hands=4, seed=3, workers={workers}, time_limit=0.2,
                                   max_forfeits=0)
        say(hands=result.summary["hands"], forfeits=result.summary["players"][0]["forfeits"],
            reasons=reasons(result), valid=[gincli.validate(t)["valid"] for t in result.transcripts],
            forfeiters=[t["hands"][0]["forfeit"]["player"] for t in result.transcripts])
        """))
    assert out["hands"] == 4 and out["forfeits"] == 4 and out["forfeiters"] == ["hang"] * 4
    assert out["valid"] == [True] * 4
    # the first decision in each process that plays ran out of time; the next ones found the bot still in it
    first, busy = "did not answer within 0.2 s", "did not answer within 0.2 s (it was still busy with an earlier " \
                                                 "call past its time)"
    counts = {r: n for _, r, n in out["reasons"]}
    assert set(counts) <= {first, busy} and 1 <= counts[first] <= workers


def test_a_late_answer_is_discarded_and_the_bot_plays_on_with_its_state_shared(tmp_path):
    out = said(python(tmp_path, """
        from gincli_builtin.bots import SimpleBot

        released = threading.Event()


        class Slow:
            # its first decision waits until hand 1 is over (forfeited): past the limit, then it answers
            def __init__(self):
                self.calls = 0
                self.threads = set()

            def __call__(self, view, legal):
                self.calls += 1
                self.threads.add(threading.current_thread() is threading.main_thread())
                if self.calls == 1:
                    released.wait(60)
                return legal[0]


        class Releaser(SimpleBot):
            name = "releaser"

            def hand_over(self, view, result):  # hand 1 is over: forfeited by Slow
                released.set()


        slow = Slow()
        result = gincli.play_match([slow, Releaser(None)], hands=3, seed=5, workers=1, time_limit=2)
        hands = [t["hands"][0] for t in result.transcripts]
        say(reasons=reasons(result), first=hands[0].get("forfeit"), moves=len(hands[0]["moves"]),
            later=[h.get("forfeit") for h in hands[1:]], calls=slow.calls, main=sorted(slow.threads),
            released=released.is_set())
        """))
    assert out["first"] == {"player": "Slow", "reason": "did not answer within 2 s"}
    assert out["later"] == [None, None] and out["reasons"] == [["Slow", "did not answer within 2 s", 1]]
    assert out["released"] and out["calls"] > 2  # the object is the caller's: its count is seen here
    assert out["main"] == [False]  # under a time limit it is called on a thread of its own


def test_without_a_time_limit_a_python_bot_is_called_in_the_callers_thread(tmp_path):
    out = said(python(tmp_path, """
        seen = set()


        def first(view, legal):
            seen.add(threading.current_thread() is threading.main_thread())
            return legal[0]


        before = threading.active_count()
        result = gincli.play_match([first, "simple"], hands=2, seed=1, workers=1)
        say(main=sorted(seen), threads=threading.active_count() - before, reasons=reasons(result))
        """))
    assert out == {"main": [True], "threads": 0, "reasons": []}


def test_a_timed_bot_runs_on_a_thread_of_its_own_that_ends_with_its_match(tmp_path):
    out = said(python(tmp_path, """
        seen = set()


        def first(view, legal):
            seen.add(threading.current_thread().name)
            return legal[0]


        before = threading.active_count()
        result = gincli.play_match([first, "simple"], hands=3, seed=1, workers=1, time_limit=5)
        deadline = time.monotonic() + 60
        while threading.active_count() > before and time.monotonic() < deadline:
            time.sleep(0.01)
        say(seen=sorted(seen), left=threading.active_count() - before, reasons=reasons(result))
        """))
    assert out == {"seen": ["gincli Python bot"], "left": 0, "reasons": []}


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bot_that_keeps_hanging_stops_the_match_as_max_forfeits_says(tmp_path, workers):
    out = said(python(tmp_path, f"""
        try:
            gincli.play_match([hang, "simple"], hands=30, seed=2, workers={workers}, time_limit=0.1,
                              max_forfeits=3)
            say(stopped=None)
        except UsageError as exc:
            say(stopped=exc.message)
        """))
    assert out["stopped"].startswith("hang (hang) forfeited 3 hands in a row, so the match stops (--max-forfeits 3)")
    assert "session 1 hand 1" in out["stopped"] and "did not answer within 0.1 s" in out["stopped"]


class Sleeper:
    code = """
        class Sleeper(gincli.Bot):
            name = "sleeper"

            def __init__(self):
                super().__init__(None)
                self.told = 0

            def choose(self, view):
                time.sleep(3600)

            def hand_over(self, view, result):
                self.told += 1
        """


def test_a_bot_subclass_whose_choose_sleeps_forfeits_every_hand_and_the_match_finishes(tmp_path):
    out = said(python(tmp_path, Sleeper.code + """
        bot = Sleeper()
        result = gincli.play_match([bot, "random"], hands=3, seed=4, workers=1, time_limit=0.3)
        say(reasons=reasons(result), hands=result.summary["hands"], told=bot.told,
            valid=all(gincli.validate(t)["valid"] for t in result.transcripts))
        """))
    assert out["hands"] == 3 and out["valid"]
    # hand 1 ran out of time; the bot stays asleep in it, so hand 2 finds it busy, and so on
    assert out["reasons"][0] == ["sleeper", "did not answer within 0.3 s", 1]
    assert all(r.startswith("did not answer within 0.3 s") for _, r, _ in out["reasons"])
    assert out["told"] == 0  # hand_over waits behind the sleeping decision: never told here


@pytest.mark.parametrize("limit", ["None", "0.5"])
def test_sys_exit_in_a_bot_is_its_forfeit_and_the_caller_goes_on(tmp_path, limit):
    out = said(python(tmp_path, f"""
        def quitter(view, legal):
            sys.exit(5)


        class Leaver(gincli.Bot):
            name = "leaver"

            def choose(self, view):
                raise SystemExit("bye")


        class Odd(BaseException):
            pass


        def odd(view, legal):
            raise Odd("not an Exception")


        got = []
        for bot in (quitter, Leaver(None), odd):
            got += reasons(gincli.play_match([bot, "simple"], hands=2, seed=1, workers=1, time_limit={limit}))
        say(reasons=got)
        """))
    assert out["reasons"] == [["quitter", "the bot quitter called sys.exit(5)", 2],
                              ["leaver", "called sys.exit('bye')", 2],
                              ["odd", "the bot odd raised Odd: not an Exception", 2]]


@pytest.mark.parametrize("limit", ["None", "0.5"])
def test_a_failing_hand_over_stops_the_match_with_a_sentence_naming_the_bot(tmp_path, limit):
    out = said(python(tmp_path, f"""
        class Deaf(gincli.Bot):
            name = "deaf"

            def choose(self, view):
                return view.legal()[0]

            def hand_over(self, view, result):
                sys.exit(7)


        try:
            gincli.play_match([Deaf(None), "simple"], hands=2, seed=1, workers=1, time_limit={limit})
            say(stopped=None)
        except GinError as exc:
            say(stopped=exc.message)
        """))
    assert out["stopped"] == "the bot deaf's hand_over called sys.exit(7) (at hand 1 of session s0)"


@pytest.mark.parametrize("limit", ["None", "0.5"])
def test_a_keyboard_interrupt_raised_by_a_bot_still_ends_the_caller(tmp_path, limit):
    res = python(tmp_path, f"""
        def stop(view, legal):
            raise KeyboardInterrupt


        try:
            gincli.play_match([stop, "simple"], hands=2, seed=1, workers=1, time_limit={limit})
            say(interrupted=False)
        except KeyboardInterrupt:
            say(interrupted=True)
        """)
    assert said(res) == {"interrupted": True}


def test_ctrl_c_ends_a_caller_waiting_on_a_hanging_timed_bot(tmp_path):
    mark = tmp_path / "asleep"
    script = tmp_path / "caller.py"
    script.write_text(PRELUDE + textwrap.dedent(f"""
        def marked(view, legal):
            open({str(mark)!r}, "w").close()
            time.sleep(3600)


        try:
            gincli.play_match([marked, "simple"], hands=2, seed=1, workers=1, time_limit=600)
            say(interrupted=False)
        except KeyboardInterrupt:
            say(interrupted=True)
        """))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=ROOT, env={"PATH": "/usr/bin:/bin", "GINCLI_CONFIG_DIR": str(tmp_path / "config")})
    deadline = time.monotonic() + 120
    while not mark.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    assert mark.exists(), proc.communicate(timeout=30)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)  # well before the 600 s limit: Ctrl-C ended the wait
    assert proc.returncode == 0 and json.loads(out) == {"interrupted": True}, err


def test_a_time_limit_is_checked_as_the_command_line_checks_it(tmp_path):
    out = said(python(tmp_path, """
        got = []
        for limit in (0, float("nan"), "soon", 1e6):
            try:
                gincli.play_match(["simple", "random"], hands=1, time_limit=limit)
            except UsageError as exc:
                got.append(exc.message)
        say(got=got)
        """))
    assert out["got"] == ["time_limit: 0 is not between 0.01 and 86,400 seconds (a day)",
                          "time_limit: nan is not a number of seconds (give one from 0.01 to 86,400)",
                          "time_limit: \"soon\" is not a number of seconds",
                          "time_limit: 1e+06 is not between 0.01 and 86,400 seconds (a day)"]


SLEEPY_PLUGIN = textwrap.dedent('''
    import time
    from gincli import Bot, hookimpl

    class Sleepy(Bot):
        name = "sleepy"
        description = "answers at once, but never its fifth decision in a process"
        calls = 0

        def choose(self, view):
            type(self).calls += 1
            if type(self).calls == 5:
                time.sleep(3600)
            return view.legal()[0]

    @hookimpl
    def gincli_register_bots(register):
        register(Sleepy)
''')


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_third_party_plugin_bot_obeys_the_time_limit_of_gin_match(tmp_path, workers):
    """A bot class of a plugin (not gincli's own) that hangs at a decision
    forfeits its hand at --time-limit, and the match goes on: the other hands are
    played, the forfeit's reason is the external bot's."""
    from pathlib import Path

    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "sleepy.py").write_text(SLEEPY_PLUGIN)
    gin = str(Path(sys.executable).with_name("gin"))
    res = subprocess.run([gin, "--plugins-dir", str(folder), "match", "--bots", "sleepy,simple", "--hands", "4",
                          "--seed", "3", "--workers", workers, "--time-limit", "0.5", "-q", "-f", "json"],
                         capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout)
    assert summary["hands"] == 4
    sleepy = next(p for p in summary["players"] if p["bot"] == "sleepy")
    assert sleepy["forfeits"] >= 1
    assert any("did not answer within 0.5 s" in r["reason"] for r in summary["forfeit_reasons"])
