"""The compiled accelerator of a plugin's meld rules (``_meldsearch.c``, built where a C
compiler is): the same answers as :class:`gincli.rulebook.meldrules.HandSearch`."""

from collections.abc import Callable, Sequence

class Search:
    def __init__(self, melds: Sequence[int], values: Sequence[int], fallback: Callable[[int], int]) -> None: ...
    def deadwood(self, hand: int, /) -> int:
        """The least deadwood of a hand (a card mask); ``fallback`` answers a hand too big to search here."""
    def forms_meld(self, hand: int, card: int, /) -> bool:
        """Whether ``card`` makes a meld with cards of ``hand``."""
