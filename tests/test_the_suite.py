"""The suite tests what a user installs. CI installs gincli from a wheel (no
editable install), and Python puts the current folder first on the path of
``python -c`` and ``python -m``: started from the checkout, such a child would
import the checkout's gincli instead, with none of the modules the wheel
compiles. So every such child a test starts names its folder."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
STARTERS = {"run", "Popen", "check_output", "check_call", "call"}


def unplaced_children(source: str) -> list[int]:
    """The lines of ``subprocess`` calls that start ``sys.executable -c ...``
    or ``sys.executable -m gincli ...`` without a ``cwd``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in STARTERS and node.args and isinstance(node.args[0], ast.List)):
            continue
        argv = node.args[0].elts
        if not (argv and ast.unparse(argv[0]) == "sys.executable"):
            continue
        words = [a.value if isinstance(a, ast.Constant) else None for a in argv[1:3]]
        if (words[:1] == ["-c"] or words == ["-m", "gincli"]) and not any(k.arg == "cwd" for k in node.keywords):
            found.append(node.lineno)
    return found


def test_every_python_child_of_the_tests_names_its_folder():
    found = [f"{path.name}:{line}" for path in sorted(TESTS.glob("*.py"))
             for line in unplaced_children(path.read_text())]
    assert found == [], f"python -c / -m gincli started without cwd= (it would import the checkout): {found}"


def test_the_check_finds_a_child_without_its_folder():
    source = ("import subprocess, sys\n"
              "subprocess.run([sys.executable, '-c', 'import gincli'])\n"
              "subprocess.run([sys.executable, '-m', 'gincli', 'bots'], capture_output=True)\n"
              "subprocess.run([sys.executable, '-c', 'import gincli'], cwd='/tmp')\n"
              "subprocess.run([sys.executable, '-m', 'ruff', 'check'])\n")
    assert unplaced_children(source) == [2, 3]
