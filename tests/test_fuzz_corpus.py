"""Issue 31: the inputs the fuzzer (``tests/fuzz_records.py``) found, kept in
``tests/corpus/fuzz/`` and run through the real ``gin score`` and ``gin validate``:
each error is a sentence about the input, never an exception's own text, and a
transcript that fails at hand N keeps the hands before it. A short property test
runs the fuzzer's own mutations in-process."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import fuzz_records
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

GIN = str(Path(sys.executable).with_name("gin"))
CORPUS = fuzz_records.CORPUS


def gin(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, GINCLI_CONFIG_DIR=str(tmp_path / "config"))
    env.pop("GINCLI_DEBUG", None)
    return subprocess.run([GIN, *args], capture_output=True, text=True, env=env, timeout=300)


def no_internal_text(message: str) -> bool:
    return not fuzz_records.INTERNAL.search(message) and fuzz_records.FALLBACK not in message


@pytest.mark.parametrize("kind", ["score", "validate"])
def test_the_corpus_has_inputs(kind):
    assert len(fuzz_records.corpus_files(kind)) >= 1


def test_every_corpus_record_is_scored_or_refused_in_a_sentence_about_it(tmp_path):
    files = fuzz_records.corpus_files("score")
    res = gin(tmp_path, "score", "-f", "json", "--quiet", *map(str, files))
    assert res.returncode in (0, 1), res.stderr
    assert "Traceback" not in res.stdout + res.stderr
    out = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(out) == len(files)  # one record a file: nothing lost
    for path, entry in zip(files, out, strict=True):
        assert "error" in entry or "outcome" in entry, path.name
        if "error" in entry:
            assert no_internal_text(entry["error"]), f"{path.name}: {entry['error']}"
    assert res.returncode == (1 if any("error" in e for e in out) else 0)
    for people in ("text", "csv"):  # the same sentences where people and spreadsheets read them
        shown = gin(tmp_path, "score", "-f", people, "--quiet", *map(str, files))
        assert shown.returncode == res.returncode and "Traceback" not in shown.stdout + shown.stderr
        assert no_internal_text(shown.stdout + shown.stderr)


def test_every_corpus_transcript_is_reported_with_the_hands_before_its_fault(tmp_path):
    files = fuzz_records.corpus_files("validate")
    res = gin(tmp_path, "validate", "-f", "json", "--quiet", *map(str, files))
    assert res.returncode in (0, 1), res.stderr
    assert "Traceback" not in res.stdout + res.stderr
    reports = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(reports) == len(files)
    for path, report in zip(files, reports, strict=True):
        for fault in report["errors"]:
            assert no_internal_text(fault["message"]), f"{path.name}: {fault['message']}"
            assert fault["rule"] != "internal-error", path.name
            if fault["hand"] is not None:
                assert len(report["hands"]) == fault["hand"], path.name
    assert res.returncode == (1 if any(not r["valid"] for r in reports) else 0)
    for people in ("text", "csv"):
        shown = gin(tmp_path, "validate", "-f", people, "--quiet", *map(str, files))
        assert shown.returncode == res.returncode and "Traceback" not in shown.stdout + shown.stderr
        assert no_internal_text(shown.stdout + shown.stderr)


@pytest.fixture(scope="module")
def seeds():
    return {"score": fuzz_records.seed_records(), "validate": fuzz_records.seed_transcripts()}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                  HealthCheck.function_scoped_fixture])
@given(kind=st.sampled_from(["score", "validate"]), pick=st.integers(0, 10**6),
       rng=st.randoms(use_true_random=False), mode=st.sampled_from(["json", "text", "csv"]))
def test_a_mutated_record_or_transcript_gets_a_sentence_about_itself(seeds, kind, pick, rng, mode):
    """Any mutant of a valid record or transcript: no exception escapes, no
    message shows an exception's text, no transcript loses its finished hands."""
    pool = seeds[kind]
    mutant = fuzz_records.mutate(pool[pick % len(pool)], random.Random(rng.random()))
    assert fuzz_records.signature(kind, fuzz_records.encode(mutant), mode) is None
