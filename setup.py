"""The build's one addition to pyproject.toml: the optional C accelerators,
of ``gin score``'s hot path (gincli/rulebook/_stdscore.c), of the learning
environments' play under the rule book's rules (gincli/rl/_stdplay.c) and of the
built-in bots' play-outs (gincli/hand/_playout.c), all on the rule book's one
header of the standard melds (gincli/rulebook/_melds.h, with its tables in
_stdscore_tables.h, generated from the rule book's Python), gin score's and the
play-outs' also on its settlement of a knock (gincli/rulebook/_knock.h); and of
a plugin's meld rules, any melds (gincli/rulebook/_meldsearch.c). All four
stand on one header of the bit operations (gincli/rulebook/_bits.h).
Optional: where they cannot be compiled (no C compiler), the install goes on
without them and gincli runs the same pure-Python code, with the same output."""

from setuptools import Extension, setup

#: The headers the modules include: a change to one rebuilds those that include it, and the sdist carries them.
BITS = ["gincli/rulebook/_bits.h"]
MELDS = [*BITS, "gincli/rulebook/_melds.h", "gincli/rulebook/_stdscore_tables.h"]
#: With the settlement of a knock.
KNOCK = [*MELDS, "gincli/rulebook/_knock.h"]

setup(ext_modules=[Extension("gincli.rulebook._stdscore", ["gincli/rulebook/_stdscore.c"], optional=True,
                             depends=KNOCK, extra_compile_args=["-O2"]),
                   Extension("gincli.rl._stdplay", ["gincli/rl/_stdplay.c"], optional=True, depends=MELDS,
                             extra_compile_args=["-O2"]),
                   Extension("gincli.rulebook._meldsearch", ["gincli/rulebook/_meldsearch.c"], optional=True,
                             depends=BITS, extra_compile_args=["-O2"]),
                   Extension("gincli.hand._playout", ["gincli/hand/_playout.c"], optional=True, depends=KNOCK,
                             extra_compile_args=["-O2"]),
                   Extension("gincli.base._heap", ["gincli/base/_heap.c"], optional=True)])
