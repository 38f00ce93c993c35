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
from ..base.errors import GinError, RecordError, plural, quote
from ..rulebook.cards import CARD_NAMES, FULL_DECK_MASK, card_str, cards_of, cut_key
from ..rulebook.irregular import (
    ACCEPT,
    CONTINUE,
    COUNT_ONLY,
    PICK_UP,
    PLAY_EXPOSED,
    REDEAL,
    VOID,
    Exposed,
    TableHand,
    illegal_knock_remedies,
    under_top,
    wrong_hand_remedies,
)
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
from .faults import AtTable, Due, IllegalKnock, KnockBan
from .moves import ACTIONS, TABLE_ACTIONS, IllegalMove, Move
from .view import PlayerView

_ACTIONS = frozenset(ACTIONS)  # the rule book's moves, to look one up
_TABLE_ACTIONS = frozenset(TABLE_ACTIONS)

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
        #: 31, or what a deal found irregular at the table left (FORMATS.md: such a deal is given, not dealt)
        self.stock_count = 51 - self.hands[first].bit_count() - self.hands[second].bit_count()
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
        #: Whether the knock (the hand's knock, while there is one) was made with eleven cards, no discard: big gin.
        self.knocked_eleven = False
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
        #: The irregularities found at the table and their remedies; None until the first is recorded.
        self.table: AtTable | None = None

    # -- facts -----------------------------------------------------------------------

    def other(self, player: str) -> str:
        return self.players[1] if player == self.players[0] else self.players[0]

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def finishable(self) -> bool:
        """Whether the hand has ended, or needs only the defender's spread (which
        gincli can choose); never while a remedy is due."""
        return self.phase in (SPREAD, OVER) and (self.table is None or self.table.settled)

    def expecting(self) -> str:
        """What the player to act must do, in words."""
        if self.table is not None:
            text = self._table_expecting()
            if text:
                return text
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
        """A new hand, as this one was after its first ``moves`` moves."""
        deal = None if self.deck is not None else {**self.initial_hands, "upcard": self.upcard}
        hand = Hand(self.players, self.dealer, self.variant, self.rules, deck=self.deck, deal=deal)
        hand.number, hand.scores = self.number, self.scores
        illegal = self.table.illegal_at if self.table is not None else set()
        for i, move in enumerate(self.moves[:moves]):
            again = Move(move.player, move.action, move.source, move.card, move.melds, move.cards, move.fields)
            if i in illegal:
                try:
                    hand.apply(again)
                except IllegalMove as exc:
                    hand.knock_illegally(again, exc)
            else:
                hand.apply(again)
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
        action = move.action
        if phase == OVER and (action not in _TABLE_ACTIONS or self.knocker is None):
            raise IllegalMove("move-after-end", f"{player} moved after the hand was over")
        if player not in self.hands:
            raise IllegalMove("unknown-player", f"{quote(player)} is not a player of this hand")
        if self.table is not None and action in _ACTIONS and self._at_table(move):
            self.moves.append(move)
            self._played(move.shown() if self.movesets else move)
            return
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
            if action in _TABLE_ACTIONS:
                self._table_event(move)
                self.moves.append(move)
                return
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
        if self.table is not None and action == "draw":
            self._drew(move)
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
        if move.source == "exposed":
            raise IllegalMove("exposed-draw", f"{player} may not take an exposed card before the upcard is taken "
                                              "or refused")
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
            if move.source != "discard":
                raise IllegalMove("exposed-draw", f"{player} drew an exposed card, but no card is exposed")
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
            outcome, _ = check_knock(player, held, melds, self.variant, self.rules, self.upcard, eleven=card is None)
        except RecordError as exc:
            raise IllegalMove(exc.rule or "illegal-knock", exc.message) from None
        if card is not None:
            self.hands[player] = held
            self.pile.append(card)
            self.discarded[player].append(card)
        self.knocker = player
        self.knocked_eleven = card is None
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
        return self._finished(score_position(pos, self.variant, self.rules, table=self._table_hand()))

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
            if self.phase != SPREAD or not self.finishable:
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
        if action in _TABLE_ACTIONS or move.source == "exposed":
            try:
                self.apply(move)
            except IllegalMove:
                pass  # followed leniently: an irregularity out of place is passed over
            return True
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
                self.knocked_eleven = card is None
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

    # -- irregularities at the table (RULES.md; the rules: rulebook/irregular.py) -----

    def _state(self) -> AtTable:
        if self.table is None:
            self.table = AtTable()
        return self.table

    def right_count(self, player: str) -> int:
        """How many cards ``player`` should hold now: 10, or 11 between their draw
        and their discard; the knocker after the knock 10, or 11 for big gin."""
        if self.phase == DISCARD and self.to_act == player:
            return 11
        if player == self.knocker and self.phase in (SPREAD, OVER):
            return 11 if self.knocked_eleven else 10
        return 10

    def _wrong(self) -> set[str]:
        return {p for p in self.players if self.hands[p].bit_count() != self.right_count(p)}

    def _table_hand(self) -> TableHand | None:
        """What the end-of-hand rule reads of this hand: the wrong counts found
        (at the end, or going on uncorrected), the bonuses lost, a knock accepted."""
        t = self.table
        if t is None:
            return None
        wrong = {p: self.right_count(p) for p in self._wrong() if p in t.at_end or p in t.correcting}
        return TableHand(wrong, frozenset(t.no_bonus), t.accepted)

    def _table_expecting(self) -> str:
        t = self.table
        assert t is not None
        if t.due is not None:
            chooser = t.due.remedies.chooser
            return f"{chooser + ' to ' if chooser else ''}choose a remedy: {t.due.remedies.words()}"
        if t.illegal is not None:
            return "record the illegal knock (illegal-knock), or spread before it is found"
        return ""

    def _table_event(self, move: Move) -> None:
        """An irregularity found, or a remedy chosen (FORMATS.md "Irregularities")."""
        action, player = move.action, move.player
        t = self._state()
        if self.phase == OVER and action != "irregular-hand":
            raise IllegalMove("move-after-end", f"{player} moved after the hand was over")
        if t.illegal is not None and not t.illegal.found and action != "illegal-knock":
            raise self._unfound(t.illegal)
        if action == "irregular-hand":
            self._irregular_hand(move, t)
        elif action == "remedy":
            self._remedy(move, t)
        elif action == "illegal-knock":
            il = t.illegal
            if il is None or il.found:
                last = next((m for m in reversed(self.moves) if m.action != "layoff"), None)
                what = (f"{last.player}'s knock was legal" if last is not None and last.action == "knock"
                        and self.phase == SPREAD else "no knock awaits being found illegal here")
                raise IllegalMove("knock-not-illegal", f"{player} recorded an illegal knock, but {what}")
            if player != il.player:
                raise IllegalMove("knock-not-illegal", f"the knock was {il.player}'s: the illegal-knock move names "
                                                       f"{il.player}, the offender, not {player}")
            il.found = True
            opponent = self.other(il.player)
            remedies = illegal_knock_remedies(opponent, il.spread is not None, il.count_only)
            when = "after" if il.spread is not None else "before"
            t.due = Due(remedies, f"{il.player}'s knock was illegal ({il.fault.message}), found {when} {opponent} "
                                  "spread", "the knocker's opponent", "knock")
        else:
            self._seen(move, t)

    def _unfound(self, il: IllegalKnock) -> IllegalMove:
        """The fault of an illegal knock played on as if legal, never found."""
        return IllegalMove(il.fault.rule or "illegal-knock", il.fault.message)

    def _irregular_hand(self, move: Move, t: AtTable) -> None:
        player = move.player
        held = self.hands[player].bit_count()
        said = (move.fields or {}).get("cards")
        if said != held:
            raise IllegalMove("irregular-hand-count", f"the irregular hand says {player} holds {said} cards, but "
                                                      f"{player} holds {held}")
        right = self.right_count(player)
        if held == right:
            raise IllegalMove("irregular-hand-count", f"{player} holds {held} cards, the right number now")
        if t.due is not None and t.due.kind != "hand":
            raise IllegalMove("remedy-missing", f"{t.due.why}: {t.due.first()}")
        if self.phase in (SPREAD, OVER):  # found when the hand is over: the end-of-hand rule scores it
            if player in t.at_end or player in t.correcting:
                raise IllegalMove("irregular-hand-count", f"{player}'s count was recorded already")
            t.at_end.add(player)
            if self.phase == OVER:  # scored already: again, by the end-of-hand rule
                spread = next(m for m in reversed(self.moves) if m.action == "layoff")
                try:
                    self.result = self._score(spread.melds, spread.cards)
                except RecordError as exc:  # the other player's count is wrong too, and not recorded: refused
                    t.at_end.discard(player)
                    raise IllegalMove(exc.rule or "hand-size", exc.message) from None
            return
        if player in t.found or player in t.correcting:
            raise IllegalMove("irregular-hand-count", f"{player}'s count was recorded already")
        t.found[player] = any(m.player == player and m.action == "draw" for m in self.moves)
        wrong = self._wrong()
        remedies = wrong_hand_remedies(t.found, self.players, wrong)
        found = " and ".join(f"{p} holds {plural(self.hands[p].bit_count(), 'card')} (not {self.right_count(p)})"
                             for p in t.found)
        early = [p for p, drew in t.found.items() if not drew]
        if len(wrong) == 2:
            why = " and ".join(f"{p} holds {plural(self.hands[p].bit_count(), 'card')}" for p in self.players)
            why = f"both hands are wrong ({why})"
        else:
            why = f"{found}, found {'before' if early else 'after'} {(early or [player])[0]}'s first draw"
        t.due = Due(remedies, why, "whose hand is right", "hand")

    def _remedy(self, move: Move, t: AtTable) -> None:
        player, choice = move.player, (move.fields or {}).get("choice")
        due = t.due
        if due is None:
            raise IllegalMove("remedy-not-allowed", f"{player} chose the remedy {choice}, but no irregularity awaits "
                                                    "a remedy here")
        if choice not in due.remedies.choices:
            only = "only " if len(due.remedies.choices) == 1 else ""
            raise IllegalMove("remedy-not-allowed", f"{due.why}: the rules allow {only}{due.remedies.words()} "
                                                    f"there, not {choice}")
        chooser = due.remedies.chooser
        if chooser is not None and player != chooser:
            raise IllegalMove("remedy-wrong-player", f"{due.why}: the remedy is for {chooser} ({due.role}) to "
                                                     f"choose, not {player}")
        t.due = None
        if choice == REDEAL:
            t.found.clear()
            self.end(HandResult(VOID, None, 0, None, None, self.variant.name))
        elif due.kind == "hand":  # continue: each offender corrects the count on their own turns
            for p in t.found:
                t.correcting.add(p)
                t.bans[p] = KnockBan("correction")
            t.found.clear()
            p = self.to_act
            if self.phase == DISCARD and p in t.correcting and self.hands[p].bit_count() < 11:
                self._end_turn()  # short of cards after drawing: this turn's draw corrects, with no discard
        elif choice == ACCEPT:
            assert t.illegal is not None
            t.illegal, t.accepted = None, True
            self.knock_outcome = "knock"
        else:
            assert t.illegal is not None
            knocker = t.illegal.player
            if choice == CONTINUE:
                t.face_up[knocker] = f"until {self.other(knocker)}'s next turn is done"
            elif choice == PLAY_EXPOSED:
                t.face_up[knocker] = "for the rest of the hand"
            elif choice == PICK_UP:
                t.no_bonus.add(knocker)
            self._withdraw_knock(knocker, t)

    def _withdraw_knock(self, knocker: str, t: AtTable) -> None:
        """Play goes on after an illegal knock: its discard stays discarded, and the
        opponent's turn comes (the knocker discards first after a big gin knock)."""
        t.illegal = None
        eleven = self.knocked_eleven
        self.knocker = self.knock_melds = self.knock_outcome = None
        self.knocked_eleven = False
        self.to_act, self.phase, self.taken = knocker, DISCARD, -1
        if not eleven:
            self._end_turn()

    def _end_turn(self) -> None:
        """The player to act ends the turn without discarding (a correction, a
        knock taken back): the other's turn, or a dead hand after the wall's card."""
        self.taken = -1
        if self.wall_turn:
            self.phase = OVER
            self.result = self._finished(dead_hand(self.players, self.variant.name))
            return
        self.to_act, self.phase = self.other(self.to_act), DRAW

    def _seen(self, move: Move, t: AtTable) -> None:
        player, cards = move.player, move.cards or []
        in_turn = bool((move.fields or {}).get("in_turn"))
        if self.phase == SPREAD:
            raise IllegalMove("seen-turn", f"{player} saw cards after the knock, when nobody draws")
        if in_turn != (player == self.to_act):
            said = "in turn" if in_turn else "out of turn"
            raise IllegalMove("seen-turn", f"{player} saw cards {said}, but it is {self.to_act}'s turn")
        for c in cards:
            in_stock = c in self.stock if self.stock is not None else bool(self.unseen >> c & 1)
            if not in_stock or cards.count(c) > 1:
                raise IllegalMove("seen-cards", f"{player} saw {card_str(c)}, which is not in the stock"
                                  if not in_stock else f"{card_str(c)} is seen twice")
        for c in cards:
            if self.stock is not None:
                self.stock.remove(c)
            self.unseen &= ~(1 << c)
        self.stock_count -= len(cards)
        t.exposed.append(Exposed(list(cards), player, in_turn))
        before_draw = player == self.to_act and self.phase in (OFFER, DRAW)
        t.bans[player] = KnockBan("seen", 1 if before_draw else 0)

    def _at_table(self, move: Move) -> bool:
        """A rule book's move while irregularities are in play: refused where a
        remedy is due, a knock is banned or a correction is owed; played here when
        it is a correction or a draw of an exposed card (True), else left to
        :meth:`apply` (False)."""
        t = self.table
        assert t is not None
        player, action = move.player, move.action
        if t.due is not None:
            raise IllegalMove("remedy-missing", f"{t.due.why}: {t.due.first()}")
        il = t.illegal
        if il is not None:
            if action == "layoff" and player != il.player and il.spread is None and not move.cards:
                il.spread = move  # the opponent spreads before the illegal knock is found
                return True
            raise self._unfound(il)
        if player != self.to_act or self.phase not in (OFFER, DRAW, DISCARD):
            last = self.moves[-1] if self.moves else None
            if (player in t.correcting and action == "discard" and last is not None and last.player == player
                    and last.action == "draw"):
                raise IllegalMove("correction-expected", f"{player}'s draw corrected the count (a turn that only "
                                                         f"draws): {player} does not discard")
            return False  # the rule book's refusal, in its words
        held = self.hands[player].bit_count()
        correcting = player in t.correcting and held != 10 and self.phase == DRAW
        if correcting and (action == "draw") != (held < 10):
            how = "drawing without discarding" if held < 10 else "discarding without drawing"
            raise IllegalMove("correction-expected", f"{player} holds {held} cards and corrects the count by {how}, "
                                                     "one card a turn")
        if correcting and action == "discard":
            card = move.card
            assert card is not None
            self._check_discard(player, card)
            self.hands[player] &= ~(1 << card)
            self.pile.append(card)
            self.discarded[player].append(card)
            self.to_act, self.taken = self.other(player), -1
            return True
        if action == "draw" and move.source == "exposed":
            self._draw_exposed(move, t)
        elif correcting:
            self._draw(move)
        else:
            if action == "knock":
                self._check_ban(move, t)
            return False
        self._drew(move)
        if correcting:
            self._end_turn()  # a turn that only draws
        return True

    def _check_ban(self, move: Move, t: AtTable) -> None:
        ban = t.bans.get(move.player)
        if ban is None:
            return
        player, card = move.player, move.card
        if ban.why == "seen":
            held = self.hands[player] & ~(1 << card) if card is not None else self.hands[player]
            if self.rules.melds.deadwood(held) == 0:
                return  # gin may knock
            raise IllegalMove("knock-banned", f"{player} saw cards illegally and may not knock before their next "
                                              "turn, unless with gin")
        raise IllegalMove("knock-banned", f"{player} corrected a wrong number of cards and may not knock before "
                                          "their next turn after the correction")

    def _draw_exposed(self, move: Move, t: AtTable) -> None:
        player, card = move.player, move.card
        if self.phase != DRAW or self.must_draw_stock:
            raise IllegalMove("exposed-draw", f"{player} may not take an exposed card now: "
                                              f"{self.expecting()}")
        group = next((g for g in t.exposed if card in g.cards), None)
        if group is None or card is None:
            shown = card_str(card) if card is not None else "?"
            went = (" (exposed cards go under the top of the discard pile once both players have drawn from the "
                    "stock)" if card in self.pile else "")
            raise IllegalMove("exposed-draw", f"{player} drew {shown} as an exposed card, but it is not exposed{went}")
        if not group.may_take(player):
            if player == group.offender and not group.in_turn:
                why = f"{player} saw it drawing out of turn, and may never take it"
            elif player == group.offender and player not in group.drew:
                why = f"{self.other(player)} may take it until drawing from the stock; {player}'s right comes after"
            else:
                why = f"{player} has drawn from the stock since it was exposed"
            raise IllegalMove("exposed-draw", f"{player} may not take the exposed {card_str(card)}: {why}")
        group.cards.remove(card)
        if not group.cards:
            t.exposed.remove(group)
        self.hands[player] |= 1 << card
        self.took[player].append(card)
        self.taken, self.wall_turn, self.must_draw_stock, self.phase = -1, False, False, DISCARD

    def _drew(self, move: Move) -> None:
        """After a draw while irregularities are in play: a knock ban that ends
        with this turn's start, and the exposed cards' rights (a draw from the
        stock ends the drawer's; once both have drawn, the cards go under the top
        of the discard pile)."""
        t = self.table
        assert t is not None
        player = move.player
        ban = t.bans.get(player)
        if ban is not None:
            if ban.why == "seen":
                if ban.draws:
                    ban.draws -= 1
                else:
                    del t.bans[player]
            elif self.hands[player].bit_count() == 11:  # a turn begun with the count right
                del t.bans[player]
                t.correcting.discard(player)
        if move.source == "stock":
            for group in list(t.exposed):
                group.drew.add(player)
                if group.done:
                    under_top(self.pile, group.cards)
                    t.exposed.remove(group)

    def spread_unscored(self, move: Move, fault: IllegalMove) -> None:
        """The defender's spread (``move``) where a player holds a wrong number of
        cards (``fault``, ``hand-size``) that the ``irregular-hand`` moves after it
        record: the hand is over, and scored by the end-of-hand rule as they are."""
        if move.action != "layoff" or self.phase != SPREAD or move.player != self.to_act:
            raise fault
        self._state()
        self.phase = OVER
        self.moves.append(move)
        self._played(move.shown() if self.movesets else move)

    def knock_illegally(self, move: Move, fault: IllegalMove) -> None:
        """Play a knock the rules refuse (``fault``, an illegal knock's) as it was
        played at the table, to be found illegal by an ``illegal-knock`` move,
        before the opponent spreads or after (RULES.md); until then no other move
        is taken. :class:`IllegalMove` when it is no knock the player could make."""
        player, card = move.player, move.card
        if move.action != "knock" or self.phase != DISCARD or player != self.to_act:
            raise fault
        if card is not None:
            self._check_discard(player, card)
            self.hands[player] &= ~(1 << card)
            self.pile.append(card)
            self.discarded[player].append(card)
        t = self._state()
        t.illegal = IllegalKnock(player, fault, fault.rule in COUNT_ONLY)
        t.illegal_at.add(len(self.moves))
        self.knocker, self.knock_melds, self.knock_outcome = player, move.melds, None
        self.knocked_eleven = card is None
        self.phase, self.to_act = SPREAD, self.other(player)
        self.moves.append(move)
        self._played(move.shown() if self.movesets else move)

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
