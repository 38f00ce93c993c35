"""The gin process's allocator keeps what it frees (gincli/base/heap.py): a
block freed at the heap's top stays the process's, for the next chunk's, where
the C library would give it back and fault it in again; the ``gin`` command
sets it, a program importing gincli is left as it is, and an environment
that tunes the allocator itself is obeyed."""

from __future__ import annotations

import os
import platform
import subprocess
import sys
import tempfile

import pytest

from gincli.base import heap

try:
    from gincli.base import _heap
except ImportError:
    _heap = None  # type: ignore[assignment]

GLIBC = platform.libc_ver()[0] == "glibc"
needs_glibc = pytest.mark.skipif(_heap is None or not GLIBC or not sys.platform.startswith("linux"),
                                 reason="the thresholds are the GNU C library's, and need the compiled _heap")

#: In a fresh process: a 3 MB block (past the C library's first threshold, 128 kB) made
#: and freed; how much of the process's resident memory went with it.
PROBE = """
import os, sys
import gincli.api  # a program using gincli's Python API: its allocator left as it is
from gincli.base import heap
kept = heap.keep_freed() if sys.argv[1] == "keep" else False
page = os.sysconf("SC_PAGE_SIZE")
def resident():
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * page
block = b"x" * 3_000_000
before = resident()
del block
print(kept, before - resident())
"""


def _probe(how: str, env: dict[str, str] | None = None) -> tuple[bool, int]:
    if env is None:  # the allocator as the C library leaves it, whatever this machine's environment tunes
        env = {k: v for k, v in os.environ.items() if k not in heap._TUNED}
    with tempfile.TemporaryDirectory() as away:  # not the checkout's gincli: the installed one, compiled
        out = subprocess.run([sys.executable, "-c", PROBE, how], capture_output=True, text=True, check=True,
                             env=env, cwd=away).stdout.split()
    return out[0] == "True", int(out[1])


@needs_glibc
def test_a_freed_block_stays_the_processs():
    kept, given_back = _probe("keep")
    assert kept
    assert given_back < 500_000
    not_kept, given_back = _probe("leave")
    assert not not_kept
    assert given_back > 2_000_000  # without: its own mapping, unmapped when freed (the rest: the pages around it)


@needs_glibc
def test_an_environment_that_tunes_the_allocator_is_obeyed():
    for name in ("MALLOC_TRIM_THRESHOLD_", "GLIBC_TUNABLES"):
        kept, given_back = _probe("keep", dict(os.environ, **{name: "131072" if name.startswith("M") else ""}))
        assert not kept, name
        assert given_back > 2_000_000, name


def test_the_gin_command_sets_them(monkeypatch):
    """(A program importing gincli does not: the probe above without ``keep``.)"""
    import gincli.entry

    calls = []
    monkeypatch.setattr(heap, "keep_freed", lambda: calls.append(1) or True)
    monkeypatch.setattr(sys, "argv", ["gin", "--version"])
    with pytest.raises(SystemExit):
        gincli.entry.main()
    assert calls == [1]
