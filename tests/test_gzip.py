"""Gzip-compressed inputs for ``gin score`` and ``gin validate``: ``.gz`` files
and gzip data on standard input are decompressed as they are read; gzip data
cut short is one sentence naming the input, after the records before it."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from helpers import json_lines, record

GIN = str(Path(sys.executable).with_name("gin"))
KNOCKER = "7s 7h 7d 7c Js Qs Ks As 2c 5d"
DEFENDER = "Kd Kh Kc Ts Qh 8d 6c 5h 2h Ac"


def records(n: int) -> list[dict]:
    return [dict(record(KNOCKER, DEFENDER), id=f"h{i}") for i in range(n)]


def jsonl(recs: list[dict]) -> bytes:
    return "".join(json.dumps(r) + "\n" for r in recs).encode()


def test_a_jsonl_gz_file_is_scored(run, tmp_path):
    f = tmp_path / "hands.jsonl.gz"
    f.write_bytes(gzip.compress(jsonl(records(3))))
    res = run("score", "-f", "json", str(f))
    assert res.exit_code == 0, res.stderr
    assert [(r["id"], r["points"]) for r in json_lines(res.stdout)] == [("h0", 24), ("h1", 24), ("h2", 24)]


def test_a_json_gz_file_and_a_toml_gz_file_are_scored(run, tmp_path):
    (tmp_path / "games.json.gz").write_bytes(gzip.compress(json.dumps(records(2), indent=2).encode()))
    (tmp_path / "hand.toml.gz").write_bytes(gzip.compress((ROOT / "examples" / "hand.toml").read_bytes()))
    res = run("score", "-f", "json", str(tmp_path / "games.json.gz"), str(tmp_path / "hand.toml.gz"))
    assert res.exit_code == 0, res.stderr
    assert [r["id"] for r in json_lines(res.stdout)] == ["h0", "h1", "declared"]


def test_the_jsonl_in_a_gz_file_without_a_known_extension_is_sniffed(run, tmp_path):
    f = tmp_path / "hands.gz"
    f.write_bytes(gzip.compress(b"\n\n" + jsonl(records(2)) + b"{oops\n"))
    res = run("score", "-f", "json", str(f))
    assert res.exit_code == 1
    out = json_lines(res.stdout)
    assert [r.get("points") for r in out] == [24, 24, None]
    assert out[2]["error"].startswith("line 5 is not valid JSON")  # lines counted in the decompressed text


def test_gzip_on_standard_input_is_recognised_by_its_magic_bytes(tmp_path):
    data = gzip.compress(jsonl(records(4)))
    res = subprocess.run([GIN, "score", "-q", "-f", "json", "-"], input=data, capture_output=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert [r["id"] for r in json_lines(res.stdout.decode())] == ["h0", "h1", "h2", "h3"]
    # the same as the plain data
    plain = subprocess.run([GIN, "score", "-q", "-f", "json", "-"], input=jsonl(records(4)), capture_output=True,
                           timeout=300)
    assert plain.stdout == res.stdout


def test_gzip_on_standard_input_in_process(run):
    res = run("score", "-f", "json", "-", input=gzip.compress(json.dumps(records(2)).encode()))
    assert res.exit_code == 0, res.stderr
    assert [r["id"] for r in json_lines(res.stdout)] == ["h0", "h1"]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_a_truncated_gzip_file_keeps_the_records_read_before_and_exits_2(tmp_path, workers):
    n = 5000  # several chunks: with two workers they are scored in a pool
    data = gzip.compress(jsonl(records(n)))
    f = tmp_path / "hands.jsonl.gz"
    f.write_bytes(data[: len(data) // 2])
    good = tmp_path / "good.jsonl"
    good.write_bytes(jsonl(records(1)))
    res = subprocess.run([GIN, "score", "-f", "json", "--workers", workers, str(f), str(good)], capture_output=True,
                         text=True, timeout=300)
    assert res.returncode == 2
    errors = [line for line in res.stderr.splitlines() if line.startswith("gin: error:")]
    assert errors == [f"gin: error: cannot read {f}: its gzip data is truncated"]
    out = json_lines(res.stdout)
    read = len(out) - 1
    assert 0 < read < n
    assert [r["id"] for r in out] == [f"h{i}" for i in range(read)] + ["h0"]  # in order, then the next file
    assert f"gin score: {read + 1:,} hands scored" in res.stderr
    assert "Traceback" not in res.stderr


def test_corrupt_or_not_gzip_data_is_one_sentence(run, tmp_path):
    data = bytearray(gzip.compress(jsonl(records(200))))
    data[-6] ^= 0xFF  # the stored checksum: every record decompresses, then the check fails
    (tmp_path / "crc.jsonl.gz").write_bytes(bytes(data))
    (tmp_path / "plain.json.gz").write_text(json.dumps(records(1)))
    res = run("score", "-f", "json", str(tmp_path / "crc.jsonl.gz"), str(tmp_path / "plain.json.gz"))
    assert res.exit_code == 2
    assert len(json_lines(res.stdout)) == 200
    errors = [line for line in res.stderr.splitlines() if line.startswith("gin: error:")]
    assert errors[0].startswith(f"gin: error: cannot read {tmp_path / 'crc.jsonl.gz'}: its gzip data is corrupt")
    assert errors[1] == f"gin: error: cannot read {tmp_path / 'plain.json.gz'}: it is not gzip data"


def test_validate_reads_gzip_files_and_stdin(run, tmp_path):
    docs = [json.loads(run("deal", "--seed", str(seed), "-f", "json").stdout) for seed in (1, 2, 3)]
    (tmp_path / "t.jsonl.gz").write_bytes(gzip.compress("".join(json.dumps(d) + "\n" for d in docs).encode()))
    (tmp_path / "game.json.gz").write_bytes(gzip.compress((ROOT / "examples" / "game.json").read_bytes()))
    res = run("validate", "-f", "json", str(tmp_path / "t.jsonl.gz"), str(tmp_path / "game.json.gz"))
    assert res.exit_code == 0, res.stderr
    reports = json_lines(res.stdout)
    assert len(reports) == 4 and all(r["valid"] for r in reports)
    piped = subprocess.run([GIN, "validate", "-q", "--brief", "-"], input=(tmp_path / "t.jsonl.gz").read_bytes(),
                           capture_output=True, timeout=300)
    assert piped.returncode == 0, piped.stderr
    assert piped.stdout.decode().count("valid, not complete") == 3


def test_validate_with_truncated_gzip_replays_what_came_before(run, tmp_path):
    doc = json.loads(run("deal", "--seed", "5", "-f", "json").stdout)
    data = gzip.compress("".join(json.dumps(dict(doc, id=f"t{i}")) + "\n" for i in range(400)).encode())
    f = tmp_path / "t.jsonl.gz"
    f.write_bytes(data[: len(data) * 3 // 4])
    res = run("validate", "-f", "json", "--workers", "1", str(f))
    assert res.exit_code == 2
    assert f"cannot read {f}: its gzip data is truncated" in res.stderr
    reports = json_lines(res.stdout)
    assert 0 < len(reports) < 400 and all(r["valid"] for r in reports)
