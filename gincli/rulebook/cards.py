"""Cards: one standard 52-card deck, parsed and printed as FORMATS.md says.

A card is an ``int`` from 0 to 51: ``suit * 13 + rank``, with ranks 0..12 for
A..K (ace low) and suits 0..3 for spades, hearts, diamonds, clubs. A set of
cards is a 52-bit mask (bit ``card`` set), which is what the meld solver works
on. The suit order is also the cutting order: spades rank highest.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..base.errors import RecordError, quote

RANKS = "A23456789TJQK"
SUITS = "shdc"
SUIT_SYMBOLS = "♠♥♦♣"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANK_NAMES = ("ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king")

DECK: tuple[int, ...] = tuple(range(52))
FULL_DECK_MASK = (1 << 52) - 1

#: Canonical name of each card: ``As``, ``Td``, ``Kc``.
CARD_NAMES: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
#: Each card as people write it: ``10♥``, ``Q♠`` (rank, then the suit's symbol).
CARD_LABELS: tuple[str, ...] = tuple(("10" if r == "T" else r) + symbol for symbol in SUIT_SYMBOLS for r in RANKS)
#: Deadwood value of each card: ace 1, pips their number, J/Q/K 10.
CARD_VALUES: tuple[int, ...] = tuple(min(r + 1, 10) for _ in SUITS for r in range(13))
#: Rank value by rank index (0 = ace).
RANK_VALUES: tuple[int, ...] = tuple(min(r + 1, 10) for r in range(13))


def _spellings() -> dict[str, int]:
    table: dict[str, int] = {}
    for s, (letter, symbol) in enumerate(zip(SUITS, SUIT_SYMBOLS, strict=True)):
        for r, rank in enumerate(RANKS):
            ranks = (rank, "10") if rank == "T" else (rank,)
            for rk in ranks:
                for suit in (letter, letter.upper(), symbol):
                    table[rk + suit] = s * 13 + r
    return table


_PARSE = _spellings()
#: Every accepted spelling of every card -> the card.
CARD_TABLE = _PARSE
#: Every accepted spelling of every card -> its bit in a card mask.
CARD_BITS = {token: 1 << c for token, c in _PARSE.items()}


def rank(card: int) -> int:
    """Rank index, 0 (ace) to 12 (king)."""
    return card % 13


def suit(card: int) -> int:
    """Suit index, 0 (spades) to 3 (clubs)."""
    return card // 13


def value(card: int) -> int:
    """Deadwood value: ace 1, 2-10 their pips, face cards 10."""
    return CARD_VALUES[card]


def parse_card(token: object) -> int:
    """Parse one card: canonical ``Td``, or ``10d``, ``TD``, ``T♦``.

    Anything else raises :class:`RecordError` quoting the bad token.
    """
    if isinstance(token, str):
        card = _PARSE.get(token)
        if card is not None:
            return card
        return _fail(token)
    raise RecordError(f"a card must be a string like \"Td\", not {quote(token)}", rule="unknown-card")


def _fail(token: str) -> int:
    raise RecordError(f"unknown card {quote(token)} (cards are written like \"As\", \"Td\", \"10♥\")",
                      rule="unknown-card")


def parse_cards(tokens: object, what: str = "cards") -> list[int]:
    """Parse a list of card tokens; ``what`` names the list in error messages."""
    if not isinstance(tokens, list):
        raise RecordError(f"{what} must be a list of cards, not {quote(tokens)}", rule="malformed-move")
    table = _PARSE
    out = []
    for t in tokens:
        c = table.get(t) if isinstance(t, str) else None
        out.append(parse_card(t) if c is None else c)
    return out


def card_str(card: int) -> str:
    """Canonical two-character name of a card."""
    return CARD_NAMES[card]


def card_strs(cards: Iterable[int]) -> list[str]:
    return [CARD_NAMES[c] for c in cards]


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


_SUIT_CARDS: tuple[dict[int, tuple[int, ...]], ...] = ({}, {}, {}, {})


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, in deck order (by suit, then rank)."""
    out: list[int] = []
    for s in range(4):
        bits = (mask >> (13 * s)) & 0x1FFF
        if bits:
            table = _SUIT_CARDS[s]
            found = table.get(bits)
            if found is None:
                found = table[bits] = tuple(s * 13 + r for r in range(13) if bits >> r & 1)
            out += found
    return out


_BY_RANK: tuple[list[int], list[str]] | None = None


def _by_rank_tables() -> tuple[list[int], list[str]]:
    """Tables for :func:`json_by_rank`, made on first use: each 13-bit suit
    pattern spread to its places in rank-then-suit order for spades (bit
    ``rank * 4``; the other suits are this shifted by their number); and the
    text of each 8-bit piece of that order."""
    global _BY_RANK
    spread = [0] * 8192
    for bits in range(1, 8192):
        low = bits & -bits
        spread[bits] = spread[bits ^ low] | 1 << 4 * (low.bit_length() - 1)
    text = [", ".join(f'"{CARD_NAMES[((8 * i + j) % 4) * 13 + (8 * i + j) // 4]}"'
                      for j in range(min(8, 52 - 8 * i)) if piece >> j & 1)
            for i in range(7) for piece in range(256)]
    _BY_RANK = (spread, text)
    return _BY_RANK


def json_by_rank(mask: int) -> str:
    """The cards of a mask as the inside of a JSON list, by rank then suit
    (``"As", "2c", "5d"``): the hot path of writing deadwood."""
    if mask.bit_count() <= 3:  # a knocker's few deadwood cards come up again and again
        found = _FEW_BY_RANK.get(mask)
        if found is None:
            found = _json_by_rank(mask)
            if len(_FEW_BY_RANK) < 4096:  # memory stays small: the common ones come early
                _FEW_BY_RANK[mask] = found
        return found
    return _json_by_rank(mask)


#: :func:`json_by_rank` of masks of at most three cards, the first 4,096 met.
_FEW_BY_RANK: dict[int, str] = {}


def _json_by_rank(mask: int) -> str:
    spread, text = _BY_RANK or _by_rank_tables()
    rm = (spread[mask & 0x1FFF] | spread[mask >> 13 & 0x1FFF] << 1 | spread[mask >> 26 & 0x1FFF] << 2
          | spread[mask >> 39] << 3)
    # Seven 8-bit pieces (two ranks each), the empty ones left out.
    return ", ".join(filter(None, (text[rm & 0xFF], text[256 + (rm >> 8 & 0xFF)], text[512 + (rm >> 16 & 0xFF)],
                                   text[768 + (rm >> 24 & 0xFF)], text[1024 + (rm >> 32 & 0xFF)],
                                   text[1280 + (rm >> 40 & 0xFF)], text[1536 + (rm >> 48)])))


#: Sort key of each card for writing deadwood: by rank, then suit.
RANK_ORDER: tuple[int, ...] = tuple((c % 13) * 4 + c // 13 for c in range(52))


def by_rank(cards: Iterable[int]) -> list[int]:
    """Sorted by rank, then suit: how deadwood and sets are written."""
    return sorted(cards, key=RANK_ORDER.__getitem__)


def by_suit(cards: Iterable[int]) -> list[int]:
    """Sorted by suit, then rank: how a hand is shown to people."""
    return sorted(cards)


def cut_key(card: int) -> tuple[int, int]:
    """Order of cards when cutting for the deal: rank, then suit (spades high)."""
    return (card % 13, 3 - card // 13)
