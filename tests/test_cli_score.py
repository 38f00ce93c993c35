"""``gin score`` through Typer's CliRunner: stdout (data) and stderr apart."""

from __future__ import annotations

import json
import os
import re

import pytest
from helpers import json_lines, record

KNOCKER = "7s 7h 7d 7c Js Qs Ks As 2c 5d"
DEFENDER = "Kd Kh Kc Ts Qh 8d 6c 5h 2h Ac"
GOOD = record(KNOCKER, DEFENDER)
SCORE_KEYS = ["id", "variant", "outcome", "winner", "points", "knocker", "defender"]


def write_jsonl(path, records):
    path.write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


def test_json_output_has_exactly_the_formats_fields(run, tmp_path):
    f = write_jsonl(tmp_path / "h.jsonl", [dict(record(KNOCKER, DEFENDER), id="h1")])
    res = run("score", "--format", "json", f)
    assert res.exit_code == 0, res.stderr
    [out] = json_lines(res.stdout)
    assert list(out) == SCORE_KEYS
    assert out["id"] == "h1" and out["variant"] == "standard"
    assert list(out["knocker"]) == ["name", "melds", "deadwood_cards", "deadwood"]
    assert list(out["defender"]) == ["name", "melds", "layoffs", "deadwood_cards", "deadwood"]
    assert out["knocker"] == {"name": "ann", "melds": [["7s", "7h", "7d", "7c"], ["Js", "Qs", "Ks"]],
                              "deadwood_cards": ["As", "2c", "5d"], "deadwood": 8}
    assert "gin score: 1 hand scored" in res.stderr
    assert "gin score" not in res.stdout


def test_every_container_and_stdin(run, tmp_path):
    rec = dict(record(KNOCKER, DEFENDER), id="x")
    (tmp_path / "one.json").write_text(json.dumps(rec))
    (tmp_path / "many.json").write_text(json.dumps([rec, rec]))
    (tmp_path / "one.toml").write_text(
        'id = "x"\nknocker = "ann"\n[hands]\nann = ' + json.dumps(KNOCKER.split()) + "\nbob = "
        + json.dumps(DEFENDER.split()) + "\n")
    (tmp_path / "many.toml").write_text(
        ('[[records]]\nid = "x"\nknocker = "ann"\n[records.hands]\nann = ' + json.dumps(KNOCKER.split())
         + "\nbob = " + json.dumps(DEFENDER.split()) + "\n") * 3)
    for name, n in (("one.json", 1), ("many.json", 2), ("one.toml", 1), ("many.toml", 3)):
        res = run("score", "-f", "json", str(tmp_path / name))
        assert res.exit_code == 0, (name, res.stderr)
        assert [r["points"] for r in json_lines(res.stdout)] == [24] * n, name
    for text, fmt in ((json.dumps(rec) + "\n" + json.dumps(rec) + "\n", None),
                      (json.dumps([rec, rec], indent=2), None),
                      (json.dumps(rec) + "\n" + json.dumps(rec), "jsonl"),
                      ((tmp_path / "many.toml").read_text(), None)):
        args = ["score", "-f", "json", "-"] + (["--input-format", fmt] if fmt else [])
        res = run(*args, input=text)
        assert res.exit_code == 0, res.stderr
        assert all(r["points"] == 24 for r in json_lines(res.stdout))


BAD = [
    (record("Xx 7h 7d 7c Js Qs Ks As 2c 5d", DEFENDER), 'unknown card "Xx"'),
    (record(KNOCKER, "7s Kh Kc Ts Qh 8d 6c 5h 2h Ac"), "in both ann's and bob's hands"),
    (record(KNOCKER, "Kh Kh Kc Ts Qh 8d 6c 5h 2h Ac"), "appears twice"),
    (record(KNOCKER, DEFENDER + " 9c"), "bob holds 11 cards"),
    (record(KNOCKER, DEFENDER, knocker="carl"), "not a player"),
    ({"hands": {"ann": KNOCKER.split()}, "knocker": "ann"}, "exactly two players"),
    (record(KNOCKER, DEFENDER, melds={"ann": [["7s", "Js", "Qs"]]}), "is not a meld"),
    (record(KNOCKER, DEFENDER, melds={"ann": [["Kd", "Kh", "Kc"]]}), "does not hold"),
    (record("7s 7h 7d 7c Js Qs Ks As 2c 8d", DEFENDER.replace("8d", "9d")), "over the knock limit"),
    (record(KNOCKER, DEFENDER, layoffs=["Qh"]), "does not fit"),
    (record("7s 7h 7d 7c Js Qs Ks 2c 3c 4c", "Ts 9s 5c Qh 8d 6h 5h 2h Ac Kd", layoffs=["Ts"]), "onto gin"),
    (record("7s 7h 7d 7c Js Qs Ks 2c 3c 4c 5c", "Ts 9s 6c Qh 8d 6h 5h 2h Ac Kd"), "big gin is off"),
    (dict(record(KNOCKER, DEFENDER), variant="oklahoma"), "needs its first upcard (field \"upcard\"): knock_limit is"),
    (dict(record(KNOCKER, DEFENDER), variant="nope"), 'unknown variant "nope"'),
]


@pytest.mark.parametrize("bad,message", BAD, ids=[m for _, m in BAD])
def test_each_bad_record_gets_its_own_error_in_place(run, tmp_path, bad, message):
    good = record(KNOCKER, DEFENDER)
    f = write_jsonl(tmp_path / "h.jsonl", [dict(good, id="a"), dict(bad, id="b"), dict(good, id="c")])
    res = run("score", "-f", "json", f)
    assert res.exit_code == 1
    out = json_lines(res.stdout)
    assert [r["id"] for r in out] == ["a", "b", "c"]
    assert set(out[1]) == {"id", "error"} and message in out[1]["error"]
    assert out[0]["points"] == out[2]["points"] == 24
    assert "1 record could not be scored" in res.stderr
    assert "Traceback" not in res.stderr + res.stdout


def test_a_line_that_is_not_json_is_reported_with_its_line_number(run, tmp_path):
    good = json.dumps(record(KNOCKER, DEFENDER))
    (tmp_path / "h.jsonl").write_text(good + "\n\n{not json\n" + good + "\n[1, 2]\n")
    res = run("score", "-f", "json", str(tmp_path / "h.jsonl"))
    assert res.exit_code == 1
    out = json_lines(res.stdout)
    assert len(out) == 4
    assert out[1] == {"id": None, "error": out[1]["error"]} and "line 3 is not valid JSON" in out[1]["error"]
    assert "line 5 is not a JSON object" in out[3]["error"]
    assert out[2]["points"] == 24


def test_text_output_errors_go_to_stderr(run, tmp_path):
    f = write_jsonl(tmp_path / "h.jsonl", [record(KNOCKER, DEFENDER), record("Xx", DEFENDER)])
    res = run("score", f)
    assert res.exit_code == 1
    assert "ann knocks and wins 24" in res.stdout
    assert "♠" in res.stdout
    assert "unknown card" in res.stderr and "unknown card" not in res.stdout
    assert "h.jsonl:2" in res.stderr


@pytest.mark.parametrize("args,message", [
    (["missing.jsonl"], "no such file"),
    (["--variant", "nope", "X"], 'unknown variant "nope"'),
    (["--option", "gin_bonus", "X"], "key=value"),
    (["--option", "nonsense=1", "X"], 'unknown option "nonsense"'),
    (["--option", "gin_bonus=lots", "X"], "gin_bonus must be a whole number"),
    (["--scoring", "nope", "X"], 'unknown scoring system "nope"'),
])
def test_unusable_input_or_options_exit_2_with_one_sentence(run, tmp_path, args, message):
    res = run("score", *args)
    assert res.exit_code == 2
    assert message in res.stderr
    assert res.stdout == ""
    assert len([ln for ln in res.stderr.splitlines() if ln.startswith("gin: error")]) == 1


def test_unreadable_file_does_not_stop_the_others(run, tmp_path):
    f = write_jsonl(tmp_path / "h.jsonl", [record(KNOCKER, DEFENDER)])
    (tmp_path / "broken.json").write_text("{nope")
    res = run("score", "-f", "json", str(tmp_path / "broken.json"), f)
    assert res.exit_code == 2
    assert "not valid JSON" in res.stderr
    assert [r["points"] for r in json_lines(res.stdout)] == [24]


def test_option_big_gin_bonus(run, tmp_path):
    f = write_jsonl(tmp_path / "h.jsonl", [record("7s 7h 7d 7c Js Qs Ks 2c 3c 4c 5c", "Ts 9s 6c Qh 8d 6h 5h 2h Ac Kd")])
    res = run("score", "-f", "json", "--option", "big_gin_bonus=31", f)
    assert res.exit_code == 0, res.stderr
    [out] = json_lines(res.stdout)
    assert out["outcome"] == "big_gin" and out["points"] == out["defender"]["deadwood"] + 31


def test_variant_option_applies_to_records_without_their_own(run, tmp_path):
    rec = dict(record(KNOCKER, DEFENDER), upcard="9c")
    f = write_jsonl(tmp_path / "h.jsonl", [rec, dict(rec, variant="standard")])
    res = run("score", "-f", "json", "--variant", "gin-only", f)
    out = json_lines(res.stdout)
    assert "only gin" in out[0]["error"] and out[1]["outcome"] == "knock"


def test_bundled_example_scores(run):
    from conftest import ROOT

    res = run("score", "-f", "json", str(ROOT / "examples" / "hands.jsonl"))
    out = json_lines(res.stdout)
    assert {r.get("outcome") for r in out} >= {"knock", "gin", "undercut", "dead"}


@pytest.mark.parametrize("workers", ["1", "2"])
def test_hands_for_people_are_a_blank_line_apart_however_they_are_cut_into_chunks(run, tmp_path, monkeypatch,
                                                                                  workers):
    """Chunks are the work's, not the reader's: a blank line between any two
    hands of an input (the first of a chunk too), and a failure's sentence in its place."""
    from gincli.work import score

    monkeypatch.setattr(score, "CHUNK", 3)
    lines = [json.dumps(dict(GOOD, id=f"h{i}")) for i in range(7)]
    lines[4] = "{not json"
    f = tmp_path / "h.jsonl"
    f.write_text("\n".join(lines) + "\n")
    res = run("score", "--workers", workers, str(f))
    assert res.exit_code == 1
    hands = res.stdout.split("\n\n")
    assert [h.split(" ", 1)[0] for h in hands] == ["h0", "h1", "h2", "h3", "h5", "h6"]
    assert f"{f}:5: line 5 is not valid JSON" in res.stderr


def test_lines_sent_to_the_workers_give_the_records_the_reader_gives(tmp_path, monkeypatch):
    """Reader.batches: the same items as Reader.items, raw (lines, indices,
    blank lines skipped, a line past the limit its error), however they are cut."""
    from gincli.formats import containers
    from gincli.formats.containers import Lines, Reader

    monkeypatch.setattr(containers, "MAX_RECORD_BYTES", 200)
    good = json.dumps(GOOD)
    f = tmp_path / "h.jsonl"
    f.write_bytes(b"\n \n" + "\n".join([good, "", good, '{"x": "' + "x" * 300 + '"}', "  ", good, "[1]",
                                         good]).encode())  # the last line without its newline
    want = [(i.index, i.line, i.error, i.raw.rstrip() if i.raw else None)
            for i in Reader(str(f)).items(parse=False)]
    for size in (1, 2, 3, 100):
        got = [(i.index, i.line, i.error, i.raw) for chunk in Reader(str(f)).batches(size)
               for i in (chunk.items() if isinstance(chunk, Lines) else chunk)]
        assert got == want, size


def test_a_worker_reads_its_lines_in_the_file_and_says_so_when_the_file_changed(tmp_path, monkeypatch):
    """Past the first lines, a chunk of a regular file is sent to a worker as
    its place in the file (a few bytes, not the lines), and the worker reads
    the same lines there; a file rewritten or replaced in the meantime is one
    sentence, not other records. Standard input and gzip data are sent whole."""
    import gzip
    import pickle

    from gincli.base.errors import InputError
    from gincli.formats import containers
    from gincli.formats.containers import Reader

    monkeypatch.setattr(containers, "PIECE", 500)  # read in pieces of a few lines
    lines = "".join(json.dumps(dict(GOOD, id=f"h{i}")) + "\n" for i in range(50)).encode()
    f = tmp_path / "h.jsonl"
    f.write_bytes(lines)
    chunks = list(Reader(str(f)).batches(10))
    assert len(chunks) >= 4 and [c.span is None for c in chunks] == [True] + [False] * (len(chunks) - 1)
    sent = [pickle.dumps(c) for c in chunks]
    assert all(len(s) < 300 < len(c.data) for s, c in zip(sent[1:], chunks[1:], strict=True))
    assert [pickle.loads(s).data for s in sent] == [c.data for c in chunks]
    f.write_bytes(lines.replace(b"h23", b"h99"))  # the same size, other bytes
    with pytest.raises(InputError, match=f"^cannot read {re.escape(str(f))}: it changed while it was read$"):
        pickle.loads(sent[2])
    assert pickle.loads(sent[1]).data == chunks[1].data  # the lines that did not change
    new = tmp_path / "new.jsonl"
    new.write_bytes(lines)
    os.replace(new, f)
    assert pickle.loads(sent[3]).data == chunks[3].data  # a worker that has the file open reads it still
    os.close(containers._span_file.pop())  # a worker that has not
    containers._span_file.clear()
    with pytest.raises(InputError, match="it was replaced while it was read$"):
        pickle.loads(sent[3])
    f.unlink()
    with pytest.raises(InputError, match="it was removed while it was read$"):
        pickle.loads(sent[3])
    f.write_bytes(lines)
    g = tmp_path / "h.jsonl.gz"
    g.write_bytes(gzip.compress(lines))
    assert all(c.span is None for c in Reader(str(g)).batches(10))
    read, write = os.pipe()  # standard input as a pipe: no place to read it again
    os.write(write, lines)
    os.close(write)
    with os.fdopen(read, "rb") as stdin:
        piped = list(Reader("-", stdin=stdin).batches(10))
    assert all(c.span is None for c in piped) and b"".join(c.data for c in piped) == lines
