"""Shared fixtures: a registry of the installed plugins, a CLI runner, card helpers."""

from __future__ import annotations

import signal
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

sys.path.insert(0, str(Path(__file__).parent))  # the brute-force references in tests/reference.py

ROOT = Path(__file__).resolve().parent.parent


def one_error(res, status: int, *words: str) -> str:
    """The run ended with ``status`` and one ``gin: error:`` line holding
    ``words``, no traceback nor internal error: that line."""
    assert res.returncode == status, (res.returncode, res.stderr)
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr
    errors = [line for line in res.stderr.splitlines() if line.startswith("gin: error:")]
    assert len(errors) == 1, res.stderr
    for word in words:
        assert word in errors[0], errors[0]
    return errors[0]

# A suite started in the background by a shell without job control (``cmd &`` in
# a script, nohup) inherits SIGINT ignored, and so would every gin the tests
# start, which the Ctrl-C tests then cannot interrupt. A handled signal is
# reset to the default in a child: the children get Ctrl-C as a terminal gives it.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config, items):
    """The tests that use Ray run on one worker of pytest-xdist (``--dist
    loadgroup``), which starts the local Ray instance they share once; they
    come first, so that their worker starts on them (they wait on Ray more
    than they compute) while the others share the rest."""
    def uses_ray(item) -> bool:
        return ("ray_address" in getattr(item, "fixturenames", ()) or item.nodeid.startswith("tests/test_ray.py")
                or any(m.name == "xdist_group" and m.args == ("ray",) for m in item.iter_markers()))

    for item in items:
        if uses_ray(item):
            item.add_marker(pytest.mark.xdist_group("ray"))
    items.sort(key=lambda item: not uses_ray(item))  # stable: the order within each part is kept


@pytest.fixture(scope="session")
def registry():
    from gincli.plugin.registry import load_registry

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


#: A local Ray instance for the whole test session: ``ray.init`` with 2 CPUs in a
#: process of its own, which keeps it until its standard input closes. The tests'
#: ``gin match --backend ray --address`` runs connect to it; pytest's own process
#: never becomes a Ray driver (the other tests fork worker pools, which Ray's
#: threads would not survive).
RAY_HEAD = """
import logging, sys
import ray
ctx = ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
print(ctx.address_info["gcs_address"], flush=True)
sys.stdin.read()
ray.shutdown()
"""


@pytest.fixture(scope="session")
def ray_address(tmp_path_factory):
    """The address of a local Ray instance (2 CPUs), started once per test session.
    Skipped, saying why, only where ray cannot be imported."""
    import importlib.util
    import os
    import subprocess

    missing = [m for m in ("ray", "gincli_ray") if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"{' and '.join(missing)} cannot be imported here: pip install ./plugins/gincli-ray installs "
                    "them (the README's test command does)")
    env = dict(os.environ, RAY_AUTH_MODE="disabled", RAY_USAGE_STATS_ENABLED="0")
    env.pop("RAY_ADDRESS", None)
    log = tmp_path_factory.mktemp("ray") / "head.log"
    with open(log, "w") as err:
        head = subprocess.Popen([sys.executable, "-c", RAY_HEAD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=err, text=True, env=env, cwd=log.parent)
    address = head.stdout.readline().strip()
    if not address:
        head.kill()
        head.wait()
        pytest.fail(f"the local Ray instance did not start: {log.read_text()[-2000:]}")
    yield address
    head.stdin.close()
    try:
        head.wait(timeout=60)
    except subprocess.TimeoutExpired:
        head.kill()
        head.wait()
