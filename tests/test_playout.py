"""The play-outs of master's search (gincli/hand/playout.py and its compiled
module _playout.c): the compiled module gives the Python's numbers, move for
move and world for world; each play-out is a hand the engine plays the same
way to the same score; the worlds drawn hold what the seat knows; and master,
which searches with them, decides from its view alone and by its seed."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings, strategies as st

from gincli.hand import playout
from gincli.hand.engine import Hand
from gincli.hand.moves import Move
from gincli.rulebook.cards import CARD_VALUES, cards_of
from gincli.rulebook.meldrules import STANDARD
from gincli.rulebook.rng import SplitMix64

needs_compiled = pytest.mark.skipif(playout.PLAYOUT is None, reason="the compiled play-outs are not built here")

#: The rules of a play-out: knock limit, gin bonus, undercut bonus, big gin bonus (-1: none), the two knock_at,
#: danger.
RULES = st.tuples(st.sampled_from((10, 10, 5, 0)), st.just(25), st.sampled_from((25, 10)), st.sampled_from((-1, 31)),
                  st.integers(0, 10), st.integers(0, 10), st.sampled_from((0, 3, 100)))


def position(rng: random.Random, phase: int) -> tuple[int, list[int], int, list[int], int]:
    """A dealt position of seat 0 to act (``phase``: drawing, ten cards; or
    discarding, eleven): its hand, the pile, the opponent's ten, the stock
    (top last) and the card taken (-1)."""
    deck = list(range(52))
    rng.shuffle(deck)
    n = 10 if phase == playout.DRAW else 11
    pile_size = rng.randint(1, 6)
    mine = sum(1 << c for c in deck[:n])
    theirs = sum(1 << c for c in deck[n:n + 10])
    pile = deck[n + 10:n + 10 + pile_size]
    return mine, pile, theirs, deck[n + 10 + pile_size:], -1


def python_playout(*args):
    saved, playout.PLAYOUT = playout.PLAYOUT, None
    try:
        return playout.playout(*args)
    finally:
        playout.PLAYOUT = saved


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from((playout.DRAW, playout.DISCARD)), st.integers(0, 1), RULES)
def test_the_compiled_playout_plays_as_the_python(rng, phase, to_act, rules):
    mine, pile, theirs, stock, taken = position(rng, phase)
    if to_act == 1:  # the opponent to act: it holds the eleven cards
        mine, theirs = theirs, mine
    took = [sum(1 << c for c in rng.sample(cards_of(h), rng.randint(0, 3))) for h in (mine, theirs)]
    args = (mine, pile, to_act, phase, taken, *took, theirs, stock, rules, -1)
    assert playout.playout(*args) == python_playout(*args)


@needs_compiled
@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.sampled_from((playout.DRAW, playout.DISCARD)), RULES,
       st.integers(0, 2**64 - 1), st.integers(1, 6), st.sampled_from((0, 0, 1, 2, 5, 40)))
def test_the_compiled_search_draws_and_scores_the_worlds_the_python_does(rng, phase, rules, seed, worlds, draws):
    mine, pile, theirs, stock, taken = position(rng, phase)
    known = sum(1 << c for c in rng.sample([c for c in range(52) if theirs >> c & 1], rng.randint(0, 3)))
    weights = bytes(rng.randint(1, 255) if (theirs & ~known | sum(1 << c for c in stock)) >> c & 1 else 0
                    for c in range(52))
    held = [c for c in range(52) if mine >> c & 1]
    candidates = ([playout.STOCK, playout.TAKE] if phase == playout.DRAW
                  else [playout.DISCARD_ID + c for c in held[:3]] + [playout.KNOCK_ID + held[3]])
    mine_took = sum(1 << c for c in held[4:4 + rng.randint(0, 2)])
    args = (mine, pile, phase, taken, mine_took, known, weights, len(stock), rules, candidates, worlds, seed, draws)
    compiled = playout.search(*args)
    saved, playout.PLAYOUT = playout.PLAYOUT, None
    try:
        assert compiled == playout.search(*args)
    finally:
        playout.PLAYOUT = saved


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), RULES, st.integers(0, 2**64 - 1))
def test_the_wall_a_discard_after_the_stocks_third_to_last_card_ends_the_hand_dead(rng, rules, seed):
    """RULES.md, the wall: the seat that drew the stock's third-to-last card,
    two being left, and discards without knocking ends the hand, dead, for 0
    points; a play-out (and each world of a search) from that discard is that
    one move, compiled and in Python alike."""
    mine, pile, theirs, stock, taken = position(rng, playout.DISCARD)
    stock = stock[:2]
    held = cards_of(mine)
    args = (mine, pile, 0, playout.DISCARD, taken, 0, 0, theirs, stock, rules)
    for first in [-1] + [playout.DISCARD_ID + c for c in held[:3]]:
        for moves, points in {playout.playout(*args, first), python_playout(*args, first)}:
            assert len(moves) == 1
            if moves[0] < playout.KNOCK_ID:  # a discard: the hand is dead
                assert points == 0
    weights = bytes(1 if (theirs | sum(1 << c for c in stock)) >> c & 1 else 0 for c in range(52))
    candidates = [playout.DISCARD_ID + c for c in held[:3]]
    search = (mine, pile, playout.DISCARD, taken, 0, 0, weights, 2, rules, candidates, 8, seed)
    assert playout.search(*search) == ((0, 0, 0), (0, 0, 0))
    saved, playout.PLAYOUT = playout.PLAYOUT, None
    try:
        assert playout.search(*search) == ((0, 0, 0), (0, 0, 0))
    finally:
        playout.PLAYOUT = saved


def engine_move(action: int, player: str) -> Move:
    if action == playout.STOCK:
        return Move(player, "draw", "stock")
    if action == playout.TAKE:
        return Move(player, "draw", "discard")
    if action == playout.GIN_ID:
        return Move(player, "knock")
    knock = action >= playout.KNOCK_ID
    card = action - (playout.KNOCK_ID if knock else playout.DISCARD_ID)
    return Move(player, "knock" if knock else "discard", card=card)


@pytest.mark.parametrize("seed", range(60))
@pytest.mark.parametrize("big_gin", [False, True])
def test_a_playout_is_a_hand_the_engine_plays_to_the_same_score(registry, seed, big_gin):
    """From the first discard of a dealt hand (both players passed the upcard),
    the play-out's moves are legal moves of the engine, the hand ends where the
    play-out ends, and the engine scores it as the play-out did (in the
    compiled module and in the Python alike)."""
    options = {"big_gin_bonus": 31} if big_gin else {}
    rules = registry.rules(registry.variant("standard"), registry.scoring("hand"), options)
    rng = SplitMix64(seed)
    deck = list(range(52))
    rng.shuffle(deck)
    hand = Hand(("ann", "bob"), "bob", registry.variant("standard"), rules, deck=deck)
    hand.apply(Move("ann", "pass"))
    hand.apply(Move("bob", "pass"))
    hand.apply(Move("ann", "draw", "stock"))  # both refused the upcard: the non-dealer draws from the stock
    knock_at = (seed % 11, (seed * 7) % 11)
    play_rules = (hand.limit, rules["gin_bonus"], rules["undercut_bonus"], 31 if big_gin else -1, *knock_at, seed % 6)
    assert hand.stock is not None
    args = (hand.hands["ann"], list(hand.pile), 0, playout.DISCARD, -1, 0, 0, hand.hands["bob"], list(hand.stock),
            play_rules, -1)
    moves, points = playout.playout(*args)
    assert (moves, points) == python_playout(*args)
    seats = ("ann", "bob")
    seat = 0
    for action in moves:
        assert not hand.over
        move = engine_move(action, seats[seat])
        hand.apply(move)
        if move.action == "discard" and not hand.over:
            seat = 1 - seat
    result = hand.finish()
    assert hand.over
    if result.winner is None:
        assert points == 0
    else:
        assert points == (result.points if result.winner == "ann" else -result.points)


def seat_knowledge(rng: random.Random) -> tuple[int, int, list[int], bytes]:
    """What a seat knows of a shuffled deck: the cards it places (its ten and a
    pile of four), those it knows the opponent holds (up to four), the cards it
    cannot place, and their weights (1 to 255; 0 for every other card)."""
    deck = list(range(52))
    rng.shuffle(deck)
    known = sum(1 << c for c in deck[14:14 + rng.randint(0, 4)])
    unknown = deck[14 + known.bit_count():]
    weights = bytearray(52)
    for c in unknown:
        weights[c] = rng.randint(1, 255)
    return sum(1 << c for c in deck[:14]), known, unknown, bytes(weights)


@settings(max_examples=200, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 2**64 - 1))
def test_the_worlds_drawn_hold_what_the_seat_knows(rng, seed):
    """Every world: the opponent holds the cards known to be theirs and ten in
    all, drawn only from the cards the seat cannot place; the stock is the
    rest, as many as the view counts; a card of weight 0 is never drawn."""
    placed, known, unknown, weights = seat_knowledge(rng)
    need = 10 - known.bit_count()
    stock_count = len(unknown) - need
    draw = SplitMix64(seed)
    for _ in range(5):
        theirs, stock = playout.draw_world(draw, unknown, weights, known, need)
        assert theirs.bit_count() == 10 and theirs & known == known
        assert not theirs & placed
        assert sorted(stock) == sorted(c for c in unknown if not theirs >> c & 1) and len(stock) == stock_count


def improved_by_brute_force(theirs: int, stock: list[int], known: int, j: int) -> tuple[int, list[int]]:
    """One draw of the opponent's improvement, the slow way: every card it
    could throw back, scored by the deadwood left (the rule book's solver
    over the whole hand), the cards of the hand melding with it and its
    value."""
    hand = theirs | 1 << stock[j]
    options = [(STANDARD.deadwood(hand & ~(1 << c)), kin(hand, c), -CARD_VALUES[c], c)
               for c in cards_of(hand) if not known >> c & 1]
    thrown = min(options)[3]
    stock = stock[:]
    stock[j] = thrown
    return hand & ~(1 << thrown), stock


def kin(hand: int, c: int) -> int:
    """The cards of ``hand`` that would meld with ``c``: its rank, or its suit within two."""
    return sum(1 for x in cards_of(hand) if x != c and (x % 13 == c % 13 or (x // 13 == c // 13 and abs(x - c) <= 2)))


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(0, 2**64 - 1), st.integers(1, 6))
def test_the_opponents_hand_is_made_better_by_its_draws(rng, seed, draws):
    """The world drawn with ``draws``: the same draw of the opponent's hand and
    shuffle of the stock as without, then each of the stock's cards drawn at
    random (the seeded generator's next ``below``) taken in for the card the
    brute force throws back (the least deadwood left, of the cards not known to
    be held; among equals the fewest cards melding with it, then the highest,
    then the first), in its place in the stock. Its deadwood never grows, it
    still holds what it is known to hold, and every card is still in one
    place."""
    _, known, unknown, weights = seat_knowledge(rng)
    need = 10 - known.bit_count()
    plain_rng, improved_rng = SplitMix64(seed), SplitMix64(seed)
    theirs, stock = playout.draw_world(plain_rng, unknown, weights, known, need)
    got = playout.draw_world(improved_rng, unknown, weights, known, need, draws)
    for _ in range(draws):
        before = STANDARD.deadwood(theirs)
        theirs, stock = improved_by_brute_force(theirs, stock, known, plain_rng.below(len(stock)))
        assert STANDARD.deadwood(theirs) <= before
    assert got == (theirs, stock)
    assert theirs.bit_count() == 10 and theirs & known == known
    assert sorted(stock + cards_of(theirs & ~known)) == sorted(c for c in unknown if not known >> c & 1)


def test_the_worlds_follow_the_weights():
    """A card of weight 255 among cards of weight 1 lands in the opponent's hand
    far more often than its share; the draw is the seeded generator's."""
    unknown = list(range(10, 52))
    weights = bytearray(52)
    for c in unknown:
        weights[c] = 1
    weights[20] = 255
    rng = SplitMix64(4)
    held = sum(playout.draw_world(rng, unknown, bytes(weights), 0, 10)[0] >> 20 & 1 for _ in range(300))
    assert held > 250  # about 10/42 of the draws with equal weights


def same_view_other_cards(registry, seed: int) -> tuple[Hand, Hand]:
    """Two hands at ann's first discard that ann sees alike (her cards, the
    upcard, the card she drew) and that differ in what she cannot see: bob's
    cards and the order of the stock."""
    rules = registry.rules(registry.variant("standard"), registry.scoring("game"), {})
    deck = list(range(52))
    SplitMix64(seed).shuffle(deck)
    hidden = [deck[i] for i in range(1, 20, 2)] + deck[22:]  # bob's cards (dealt second) and the stock below its top
    other = hidden[:]
    random.Random(seed).shuffle(other)
    deck2 = deck[:]
    for i, c in zip([i for i in range(1, 20, 2)] + list(range(22, 52)), other, strict=True):
        deck2[i] = c
    hands = []
    for d in (deck, deck2):
        hand = Hand(("ann", "bob"), "bob", registry.variant("standard"), rules, deck=d)
        hand.apply(Move("ann", "pass"))
        hand.apply(Move("bob", "pass"))
        hand.apply(Move("ann", "draw", "stock"))
        hands.append(hand)
    assert hands[0].hands["bob"] != hands[1].hands["bob"]
    return hands[0], hands[1]


@pytest.mark.parametrize("seed", range(12))
def test_master_decides_from_its_view_alone(registry, seed):
    """master is handed its seat's view and nothing else: two hands that differ
    only in what the seat cannot see give it the same view, and the same seed
    the same move, a legal one."""
    from gincli_builtin.master import MasterBot

    one, two = same_view_other_cards(registry, seed)
    view = one.view("ann")
    assert view == two.view("ann")
    first = MasterBot(SplitMix64(seed), "ann").choose(view)
    assert first == MasterBot(SplitMix64(seed), "ann").choose(two.view("ann"))
    assert first in view.legal()


def test_master_plays_by_its_seed(registry):
    """A match is the same by its seed (the match's seed reaches each bot's
    generator, which draws the worlds): the same transcripts played twice."""
    from helpers import assert_legal_and_replayable

    assert_legal_and_replayable(registry, ("master", "master-knock"), "standard", "eaai", 3)


@pytest.mark.parametrize("pure", [False, True])
def test_a_search_asked_for_nothing_it_can_do_is_refused(monkeypatch, pure):
    """No candidates, no worlds or a negative number of the opponent's
    draws: a ValueError, compiled or not, never a search of nothing."""
    if pure:
        monkeypatch.setattr(playout, "PLAYOUT", None)
    elif playout.PLAYOUT is None:
        pytest.skip("the compiled play-outs are not built here")
    rng = random.Random(3)
    mine, pile, theirs, stock, taken = position(rng, playout.DISCARD)
    weights = bytes(1 if (theirs | sum(1 << c for c in stock)) >> c & 1 else 0 for c in range(52))
    rules = (10, 25, 25, -1, 8, 0, 5)
    first = [playout.DISCARD_ID + cards_of(mine)[0]]
    ok = (mine, pile, playout.DISCARD, taken, 0, 0, weights, len(stock), rules, first)
    assert len(playout.search(*ok, 2, 7, 2)[0]) == 1
    for worlds, draws, candidates in ((2, -1, ok[-1]), (0, 0, ok[-1]), (2, 0, [])):
        with pytest.raises(ValueError):
            playout.search(*ok[:-1], candidates, worlds, 7, draws)
