"""Match backends (``gincli_register_match_backends``): the local worker pool is
the built-in backend, registered through the hook; a plugin's backend plays the
very same match; whatever a faulty backend gives back is one sentence naming its
plugin, never an internal error; --backend and --address are checked up front.
The Ray backend itself is tested in test_ray.py."""

from __future__ import annotations

import json
import textwrap

import pytest

BACKEND = '''
from gincli import MatchBackend, hookimpl


class Backend(MatchBackend):
    name = "{name}"
    description = "a test backend"
    options = {{"flavour": "a test option"}}

    def start(self, options, workers):
{start}

    def chunk_size(self, unit, remaining, workers):
{chunk_size}

    def map(self, work, chunks):
{map}

    def stop(self):
{stop}


@hookimpl
def gincli_register_match_backends(register):
    register(Backend())
'''

GOOD = {"start": "return 2", "chunk_size": "return 3", "map": "for chunk in chunks:\n    yield work(chunk)",
        "stop": "pass"}


def backend_dir(tmp_path, name="serial", **methods):
    code = dict(GOOD, **methods)
    folder = tmp_path / f"plugins-{name}"
    folder.mkdir(exist_ok=True)
    (folder / f"{name}.py").write_text(BACKEND.format(name=name, **{k: textwrap.indent(v, " " * 8)
                                                                    for k, v in code.items()}))
    return folder


MATCH = ("match", "--bots", "simple,random", "--hands", "30", "--seed", "5", "--format", "json", "-q")


def test_the_local_backend_is_a_builtin_registered_through_the_hook(registry):
    plugins = {p.name: p for p in registry.plugins}
    assert plugins["gincli-backends"].hooks == ["gincli_register_match_backends"]
    assert registry.owner[("match backend", "local")] == "gincli-backends"


def test_a_plugins_backend_plays_the_same_match_as_the_local_one(run, tmp_path):
    folder = backend_dir(tmp_path)
    local = run(*MATCH, "--workers", "1", "--transcripts", str(tmp_path / "local.jsonl"))
    assert local.exit_code == 0, local.stderr
    other = run("--plugins-dir", str(folder), *MATCH, "--backend", "serial", "--backend-option", "flavour=x",
                "--transcripts", str(tmp_path / "serial.jsonl"))
    assert other.exit_code == 0, other.stderr
    assert other.stdout == local.stdout
    assert (tmp_path / "serial.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    listed = json.loads(run("--plugins-dir", str(folder), "plugins", "--format", "json").stdout)
    assert {"match_backends": ["serial"]} in [p["registered"] for p in listed["plugins"]]


@pytest.mark.parametrize("map_", [
    "for chunk in chunks:\n    for o in work.stream(chunk):\n        yield [o]",
    "taken = []\nfor chunk in chunks:\n    taken += work(chunk)\n    if len(taken) > 4:\n        yield taken\n"
    "        taken = []\nif taken:\n    yield taken",
], ids=["a-session-at-a-time", "across-chunks"])
def test_a_backend_may_give_the_outcomes_in_pieces_in_session_order(run, tmp_path, map_):
    """A chunk's outcomes in pieces as they are played (work.stream), or the
    next sessions of several chunks at once: the same match."""
    local = run(*MATCH, "--workers", "1", "--transcripts", str(tmp_path / "local.jsonl"))
    folder = backend_dir(tmp_path, "pieces", map=map_)
    res = run("--plugins-dir", str(folder), *MATCH, "--backend", "pieces", "--transcripts",
              str(tmp_path / "pieces.jsonl"))
    assert res.exit_code == 0, res.stderr
    assert res.stdout == local.stdout
    assert (tmp_path / "pieces.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()


@pytest.mark.parametrize("methods,said", [
    ({"map": "raise RuntimeError('lost the cluster')"}, "map() failed: RuntimeError: lost the cluster"),
    ({"map": "return [work(c) for c in chunks]"}, "map() returned"),
    ({"map": "chunks = list(chunks)\nfor chunk in reversed(chunks):\n    yield work(chunk)"},
     "the outcomes of sessions [0] "),
    ({"map": "for chunk in chunks:\n    r = work(chunk)\n    yield r\n    yield r"},
     "a result for no chunk it had taken"),
    ({"map": "for chunk in chunks:\n    yield [o for o in work(chunk)][:-1]"}, "the outcomes of sessions [0] "),
    ({"map": "for chunk in list(chunks)[:2]:\n    yield work(chunk)"}, "stopped before sessions 2 and on were played"),
    ({"map": "for chunk in chunks:\n    for o in work.stream(chunk):\n        if o.index != 1:\n            yield [o]"},
     "the outcomes of sessions [1] "),
    ({"map": "chunks = list(chunks)\nyield []"}, "returned [], not the outcomes of sessions [0] "),
    ({"map": "for chunk in chunks:\n    yield 42"}, "map() returned"),
    ({"start": "return '2'"}, "start() returned \"2\", not a whole number of 1 or more"),
    ({"start": "raise OSError('no such cluster')"}, "start() failed: OSError: no such cluster"),
    ({"chunk_size": "return 0"}, "chunk_size() returned 0, not a whole number of 1 or more"),
    ({"start": "import sys\nsys.exit(3)"}, "start() called sys.exit(3)"),
    ({"map": "import sys\nfor chunk in chunks:\n    sys.exit(3)\n    yield work(chunk)"}, "map() called sys.exit(3)"),
    ({"map": "raise RuntimeError('lost\\n  the cluster')"}, "map() failed: RuntimeError: lost the cluster"),
])
def test_a_faulty_backend_is_one_sentence_naming_its_plugin(run, tmp_path, methods, said):
    folder = backend_dir(tmp_path, "faulty", **methods)
    res = run("--plugins-dir", str(folder), *MATCH, "--backend", "faulty",
              "--transcripts", str(tmp_path / "t.jsonl"))
    assert res.exit_code == 4, res.stderr
    assert res.stdout == ""
    lines = res.stderr.strip().splitlines()
    assert lines[0].startswith('gin: error: plugin "faulty": ') and said in lines[0], res.stderr
    assert "Traceback" not in res.stderr and "internal error" not in res.stderr
    assert lines[-1].startswith("gin: error:") and len(lines) == 1, res.stderr


def test_a_backends_own_error_is_its_sentence_and_status(run, tmp_path):
    """A GinError a backend raises (BackendError: a cluster out of reach) is the
    backend's sentence for the user, as it raised it: exit 2, not a plugin's fault."""
    folder = backend_dir(tmp_path, "remote", start="from gincli import BackendError\n"
                                                   "raise BackendError('the cluster at 10.0.0.1:6379 is out of reach')")
    res = run("--plugins-dir", str(folder), *MATCH, "--backend", "remote")
    assert res.exit_code == 2
    assert res.stderr == "gin: error: the cluster at 10.0.0.1:6379 is out of reach\n"


def test_a_backend_that_fails_to_stop_is_warned_of_after_the_result(run, tmp_path):
    folder = backend_dir(tmp_path, "sticky", stop="raise RuntimeError('still holding the nodes')")
    res = run("--plugins-dir", str(folder), *MATCH, "--backend", "sticky")
    assert res.exit_code == 0
    assert json.loads(res.stdout)["hands"] == 30
    assert 'plugin "sticky": the match backend sticky\'s stop() failed: RuntimeError: still holding the nodes' \
        in res.stderr


def test_a_backend_that_is_not_one_is_left_out_with_a_warning(run, tmp_path):
    folder = tmp_path / "p"
    folder.mkdir()
    (folder / "notone.py").write_text("from gincli import hookimpl\n\n@hookimpl\n"
                                      "def gincli_register_match_backends(register):\n    register('ray')\n")
    res = run("--plugins-dir", str(folder), *MATCH)
    assert res.exit_code == 0
    assert 'plugin "notone" called register() with "\'ray\'", not a match backend (MatchBackend); it was left out' \
        in res.stderr


@pytest.mark.parametrize("args,message", [
    (("--backend", "cloud"), 'unknown match backend "cloud"; the backends are local'),
    (("--address", "10.0.0.1:6379"), "--address is for a backend that connects to a cluster (such as --backend "
                                     "ray), and the backend local takes no address"),
    (("--backend-option", "address=x"), "--backend-option: the backend local takes no options, not \"address\""),
    (("--backend-option", "flavour"), "--backend-option takes KEY=VALUE, not \"flavour\""),
])
def test_backend_usage_errors(run, args, message):
    res = run(*MATCH, *args)
    assert res.exit_code == 2 and res.stdout == ""
    assert res.stderr.startswith(f"gin: error: {message}"), res.stderr
    assert len(res.stderr.strip().splitlines()) == 1
