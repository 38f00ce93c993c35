"""Property-based fuzzing of every reader (gin score and gin validate inputs:
JSON, JSON Lines, TOML, standard input sniffed) and every renderer for people:
whatever the input, no exit 3, no traceback, no record lost (one output entry
per input record, in order), nothing but printable text on a terminal."""

from __future__ import annotations

import io
import json
import math
import os

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st
from typer.testing import CliRunner

from gincli.cli import make_app

FUZZ = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CARDS = ["As", "Td", "10♥", "Kc", "7s", "7h", "7d", "7c", "Js", "Qs", "Ks", "2c", "5d", "Xx", "", "A"]
NAMES = ["ann", "bob", "\x1b]0;t\x07", "[/]", "[bold]x", "\ud800", "é", "a\nb", ""]

text = st.text(max_size=12) | st.sampled_from(NAMES)
scalars = (st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=True, allow_infinity=True)
           | text)
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
                      max_leaves=12)
hands = st.lists(st.sampled_from(CARDS) | values, max_size=12)


@st.composite
def hand_records(draw):
    """Hand records near the real shape, with anything anywhere."""
    names = draw(st.lists(st.sampled_from(NAMES) | text, min_size=0, max_size=3, unique=True))
    record = {"hands": {n: draw(hands) for n in names}}
    for key, strategy in (("knocker", st.sampled_from(names or ["ann"]) | values),
                          ("upcard", st.sampled_from(CARDS) | values),
                          ("melds", st.dictionaries(st.sampled_from(names or ["ann"]), st.lists(hands, max_size=3))
                           | values),
                          ("layoffs", hands | values),
                          ("variant", st.sampled_from(["standard", "oklahoma", "nope"]) | values),
                          ("extra", values)):
        if draw(st.booleans()):
            record[key] = draw(strategy)
    if draw(st.booleans()):
        record = draw(st.dictionaries(text, values, max_size=3)) | record
    return record


records = st.lists(hand_records() | values, min_size=1, max_size=6)


@pytest.fixture(scope="module")
def gin(tmp_path_factory):
    """Run ``gin`` in-process: (exit status, stdout, stderr)."""
    app = make_app()
    runner = CliRunner()
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GINCLI_CONFIG_DIR", str(tmp_path_factory.mktemp("config")))
        mp.delenv("GINCLI_DEBUG", raising=False)

        def invoke(*args: str, input: bytes | None = None):
            res = runner.invoke(app, list(args), input=input)
            return res.exit_code, res.stdout, res.stderr

        yield invoke


def printable(out: str) -> bool:
    return not any((ord(c) < 32 and c != "\n") or 0x7f <= ord(c) <= 0x9f or 0xd800 <= ord(c) <= 0xdfff for c in out)


def strict(line: str) -> dict:
    def refuse(name):
        raise AssertionError(f"{name} in the output")

    return json.loads(line, parse_constant=refuse)


def jsonl(recs: list) -> bytes:
    # allow_nan: NaN and Infinity are written as the tokens a hostile input holds; lone surrogates as \ud800
    return "".join(json.dumps(r, allow_nan=True) + "\n" for r in recs).encode()


def ids(recs: list) -> list:
    """Give each object record an id of its own: "r<i>"."""
    return [dict(r, id=f"r{i}") if isinstance(r, dict) else r for i, r in enumerate(recs)]


def finite(value) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    if isinstance(value, dict):
        return all(map(finite, value.values()))
    if isinstance(value, list):
        return all(map(finite, value))
    return True


def check_entries(out: str, recs: list) -> None:
    """One strict-JSON entry per record, in order: the record's id where it could be read."""
    lines = out.split("\n")[:-1]  # JSON Lines end at "\n" only; U+0085 or U+2028 may sit in a string
    assert len(lines) == len(recs)
    for rec, line in zip(recs, lines, strict=True):
        entry = strict(line)
        if isinstance(rec, dict) and finite(rec):
            assert entry["id"] == rec["id"]


def check_people(code: int, out: str, err: str) -> None:
    assert code in (0, 1, 2), err
    assert "Traceback" not in out + err
    assert printable(out) and printable(err)


# -- gin score -----------------------------------------------------------------------------------

@FUZZ
@given(records)
def test_score_json_lines_loses_no_record(gin, tmp_path_factory, recs):
    recs = ids(recs)
    path = tmp_path_factory.mktemp("f") / "h.jsonl"
    path.write_bytes(jsonl(recs))
    code, out, err = gin("score", "-f", "json", "--workers", "1", str(path))
    assert code in (0, 1) and "Traceback" not in err
    check_entries(out, recs)


@FUZZ
@given(hand_records(), records)
def test_score_of_standard_input_sniffed_loses_no_record(gin, first, recs):
    recs = ids([first] + recs)  # JSON Lines are told by a first line holding an object
    code, out, err = gin("score", "-f", "json", "--workers", "1", "-", input=jsonl(recs))
    assert code in (0, 1) and "Traceback" not in err
    check_entries(out, recs)


@FUZZ
@given(records)
def test_score_json_array_loses_no_record(gin, tmp_path_factory, recs):
    recs = ids(recs)
    path = tmp_path_factory.mktemp("f") / "h.json"
    path.write_bytes(json.dumps(recs, allow_nan=True).encode())
    code, out, err = gin("score", "-f", "json", "--workers", "1", str(path))
    assert code in (0, 1) and "Traceback" not in err
    check_entries(out, recs)


def tomlable(value):
    """A value TOML can hold: no null, no lone surrogate."""
    if value is None:
        return "null"
    if isinstance(value, str):
        return value.encode("utf-8", "replace").decode()
    if isinstance(value, dict):
        return {tomlable(k): tomlable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [tomlable(v) for v in value]
    return value


@FUZZ
@given(st.lists(hand_records(), min_size=1, max_size=4))
def test_score_toml_loses_no_record(gin, tmp_path_factory, recs):
    import tomli_w

    recs = ids([tomlable(r) for r in recs])
    path = tmp_path_factory.mktemp("f") / "h.toml"
    path.write_text(tomli_w.dumps({"records": recs}), encoding="utf-8")
    code, out, err = gin("score", "-f", "json", "--workers", "1", str(path))
    assert code in (0, 1) and "Traceback" not in err
    check_entries(out, recs)


@FUZZ
@given(records)
def test_score_for_people_counts_every_record_and_prints_only_text(gin, tmp_path_factory, recs):
    path = tmp_path_factory.mktemp("f") / "h.jsonl"
    path.write_bytes(jsonl(recs))
    code, out, err = gin("score", str(path))
    check_people(code, out, err)
    summary = err.splitlines()[-1]
    scored = int(summary.split(": ")[1].split(" hand")[0])
    failed = int(summary.split("; ")[1].split(" record")[0]) if "could not be scored" in summary else 0
    assert scored + failed == len(recs)


@FUZZ
@given(st.binary(max_size=200), st.sampled_from(["h.jsonl", "h.json", "h.toml", "h.txt"]))
def test_any_bytes_are_read_or_refused_in_one_sentence(gin, tmp_path_factory, data, name):
    path = tmp_path_factory.mktemp("f") / name
    path.write_bytes(data)
    for args in (["score", "-f", "json"], ["score"], ["validate", "-f", "json"], ["validate"]):
        code, out, err = gin(*args, "--workers", "1", str(path))
        assert code in (0, 1, 2) and "Traceback" not in out + err
        if code == 2:
            assert len([ln for ln in err.splitlines() if ln.startswith("gin: error:")]) == 1
        assert printable(err)


# -- gin validate --------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dealt(gin):
    code, out, _ = gin("deal", "--seed", "3", "-f", "json")
    return json.loads(out)


MOVES = st.fixed_dictionaries({"player": st.sampled_from(["ann", "bob"]) | values,
                               "action": st.sampled_from(["pass", "draw", "discard", "knock", "layoff"]) | values},
                              optional={"from": st.sampled_from(["stock", "discard"]) | values,
                                        "card": st.sampled_from(CARDS) | values,
                                        "melds": st.lists(hands, max_size=2) | values, "cards": hands | values})


@st.composite
def transcripts(draw, base):
    doc = json.loads(json.dumps(base))
    hand = doc["hands"][0]
    hand["moves"] = draw(st.lists(MOVES | values, max_size=6))
    for key in draw(st.lists(st.sampled_from(["format", "variant", "scoring", "options", "players", "hands",
                                              "result", "dealer", "deck", "deal"]), max_size=2)):
        target = hand if key in ("dealer", "deck", "deal") else doc
        target[key] = draw(values)
    return doc


@FUZZ
@given(st.data())
def test_validate_json_lines_loses_no_transcript(gin, dealt, tmp_path_factory, data):
    first = data.draw(transcripts(dealt))  # JSON Lines on stdin are told by a first line holding an object
    recs = ids([first] + data.draw(st.lists(transcripts(dealt) | values, max_size=3)))
    path = tmp_path_factory.mktemp("f") / "t.jsonl"
    path.write_bytes(jsonl(recs))
    code, out, err = gin("validate", "-f", "json", "--workers", "1", str(path))
    assert code in (0, 1) and "Traceback" not in err
    check_entries(out, recs)
    code, out, err = gin("validate", "-f", "json", "--workers", "1", "-", input=path.read_bytes())
    check_entries(out, recs)


@FUZZ
@given(st.data())
def test_validate_for_people_counts_every_transcript_and_prints_only_text(gin, dealt, tmp_path_factory, data):
    recs = data.draw(st.lists(transcripts(dealt) | values, min_size=1, max_size=4))
    path = tmp_path_factory.mktemp("f") / "t.jsonl"
    path.write_bytes(jsonl(recs))
    code, out, err = gin("validate", str(path))
    check_people(code, out, err)
    assert f"gin validate: {len(recs)} transcript" in err


# -- renderers for people --------------------------------------------------------------------------

def rendered(renderable) -> str:
    from rich.console import Console

    buffer = io.StringIO()
    Console(file=buffer, width=100, highlight=False).print(renderable)
    return buffer.getvalue()


@FUZZ
@given(st.sampled_from(NAMES) | text, st.sampled_from(NAMES) | text, st.lists(text, max_size=3))
def test_the_match_summary_shows_any_names_and_reasons_as_text(a, b, reasons):
    from gincli.cli.summary import render_summary
    from gincli.matches.runner import MatchSpec, Tally

    assume(a != b)
    tally = Tally(MatchSpec((a, b), (a, b), "games", 2, 1, a, "game"))
    for i, reason in enumerate(reasons):
        tally.reasons[(a, reason)] = {"player": a, "reason": reason, "count": i + 1, "first_session_index": i,
                                      "first_hand_index": 0}
    assert printable(rendered(render_summary(tally.summary())))


@FUZZ
@given(st.lists(st.tuples(text, text, text), max_size=3))
def test_listings_show_any_names_as_text(rows):
    from gincli.cli.render import listing

    assert printable(rendered(listing("title", "name", rows, "description", "from")))


@FUZZ
@given(st.sampled_from(NAMES[:-1]) | st.text(min_size=1, max_size=8), st.sampled_from(NAMES[:-1]))
def test_a_deal_shows_any_player_names_as_text(gin, a, b):
    assume(a != b and "," not in a + b and a.strip() and b.strip() and a.strip() != b.strip())
    code, out, err = gin("deal", "--seed", "1", "--players", f"{a},{b}")
    check_people(code, out, err)
    code, out, err = gin("deal", "--seed", "1", "--players", f"{a},{b}", "-f", "json")
    assert code == 0 and strict(out)["players"] == [a.strip(), b.strip()]


@FUZZ
@given(st.sampled_from(NAMES[:-1]) | st.text(min_size=1, max_size=8))
def test_a_match_shows_any_player_names_as_text(gin, a):
    assume("," not in a and a.strip() and a.strip() != "other")
    code, out, err = gin("match", "--bots", "random,random", "--hands", "2", "--workers", "1", "--names",
                         f"{a},other")
    check_people(code, out, err)


def test_the_fuzz_tests_run_in_process():
    assert os.environ.get("GINCLI_DEBUG") in (None, "", "0")
