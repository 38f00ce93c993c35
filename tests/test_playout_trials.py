"""benchmarks/trials/*.patch: the trials of master's play-outs that docs/benchmarks.md
measured and did not keep, each a patch of gincli/hand/_playout.c that can be played
again. Each still applies to the play-outs as they are, builds warning-free, plays as
the project's build with its setting off, and plays otherwise with it on."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import random
import shutil
import subprocess
import sysconfig
from pathlib import Path
from types import ModuleType

import pytest
from conftest import ROOT
from test_accel import STRICT, _compiler

from gincli.hand import playout

TRIALS = ROOT / "benchmarks" / "trials"
#: Each patch, the variable that sets it, and a value that changes the play.
PATCHES = {"playout_softmax.patch": ("GINCLI_PT", "1"), "playout_expected.patch": ("GINCLI_HEAVY", "3")}


def built(patch: Path, folder: Path, cc: str) -> Path:
    """The play-outs' module with ``patch`` applied, built into ``folder``."""
    for name in ("hand/_playout.c", "rulebook/_knock.h", "rulebook/_melds.h", "rulebook/_bits.h",
                 "rulebook/_stdscore_tables.h"):
        target = folder / "gincli" / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(ROOT / "gincli" / name, target)
    applied = subprocess.run(["git", "apply", str(patch)], cwd=folder, capture_output=True, text=True)
    assert applied.returncode == 0, f"{patch.name} no longer applies: {applied.stderr}"
    so = folder / ("_playout" + (sysconfig.get_config_var("EXT_SUFFIX") or ".so"))
    done = subprocess.run([cc, "-O2", "-shared", "-fPIC", *STRICT, "-I", sysconfig.get_paths()["include"],
                           str(folder / "gincli/hand/_playout.c"), "-o", str(so)], capture_output=True, text=True)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return so


def loaded(so: Path, copy: str) -> ModuleType:
    """The module at ``so``, loaded from a copy of its own (each copy reads its
    setting once, when it is loaded)."""
    path = so.with_name(copy + so.name)
    shutil.copyfile(so, path)
    loader = importlib.machinery.ExtensionFileLoader("_playout", str(path))
    spec = importlib.util.spec_from_file_location("_playout", str(path), loader=loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


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
    so = built(TRIALS / name, tmp_path, cc)
    variable, value = PATCHES[name]
    monkeypatch.delenv(variable, raising=False)
    off = answers(loaded(so, "off"))
    monkeypatch.setenv(variable, value)
    on = answers(loaded(so, "on"))
    project = answers(shipped)
    # off: the cheap policy's play-outs, move for move (the softmax trial draws one more
    # number a world, so its searches' worlds are others)
    assert [a[0] for a in off] == [a[0] for a in project]
    if name == "playout_expected.patch":
        assert off == project
    # on: the trial plays otherwise
    assert sum(a[1] != b[1] for a, b in zip(on, project, strict=True)) >= 50
