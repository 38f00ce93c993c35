"""Built-in plugin: the variants of play.

The rule sets are data: every ``*.toml`` in the ``variants`` folder. (Variant
files in the user's configuration directory are read by the registry itself,
so that a bad one is reported by its path and the others still load.)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from pathlib import Path

from gincli import hookimpl
from gincli.rulebook.variant import PendingVariant


def builtin_variant_files() -> list[Path]:
    # the package's own folder (importlib.resources reads the same, at the cost of zipfile and more)
    folder = Path(importlib.import_module("gincli_builtin.variant_files").__file__ or "").parent
    return sorted(folder.glob("*.toml"))


@hookimpl(trylast=True)
def gincli_register_variants(register: Callable[[PendingVariant], None]) -> None:
    for path in builtin_variant_files():
        variant = PendingVariant.from_file(path)
        variant.source = f"built-in (variants/{path.name})"
        register(variant)
