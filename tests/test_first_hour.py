"""What a newcomer meets in the first hour (issue 19): one sentence for a
forgotten file, screens that fit, results for a spreadsheet, summaries of
many records, play sessions that go on, the same outcome whatever the split
of the work, progress and headlines that tell the truth, completion of names,
and words that say what they mean."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("command, what", [("score", "hand records"), ("validate", "transcripts"),
                                           ("report", "the transcripts of a match or a tournament")])
def test_a_forgotten_file_is_one_sentence_saying_how_to_give_it(run, command, what):
    res = run(command)
    assert res.exit_code == 2
    lines = res.stderr.splitlines()
    assert lines == [f"gin: error: gin {command} needs {what} to read: give one or more files, or - for standard "
                     f"input (gin {command} --help says more)"]
    assert res.stdout == ""


def test_gin_play_fits_80_columns_whatever_the_bot_and_the_name(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    gin = str(Path(sys.executable).with_name("gin"))
    bot = f"exec:{sys.executable} {root / 'examples' / 'bot.py'} --some-long-option-for-the-bot"
    res = subprocess.run([gin, "play", "--seed", "1", "--name", "Maximilian-Alexander von Gin-Rummy", "--bot", bot,
                          "--transcript", str(tmp_path / "t.json")], input="s\n1\nq\n", capture_output=True,
                         text=True, cwd=tmp_path, timeout=120, env={**__import__("os").environ,
                                                                      "GINCLI_CONFIG_DIR": str(tmp_path / "c")})
    assert res.returncode == 0, res.stderr
    lines = res.stdout.splitlines()
    rules = [i for i, line in enumerate(lines) if line and set(line) == {"─"}]
    # each screen's table, between a pair of rules (an odd one left over is no table)
    table = [line for a, b in zip(rules[::2], rules[1::2], strict=False) for line in lines[a:b + 1]]
    assert table
    assert max(len(line) for line in table) <= 80, max(table, key=len)
    assert any(line.startswith("external (bot.py)") for line in lines)
    for i, line in enumerate(lines):  # the positions stand under their cards
        if line.startswith("you (") and i + 1 < len(lines):
            numbers = lines[i + 1]
            ends = [j + 1 for j, ch in enumerate(line) if ch in "♠♥♦♣"]
            number_ends = [j + 1 for j, ch in enumerate(numbers) if ch.isdigit() and
                           (j + 1 == len(numbers) or not numbers[j + 1].isdigit())]
            assert number_ends and set(number_ends) <= set(ends), (line, numbers)


def test_the_match_table_shortens_an_external_bot_to_its_program():
    from gincli.cli.render import bot_label, player_label

    assert bot_label("exec:python3 examples/bot.py") == "bot.py"
    assert bot_label("exec:/opt/engines/deep --threads 4") == "deep"
    assert bot_label("expert:samples=40", 22) == "expert:samples=40"
    assert bot_label("expert:samples=40") == "expert:samples=…"
    assert len(player_label("a" * 60, "exec:python3 " + "b" * 60 + ".py", 24)) == 24


# -- results for a spreadsheet ---------------------------------------------------------------------

def _csv(data: bytes) -> list[dict[str, str]]:
    """Rows as a strict RFC 4180 reader (and so a spreadsheet) reads them: UTF-8, CRLF line ends, one header."""
    import csv
    import io

    text = data.decode("utf-8")
    assert text.endswith("\r\n") and "\n" not in text.replace("\r\n", "")
    rows = list(csv.reader(io.StringIO(text, newline=""), strict=True))
    header, body = rows[0], rows[1:]
    assert all(len(r) == len(header) for r in body)
    return [dict(zip(header, r, strict=True)) for r in body]


def test_gin_score_writes_a_row_a_hand_with_errors_in_their_place(run, tmp_path):
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    res = run("score", "--format", "csv", str(root / "examples" / "hands.jsonl"),
              str(root / "examples" / "bad-hands.jsonl"))
    assert res.exit_code == 1
    rows = _csv(res.stdout_bytes)
    assert len(rows) == 11
    first = rows[0]
    assert (first["id"], first["outcome"], first["winner"], first["points"], first["knocker_deadwood"],
            first["defender_deadwood"], first["layoffs"]) == ("knock", "knock", "ann", "18", "8", "26", "9s")
    typo = next(r for r in rows if r["id"] == "typo")
    assert typo["outcome"] == "" and typo["error"].startswith('unknown card "5x"')  # quotes doubled, read back whole
    assert rows[-1]["source"].endswith("bad-hands.jsonl:6") and "not valid JSON" in rows[-1]["error"]


def test_gin_validate_and_match_and_report_write_a_row_each(run, tmp_path):
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    t = tmp_path / "t.jsonl"
    played = run("match", "--bots", "simple,random", "--games", "3", "--seed", "1", "--format", "csv",
                 "--transcripts", str(t), "-q")
    assert played.exit_code == 0
    sessions = _csv(played.stdout_bytes)
    assert [r["session"] for r in sessions] == ["s0", "s1", "s2"]
    assert all(r["player_1"] == "simple" and r["winner"] == "simple" and r["player_3"] == "" for r in sessions)
    reported = run("report", str(t), "--format", "csv", "--output", str(tmp_path / "r.html"), "-q") \
        if __import__("importlib").util.find_spec("plotly") else None
    if reported is not None:
        assert _csv(reported.stdout_bytes) == sessions  # the same rows from the transcripts
    checked = run("validate", "--format", "csv", str(t), str(root / "examples" / "faulty.json"))
    rows = _csv(checked.stdout_bytes)
    assert [r["valid"] for r in rows] == ["true", "true", "true", "false"]
    assert rows[-1]["rule"] == "discard-drawn-upcard" and rows[-1]["error_move"] == "5"
    assert [r["score_1"] for r in rows[:3]] == [r["score_1"] for r in sessions]


def test_csv_and_transcripts_on_stdout_are_refused_together(run):
    res = run("match", "--bots", "simple,random", "--games", "1", "--format", "csv", "--transcripts", "-")
    assert res.exit_code == 2 and "--format csv writes a row a session" in res.stderr


# -- a play session is no dead end ---------------------------------------------------------------

def _play(tmp_path, *args, input="q\n"):
    import os
    import subprocess
    import sys
    from pathlib import Path

    gin = str(Path(sys.executable).with_name("gin"))
    env = {**os.environ, "GINCLI_CONFIG_DIR": str(tmp_path / "c"), "GINCLI_DATA_DIR": str(tmp_path / "d")}
    return subprocess.run([gin, "play", *args], input=input, capture_output=True, text=True, cwd=tmp_path, env=env,
                          timeout=120)


def test_a_quit_session_goes_on_with_resume_to_the_same_end_as_one_played_through(tmp_path):
    import json

    moves = "s\n1\n" * 60  # draw from the stock and throw the first card, whatever comes
    whole = _play(tmp_path, "--seed", "11", "--name", "ann", "--bot", "simple", "--transcript", "whole.json",
                  input=moves + "q\n")
    assert whole.returncode == 0, whole.stderr
    first = _play(tmp_path, "--seed", "11", "--name", "ann", "--bot", "simple", "--transcript", "part.json",
                  input="s\n1\n" * 5 + "q\n")
    assert first.returncode == 0, first.stderr
    part = json.loads((tmp_path / "part.json").read_text())
    assert part["play"] == {"human": "ann", "bots": {"simple": "simple"}, "dealer": None}
    rest = _play(tmp_path, "--resume", "--transcript", "part.json", input="s\n1\n" * 55 + "q\n")
    assert rest.returncode == 0, rest.stderr
    assert "going on from the transcript" in rest.stdout
    went_on = json.loads((tmp_path / "part.json").read_text())
    played = json.loads((tmp_path / "whole.json").read_text())
    assert went_on["hands"] == played["hands"]  # the same deals, the same moves: the same session
    for f in ("part.json", "whole.json"):
        from gincli.plugin.registry import load_registry
        from gincli.replay.validate import validate

        assert validate(json.loads((tmp_path / f).read_text()), load_registry()).valid


@pytest.mark.parametrize("setup, args, said", [
    (None, ["--resume"], "--resume needs --transcript FILE"),
    ("play", ["--resume", "--transcript", "g.json", "--bot", "expert"], "leave out --bot"),
    ("match", ["--resume", "--transcript", "g.jsonl"], "is not a session of gin play"),
    ("junk", ["--resume", "--transcript", "g.json"], "does not hold one transcript of gin play"),
])
def test_resume_refuses_what_it_cannot_go_on_with(tmp_path, setup, args, said):
    import subprocess
    import sys
    from pathlib import Path

    if setup == "play":
        _play(tmp_path, "--seed", "1", "--bot", "simple", "--transcript", "g.json")
    elif setup == "match":
        subprocess.run([str(Path(sys.executable).with_name("gin")), "match", "--bots", "simple,random", "--games",
                        "1", "--transcripts", str(tmp_path / "g.jsonl"), "-q"], check=True, capture_output=True)
    elif setup == "junk":
        (tmp_path / "g.json").write_text("[1, 2]")
    res = _play(tmp_path, *args)
    assert res.returncode == 2 and said in res.stderr and "Traceback" not in res.stderr


def test_gin_report_draws_a_played_session(tmp_path):
    import importlib.util
    import json

    if importlib.util.find_spec("plotly") is None:
        pytest.skip("gincli[report] is not installed")
    _play(tmp_path, "--seed", "3", "--name", "ann", "--bot", "simple", "--transcript", "g.json",
          input="s\n1\n" * 40 + "q\n")
    from typer.testing import CliRunner

    from gincli.cli import make_app

    res = CliRunner().invoke(make_app(), ["report", str(tmp_path / "g.json"), "--output", str(tmp_path / "g.html"),
                                          "-f", "json"])
    assert res.exit_code == 0, res.stderr
    summary = json.loads(res.stdout)
    assert summary["sessions"] == 1 and [p["bot"] for p in summary["players"]] == ["you", "simple"]
    assert "<html" in (tmp_path / "g.html").read_text()


# -- the same outcome whatever the split of the work ------------------------------------------------

@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_bot_that_cannot_start_stops_the_match_whatever_the_workers(tmp_path, workers):
    import subprocess
    import sys
    from pathlib import Path

    bot = tmp_path / "nostart.py"
    bot.write_text("import sys\nprint('loading model... failed: CUDA not found', file=sys.stderr)\nsys.exit(1)\n")
    gin = str(Path(sys.executable).with_name("gin"))
    res = subprocess.run([gin, "match", "--bots", f"exec:{sys.executable} {bot},simple", "--games", "2", "--seed",
                          "1", "--workers", workers, "-q"], capture_output=True, text=True, timeout=120,
                         cwd=tmp_path)
    assert res.returncode == 2, res.stderr
    *summary, line = res.stderr.splitlines()  # what was played, for people, then the stop
    assert any("forfeit" in s for s in summary) and line.startswith("gin: error: ")
    assert "failed to start 3 times in a row" in line
    assert line.count("CUDA not found") == 1  # a line each start wrote again, quoted once


# -- a hand match ranks by what it measures ----------------------------------------------------------

@pytest.mark.parametrize("duplicate", [False, True])
def test_a_hand_match_leads_with_the_points_a_hand_and_their_interval(run, duplicate):
    import json

    args = ["match", "--bots", "expert,simple", "--hands", "60", "--seed", "3", "-q"] + (["--duplicate"] if duplicate
                                                                                         else [])
    summary = json.loads(run(*args, "-f", "json").stdout)
    pp = summary["points_per_hand"]
    players = {p["name"]: p for p in summary["players"]}
    net = (players["expert"]["points"] - players["simple"]["points"]) / summary["hands"]
    assert pp["player"] == "expert" and abs(pp["diff"] - net) < 0.006  # the mean margin is the net points a hand
    assert pp["low"] < pp["diff"] < pp["high"]
    assert pp["samples"] == (30 if duplicate else 60)
    text = run(*args).stdout.splitlines()
    headline = next(i for i, line in enumerate(text) if "points a hand" in line)
    share = next(i for i, line in enumerate(text) if "of hands" in line)
    assert headline < share and f"expert nets {pp['diff']:+.2f} points a hand" in text[headline]


# -- completion of names -----------------------------------------------------------------------------

def _complete(tmp_path, shell: str, words: str, cword: int | None = None) -> str:
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = {**os.environ, "GINCLI_CONFIG_DIR": str(tmp_path / "c"), "_GIN_COMPLETE": f"complete_{shell}"}
    if shell == "bash":
        env.update(COMP_WORDS=words, COMP_CWORD=str(cword if cword is not None else len(words.split()) - 1))
    else:
        env["_TYPER_COMPLETE_ARGS"] = words
        if shell == "fish":
            env["_TYPER_COMPLETE_FISH_ACTION"] = "get-args"
    res = subprocess.run([str(Path(sys.executable).with_name("gin"))], env=env, capture_output=True, text=True,
                         timeout=60, cwd=tmp_path)
    assert res.returncode == 0 and res.stderr == "", res.stderr
    return res.stdout


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_names_complete_in_every_shell(tmp_path, shell):
    out = _complete(tmp_path, shell, "gin match --scoring c")
    assert "chouette" in out and "cutthroat" in out and "game" not in out
    assert "expert,simple" in _complete(tmp_path, shell, "gin match --bots expert,si")
    assert "oklahoma" in _complete(tmp_path, shell, "gin play --variant ok")


def test_options_bots_files_and_variant_files_complete(tmp_path):
    (tmp_path / "mine.toml").write_text('name = "mine"\nbase = "standard"\n')
    (tmp_path / "bots.toml").write_text('[bots.deep]\ncommand = "true"\n')
    assert _complete(tmp_path, "bash", "gin score --option big_").split() == ["big_gin_bonus="]
    assert _complete(tmp_path, "bash", "gin score -o spade_doubles=").split() == ["spade_doubles=true",
                                                                                 "spade_doubles=false"]
    assert "mine.toml" in _complete(tmp_path, "bash", "gin deal --variant mi").split()
    assert "deep" in _complete(tmp_path, "bash", "gin match --bots-file bots.toml --bots d").split()
    # where a file goes, nothing: the shell completes files itself (bash -o default, zsh _files, fish)
    assert _complete(tmp_path, "bash", "gin score mi").split() == []


# -- words -----------------------------------------------------------------------------------------------

def test_gin_deal_help_points_to_the_docs_a_user_has(run):
    out = " ".join(run("deal", "--help").stdout.split())
    assert "docs/formats.md" in out and "(FORMATS.md)" not in out


def test_a_claimed_session_result_that_differs_is_said_plainly(run, tmp_path):
    import json

    f = tmp_path / "claim.json"
    f.write_text(json.dumps({"format": "gincli-transcript/1", "players": ["ann", "bob"], "hands": [],
                             "result": {"scores": {"ann": 5, "bob": 0}}}))
    for args in ([], ["--brief"]):
        out = run("validate", *args, str(f)).stdout
        assert "the session's result claims scores" in out and "the transcript the session" not in out
        assert "the transcript: the session" not in out


def test_an_input_gin_play_does_not_understand_is_said_so(tmp_path):
    res = _play(tmp_path, "--seed", "1", "--name", "ann", "--bot", "simple", "--transcript", "g.json",
                input="s\nzz\nq\n")
    assert '"zz" is not understood; draw first' in " ".join(res.stdout.split())


def test_pads_say_what_they_hold():
    from gincli.cli.render import rendered
    from gincli.cli.sheets import game_pad, games_table

    empty = rendered(game_pad({"hands": [], "winner": None}, ["ann", "bob"], "game"))
    assert "no points yet" in empty and "in play: no winner yet" in empty and "open" not in empty
    games = [{"hands": [("ann", 9), ("bob", 6)], "winner": None}, {"hands": [("ann", 9)], "winner": None},
             {"hands": [], "winner": None}]
    hollywood = rendered(games_table(games, ["ann", "bob"], "hollywood"))
    body = [line for line in hollywood.splitlines() if line.startswith("│")]
    assert body and not any(line.split("│")[1].strip().isdigit() for line in body)  # entries, not hand numbers


def test_a_declined_double_shows_its_arithmetic(run, tmp_path):
    import json

    f = tmp_path / "d.jsonl"
    f.write_text(json.dumps({"id": "d", "outcome": "declined", "offerer": "ann", "options": {"doubling": True},
                             "hands": {"ann": "7s 7h 7d Ts Js Qs Ks As 2c 5d".split(),
                                       "bob": "Kh Kd Kc 9s Ac 2h 4c 5h 6c 8d".split()}}) + "\n")
    out = run("score", "--variant", "doubling", str(f)).stdout
    assert "bob declined ann's double: 10 (decline bonus) + 35 − 8 (the deadwood difference) = 37" in out
