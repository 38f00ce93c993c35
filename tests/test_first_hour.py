"""What a newcomer meets in the first hour (issue 19): one sentence for a
forgotten file, screens that fit, results for a spreadsheet, summaries of
many records, play sessions that go on, the same outcome whatever the split
of the work, progress and headlines that tell the truth, completion of names,
and words that say what they mean."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize("command, what", [("score", "hand records"), ("validate", "transcripts"),
                                           ("report", "the transcripts of a match")])
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
    table = [line for a, b in zip(rules[::2], rules[1::2]) for line in lines[a:b + 1]]  # each screen's table
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
    assert bot_label("expert:samples=40", 22) == "expert:samples=40" and bot_label("expert:samples=40") == "expert:samples=…"
    assert len(player_label("a" * 60, "exec:python3 " + "b" * 60 + ".py", 24)) == 24
