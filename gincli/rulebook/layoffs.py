"""Layoffs: the defender's cards laid onto the knocker's melds.

Rules (RULES.md, "Layoffs"): after a knock that is not gin, the defender may
lay off deadwood onto the knocker's melds: the fourth card of a set, or cards
extending a run at either end, a run growing card by card (9 then 10 onto
6-7-8). The knocker never lays off; nobody lays off onto gin or big gin.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base.errors import RecordError
from .cards import card_str, cards_of
from .melds import NO_ACES, NO_KINGS, Arrangement, best_arrangement, deadwood, mask_value, meld_info


def _targets(knocker_melds: Sequence[int]) -> tuple[list[int], list[list[int]]]:
    """Open set slots (the missing fourth card of each three-card set) and runs
    as ``[suit, low rank, high rank]``."""
    slots: list[int] = []
    runs: list[list[int]] = []
    for meld in knocker_melds:
        info = meld_info(meld)
        if info.is_run:
            runs.append([info.suit, info.low, info.high])
        elif info.open_card >= 0:
            slots.append(info.open_card)
    return slots, runs


#: Per meld, where layoffs onto it start: ``(True, up, top, down, bottom)`` for a
#: run (the cards above and below it, and the last card each way its suit
#: allows; -1 where none), ``(False, card, ...)`` for a set's open fourth card.
_STARTS: dict[int, tuple[bool, int, int, int, int]] = {}


def _starts(meld: int) -> tuple[bool, int, int, int, int]:
    info = meld_info(meld)
    if info.is_run:
        base = info.suit * 13
        found = (True, base + info.high + 1 if info.high < 12 else -1, base + 12,
                 base + info.low - 1 if info.low > 0 else -1, base)
    else:
        found = (False, info.open_card, -1, -1, -1)
    _STARTS[meld] = found
    return found


def layoff_options(knocker_melds: Sequence[int], available: int) -> list[list[int]]:
    """The independent layoff choices open to a defender holding ``available``:
    each is a chain of cards that can only be laid in that order (a set's fourth
    card, or a run's extension one way); any prefix of each chain may be laid."""
    chains = []
    slots = []
    get = _STARTS.get
    for meld in knocker_melds:
        run, up, top, down, bottom = get(meld) or _starts(meld)
        if run:  # up its suit, then down
            if up >= 0 and available >> up & 1:
                chain = [up]
                c = up + 1
                while c <= top and available >> c & 1:
                    chain.append(c)
                    c += 1
                chains.append(chain)
            if down >= 0 and available >> down & 1:
                chain = [down]
                c = down - 1
                while c >= bottom and available >> c & 1:
                    chain.append(c)
                    c -= 1
                chains.append(chain)
        elif up >= 0:
            slots.append(up)
    # Runs first: a card that fits both a run and a set is written where it lets more follow.
    chains += [[c] for c in slots if available >> c & 1]
    return chains


def order_layoffs(cards: Sequence[int], knocker_melds: Sequence[int]) -> list[int]:
    """Check that declared layoffs fit the knocker's melds, and return them in
    an order in which they can be laid one by one.

    Raises :class:`RecordError` naming the first card that fits nowhere.
    """
    if len(set(cards)) != len(cards):
        dup = next(c for c in cards if cards.count(c) > 1)
        raise RecordError(f"layoff {card_str(dup)} is listed twice", rule="layoff-repeated")
    slots, runs = _targets(knocker_melds)
    open_slots = set(slots)
    left = list(cards)
    placed: list[int] = []
    while left:
        progress = False
        for card in list(left):
            s, r = card // 13, card % 13
            fit = False
            for run in runs:  # a run first: extending it may let more cards follow
                if run[0] == s and r == run[2] + 1:
                    run[2] = r
                    fit = True
                    break
                if run[0] == s and r == run[1] - 1:
                    run[1] = r
                    fit = True
                    break
            if not fit and card in open_slots:
                open_slots.discard(card)
                fit = True
            if fit:
                left.remove(card)
                placed.append(card)
                progress = True
        if not progress:
            bad = ", ".join(card_str(c) for c in left)
            raise RecordError(f"layoff {bad} does not fit the knocker's melds", rule="layoff-not-fitting")
    return placed


#: The cards that could be laid off on each meld first (:attr:`MeldInfo.touch`).
_TOUCH: dict[int, int] = {}


def _touch(meld: int) -> int:
    touch = _TOUCH[meld] = meld_info(meld).touch
    return touch


def plain_defence(held: int, knocker_melds: Sequence[int]) -> tuple[int, list[int], Arrangement]:
    """:func:`best_defence` of a defender who declared nothing (the common case,
    straight to its answer; anything more than one card that could go, the long way)."""
    touch = 0
    get = _TOUCH.get
    for m in knocker_melds:
        t = get(m)
        touch |= t if t is not None else _touch(m)
    fits = touch & held
    if fits:
        if fits & (fits - 1) or (fits << 1 & NO_ACES | fits >> 1 & NO_KINGS) & held:
            # more than one card could go, or one that a run's next card could follow
            chains = layoff_options(knocker_melds, held)
            if len(chains) != 1 or len(chains[0]) != 1:
                return _search(held, knocker_melds, None, chains)
            card = chains[0][0]
        else:  # one card, alone (on a run's end or as a set's fourth, it is the same)
            card = fits.bit_length() - 1
        arrangement = best_arrangement(held & ~(1 << card))
        if arrangement.deadwood < deadwood(held):  # laying it off leaves less: laid
            return arrangement.deadwood, [card], arrangement
    arrangement = best_arrangement(held)
    return arrangement.deadwood, [], arrangement


def declared(held: int, melds: Sequence[int] | None, layoffs: Sequence[int] | None) -> tuple[int, int]:
    """The defender's cards outside their declared melds, and the declared
    layoffs as a mask, checked: no card both laid off and in a meld
    (:class:`RecordError`, rule ``layoff-in-meld``)."""
    in_melds = 0
    for m in melds or ():
        in_melds |= m
    laid = 0
    for c in layoffs or ():
        laid |= 1 << c
    if laid & in_melds:
        both = card_str(cards_of(laid & in_melds)[0])
        raise RecordError(f"{both} is both laid off and in one of the defender's melds", rule="layoff-in-meld")
    return held & ~in_melds, laid


def best_defence(held: int, knocker_melds: Sequence[int], melds: Sequence[int] | None = None,
                 layoffs: Sequence[int] | None = None) -> tuple[int, list[int], Arrangement]:
    """The defender's best result against a knocker's melds.

    ``held`` is the defender's hand; ``melds`` (card masks) and ``layoffs``
    (cards) are the defender's declarations, checked and used when given, else
    chosen to leave the least deadwood (ties: the fewest layoffs).
    Returns ``(deadwood, layoffs in laying order, arrangement of the rest)``.
    """
    if melds is None and layoffs is None:
        return plain_defence(held, knocker_melds)
    available, laid = declared(held, melds, layoffs)
    if layoffs is not None:
        ordered = order_layoffs(list(layoffs), knocker_melds)
        rest = available & ~laid
        return _finish(rest, melds, ordered)

    touch = 0
    get = _TOUCH.get
    for m in knocker_melds:
        t = get(m)
        touch |= t if t is not None else _touch(m)
    if not touch & available:  # nothing can be laid off: the common case
        return _finish(available, melds, [])
    return _search(available, knocker_melds, melds, layoff_options(knocker_melds, available))


def _search(available: int, knocker_melds: Sequence[int], melds: Sequence[int] | None,
            chains: list[list[int]]) -> tuple[int, list[int], Arrangement]:
    """The layoffs leaving the least deadwood (ties: the fewest), trying every
    prefix of every chain."""
    # Every way of laying a prefix of each chain, in the order of itertools.product.
    combos: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    for ch in chains:
        prefixes = [0]
        for c in ch:
            prefixes.append(prefixes[-1] | 1 << c)
        combos = [(laid | p, lengths + (n,)) for laid, lengths in combos for n, p in enumerate(prefixes)]
    best_key = -1
    best_lengths: tuple[int, ...] = ()
    best_laid = 0
    solve = mask_value if melds is not None else deadwood
    for laid, lengths in combos:
        key = solve(available & ~laid) * 64 + laid.bit_count()  # least deadwood, then fewest layoffs
        if best_key < 0 or key < best_key:
            best_key, best_laid, best_lengths = key, laid, lengths
    ordered: list[int] = []
    for ch, n in zip(chains, best_lengths, strict=True):
        ordered += [c for c in ch[:n] if c not in ordered]
    return _finish(available & ~best_laid, melds, ordered)


def _finish(rest: int, melds: Sequence[int] | None, ordered: list[int]) -> tuple[int, list[int], Arrangement]:
    arrangement = Arrangement(mask_value(rest), tuple(melds), rest) if melds is not None else best_arrangement(rest)
    return arrangement.deadwood, ordered, arrangement
