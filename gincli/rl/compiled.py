"""The compiled play of the rule book's rules for the environments
(``_stdplay.c``, built by ``pip install`` where a C compiler is): the rule
book's moves as masks, action masks, observations, and hands played side by
side for :func:`gincli.rl.vector_env`, the numbers the Python code gives
(tests/test_rl_fast.py holds them to it). :data:`STDPLAY` is that module, or
None: not built, or ``GINCLI_PURE=1`` in the environment (the pure-Python
path, the same numbers)."""

from __future__ import annotations

from ..base.compiled import compiled

#: The compiled module, or None.
STDPLAY = compiled(f"{__package__}._stdplay")
