"""The house (docs/architecture.md): layers as folders, each importing only
those below it, no circle among modules, and package ``__init__`` files that
only present names. Every import counts, also one inside a function or under
``TYPE_CHECKING``: a circle Python does not trip over is still one in the
design."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gincli"

#: The layers, from the bottom up: a module may import its own layer's and those below.
LAYERS = ("base", "rulebook", "hand", "formats", "sessions", "matches", "plugin", "replay", "work", "rl", "testing",
          "cli", "api")

#: The faces, side by side on top: none imports another.
FACES = ("rl", "testing", "cli", "api")


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def imports_of(name: str, path: Path, known: dict[str, Path]) -> set[str]:
    """Every module of gincli that ``name`` imports, wherever the import stands."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in node.names]
        else:
            continue
        for target in targets:
            while target and target not in known:
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
    return found


def graph() -> dict[str, set[str]]:
    known = modules()
    return {name: imports_of(name, path, known) for name, path in known.items()}


def layer(module: str) -> int:
    """A module's layer, from the bottom (0); the package's own entry points are above them all."""
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else len(LAYERS)


def circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(edges[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                out.append(sorted(component))

    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


def test_no_module_imports_a_circle_back_to_itself():
    assert circles(graph()) == []


def test_no_layer_imports_a_layer_above_it():
    upward = sorted(f"{m} (layer {LAYERS[layer(m)] if layer(m) < len(LAYERS) else 'top'}) imports {t}"
                    for m, targets in graph().items() for t in targets if layer(t) > layer(m))
    assert upward == []


def test_no_face_imports_another():
    """The command line, the Python API and the learning environments stand on
    the same work below them, not on each other."""
    across = sorted(f"{m} imports {t}" for m, targets in graph().items() for t in targets
                    if _face(m) and _face(t) and _face(m) != _face(t))
    assert across == []


def _face(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in FACES else None


def private_imports(path: Path) -> list[str]:
    """The private modules or names of another package that a file imports
    (``from typer._click import ...``, ``from gincli.x import _name``)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and not node.level and node.module:
            top = node.module.split(".")[0]
            names = [a.name for a in node.names]
            if any(part.startswith("_") and not part.startswith("__") for part in node.module.split(".")):
                found.append(f"{node.module}")
            elif top in ("gincli", "gincli_builtin") and any(n.startswith("_") for n in names):
                found.append(f"{node.module}: {', '.join(n for n in names if n.startswith('_'))}")
    return found


def test_no_private_imports_across_packages():
    """No module of gincli or of its plugins imports what another package keeps
    private, but for two that say why: the one module that reaches into typer's
    own copy of click (cli/clicks.py), and the Ray plugin's driver, which sends
    what Ray workers print to stderr through Ray's (Ray names no public way,
    and the plugin goes on without it when it moves). C modules of the standard
    library (_signal, _thread) and gincli's own accelerator are not another
    package's."""
    root = PACKAGE.parent
    allowed = {"gincli/cli/clicks.py", "plugins/gincli-ray/gincli_ray/__init__.py"}
    files = [*sorted((root / "gincli").rglob("*.py")), *sorted((root / "plugins").rglob("*.py"))]
    found = sorted(f"{p.relative_to(root)}: {i}" for p in files if "build" not in p.parts
                   and str(p.relative_to(root)) not in allowed for i in private_imports(p))
    assert found == []


def test_a_script_using_the_api_loads_no_command_line():
    """``gincli.score``, ``validate``, ``deal``, ``new_hand``, ``play_match`` and
    ``play_tournament`` load neither Typer, Click, Rich nor gincli.cli."""
    import subprocess
    import sys

    code = ("import sys, gincli\n"
            "list(gincli.score([{'id': 1, 'knocker': 'ann', 'hands': {'ann': ['As', '2s', '3s', '4s', '5s', '6s', "
            "'7s', '8s', '9s', 'Ts'], 'bob': ['Ah', '2h', '3h', '4h', '5h', '6h', '7h', '8h', '9h', 'Th']}}]))\n"
            "list(gincli.validate([gincli.deal(seed=1)]))\n"
            "gincli.new_hand(seed=2)\n"
            "gincli.play_match(['simple', 'random'], hands=2, workers=1)\n"
            "gincli.play_tournament(['simple', 'random', 'expert'], games=1, workers=1)\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('typer', 'click', 'rich')"
            " or m.startswith('gincli.cli')))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True,
                         cwd=PACKAGE.parent.parent)
    assert out.stdout.strip() == "[]", out.stdout


def test_every_module_lives_in_a_layer_folder():
    loose = [m for m in modules() if layer(m) == len(LAYERS) and m not in ("gincli", "gincli.entry", "gincli.__main__")]
    assert loose == []


def test_below_the_plugin_layer_nothing_looks_the_registry_up():
    below = [m for m, targets in graph().items() if layer(m) < LAYERS.index("plugin")
             for t in targets if t.startswith("gincli.plugin")]
    assert below == []


@pytest.mark.parametrize("init", sorted(PACKAGE.rglob("__init__.py")), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_a_package_init_only_presents_names(init):
    """A docstring saying what the layer owns and may import, imports, ``__all__``,
    assignments of names: no function or class of its own."""
    tree = ast.parse(init.read_text(encoding="utf-8"))
    assert ast.get_docstring(tree), "a package says what it holds"
    code = [type(node).__name__ for node in tree.body
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    assert code == []


def test_each_layer_says_what_it_may_import():
    for name in LAYERS[:-1]:
        doc = ast.get_docstring(ast.parse((PACKAGE / name / "__init__.py").read_text(encoding="utf-8"))) or ""
        assert "import" in doc, name


def test_the_check_finds_a_circle():
    """The checks above can fail: a made-up circle is found."""
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert layer("gincli.base.errors") < layer("gincli.cli.app")


def test_the_module_paths_of_earlier_releases_still_import_the_same_modules():
    """Plugins written against earlier releases run unchanged (docs/examples/ keep
    the old paths): ``gincli.melds`` is ``gincli.rulebook.melds``, the same module
    object, its own ``__spec__`` kept."""
    import importlib

    import gincli

    for old, new in gincli._MOVED.items():
        moved = importlib.import_module(f"gincli.{new}")
        assert importlib.import_module(f"gincli.{old}") is moved, old
        assert moved.__spec__.name == f"gincli.{new}"
    from gincli.melds import deadwood  # the form a plugin uses
    from gincli.rulebook.melds import deadwood as same

    assert deadwood is same and gincli.cards is importlib.import_module("gincli.rulebook.cards")


def test_docs_architecture_draws_every_layer_and_names_only_files_that_exist():
    """docs/architecture.md: every layer folder in its drawing, and every path it
    names (`work/plan.py`, `cli/<command>.py` aside) a file or folder of gincli."""
    import re

    doc = (PACKAGE.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    drawing = doc[doc.index("```\n") + 4:]
    drawing = drawing[:drawing.index("```")]
    assert sorted(set(re.findall(r"\b([a-z]+)/ ", drawing))) == sorted(LAYERS)
    named = set(re.findall(r"`((?:{})/[A-Za-z_/]*(?:\.py)?)`".format("|".join(LAYERS)), doc))
    missing = sorted(p for p in named if "<" not in p and not (PACKAGE / p).exists())
    assert named and missing == []
