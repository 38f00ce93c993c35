"""The build's one addition to pyproject.toml: the optional C accelerator of
``gin score``'s hot path (gincli/rulebook/_stdscore.c). Optional: where it cannot
be compiled (no C compiler), the install goes on without it and gincli runs the
same pure-Python code, with the same output."""

from setuptools import Extension, setup

setup(ext_modules=[Extension("gincli.rulebook._stdscore", ["gincli/rulebook/_stdscore.c"], optional=True,
                             extra_compile_args=["-O2"]),
                   Extension("gincli.rl._stdplay", ["gincli/rl/_stdplay.c"], optional=True,
                             extra_compile_args=["-O2"])])
