"""The examples in docs/ keep working: every ```console block is run and its
output compared; every hook is documented; every Python example runs.

A console block holds commands after ``$ `` and, after each, the output it must
print (stdout; add ``2>&1`` to show stderr too). Commands run in a fresh folder
that holds (links to) the project's files, so what they write is thrown away,
with this interpreter's ``gin`` first on PATH, at 100 columns. To refresh
the recorded outputs after a deliberate change: ``GINCLI_UPDATE_DOCS=1 pytest
tests/test_docs.py``. The machine a summary names (``Python 3.11.7 · Linux
x86_64``) is the one the docs were recorded on, whatever this one is.
"""

from __future__ import annotations

import json
import os
import platform
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

DOCS = ROOT / "docs"
RECORDED_ON = "Python 3.11.7 · Linux x86_64"  # the machine the docs' outputs name


def this_machine() -> str:
    """How a summary names this machine, as gincli.cli.summary.provenance writes it."""
    from gincli.cli.summary import provenance

    return provenance({"python": platform.python_version(), "platform": platform.platform()}).split(" · ", 1)[1]
BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def blocks() -> list[tuple[Path, int, str]]:
    out = []
    for page in sorted(DOCS.glob("*.md")):
        for i, m in enumerate(BLOCK.finditer(page.read_text())):
            out.append((page, i, m.group(1)))
    return out


def commands(block: str) -> list[tuple[str, str]]:
    """(command, expected output) pairs of a console block."""
    pairs: list[tuple[str, list[str]]] = []
    for line in block.splitlines():
        if line.startswith("$ "):
            pairs.append((line[2:], []))
        elif pairs:
            pairs[-1][1].append(line)
    return [(cmd, "\n".join(lines).rstrip()) for cmd, lines in pairs]


def run_command(cmd: str, tmp_path: Path) -> str:
    env = dict(os.environ)
    env.update({
        "PATH": str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", ""),
        "COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb", "GINCLI_CONFIG_DIR": str(tmp_path / "config"),
        "GINCLI_DATA_DIR": str(tmp_path / "data"), "PYTHONIOENCODING": "utf-8",
    })
    env.pop("GINCLI_DEBUG", None)
    # The project's folders are there to read; what a command writes lands in a fresh folder.
    work = tmp_path / "work"
    if not work.exists():
        work.mkdir()
        for entry in ROOT.iterdir():
            if not entry.name.startswith("."):
                (work / entry.name).symlink_to(entry)
    proc = subprocess.run(cmd, shell=True, cwd=work, env=env, capture_output=True, text=True, timeout=300,
                          stdin=subprocess.DEVNULL)
    return "\n".join(line.rstrip() for line in proc.stdout.splitlines()).rstrip().replace(this_machine(), RECORDED_ON)


@pytest.mark.parametrize("page,index,block", blocks(), ids=[f"{p.name}-{i}" for p, i, _ in blocks()])
def test_console_examples_print_what_the_docs_say(page, index, block, tmp_path):
    update = os.environ.get("GINCLI_UPDATE_DOCS") == "1"
    new_block = []
    for cmd, expected in commands(block):
        actual = run_command(cmd, tmp_path)
        new_block.append(f"$ {cmd}\n" + (actual + "\n" if actual else ""))
        if not update:
            assert actual == expected, f"{page.name} block {index}: `{cmd}` printed:\n{actual}"
    if update:
        text = page.read_text()
        text = text.replace(f"```console\n{block}```", "```console\n" + "".join(new_block) + "```", 1)
        page.write_text(text)


def test_no_example_depends_on_the_machine_that_recorded_it():
    """A recorded output holds nothing of the machine but the provenance line
    the runner sets aside (RECORDED_ON): no digest of a summary that names the
    kernel or the Python patch release, no such field in JSON."""
    for page, index, block in blocks():
        for cmd, expected in commands(block):
            assert not re.search(r"\b(md5sum|sha1sum|sha256sum|cksum)\b", cmd), f"{page.name} block {index}: {cmd}"
            assert '"platform"' not in expected and '"python"' not in expected, f"{page.name} block {index}: {cmd}"
            rest = expected.replace(RECORDED_ON, "")
            assert platform.release() not in rest or not platform.release(), f"{page.name} block {index}: {cmd}"


def test_there_are_console_examples_for_every_command():
    text = "\n".join(b for _, _, b in blocks())
    for command in ("gin score", "gin variants", "gin deal", "gin validate", "gin play", "gin match", "gin bots",
                    "gin plugins", "gin report"):
        used = re.search(rf"^\$ .*(\b{command}\b|gin --plugins-dir docs/examples {command[4:]}\b)", text, re.M)
        assert used, f"no example of {command} in docs/"


def test_every_hook_is_documented_with_an_example():
    from gincli.plugin import hookspecs

    text = (DOCS / "plugins.md").read_text()
    hooks = [name for name in dir(hookspecs) if name.startswith("gincli_")]
    assert hooks
    for hook in hooks:
        section = text.split(f"## {hook}\n", 1)
        assert len(section) == 2, f"{hook} has no section in docs/plugins.md"
        body = section[1].split("\n## ", 1)[0]
        assert "```python\n# file:" in body and f"def {hook}(" in body, f"{hook} has no runnable example"


def test_plugin_examples_in_the_docs_are_the_files_the_examples_run():
    text = (DOCS / "plugins.md").read_text()
    found = re.findall(r"```python\n(# file: (\S+)\n.*?)```", text, re.S)
    assert found
    for code, name in found:
        assert (DOCS / "examples" / name).read_text() == code, f"docs/examples/{name} differs from docs/plugins.md"


def test_every_rule_id_is_documented():
    from gincli.formats.rule_ids import RULES

    text = (DOCS / "validate.md").read_text()
    for rule, meaning in RULES.items():
        assert f"| `{rule}` | {meaning} |" in text, f"rule id {rule} is not documented in docs/validate.md"


def test_every_raised_rule_id_is_known():
    """Every rule id the code can raise is in the documented list."""
    from gincli.formats.rule_ids import RULES

    found = set()
    for path in (ROOT / "gincli").rglob("*.py"):
        text = path.read_text()
        found |= set(re.findall(r'rule="([a-z-]+)"', text))
        found |= set(re.findall(r'IllegalMove\(\s*"([a-z-]+)"', text))
        found |= set(re.findall(r'Fault\([^,]+, [^,]+, "([a-z-]+)"', text))
        found |= set(re.findall(r'bad\("([a-z-]+)"', text))
    unknown = found - set(RULES)
    assert not unknown, f"rule ids raised but not documented: {sorted(unknown)}"


def test_every_test_the_rules_page_names_exists():
    text = (DOCS / "rules.md").read_text()
    named = set(re.findall(r"`(test_[a-z0-9_]+)`", text))
    assert named
    defined = set()
    for path in (ROOT / "tests").glob("test_*.py"):
        defined |= set(re.findall(r"^def (test_[a-z0-9_]+)\(", path.read_text(), re.M))
    assert not named - defined, f"docs/rules.md names tests that do not exist: {sorted(named - defined)}"


def test_every_rule_id_of_a_move_set_is_documented(registry):
    text = (DOCS / "validate.md").read_text()
    for ms in registry.movesets.values():
        for rule, meaning in ms.rule_ids.items():
            assert f"| `{rule}` | {meaning} |" in text, f"rule id {rule} ({ms.name}) is not in docs/validate.md"


def test_the_minimal_bot_of_the_protocol_page_plays(tmp_path):
    text = (DOCS / "bot-protocol.md").read_text()
    code = text.split("## A minimal bot", 1)[1].split("```python\n", 1)[1].split("```", 1)[0]
    bot = tmp_path / "minimal.py"
    bot.write_text(code)
    gin = str(Path(sys.executable).with_name("gin"))
    res = subprocess.run([gin, "match", "--bots", f"exec:{sys.executable} {bot},simple", "--hands", "3",
                          "--format", "json", "-q"], capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert res.returncode == 0, res.stderr
    summary = json.loads(res.stdout)
    assert summary["players"][0]["forfeits"] == 0 and summary["players"][0]["program"]["name"] == "first-move"


PYTHON_BLOCK = re.compile(r"```python\n(.*?)```", re.S)


#: Pages whose ```python blocks are examples to run, with the section that holds them (None: the whole page).
PYTHON_EXAMPLES = {"api.md": None, "rl.md": None, "plugins.md": "## Testing a plugin"}


@pytest.mark.parametrize("page", list(PYTHON_EXAMPLES))
def test_the_python_examples_of_a_page_run(page, tmp_path):
    """docs/api.md's and docs/rl.md's ```python blocks, and those of
    docs/plugins.md's "Testing a plugin", in order, in one interpreter, from a
    fresh folder holding the project's files: each runs, and its asserts hold
    (rl.md's where the extra gincli[rl] is installed)."""
    if page == "rl.md":
        for module in ("numpy", "pettingzoo", "gymnasium"):
            pytest.importorskip(module)
    text = (DOCS / page).read_text()
    section = PYTHON_EXAMPLES[page]
    if section is not None:
        text = text.split(f"\n{section}\n", 1)[1].split("\n## ", 1)[0]
    blocks_ = PYTHON_BLOCK.findall(text)
    assert blocks_, page
    script = tmp_path / "page.py"
    script.write_text("\n\n".join(f"# block {i}\n{b}" for i, b in enumerate(blocks_)))
    work = tmp_path / "work"
    work.mkdir()
    for entry in ROOT.iterdir():
        if not entry.name.startswith("."):
            (work / entry.name).symlink_to(entry)
    env = dict(os.environ, GINCLI_CONFIG_DIR=str(tmp_path / "config"), PYTHONIOENCODING="utf-8",
               PATH=str(Path(sys.executable).parent) + os.pathsep + os.environ.get("PATH", ""))
    env.pop("GINCLI_DEBUG", None)
    proc = subprocess.run([sys.executable, str(script)], cwd=work, env=env, capture_output=True, text=True,
                          timeout=600, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"{page}: {proc.stderr[-3000:]}"
    assert proc.stdout.strip()
