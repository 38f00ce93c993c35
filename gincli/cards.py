"""Cards: one standard 52-card deck, parsed and printed as FORMATS.md says.

A card is an ``int`` from 0 to 51: ``suit * 13 + rank``, with ranks 0..12 for
A..K (ace low) and suits 0..3 for spades, hearts, diamonds, clubs. A set of
cards is a 52-bit mask (bit ``card`` set), which is what the meld solver works
on. The suit order is also the cutting order: spades rank highest.
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import RecordError

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
#: Deadwood value of each card: ace 1, pips their number, J/Q/K 10.
CARD_VALUES: tuple[int, ...] = tuple(min(r + 1, 10) for _ in SUITS for r in range(13))
#: Rank value by rank index (0 = ace).
RANK_VALUES: tuple[int, ...] = tuple(min(r + 1, 10) for r in range(13))


def _spellings() -> dict[str, int]:
    table: dict[str, int] = {}
    for s, (letter, symbol) in enumerate(zip(SUITS, SUIT_SYMBOLS)):
        for r, rank in enumerate(RANKS):
            ranks = (rank, "10") if rank == "T" else (rank,)
            for rk in ranks:
                for suit in (letter, letter.upper(), symbol):
                    table[rk + suit] = s * 13 + r
    return table


_PARSE = _spellings()


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
    raise RecordError(f"a card must be a string like \"Td\", not {_quote(token)}")


def _fail(token: str) -> int:
    raise RecordError(f"unknown card {_quote(token)} (cards are written like \"As\", \"Td\", \"10♥\")")


def _quote(token: object) -> str:
    import json

    try:
        return json.dumps(token, ensure_ascii=False)
    except (TypeError, ValueError):
        return repr(token)


def parse_cards(tokens: object, what: str = "cards") -> list[int]:
    """Parse a list of card tokens; ``what`` names the list in error messages."""
    if not isinstance(tokens, list):
        raise RecordError(f"{what} must be a list of cards, not {_quote(tokens)}")
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


def cards_of(mask: int) -> list[int]:
    """The cards of a mask, in deck order (by suit, then rank)."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def by_rank(cards: Iterable[int]) -> list[int]:
    """Sorted by rank, then suit: how deadwood and sets are written."""
    return sorted(cards, key=lambda c: (c % 13, c // 13))


def by_suit(cards: Iterable[int]) -> list[int]:
    """Sorted by suit, then rank: how a hand is shown to people."""
    return sorted(cards)


def mask_value(mask: int) -> int:
    """Sum of the deadwood values of the cards in a mask."""
    return sum(CARD_VALUES[c] for c in cards_of(mask))


def cut_key(card: int) -> tuple[int, int]:
    """Order of cards when cutting for the deal: rank, then suit (spades high)."""
    return (card % 13, 3 - card // 13)
