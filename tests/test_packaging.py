"""The wheel holds every package of gincli, and the sdist every header the C code includes."""

from __future__ import annotations

from pathlib import Path


def test_every_package_of_gincli_goes_into_the_wheel():
    """A subpackage missing from pyproject.toml's list works from a checkout and
    breaks the installed command (gincli.matches.external once did)."""
    import tomllib

    from conftest import ROOT

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "gincli").rglob("__init__.py")}
    assert found - listed == set()


def test_each_compiled_module_names_the_headers_it_includes(monkeypatch):
    """setup.py's ``depends`` of each C extension are the headers its source
    includes (by a quoted #include, and what those include in turn): setuptools
    puts them into the sdist, and so into the wheel ``python -m build`` makes from
    it, only so. One left out builds from a checkout and not from the sdist."""
    import re
    import runpy

    import setuptools
    from conftest import ROOT

    extensions: list[setuptools.Extension] = []
    monkeypatch.setattr(setuptools, "setup", lambda **kw: extensions.extend(kw["ext_modules"]))
    runpy.run_path(str(ROOT / "setup.py"))
    assert extensions
    for extension in extensions:
        included: set[Path] = set()
        files = [ROOT / source for source in extension.sources]
        while files:
            file = files.pop()
            for name in re.findall(r'^#include "([^"]+)"', file.read_text(encoding="utf-8"), re.MULTILINE):
                header = (file.parent / name).resolve()
                if header not in included:
                    included.add(header)
                    files.append(header)
        assert included == {ROOT / depend for depend in extension.depends}, extension.name
