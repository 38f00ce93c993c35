"""The compiled play of the rule book's rules for the environments
(``_stdplay.c``, built by ``pip install`` where a C compiler is): the rule
book's moves as masks, action masks, observations, and hands played side by
side for :func:`gincli.rl.vector_env`, the numbers the Python code gives
(tests/test_rl_fast.py holds them to it). :data:`STDPLAY` is that module, or
None: not built, or ``GINCLI_PURE=1`` in the environment (the pure-Python
path, the same numbers)."""

from __future__ import annotations

import importlib
import os
from types import ModuleType


def _load() -> ModuleType | None:
    if os.environ.get("GINCLI_PURE", "") not in ("", "0"):
        return None
    try:  # by its name: an extension module imports nothing of gincli back (no circle, which the form
        # ``from . import _stdplay`` would draw through this package's __init__)
        return importlib.import_module(f"{__package__}._stdplay")
    except ImportError:
        return None


#: The compiled module, or None.
STDPLAY = _load()
