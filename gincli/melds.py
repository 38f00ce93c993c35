"""The meld solver: exact minimum deadwood and best arrangements.

Rules (RULES.md, "Melds and deadwood"): a set is 3 or 4 cards of one rank; a
run is 3 or more cards of one suit in consecutive rank, ace low, no
wrap-around; a card belongs to at most one meld.

How it is fast: a hand is a 52-bit mask, 13 bits a suit. With no sets, the
best runs of a suit are forced (every maximal stretch of 3+ consecutive cards
is melded whole), so one table of 8,192 entries gives each suit's deadwood.
Sets only matter for ranks held three or four times; at most three such
ranks fit in eleven cards, so the solver tries each way of taking them as
sets (none, all, or leaving out one card of four) and looks the rest up.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import NamedTuple

from .cards import CARD_VALUES, RANK_VALUES, cards_of

SUIT_MASK = 0x1FFF


def _tables() -> tuple[list[int], list[int]]:
    """Per suit (13-bit mask): the cards melded in runs, and the deadwood left."""
    size = 1 << 13
    value_sum = [0] * size
    for m in range(1, size):
        low = m & -m
        value_sum[m] = value_sum[m ^ low] + RANK_VALUES[low.bit_length() - 1]
    melded = [0] * size
    deadwood = [0] * size
    for m in range(size):
        w = m & (m >> 1) & (m >> 2)  # bit i: i, i+1, i+2 all held
        run = (w | (w << 1) | (w << 2)) & SUIT_MASK
        melded[m] = run
        deadwood[m] = value_sum[m & ~run]
    return melded, deadwood


RUN_MELDED, RUN_DEADWOOD = _tables()


def deadwood(mask: int) -> int:
    """Minimum deadwood of a hand given as a 52-bit card mask (any size)."""
    a = mask & 0x1FFF
    b = (mask >> 13) & 0x1FFF
    c = (mask >> 26) & 0x1FFF
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))  # ranks held 3 or 4 times
    if t:
        return _with_sets(a, b, c, d, t)
    rd = RUN_DEADWOOD
    return rd[a] + rd[b] + rd[c] + rd[d]


def _with_sets(a: int, b: int, c: int, d: int, t: int) -> int:
    rd = RUN_DEADWOOD
    if not t:
        return rd[a] + rd[b] + rd[c] + rd[d]
    r = t & -t
    t ^= r
    best = _with_sets(a, b, c, d, t)  # no set of this rank
    keep = ~r
    v = _with_sets(a & keep, b & keep, c & keep, d & keep, t)  # all of the rank as a set
    if v < best:
        best = v
    if a & b & c & d & r:  # four of a kind: a set of three, the fourth free for a run
        for v in (
            _with_sets(a, b & keep, c & keep, d & keep, t),
            _with_sets(a & keep, b, c & keep, d & keep, t),
            _with_sets(a & keep, b & keep, c, d & keep, t),
            _with_sets(a & keep, b & keep, c & keep, d, t),
        ):
            if v < best:
                best = v
    return best


def deadwoods(masks: Iterable[int]) -> list[int]:
    """Minimum deadwood of many hands: the batch form of :func:`deadwood`."""
    rd = RUN_DEADWOOD
    out = []
    append = out.append
    for mask in masks:
        a = mask & 0x1FFF
        b = (mask >> 13) & 0x1FFF
        c = (mask >> 26) & 0x1FFF
        d = mask >> 39
        t = (a & b & (c | d)) | (c & d & (a | b))
        append(_with_sets(a, b, c, d, t) if t else rd[a] + rd[b] + rd[c] + rd[d])
    return out


class Arrangement(NamedTuple):
    """One way of melding a hand: its melds (each a card mask) and deadwood."""

    deadwood: int
    melds: tuple[int, ...]
    deadwood_mask: int

    @property
    def melded_mask(self) -> int:
        m = 0
        for meld in self.melds:
            m |= meld
        return m


def _set_choices(mask: int) -> Iterator[tuple[int, ...]]:
    """Every choice of sets a hand allows (as card masks), the empty choice first."""
    a = mask & 0x1FFF
    b = (mask >> 13) & 0x1FFF
    c = (mask >> 26) & 0x1FFF
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    ranks = []
    while t:
        low = t & -t
        t ^= low
        ranks.append(low.bit_length() - 1)

    def options(r: int) -> list[int]:
        held = [s for s in range(4) if mask >> (s * 13 + r) & 1]
        full = sum(1 << (s * 13 + r) for s in held)
        opts = [0, full]
        if len(held) == 4:
            opts += [full & ~(1 << (s * 13 + r)) for s in held]
        return opts

    def walk(i: int, chosen: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
        if i == len(ranks):
            yield chosen
            return
        for opt in options(ranks[i]):
            yield from walk(i + 1, chosen + (opt,) if opt else chosen)

    yield from walk(0, ())


def _runs(mask: int) -> tuple[list[int], int]:
    """The forced runs of what is left after sets: (run masks, deadwood mask)."""
    runs = []
    dead = 0
    for s in range(4):
        bits = (mask >> (13 * s)) & SUIT_MASK
        melded = RUN_MELDED[bits]
        dead |= (bits & ~melded) << (13 * s)
        r = 0
        while melded:
            if melded >> r & 1:
                start = r
                while melded >> r & 1:
                    melded &= ~(1 << r)
                    r += 1
                runs.append(((1 << r) - (1 << start)) << (13 * s))
            else:
                r += 1
    return runs, dead


def arrangements(mask: int) -> Iterator[Arrangement]:
    """Every distinct arrangement worth considering: one per choice of sets,
    with the runs of the remaining cards taken whole (longest runs)."""
    for sets in _set_choices(mask):
        rest = mask
        for s in sets:
            rest &= ~s
        runs, dead = _runs(rest)
        yield Arrangement(_mask_value(dead), tuple(sets) + tuple(runs), dead)


def min_arrangements(mask: int) -> list[Arrangement]:
    """All arrangements of minimum deadwood, in a fixed order."""
    best: list[Arrangement] = []
    for arr in arrangements(mask):
        if not best or arr.deadwood < best[0].deadwood:
            best = [arr]
        elif arr.deadwood == best[0].deadwood:
            best.append(arr)
    return best


def best_arrangement(mask: int) -> Arrangement:
    """One arrangement of minimum deadwood (the first of :func:`min_arrangements`)."""
    return min_arrangements(mask)[0]


def _mask_value(mask: int) -> int:
    v = 0
    values = CARD_VALUES
    while mask:
        low = mask & -mask
        v += values[low.bit_length() - 1]
        mask ^= low
    return v


mask_value = _mask_value


def is_set(cards: list[int]) -> bool:
    """Three or four cards of one rank (distinct cards)."""
    return 3 <= len(cards) <= 4 and len(set(cards)) == len(cards) and len({c % 13 for c in cards}) == 1


def is_run(cards: list[int]) -> bool:
    """Three or more cards of one suit in consecutive rank, ace low."""
    if len(cards) < 3 or len({c // 13 for c in cards}) != 1:
        return False
    ranks = sorted(c % 13 for c in cards)
    return all(ranks[i + 1] == ranks[i] + 1 for i in range(len(ranks) - 1))


def is_meld(cards: list[int]) -> bool:
    return is_set(cards) or is_run(cards)


def meld_cards(meld: int) -> list[int]:
    """A meld's cards in the order they are written: a run ascending, a set by suit."""
    return cards_of(meld)


def is_run_mask(meld: int) -> bool:
    """Whether a meld mask (already known to be a meld) is a run."""
    cards = cards_of(meld)
    return cards[0] // 13 == cards[-1] // 13 and len(cards) >= 3 and is_run(cards)
