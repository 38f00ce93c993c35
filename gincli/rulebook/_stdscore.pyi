"""The compiled accelerator of ``gin score``'s hot path (``_stdscore.c``, built where a C
compiler is): the same answers as :func:`gincli.rulebook.scoring.plain_pieces` and
:func:`~gincli.rulebook.scoring.plain_spreads`."""

def plain(knocker_mask: int, defender_mask: int, knock_limit: int,
          /) -> tuple[int, int, str, str, str, str, str] | None:
    """None if the knocker's deadwood is over the limit, else the deadwoods and the
    texts of :func:`~gincli.rulebook.scoring.plain_pieces`."""

def spreads(knocker_mask: int, defender_mask: int, knock_limit: int,
            /) -> tuple[int, int, tuple[int, ...], int, tuple[int, ...], list[int], int] | None:
    """None if the knocker's deadwood is over the limit, else the deadwoods, melds
    (masks), deadwood masks and layoffs of :func:`~gincli.rulebook.scoring.plain_spreads`."""

def labels(knocker_mask: int, defender_mask: int, knock_limit: int,
           /) -> tuple[int, int, str, str, str, str, str] | None:
    """None if the knocker's deadwood is over the limit, else the deadwoods and the
    texts of :func:`~gincli.rulebook.scoring.plain_labels` (the cards as people write them)."""

def records(data: bytes | bytearray | memoryview, /) -> int:
    """The lines of JSON Lines ``data`` that are not blank: its records."""

def lines(data: bytes | bytearray | memoryview, /) -> int:
    """The newlines in ``data``."""

def checksum(data: bytes | bytearray | memoryview, /) -> int:
    """A 64-bit Fletcher sum of ``data``, its length mixed in: what a worker
    checks the bytes it reads again in the input by."""

def deadwood(mask: int, /) -> int:
    """The least deadwood of a hand (a card mask), as melds.py's deadwood."""
