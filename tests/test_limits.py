"""Limits that are checked: a JSON Lines line past MAX_RECORD_BYTES is an error
for that record, read in constant memory, the records after it still read; a
.json or .toml document past MAX_DOCUMENT_BYTES (after decompression) is one
sentence for its input, never held whole; ``gin match --resume`` reads its
file a bounded line at a time."""

from __future__ import annotations

import gzip
import io
import json
import os
import pickle
import subprocess
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest
from helpers import json_lines, record

from gincli.formats import containers
from gincli.formats.containers import Reader

GIN = str(Path(sys.executable).with_name("gin"))
KNOCKER = "7s 7h 7d 7c Js Qs Ks As 2c 5d"
DEFENDER = "Kd Kh Kc Ts Qh 8d 6c 5h 2h Ac"
LIMIT = 1024  # the record limit the in-process tests set
LONG = 20_000_000  # bytes of the line past it: the memory tests' yardstick


def line(ident: str) -> bytes:
    return json.dumps(dict(record(KNOCKER, DEFENDER), id=ident)).encode() + b"\n"


def long_line(size: int = LONG) -> bytes:
    return b'{"id": "long", "x": "' + b"x" * size + b'"}\n'


@pytest.fixture
def small_limit(monkeypatch):
    monkeypatch.setattr(containers, "MAX_RECORD_BYTES", LIMIT)
    return LIMIT


def read_all(data: bytes, fmt: str | None, parse: bool = True) -> tuple[list, int]:
    """The items of ``data`` as standard input, and the peak of memory allocated
    while reading them (the input itself aside)."""
    stdin = io.BytesIO(data)  # shares data's buffer: no copy to count
    tracemalloc.start()
    try:
        items = [item.load() for item in Reader("-", fmt, stdin=stdin).items(parse=parse)]
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return items, peak


@pytest.mark.parametrize("parse", [True, False])
@pytest.mark.parametrize("fmt", ["jsonl", None])  # declared, and sniffed from the first line
def test_a_line_past_the_record_limit_is_that_records_error_read_in_constant_memory(small_limit, fmt, parse):
    data = line("a") + long_line() + line("b")
    items, peak = read_all(data, fmt, parse)
    assert [(i.line, i.error) for i in items] == [
        (1, None), (2, "line 2 is longer than 1 KiB, the limit of a record"), (3, None)]
    assert items[1].record is None and items[1].raw is None
    assert [i.record["id"] for i in (items[0], items[2])] == ["a", "b"]
    assert peak < LONG // 20, f"{peak:,} bytes held reading a line of {LONG:,}"


def test_a_first_line_past_the_limit_is_that_records_error_the_rest_still_read(small_limit):
    for fmt in ("jsonl", None):
        items, peak = read_all(long_line() + line("a") + line("b"), fmt)
        assert [(i.line, i.error is None) for i in items] == [(1, False), (2, True), (3, True)]
        assert items[0].error == "line 1 is longer than 1 KiB, the limit of a record" and peak < LONG // 20


def test_the_line_limit_counts_bytes_of_the_line_not_its_newline_nor_a_byte_order_mark(small_limit):
    exact = b'{"id": "' + b"x" * (LIMIT - 10) + b'"}'
    assert len(exact) == LIMIT
    over = exact[:-2] + b'x"}'
    data = exact + b"\n" + over + b"\n" + exact  # the last line has no newline
    for fmt in ("jsonl", None):
        items, _ = read_all(data, fmt)
        assert [i.error for i in items] == [None, "line 2 is longer than 1 KiB, the limit of a record", None]
        items, _ = read_all(b"\xef\xbb\xbf" + data, fmt)  # a byte-order mark: skipped, not counted
        assert [i.error for i in items] == [None, "line 2 is longer than 1 KiB, the limit of a record", None]
        items, _ = read_all(b"\xef\xbb\xbf" + over + b"\n" + exact, fmt)
        assert [i.error is None for i in items] == [False, True]


def test_a_blank_line_past_the_limit_is_that_lines_error_and_keeps_the_line_numbers(small_limit):
    data = line("a") + b" " * (3 * LIMIT) + b"{}\n" + line("b") + b"\n" * 3 + line("c")
    for fmt in ("jsonl", None):
        items, _ = read_all(data, fmt)
        assert [(i.line, i.error) for i in items] == [
            (1, None), (2, "line 2 is longer than 1 KiB, the limit of a record"), (3, None), (7, None)]
    items, _ = read_all(b" " * (3 * LIMIT) + b"\n" + line("a"), None)  # sniffed: a blank start past the limit
    assert [(i.line, i.error is None) for i in items] == [(1, False), (2, True)]


@pytest.mark.parametrize("format", ["json", "text"])
def test_gin_score_reports_a_line_past_the_limit_and_scores_the_records_after_it(run, tmp_path, small_limit,
                                                                                  format):
    f = tmp_path / "h.jsonl.gz"
    f.write_bytes(gzip.compress(line("a") + long_line(200_000) + line("b")))
    res = run("score", "-f", format, "--workers", "1", str(f))
    assert res.exit_code == 1 and "Traceback" not in res.stderr
    if format == "json":
        out = json_lines(res.stdout)
        assert [r.get("points") for r in out] == [24, None, 24]
        assert out[1] == {"id": None, "error": "line 2 is longer than 1 KiB, the limit of a record"}
    else:
        assert res.stdout.count("ann knocks and wins 24") == 2
        assert f"{f}:2: line 2 is longer than 1 KiB, the limit of a record" in res.stderr


def test_gin_validate_reports_a_transcript_line_past_the_limit_and_replays_the_others(run, tmp_path,
                                                                                       monkeypatch):
    dealt = json.loads(run("deal", "--seed", "1", "-f", "json").stdout)
    lines = [json.dumps(dict(dealt, id=i)).encode() + b"\n" for i in ("t1", "t2")]
    monkeypatch.setattr(containers, "MAX_RECORD_BYTES", max(map(len, lines)) + 100)
    f = tmp_path / "t.jsonl"
    f.write_bytes(lines[0] + long_line(200_000) + lines[1])
    res = run("validate", "-f", "json", "--workers", "1", str(f))
    assert res.exit_code == 1, res.stderr
    out = json_lines(res.stdout)
    assert [r["id"] for r in out] == ["t1", None, "t2"] and out[0]["valid"] and out[2]["valid"]
    assert out[1]["errors"][0]["rule"] == "transcript-format"
    assert out[1]["errors"][0]["message"].startswith("line 2 is longer than ")
    assert out[1]["errors"][0]["message"].endswith(" bytes, the limit of a record")


# -- a whole document --------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["h.json", "h.toml", "h.json.gz", "h"])  # "h": sniffed
def test_a_document_past_its_limit_is_one_sentence_and_the_other_inputs_are_read(run, tmp_path, monkeypatch, name):
    monkeypatch.setattr(containers, "MAX_DOCUMENT_BYTES", 64 * 1024)
    recs = [dict(record(KNOCKER, DEFENDER), id=f"h{i}") for i in range(1000)]
    if name.startswith("h.toml"):
        text = "".join(f'[[records]]\nid = "h{i}"\nknocker = "ann"\n[records.hands]\nann = '
                       f'{json.dumps(KNOCKER.split())}\nbob = {json.dumps(DEFENDER.split())}\n' for i in range(1000))
    else:
        text = json.dumps(recs, indent=1)
    big = tmp_path / name
    big.write_bytes(gzip.compress(text.encode()) if name.endswith(".gz") else text.encode())
    small = tmp_path / "small.json"
    small.write_text(json.dumps(recs[:2]))
    res = run("score", "-f", "json", str(big), str(small))
    assert res.exit_code == 2
    what = "decompresses to more" if name.endswith(".gz") else "is larger"
    assert res.stderr.splitlines()[0] == (f"gin: error: cannot read {big}: it {what} than 64 KiB, the limit of a "
                                          ".json or .toml document (JSON Lines, .jsonl, is read a record at a time)")
    assert [r["id"] for r in json_lines(res.stdout)] == ["h0", "h1"]


@pytest.mark.parametrize("fmt", ["json", "toml", None])
def test_a_document_past_its_limit_is_never_held_whole(small_limit, monkeypatch, fmt):
    """Its first line too is read to the record limit only (below the
    document's, as the real limits are), the rest in pieces."""
    monkeypatch.setattr(containers, "MAX_DOCUMENT_BYTES", 64 * 1024)
    data = gzip.compress(b"[" + b" " * LONG + b"{}]")
    from gincli.base.errors import InputError

    tracemalloc.start()
    try:
        with pytest.raises(InputError, match="decompresses to more than 64 KiB"):
            list(Reader("-", fmt, stdin=io.BytesIO(data)).items())
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < LONG // 20, f"{peak:,} bytes held reading a document of {LONG:,}"


def test_a_document_at_its_limit_is_read(monkeypatch):
    text = json.dumps([dict(record(KNOCKER, DEFENDER), id="h0")]).encode()
    monkeypatch.setattr(containers, "MAX_DOCUMENT_BYTES", len(text))
    [item] = Reader("-", "json", stdin=io.BytesIO(text)).items()
    assert item.record["id"] == "h0"


# -- the real limit, in a process of its own ---------------------------------------------------

def test_a_gzip_line_expanding_past_64_mib_costs_that_record_only_in_bounded_memory(tmp_path):
    """A small file whose one line expands to 384 MiB: that line's error, the
    records around it scored, and the process never holds the line (its peak
    memory well under the line's size)."""
    mib = 384
    member = gzip.compress(b"x" * (1 << 20))  # gzip members, one after another, are one stream
    f = tmp_path / "bomb.jsonl.gz"
    f.write_bytes(gzip.compress(line("a") + b'{"id": "bomb", "x": "') + member * mib
                  + gzip.compress(b'"}\n' + line("b")))
    assert f.stat().st_size < 2 * 1024 * 1024
    with open(tmp_path / "out", "wb") as out, open(tmp_path / "err", "wb") as err:
        proc = subprocess.Popen([GIN, "score", "-f", "json", "--workers", "1", str(f)], stdout=out, stderr=err)
        watchdog = threading.Timer(300, proc.kill)
        watchdog.start()
        try:
            _, status, usage = os.wait4(proc.pid, 0)
        finally:
            watchdog.cancel()
        proc.returncode = os.waitstatus_to_exitcode(status)
    stderr = (tmp_path / "err").read_text()
    assert proc.returncode == 1, stderr
    out = json_lines((tmp_path / "out").read_text())
    assert [r.get("points") for r in out] == [24, None, 24]
    assert out[1] == {"id": None, "error": "line 2 is longer than 64 MiB, the limit of a record"}
    peak = usage.ru_maxrss * 1024  # Linux: kibibytes
    # The process's own peak (the allocator's, the interpreter's and gincli's; about 90 MB on a quiet
    # machine, up to 316 MB seen on a loaded one): never the line's size.
    assert peak < mib * (1 << 20), f"peak memory {peak:,} bytes for a line of {mib} MiB"


def test_a_line_past_the_limit_is_held_once_at_most_in_pieces(tmp_path, run):
    """What gincli itself allocates for a 384 MiB line, counted by Python
    (tracemalloc, in process): at most the limit (64 MiB) once, in pieces, and
    never the line."""
    mib = 384
    member = gzip.compress(b"x" * (1 << 20))
    f = tmp_path / "bomb.jsonl.gz"
    f.write_bytes(gzip.compress(line("a") + b'{"id": "bomb", "x": "') + member * mib
                  + gzip.compress(b'"}\n' + line("b")))
    tracemalloc.start()
    try:
        res = run("score", "-f", "json", "--workers", "1", str(f))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert res.exit_code == 1
    assert [r.get("points") for r in json_lines(res.stdout)] == [24, None, 24]
    assert peak < containers.MAX_RECORD_BYTES * 3 // 2, f"{peak:,} bytes allocated for a line of {mib} MiB"


# -- gin match --resume -------------------------------------------------------------------------

MATCH = ["match", "--bots", "simple,random", "--games", "4", "--seed", "3", "--workers", "1", "-q", "-f", "json"]


def test_resume_refuses_a_line_past_the_limit_without_holding_it(run, tmp_path, monkeypatch):
    f = tmp_path / "m.jsonl"
    res = run(*MATCH, "--transcripts", str(f))
    assert res.exit_code == 0, res.stderr
    full = f.read_bytes()
    lines = full.splitlines(keepends=True)
    monkeypatch.setattr(containers, "MAX_RECORD_BYTES", 64 * 1024)
    content = lines[0] + long_line() + lines[1]
    f.write_bytes(content)
    tracemalloc.start()
    try:
        res = run(*MATCH, "--transcripts", str(f), "--resume")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert res.exit_code == 2
    assert (f"{f} line 2 is longer than 64 KiB, the limit of a transcript; --resume only finishes a file this "
            "match wrote") in res.stderr
    assert f.read_bytes() == content and peak < LONG // 10
    # a last line cut short, past the limit: dropped, and the match finished as before
    f.write_bytes(lines[0] + lines[1][:-1] + b"x" * 200_000)
    res = run(*MATCH, "--transcripts", str(f), "--resume")
    assert res.exit_code == 0, res.stderr
    assert f.read_bytes() == full


# -- the line reader itself, against splitting the bytes whole ----------------------------------

from hypothesis import (  # noqa: E402
    given,
    settings,
    strategies as st,  # noqa: E402
)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 400), max_size=6), st.integers(1, 300), st.integers(1, 100), st.booleans(),
       st.integers(1, 200))
def test_lines_of_gives_each_line_whole_or_cut_past_its_limit(sizes, limit, piece, last_ended, buffer):
    """Every line at most ``limit`` bytes (its newline aside) comes whole; every
    longer one as a Cut whose pieces, with what is left of it in the stream,
    are the line; lines after a long one are read as before. Whatever the
    piece size and buffering."""
    lines = [b"x" * n + b"\n" for n in sizes]
    if lines and not last_ended:
        lines[-1] = lines[-1][:-1]
    data = b"".join(lines)
    stream = io.BufferedReader(io.BytesIO(data), buffer_size=buffer)
    old = containers.PIECE
    containers.PIECE = piece
    try:
        got = []
        for line in containers.lines_of(stream.readline, limit):
            if containers.too_long(line):
                whole = b"".join(line.pieces)
                assert len(whole) - whole.endswith(b"\n") > limit
                if not line.ended:
                    rest = stream.readline()
                    whole += rest
                assert bytes(line) == line.pieces[0]
                got.append((True, whole))
            else:
                got.append((False, line))
    finally:
        containers.PIECE = old
    expected = [(len(ln) - ln.endswith(b"\n") > limit, ln) for ln in lines if ln]
    assert got == expected


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([b"{", b" {", b"", b" ", b"\t \r", b"x"]), st.integers(0, 300)),
                max_size=12),
       st.integers(1, 250), st.integers(1, 90), st.integers(1, 5), st.booleans(), st.booleans())
def test_batches_give_the_items_the_line_reader_gives(shapes, limit, piece, size, last_ended, gzipped):
    """Reader.batches, which reads JSON Lines in pieces and cuts them at line
    ends, gives the items Reader.items gives a line at a time: the same
    lines, indices, blank lines skipped, each line past the limit its error,
    whatever the piece size, the limit, the chunk size and the compression."""
    import gzip as gz
    import tempfile

    from gincli.formats.containers import Lines, Reader

    lines = [start + (b"y" * n if start.strip() else b"") + b"\n" for start, n in shapes]
    if lines and not last_ended:
        lines[-1] = lines[-1][:-1]
    data = b"".join(lines)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "h.jsonl.gz" if gzipped else "h.jsonl")
        with open(path, "wb") as fh:
            fh.write(gz.compress(data) if gzipped else data)
        old = containers.PIECE, containers.MAX_RECORD_BYTES
        containers.PIECE, containers.MAX_RECORD_BYTES = piece, limit
        try:
            want = [(i.index, i.line, i.error, i.raw.rstrip(b"\n") if i.raw else None)
                    for i in Reader(path, "jsonl").items(parse=False)]
            chunks = list(Reader(path, "jsonl").batches(size))
            got = [(i.index, i.line, i.error, i.raw) for chunk in chunks
                   for i in (chunk.items() if isinstance(chunk, Lines) else chunk)]
            # as a worker is sent them: a chunk that lies whole in the file as its place there, read again
            sent = [pickle.loads(pickle.dumps(chunk)) for chunk in chunks]
            assert [(c.line, c.index, c.data, c.cut) for c in sent] == [(c.line, c.index, c.data, c.cut)
                                                                        for c in chunks]
            for c in chunks:
                if c.span is not None:
                    assert not gzipped and data[c.span.offset:c.span.offset + c.span.length] == c.data
        finally:
            containers.PIECE, containers.MAX_RECORD_BYTES = old
    assert got == want
    assert all(len(c.data) <= max(size * (limit + 1), 1) + piece + limit + 1 for c in chunks)
