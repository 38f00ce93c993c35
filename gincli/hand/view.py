"""What a seat may legally know: the only thing a bot ever sees.

A :class:`PlayerView` is built by the hand engine for one player out of its
public record of play and that player's own cards; it holds no reference to
the engine, the other hand or the stock, so a bot cannot see them by
construction. Cards are ints (``gincli.rulebook.cards``), a hand a 52-bit mask.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..rulebook.cards import cards_of
from ..rulebook.meldrules import STANDARD, MeldSolver
from ..rulebook.rules import Rules
from .moves import ACTIONS, IllegalMove, Move


@dataclass(frozen=True, slots=True)
class PlayerView:
    """One seat's view of a hand, at its turn to move.

    ``phase`` is ``offer`` (take the first upcard or pass), ``draw`` (from the
    stock or the discard pile) or ``discard`` (discard, or knock). ``hand`` is
    this player's cards (a mask). The public record: ``upcard`` (the hand's
    first upcard), ``discard_pile`` (bottom first, as it lies now),
    ``stock_count``, ``passes`` (who refused the first upcard), the cards each
    player took from the pile (``my_took``, ``opponent_took``) and discarded
    (``my_discards``, ``opponent_discards``), in order. ``taken`` is the card
    this player took from the pile this turn (it may not be discarded), or -1.
    ``scores`` are the session's scores so far (public, as on the score pad).
    ``extensions`` holds the public state of each move set in play, by its
    name (``extensions["doubling"]["multiplier"]``). ``melds`` are the meld
    rules in force (``view.melds.deadwood(mask)``, ``card_value(card)``,
    ``best_arrangement(mask)``...): a bot that reckons with them plays any
    variant's melds. ``refusal(move)`` says whether a move set's ``check()``
    refuses a move now (the hand answers: a check sees the whole hand).
    """

    me: str
    opponent: str
    dealer: str
    phase: str
    hand: int
    upcard: int
    discard_pile: tuple[int, ...]
    stock_count: int
    passes: tuple[str, ...]
    my_took: tuple[int, ...]
    opponent_took: tuple[int, ...]
    my_discards: tuple[int, ...]
    opponent_discards: tuple[int, ...]
    taken: int
    must_draw_stock: bool
    knock_limit: int
    big_gin: bool
    rules: Rules
    scores: dict[str, Any]
    hand_number: int
    extensions: dict[str, Any] = field(default_factory=dict)
    #: For the player to act, while a move set in play has a ``check()``: the move set
    #: that refuses a rule book's move now and its refusal
    #: (:class:`~gincli.hand.moves.IllegalMove`), or None; :meth:`legal` never offers
    #: a move it refuses. The hand answers it (a check sees the whole hand); the view
    #: never shows the hand.
    refusal: Callable[[Move], tuple[Any, IllegalMove] | None] | None = None

    @property
    def melds(self) -> MeldSolver:
        """The meld rules in force (:class:`gincli.rulebook.meldrules.MeldSolver`)."""
        return getattr(self.rules, "melds", STANDARD)

    @property
    def discard_top(self) -> int | None:
        return self.discard_pile[-1] if self.discard_pile else None

    @property
    def cards(self) -> list[int]:
        """My cards, in deck order."""
        return cards_of(self.hand)

    # -- the moves a bot returns ---------------------------------------------------------

    def pass_(self) -> Move:
        """Refuse the first upcard."""
        return Move(self.me, "pass")

    def take(self) -> Move:
        """Take the top of the discard pile (the first upcard, on the first turn)."""
        return Move(self.me, "draw", "discard")

    def draw_stock(self) -> Move:
        return Move(self.me, "draw", "stock")

    def discard(self, card: int) -> Move:
        return Move(self.me, "discard", card=card)

    def knock(self, card: int | None) -> Move:
        """Knock (or go gin) discarding ``card`` face down; ``None`` for big gin.
        gincli spreads the best melds (FORMATS.md's choice rule)."""
        return Move(self.me, "knock", card=card)

    def legal(self) -> list[Move]:
        """Every legal move (knocks included only where the deadwood allows), the
        moves of the move sets in play included, and none that one of them
        forbids (``MoveSet.forbids``) or refuses (``MoveSet.check``: ``refused``);
        while one of them waits for this player's answer, only its moves."""
        extra: list[Move] = []
        movesets = getattr(self.rules, "movesets", ())
        for ms in movesets:
            if ms.checked_answer_due(self):
                return ms.checked_legal(self)
            extra += ms.checked_legal(self)
        standard = self._standard()
        refusal = self.refusal
        if refusal is not None and standard:
            allowed = [m for m in standard if refusal(m) is None]
            if not allowed and not extra:
                ms, _ = refusal(standard[0]) or (None, None)
                raise self._stuck(ms, "check() refused")
            standard = allowed
        for ms in movesets:
            if ms.restricts and standard:
                allowed = [m for m in standard if ms.checked_forbids(self, m) is None]
                if not allowed and not extra and self.phase in ("offer", "draw", "discard"):
                    raise self._stuck(ms, "forbids() forbade")
                standard = allowed
        return standard + extra

    def _stuck(self, ms: Any, did: str) -> Exception:
        """The fault of a move set that left the player to act no move."""
        from ..base.contract import PluginFault, plugin_of

        return PluginFault(f"plugin \"{plugin_of(ms)}\": the move set {ms.name}'s {did} every move {self.me} may "
                           "make now, but a hand must go on")

    def allows(self, move: Move) -> bool:
        """Whether no move set in play forbids (``MoveSet.forbids``) or refuses
        (``MoveSet.check``) the standard move ``move`` now; the rule book's own
        rules are not asked."""
        move = move.shown()
        if self.refusal is not None and move.action in ACTIONS and self.refusal(move) is not None:
            return False  # check() is asked of the rule book's moves alone
        for ms in getattr(self.rules, "movesets", ()):
            if ms.restricts and ms.checked_forbids(self, move) is not None:
                return False
        return True

    def _standard(self) -> list[Move]:
        flags, discards, knocks = standard_choices(
            self.phase, self.hand, self.taken, self.knock_limit, self.big_gin, self.must_draw_stock,
            bool(self.discard_pile), self.stock_count, self.melds)
        me = self.me
        moves = []
        if flags & MAY_PASS:
            moves.append(Move(me, "pass"))
        if flags & MAY_TAKE:
            moves.append(Move(me, "draw", "discard"))
        if flags & MAY_DRAW_STOCK:
            moves.append(Move(me, "draw", "stock"))
        for c in cards_of(discards):
            moves.append(Move(me, "discard", None, c))
            if knocks >> c & 1:
                moves.append(Move(me, "knock", None, c))
        if flags & MAY_GO_BIG_GIN:
            moves.append(Move(me, "knock"))
        return moves


#: The bits of :func:`standard_choices`'s first answer: the moves that name no card of the hand.
MAY_PASS, MAY_TAKE, MAY_DRAW_STOCK, MAY_GO_BIG_GIN = 1, 2, 4, 8


def standard_choices(phase: str, held: int, taken: int, knock_limit: int, big_gin: bool, must_draw_stock: bool,
                     pile: bool, stock_count: int, melds: MeldSolver) -> tuple[int, int, int]:
    """The rule book's moves of the player to act (RULES.md "Play", "Going
    out"), as masks: which of pass, take the discard, draw from the stock and
    big gin it may make (the ``MAY_*`` bits), the cards it may discard, and
    those of them it may knock with (its deadwood then within ``knock_limit``).
    ``held`` is its hand, ``taken`` the card it took from the pile this turn (or
    -1), ``pile`` whether the discard pile holds a card. The one place these
    rules live: :meth:`PlayerView.legal` and the environments' masks read them."""
    if phase == "offer":
        return MAY_PASS | MAY_TAKE, 0, 0
    if phase == "draw":
        return (MAY_TAKE if pile and not must_draw_stock else 0) | (MAY_DRAW_STOCK if stock_count > 2 else 0), 0, 0
    deadwood = melds.deadwood
    values = melds.values
    discards = held & ~(1 << taken) if taken >= 0 else held
    # Laying a card aside lowers the least deadwood by at most its value: most
    # discards need no solving to know they are no knock.
    whole = deadwood(held)
    knocks = 0
    rest = discards
    while rest:
        low = rest & -rest
        rest ^= low
        if whole - values[low.bit_length() - 1] <= knock_limit and deadwood(held ^ low) <= knock_limit:
            knocks |= low
    return (MAY_GO_BIG_GIN if big_gin and whole == 0 else 0), discards, knocks
