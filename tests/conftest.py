"""Shared fixtures: a registry of the installed plugins, a CLI runner, card helpers."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))  # the brute-force references in tests/reference.py

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="session")
def registry():
    from gincli.plugins import load_registry

    return load_registry()


@pytest.fixture
def run(tmp_path, monkeypatch):
    """Invoke ``gin`` in-process; returns the click Result (stdout and stderr apart)."""
    from gincli.cli import make_app

    monkeypatch.setenv("GINCLI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.delenv("GINCLI_DEBUG", raising=False)
    app = make_app()
    runner = CliRunner()

    def invoke(*args: str, input: str | None = None):
        return runner.invoke(app, list(args), input=input)

    return invoke
