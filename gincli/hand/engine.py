"""The hand engine: one hand of gin rummy as a state machine.

RULES.md "Dealing", "Play" and "Going out", move by move. A :class:`Hand` is
dealt from a shuffled deck (or from a known deal, the stock then named card by
card), takes :class:`Move` objects through :meth:`Hand.apply`, which raises
:class:`IllegalMove` (with a stable rule id) for anything the rules forbid,
and ends in a :class:`~gincli.rulebook.scoring.HandResult` scored by
:func:`~gincli.rulebook.scoring.score_position`, the one place scoring lives.

Phases: ``offer`` (the first upcard is offered to the non-dealer, then the
dealer), ``draw``, ``discard`` (or knock), ``spread`` (after a knock: the
defender's spread and layoffs), ``over``.

Moves that plugins add (:class:`~gincli.hand.moveset.MoveSet`: doubling's) are
played by their move set, which keeps its state in ``hand.extensions``, may
forbid standard moves meanwhile, and changes the result at the end; the
engine knows nothing of them but that.

Scripts step through a hand with :func:`gincli.new_hand`, whose
:class:`gincli.GameHand` is this engine's public face (docs/api.md): the same
:class:`Hand`, its views and legal moves as the bot protocol's dicts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base.contract import PluginFault, plugin_of
from ..base.errors import GinError, RecordError, quote
from ..rulebook.cards import CARD_NAMES, FULL_DECK_MASK, card_str, cards_of, cut_key
from ..rulebook.rng import SplitMix64
from ..rulebook.rules import OFF, Rules
from ..rulebook.scoring import (
    HandResult,
    Position,
    check_knock,
    dead_hand,
    declared_melds,
    forfeit_result,
    score_position,
)
from ..rulebook.variant import Variant
from .moves import ACTIONS, IllegalMove, Move
from .view import PlayerView

_ACTIONS = frozenset(ACTIONS)  # the rule book's moves, to look one up

OFFER, DRAW, DISCARD, SPREAD, OVER = "offer", "draw", "discard", "spread", "over"

#: The most moves a hand may take. The rules let two players take each other's
#: discards for ever (the stock then never runs down); bots that do are stopped
#: here: the hand is dead, and the transcript says so (``"stalled": true``).
MAX_HAND_MOVES = 2000


def deal_deck(deck: Sequence[int], dealer: str, players: Sequence[str]) -> tuple[dict[str, int], int, list[int]]:
    """Deal as RULES.md says: ten cards each, one at a time, alternately,
    starting with the non-dealer; the 21st card is the upcard; the rest, in
    order, the stock (top first). Returns (hands as masks, upcard, stock)."""
    pone = players[1] if dealer == players[0] else players[0]
    hands = {pone: 0, dealer: 0}
    for i in range(20):
        hands[pone if i % 2 == 0 else dealer] |= 1 << deck[i]
    return hands, deck[20], list(deck[21:])


def cut_cards(rng: SplitMix64, names: Sequence[str]) -> dict[str, int]:
    """Each of ``names`` cuts a card, in order, each a different card of a full
    deck: the i-th draws ``below(52 - i)`` and takes that card among those not
    yet cut, in deck order."""
    cut: dict[str, int] = {}
    taken: list[int] = []
    for i, name in enumerate(names):
        card = rng.below(52 - i)
        for t in sorted(taken):
            if card >= t:
                card += 1
        taken.append(card)
        cut[name] = card
    return cut


def dealer_from_cut(cut: Mapping[str, int], players: Sequence[str], rules: Rules) -> str:
    """Two players: the higher cut card (by rank, then suit, spades high) deals
    when ``first_dealer = "high"`` (the default), the lower when ``"low"``."""
    high = max(players, key=lambda p: cut_key(cut[p]))
    low = players[1] if high == players[0] else players[0]
    return high if rules["first_dealer"] == "high" else low


def cut_for_deal(rng: SplitMix64, players: Sequence[str], rules: Rules) -> tuple[str, dict[str, int]]:
    """Each player cuts a card (two different cards from a full deck, the first
    player first); :func:`dealer_from_cut` says who deals. Returns (dealer, each
    player's cut card)."""
    cut = cut_cards(rng, players)
    return dealer_from_cut(cut, players, rules), cut


def shuffled_deck(rng: SplitMix64) -> list[int]:
    """A deck shuffled by the generator (Fisher-Yates over the cards in order As..Kc)."""
    deck = list(range(52))
    rng.shuffle(deck)
    return deck


def next_dealer(rules: Rules, players: Sequence[str], dealer: str, result: HandResult) -> str:
    """Who deals the next hand (RULES.md "Next dealer"): the same dealer after a
    dead hand; else by the option ``next_dealer``: winner, loser or alternate."""
    if result.winner is None:
        return dealer
    other = players[1] if dealer == players[0] else players[0]
    rule = rules["next_dealer"]
    if rule == "winner":
        return result.winner
    if rule == "loser":
        return players[1] if result.winner == players[0] else players[0]
    return other


class Hand:
    """One hand, from the deal to its result.

    Give ``deck`` (52 cards, top first) or ``deal`` (each player's ten cards and
    the upcard; the stock is then unknown and every draw from it must name its
    card). The public record of play (``discards``, ``taken``, ``passes``) is
    what either player may know; ``hands`` and ``stock`` are not.
    """

    def __init__(self, players: Sequence[str], dealer: str, variant: Variant, rules: Rules, *,
                 deck: Sequence[int] | None = None, deal: Mapping[str, Any] | None = None):
        first, second = players  # a hand is two players' (a session's others sit it out)
        self.players = (first, second)
        self.dealer = dealer
        self.pone = self.players[1] if dealer == self.players[0] else self.players[0]
        self.variant = variant
        self.rules = rules
        self.deck = list(deck) if deck is not None else None
        if deck is not None:
            self.hands, self.upcard, stock = deal_deck(deck, dealer, self.players)
            self.stock: list[int] | None = stock[::-1]  # top at the end
        else:
            assert deal is not None
            self.hands = {p: deal[p] for p in self.players}
            self.upcard = deal["upcard"]
            self.stock = None
        self.initial_hands = dict(self.hands)
        self.stock_count = 31
        held = self.hands[self.players[0]] | self.hands[self.players[1]]
        self.unseen = FULL_DECK_MASK & ~held & ~(1 << self.upcard)
        self.pile: list[int] = [self.upcard]  # the discard pile, top at the end
        self.phase = OFFER
        self.to_act = self.pone
        self.passes: list[str] = []
        self.must_draw_stock = False  # both refused the first upcard
        self.taken = -1  # the card taken from the discard pile this turn
        self.wall_turn = False  # this turn's draw left two cards in the stock
        self.moves: list[Move] = []
        #: Public record: cards each player took from the pile, and discarded.
        self.took: dict[str, list[int]] = {p: [] for p in self.players}
        self.discarded: dict[str, list[int]] = {p: [] for p in self.players}
        self.knocker: str | None = None
        self.knock_melds: list[int] | None = None
        self.knock_outcome: str | None = None
        self.result: HandResult | None = None
        self.limit = variant.checked_knock_limit(rules, self.upcard)
        self.number = 0  # the hand's index in its session
        self.scores: dict[str, Any] = {}  # the session's scores before this hand (public)
        self.stalled = False  # stopped at MAX_HAND_MOVES (gincli's own rule: a hand cannot go on for ever)
        self._chosen_spread: Move | None = None  # the defender's spread gincli made (finish), its cards written later
        self.movesets = tuple(getattr(rules, "movesets", ()))
        #: Each move set's public state in this hand, by its name.
        self.extensions: dict[str, dict[str, Any]] = {ms.name: ms.checked_start(rules) for ms in self.movesets}
        self._moveset_of = {action: ms for ms in self.movesets for action in ms.actions}
        self._restricting = tuple(ms for ms in self.movesets if ms.restricts)  # MoveSet.forbids
        self._listening = tuple(ms for ms in self.movesets if ms.listens)  # MoveSet.played
        self._checking = tuple(ms for ms in self.movesets if ms.checks)  # MoveSet.check

    # -- facts -----------------------------------------------------------------------

    def other(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def finishable(self) -> bool:
        """Whether the hand has ended, or needs only the defender's spread (which
        gincli can choose)."""
        return self.phase in (SPREAD, OVER)

    def expecting(self) -> str:
        """What the player to act must do, in words."""
        for ms in self.movesets:
            text = ms.checked_expecting(self)
            if text:
                return text
        return {OFFER: "take or refuse the upcard", DRAW: "draw", DISCARD: "discard or knock",
                SPREAD: "spread and lay off", OVER: "nothing: the hand is over"}[self.phase]

    def view(self, player: str) -> PlayerView:
        """What ``player`` may legally know now: their own cards and the public
        record of play, copied into a :class:`PlayerView` (never the engine);
        for the player to act, how to ask the move sets' ``check()`` of a move
        (``view.refusal``, which :meth:`PlayerView.legal` asks)."""
        opponent = self.other(player)
        return PlayerView(
            player, opponent, self.dealer, self.phase, self.hands[player], self.upcard, tuple(self.pile),
            self.stock_count, tuple(self.passes), tuple(self.took[player]), tuple(self.took[opponent]),
            tuple(self.discarded[player]), tuple(self.discarded[opponent]),
            self.taken if self.to_act == player else -1, self.must_draw_stock, self.limit,
            self.rules["big_gin_bonus"] != OFF, self.rules, dict(self.scores), self.number,
            {name: dict(state) for name, state in self.extensions.items()},
            self._refusal if self._checking and player == self.to_act and self.phase in (OFFER, DRAW, DISCARD)
            else None)

    def _refusal(self, move: Move) -> tuple[Any, IllegalMove] | None:
        """The move set whose ``check()`` refuses the rule book's ``move`` now, and
        its refusal; None when none does."""
        for ms in self._checking:
            try:
                ms.checked_check(self, move)
            except IllegalMove as exc:
                return ms, exc
        return None

    def known(self, player: str) -> int:
        """The cards ``player`` has seen (a mask): every card once in their hand,
        the first upcard, every discard; after the hand ends, every card spread."""
        seen = self.initial_hands[player] | self.hands[player] | 1 << self.upcard
        for cards in self.discarded.values():
            for c in cards:
                seen |= 1 << c
        if self.phase in (SPREAD, OVER) and self.knocker is not None:
            seen |= self.hands[self.other(player)]
        return seen

    def rewound(self, moves: int) -> Hand:
        """A new hand, as this one was after its first ``moves`` moves (the deck
        must be known)."""
        if self.deck is None:
            raise RuntimeError("only a hand dealt from a known deck can be rewound")
        hand = Hand(self.players, self.dealer, self.variant, self.rules, deck=self.deck)
        hand.number, hand.scores = self.number, self.scores
        for move in self.moves[:moves]:
            hand.apply(Move(move.player, move.action, move.source, move.card, move.melds, move.cards, move.fields))
        return hand

    def legal_moves(self) -> list[Move]:
        """Every legal move of the player to act: what its view allows (one rule,
        in :meth:`PlayerView.legal`); after a knock, the defender's spread, which
        gincli chooses."""
        if self.phase == SPREAD:
            return [Move(self.to_act, "layoff")]
        if self.phase == OVER:
            return []
        return self.view(self.to_act).legal()

    # -- moves -----------------------------------------------------------------------

    def apply(self, move: Move) -> None:
        """Play one move; :class:`IllegalMove` if the rules forbid it (the hand is
        then unchanged)."""
        phase = self.phase
        player = move.player
        if phase == OVER:
            raise IllegalMove("move-after-end", f"{player} moved after the hand was over")
        if player not in self.hands:
            raise IllegalMove("unknown-player", f"{quote(player)} is not a player of this hand")
        action = move.action
        # What the move sets are shown: the same move whoever made it (Move.shown)
        shown = move.shown() if self.movesets else move
        owner = self._moveset_of.get(action)
        if owner is not None:  # a plugin's move: its move set plays it
            try:
                owner.checked_apply(self, shown)
            except IllegalMove as exc:
                raise self._unkept_offer(owner, shown, exc) from None
            self.moves.append(move)
            self._played(shown)
            return
        if action not in _ACTIONS:
            actions = ", ".join(ACTIONS + tuple(self._moveset_of))
            raise IllegalMove("malformed-move", f"{quote(action)} is not a move here; the moves are {actions}")
        for ms in self.movesets:
            ms.checked_check(self, shown)
        if player != self.to_act:
            raise IllegalMove("out-of-turn", f"{player} moved out of turn: it is {self.to_act}'s turn to "
                                             f"{self.expecting()}")
        if self._restricting and phase != SPREAD:  # what a move set's rules take out (MoveSet.forbids)
            view = self.view(player)
            for ms in self._restricting:
                rule = ms.checked_forbids(view, shown)
                if rule is not None:
                    raise ms.refusal(shown, rule)
        if phase == OFFER:
            self._offer(move)
        elif phase == DRAW:
            if action != "draw":
                if action == "pass":
                    raise IllegalMove("pass-not-allowed", f"{player} passed, but only the first upcard may be refused")
                raise IllegalMove("draw-first", f"{player} must draw before discarding")
            self._draw(move)
        elif phase == DISCARD:
            if action == "discard":
                self._discard(move)
            elif action == "knock":
                self._knock(move)
            else:
                raise IllegalMove("already-drew", f"{player} already drew this turn and must discard or knock")
        else:  # SPREAD
            if action != "layoff":
                raise IllegalMove("spread-expected", f"after the knock, {player} may only spread and lay off")
            self._spread(move)
        self.moves.append(move)
        self._played(shown)

    def _unkept_offer(self, owner: Any, move: Move, exc: IllegalMove) -> GinError:
        """A move set's refusal of one of its own moves; when it offered that very
        move to the player to act (``legal()``), the move set's fault, never the player's."""
        if move.player == self.to_act and self.phase != OVER and move in self.view(move.player).legal():
            return PluginFault(f"plugin \"{plugin_of(owner)}\": the move set {owner.name} offered {move.player} the "
                               f"move {move.action} in legal(), then refused it in apply(): {exc.message}")
        return exc

    def _played(self, move: Move) -> None:
        """Tell the move sets that listen of a move the hand has played (MoveSet.played)."""
        for ms in self._listening:
            ms.checked_played(self, move)

    def _offer(self, move: Move) -> None:
        player = move.player
        if move.action == "pass":
            self.passes.append(player)
            if player == self.pone:
                self.to_act = self.dealer
            else:  # both refused: the non-dealer draws from the stock
                self.to_act = self.pone
                self.phase = DRAW
                self.must_draw_stock = True
            return
        if move.action != "draw":
            raise IllegalMove("first-turn-order", f"{player} must take or refuse the upcard first")
        if move.source != "discard":
            raise IllegalMove("first-turn-order", f"{player} drew from the stock before the upcard was refused "
                                                  f"by both players")
        self._draw(move)

    def _draw(self, move: Move) -> None:
        player = move.player
        if move.source == "stock":
            if self.stock_count <= 2:
                raise IllegalMove("draw-from-wall", f"{player} drew from the last two cards of the stock, "
                                                    "which are never drawn")
            if self.stock is not None:
                card = self.stock[-1]
                if move.card is not None and move.card != card:
                    raise IllegalMove("draw-not-on-top", f"{player} drew {card_str(move.card)} from the stock, "
                                                         f"but the top card is {card_str(card)}")
                self.stock.pop()
            else:
                if move.card is None:
                    raise IllegalMove("draw-card-missing", f"{player} drew from the stock without naming the card "
                                                           "(needed when the deck is not known)")
                card = move.card
                if not self.unseen >> card & 1:
                    raise IllegalMove("draw-not-on-top", f"{player} drew {card_str(card)} from the stock, but "
                                                         f"{card_str(card)} is not in the stock")
            self.unseen &= ~(1 << card)
            self.stock_count -= 1
            self.wall_turn = self.stock_count == 2
            self.taken = -1
        else:
            if self.must_draw_stock:
                raise IllegalMove("first-turn-order", f"both players refused the upcard, so {player} must draw "
                                                      "from the stock")
            if not self.pile:
                raise IllegalMove("draw-empty-discard", f"{player} drew from an empty discard pile")
            card = self.pile[-1]
            if move.card is not None and move.card != card:
                raise IllegalMove("draw-not-on-top", f"{player} drew {card_str(move.card)} from the discard pile, "
                                                     f"but the top card is {card_str(card)}")
            self.pile.pop()
            self.taken = card
            self.wall_turn = False
            self.took[player].append(card)
        self.hands[player] |= 1 << card
        self.must_draw_stock = False
        self.phase = DISCARD
        if move.card is None:
            move.card = card

    def _check_discard(self, player: str, card: int) -> None:
        if not self.hands[player] >> card & 1:
            raise IllegalMove("discard-not-held", f"{player} discarded {card_str(card)}, which {player} does not hold")
        if card == self.taken:
            raise IllegalMove("discard-drawn-upcard", f"{player} discarded {card_str(card)}, the card taken from "
                                                      "the discard pile this turn")

    def _discard(self, move: Move) -> None:
        player, card = move.player, move.card
        assert card is not None
        self._check_discard(player, card)
        self.hands[player] &= ~(1 << card)
        self.pile.append(card)
        self.discarded[player].append(card)
        self.taken = -1
        if self.wall_turn:  # the 50th card's drawer discarded without knocking
            self.phase = OVER
            self.result = self._finished(dead_hand(self.players, self.variant.name))
            return
        players = self.players
        self.to_act = players[1] if player == players[0] else players[0]
        self.phase = DRAW

    def _knock(self, move: Move) -> None:
        player, card = move.player, move.card
        held = self.hands[player]
        if card is not None:
            self._check_discard(player, card)
            held &= ~(1 << card)
        try:
            melds = declared_melds(player, held, move.melds, self.rules.melds)
            outcome, _ = check_knock(player, held, melds, self.variant, self.rules, self.upcard)
        except RecordError as exc:
            raise IllegalMove(exc.rule or "illegal-knock", exc.message) from None
        if card is not None:
            self.hands[player] = held
            self.pile.append(card)
            self.discarded[player].append(card)
        self.knocker = player
        self.knock_melds = move.melds
        self.knock_outcome = outcome
        self.phase = SPREAD
        self.to_act = self.other(player)

    def _spread(self, move: Move) -> None:
        try:
            self.result = self._score(move.melds, move.cards)
        except RecordError as exc:
            raise IllegalMove(exc.rule or "illegal-spread", exc.message) from None
        self.phase = OVER

    def _score(self, defender_melds: list[int] | None, layoffs: list[int] | None) -> HandResult:
        assert self.knocker is not None
        defender = self.other(self.knocker)
        melds: dict[str, list[int]] = {}
        if self.knock_melds is not None:
            melds[self.knocker] = self.knock_melds
        if defender_melds is not None:
            melds[defender] = defender_melds
        if layoffs:
            for c in layoffs:
                if not self.hands[defender] >> c & 1:
                    raise IllegalMove("layoff-not-held", f"{defender} laid off {card_str(c)}, which {defender} "
                                                         "does not hold")
        pos = Position(self.players, dict(self.hands), self.knocker, self.upcard, melds, layoffs)
        return self._finished(score_position(pos, self.variant, self.rules))

    def _finished(self, result: HandResult) -> HandResult:
        """A result as the move sets in play change it (doubling's stake)."""
        for ms in self.movesets:
            result = ms.checked_finish(self.extensions[ms.name], result, self.rules)
        return result

    def end(self, result: HandResult) -> None:
        """End the hand now with ``result``: for a move set whose move ends it
        (a declined double). The move sets do not change that result."""
        self.result = result
        self.phase = OVER

    def finish(self) -> HandResult:
        """The hand's result; after a knock with no spread recorded, gincli
        chooses the defender's spread and layoffs (FORMATS.md): a ``layoff``
        move played like a defender's own, which the move sets are told of."""
        if self.result is None:
            if self.phase != SPREAD:
                raise RuntimeError("the hand is not over")
            spread = self._chosen_spread = Move(self.to_act, "layoff")
            try:
                self.apply(spread)
            except IllegalMove as exc:
                raise self._refused_spread(exc) from None
        assert self.result is not None
        return self.result

    def _refused_spread(self, exc: IllegalMove) -> GinError:
        """The fault of a move set that refused the spread gincli makes (its ``check()``)."""
        for ms in self.movesets:
            if exc.rule in ms.rule_ids:
                return PluginFault(f"plugin \"{plugin_of(ms)}\": the move set {ms.name}'s check() refused the "
                                   f"defender's spread, which gincli makes after every knock: {exc.message}")
        return exc

    def stall(self) -> HandResult:
        """End a hand that reached :data:`MAX_HAND_MOVES` moves without ending (two
        players taking each other's discards for ever): dead, nobody scores."""
        self.stalled = True
        self.result = self._finished(dead_hand(self.players, self.variant.name))
        self.phase = OVER
        return self.result

    def force(self, move: Move) -> bool:
        """Play a move the rules forbid as if it were allowed, as far as it makes
        sense (``gin validate`` follows a transcript past its first fault only to
        tell whether it reaches its end). False when it makes no sense."""
        shown = move.shown()
        if not self._force(move, shown):
            return False
        self._played(shown)
        return True

    def _force(self, move: Move, shown: Move) -> bool:
        player, action = move.player, move.action
        if player not in self.hands or self.phase == OVER:
            return False
        self.to_act = player
        if action == "pass":
            if self.phase == OFFER:
                self.passes.append(player)
                self.phase, self.must_draw_stock = (DRAW, True) if player == self.dealer else (OFFER, False)
                self.to_act = self.other(player) if self.phase == OFFER else self.pone
            return True
        if action == "draw":
            card = move.card
            if move.source == "stock":
                if self.stock is not None:
                    if card is not None and card in self.stock:
                        self.stock.remove(card)
                    elif self.stock:
                        card = self.stock.pop()
                    else:
                        return False
                if card is None:
                    return False
                self.unseen &= ~(1 << card)
                self.stock_count -= 1
                self.taken = -1
            else:
                if card is None or card not in self.pile:
                    if not self.pile:
                        return False
                    card = self.pile[-1]
                self.pile.remove(card)
                self.taken = card
            self.hands[player] |= 1 << card
            self.wall_turn = self.stock_count <= 2
            self.phase = DISCARD
            return True
        if action in ("discard", "knock"):
            card = move.card
            if card is not None:
                if not self.hands[player] >> card & 1:
                    return False
                self.hands[player] &= ~(1 << card)
                self.pile.append(card)
            elif action == "discard":
                return False
            if action == "knock":
                self.knocker, self.knock_melds, self.phase = player, None, SPREAD
                self.to_act = self.other(player)
            elif self.wall_turn:
                self.phase, self.result = OVER, self._finished(dead_hand(self.players, self.variant.name))
            else:
                self.phase, self.to_act = DRAW, self.other(player)
            return True
        owner = self._moveset_of.get(action)
        if owner is not None:
            try:
                owner.checked_apply(self, shown)
            except IllegalMove:
                pass  # followed leniently: a plugin's move out of place is passed over
            return True
        if action == "layoff" and self.knocker is not None:
            try:
                self.result = self._score(None, None)
            except RecordError:
                return False
            self.phase = OVER
            return True
        return False

    def forfeit(self, player: str, reason: str) -> HandResult:
        """``player`` cannot go on (a bot failed): the hand ends, scored by
        :func:`~gincli.rulebook.scoring.forfeit_result`."""
        self.result = self._finished(forfeit_result(player, self.other(player), self.hands[player], self.rules,
                                                    self.variant.name, reason))
        self.phase = OVER
        return self.result

    def record_spread(self) -> None:
        """Write the spreads gincli chose into the moves, so the transcript says
        exactly what was scored: the knocker's melds on the knock, and the
        defender's melds and layoffs as a ``layoff`` move."""
        result = self.finish()
        if result.knocker is None or result.defender is None:
            return
        knock = next(m for m in reversed(self.moves) if m.action == "knock")
        if knock.melds is None:
            knock.melds = list(result.knocker.melds)
        spread = self._chosen_spread
        if spread is not None and spread.melds is None:
            spread.melds = list(result.defender.melds)
            spread.cards = list(result.defender.layoffs or [])

    # -- transcripts -----------------------------------------------------------------

    def to_dict(self, deck: bool = True, deal: bool = True, result: bool = True) -> dict[str, Any]:
        """This hand as a transcript hand (FORMATS.md)."""
        d: dict[str, Any] = {"dealer": self.dealer}
        if deck and self.deck is not None:
            d["deck"] = [CARD_NAMES[c] for c in self.deck]
        if deal or self.deck is None:
            d["deal"] = {p: [CARD_NAMES[c] for c in cards_of(self.initial_hands[p])] for p in self.players}
            d["deal"]["upcard"] = CARD_NAMES[self.upcard]
        d["moves"] = [m.to_dict() for m in self.moves]
        if self.result is not None and self.result.forfeit is not None:
            d["forfeit"] = dict(self.result.forfeit)
        if self.stalled:
            d["stalled"] = True  # gincli's: stopped at MAX_HAND_MOVES moves, dead
        if result and self.result is not None:
            d["result"] = self.result.claim()
        return d
