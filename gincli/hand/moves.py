"""Moves: what a player does, as transcripts record it (FORMATS.md "Moves"),
and the error for a move the rules forbid."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..base.errors import RecordError, quote
from ..rulebook.cards import CARD_NAMES, CARD_TABLE, parse_card, parse_cards
from ..rulebook.irregular import REMEDIES

ACTIONS = ("pass", "draw", "discard", "knock", "layoff")
#: What a transcript records of an irregularity found at the table and its remedy (FORMATS.md,
#: "Irregularities"): events, not plays; a bot never makes one.
TABLE_ACTIONS = ("irregular-hand", "seen", "illegal-knock", "remedy")
#: Where a draw may come from: the stock, the discard pile, or the cards exposed after one was seen illegally.
SOURCES = ("stock", "discard", "exposed")


class IllegalMove(RecordError):
    """A move the rules forbid; ``rule`` is its stable id (docs/validate.md)."""

    def __init__(self, rule: str, message: str):
        super().__init__(message, rule=rule)


@dataclass(slots=True)
class Move:
    """One move of a transcript (FORMATS.md "Moves").

    ``source`` is where a draw comes from (``stock`` or ``discard``); ``card``
    the card drawn, discarded, or discarded face down by a knock (``None`` for
    big gin, or a draw whose card is implied by a known deck); ``melds`` a
    knocker's or defender's spread (card masks, ``None``: gincli chooses);
    ``cards`` the defender's layoffs (``None``: gincli chooses); ``fields``
    the fields of a move a plugin adds (:class:`~gincli.hand.moveset.MoveSet`),
    beyond ``player`` and ``action``.
    """

    player: str
    action: str
    source: str | None = None
    card: int | None = None
    melds: list[int] | None = None
    cards: list[int] | None = None
    fields: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"player": self.player, "action": self.action}
        if self.fields:
            d.update(self.fields)
        if self.source is not None:
            d["from"] = self.source
        if self.card is not None:
            d["card"] = CARD_NAMES[self.card]
        if self.melds is not None:
            from ..rulebook.scoring import meld_strs, sort_melds

            d["melds"] = [meld_strs(m) for m in sort_melds(self.melds)]
        if self.cards is not None:
            d["cards"] = [CARD_NAMES[c] for c in self.cards]
        return d

    def shown(self) -> Move:
        """This move as a move set is shown it (``forbids``, ``check``, ``apply``,
        ``played``): the same fields wherever the move comes from, a bot, ``gin
        play``, a transcript replayed by ``gin validate`` or the API. A rule
        book's move is what the player chose, as ``view.legal()`` offers it: a
        draw names where from, not the card (a stock card is the drawer's
        secret; the pile's top is ``view.discard_top``); a knock its face-down
        discard, not the spread; the defender's spread only who spreads. A move
        set's own move has its data in ``fields``, as a transcript writes it."""
        action = self.action
        if action == "draw":
            return Move(self.player, action, self.source)
        if action in ("discard", "knock"):
            return Move(self.player, action, None, self.card)
        if action in ("pass", "layoff"):
            return Move(self.player, action)
        if self.source is None and self.card is None and self.melds is None and self.cards is None:
            return Move(self.player, action, fields=dict(self.fields) if self.fields else None)
        d = self.to_dict()
        del d["player"], d["action"]
        return Move(self.player, action, fields=d or None)

    @classmethod
    def from_dict(cls, d: Any) -> Move:
        """Read a transcript move; :class:`IllegalMove` (``malformed-move`` or
        ``unknown-card``) when it cannot be read."""
        if type(d) is dict:  # the common moves, well formed and nothing more: read at once
            action = d.get("action")
            player = d.get("player")
            if type(player) is str:
                n = len(d)
                if action == "discard" or action == "draw":
                    token = d.get("card")
                    card = CARD_TABLE.get(token) if type(token) is str else None
                    if action == "discard":
                        if n == 3 and card is not None:
                            return cls(player, action, None, card)
                    else:
                        source = d.get("from")
                        if source == "stock" or source == "discard":
                            if n == 4 and card is not None:
                                return cls(player, action, source, card)
                            if n == 3:
                                return cls(player, action, source)
                elif action == "pass" and n == 2:
                    return cls(player, action)
            # anything else, the long way below, which gives each error its words
        if not isinstance(d, dict):
            raise IllegalMove("malformed-move", "a move must be an object with \"player\" and \"action\"")
        player, action = d.get("player"), d.get("action")
        if not isinstance(player, str):
            raise IllegalMove("malformed-move", "a move needs a \"player\" (a name)")
        if not isinstance(action, str) or not action:
            raise IllegalMove("malformed-move", "a move needs an \"action\" (a name)")
        if action in TABLE_ACTIONS:
            return cls._table_event(player, action, d)
        if action not in ACTIONS:  # a plugin's move: the engine knows whether it is one here
            fields = {k: v for k, v in d.items() if k not in ("player", "action")}
            return cls(player, action, fields=fields or None)
        source = d.get("from")
        if action == "draw" and source not in SOURCES:
            raise IllegalMove("malformed-move", "a draw needs \"from\": \"stock\" or \"discard\" (or \"exposed\", "
                                                "a card exposed after it was seen illegally)")
        if source == "exposed" and d.get("card") is None:
            raise IllegalMove("malformed-move", "a draw of an exposed card names its \"card\"")
        try:
            card = parse_card(d["card"]) if d.get("card") is not None else None
            melds = None
            if d.get("melds") is not None:
                if not isinstance(d["melds"], list):
                    raise IllegalMove("malformed-move", "\"melds\" must be a list of melds (lists of cards)")
                from ..rulebook.scoring import check_meld

                melds = [check_meld(parse_cards(m, "a meld"), player) for m in d["melds"]]
            cards = None
            if d.get("cards") is not None:
                cards = parse_cards(d["cards"], "\"cards\"")
        except IllegalMove:
            raise
        except RecordError as exc:
            raise IllegalMove(exc.rule or "malformed-move", exc.message) from None
        if action == "discard" and card is None:
            raise IllegalMove("malformed-move", "a discard needs its \"card\"")
        return cls(player, action, source if action == "draw" else None, card, melds, cards)

    @classmethod
    def _table_event(cls, player: str, action: str, d: dict[str, Any]) -> Move:
        """An irregularity or a remedy (FORMATS.md): its fields checked for form."""
        if action == "irregular-hand":
            count = d.get("cards")
            if type(count) is not int or count < 0:
                raise IllegalMove("malformed-move", f"an irregular-hand move gives \"cards\", the number of cards "
                                                    f"{player} holds, not {quote(count)}")
            return cls(player, action, fields={"cards": count})
        if action == "seen":
            in_turn = d.get("in_turn")
            if not isinstance(in_turn, bool):
                raise IllegalMove("malformed-move", "a seen move says whether the player was drawing in turn: "
                                                    f"\"in_turn\" true or false, not {quote(in_turn)}")
            if not isinstance(d.get("cards"), list) or not d["cards"]:
                raise IllegalMove("malformed-move", "a seen move lists the \"cards\" seen")
            try:
                cards = parse_cards(d["cards"], "\"cards\"")
            except RecordError as exc:
                raise IllegalMove(exc.rule or "malformed-move", exc.message) from None
            return cls(player, action, cards=cards, fields={"in_turn": in_turn})
        if action == "remedy":
            choice = d.get("choice")
            if choice not in REMEDIES:
                raise IllegalMove("malformed-move", f"a remedy's \"choice\" is one of {', '.join(REMEDIES)}, "
                                                    f"not {quote(choice)}")
            return cls(player, action, fields={"choice": choice})
        return cls(player, action)
