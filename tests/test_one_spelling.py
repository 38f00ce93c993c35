"""One spelling for one thing, across commands and formats: every integer
option refuses a non-number and a value out of its range in the same words;
seeds are 0 to 2^64 - 1 everywhere (command line and config.toml); a record's
``source`` is FILE:LINE in every command and container; a session's winners
are names, never a team's index, outside the transcript's own result."""

from __future__ import annotations

import csv
import io
import json

import pytest

from gincli.cli.options import SEED_MAX, WholeNumber


def integer_options():
    """(command path, option, low, high) for every option of every gincli
    command that takes a whole number."""
    import typer

    from gincli.cli import make_app
    from gincli.cli.app import COMMANDS

    group = typer.main.get_command(make_app())
    ctx = group.make_context("gin", ["--help"], resilient_parsing=True)
    found = []

    def visit(path, command):
        for p in command.params:
            if p.type.name in ("integer", "int", "integer range", "int range", "whole number"):
                found.append((path, p))
        for name, sub in getattr(command, "commands", {}).items():
            visit((*path, name), sub)

    visit((), group)
    for name in COMMANDS:
        visit((name,), group.get_command(ctx, name))
    return found


INTEGER_OPTIONS = integer_options()


def _id(item):
    path, p = item
    return " ".join(("gin", *path, p.opts[0]))


def test_the_integer_options_are_those_expected():
    names = {(" ".join(path), next(o for o in p.opts if o.startswith("--"))) for path, p in INTEGER_OPTIONS}
    for expected in [("score", "--workers"), ("validate", "--workers"), ("deal", "--seed"), ("play", "--seed"),
                     ("match", "--seed"), ("match", "--hands"), ("match", "--games"), ("match", "--workers"),
                     ("match", "--max-forfeits"), ("match", "--max-hands"), ("tournament", "--seed"),
                     ("tournament", "--gauntlet"), ("tournament", "--hands"), ("tournament", "--games"),
                     ("tournament", "--workers"), ("tournament", "--max-forfeits"), ("tournament", "--max-hands"),
                     ("play", "--max-forfeits")]:
        assert expected in names, expected
    # one type for all, so that config.toml refuses 1.5 for each as the command line does
    assert [_id(item) for item in INTEGER_OPTIONS if item[1].type.name != "whole number"] == []


def _hint(param) -> str:
    return " / ".join(f"'{o}'" for o in param.opts)


@pytest.mark.parametrize("item", INTEGER_OPTIONS, ids=_id)
@pytest.mark.parametrize("value", ["x", "1.5", "", "0x10"])
def test_a_non_number_is_refused_in_one_sentence(run, item, value):
    path, param = item
    res = run(*path, param.opts[0], value)
    assert res.exit_code == 2, res.stderr
    assert res.stderr == (f"gin: error: invalid value for {_hint(param)}: {value!r} is not a whole number; "
                          f"see '{' '.join(('gin', *path))} --help'\n")


def _bounds(param) -> tuple[int, int | None]:
    assert isinstance(param.type, WholeNumber) or param.type.name in ("integer range", "int range"), param.type
    return param.type.min, param.type.max


@pytest.mark.parametrize("item", INTEGER_OPTIONS, ids=_id)
def test_a_number_out_of_range_is_refused_in_one_sentence(run, item):
    path, param = item
    low, high = _bounds(param)
    see = f"see '{' '.join(('gin', *path))} --help'"
    for value in [low - 1] + ([high + 1] if high is not None else []):
        res = run(*path, param.opts[0], str(value))
        assert res.exit_code == 2, res.stderr
        why = f"{value} is not between {low} and {high}" if high is not None else f"{value} must be at least {low}"
        assert res.stderr == f"gin: error: invalid value for {_hint(param)}: {why}; {see}\n"


@pytest.mark.parametrize("item", [i for i in INTEGER_OPTIONS if i[1].opts[0] == "--seed"], ids=_id)
def test_seeds_are_0_to_2_to_the_64_minus_1(run, item):
    path, param = item
    assert _bounds(param) == (0, SEED_MAX) == (0, 18446744073709551615)
    for value in ("-1", "18446744073709551616", "-18446744073709551615"):
        res = run(*path, "--seed", value)
        assert res.exit_code == 2 and "is not between 0 and 18446744073709551615" in res.stderr, res.stderr


def test_the_seeds_at_both_ends_deal(run):
    first = run("deal", "--seed", "0", "-f", "json")
    last = run("deal", "--seed", str(SEED_MAX), "-f", "json")
    assert first.exit_code == last.exit_code == 0, first.stderr + last.stderr
    assert json.loads(last.stdout)["seed"] == SEED_MAX
    assert json.loads(first.stdout)["hands"] != json.loads(last.stdout)["hands"]


@pytest.mark.parametrize("value,why", [("-1", "-1 is not between 0 and 18446744073709551615"),
                                       ("1.5", "1.5 is not a whole number"), ('"7"', None), ("7", None)])
def test_a_seed_in_config_toml_is_held_to_the_same_range(run, tmp_path, value, why):
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text(f"[deal]\nseed = {value}\n")
    res = run("deal", "-f", "json")
    if why is None:
        assert res.exit_code == 0 and json.loads(res.stdout)["seed"] == 7, res.stderr
    else:
        assert res.exit_code == 2
        assert res.stderr == \
            f"gin: error: the config file {config / 'config.toml'}: [deal] seed is not accepted: {why}\n"


# -- source: FILE:LINE, the line the record starts on, in every container ---------------------------

GOOD_HAND = {"hands": {"ann": ["7s", "7h", "7d", "Ts", "Js", "Qs", "Ks", "As", "2c", "5d"],
                       "bob": ["Kh", "Kd", "Kc", "Ac", "2h", "4c", "5h", "6c", "8d", "9s"]}, "knocker": "ann"}


def _sources(text: str) -> list[str]:
    return [row["source"] for row in csv.DictReader(io.StringIO(text))]


def test_score_names_each_record_by_file_and_line_in_every_container(run, tmp_path):
    hand = json.dumps(GOOD_HAND)
    (tmp_path / "h.jsonl").write_text(f"{hand}\n\n{hand}\n")
    (tmp_path / "h.json").write_text(f"[\n  {hand},\n\n  {json.dumps(GOOD_HAND, indent=1)},\n  {hand}\n]\n")
    (tmp_path / "one.json").write_text(f"\n\n{json.dumps(GOOD_HAND, indent=2)}\n")
    toml_hand = ('knocker = "ann"\n[records.hands]\n'
                 'ann = ["7s", "7h", "7d", "Ts", "Js", "Qs", "Ks", "As", "2c", "5d"]\n'
                 'bob = ["Kh", "Kd", "Kc", "Ac", "2h", "4c", "5h", "6c", "8d", "9s"]\n')
    (tmp_path / "h.toml").write_text(f"# hands\n[[records]]\n{toml_hand}\n[[records]]\n{toml_hand}")
    third = 4 + len(json.dumps(GOOD_HAND, indent=1).splitlines())  # after the second, spread over lines
    expected = {"h.jsonl": [1, 3], "h.json": [2, 4, third], "one.json": [3], "h.toml": [2, 8]}
    for name, lines in expected.items():
        res = run("score", "-f", "csv", "-q", str(tmp_path / name))
        assert res.exit_code == 0, res.stderr
        assert _sources(res.stdout) == [f"{tmp_path / name}:{n}" for n in lines], name
    res = run("score", "-f", "csv", "-q", "-", input=(tmp_path / "h.json").read_text())
    assert _sources(res.stdout) == ["<stdin>:2", "<stdin>:4", f"<stdin>:{third}"]


def test_a_records_error_is_named_by_the_same_source(run, tmp_path):
    (tmp_path / "bad.json").write_text(f'[\n{json.dumps(GOOD_HAND)},\n{{"id": "b", "hands": {{}}}},\n3\n]\n')
    res = run("score", "-f", "csv", "-q", str(tmp_path / "bad.json"))
    assert res.exit_code == 1 and _sources(res.stdout) == [f"{tmp_path / 'bad.json'}:{n}" for n in (2, 3, 4)]
    res = run("score", str(tmp_path / "bad.json"))  # for people, on stderr: the same name
    assert f"gin: error: {tmp_path / 'bad.json'}:3 (b): " in res.stderr
    assert f"gin: error: {tmp_path / 'bad.json'}:4: record 3 is not an object" in res.stderr


def test_validate_names_each_transcript_like_score(run, tmp_path):
    from conftest import ROOT

    game = ROOT / "examples" / "game.json"
    res = run("validate", "-f", "csv", "-q", str(game))
    assert res.exit_code == 0 and _sources(res.stdout) == [f"{game}:1"]
    lines = [json.dumps(json.loads(game.read_text()))] * 2
    (tmp_path / "t.jsonl").write_text("\n".join(["", *lines]) + "\n")
    res = run("validate", "-f", "csv", "-q", str(tmp_path / "t.jsonl"))
    assert _sources(res.stdout) == [f"{tmp_path / 't.jsonl'}:{n}" for n in (2, 3)]
    res = run("validate", "--brief", str(game))
    assert res.exit_code == 0


# -- winners: names, never a team's index ------------------------------------------------------------

def _rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_a_partnerships_winner_is_its_teams_names_in_csv_and_text(run):
    from conftest import ROOT

    path = str(ROOT / "examples" / "partnership.json")
    report = json.loads(run("validate", "-f", "json", "-q", path).stdout)
    assert report["result"]["winner"] == 0 and report["result"]["teams"][0] == ["ann", "cat"]  # FORMATS.md's index
    row = _rows(run("validate", "-f", "csv", "-q", path).stdout)[0]
    assert row["winner"] == "ann & cat"
    assert "won by ann & cat" in run("validate", path).stdout


def test_chouettes_winner_is_names_not_a_role(run):
    from conftest import ROOT

    path = str(ROOT / "examples" / "chouette.json")
    report = json.loads(run("validate", "-f", "json", "-q", path).stdout)
    row = _rows(run("validate", "-f", "csv", "-q", path).stdout)[0]
    result = report["result"]
    expected = [result["box"]] if result["winner"] == "box" else [p for p in result["scores"] if p != result["box"]]
    assert row["winner"] == " & ".join(expected) and row["winner"] not in ("box", "partners")


def test_a_matchs_csv_names_the_winning_team(run):
    res = run("match", "--bots", "simple,random,simple,random", "--players", "ann,bob,cat,dan", "--scoring",
              "partnership", "--games", "2", "--seed", "1", "-f", "csv", "-q")
    assert res.exit_code == 0, res.stderr
    for row in _rows(res.stdout):
        won = [p for p in ("ann", "bob", "cat", "dan") if int(row[f"score_{'abcd'.index(p[0]) + 1}"]) > 0]
        assert row["winner"] == " & ".join(won) and len(won) == 2, row
