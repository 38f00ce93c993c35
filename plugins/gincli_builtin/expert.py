"""The ``expert`` bot: tracks the discards, infers what the opponent holds,
discards for the best expected hand after the next draw while not feeding the
opponent, takes the upcard when it beats the expected stock draw, and times
the knock by simulating the opponent's likely hands (undercut risk) against
the melds it would spread.

Everything it uses is in its :class:`~gincli.view.PlayerView`: its own cards,
the discard pile, the cards the opponent took from the pile and discarded.
"""

from __future__ import annotations

from gincli.bots import Bot
from gincli.cards import CARD_VALUES
from gincli.layoffs import best_defence
from gincli.melds import best_arrangement, deadwood, forms_meld
from gincli.moves import Move
from gincli.view import PlayerView

FULL = (1 << 52) - 1


def _neighbours() -> list[int]:
    """For each card, the cards that can meld with it: its rank, and its suit within two."""
    out = []
    for c in range(52):
        r, s = c % 13, c // 13
        m = 0
        for t in range(4):
            if t != s:
                m |= 1 << (t * 13 + r)
        for d in (-2, -1, 1, 2):
            if 0 <= r + d < 13:
                m |= 1 << (s * 13 + r + d)
        out.append(m)
    return out


NEIGHBOURS = _neighbours()


def _cards(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class ExpertBot(Bot):
    name = "expert"
    description = ("Tracks discards and the opponent's pickups, discards for the best expected hand without "
                   "feeding the opponent, and times its knock against simulated opponent hands.")

    #: How many deadwood points feeding the opponent a card they want is worth avoiding.
    DANGER = 4.0
    #: Opponent hands simulated for a knock decision.
    SAMPLES = 24

    def choose(self, view: PlayerView) -> Move:
        stake = self._stake(view)
        if stake is not None:
            return stake
        pile = 0
        for c in view.discard_pile:
            pile |= 1 << c
        hand = view.hand
        opp_known = 0
        for c in view.opponent_took:
            opp_known |= 1 << c
        opp_known &= ~pile & ~hand
        opp_discarded = 0
        for c in view.opponent_discards:
            opp_discarded |= 1 << c
        unknown = FULL & ~hand & ~pile & ~opp_known
        if view.phase == "discard":
            return self._discard(view, hand, unknown, opp_known, opp_discarded)
        return self._draw(view, hand, unknown)

    # -- the stake (doubling) -----------------------------------------------------------------

    def _stake(self, view: PlayerView) -> Move | None:
        """Under doubling: answer an offer (decline only a lost cause late in the
        hand), or offer when the hand is close to a knock."""
        state = view.extensions.get("doubling")
        if state is None:
            return None
        dw = deadwood(view.hand)
        if state["offer"] is not None and state["offer"] != view.me:
            lost = dw >= 30 and view.stock_count < 16
            return Move(view.me, "decline" if lost else "accept")
        if view.phase in ("offer", "draw") and dw <= 6 and view.stock_count < 26:
            double = Move(view.me, "double")
            if double in view.legal():
                return double
        return None

    # -- drawing ---------------------------------------------------------------------------

    def _draw(self, view: PlayerView, hand: int, unknown: int) -> Move:
        top = view.discard_top
        stock = view.pass_() if view.phase == "offer" else view.draw_stock()
        if view.must_draw_stock or top is None:
            return stock
        with_top = hand | 1 << top
        after_take = min(deadwood(with_top & ~(1 << d)) for d in _cards(hand))
        expected_stock = self._expected_after_draw(hand, unknown)
        if after_take < expected_stock - 0.5 or (forms_meld(hand, top) and after_take <= expected_stock):
            return view.take()
        return stock

    def _expected_after_draw(self, hand: int, unknown: int) -> float:
        """Mean, over the unknown cards, of the least deadwood after drawing that card
        and discarding the best one (10-card ``hand``)."""
        dw = deadwood(hand)
        arr = best_arrangement(hand)
        dead_values = [CARD_VALUES[c] for c in _cards(arr.deadwood_mask)]
        worst = max(dead_values) if dead_values else 0
        total = 0.0
        n = 0
        for u in _cards(unknown):
            n += 1
            if NEIGHBOURS[u] & hand:
                with_u = hand | 1 << u
                best = dw
                rest = with_u
                while rest:
                    low = rest & -rest
                    rest ^= low
                    v = deadwood(with_u ^ low)
                    if v < best:
                        best = v
                total += best
            else:  # a card that melds with nothing: keep it only in place of a worse one
                total += dw - max(0, worst - CARD_VALUES[u])
        return total / n if n else float(dw)

    # -- discarding and knocking -------------------------------------------------------------

    def _danger(self, card: int, opp_known: int, opp_discarded: int, unknown: int) -> float:
        """How likely the opponent wants the card: melds with cards they took, or
        near cards they might hold; less if they threw away its neighbours."""
        near = NEIGHBOURS[card]
        score = 0.04 * (near & unknown).bit_count()
        if near & opp_known:
            score += 1.0 if forms_meld(opp_known, card) else 0.45
        if near & opp_discarded:
            score -= 0.3
        return max(score, 0.0)

    def _discard(self, view: PlayerView, hand: int, unknown: int, opp_known: int, opp_discarded: int) -> Move:
        if view.big_gin and deadwood(hand) == 0:
            return view.knock(None)
        options = []
        for c in _cards(hand):
            if c == view.taken:
                continue
            rest = hand & ~(1 << c)
            options.append((deadwood(rest), c, rest))
        least = min(o[0] for o in options)
        if least == 0:
            gin = next(c for dw, c, _ in options if dw == 0)
            return view.knock(gin)
        if least <= view.knock_limit:
            card = min((o for o in options if o[0] == least),
                       key=lambda o: self._danger(o[1], opp_known, opp_discarded, unknown))[1]
            if self._knock_pays(view, hand & ~(1 << card), least, unknown, opp_known):
                return view.knock(card)
        best = None
        for dw, c, rest in options:
            if dw > least + 12:  # far worse now: not worth weighing
                continue
            score = self._expected_after_draw(rest, unknown & ~(1 << c)) \
                + self.DANGER * self._danger(c, opp_known, opp_discarded, unknown)
            if best is None or score < best[0]:
                best = (score, c)
        assert best is not None
        return view.discard(best[1])

    def _knock_pays(self, view: PlayerView, kept: int, dw: int, unknown: int, opp_known: int) -> bool:
        """Simulate the opponent's likely hands (the known cards they took, the rest
        drawn from the unknown cards, kept as a careful player would keep them) and
        knock when the expected points of knocking now are positive."""
        arr = best_arrangement(kept)
        unknown_cards = _cards(unknown)
        need = 10 - opp_known.bit_count()
        if need < 0 or len(unknown_cards) < need:
            return True
        # The longer the hand, the more the opponent has chosen their cards.
        extra = min(len(view.opponent_discards), 6, len(unknown_cards) - need)
        bonus = view.rules["undercut_bonus"]
        total = 0
        rng = self.rng
        for _ in range(self.SAMPLES):
            pool = unknown_cards[:]
            opp = opp_known
            for i in range(need + extra):
                j = i + rng.below(len(pool) - i)
                pool[i], pool[j] = pool[j], pool[i]
                opp |= 1 << pool[i]
            for _ in range(extra):  # drop the card whose loss leaves the least deadwood
                opp &= ~(1 << min(_cards(opp & ~opp_known) or _cards(opp),
                                   key=lambda c: deadwood(opp & ~(1 << c))))
            d_dw = best_defence(opp, arr.melds)[0]
            total += (d_dw - dw) if d_dw > dw else -(dw - d_dw + bonus)
        return total > 0
