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
                     ("tournament", "--workers"), ("tournament", "--max-forfeits"), ("tournament", "--max-hands")]:
        assert expected in names, expected


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
        assert res.stderr == f"gin: error: the config file {config / 'config.toml'}: [deal] seed is not accepted: {why}\n"
