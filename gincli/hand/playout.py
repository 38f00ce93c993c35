"""Play-outs for the built-in bots' search: a hand of the rule book's own rules
(the standard melds, no move set in play) played to its end from a position
by a cheap policy, both seats alike, and scored as the rule book scores it.

Seat 0 is the seat searching, seat 1 its opponent. A position's public part is
seat 0's hand, the discard pile (bottom first), whose turn it is, the phase
(:data:`DRAW` or :data:`DISCARD`) and the card taken from the pile this turn
(or -1). Moves are the environments' action ids (``gincli/rl/actions.py``:
0 the stock, 1 the pile's top, 3 + card a discard, 55 + card a knock, 107
big gin). ``rules`` is ``(knock_limit, gin_bonus, undercut_bonus,
big_gin_bonus or -1, knock_at, their_knock_at, danger)``: the policy knocks
with at most ``knock_at`` deadwood (seat 1: ``their_knock_at``), gin always.

The policy sees what a seat sees: its own cards, the pile, and the cards the
other seat took from the pile and holds. It draws from the pile when the top
melds and leaves less deadwood after the best discard (at the wall, where the
stock is closed, always); it discards the card leaving the least deadwood, a
card that melds with one the other seat took counting ``danger`` more; among
those the card with the fewest of the hand's cards melding with it, then the
highest, then the first.

:func:`playout` plays one position whose hidden cards are given (to hold the
compiled module to the hand engine); :func:`search` plays each of seat 0's
candidate moves in ``worlds`` worlds drawn from what it knows, the same worlds
for every candidate: the opponent's missing cards drawn one by one with
chances in proportion to ``weights`` (one byte a card, non-zero exactly for
the cards seat 0 cannot place), the rest shuffled into the stock
(:class:`~gincli.rulebook.rng.SplitMix64`'s ``below`` and Fisher-Yates), the
opponent's hand then made better by a few of the stock's cards. The
compiled module (``_playout.c``, built where a C compiler is) gives the same
numbers as the Python here; :data:`PLAYOUT` is it, or None (not built, or
``GINCLI_PURE=1``), and the functions below take the faster of the two.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..base.compiled import compiled
from ..rulebook.cards import CARD_VALUES
from ..rulebook.meldrules import STANDARD
from ..rulebook.melds import NEIGHBOURS
from ..rulebook.rng import SplitMix64
from ..rulebook.scoring import defend

STOCK, TAKE, DISCARD_ID, KNOCK_ID, GIN_ID = 0, 1, 3, 55, 107
DRAW, DISCARD = 1, 2
#: A play-out longer than this many moves is stopped: a dead hand.
MAX_MOVES = 400

Rules = tuple[int, int, int, int, int, int, int]


#: The compiled module, or None.
PLAYOUT = compiled(f"{__package__}._playout")

_deadwood = STANDARD.deadwood




class _Pos:
    __slots__ = ("hand", "took", "pile", "stock", "to_act", "phase", "taken", "wall_turn", "moves", "end", "ender")

    def __init__(self, hands: list[int], took: list[int], pile: list[int], stock: list[int], to_act: int, phase: int,
                 taken: int):
        self.hand = hands
        self.took = [took[0] & hands[0], took[1] & hands[1]]
        self.pile = pile
        self.stock = stock  # top last
        self.to_act = to_act
        self.phase = phase
        self.taken = taken
        # the seat that drew the stock's third-to-last card and has yet to discard: its discard ends the hand
        self.wall_turn = phase == DISCARD and taken < 0 and len(stock) == 2
        self.moves = 0
        self.end = False
        self.ender = -1


def _draw_choice(p: _Pos) -> int:
    if len(p.stock) <= 2:
        return TAKE
    top = p.pile[-1]
    h = p.hand[p.to_act]
    with_top = h | 1 << top
    dw = _deadwood(h)
    if _deadwood(with_top) >= dw + CARD_VALUES[top]:
        return STOCK
    rest = h
    while rest:
        low = rest & -rest
        rest ^= low
        if _deadwood(with_top ^ low) < dw:
            return TAKE
    return STOCK


def _discard_choice(p: _Pos, rules: Rules) -> int:
    s = p.to_act
    h = p.hand[s]
    fed = p.took[1 - s]
    if rules[3] >= 0 and _deadwood(h) == 0:
        return GIN_ID
    best, best_dw, best_key, best_kin = -1, 0, 0, 0
    rest = h
    while rest:
        low = rest & -rest
        rest ^= low
        c = low.bit_length() - 1
        if c == p.taken:
            continue
        near = NEIGHBOURS[c]
        dw = _deadwood(h ^ low)
        kin = (near & h).bit_count()
        key = dw + (rules[6] if near & fed else 0)
        if best < 0 or key < best_key or (key == best_key and (kin < best_kin or (
                kin == best_kin and CARD_VALUES[c] > CARD_VALUES[best]))):
            best, best_dw, best_key, best_kin = c, dw, key, kin
    if best_dw <= rules[0] and (best_dw == 0 or best_dw <= rules[4 + s]):
        return KNOCK_ID + best
    return DISCARD_ID + best


def _play(p: _Pos, action: int) -> None:
    s = p.to_act
    p.moves += 1
    if action == TAKE:
        card = p.pile.pop()
        p.hand[s] |= 1 << card
        p.took[s] |= 1 << card
        p.taken = card
        p.wall_turn = False
        p.phase = DISCARD
    elif action == STOCK:
        p.hand[s] |= 1 << p.stock.pop()
        p.wall_turn = len(p.stock) == 2
        p.taken = -1
        p.phase = DISCARD
    elif action == GIN_ID:
        p.end, p.ender = True, s
    else:
        knock = action >= KNOCK_ID
        card = action - (KNOCK_ID if knock else DISCARD_ID)
        p.hand[s] &= ~(1 << card)
        p.took[s] &= ~(1 << card)
        p.pile.append(card)
        p.taken = -1
        if knock:
            p.end, p.ender = True, s
        elif p.wall_turn:
            p.end = True
        else:
            p.to_act = 1 - s
            p.phase = DRAW
    if not p.end and p.moves >= MAX_MOVES:
        p.end = True


def _settle(p: _Pos, rules: Rules) -> int:
    """Seat 0's points as scoring.py's knock_points gives them; 0 for a dead hand."""
    if p.ender < 0:
        return 0
    k, d = p.hand[p.ender], p.hand[1 - p.ender]
    k_dw = _deadwood(k)
    if k.bit_count() == 11:
        points = _deadwood(d) + rules[3]
    elif k_dw == 0:
        points = _deadwood(d) + rules[1]
    else:
        d_dw = defend(d, STANDARD.min_arrangements(k), STANDARD, True)[1]
        points = d_dw - k_dw if d_dw > k_dw else -(k_dw - d_dw + rules[2])
    return points if p.ender == 0 else -points


def _play_out(p: _Pos, rules: Rules, first: int, moves: list[int] | None = None) -> int:
    action = first
    while not p.end:
        if action < 0:
            action = _draw_choice(p) if p.phase == DRAW else _discard_choice(p, rules)
        if moves is not None:
            moves.append(action)
        _play(p, action)
        action = -1
    return _settle(p, rules)


def playout(mine: int, pile: Sequence[int], to_act: int, phase: int, taken: int, mine_took: int, their_took: int,
            theirs: int, stock: Sequence[int], rules: Rules, first: int = -1) -> tuple[bytes, int]:
    """One play-out of a position whose hidden cards are given (``theirs``, seat
    1's hand; ``stock``, its top last; ``mine_took`` and ``their_took``, the
    cards each seat took from the pile, those it holds counting): ``first`` (an
    action id, or -1 for the policy's move) and then the policy to the end. The
    moves played and seat 0's points (negative: seat 1's; 0 for a dead hand)."""
    if PLAYOUT is not None:
        return PLAYOUT.playout(mine, bytes(pile), to_act, phase, taken, mine_took, their_took, theirs, bytes(stock),
                               rules, first)
    moves: list[int] = []
    points = _play_out(_Pos([mine, theirs], [mine_took, their_took], list(pile), list(stock), to_act, phase, taken),
                       rules, first, moves)
    return bytes(moves), points


def search(mine: int, pile: Sequence[int], phase: int, taken: int, mine_took: int, known: int, weights: bytes,
           stock_count: int, rules: Rules, candidates: Sequence[int], worlds: int, seed: int,
           draws: int = 0) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Seat 0, to act, plays each of ``candidates`` (action ids) and then the
    policy to the end, in ``worlds`` worlds drawn by ``seed``: seat 1 holds
    ``known`` (cards it took from the pile) and the rest of its ten cards drawn
    by ``weights``, then made better by ``draws`` of the stock's cards
    (:func:`draw_world`); ``mine_took``, the cards seat 0 took and holds. For
    each candidate, the sum of its points over the worlds, and the sum of the
    squares of their differences from the first candidate's."""
    if PLAYOUT is not None:
        return PLAYOUT.search(mine, bytes(pile), 0, phase, taken, mine_took, known, weights, stock_count, rules,
                              bytes(candidates), worlds, seed & (1 << 64) - 1, draws)
    unknown = [c for c in range(52) if weights[c]]
    need = 10 - known.bit_count()
    if not 1 <= len(candidates) <= 16 or worlds < 1 or draws < 0:
        raise ValueError("candidates 1 to 16, worlds 1 or more, draws 0 or more")
    if need < 0 or len(unknown) != need + stock_count:
        raise ValueError("the unknown cards are not the opponent's missing cards and the stock")
    rng = SplitMix64(seed)
    totals = [0] * len(candidates)
    squares = [0] * len(candidates)
    for _ in range(worlds):
        theirs, stock = draw_world(rng, unknown, weights, known, need, draws)
        first = 0
        for i, action in enumerate(candidates):
            v = _play_out(_Pos([mine, theirs], [mine_took, known], list(pile), stock[:], 0, phase, taken), rules,
                          action)
            if i == 0:
                first = v
            totals[i] += v
            squares[i] += (v - first) ** 2
    return tuple(totals), tuple(squares)


def draw_world(rng: SplitMix64, unknown: Sequence[int], weights: bytes, known: int, need: int,
               draws: int = 0) -> tuple[int, list[int]]:
    """One world: the opponent's hand (``known`` and ``need`` of ``unknown``,
    drawn one by one with chances in proportion to ``weights``) and the stock
    (the rest of ``unknown``, shuffled; its top last); then the hand made
    better by ``draws`` of the stock's cards, as a player's is by its turns:
    each time a card of the stock drawn at random joins the hand, and the card
    leaving the least deadwood, of those not in ``known``, goes back in its
    place (among equals the one melding with the fewest of the hand's cards,
    then the highest, then the first)."""
    pool = list(unknown)
    weight = [weights[c] for c in pool]
    total = sum(weight)
    theirs = known
    for _ in range(need):
        x = rng.below(total)
        i = 0
        while x >= weight[i]:
            x -= weight[i]
            i += 1
        theirs |= 1 << pool[i]
        total -= weight[i]
        pool[i], weight[i] = pool[-1], weight[-1]
        pool.pop()
        weight.pop()
    rng.shuffle(pool)
    for _ in range(draws if pool else 0):
        j = rng.below(len(pool))
        h = theirs | 1 << pool[j]
        best, best_dw, best_kin = -1, 0, 0
        rest = h & ~known
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            dw = _deadwood(h ^ low)
            kin = (NEIGHBOURS[c] & h).bit_count()
            if best < 0 or dw < best_dw or (dw == best_dw and (kin < best_kin or (
                    kin == best_kin and CARD_VALUES[c] > CARD_VALUES[best]))):
                best, best_dw, best_kin = c, dw, kin
        theirs = h & ~(1 << best)
        pool[j] = best
    return theirs, pool
