"""Nothing lost, nothing injected: bad records cost themselves only, output is
always valid, and nothing from the input reaches a terminal unescaped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import json_lines, record
from hypothesis import given, settings, strategies as st

KNOCKER = "7s 7h 7d 7c Js Qs Ks As 2c 5d"
DEFENDER = "Kd Kh Kc Ts Qh 8d 6c 5h 2h Ac"
GOOD = record(KNOCKER, DEFENDER)
#: The last resort's sentence (what, doing): a bug, said as one, never the exception's own text.
BUG = "this {} could not be {}: a bug in gincli stopped it (please report it; GINCLI_DEBUG=1 shows the traceback)"


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
    from gincli.formats import records
    from gincli.work import score

    real, real_plain, real_result = records.score_position, records.score_plain, records.result_plain

    def flaky(pos, variant, rules, id=None):
        if id == "boom":
            raise TypeError("unhashable type: 'list'")
        return real(pos, variant, rules, id)

    def flaky_plain(*args, **kwargs):  # the JSON hot path scores plain records itself
        if kwargs.get("id", args[8] if len(args) > 8 else None) == "boom":
            raise TypeError("unhashable type: 'list'")
        return real_plain(*args, **kwargs)

    def flaky_result(*args, **kwargs):  # and so does the one for people
        if kwargs.get("id", args[8] if len(args) > 8 else None) == "boom":
            raise TypeError("unhashable type: 'list'")
        return real_result(*args, **kwargs)

    real_line = records.HandScorer.plain_line

    def flaky_line(self, raw, make):  # and the text's own, straight from the raw line (cli/hands.py)
        if b'"boom"' in raw:
            raise TypeError("unhashable type: 'list'")
        return real_line(self, raw, make)

    monkeypatch.setattr(records, "score_position", flaky)
    monkeypatch.setattr(records, "score_plain", flaky_plain)
    monkeypatch.setattr(records, "result_plain", flaky_result)
    monkeypatch.setattr(records.HandScorer, "plain_line", flaky_line)
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
        assert out[5]["error"] == BUG.format("record", "scored")
        assert all(r["points"] == 24 for i, r in enumerate(out) if i != 5)
    else:
        assert res.stdout.count("ann knocks and wins 24") == 9
        assert f"h.jsonl:6 (boom): {BUG.format('record', 'scored')}" in res.stderr
    assert "unhashable" not in res.stdout + res.stderr  # the exception's text is gincli's, not the record's


def test_with_gincli_debug_an_unexpected_failure_shows_its_traceback(run, tmp_path, monkeypatch):
    from gincli.formats import records

    def broken(*args, **kwargs):
        raise TypeError("unhashable type: 'list'")

    monkeypatch.setattr(records, "score_position", broken)
    monkeypatch.setattr(records, "score_plain", broken)  # the JSON hot path's way
    monkeypatch.setenv("GINCLI_DEBUG", "1")
    f = write_lines(tmp_path / "h.jsonl", [json.dumps(GOOD)])
    res = run("score", "-f", "json", "--workers", "1", f)
    assert isinstance(res.exception, TypeError)


def test_an_unexpected_failure_in_a_transcript_costs_that_transcript_only(run, tmp_path, monkeypatch):
    from gincli.work import validate as cli_validate  # where the workers replay

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
    assert out[1]["errors"][0] == {"hand": None, "move": None, "rule": "internal-error",
                                   "message": BUG.format("transcript", "replayed")}


@pytest.mark.parametrize("at_move", [False, True])
def test_an_unexpected_failure_in_hand_n_keeps_the_hands_before_it(run, tmp_path, monkeypatch, at_move):
    """The fault points at the hand (and move) where gincli failed; the hands
    finished before it stay in the report with their results, and the scores so far."""
    from gincli.hand.moves import Move
    from gincli.replay import validate as replay

    doc = json.loads((Path(__file__).parent.parent / "examples" / "game.json").read_text())
    if at_move:
        real_read = Move.from_dict.__func__
        boom = doc["hands"][2]["moves"][3]

        def read(cls, d):
            if d is boom:
                raise KeyError("oops")
            return real_read(cls, d)

        monkeypatch.setattr(Move, "from_dict", classmethod(read))
    else:
        real_check = replay._check_claimed_hand

        def check(hi, claim, result):
            if hi == 2:
                raise IndexError("list index out of range")
            return real_check(hi, claim, result)

        monkeypatch.setattr(replay, "_check_claimed_hand", check)
    from gincli.api import calls

    report = calls.validate(doc)
    assert report["errors"] == [{"hand": 2, "move": 3 if at_move else None, "rule": "internal-error",
                                 "message": BUG.format("hand", "replayed")}]
    assert [h["points"] for h in report["hands"]] == [18, 3]
    assert report["scores"] == {"ann": 0, "bob": 21} and not report["valid"]


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


TOML_HANDS = ("[records.hands]\nann = " + json.dumps(KNOCKER.split()) + "\nbob = " + json.dumps(DEFENDER.split())
              + "\n")


@pytest.fixture(params=["orjson", "json"])
def hot_path_reader(request, monkeypatch):
    """gin score's hot path reading records with orjson (where installed) or json."""
    from gincli.formats import records

    if request.param == "orjson":
        pytest.importorskip("orjson")
        assert records.fast_loads is not None
    else:
        monkeypatch.setattr(records, "fast_loads", None)
    return request.param


@pytest.mark.parametrize("number", ["1e400", "-1e400"])
@pytest.mark.parametrize("name", ["h.jsonl", "h.json", "h.toml"])
def test_a_number_past_a_doubles_range_is_that_records_error(run, tmp_path, hot_path_reader, name, number):
    if name == "h.jsonl":
        text = (json.dumps(dict(GOOD, id="a")) + "\n" + json.dumps(GOOD)[:-1] + f', "id": {number}}}\n'
                + json.dumps(dict(GOOD, id="b"))[:-1] + f', "x": [{{"y": {number}}}]}}\n' + json.dumps(GOOD) + "\n")
    elif name == "h.json":
        text = ("[" + json.dumps(dict(GOOD, id="a")) + ", " + json.dumps(GOOD)[:-1] + f', "id": {number}}}, '
                + json.dumps(dict(GOOD, id="b"))[:-1] + f', "x": [{{"y": {number}}}]}}, ' + json.dumps(GOOD) + "]")
    else:
        text = ('[[records]]\nid = "a"\nknocker = "ann"\n' + TOML_HANDS + f'[[records]]\nid = {number}\n'
                'knocker = "ann"\n' + TOML_HANDS + f'[[records]]\nid = "b"\nknocker = "ann"\nx = [{{ y = {number} }}]\n'
                + TOML_HANDS + '[[records]]\nknocker = "ann"\n' + TOML_HANDS)
    (tmp_path / name).write_text(text)
    for workers in ("1", "2"):
        res = run("score", "-f", "json", "--workers", workers, str(tmp_path / name))
        assert res.exit_code == 1, res.stderr
        out = strict_json_lines(res.stdout)
        assert [r.get("points") for r in out] == [24, None, None, 24]
        where = "line 2" if name == "h.jsonl" else "record 2"
        assert out[1] == {"id": None, "error": f"{where} holds a number past what a double can hold ({number})"}
        assert out[2]["id"] is None and out[2]["error"].endswith(f"holds a number past what a double can hold "
                                                                 f"({number})")
    res = run("score", str(tmp_path / name))  # for people: the same sentence on stderr, one a record
    assert res.exit_code == 1 and res.stderr.count("past what a double can hold") == 2
    assert "Traceback" not in res.stderr


def test_a_number_past_a_doubles_range_in_a_transcript_is_that_transcripts_fault(run, tmp_path):
    dealt = json.loads(run("deal", "--seed", "1", "-f", "json").stdout)
    line = json.dumps(dict(dealt, id="t2"))
    lines = [json.dumps(dict(dealt, id="t1")), line.replace('"t2"', "1e400", 1),
             line.replace('"players"', '"x": -1e400, "players"', 1), json.dumps(dict(dealt, id="t4"))]
    f = write_lines(tmp_path / "t.jsonl", lines)
    (tmp_path / "t.json").write_text("[" + ", ".join(lines) + "]")
    for path, where in ((f, "line"), (str(tmp_path / "t.json"), "record")):
        res = run("validate", "-f", "json", path)
        assert res.exit_code == 1, res.stderr
        out = strict_json_lines(res.stdout)
        assert [r["id"] for r in out] == ["t1", None, None, "t4"] and out[0]["valid"] and out[3]["valid"]
        assert [r["errors"][0]["message"] for r in out[1:3]] == [
            f"{where} 2 holds a number past what a double can hold (1e400)",
            f"{where} 3 holds a number past what a double can hold (-1e400)"]
        assert all(r["errors"][0]["rule"] == "transcript-format" for r in out[1:3])


def test_a_long_number_past_a_doubles_range_is_quoted_cut(run, tmp_path):
    number = "1" + "0" * 500 + ".5"
    f = write_lines(tmp_path / "h.jsonl", [json.dumps(GOOD)[:-1] + f', "id": {number}}}'])
    res = run("score", "-f", "json", f)
    [out] = strict_json_lines(res.stdout)
    assert out["error"] == f"line 1 holds a number past what a double can hold ({number[:40]}… (503 characters))"


def test_a_whole_number_past_a_doubles_range_is_no_error(run, tmp_path):
    """Python reads it as it is, and writes it back as it is: valid JSON."""
    big = 10 ** 400
    f = write_lines(tmp_path / "h.jsonl", [json.dumps(dict(GOOD, id=big))])
    res = run("score", "-f", "json", f)
    assert res.exit_code == 0 and strict_json_lines(res.stdout)[0]["id"] == big


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf")])
def test_json_writers_refuse_nan_and_infinity(value):
    from gincli.base.jsonio import dumps, error_line, utf8_lines

    with pytest.raises(ValueError):
        dumps({"id": value})
    with pytest.raises(ValueError):
        dumps([value], indent=2)
    assert error_line(value, "it failed") == '{"id": null, "error": "it failed"}'
    assert error_line("h1", "it failed") == '{"id": "h1", "error": "it failed"}'
    with pytest.raises(ValueError):  # a line written again for a lone surrogate is checked too
        utf8_lines(['{"id": "\ud800", "x": NaN}'])


def test_the_json_reader_refuses_what_the_writers_would():
    from gincli.base.jsonio import OutOfRange, loads

    for text in ('{"id": 1e400}', '[1e400]', '-1E+999', b'{"id": 1e400}', '{"id": 1e400} '):
        with pytest.raises(OutOfRange, match=r"past what a double can hold \(-?1[eE]"):
            loads(text)
    assert loads('{"id": 1e308, "x": 1e-400}') == {"id": 1e308, "x": 0.0}


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
    from gincli.cli.base import error, warn

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
    from gincli.base.errors import quote

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


# -- no quadratic paths: each counts its work ---------------------------------------------------

def test_sniffing_keeps_no_blank_line_it_skips():
    import io

    from gincli.formats.containers import Reader, _sniff

    data = b"\n" * 200_000 + json.dumps(GOOD).encode() + b"\n"
    stream = io.BytesIO(data)
    fmt, head, skipped = _sniff(stream.readline(), stream)
    assert (fmt, len(head), skipped) == ("jsonl", 1, 200_000)
    [item, bad] = Reader("-", stdin=io.BytesIO(data + b"{oops\n")).items()
    assert item.line == 200_001 and bad.error.startswith("line 200002 is not valid JSON")


def test_settling_a_session_costs_the_same_whatever_the_hands_played(registry, monkeypatch):
    from gincli.matches.runner import MatchSpec, play_match_session
    from gincli.sessions import systems as session_module

    calls = []
    real = session_module.Game.result
    monkeypatch.setattr(session_module.Game, "result", lambda self: calls.append(1) or real(self))
    for hands in (20, 200):
        calls.clear()
        spec = MatchSpec(("simple", "simple"), ("a", "b"), "games", 1, 1, "standard", "game",
                         {"target": 10**18}, max_hands=hands)
        out = play_match_session(spec, 0, registry, record=False)
        assert len(out.hands) == hands and out.capped
        assert len(calls) == 1  # the settled result, once; never one a hand


def test_a_scoring_system_with_only_result_still_plays(registry):
    from gincli.sessions.systems import ScoringSystem, Session
    from gincli.sessions.table import play_session

    class FirstToWin(Session):
        def __init__(self, players, rules):
            super().__init__(players, rules)
            self.winner = None

        def add_hand(self, result):
            self.winner = self.winner or result.winner

        @property
        def finished(self):
            return self.winner is not None

        def result(self):
            return {"scores": {p: int(p == self.winner) for p in self.players}, "winner": self.winner}

    class System(ScoringSystem):
        name = "first"

        def new_session(self, players, rules):
            return FirstToWin(players, rules)

    from gincli.rulebook.rng import SplitMix64
    from gincli_builtin.bots import SimpleBot

    variant = registry.variant("standard")
    rules = registry.rules(variant, System(), {})
    bot = SimpleBot(SplitMix64(1))
    rec = play_session(("a", "b"), variant, rules, System(), lambda hand: bot.choose(hand.view(hand.to_act)), 5)
    assert rec.result["winner"] in ("a", "b") and not rec.capped


def test_reading_a_bot_reply_scans_each_byte_once():
    from gincli.matches.external import LineBuffer

    buffer = LineBuffer()
    chunk = b"x" * 1000
    for _ in range(500):
        assert buffer.feed(chunk) is None
    assert buffer.feed(b'"end"\n{"next": 1}\n{"part') == b"x" * 500_000 + b'"end"'
    assert buffer.line() == b'{"next": 1}' and buffer.line() is None
    assert buffer.scanned == 500_000 + len(b'"end"\n{"next": 1}\n{"part')


def test_a_bot_reply_past_one_mebibyte_without_a_newline_is_refused():
    import sys

    from gincli.hand.bots import BotError
    from gincli.matches.external import Program

    program = Program([sys.executable, "-c", "import sys; sys.stdin.readline(); "
                       "sys.stdout.write('x' * 3000000); sys.stdout.flush(); sys.stdin.readline()"])
    program.start()
    try:
        program.send({"type": "hello"})
        with pytest.raises(BotError, match="more than 1 MiB without a newline"):
            program.line(30)
        assert not program.alive()
    finally:
        program.kill()


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("ab[]/\\#@= \x1b\n"), max_size=12) | st.text(max_size=12))
def test_safe_text_is_escaped_as_rich_escapes_it(text):
    """render.safe leaves rich unloaded where escaping would change nothing:
    its answer is still exactly rich's."""
    from rich.markup import escape

    from gincli.cli.render import _CONTROL, _visible, safe

    visible = _CONTROL.sub(_visible, text)
    assert safe(text) == escape(visible)
    assert safe(text, markup=False) == visible
