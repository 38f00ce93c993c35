"""gincli's optional compiled modules (C extensions built by ``pip install``
where a C compiler is: ``rulebook._stdscore``, ``rulebook._meldsearch``,
``hand._playout``, ``rl._stdplay``): each is loaded here, or not at all, and
the pure-Python code it twins gives the same answers."""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def compiled(name: str) -> ModuleType | None:
    """The compiled module ``name`` (its full name), or None: not built, or
    ``GINCLI_PURE=1`` in the environment (the pure-Python path, asked for).
    Imported by its name: an extension module imports nothing of gincli back."""
    if os.environ.get("GINCLI_PURE", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module(name)
    except ImportError:
        return None
