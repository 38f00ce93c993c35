"""Strict output (docs/formats.md): every command's JSON holds no NaN, no
Infinity and no negative zero, whatever the input would have echoed; CSV is
safe to open in a spreadsheet (a text cell that would run as a formula starts
with ``'``, as OWASP recommends; numbers stay numbers); the API refuses a
record holding a NaN or an infinity, as the commands refuse one in a file."""

from __future__ import annotations

import csv
import io
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

GIN = str(Path(sys.executable).with_name("gin"))
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
KNOCKER = "7s 7h 7d 7c Js Qs Ks As 2c 5d".split()
DEFENDER = "Kd Kh Kc Ts Qh 8d 6c 5h 2h Ac".split()
TOURNAMENT = ("tournament", "--bots", "expert,simple,random", "--games", "2", "--seed", "1")


def gin(*args: str, input: str | None = None) -> subprocess.CompletedProcess:
    """A real ``gin``; its output as it wrote it (CSV's CRLF and a carriage return in a field untranslated)."""
    res = subprocess.run([GIN, *args], input=None if input is None else input.encode(), capture_output=True,
                         timeout=300)
    return subprocess.CompletedProcess(res.args, res.returncode, res.stdout.decode(), res.stderr.decode())


def _refuse(token: str):
    raise AssertionError(f"{token} in the output")


def _plain_float(text: str) -> float:
    value = float(text)
    assert not (value == 0 and math.copysign(1, value) < 0), f"a negative zero ({text}) in the output"
    assert math.isfinite(value), f"{text} in the output"
    return value


def strict(text: str):
    """One JSON document, read as a strict reader reads it: NaN, Infinity or -0.0 fail."""
    return json.loads(text, parse_constant=_refuse, parse_float=_plain_float)


def strict_lines(text: str) -> list:
    return [strict(line) for line in text.splitlines() if line.strip()]


def hand(ident, **extra) -> str:
    """A hand record's JSON line, its id written as given (``-0.0``, ``-1e-400``, ``NaN``)."""
    body = json.dumps({"knocker": "ann", "hands": {"ann": KNOCKER, "bob": DEFENDER}, **extra})
    return '{"id": ' + ident + ", " + body[1:] + "\n"


@pytest.fixture
def config_dir(tmp_path, monkeypatch):
    folder = tmp_path / "config"
    folder.mkdir()
    monkeypatch.setenv("GINCLI_CONFIG_DIR", str(folder))
    return folder


# -- every command's JSON is strict ------------------------------------------------------------

@pytest.mark.parametrize("ident,written", [("-0.0", 0.0), ("-1e-400", 0.0), ("-0E0", 0.0),
                                           ('[-0.0, {"x": -0.0}]', [0.0, {"x": 0.0}]), ("-0.5", -0.5)])
def test_gin_score_writes_a_negative_zero_from_the_input_as_zero(tmp_path, config_dir, ident, written):
    f = tmp_path / "h.jsonl"
    f.write_text(hand(ident) + hand('"-0.0"'))
    res = gin("score", "-f", "json", str(f))
    assert res.returncode == 0, res.stderr
    first, second = strict_lines(res.stdout)
    assert first["points"] == 24 and _same(first["id"], written)
    assert second["id"] == "-0.0"  # text is text


@pytest.mark.parametrize("ident", ["NaN", "Infinity", "-Infinity", "1e400", "[NaN]"])
def test_gin_score_refuses_nan_and_infinity_and_never_echoes_them(tmp_path, config_dir, ident):
    f = tmp_path / "h.jsonl"
    f.write_text(hand(ident) + hand("1"))
    res = gin("score", "-f", "json", str(f))
    assert res.returncode == 1
    bad, good = strict_lines(res.stdout)
    assert bad["id"] is None and "line 1" in bad["error"] and good == dict(good, id=1, points=24)


def test_gin_validate_and_gin_deal_write_strict_json(tmp_path, config_dir):
    res = gin("deal", "--seed", "3", "-f", "json")
    assert res.returncode == 0, res.stderr
    doc = strict(res.stdout)
    text = json.dumps(doc)
    f = tmp_path / "t.jsonl"
    f.write_text('{"id": -0.0, ' + text[1:].replace('"id": null, ', "") + "\n" + '{"id": NaN}\n')
    res = gin("validate", "-f", "json", str(f))
    assert res.returncode == 1
    ok, bad = strict_lines(res.stdout)
    assert ok["id"] == 0.0 and ok["valid"] and not bad["valid"] and bad["id"] is None


def test_gin_tournament_and_gin_report_write_a_rating_anchored_at_minus_zero_as_zero(tmp_path, config_dir):
    res = gin(*TOURNAMENT, "--anchor", "simple=-0", "--transcripts", str(tmp_path / "t.jsonl"), "-q", "-f", "json")
    assert res.returncode == 0, res.stderr
    summary = strict(res.stdout)
    assert _same(summary["anchor"], {"name": "simple", "rating": 0.0})
    assert _same([p["rating"] for p in summary["players"] if p["name"] == "simple"], [0.0])
    strict_lines((tmp_path / "t.jsonl").read_text())
    res = gin("report", str(tmp_path / "t.jsonl"), "--anchor", "simple=-0", "--output", str(tmp_path / "r.html"),
              "-f", "json")
    if res.returncode == 2 and "gincli[report]" in res.stderr:
        pytest.skip("gin report needs plotly")
    assert res.returncode == 0, res.stderr
    assert "-0.0" not in res.stdout
    strict(res.stdout)


def test_a_bots_file_parameter_of_minus_zero_is_listed_and_sent_as_zero(tmp_path, config_dir):
    heard = tmp_path / "heard.jsonl"
    bot = tmp_path / "bot.py"
    bot.write_text(
        "import json, sys\n"
        f"log = open({str(heard)!r}, 'a')\n"
        "for line in sys.stdin:\n"
        "    log.write(line); log.flush()\n"
        "    m = json.loads(line)\n"
        "    if m['type'] == 'hello': print(json.dumps({'type': 'ready', 'name': 'x', 'version': '1'}), flush=True)\n"
        "    elif m['type'] == 'decide': print(json.dumps(m['legal'][0]), flush=True)\n"
        "    elif m['type'] == 'bye': break\n")
    bots = tmp_path / "bots.toml"
    bots.write_text(f'[bots.zero]\ncommand = [{json.dumps(sys.executable)}, {json.dumps(str(bot))}]\n'
                    'parameters = { lean = -0.0, deep = [-0.0] }\n')
    res = gin("bots", "--bots-file", str(bots), "-f", "json")
    assert res.returncode == 0, res.stderr
    assert "-0.0" not in res.stdout
    strict(res.stdout)
    res = gin("match", "--bots-file", str(bots), "--bots", "zero,simple", "--hands", "1", "--seed", "1",
              "--transcripts", str(tmp_path / "m.jsonl"), "-q", "-f", "json")
    assert res.returncode == 0, res.stderr
    strict(res.stdout)
    strict_lines((tmp_path / "m.jsonl").read_text())
    hello = strict_lines(heard.read_text())[0]
    assert hello["type"] == "hello" and hello["parameters"] == {"lean": 0.0, "deep": [0.0]}


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "[1, nan]"])
def test_a_bots_file_parameter_json_cannot_carry_is_refused_naming_the_bot(tmp_path, config_dir, value):
    bots = tmp_path / "bots.toml"
    bots.write_text(f'[bots.odd]\ncommand = "python3 bot.py"\nparameters = {{ lean = {value} }}\n')
    res = gin("match", "--bots-file", str(bots), "--bots", "odd,simple", "--hands", "1", "-f", "json")
    assert res.returncode == 2 and res.stdout == ""
    assert res.stderr == (f'gin: error: the bots file {bots}, bot "odd": "parameters" hold nan or inf, which JSON '
                          "does not allow (the bot is sent them in hello)\n")


@pytest.mark.parametrize("value,said", [("nan", "nan"), ("-inf", "-inf")])
def test_gin_config_refuses_a_nan_it_could_not_write_in_one_sentence(config_dir, value, said):
    (config_dir / "config.toml").write_text(f"[match]\nnames = {value}\n")
    res = gin("config", "-f", "json")
    assert res.returncode == 2 and res.stdout == "" and "Traceback" not in res.stderr
    assert res.stderr == (f"gin: error: the config file {config_dir / 'config.toml'}: [match] names is not "
                          f"accepted: {said} is not a number JSON allows (for text, put it in quotes)\n")


def test_gin_config_writes_a_negative_zero_as_zero(config_dir):
    (config_dir / "config.toml").write_text("[match]\nnames = -0.0\n")
    res = gin("config", "-f", "json")
    assert res.returncode == 0, res.stderr
    assert strict(res.stdout)["commands"]["match"]["names"] == 0.0


@pytest.mark.parametrize("args", [("variants",), ("variants", "oklahoma"), ("plugins",), ("bots",), ("config",),
                                  ("config", "path"), ("match", "--bots", "simple,random", "--hands", "3")])
def test_the_other_commands_write_strict_json(config_dir, args):
    res = gin(*args, "-f", "json")
    assert res.returncode == 0, res.stderr
    strict(res.stdout)


def test_gin_play_writes_strict_json(tmp_path, config_dir):
    res = gin("play", "--seed", "8", "--bot", "simple", "--name", "ann", "--transcript", str(tmp_path / "p.json"),
              "--format", "json", input="q\n")
    assert res.returncode in (0, 1), res.stderr
    strict(res.stdout)
    strict((tmp_path / "p.json").read_text())


# -- the strict writer -------------------------------------------------------------------------

def _same(a, b) -> bool:
    """Equal, and of the same types, a zero's sign included."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a == b and math.copysign(1, a) == math.copysign(1, b)
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)
    return a == b


def _unsigned(value):
    if isinstance(value, float):
        return 0.0 if value == 0 else value
    if isinstance(value, list):
        return [_unsigned(v) for v in value]
    if isinstance(value, dict):
        return {k: _unsigned(v) for k, v in value.items()}
    return value


JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
TEXT = st.text(st.characters(blacklist_categories=()), max_size=8) | st.sampled_from(
    ["-0.0", '"-0.0"', '\\"-0.0', "NaN", "Infinity", "\ud800-0.0"])
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from([-0.0, 0.0, -0.05, -1e-300]) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4), max_leaves=20)


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES, st.sampled_from([None, 1, 2]))
def test_the_strict_writer_s_json_reads_strictly_and_back_as_it_was_a_negative_zero_as_zero(value, indent):
    from gincli.base.jsonio import dumps

    text = dumps(value, indent=indent)
    text.encode("utf-8")  # always UTF-8
    assert _same(strict(text), _unsigned(value))


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.floats() | st.integers() | TEXT,
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
                    max_leaves=12))
def test_the_strict_writer_refuses_exactly_what_holds_nan_or_infinity(value):
    from gincli.base.errors import as_json
    from gincli.base.jsonio import dumps, holds_nan_or_infinity

    try:
        dumps(value)
        refused = False
    except ValueError:
        refused = True
    assert refused == holds_nan_or_infinity(value)
    if refused:  # a message shows it with no token a JSON reader refuses, strings aside
        assert not {"NaN", "Infinity"} & set(re.findall(r"NaN|Infinity", JSON_STRING.sub("", as_json(value))))


def test_quote_spells_nan_and_infinity_as_toml_does():
    from gincli.base.errors import quote

    assert quote(float("nan")) == "nan"
    assert quote([float("inf"), "NaN", {"x": float("-inf")}]) == '[inf, "NaN", {"x": -inf}]'


def test_a_cycle_is_no_endless_search():
    from gincli.base.jsonio import holds_nan_or_infinity

    loop: list = [1.5]
    loop.append(loop)
    assert holds_nan_or_infinity(loop) is False
    loop.append({float("nan"): 1})
    assert holds_nan_or_infinity(loop) is True


# -- CSV is safe to open -----------------------------------------------------------------------

@pytest.mark.parametrize("start", ["=", "+", "-", "@", "\t", "\r"])
def test_a_text_cell_a_spreadsheet_would_run_as_a_formula_starts_with_a_quote(tmp_path, config_dir, start):
    name = start + "cmd|' /c calc'!A1"
    record = {"id": start + "1+1", "knocker": name, "hands": {name: KNOCKER, "bob": DEFENDER}}
    f = tmp_path / "h.jsonl"
    f.write_text(json.dumps(record) + "\n")
    res = gin("score", "-f", "csv", str(f))
    assert res.returncode == 0, res.stderr
    header, row = csv.reader(io.StringIO(res.stdout, newline=""))
    cells = dict(zip(header, row, strict=True))
    assert cells["id"] == "'" + start + "1+1"
    assert cells["winner"] == cells["knocker"] == "'" + name
    assert cells["points"] == "24" and cells["defender"] == "bob"


def test_a_player_named_like_a_formula_is_neutralised_in_gin_match_s_rows(config_dir):
    res = gin("match", "--bots", "simple,simple", "--names", "=cmd|x,@bob", "--hands", "2", "--seed", "1", "-q",
              "-f", "csv")
    assert res.returncode == 0, res.stderr
    header, *rows = csv.reader(io.StringIO(res.stdout, newline=""))
    for row in rows:
        cells = dict(zip(header, row, strict=True))
        assert cells["player_1"] == "'=cmd|x" and cells["player_2"] == "'@bob"
        assert cells["winner"] in ("'=cmd|x", "'@bob")
        assert not any(c.startswith(("=", "+", "-", "@", "\t", "\r")) for c in row)


@pytest.mark.parametrize("ident,cell", [("-12", "-12"), ("-1.5", "-1.5"), ("-0.0", "0.0"), ("12", "12"),
                                        ('"-12"', "'-12"), ('"a=b"', "a=b"), ('"\'=x"', "'=x")])
def test_numbers_stay_numbers_and_only_a_leading_character_counts(tmp_path, config_dir, ident, cell):
    f = tmp_path / "h.jsonl"
    f.write_text(hand(ident))
    res = gin("score", "-f", "csv", str(f))
    assert res.returncode == 0, res.stderr
    header, row = csv.reader(io.StringIO(res.stdout, newline=""))
    assert dict(zip(header, row, strict=True))["id"] == cell


# -- the API refuses what JSON cannot hold -----------------------------------------------------

@pytest.mark.parametrize("ident", [float("nan"), float("inf"), float("-inf"), [1, {"x": float("nan")}]])
def test_gincli_score_refuses_a_record_holding_nan_or_infinity_and_scores_the_others(ident):
    import gincli

    good = {"knocker": "ann", "hands": {"ann": KNOCKER, "bob": DEFENDER}}
    bad, ok, zero = gincli.score([dict(good, id=ident), dict(good, id="ok"), dict(good, id=-0.0)])
    assert bad == {"id": None, "error": "record 1 holds NaN or Infinity, which JSON does not allow"}
    assert ok["id"] == "ok" and ok["points"] == 24
    assert _same(zero["id"], 0.0)


def test_gincli_score_refuses_nan_anywhere_in_a_record():
    import gincli

    record = {"id": "h", "knocker": "ann", "hands": {"ann": KNOCKER, "bob": DEFENDER}, "upcard": float("nan")}
    assert list(gincli.score([record])) == [
        {"id": None, "error": "record 1 holds NaN or Infinity, which JSON does not allow"}]


def test_gincli_validate_and_deal_refuse_nan():
    import gincli
    from gincli.base.errors import UsageError

    transcript = gincli.deal(seed=1)
    report = gincli.validate(dict(transcript, id=float("nan")))
    assert report["valid"] is False and report["id"] is None
    assert report["errors"][0]["message"] == "the transcript holds NaN or Infinity, which JSON does not allow"
    assert _same(gincli.validate(dict(transcript, id=-0.0))["id"], 0.0)
    with pytest.raises(UsageError, match=r"^id: \[nan\] is not a JSON value \(JSON has no NaN or Infinity\)$"):
        gincli.deal(seed=1, id=[float("nan")])
    assert _same(gincli.deal(seed=1, id=-0.0)["id"], 0.0)
