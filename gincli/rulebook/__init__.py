"""The rule book (RULES.md): cards and their names (:mod:`.cards`), melds and
the deadwood solver (:mod:`.melds`), layoffs (:mod:`.layoffs`), the rule options
and their values (:mod:`.rules`), variants of play (:mod:`.variant`), the score
of an end position (:mod:`.scoring`, the one place a hand is scored) and the
seeded random generator (:mod:`.rng`).

It may import only :mod:`gincli.base`. Everything above scores hands through it.
"""
