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

from .cards import CARD_NAMES, RANK_VALUES, cards_of

SUIT_MASK = 0x1FFF


def _tables() -> tuple[list[int], list[int], list[int]]:
    """Per suit (13-bit mask): the value of its cards, the cards melded in runs,
    and the deadwood left."""
    value_sum = [0]
    for rank in range(13):  # the masks with this rank added: those below it, each plus its value
        value = RANK_VALUES[rank]
        value_sum += [v + value for v in value_sum]
    # bit i of m & m >> 1 & m >> 2: ranks i, i+1, i+2 all held; a run is those and the two above each
    melded = [(w | w << 1 | w << 2) & SUIT_MASK for w in (m & m >> 1 & m >> 2 for m in range(1 << 13))]
    deadwood = [value_sum[m & ~run] for m, run in enumerate(melded)]
    return value_sum, melded, deadwood


VALUE_SUM, RUN_MELDED, RUN_DEADWOOD = _tables()


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
    out: list[int] = []
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


#: ``_new(Arrangement, (deadwood, melds, deadwood_mask))``: an Arrangement without
#: the Python-level constructor (the hot path makes one or two per hand).
_new = tuple.__new__

#: One card of a rank in every suit: ``low * _SPREAD`` is that rank's four cards.
_SPREAD = 1 | 1 << 13 | 1 << 26 | 1 << 39
#: Every card but the aces, and every card but the kings: a mask shifted one rank
#: up (or down) and cut by these never wraps into the next suit.
NO_ACES = ((1 << 52) - 1) & ~_SPREAD
NO_KINGS = ((1 << 52) - 1) & ~(_SPREAD << 12)


def _choices(mask: int, t: int) -> list[tuple[int, tuple[int, ...]]]:
    """Every choice of sets worth trying, each as (its cards, the set masks), the
    empty choice first; ``t`` holds the ranks held three or four times. A rank
    none of whose cards has a same-suit neighbour can be in no run, so its full
    set is the only choice that can be best."""
    choices: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    while t:
        low = t & -t
        t ^= low
        full = mask & (low * _SPREAD)
        if not ((full << 1 & NO_ACES) | (full >> 1 & NO_KINGS)) & mask:  # no card of it can be in a run
            choices = [(used | full, ch + (full,)) for used, ch in choices]
            continue
        opts: tuple[int, ...]
        if full.bit_count() == 4:
            opts = (full, full & ~low, full & ~(low << 13), full & ~(low << 26), full & ~(low << 39))
        else:
            opts = (full,)
        choices += [(used | o, ch + (o,)) for used, ch in choices for o in opts]
    return choices


_SEGMENTS: dict[int, tuple[int, ...]] = {}


def _segments(melded: int) -> tuple[int, ...]:
    """The maximal stretches of consecutive bits of a 13-bit mask, each a run."""
    found = _SEGMENTS.get(melded)
    if found is None:
        runs = []
        m = melded
        while m:
            top = run = m & -m
            while m & (top << 1):
                top <<= 1
                run |= top
            runs.append(run)
            m &= ~run
        found = _SEGMENTS[melded] = tuple(runs)
    return found


#: Per 13-bit pattern of a suit: the runs it melds (card masks, low to high) as
#: they are in each of the four suits, its deadwood cards (as in spades) and their
#: value. At most 8,192 entries, shared by the suits (memory stays small).
_SUIT_RUNS: dict[int, tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int]] = {}


def _suit_runs(bits: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int, int]:
    melded = RUN_MELDED[bits]
    segments = _segments(melded)
    found = _SUIT_RUNS[bits] = (segments, tuple(seg << 13 for seg in segments), tuple(seg << 26 for seg in segments),
                                tuple(seg << 39 for seg in segments), bits & ~melded, RUN_DEADWOOD[bits])
    return found


def _runs(mask: int) -> tuple[tuple[int, ...], int, int]:
    """The forced runs of what is left after sets: (run masks, deadwood mask, deadwood)."""
    get = _SUIT_RUNS.get
    k = mask & 0x1FFF
    a = get(k) or _suit_runs(k)
    k = mask >> 13 & 0x1FFF
    b = get(k) or _suit_runs(k)
    k = mask >> 26 & 0x1FFF
    c = get(k) or _suit_runs(k)
    k = mask >> 39
    d = get(k) or _suit_runs(k)
    return (a[0] + b[1] + c[2] + d[3], a[4] | b[4] << 13 | c[4] << 26 | d[4] << 39,
            a[5] + b[5] + c[5] + d[5])


def _ranks_in_sets(mask: int) -> int:
    a = mask & 0x1FFF
    b = (mask >> 13) & 0x1FFF
    c = (mask >> 26) & 0x1FFF
    d = mask >> 39
    return (a & b & (c | d)) | (c & d & (a | b))


def arrangements(mask: int) -> Iterator[Arrangement]:
    """Every distinct arrangement worth considering: one per choice of sets,
    with the runs of the remaining cards taken whole (longest runs)."""
    t = _ranks_in_sets(mask)
    for used, sets in _choices(mask, t) if t else ((0, ()),):
        runs, dead, value = _runs(mask & ~used)
        yield Arrangement(value, sets + runs, dead)


def _best_choices(mask: int, t: int, first: bool) -> list[tuple[tuple[int, ...], int]]:
    """The choices of sets (set masks, cards left) that leave the least
    deadwood, in the order of :func:`_choices`; only the first with ``first``."""
    return _best_of(mask, _choices(mask, t), first)


def _best_of(mask: int, choices: list[tuple[int, tuple[int, ...]]],
             first: bool) -> list[tuple[tuple[int, ...], int]]:
    rd = RUN_DEADWOOD
    best_value = 1 << 30
    best: list[tuple[tuple[int, ...], int]] = []
    for used, sets in choices:
        rest = mask & ~used
        v = rd[rest & 0x1FFF] + rd[rest >> 13 & 0x1FFF] + rd[rest >> 26 & 0x1FFF] + rd[rest >> 39]
        if v < best_value:
            best_value = v
            best = [(sets, rest)]
        elif v == best_value and not first:
            best.append((sets, rest))
    return best


def min_arrangements(mask: int) -> list[Arrangement]:
    """All arrangements of minimum deadwood, in a fixed order."""
    a = mask & 0x1FFF
    b = (mask >> 13) & 0x1FFF
    c = (mask >> 26) & 0x1FFF
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))  # ranks held 3 or 4 times
    if not t:
        runs, dead, value = _runs(mask)
        return [_new(Arrangement, (value, runs, dead))]
    choices = _choices(mask, t)
    if len(choices) == 1:  # every set forced (no card of it could be in a run)
        used, sets = choices[0]
        runs, dead, value = _runs(mask & ~used)
        return [_new(Arrangement, (value, sets + runs, dead))]
    out = []
    for sets, rest in _best_of(mask, choices, False):
        runs, dead, value = _runs(rest)
        out.append(_new(Arrangement, (value, sets + runs, dead)))
    return out


def best_arrangement(mask: int) -> Arrangement:
    """One arrangement of minimum deadwood (the first of :func:`min_arrangements`)."""
    a = mask & 0x1FFF
    b = (mask >> 13) & 0x1FFF
    c = (mask >> 26) & 0x1FFF
    d = mask >> 39
    t = (a & b & (c | d)) | (c & d & (a | b))
    if not t:  # no sets: the runs of each suit (``_runs``, inline: the defender's common case)
        get = _SUIT_RUNS.get
        ra = get(a) or _suit_runs(a)
        rb = get(b) or _suit_runs(b)
        rc = get(c) or _suit_runs(c)
        rd = get(d) or _suit_runs(d)
        return _new(Arrangement, (ra[5] + rb[5] + rc[5] + rd[5], ra[0] + rb[1] + rc[2] + rd[3],
                                  ra[4] | rb[4] << 13 | rc[4] << 26 | rd[4] << 39))
    sets, rest = _best_choices(mask, t, True)[0]
    runs, dead, value = _runs(rest)
    return _new(Arrangement, (value, sets + runs, dead))


def mask_value(mask: int) -> int:
    """Sum of the deadwood values of the cards in a mask."""
    vs = VALUE_SUM
    return vs[mask & 0x1FFF] + vs[(mask >> 13) & 0x1FFF] + vs[(mask >> 26) & 0x1FFF] + vs[mask >> 39]


class MeldInfo(NamedTuple):
    """What a meld is: a run (``suit``, ``low`` and ``high`` rank) or a set
    (``rank``; ``open_card`` is its missing fourth card, or -1 for four of a kind);
    ``names`` are its cards as written, ``key`` orders melds for writing."""

    is_run: bool
    suit: int
    low: int
    high: int
    open_card: int
    names: tuple[str, ...]
    key: tuple[int, int]
    json: str
    touch: int = 0  # the cards that could be laid off on it first: run ends, the open fourth of a set


_MELD_INFO: dict[int, MeldInfo] = {}


def meld_info(meld: int) -> MeldInfo:
    """Facts about a meld mask (cached: there are only a few hundred melds)."""
    info = _MELD_INFO.get(meld)
    if info is None:
        cards = cards_of(meld)
        first = cards[0]
        if cards[-1] // 13 == first // 13:  # one suit: a run
            cards = in_sequence(cards)
            first = cards[0]
            info = MeldInfo(True, first // 13, first % 13, cards[-1] % 13, -1,
                            tuple(CARD_NAMES[c] for c in cards), (first % 13, first // 13), "")
        else:
            r = first % 13
            suits = {c // 13 for c in cards}
            # a set of three has one open card; what a plugin's rules call a meld may not
            missing = {0, 1, 2, 3} - suits
            open_card = missing.pop() * 13 + r if len(cards) == 3 and len(missing) == 1 else -1
            info = MeldInfo(False, -1, r, r, open_card, tuple(CARD_NAMES[c] for c in cards), (r, first // 13), "")
        touch = 0
        if info.is_run:
            if info.low > 0:
                touch |= 1 << (info.suit * 13 + info.low - 1)
            if info.high < 12:
                touch |= 1 << (info.suit * 13 + info.high + 1)
        elif info.open_card >= 0:
            touch = 1 << info.open_card
        info = info._replace(json="[" + ", ".join(f'"{n}"' for n in info.names) + "]", touch=touch)
        _MELD_INFO[meld] = info
    return info


def in_sequence(cards: list[int]) -> list[int]:
    """Cards of one suit (ascending) in the order of their sequence: ascending,
    unless they go round the corner from K to A (K-A-2 under ``corner_runs``),
    where they start after the widest gap between them."""
    if len(cards) < 2:
        return cards
    widest, start = cards[0] + 13 - cards[-1], 0  # the gap round the corner first: ties keep A..K order
    for i in range(1, len(cards)):
        if cards[i] - cards[i - 1] > widest:
            widest, start = cards[i] - cards[i - 1], i
    return cards[start:] + cards[:start]


def _neighbours(c: int) -> int:
    r, s = c % 13, c // 13
    m = 0
    for t in range(4):
        if t != s:
            m |= 1 << (t * 13 + r)
    for d in (-2, -1, 1, 2):
        if 0 <= r + d < 13:
            m |= 1 << (s * 13 + r + d)
    return m


#: For each card, the cards that can meld with it under the standard melds: its
#: rank, and its suit within two (the bots' and the play-outs' measure of a card's use).
NEIGHBOURS: tuple[int, ...] = tuple(_neighbours(c) for c in range(52))


def forms_meld(hand: int, card: int) -> bool:
    """Whether ``card`` makes a meld with cards of ``hand`` (a mask): two more of
    its rank, or two of its suit next to it in sequence."""
    r, s = card % 13, card // 13
    if sum(hand >> (t * 13 + r) & 1 for t in range(4) if t != s) >= 2:
        return True
    bits = (hand >> (13 * s)) & 0x1FFF
    below1 = r >= 1 and bits >> (r - 1) & 1
    below2 = r >= 2 and bits >> (r - 2) & 1
    above1 = r <= 11 and bits >> (r + 1) & 1
    above2 = r <= 10 and bits >> (r + 2) & 1
    return bool((below1 and below2) or (below1 and above1) or (above1 and above2))


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
