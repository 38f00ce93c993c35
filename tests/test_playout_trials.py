"""benchmarks/trials/*.patch: the trials of master's play-outs that docs/benchmarks.md
measured and did not keep, each a patch of gincli/hand/_playout.c that can be played
again. Each still applies to the play-outs as they are, builds warning-free, plays as
the project's build with its setting off, and plays otherwise with it on."""

from __future__ import annotations

import random
import shutil
import subprocess
from pathlib import Path
from types import ModuleType

import pytest
from conftest import ROOT
from test_accel import HEADERS, SOURCES, _compiler, build

from gincli.hand import playout

TRIALS = ROOT / "benchmarks" / "trials"
#: Each patch, the variable that sets it, and a value that changes the play.
PATCHES = {"playout_softmax.patch": ("GINCLI_PT", "1"), "playout_expected.patch": ("GINCLI_HEAVY", "3")}


def patched(patch: Path, folder: Path) -> Path:
    """A copy of the play-outs' source (and the headers it includes) in ``folder``,
    ``patch`` applied: the source's path."""
    source = folder / SOURCES["_playout"].relative_to(ROOT)
    for path in (SOURCES["_playout"], *(ROOT / "gincli" / "rulebook" / h for h in HEADERS["_playout"])):
        target = folder / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(path, target)
    applied = subprocess.run(["git", "apply", str(patch)], cwd=folder, capture_output=True, text=True)
    assert applied.returncode == 0, f"{patch.name} no longer applies: {applied.stderr}"
    return source


def answers(module: ModuleType) -> list[tuple]:
    """``module``'s play-outs and searches of a hundred dealt positions."""
    rng = random.Random(2029)
    out = []
    for i in range(100):
        deck = rng.sample(range(52), 52)
        mine, theirs, pile, stock = (sum(1 << c for c in deck[:11]), sum(1 << c for c in deck[11:21]),
                                     bytes(deck[21:23]), bytes(deck[23:]))
        rules = (10, 25, 25, 31, 8, 0, 5)
        weights = bytes(1 if (theirs >> c & 1 or c in stock) else 0 for c in range(52))
        candidates = bytes(playout.DISCARD_ID + c for c in deck[:3])
        took = mine & -mine
        out.append((module.playout(mine, pile, 0, playout.DISCARD, -1, took, 0, theirs, stock, rules, -1),
                    module.search(mine, pile, 0, playout.DISCARD, -1, took, 0, weights, len(stock), rules,
                                  candidates, 8, i, 2)))
    return out


@pytest.mark.parametrize("name", sorted(PATCHES))
def test_a_trial_applies_builds_and_plays_as_it_says(name, tmp_path, monkeypatch):
    cc = _compiler()
    shipped = playout.PLAYOUT
    if cc is None or shipped is None or shutil.which("git") is None:
        pytest.skip("needs a C compiler, git and the compiled play-outs")
    source = patched(TRIALS / name, tmp_path / "src")
    variable, value = PATCHES[name]
    # each build reads its setting once, when it is loaded
    monkeypatch.delenv(variable, raising=False)
    (tmp_path / "off").mkdir()
    off = answers(build(cc, "_playout", tmp_path / "off", source=source))
    monkeypatch.setenv(variable, value)
    (tmp_path / "on").mkdir()
    on = answers(build(cc, "_playout", tmp_path / "on", source=source))
    project = answers(shipped)
    # off: the cheap policy's play-outs, move for move (the softmax trial draws one more
    # number a world, so its searches' worlds are others)
    assert [a[0] for a in off] == [a[0] for a in project]
    if name == "playout_expected.patch":
        assert off == project
    # on: the trial plays otherwise
    assert sum(a[1] != b[1] for a, b in zip(on, project, strict=True)) >= 50
