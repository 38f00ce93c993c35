"""Nothing lost, nothing injected: bad records cost themselves only, output is
always valid, and nothing from the input reaches a terminal unescaped."""

from __future__ import annotations

import json

import pytest
from helpers import json_lines, record

KNOCKER = "7s 7h 7d 7c Js Qs Ks As 2c 5d"
DEFENDER = "Kd Kh Kc Ts Qh 8d 6c 5h 2h Ac"
GOOD = record(KNOCKER, DEFENDER)


def write_lines(path, lines):
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def strict_json_lines(text: str) -> list[dict]:
    """JSON lines, refusing NaN and Infinity as a strict reader does."""
    def refuse(name):
        raise AssertionError(f"{name} in the output")

    return [json.loads(line, parse_constant=refuse) for line in text.splitlines()]


def no_control_characters(text: str) -> bool:
    return not any(ord(c) < 32 and c != "\n" or 0x7f <= ord(c) <= 0x9f for c in text)


# -- one bad record costs one record ----------------------------------------------------------

@pytest.mark.parametrize("knocker", [[], {}, 3])
def test_a_knocker_that_is_not_a_name_is_that_records_error(run, tmp_path, knocker):
    f = write_lines(tmp_path / "h.jsonl", [json.dumps(GOOD), json.dumps(dict(GOOD, knocker=knocker))])
    res = run("score", "-f", "json", f)
    assert res.exit_code == 1
    out = json_lines(res.stdout)
    assert out[0]["points"] == 24 and "the knocker" in out[1]["error"] and "must be a player's name" in out[1]["error"]


@pytest.mark.parametrize("format", ["json", "text"])
def test_an_unexpected_failure_on_one_record_costs_that_record_only(run, tmp_path, monkeypatch, format):
    from gincli.cli import score
    from gincli.formats import records

    real = records.score_position

    def flaky(pos, variant, rules, id=None):
        if id == "boom":
            raise TypeError("unhashable type: 'list'")
        return real(pos, variant, rules, id)

    monkeypatch.setattr(records, "score_position", flaky)
    monkeypatch.setattr(score, "CHUNK", 4)
    ids = [f"r{i}" for i in range(10)]
    ids[5] = "boom"
    f = write_lines(tmp_path / "h.jsonl", [json.dumps(dict(GOOD, id=i)) for i in ids])
    res = run("score", "-f", format, "--workers", "1", f)
    assert res.exit_code == 1
    assert "Traceback" not in res.stdout + res.stderr
    if format == "json":
        out = json_lines(res.stdout)
        assert [r["id"] for r in out] == ids
        assert out[5]["error"] == "could not be scored: TypeError: unhashable type: 'list'"
        assert all(r["points"] == 24 for i, r in enumerate(out) if i != 5)
    else:
        assert res.stdout.count("ann knocks and wins 24") == 9
        assert "h.jsonl:6 (boom): could not be scored: TypeError" in res.stderr


def test_an_unexpected_failure_in_a_transcript_costs_that_transcript_only(run, tmp_path, monkeypatch):
    from gincli.cli import validate as cli_validate

    real = cli_validate.validate

    def flaky(doc, registry, defaults=None):
        if doc.get("id") == "boom":
            raise KeyError("oops")
        return real(doc, registry, defaults)

    monkeypatch.setattr(cli_validate, "validate", flaky)
    dealt = json.loads(run("deal", "--seed", "1", "-f", "json").stdout)
    f = write_lines(tmp_path / "t.jsonl", [json.dumps(dict(dealt, id=i)) for i in ("a", "boom", "c")])
    res = run("validate", "-f", "json", "--workers", "1", f)
    assert res.exit_code == 1
    out = json_lines(res.stdout)
    assert [r["id"] for r in out] == ["a", "boom", "c"]
    assert out[0]["valid"] and out[2]["valid"] and not out[1]["valid"]
    assert out[1]["errors"][0]["message"] == "could not be replayed: KeyError: 'oops'"


def test_nesting_deeper_than_the_parser_allows_is_that_lines_error(run, tmp_path):
    f = write_lines(tmp_path / "h.jsonl", ["[" * 1000, json.dumps(GOOD)])
    res = run("score", "-f", "json", f)
    out = json_lines(res.stdout)
    assert res.exit_code == 1 and len(out) == 2 and out[1]["points"] == 24
    assert out[0]["error"].startswith("line 1 is not valid JSON: it is nested deeper than")


def test_nesting_deeper_than_the_parser_allows_in_a_whole_document_is_one_sentence(run, tmp_path):
    (tmp_path / "h.json").write_text("[" * 100000)
    res = run("score", str(tmp_path / "h.json"))
    assert res.exit_code == 2 and "nested deeper than" in res.stderr and "Traceback" not in res.stderr


# -- output is always valid ----------------------------------------------------------------

@pytest.mark.parametrize("name,text", [
    ("h.jsonl", json.dumps(GOOD)[:-1] + ', "x": NaN}\n' + json.dumps(GOOD) + "\n"),
    ("h.json", "[" + json.dumps(dict(GOOD, id=1))[:-1] + ', "x": [Infinity]}, ' + json.dumps(GOOD) + "]"),
    ("h.toml", '[[records]]\nknocker = "ann"\nx = nan\n[records.hands]\nann = ' + json.dumps(KNOCKER.split())
     + "\nbob = " + json.dumps(DEFENDER.split()) + '\n[[records]]\nknocker = "ann"\n[records.hands]\nann = '
     + json.dumps(KNOCKER.split()) + "\nbob = " + json.dumps(DEFENDER.split()) + "\n"),
])
def test_nan_or_infinity_in_a_record_is_that_records_error(run, tmp_path, name, text):
    (tmp_path / name).write_text(text)
    res = run("score", "-f", "json", str(tmp_path / name))
    assert res.exit_code == 1
    out = strict_json_lines(res.stdout)
    assert len(out) == 2 and "error" in out[0] and out[1]["points"] == 24
    assert "NaN" in out[0]["error"]


def test_a_lone_surrogate_never_breaks_the_output(run, tmp_path):
    f = write_lines(tmp_path / "h.jsonl", [json.dumps(dict(GOOD, id="\ud800")), json.dumps({"id": "\udfff"})])
    res = run("score", "-f", "json", f)
    assert res.exit_code == 1
    out = json_lines(res.stdout)
    assert out[0]["id"] == "\ud800" and out[0]["points"] == 24 and out[1]["id"] == "\udfff"
    res = run("score", f)
    assert res.exit_code == 1 and "\\ud800" in res.stdout and "\\udfff" in res.stderr


# -- no terminal injection -----------------------------------------------------------------

def test_control_characters_and_markup_from_input_are_shown_escaped(run, tmp_path):
    title = "\x1b]0;pwned\x07"
    f = write_lines(tmp_path / "h.jsonl", [json.dumps(dict(GOOD, id=title + "[/]")),
                                           json.dumps(dict(GOOD, id=title, knocker="\x1b[2J"))])
    res = run("score", f)
    assert res.exit_code == 1
    assert no_control_characters(res.stdout) and no_control_characters(res.stderr)
    assert "\\x1b]0;pwned\\x07[/]" in res.stdout
    assert 'the knocker "\\u001b[2J" is not a player' in res.stderr


def test_gin_errors_and_warnings_escape_control_characters(capsys):
    from gincli.cli import error, warn

    error("bad\x1b[31m\nname")
    warn("\x9b\x07")
    err = capsys.readouterr().err
    assert err == "gin: error: bad\\x1b[31m\\nname\ngin: warning: \\x9b\\x07\n"


def test_safe_escapes_control_characters_and_markup():
    from gincli.cli.render import safe

    assert safe("a\tb\x7f\x85[/]") == "a\\tb\\x7f\\x85\\[/]"
    assert safe("[bold]x\ud800", markup=False) == "[bold]x\\ud800"


# -- bounded echoes -------------------------------------------------------------------------

def test_a_bad_token_is_quoted_cut_to_a_readable_length(run, tmp_path):
    bad = "X" * 1_000_000
    f = write_lines(tmp_path / "h.jsonl", [json.dumps(record(bad + " " + KNOCKER[3:], DEFENDER))])
    res = run("score", "-f", "json", f)
    [out] = json_lines(res.stdout)
    assert out["error"].startswith('unknown card "' + "X" * 40 + '…" (1,000,000 characters)')
    assert len(res.stdout) < 200 and len(res.stderr) < 200


def test_quote_cuts_long_values_and_says_how_long_they_were():
    from gincli.errors import quote

    assert quote("Xx") == '"Xx"'
    assert quote("é" * 41) == '"' + "é" * 40 + '…" (41 characters)'
    assert quote(list(range(30))).endswith("… (110 characters)")


# -- input hygiene --------------------------------------------------------------------------

BOM = b"\xef\xbb\xbf"


@pytest.mark.parametrize("name,text", [
    ("h.jsonl", json.dumps(GOOD) + "\n" + json.dumps(GOOD) + "\n"),
    ("h.json", json.dumps([GOOD, GOOD])),
    ("h.toml", ('[[records]]\nknocker = "ann"\n[records.hands]\nann = ' + json.dumps(KNOCKER.split())
                + "\nbob = " + json.dumps(DEFENDER.split()) + "\n") * 2),
    ("-", json.dumps(GOOD) + "\n" + json.dumps(GOOD) + "\n"),
])
def test_a_byte_order_mark_is_accepted_at_the_start_of_every_input(run, tmp_path, name, text):
    data = BOM + text.encode()
    if name == "-":
        res = run("score", "-f", "json", "-", input=data)
    else:
        (tmp_path / name).write_bytes(data)
        res = run("score", "-f", "json", str(tmp_path / name))
    assert res.exit_code == 0, res.stderr
    assert [r["points"] for r in json_lines(res.stdout)] == [24, 24]
