"""The wheel holds every package of gincli."""

from __future__ import annotations


def test_every_package_of_gincli_goes_into_the_wheel():
    """A subpackage missing from pyproject.toml's list works from a checkout and
    breaks the installed command (gincli.matches.external once did)."""
    import tomllib

    from conftest import ROOT

    listed = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "gincli").rglob("__init__.py")}
    assert found - listed == set()
