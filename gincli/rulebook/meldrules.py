"""Meld rules: what a meld is, what each card counts, and whether the defender
may lay off onto gin. The rule book's are :data:`STANDARD`; a variant changes
them through the ``gincli_register_meld_rules`` hook with a :class:`MeldRules`.

A plugin's :class:`MeldRules` gives *data*: every meld of the deck (card
masks), each card's deadwood value, and whether layoffs onto gin are allowed,
for the rules in force. gincli checks that data where it crosses and builds a
:class:`MeldSolver` from it: the exact minimum deadwood (a search over the
melds a hand holds, :class:`HandSearch`, compiled where it can be) and every arrangement
of it, layoffs (a card may be laid off onto a meld when the two make a meld;
a meld grows card by card), and whether a card makes a meld with a hand. One
solver serves the scorer, the hand engine, ``legal()``, the bots and ``gin
play``, so every one of them plays by the same rules. The standard rules keep
their own fast solver (:mod:`gincli.rulebook.melds`, :mod:`~gincli.rulebook.layoffs`),
which :data:`STANDARD` presents through the same methods.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

from ..base.compiled import compiled as compiled_module
from ..base.errors import RecordError
from . import layoffs as _layoffs, melds as _melds
from .cards import CARD_VALUES, card_str, cards_of
from .melds import Arrangement

if TYPE_CHECKING:
    from ._meldsearch import Search

#: The rules a meld rules' methods are asked with (a :class:`gincli.Rules`; not
#: imported here: the rules module builds on this one).
Rules = Mapping[str, Any]

#: The most a card may count in deadwood under any meld rules: a hand's deadwood then
#: stays within 11 * 100, which knock limits, points and every table of the solver hold.
MAX_CARD_VALUE = 100

#: What a meld is under the rule book, in words (for errors and help).
STANDARD_WORDS = "a set is 3 or 4 cards of one rank; a run 3 or more of one suit in sequence"


def standard_melds(corner: bool = False) -> list[int]:
    """Every meld of the rule book as card masks: the sets of 3 and 4 cards of
    a rank, the runs of 3 to 13 cards of a suit; with ``corner``, runs that go
    round the corner too (K-A-2: RULES.md ``corner_runs``)."""
    out = []
    for r in range(13):
        full = sum(1 << (s * 13 + r) for s in range(4))
        out.append(full)
        out += [full & ~(1 << (s * 13 + r)) for s in range(4)]
    for s in range(4):
        base = s * 13
        for length in range(3, 14):
            for low in range(13 if corner and length < 13 else 14 - length):
                out.append(sum(1 << (base + (low + i) % 13) for i in range(length)))
    return out


class MeldRules:
    """Meld rules a plugin adds: subclass it, set ``name``, ``description`` and
    the ``options`` it adds to every variant, say when those rules turn it on
    (:meth:`enabled`), and override what changes: :meth:`melds`,
    :meth:`card_value`, :meth:`layoff_on_gin`, :meth:`words`. Register an
    instance through the ``gincli_register_meld_rules`` hook. At most one meld
    rules may be on at a time."""

    name: str = ""
    description: str = ""
    #: Options it adds to every variant of play (settable like any option).
    options: tuple[Any, ...] = ()  # gincli.Option
    source: str = "built-in"

    def enabled(self, rules: Rules) -> bool:
        """Whether these rules play with it (usually: one of its options is not at its default)."""
        return False

    def melds(self, rules: Rules) -> Iterable[int]:
        """Every meld of the deck under ``rules``, each a card mask (bit ``card``
        set, card = suit * 13 + rank, ranks 0..12 for A..K): the rule book's
        sets and runs unless overridden (:func:`standard_melds`)."""
        return standard_melds()

    def card_value(self, card: int, rules: Rules) -> int:
        """What ``card`` counts in deadwood (ace 1, pips their number, J/Q/K 10 unless overridden)."""
        return CARD_VALUES[card]

    def layoff_on_gin(self, rules: Rules) -> bool:
        """Whether the defender may lay off onto a gin hand (never onto big gin):
        a defender left with no deadwood then ties the hand (outcome ``gin_tied``)."""
        return False

    def words(self, rules: Rules) -> str:
        """What a meld is under ``rules``, in words, for error messages."""
        return STANDARD_WORDS

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    def solver(self, rules: Rules) -> MeldSolver:
        """The solver these rules build (their data checked: a plugin's fault is
        a sentence naming it): one for the same data, whatever else the rules
        say (its cache of hands shared; a few kept at most)."""
        masks, values, on_gin, words = self.checked_data(rules)
        if masks == STANDARD_MASKS and values == CARD_VALUES and not on_gin:
            return STANDARD
        return solver_of(self.name, tuple(sorted(masks)), values, on_gin, words)

    def checked_data(self, rules: Rules) -> tuple[frozenset[int], tuple[int, ...], bool, str]:
        """What these rules say under ``rules`` (their melds, each card's value,
        layoffs onto gin, their words), checked where it crosses: a mask that is
        not two cards or more of the 52, a value that is not a whole number from
        0 to :data:`MAX_CARD_VALUE`, is a :class:`~gincli.base.contract.PluginFault`
        naming the plugin and the method. Also asked at registration, with every
        option at its default."""
        from ..base.contract import breach, call, truth

        def what(method: str) -> str:
            return f"the meld rules {self.name}'s {method}()"

        found = call(self, what("melds"), lambda: list(self.melds(rules)))
        masks = set()
        for m in found:
            if type(m) is not int or m <= 0 or m >> 52 or m.bit_count() < 2:
                raise breach(self, what("melds"), m, "card masks (whole numbers below 2**52) of two cards or more")
            masks.add(m)
        values = []
        for c in range(52):
            v = call(self, what("card_value"), self.card_value, c, rules)
            if type(v) is not int or not 0 <= v <= MAX_CARD_VALUE:
                raise breach(self, what("card_value"), v, f"a whole number from 0 to {MAX_CARD_VALUE}")
            values.append(v)
        on_gin = truth(self, what("layoff_on_gin"), call(self, what("layoff_on_gin"), self.layoff_on_gin, rules))
        words = call(self, what("words"), self.words, rules)
        if not isinstance(words, str) or not words.strip():
            raise breach(self, what("words"), words, "a sentence")
        return frozenset(masks), tuple(values), on_gin, words


class HandSearch:
    """The least deadwood of a hand under any melds, exact: the melds the hand
    holds (found through the melds by their lowest card), then a search over
    what is left, its lowest card in no meld or in each meld of it still held,
    memoised on the cards left. Answers are cached, the last :attr:`CACHE`
    hands or more (two generations: memory stays bounded). The pure-Python
    twin of the compiled ``_meldsearch.Search`` (the same answers)."""

    #: Hands a generation of the cache holds.
    CACHE = 1 << 16

    def __init__(self, melds: Sequence[int], values: Sequence[int]):
        self.melds = tuple(melds)
        self.values = tuple(values)
        self._low: list[list[int]] = [[] for _ in range(52)]  # the melds by their lowest card
        for m in melds:
            self._low[(m & -m).bit_length() - 1].append(m)
        # each card's melds, the card taken out: what must be held beside it
        self._with = [tuple(m & ~(1 << c) for m in melds if m >> c & 1) for c in range(52)]
        self._new: dict[int, int] = {0: 0}
        self._old: dict[int, int] = {}
        self._base = 0  # the hand last searched from, its search and memo
        self._memo: dict[int, int] = {}
        self._least = self._search(0)

    def deadwood(self, hand: int) -> int:
        """The least deadwood of ``hand`` (a card mask of any size)."""
        found = self._new.get(hand)
        if found is None:
            found = self._old.get(hand)
            if found is None:
                found = self.solve(hand)
            if len(self._new) >= self.CACHE:  # a new generation; the last stays until the next
                self._old, self._new = self._new, {}
            self._new[hand] = found
        return found

    def held(self, hand: int) -> dict[int, list[int]]:
        """The melds ``hand`` holds, by their lowest card (cards that are the lowest of none left out)."""
        held: dict[int, list[int]] = {}
        low = self._low
        rest = hand
        while rest:
            bit = rest & -rest
            rest ^= bit
            c = bit.bit_length() - 1
            mine = [m for m in low[c] if not m & ~hand]
            if mine:
                held[c] = mine
        return held

    def solve(self, hand: int) -> int:
        """The least deadwood of ``hand``, searched (not cached). A hand within
        the last one searched from is searched over that one's melds and memo:
        the hands a discard leaves share them."""
        if hand & ~self._base or len(self._memo) > self.CACHE:
            self._base = hand
            self._least = self._search(hand)
        return self._least(hand)

    def _search(self, base: int) -> Callable[[int], int]:
        """The least deadwood of cards within ``base``: its lowest card in no meld,
        or in each meld of ``base`` of it still held; memoised on the cards left."""
        values = self.values
        held = self.held(base)
        lows = sum(1 << c for c in held)  # the cards some meld is lowest in
        memo = self._memo = {0: 0}

        def least(left: int) -> int:
            found = memo.get(left)
            if found is None:
                bit = left & -left
                dead = 0
                while not bit & lows:  # the lowest card left, the lowest of no meld: in none now
                    dead += values[bit.bit_length() - 1]
                    left ^= bit
                    if not left:
                        return dead
                    bit = left & -left
                found = memo.get(left)
                if found is None:
                    c = bit.bit_length() - 1
                    found = values[c] + least(left ^ bit)  # its lowest card in no meld
                    for m in held[c]:
                        if found and not m & ~left:
                            v = least(left & ~m)
                            if v < found:
                                found = v
                    memo[left] = found
                found += dead
            return found

        return least

    def forms_meld(self, hand: int, card: int) -> bool:
        """Whether ``card`` makes a meld with cards of ``hand``."""
        return any(not m & ~hand for m in self._with[card])


def _compiled_search() -> type[Search] | None:
    """The compiled :class:`HandSearch` (``gincli.rulebook._meldsearch``, built by
    ``pip install`` where a C compiler is), or None: not built, or
    ``GINCLI_PURE=1`` in the environment (the pure-Python search, the same answers)."""
    module = compiled_module(f"{__package__}._meldsearch")
    return None if module is None else cast("type[Search]", module.Search)


_Search = _compiled_search()
#: Whether a plugin's meld rules are searched compiled.
ACCELERATED = _Search is not None


def compiled(python: HandSearch) -> HandSearch | Search:
    """The compiled twin of the search ``python`` where it is built (a hand it
    cannot take goes to ``python.solve``), else ``python`` itself."""
    return python if _Search is None else _Search(python.melds, python.values, python.solve)


class MeldSolver:
    """The meld rules in force, solved: what the scorer, the engine, the views
    and the bots ask (``rules.melds``). Built from a :class:`MeldRules`'s data;
    exact, for any melds. A hand's least deadwood (:attr:`deadwood`) and
    whether a card melds with it (:attr:`forms_meld`) are a :class:`HandSearch`'s,
    compiled where it is built (``_meldsearch.c``); without it, when every meld
    is of one rank or of one suit (sets and runs, round the corner or not), a
    hand's deadwood is that of each suit's cards (a table per suit, filled as it
    is asked) once each way of taking the melds of one rank is tried, as the
    standard solver does."""

    standard = False
    #: A memo past this many hands starts again (memory stays bounded).
    MEMO = 1 << 17

    #: The least deadwood of a hand (a card mask of any size).
    deadwood: Callable[[int], int]
    #: Whether ``card`` makes a meld with cards of ``hand``: ``forms_meld(hand, card)``.
    forms_meld: Callable[[int, int], bool]

    def __init__(self, name: str, melds: tuple[int, ...], values: tuple[int, ...], layoff_on_gin: bool,
                 words: str):
        self.name = name
        self.meld_masks = melds
        self.values = values
        self.layoff_on_gin = layoff_on_gin
        self.words = words
        self._melds = frozenset(melds)
        self._suit_values = [self._value_table(values[s * 13:s * 13 + 13]) for s in range(4)]
        self._dw: dict[int, int] = {0: 0}
        self._arr: dict[int, list[Arrangement]] = {}
        self._grows: dict[int, int] = {}  # meld -> the cards of the melds it is part of (what may be laid onto it)
        python = HandSearch(melds, values)
        self._held = python.held
        search = compiled(python)
        self.deadwood = search.deadwood
        self.forms_meld = search.forms_meld
        self._structured = all(_one_rank(m) or _one_suit(m) for m in melds)
        if self._structured:
            if not ACCELERATED:  # the suit tables, faster than the search in Python
                self.deadwood = self._by_suits
            # per suit, per lowest rank: the one-suit melds (13-bit masks); each suit's deadwood by its cards
            self._suit_melds: list[list[list[int]]] = [[[] for _ in range(13)] for _ in range(4)]
            # per rank, per pattern of suits held (4 bits): each way of taking melds of that rank (suits taken)
            self._rank_ways: list[list[tuple[int, ...]]] = []
            rank_melds: list[list[int]] = [[] for _ in range(13)]
            for m in melds:
                if _one_suit(m):
                    suit = ((m & -m).bit_length() - 1) // 13
                    bits = m >> (13 * suit) & 0x1FFF
                    self._suit_melds[suit][(bits & -bits).bit_length() - 1].append(bits)
                else:
                    r = ((m & -m).bit_length() - 1) % 13
                    rank_melds[r].append(sum(1 << s for s in range(4) if m >> (s * 13 + r) & 1))
            for r in range(13):
                self._rank_ways.append([tuple(sorted(_disjoint_unions(rank_melds[r], p))) for p in range(16)])
            sizes = [bin(p).count("1") for r in range(13) for p in rank_melds[r]]
            self._rank_min = min(sizes) if sizes else 5
            self._suit_memo: list[dict[int, int]] = [{0: 0} for _ in range(4)]

    def __reduce__(self) -> Any:  # found or built where it is unpickled: the memo stays behind
        return (solver_of, (self.name, self.meld_masks, self.values, self.layoff_on_gin, self.words))

    def __repr__(self) -> str:
        return f"<MeldSolver {self.name!r}: {len(self.meld_masks)} melds>"

    @staticmethod
    def _value_table(values: Sequence[int]) -> list[int]:
        table = [0] * (1 << 13)
        for m in range(1, 1 << 13):
            low = m & -m
            table[m] = table[m ^ low] + values[low.bit_length() - 1]
        return table

    def mask_value(self, mask: int) -> int:
        """The deadwood value of the cards of ``mask``, none melded."""
        t = self._suit_values
        return t[0][mask & 0x1FFF] + t[1][mask >> 13 & 0x1FFF] + t[2][mask >> 26 & 0x1FFF] + t[3][mask >> 39]

    def card_value(self, card: int) -> int:
        return self.values[card]

    def is_meld(self, mask: int) -> bool:
        return mask in self._melds

    def _by_suits(self, mask: int) -> int:
        """The least deadwood of a hand when every meld is of one rank or of one suit."""
        a = mask & 0x1FFF
        b = mask >> 13 & 0x1FFF
        c = mask >> 26 & 0x1FFF
        d = mask >> 39
        k = self._rank_min
        if k == 3:
            t = (a & b & (c | d)) | (c & d & (a | b))
        elif k == 2:
            t = (a & (b | c | d)) | (b & (c | d)) | (c & d)
        elif k == 4:
            t = a & b & c & d
        elif k == 1:
            t = a | b | c | d
        else:
            t = 0
        if not t:
            m0, m1, m2, m3 = self._suit_memo
            v0, v1, v2, v3 = m0.get(a), m1.get(b), m2.get(c), m3.get(d)
            if v0 is None or v1 is None or v2 is None or v3 is None:
                suit = self._suit
                return suit(0, a) + suit(1, b) + suit(2, c) + suit(3, d)
            return v0 + v1 + v2 + v3
        memo = self._dw
        found = memo.get(mask)
        if found is None:
            if len(memo) > self.MEMO:
                memo.clear()
            found = memo[mask] = self._ranks(a, b, c, d, t)
        return found

    def _suit(self, s: int, bits: int) -> int:
        """The least deadwood of one suit's cards (13 bits), by its one-suit melds."""
        memo = self._suit_memo[s]
        found = memo.get(bits)
        if found is None:
            low = bits & -bits
            r = low.bit_length() - 1
            found = self.values[s * 13 + r] + self._suit(s, bits ^ low)
            for m in self._suit_melds[s][r]:
                if not m & ~bits:
                    v = self._suit(s, bits & ~m)
                    if v < found:
                        found = v
            memo[bits] = found
        return found

    def _ranks(self, a: int, b: int, c: int, d: int, t: int) -> int:
        """The least deadwood once each way of taking melds of the ranks of ``t`` is tried."""
        if not t:
            suit = self._suit
            return suit(0, a) + suit(1, b) + suit(2, c) + suit(3, d)
        low = t & -t
        t ^= low
        r = low.bit_length() - 1
        held = (a >> r & 1) | (b >> r & 1) << 1 | (c >> r & 1) << 2 | (d >> r & 1) << 3
        keep = ~low
        best = 1 << 30
        for way in self._rank_ways[r][held]:
            v = self._ranks(a & keep if way & 1 else a, b & keep if way & 2 else b, c & keep if way & 4 else c,
                            d & keep if way & 8 else d, t)
            if v < best:
                best = v
        return best

    def deadwoods(self, masks: Iterable[int]) -> list[int]:
        return [self.deadwood(m) for m in masks]

    def min_arrangements(self, mask: int) -> list[Arrangement]:
        """Every arrangement of minimum deadwood, the fewest melds first (a run
        written whole before the same run cut in two), then in a fixed order."""
        found = self._arr.get(mask)
        if found is None:
            if len(self._arr) > self.MEMO // 8:
                self._arr.clear()
            target = self.deadwood(mask)
            out: list[tuple[int, ...]] = []
            self._collect(mask, target, (), out, self._held(mask))
            melded_sets = sorted(set(tuple(sorted(ms)) for ms in out), key=lambda ms: (len(ms), ms))
            found = []
            for ms in melded_sets:
                used = 0
                for m in ms:
                    used |= m
                found.append(Arrangement(target, ms, mask & ~used))
            self._arr[mask] = found
        return list(found)

    def _collect(self, mask: int, budget: int, chosen: tuple[int, ...], out: list[tuple[int, ...]],
                 held: dict[int, list[int]]) -> None:
        """Every way of melding ``mask`` that leaves ``budget`` deadwood (the
        minimum), into ``out``; ``held``: the melds of the whole hand by their lowest card."""
        if not mask:
            out.append(chosen)
            return
        low = mask & -mask
        card = low.bit_length() - 1
        value = self.values[card]
        if value <= budget and self.deadwood(mask ^ low) + value == budget:
            self._collect(mask ^ low, budget - value, chosen, out, held)
        for m in held.get(card, ()):  # a meld of what is left holding its lowest card has it as its own lowest
            if not m & ~mask and self.deadwood(mask & ~m) == budget:
                self._collect(mask & ~m, budget, chosen + (m,), out, held)

    def best_arrangement(self, mask: int) -> Arrangement:
        """One arrangement of minimum deadwood: the first of :meth:`min_arrangements`."""
        return self.min_arrangements(mask)[0]

    # -- layoffs --------------------------------------------------------------------

    def _laid(self, knocker_melds: Sequence[int], available: int) -> dict[int, list[int]]:
        """Every set of cards of ``available`` that can be laid off onto
        ``knocker_melds`` (one at a time, each onto a meld it makes a meld with),
        with an order to lay them in, the fewest cards first."""
        melds = self._melds
        start = tuple(sorted(knocker_melds))
        found: dict[int, list[int]] = {0: []}
        seen = {(start, 0)}
        queue: list[tuple[tuple[int, ...], int, list[int]]] = [(start, 0, [])]
        reach = 0
        for m in start:  # the cards that could go on some meld of the knocker's, at some time
            grows = self._grows.get(m)
            if grows is None:
                grows = 0
                for g in self.meld_masks:
                    if g & m == m:
                        grows |= g
                grows = self._grows[m] = grows & ~m
            reach |= grows
        reach &= available
        if not reach:
            return found
        for held, laid, order in queue:
            for c in cards_of(reach & ~laid):
                bit = 1 << c
                for i, m in enumerate(held):
                    grown = m | bit
                    if grown in melds:
                        after = tuple(sorted(held[:i] + (grown,) + held[i + 1:]))
                        key = (after, laid | bit)
                        if key not in seen:
                            seen.add(key)
                            path = order + [c]
                            queue.append((after, laid | bit, path))
                            found.setdefault(laid | bit, path)
        return found

    def best_defence(self, held: int, knocker_melds: Sequence[int], melds: Sequence[int] | None = None,
                     layoffs: Sequence[int] | None = None) -> tuple[int, list[int], Arrangement]:
        """The defender's best result against a knocker's melds, as
        :func:`gincli.rulebook.layoffs.best_defence`: declared ``melds`` and
        ``layoffs`` checked and used, else the least deadwood (ties: the fewest
        layoffs). Returns ``(deadwood, layoffs in laying order, arrangement of the rest)``."""
        if layoffs is not None and len(set(layoffs)) != len(layoffs):
            twice = next(c for c in layoffs if list(layoffs).count(c) > 1)
            raise RecordError(f"layoff {card_str(twice)} is listed twice", rule="layoff-repeated")
        available, laid = _layoffs.declared(held, melds, layoffs)
        if layoffs is not None:
            reachable = self._laid(knocker_melds, laid)
            order = reachable.get(laid)
            if order is None:
                most = max(reachable, key=lambda s: (s.bit_count(), -s))
                bad = ", ".join(card_str(c) for c in layoffs if not most >> c & 1)
                raise RecordError(f"layoff {bad} does not fit the knocker's melds", rule="layoff-not-fitting")
            return self._finish(available & ~laid, melds, order)
        solve = self.mask_value if melds is not None else self.deadwood
        best_key = -1
        best_laid = 0
        best_order: list[int] = []
        for laid, order in self._laid(knocker_melds, available).items():
            key = solve(available & ~laid) * 64 + laid.bit_count()
            if best_key < 0 or key < best_key:
                best_key, best_laid, best_order = key, laid, order
        return self._finish(available & ~best_laid, melds, best_order)

    def plain_defence(self, held: int, knocker_melds: Sequence[int]) -> tuple[int, list[int], Arrangement]:
        return self.best_defence(held, knocker_melds)

    def _finish(self, rest: int, melds: Sequence[int] | None, order: list[int]) -> tuple[int, list[int], Arrangement]:
        if melds is not None:
            arrangement = Arrangement(self.mask_value(rest), tuple(melds), rest)
        else:
            arrangement = self.best_arrangement(rest)
        return arrangement.deadwood, list(order), arrangement


def _one_rank(m: int) -> bool:
    r = ((m & -m).bit_length() - 1) % 13
    return all(c % 13 == r for c in cards_of(m))


def _one_suit(m: int) -> bool:
    s = ((m & -m).bit_length() - 1) // 13
    return not _one_rank(m) and all(c // 13 == s for c in cards_of(m))


def _disjoint_unions(patterns: list[int], held: int) -> set[int]:
    """Every union of disjoint ``patterns`` (4-bit sets of suits) within ``held``, 0 included."""
    out = {0}
    for p in patterns:
        if p & ~held:
            continue
        out |= {u | p for u in out if not u & p}
    return out


#: The accelerator's twin of melds.py's deadwood (``_stdscore.deadwood``, the same answers; held to
#: them by tests/test_accel.py), or None: not built, or GINCLI_PURE=1. The least deadwood is what the
#: engine, the views and the bots ask most: in C, a call costs a few per cent of the Python's.
_STDSCORE = compiled_module(f"{__package__}._stdscore")


class StandardSolver(MeldSolver):
    """The rule book's meld rules, on their fast paths (tables and forced runs;
    the least deadwood compiled where the accelerator is built)."""

    standard = True
    MEMO = 0

    def __init__(self) -> None:
        self.name = "standard"
        self.meld_masks = tuple(sorted(STANDARD_MASKS))
        self.values = CARD_VALUES
        self.layoff_on_gin = False
        self.words = STANDARD_WORDS
        self._melds = STANDARD_MASKS

    def __reduce__(self) -> Any:
        return (_standard, ())

    def __repr__(self) -> str:
        return "<MeldSolver 'standard'>"

    deadwood = staticmethod(_melds.deadwood if _STDSCORE is None else _STDSCORE.deadwood)
    deadwoods = staticmethod(_melds.deadwoods)
    min_arrangements = staticmethod(_melds.min_arrangements)
    best_arrangement = staticmethod(_melds.best_arrangement)
    mask_value = staticmethod(_melds.mask_value)
    forms_meld = staticmethod(_melds.forms_meld)
    best_defence = staticmethod(_layoffs.best_defence)
    plain_defence = staticmethod(_layoffs.plain_defence)

    def card_value(self, card: int) -> int:
        return CARD_VALUES[card]

    def is_meld(self, mask: int) -> bool:
        return mask in STANDARD_MASKS


STANDARD_MASKS = frozenset(standard_melds())
#: The solvers built, by their data (:func:`solver_of`).
_SOLVERS: dict[tuple[str, tuple[int, ...], tuple[int, ...], bool, str], MeldSolver] = {}


def solver_of(name: str, melds: tuple[int, ...], values: tuple[int, ...], layoff_on_gin: bool,
              words: str) -> MeldSolver:
    """The solver of this data: one for the same data, however many rules (or
    chunks of work sent to a worker) carry it, its cache of hands shared; a few
    kept at most."""
    key = (name, melds, values, layoff_on_gin, words)
    found = _SOLVERS.get(key)
    if found is None:
        if len(_SOLVERS) >= 16:
            _SOLVERS.clear()
        found = _SOLVERS[key] = MeldSolver(name, melds, values, layoff_on_gin, words)
    return found
#: The rule book's meld rules: what ``rules.melds`` is unless meld rules of a plugin are on.
STANDARD = StandardSolver()


def _standard() -> StandardSolver:
    return STANDARD


__all__ = ["MAX_CARD_VALUE", "MeldRules", "MeldSolver", "STANDARD", "standard_melds"]
