"""The ``master`` bot, which searches, and ``master-knock``, its play without
the search: ``expert``'s play with its knock timed against strong opponents
and the game in view.

``master-knock`` reads the cards as ``expert`` does (:class:`~gincli_builtin.expert._Knowledge`:
the discards, the cards the opponent took and refused) and draws and discards
as it does, with less weight on not feeding the opponent (``DANGER``) and a
little more readiness to take a discard that melds (``TAKE_MARGIN``). What
changes most is when it knocks:

* **The knock model** (waiting a turn against knocking now, linear in
  :meth:`knock_features`: expert's features, what the opponent took, and
  products of two features so that a weight can change with the stock and the
  count) is fitted on play against ``expert``, an opponent that waits for gin
  and undercuts, instead of against ``simple``, which knocks at once; the
  fitted seat draws and discards as master does, and reads the opponent hands
  it simulates as drawn (``NO_KNOCK = 1``: such an opponent often holds a hand
  it could knock with): ``python -m gincli_builtin.expert_fit knock --hands
  24000 --seed 8 --chunk 1000 --workers 2 --opponent expert --no-knock 1
  --danger 0.5 --take-margin 1 --features master`` gives ``KNOCK_MODEL``
  below, digit for digit (94,602 decisions, the same rows on any number of
  workers). The fit standardises the features and sums exactly
  (``expert_fit.fit_linear``), so that it prints the same digits however its
  rows are ordered; ``md`` and ``md*stock`` weigh 0 because the others make
  them (``ev`` is ``md - k - 25 pu`` row for row). Against such
  opponents, knocking early with a low count wins far more hands than it loses
  to undercuts.
* **The game in view:** when a knock now would take it to the session's
  target (winning the game) against every one of its ``samples`` simulated
  opponent hands (``GAME_KNOCK_P`` = 1), it knocks, even where the model would
  wait. Each simulated knock is settled as the rule book settles it: the
  knocker's choice of melds, the defender's layoffs, the undercut and gin
  bonuses. (Knocking for the game on a 60% chance measured weaker, with this
  model, than never doing so.)

``samples`` (``gin match --bots master:samples=40``) is how many opponent
hands it simulates for each knock decision: it pays up to the default (1, 4
and 16 won 55%, 59% and 60% against expert) and not beyond (48: no stronger;
docs/benchmarks.md).

**The search** (``master``): where master-knock would discard, ``master`` also
weighs the other discards master-knock weighs (those leaving at most 5 more
deadwood than the least; ``width``, at most 10 of them, the best by
master-knock's own score: expected deadwood after the next draw, and the
danger of feeding the opponent; ``margin``, only those within it of the
best, off by default), and plays each of them out
(:func:`gincli.hand.playout.search`, compiled where it can be) in worlds
drawn for the decision: the opponent's missing cards drawn from those it cannot place, each
weighted by what the opponent took (a card that melds with one they hold
weighs double) and refused or threw away (half), the rest shuffled into the
stock, and the opponent's hand made better by ``THEIR_DRAWS`` of the stock's
cards, each taken in for the card it would throw (a hand drawn at random is
weaker than one its player has kept the best of); both seats then play a cheap policy that sees what a seat sees (it
knocks with ``KNOCK_AT``, the opponent plays for gin, a discard that feeds
the other's takes counts ``PLAY_DANGER`` more). With ``halving`` (the
default), in rounds: each round plays master-knock's discard and the others
still in, in the same new worlds, and drops the worse half of the others, so
that the closest get the most worlds, the rounds spending together as many
play-outs as every discard in ``worlds`` worlds; without it, every discard
in the same ``worlds`` worlds. A discard replaces master-knock's when its play-outs gain at least
``Z`` standard errors of their difference. Draws, knocks and gin are
master-knock's: searched the same way, knocks lost and draws gained nothing (docs/benchmarks.md). More
worlds cost more and decide more surely (``gin match --bots
master:worlds=768``): 48 won no more games than no search, the default
(``WORLDS``, 192) won two to three points more than either against
``expert``, at each seed measured; past it, no doubling of the worlds
measured stronger than the one before (docs/benchmarks.md). Everything it uses is in its
:class:`~gincli.hand.view.PlayerView`; the worlds come from the bot's seeded
generator, so a match replays by its seed; under other meld rules or a move
set in play it plays as master-knock (any variant, doubling's stakes as
``expert`` does).

With ``ms`` (``gin match --bots master:ms=4``), a budget of CPU time a
searched discard takes the place of the worlds: each round plays ``BATCH``
new worlds at a time (one in Python, without the compiled play-outs) until
its share is spent, so that the play-outs depend on the machine's speed and
a match no longer replays by its seed (in time, against ``expert``, the
games won rise steeply to 2 to 4 ms a searched discard and slowly past it:
eight times the time, 32 against 4 ms and 64 against 8, won 51.8% of 8,000
games, some +12 Elo, and 64 against 8 alone 51.5% of 5,000, some +11; the
kept positions' points are too coarse to show a gain that small;
docs/benchmarks.md).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence

from gincli.hand import playout
from gincli.hand.moves import Move
from gincli.hand.view import PlayerView
from gincli.rulebook.cards import cards_of
from gincli.rulebook.meldrules import STANDARD
from gincli.rulebook.rules import OFF, Option
from gincli.rulebook.scoring import knock_points

from .expert import ExpertBot, _Knowledge, feature

#: master's worlds a close choice, by default (48 won no more than no search; 192 won 2 to 3 points
#: more against expert at each of three seeds: docs/benchmarks.md).
WORLDS = 192
#: The discards weighed beside master-knock's: up to this many more (10: every one master-knock weighs,
#: those leaving at most its PRUNE, 5, more deadwood than the least), ...
WIDTH = 10
#: ... each scored (expected deadwood after the next draw, danger) within this much of its best ("off":
#: however far). At 192 worlds, 2 within 3 won 1.3 to 2.1 points fewer games than 4 within 5, and 4
#: within 5 no more than all of them; at 768 worlds, all of them won 3 points more than 4 within 5
#: (docs/benchmarks.md).
MARGIN = OFF
#: Whether the worlds are spent by halving: the discards are played out in rounds, the worse half of
#: the others dropped after each, so that the closest get the most worlds for the same play-outs. At
#: 192 worlds against expert it won 1.9 points more games than every discard in every world at seed
#: 7611 and 0.5 more at 7703, 2,000 duplicate games each (docs/benchmarks.md).
HALVING = True
#: With a time budget (``ms``), the worlds each call of the play-outs draws, for each discard still in
#: (:func:`batch`): compiled, a call costs about a millisecond for three discards; ...
BATCH = 16
#: ... in Python (no compiler, or ``GINCLI_PURE=1``) a play-out costs some 40 times more, so a call draws this
#: many, and a budget is overshot by as little there.
PURE_BATCH = 1

#: :func:`gincli.hand.playout.search`'s arguments before the candidates (MasterBot.search_position).
Position = tuple[int, tuple[int, ...], int, int, int, int, bytes, int, playout.Rules]


class Settlement:
    """How a knock ends against a known defender's hand, under one view's rules
    (:func:`gincli.rulebook.scoring.knock_points`), and what the view tells of
    the hand's multiplier."""

    __slots__ = ("rules", "multiplier")

    def __init__(self, view: PlayerView):
        self.rules = view.rules
        # a spade upcard under spade_doubles, and doubling's stake
        stake = view.extensions.get("doubling")
        self.multiplier = ((2 if view.rules.get("spade_doubles") and 0 <= view.upcard < 13 else 1)
                           * (stake.get("multiplier", 1) if isinstance(stake, dict) else 1))

    def score(self, knocker_hand: int, dw: int, defender: int) -> int:
        """The knocker's points (negative: the defender's; 0 for a gin tied by
        layoffs) with ``knocker_hand`` (10 cards, ``dw`` its deadwood; 11 for big
        gin) against ``defender``, as the rule book settles it; before any
        multiplier."""
        return knock_points(knocker_hand, defender, dw, self.rules)


class MasterKnockBot(ExpertBot):
    name = "master-knock"
    description = ("master without its search: plays as expert, but times its knock by a model fitted against strong "
                   "opponents, and knocks when a knock wins the game.")
    parameters: tuple[Option, ...] = (
        Option("samples", 16, "opponent hands simulated for each knock decision (more: slower, reads the undercut "
                              "risk better)"),
    )
    params = {o.name: o.default for o in parameters}

    #: Less weight than expert's on not feeding the opponent (measured: expert's 2.5 was tuned against simple).
    DANGER = 0.5
    #: Knock when the knock takes us to the target in at least this share of the simulated hands.
    GAME_KNOCK_P = 1.0
    #: The knock model, fitted on master's draws and discards against expert (see the module's docstring).
    KNOCK_MODEL = {"1": -14.54, "k": 7.554, "stock": 0.00227, "ev": 0.7643, "outs": 11.41, "e_kept": -5.587,
                   "nd": 0.2886, "last": -0.9838, "pu": 32.95, "md": 0, "opp_took": 2.249, "opp_held": 1.628,
                   "k*stock": -0.122, "pu*stock": -0.8796, "k*pu": -1.119, "outs*stock": 6.133, "k*k": 0.1365,
                   "ev*stock": -0.02445, "md*stock": 0}
    #: The model's products of two features.
    PRODUCTS = tuple(name for name in KNOCK_MODEL if "*" in name)
    #: The simulated opponent hands are taken as drawn: an opponent that waits for gin
    #: often holds a hand it could knock with (expert redraws those, NO_KNOCK = 5).
    NO_KNOCK = 1
    #: Take a discard that melds when it leaves up to a point more than the expected stock draw (expert: 0).
    TAKE_MARGIN = 1.0

    def opponent_hands(self, view: PlayerView, k: _Knowledge, samples: int | None = None) -> list[int]:
        return super().opponent_hands(view, k, self.params["samples"] if samples is None else samples)

    def knock_features(self, view: PlayerView, kept: int, dw: int, k: _Knowledge) -> dict[str, float] | None:
        """Expert's knock features, and the products (``"k*stock"``) the model weighs."""
        f = super().knock_features(view, kept, dw, k)
        if f is not None:
            for name in self.PRODUCTS:
                f[name] = feature(f, name)
        return f

    def should_knock(self, view: PlayerView, kept: int, dw: int, k: _Knowledge) -> bool:
        return super().should_knock(view, kept, dw, k) or self.knock_wins_game(view, k, kept, dw)

    def knock_wins_game(self, view: PlayerView, k: _Knowledge, kept: int, dw: int) -> bool:
        """Whether knocking now, keeping ``kept`` (deadwood ``dw``), takes us to
        the session's target in at least ``GAME_KNOCK_P`` of the simulated
        opponent hands (never when the session has no target in points)."""
        target = view.rules.get("target")
        score = view.scores.get(view.me)
        if not self.GAME_KNOCK_P or type(target) is not int or not isinstance(score, (int, float)):
            return False
        need = target - score
        hands = self.opponent_hands(view, k)
        if not hands:
            return False
        settle_ = Settlement(view)
        m = settle_.multiplier
        wins = sum(1 for opp in hands if settle_.score(kept, dw, opp) * m >= need)
        return wins >= self.GAME_KNOCK_P * len(hands)


class MasterBot(MasterKnockBot):
    name = "master"
    description = ("The strongest built-in: master-knock's play, with its likely discards searched by playing "
                   "the hand out in worlds drawn from what it knows.")
    parameters = MasterKnockBot.parameters + (
        Option("worlds", WORLDS, "play-outs a decision spends: as many as each close discard played out in this "
                                 "many worlds (more: slower, and surer)"),
        Option("width", WIDTH, "other discards weighed beside master-knock's, at most (0: no search)", most=10),
        Option("margin", MARGIN, "how much worse than master-knock's best, in its score (points of deadwood), a "
                                 "discard weighed may be (off: however much)", kind="int-or-off"),
        Option("halving", HALVING, "spend the same play-outs in rounds, dropping the worse half of the discards "
                                   "after each (true), or every discard in every world (false)", kind="bool"),
        Option("ms", OFF, "a budget of CPU milliseconds a searched discard, spent on worlds until it is used, in "
                          "place of worlds (off: worlds decide; with a budget a match does not replay by its seed)",
               kind="int-or-off"),
    )
    params = {o.name: o.default for o in parameters}
    #: A discard replaces master-knock's only when it gains this many standard errors over it, ...
    Z = 1.0
    #: ... and at least this many points a hand (0: any gain; a point measured no stronger, at 192 and at 768
    #: worlds: docs/benchmarks.md).
    MIN_GAIN = 0.0
    #: The play-outs' knock: we knock with at most this much deadwood, the opponent with at most
    #: that (0: it plays for gin, as expert does).
    KNOCK_AT = 8
    THEIR_KNOCK_AT = 0
    #: What a discard that melds with a card the other seat took counts in the play-outs, in deadwood.
    PLAY_DANGER = 5
    #: The opponent's hand in each world is made better by this many of the stock's cards, each taken in for
    #: the card whose throwing leaves the least deadwood (:func:`gincli.hand.playout.draw_world`): a hand
    #: drawn at random holds more deadwood than a hand its player has kept the best of for some turns, and
    #: play-outs against it were 6 points a hand too hopeful in the middle of a hand (docs/benchmarks.md).
    THEIR_DRAWS = 2

    def choose(self, view: PlayerView) -> Move:
        move = super().choose(view)
        if move.action != "discard" or not searchable(view):
            return move  # draws, knocks and gin are master-knock's; only its discards are searched
        k = _Knowledge(view, self)
        hand = view.hand
        options = [(k.t.deadwood(hand & ~(1 << c)), c, hand & ~(1 << c)) for c in cards_of(hand) if c != view.taken]
        weighed = self.discards_weighed(options, min(o[0] for o in options), k)
        width, margin = self.params["width"], self.params["margin"]
        most = weighed[0][0] + margin if margin != OFF else float("inf")
        moves = [move] + [view.discard(c) for score, c in weighed[:1 + width]
                          if c != move.card and score <= most and view.allows(view.discard(c))]
        if len(moves) == 1:
            return move
        return self._searched(view, k, moves)

    def _searched(self, view: PlayerView, k: _Knowledge, moves: list[Move]) -> Move:
        """Of ``moves`` (discards, master-knock's first), the one whose
        play-outs score best, when it beats the first by ``Z`` standard errors."""
        position = self.search_position(view, k, playout.DISCARD, view.taken)
        if position is None:
            return moves[0]
        ids = [playout.DISCARD_ID + (m.card or 0) for m in moves]
        ms = self.params["ms"]
        return moves[search_choice(position, ids, self.params["worlds"], self.params["halving"], self.rng.next64,
                                   self.THEIR_DRAWS, self.Z, self.MIN_GAIN, None if ms == OFF else ms / 1000)]

    def search_position(self, view: PlayerView, k: _Knowledge, phase: int, taken: int) -> Position | None:
        """:func:`gincli.hand.playout.search`'s arguments before the candidates
        for this view in ``phase`` (``taken``, the card taken from the pile this
        turn, or -1): our hand, the pile, the cards we took and hold, the
        opponent's known cards, the worlds' weights, the stock's count and the
        play-outs' rules; None for a view whose cards do not add up (made by
        hand): no world holds it."""
        if len(k.unknown_cards) != 10 - k.opp_known.bit_count() + view.stock_count:
            return None
        mine_took = sum(1 << c for c in view.my_took) & view.hand
        return (view.hand, view.discard_pile, phase, taken, mine_took, k.opp_known, self.world_weights(view, k),
                view.stock_count, self.playout_rules(view))

    def playout_rules(self, view: PlayerView) -> playout.Rules:
        """The play-outs' rules for this view (:func:`gincli.hand.playout.search`):
        the knock limit and bonuses of its rules, and the policy's knocks and danger."""
        big = view.rules["big_gin_bonus"] if view.big_gin else -1
        return (view.knock_limit, view.rules["gin_bonus"], view.rules["undercut_bonus"],
                big if isinstance(big, int) else -1, self.KNOCK_AT, self.THEIR_KNOCK_AT, self.PLAY_DANGER)

    def world_weights(self, view: PlayerView, k: _Knowledge) -> bytes:
        """For each card we cannot place, its weight in the draw of the
        opponent's hand (a byte, 1 to 255): 16, doubled for each card the
        opponent took and holds that it melds with, halved for each card they
        refused or threw away that it melds with; 0 for every other card."""
        took = set(view.opponent_took)
        refused = [c for c in view.my_discards if c not in took] + list(view.opponent_discards)
        if view.opponent in view.passes:
            refused.append(view.upcard)
        unknown = 0
        for c in k.unknown_cards:
            unknown |= 1 << c
        power = [4] * 52
        for x in cards_of(k.opp_known):
            for c in cards_of(k.t.neighbours[x] & unknown):
                power[c] += 1
        for x in refused:
            for c in cards_of(k.t.neighbours[x] & unknown):
                power[c] -= 1
        return bytes(min(255, 1 << max(0, power[c])) if unknown >> c & 1 else 0 for c in range(52))


def batch() -> int:
    """The worlds a call of the play-outs draws under a time budget: :data:`BATCH`
    compiled, :data:`PURE_BATCH` in Python."""
    return BATCH if playout.PLAYOUT is not None else PURE_BATCH


def search_choice(position: Position, ids: Sequence[int], worlds: int, halving: bool, seeds: Callable[[], int],
                  draws: int, z: float, min_gain: float = 0.0, budget: float | None = None,
                  clock: Callable[[], float] = time.thread_time) -> int:
    """master's choice among candidate moves (action ids, master-knock's
    first) at ``position`` (:meth:`MasterBot.search_position`): the index of the
    one whose play-outs score best, when it beats the first by ``z`` standard
    errors of their difference and ``min_gain`` points; else 0. The play-outs:
    with ``halving``, in rounds that each play the first and the others still
    in, in the same new worlds (a seed from ``seeds`` a round), and drop the
    worse half of the others, the rounds spending together as many play-outs as
    every candidate in ``worlds`` worlds; without, every candidate in the same
    ``worlds`` worlds. ``draws``: the opponent's improving draws
    (:func:`gincli.hand.playout.draw_world`)."""
    # For each candidate: the worlds it was played in, the sum of its points' differences from
    # the first's in them, and of their squares.
    seen, gained, squared = [0] * len(ids), [0] * len(ids), [0] * len(ids)
    others = list(range(1, len(ids)))
    rounds = max(1, (len(others) - 1).bit_length()) if halving else 1
    start = clock() if budget is not None else 0.0
    per_call = batch()
    for r in range(rounds):
        n = per_call if budget is not None else max(1, worlds * len(ids) // (rounds * (len(others) + 1)))
        while True:
            totals, squares = playout.search(*position, [ids[0]] + [ids[i] for i in others], n, seeds(), draws)
            for j, i in enumerate(others, 1):
                seen[i] += n
                gained[i] += totals[j] - totals[0]
                squared[i] += squares[j]
            if budget is None or clock() - start >= budget * (r + 1) / rounds:
                break
        if r + 1 < rounds:
            others.sort(key=lambda i: -gained[i] / seen[i])
            others = others[:(len(others) + 1) // 2]
    return chosen(gained, squared, seen, others, z, min_gain)


def chosen(gained: Sequence[float], squared: Sequence[float], seen: Sequence[int], others: Sequence[int], z: float,
           min_gain: float) -> int:
    """master's rule (:func:`search_choice`): of the candidates ``others``
    (indices; 0 is master-knock's), the one whose play-outs gained most over
    the first's in their ``seen`` worlds (``gained``: the sum of the
    differences, ``squared``: of their squares), when that beats ``z``
    standard errors and ``min_gain``; else 0."""
    best, gain = 0, 0.0
    for i in others:
        diff = gained[i] / seen[i]
        spread = max(squared[i] / seen[i] - diff * diff, 0.0) ** 0.5
        if diff > max(z * spread / seen[i] ** 0.5, min_gain) and diff > gain:
            best, gain = i, diff
    return best


def searchable(view: PlayerView, phase: str = "discard") -> bool:
    """Whether the play-outs play this view's rules in ``phase`` (the view's
    own): the standard melds, two players, no move set in play (the rule
    book's own moves)."""
    return (view.melds is STANDARD and not getattr(view.rules, "movesets", ()) and view.refusal is None
            and view.phase == phase)
