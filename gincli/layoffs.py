"""Layoffs: the defender's cards laid onto the knocker's melds.

Rules (RULES.md, "Layoffs"): after a knock that is not gin, the defender may
lay off deadwood onto the knocker's melds: the fourth card of a set, or cards
extending a run at either end, a run growing card by card (9 then 10 onto
6-7-8). The knocker never lays off; nobody lays off onto gin or big gin.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import product

from .cards import card_str, cards_of
from .errors import RecordError
from .melds import Arrangement, best_arrangement, deadwood, mask_value, meld_info


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


def layoff_options(knocker_melds: Sequence[int], available: int) -> list[list[int]]:
    """The independent layoff choices open to a defender holding ``available``:
    each is a chain of cards that can only be laid in that order (a set's fourth
    card, or a run's extension one way); any prefix of each chain may be laid."""
    slots, runs = _targets(knocker_melds)
    chains = []
    for s, lo, hi in runs:
        up = []
        r = hi + 1
        while r < 13 and available >> (s * 13 + r) & 1:
            up.append(s * 13 + r)
            r += 1
        down = []
        r = lo - 1
        while r >= 0 and available >> (s * 13 + r) & 1:
            down.append(s * 13 + r)
            r -= 1
        if up:
            chains.append(up)
        if down:
            chains.append(down)
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


def best_defence(held: int, knocker_melds: Sequence[int], melds: Sequence[int] | None = None,
                 layoffs: Sequence[int] | None = None) -> tuple[int, list[int], Arrangement]:
    """The defender's best result against a knocker's melds.

    ``held`` is the defender's hand; ``melds`` (card masks) and ``layoffs``
    (cards) are the defender's declarations, checked and used when given, else
    chosen to leave the least deadwood (ties: the fewest layoffs).
    Returns ``(deadwood, layoffs in laying order, arrangement of the rest)``.
    """
    declared_melds = 0
    for m in melds or ():
        declared_melds |= m
    available = held & ~declared_melds
    if layoffs is not None:
        laid = 0
        for c in layoffs:
            laid |= 1 << c
        if laid & declared_melds:
            both = card_str(cards_of(laid & declared_melds)[0])
            raise RecordError(f"{both} is both laid off and in one of the defender's melds", rule="layoff-in-meld")
        ordered = order_layoffs(list(layoffs), knocker_melds)
        rest = available & ~laid
        return _finish(rest, melds, ordered)

    touch = 0
    for m in knocker_melds:
        touch |= meld_info(m).touch
    if not touch & available:  # nothing can be laid off: the common case
        return _finish(available, melds, [])
    chains = layoff_options(knocker_melds, available)
    prefixes = []
    for ch in chains:
        masks = [0]
        for c in ch:
            masks.append(masks[-1] | 1 << c)
        prefixes.append(masks)
    best_key: tuple[int, int] | None = None
    best_lengths: tuple[int, ...] = ()
    best_laid = 0
    solve = mask_value if melds is not None else deadwood
    for lengths in product(*(range(len(ch) + 1) for ch in chains)):
        laid = 0
        for masks, n in zip(prefixes, lengths):
            laid |= masks[n]
        key = (solve(available & ~laid), laid.bit_count())
        if best_key is None or key < best_key:
            best_key, best_laid, best_lengths = key, laid, lengths
    ordered: list[int] = []
    for ch, n in zip(chains, best_lengths):
        ordered += [c for c in ch[:n] if c not in ordered]
    return _finish(available & ~best_laid, melds, ordered)


def _finish(rest: int, melds: Sequence[int] | None, ordered: list[int]) -> tuple[int, list[int], Arrangement]:
    if melds is not None:
        arrangement = Arrangement(mask_value(rest), tuple(melds), rest)
    else:
        arrangement = best_arrangement(rest)
    return arrangement.deadwood, ordered, arrangement
