"""gincli's seeded random generator: the same seed gives the same deal on every
machine and Python version, and other programs can reproduce it.

The generator is SplitMix64 (Steele, Lea and Flood, 2014), written out here
rather than taken from :mod:`random`, whose algorithms are not promised to stay
the same across Python versions:

    state = (state + 0x9E3779B97F4A7C15) mod 2**64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) mod 2**64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) mod 2**64
    output z ^ (z >> 31)

A number below ``n`` is ``output mod n``, drawing again while ``output >=
2**64 - (2**64 mod n)`` (no bias). A shuffle is Fisher-Yates from the last
position down: for i from len-1 to 1, swap i with ``below(i + 1)``. The
initial state is the seed mod 2**64. Sub-generators (one per session of a
match) start from ``SplitMix64(seed).derive(index)``, documented in
:meth:`SplitMix64.derive`.
"""

from __future__ import annotations

from collections.abc import MutableSequence
from typing import TypeVar

T = TypeVar("T")

MASK64 = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


class SplitMix64:
    """A small, fully specified generator (see the module's docstring)."""

    __slots__ = ("state",)

    def __init__(self, seed: int):
        self.state = seed & MASK64

    def next64(self) -> int:
        self.state = z = (self.state + GOLDEN) & MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher-Yates, from the last position down."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def choice(self, items: list[T]) -> T:
        return items[self.below(len(items))]

    def random(self) -> float:
        """A float in ``[0, 1)`` with 53 random bits."""
        return (self.next64() >> 11) / (1 << 53)

    def derive(self, index: int) -> SplitMix64:
        """An independent generator for item ``index`` (a session of a match),
        seeded with ``SplitMix64(state ^ (index * GOLDEN mod 2**64)).next64()``
        where ``state`` is this generator's state; this one does not advance."""
        return SplitMix64(SplitMix64(self.state ^ ((index * GOLDEN) & MASK64)).next64())
