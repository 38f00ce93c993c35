"""The ``expert`` bot: tracks the discards, infers what the opponent holds,
discards for the best expected hand after the next draw while not feeding the
opponent, takes the upcard when it beats the expected stock draw, and times
the knock by simulating the opponent's likely hands (undercut risk) against
the melds it would spread.

Everything it uses is in its :class:`~gincli.hand.view.PlayerView`: its own cards,
the discard pile, the cards the opponent took from the pile and discarded, and
the meld rules in force (``view.melds``: what melds and what each card counts,
so that it plays any variant's melds, round-the-corner's too).
"""

from __future__ import annotations

import math

from gincli.hand.bots import Bot
from gincli.hand.moves import Move
from gincli.hand.view import PlayerView
from gincli.rulebook.cards import CARD_VALUES, FULL_DECK_MASK, cards_of, mask_of
from gincli.rulebook.meldrules import STANDARD, MeldSolver
from gincli.rulebook.melds import NEIGHBOURS

VAL = CARD_VALUES


def _pairs() -> list[tuple[tuple[int, int], ...]]:
    """For each card, the pairs of other cards that make a meld with it."""
    out = []
    for c in range(52):
        r, s = c % 13, c // 13
        others = [t * 13 + r for t in range(4) if t != s]
        pairs = [(others[i], others[j]) for i in range(3) for j in range(i + 1, 3)]
        for a, b in ((-2, -1), (-1, 1), (1, 2)):
            if 0 <= r + a < 13 and 0 <= r + b < 13:
                pairs.append((s * 13 + r + a, s * 13 + r + b))
        out.append(tuple(pairs))
    return out


PAIRS = _pairs()


def feature(row: dict[str, float], name: str) -> float:
    """A feature of a knock model's row: a name, or the product of two (``"k*stock"``)."""
    a, star, b = name.partition("*")
    return row[a] * row[b] if star else row[name]


class Tables:
    """The meld rules the bot reckons with (``view.melds``) and what it derives
    from them: each card's value, the cards that meld with it (``neighbours``)
    and the pairs that make a meld with it (``pairs``: of the melds of three)."""

    def __init__(self, melds: MeldSolver):
        self.melds = melds
        self.deadwood = melds.deadwood
        self.best_arrangement = melds.best_arrangement
        self.best_defence = melds.best_defence
        if melds is STANDARD:
            self.val, self.neighbours, self.pairs = VAL, NEIGHBOURS, PAIRS
            return
        self.val = tuple(melds.values)
        neighbours = [0] * 52
        pairs: list[list[tuple[int, int]]] = [[] for _ in range(52)]
        for m in melds.meld_masks:
            if m.bit_count() != 3:
                continue
            cards = cards_of(m)
            for c in cards:
                a, b = (x for x in cards if x != c)
                neighbours[c] |= m & ~(1 << c)
                pairs[c].append((a, b))
        self.neighbours = tuple(neighbours)
        self.pairs = [tuple(p) for p in pairs]

    def least_after_discard(self, cards: int, dw: int, order: list[int], best: int = 1 << 30,
                            drop: int = -1) -> tuple[int, int]:
        """The least deadwood of ``cards`` after discarding one of ``order`` (cards
        among them, the highest first), and that card: ``(best, drop)`` as given
        when none does better. ``dw`` is the deadwood of ``cards``; a discard can
        take away no more than its own value, so the search stops at the first
        card too low to beat ``best``. The one best-discard search of the bot."""
        val = self.val
        deadwood = self.deadwood
        for c in order:
            if dw - val[c] >= best:
                break
            v = deadwood(cards ^ (1 << c))
            if v < best:
                best, drop = v, c
        return best, drop

    def best_after_discard(self, cards: int, dw: int | None = None, among: int | None = None) -> int:
        """The least deadwood of ``cards`` (11 cards) after discarding one of them
        (one of ``among``, a subset, when given); ``dw`` is their deadwood."""
        if dw is None:
            dw = self.deadwood(cards)
        order = sorted(cards_of(cards if among is None else among), key=self.val.__getitem__, reverse=True)
        return self.least_after_discard(cards, dw, order)[0]


_TABLES: dict[MeldSolver, Tables] = {}


def tables(melds: MeldSolver) -> Tables:
    """The :class:`Tables` of some meld rules (made once per rules)."""
    found = _TABLES.get(melds)
    if found is None:
        if len(_TABLES) > 64:
            _TABLES.clear()
        found = _TABLES[melds] = Tables(melds)
    return found


STANDARD_TABLES = tables(STANDARD)
least_after_discard = STANDARD_TABLES.least_after_discard
best_after_discard = STANDARD_TABLES.best_after_discard


class ExpertBot(Bot):
    name = "expert"
    description = ("Tracks discards and the opponent's pickups, discards for the best expected hand without "
                   "feeding the opponent, and times its knock against simulated opponent hands.")

    #: How many deadwood points feeding the opponent a card they can meld is worth avoiding.
    DANGER = 2.5
    #: Opponent hands simulated for a knock decision.
    SAMPLES = 12
    #: Discards leaving more than this much more deadwood than the least are not weighed.
    PRUNE = 5
    #: Likelihood factors of a card being in the opponent's hand: a neighbour
    #: (same rank, or same suit within two) of a card they refused or discarded,
    #: of a card they took.
    F_REFUSED = 1.0
    F_DISCARDED = 1.0
    #: Whether pairs that would have melded with a card the opponent refused or discarded are ruled out.
    EXCLUDE = True
    F_TOOK = 2.0
    #: Take a discard that melds when it leaves at most this much more deadwood
    #: than the expected stock draw (other discards are never taken).
    TAKE_MARGIN = 0.0
    #: The knock model: expected points of waiting a turn minus those of knocking
    #: now, linear in the features of :meth:`knock_features`. Fitted by least
    #: squares on 6,333 knock-able decisions of expert against simple (12,000
    #: hands): for each, the exact points of knocking now and one playout of the
    #: hand after the best discard instead.
    KNOCK_MODEL = {"1": 21.493, "k": 4.341, "stock": 0.144, "ev": -0.448, "outs": 11.354, "e_kept": -6.421,
                   "nd": 0.598, "last": -1.076, "pu": -0.147, "md": 0.222}
    #: Doubling: offer when the chance of winning the hand is at least this.
    OFFER_P = 0.6
    #: ... but not when this many points at the present stake would reach the target.
    ENOUGH = 20
    #: The stake model (doubling): the chance of winning the hand (logistic) and
    #: the points expected from it (linear) in the features of :meth:`stake_features`.
    STAKE_WIN = {"1": -1.56, "dw": 0.1355, "e1": -0.2001, "stock": 0.05828, "to_act": 0.153, "opp_took": 0.1243,
                 "opp_held": -0.2533, "last": 0.03165, "le10": 0.489, "le5": 0.4171, "e1*stock": 0.0286}
    STAKE_POINTS = {"1": -9.248, "dw": 1.834, "e1": -2.813, "stock": 0.4191, "to_act": 2.232, "opp_took": 4.377,
                    "opp_held": -7.239, "last": 1.024, "le10": 4.311, "le5": 5.284, "e1*stock": 0.4879}
    #: How many of its discards the opponent is assumed to have chosen from (simulation).
    EXTRA = 6
    #: Tries to draw an opponent hand with which they could not have knocked.
    NO_KNOCK = 5

    def choose(self, view: PlayerView) -> Move:
        k = _Knowledge(view, self)
        stake = self._stake(view, k)
        if stake is not None:
            return stake
        if view.phase == "discard":
            return self.allowed(view, self._discard(view, k))
        return self.allowed(view, self._draw(view, k))  # never a move a move set forbids

    # -- the stake (doubling) -----------------------------------------------------------------

    def _stake(self, view: PlayerView, k: _Knowledge) -> Move | None:
        """Under doubling (RULES.md "Doubling"): answer an offer, or offer one.

        From the view, the stake model estimates our chance of winning the hand
        and the points we expect from it at the present stake (:meth:`stake`).
        We decline when accepting (twice the expected points) costs more than
        declining: the decline bonus plus the deadwood difference in the
        offerer's favour (their deadwood estimated from simulated hands). We
        offer in the doubling window: when our chance of winning is at least
        ``OFFER_P``, unless we are too good to double (an opponent who
        declines would pay less than we expect to win by playing on)."""
        state = view.extensions.get("doubling")
        if state is None:
            return None
        answering = state["offer"] is not None and state["offer"] != view.me
        if answering:
            p_win, points = self.stake(view, k, False)
            cost = self.decline_cost(view, k)
            return Move(view.me, "accept" if 2 * points >= -cost else "decline")
        if view.phase not in ("offer", "draw"):
            return None
        double = Move(view.me, "double")
        if double not in view.legal():
            return None
        if self._enough(view, state["multiplier"]):
            return None
        p_win, points = self.stake(view, k, True)
        if p_win < self.OFFER_P:
            return None
        if points > self.decline_value(view, k):  # too good: play on for more
            return None
        return double

    def _enough(self, view: PlayerView, multiplier: int) -> bool:
        """Whether an ordinary win at the present stake (``ENOUGH`` points) would
        already take us to the session's target: doubling would then only raise
        what we lose."""
        target = view.rules.get("target")
        score = view.scores.get(view.me)
        if not self.ENOUGH or not isinstance(target, int) or not isinstance(score, (int, float)):
            return False
        return target - score <= self.ENOUGH * multiplier

    def stake(self, view: PlayerView, k: _Knowledge, to_act: bool) -> tuple[float, float]:
        """Our chance of winning the hand and the points we expect from it (per
        unit of stake, negative when losing), from :meth:`stake_features`."""
        f = self.stake_features(view, k, to_act)
        z = self.STAKE_WIN["1"]
        e = self.STAKE_POINTS["1"]
        for name, value in f.items():
            z += self.STAKE_WIN.get(name, 0.0) * value
            e += self.STAKE_POINTS.get(name, 0.0) * value
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z)))), e

    def _opponent_deadwood(self, view: PlayerView, k: _Knowledge) -> float:
        hands = self.opponent_hands(view, k)
        return sum(k.t.deadwood(h) for h in hands) / len(hands) if hands else 30.0

    def decline_cost(self, view: PlayerView, k: _Knowledge) -> float:
        """What declining costs us (per unit of stake): the decline bonus plus
        our deadwood's excess over the opponent's (estimated)."""
        excess = k.t.deadwood(view.hand) - self._opponent_deadwood(view, k)
        return view.rules["decline_bonus"] + max(0.0, excess)

    def decline_value(self, view: PlayerView, k: _Knowledge) -> float:
        """What the opponent's decline would bring us (per unit of stake)."""
        excess = self._opponent_deadwood(view, k) - k.t.deadwood(view.hand)
        return view.rules["decline_bonus"] + max(0.0, excess)

    def stake_features(self, view: PlayerView, k: _Knowledge, to_act: bool) -> dict[str, float]:
        """What the stake model (doubling) reads in a view at the start of a turn,
        ``to_act`` telling whose turn it is: our deadwood now (and whether it is
        at most 10, or 5) and expected after the next draw, how far the hand has
        gone, and what the opponent has shown (pickups, cards known in their
        hand, the value of their last discard)."""
        hand = view.hand
        dw = k.t.deadwood(hand)
        e1 = self.expected_after_draw(hand, k)
        last = k.t.val[view.opponent_discards[-1]] if view.opponent_discards else 10
        stock = view.stock_count
        return {"dw": dw, "e1": e1, "stock": stock, "to_act": 1.0 if to_act else 0.0,
                "opp_took": len(view.opponent_took), "opp_held": k.opp_known.bit_count(), "last": last,
                "le10": 1.0 if dw <= 10 else 0.0,
                "le5": 1.0 if dw <= 5 else 0.0, "e1*stock": e1 * stock / 31}

    # -- evaluation -------------------------------------------------------------------------

    def expected_after_draw(self, hand: int, k: _Knowledge) -> float:
        """Mean, over the cards the next stock draw may bring (weighted by how
        likely each is still in the stock), of the least deadwood after drawing
        it and discarding the best card (10-card ``hand``)."""
        arr = k.t.best_arrangement(hand)
        dw = arr.deadwood
        dead = arr.deadwood_mask
        worst = 0
        while dead:
            low = dead & -dead
            dead ^= low
            v = k.t.val[low.bit_length() - 1]
            if v > worst:
                worst = v
        order = sorted(cards_of(hand), key=k.t.val.__getitem__, reverse=True)
        touch = 0
        for c in order:
            touch |= k.t.neighbours[c]
        weights = k.stock_weight
        total = 0.0
        wsum = 0.0
        for u in k.unknown_cards:
            w = weights[u]
            if not w:
                continue
            wsum += w
            vu = k.t.val[u]
            if touch >> u & 1:
                x = hand | 1 << u
                dx = k.t.deadwood(x)
                if dx < dw + vu:  # u melds: find the best discard (at worst u itself: dw)
                    total += w * k.t.least_after_discard(x, dx, order, dw)[0]
                    continue
            total += w * (dw - (worst - vu if worst > vu else 0))
        return total / wsum if wsum else float(dw)

    # -- drawing ---------------------------------------------------------------------------

    def _draw(self, view: PlayerView, k: _Knowledge) -> Move:
        top = view.discard_top
        stock = view.pass_() if view.phase == "offer" else view.draw_stock()
        if view.must_draw_stock or top is None:
            return stock
        hand = view.hand
        with_top = hand | 1 << top
        dw_top = k.t.deadwood(with_top)
        after_take = k.t.best_after_discard(with_top, dw_top, among=hand)  # not discarding the top card itself
        if after_take >= k.t.deadwood(hand) or dw_top >= k.t.deadwood(hand) + k.t.val[top]:
            return stock  # no better, or no meld with the card: the stock
        if after_take <= self.expected_after_draw(hand, k) + self.TAKE_MARGIN:
            return view.take()
        return stock

    # -- discarding and knocking -------------------------------------------------------------

    def _danger(self, card: int, k: _Knowledge) -> float:
        """The chance the opponent can meld ``card``: that they hold one of the
        pairs of cards that make a meld with it (a pair that would have melded
        with a card they refused or threw away counts for nothing)."""
        p = k.p_opp
        excluded = k.excluded
        miss = 1.0
        for a, b in k.t.pairs[card]:
            q = p[a] * p[b]
            if q and (a * 52 + b) not in excluded:
                miss *= 1.0 - q
        return 1.0 - miss

    def _discard(self, view: PlayerView, k: _Knowledge) -> Move:
        hand = view.hand
        if view.big_gin and k.t.deadwood(hand) == 0 and view.allows(view.knock(None)):
            return view.knock(None)
        options = []
        for c in cards_of(hand):
            if c == view.taken:
                continue
            rest = hand & ~(1 << c)
            options.append((k.t.deadwood(rest), c, rest))
        least = min(o[0] for o in options)
        if least == 0:
            gin = next(c for dw, c, _ in options if dw == 0)
            if view.allows(view.knock(gin)):
                return view.knock(gin)
        elif least <= view.knock_limit:
            card = self.knock_card(options, least, k)
            if view.allows(view.knock(card)) and self.should_knock(view, hand & ~(1 << card), least, k):
                return view.knock(card)
        return view.discard(self.discard_card(options, least, k))

    def knock_card(self, options: list[tuple[int, int, int]], least: int, k: _Knowledge) -> int:
        """The card to knock with: of those leaving the least deadwood, the one the
        opponent is least likely to want."""
        return min((o for o in options if o[0] == least), key=lambda o: self._danger(o[1], k))[1]

    def discard_card(self, options: list[tuple[int, int, int]], least: int, k: _Knowledge) -> int:
        """The discard leaving the best expected hand after the next draw, less
        the danger of feeding the opponent."""
        return self.discards_weighed(options, least, k)[0][1]

    def discards_weighed(self, options: list[tuple[int, int, int]], least: int,
                         k: _Knowledge) -> list[tuple[float, int]]:
        """The discards worth weighing (those leaving at most ``PRUNE`` more
        deadwood than the least), each with its score (the expected deadwood
        after the next draw plus the danger of feeding the opponent), the best
        (lowest) first, ties in the order of ``options``."""
        weighed = []
        for dw, c, rest in options:
            if dw > least + self.PRUNE:  # far worse now: not worth weighing
                continue
            weighed.append((self.expected_after_draw(rest, k) + self.DANGER * self._danger(c, k), c))
        weighed.sort(key=lambda sc: sc[0])  # stable: the first of equal scores stays first
        return weighed

    def should_knock(self, view: PlayerView, kept: int, dw: int, k: _Knowledge) -> bool:
        """Knock when waiting a turn is expected to be worth less than knocking now:
        a linear model of (waiting - knocking) over features of the view,
        fitted on simulated play (see ``KNOCK_MODEL``)."""
        f = self.knock_features(view, kept, dw, k)
        if f is None:
            return True
        model = self.KNOCK_MODEL
        d = model["1"]
        for name, value in f.items():
            d += model.get(name, 0.0) * value
        return d < 0

    def knock_features(self, view: PlayerView, kept: int, dw: int, k: _Knowledge) -> dict[str, float] | None:
        """What the knock model reads when we could knock keeping ``kept``
        (deadwood ``dw``), ``None`` when no opponent hand can be imagined: our
        deadwood ``k``; the cards left in the stock; over the simulated opponent
        hands, the mean points of knocking now (``ev``), the share undercutting
        us (``pu``) and their mean deadwood after laying off (``md``); the chance
        the next stock card gives us gin (``outs``) and our expected deadwood
        after it (``e_kept``); how many cards the opponent has discarded
        (``nd``), the value of the last (``last``), how many they took from the
        pile (``opp_took``) and how many of those they still hold
        (``opp_held``)."""
        melds = k.t.best_arrangement(kept).melds
        hands = self.opponent_hands(view, k)
        if not hands:
            return None
        bonus = view.rules["undercut_bonus"]
        total = 0
        under = 0
        dsum = 0
        for opp in hands:
            d_dw = k.t.best_defence(opp, melds)[0]
            dsum += d_dw
            if d_dw > dw:
                total += d_dw - dw
            else:
                total -= dw - d_dw + bonus
                under += 1
        n = len(hands)
        w = k.stock_weight
        outs = 0.0
        wsum = 0.0
        for u in k.unknown_cards:
            wsum += w[u]
            if w[u] and k.t.neighbours[u] & kept and k.t.best_after_discard(kept | 1 << u) == 0:
                outs += w[u]
        last = k.t.val[view.opponent_discards[-1]] if view.opponent_discards else 10
        return {"k": dw, "stock": view.stock_count, "ev": total / n, "outs": outs / wsum if wsum else 0.0,
                "e_kept": self.expected_after_draw(kept, k), "nd": len(view.opponent_discards), "last": last,
                "pu": under / n, "md": dsum / n, "opp_took": len(view.opponent_took),
                "opp_held": k.opp_known.bit_count()}

    def opponent_hands(self, view: PlayerView, k: _Knowledge, samples: int | None = None) -> list[int]:
        """The opponent's likely hands: the cards they took and still hold, the
        rest dealt from the unknown cards; then, as many times as they have
        discarded (at most ``EXTRA``, and half the unknown cards left over),
        one more unknown card drawn and their worst card dropped, as a player
        keeping the least deadwood would. Hands with which they could have
        knocked are redrawn (``NO_KNOCK`` tries each), since a player who can
        knock mostly does."""
        cards = k.unknown_cards
        known = k.opp_known
        need = 10 - known.bit_count()
        if need < 0 or len(cards) < need:
            return []
        extra = min(len(view.opponent_discards), self.EXTRA, (len(cards) - need) // 2)
        limit = view.knock_limit
        rng = self.rng
        n = len(cards)
        take = need + extra
        out = []
        tries = self.NO_KNOCK
        for _ in range(self.SAMPLES if samples is None else samples):
            for _ in range(tries):
                pool = cards[:]
                bits = 0
                nbits = 0
                for i in range(take):  # a partial Fisher-Yates shuffle, 16 random bits a step
                    if nbits < 16:
                        bits = rng.next64()
                        nbits = 64
                    j = i + (((bits & 0xFFFF) * (n - i)) >> 16)
                    bits >>= 16
                    nbits -= 16
                    pool[i], pool[j] = pool[j], pool[i]
                opp = known
                for c in pool[:need]:
                    opp |= 1 << c
                dw = -1
                for c in pool[need:take]:
                    opp |= 1 << c
                    dw = k.t.deadwood(opp)
                    dw, drop = k.t.least_after_discard(opp, dw, sorted(cards_of(opp & ~known), key=k.t.val.__getitem__,
                                                                   reverse=True), 999, c)
                    opp ^= 1 << drop
                if dw < 0:
                    dw = k.t.deadwood(opp)
                if dw > limit:
                    break
            out.append(opp)
        return out


class _Knowledge:
    """What the view tells about the cards: where each known card is, the
    cards the opponent refused, took and discarded, and for each unknown card
    how likely it is in the opponent's hand (else in the stock); ``t``, the
    :class:`Tables` of the meld rules in force."""

    __slots__ = ("opp_known", "unknown_cards", "p_opp", "stock_weight", "excluded", "t")

    def __init__(self, view: PlayerView, bot: ExpertBot):
        self.t = tables(view.melds)  # the meld rules in force, and what the bot derives from them
        hand = view.hand
        pile = mask_of(view.discard_pile)
        opp_known = mask_of(view.opponent_took) & ~pile & ~hand
        unknown = FULL_DECK_MASK & ~hand & ~pile & ~opp_known
        # the cards the opponent saw on top of the pile and did not take
        took = set(view.opponent_took)
        refused = [c for c in view.my_discards if c not in took]
        if view.opponent in view.passes:
            refused.append(view.upcard)
        self.opp_known = opp_known
        cards = cards_of(unknown)
        self.unknown_cards = cards
        weight = [0.0] * 52
        for c in cards:
            weight[c] = 1.0
        excluded = set()
        if bot.EXCLUDE:
            for x in refused + list(view.opponent_discards):
                for a, b in self.t.pairs[x]:
                    excluded.add(a * 52 + b)
        self.excluded = excluded
        for f, xs in ((bot.F_REFUSED, refused), (bot.F_DISCARDED, view.opponent_discards)):
            if f == 1.0:
                continue
            for x in xs:
                m = self.t.neighbours[x] & unknown
                while m:
                    low = m & -m
                    m ^= low
                    weight[low.bit_length() - 1] *= f
        f = bot.F_TOOK
        known_cards = cards_of(opp_known)
        for x in known_cards:
            m = self.t.neighbours[x] & unknown
            while m:
                low = m & -m
                m ^= low
                weight[low.bit_length() - 1] *= f
        need = 10 - opp_known.bit_count()
        total = sum(weight)
        p = [0.0] * 52
        stock_weight = [0.0] * 52
        if total > 0 and need > 0:
            scale = need / total
            for c in cards:
                q = weight[c] * scale
                if q > 0.95:
                    q = 0.95
                p[c] = q
                stock_weight[c] = 1.0 - q
        else:
            for c in cards:
                stock_weight[c] = 1.0
        for c in known_cards:
            p[c] = 1.0
        self.p_opp = p
        self.stock_weight = stock_weight
