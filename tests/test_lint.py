"""The tree is clean by its own checkers, as pyproject.toml configures them:
ruff (style, imports, likely bugs) on every Python file, mypy on gincli and the
plugins' packages. Both come with the ``test`` extra, so that the README's test
command runs them; a finding fails the test with the checker's own lines."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest
from conftest import ROOT


def checker(module: str, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"{module} is not installed: pip install '.[test]'")
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout)


def test_ruff_finds_nothing():
    res = checker("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert res.returncode == 0, res.stdout + res.stderr


def test_mypy_finds_nothing(tmp_path):
    res = checker("mypy", "--cache-dir", str(tmp_path / "cache"), "--no-error-summary")
    assert res.returncode == 0, res.stdout + res.stderr
