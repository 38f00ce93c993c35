"""``gin play --record A,B``: a scorer records a game played at another table.

The scorer enters both players' moves as they are made, each hand's deal as it
was dealt (a wrong number of cards too), and the irregularities the table found
with the remedies it chose (RULES.md, "Irregularities at the table"). The hand
engine checks every entry as ``gin validate`` would, and the transcript is saved
after each one.
"""

from __future__ import annotations

from typing import Any

from ..base.errors import plural
from ..formats.store import SavedTranscript
from ..hand.engine import DISCARD, DRAW, OFFER, SPREAD, Hand
from ..hand.moves import IllegalMove, Move
from ..rulebook.cards import card_str
from ..rulebook.irregular import ILLEGAL_KNOCK_RULES, REMEDIES
from ..sessions.table import Table
from .prompt import Quit, Reject, Screen, describe, read_card, read_meld
from .render import safe

HELP = ("moves of the player to act: p (pass the upcard), s CARD (draw CARD from the stock), d (take the discard), "
        "x CARD (take an exposed card), CARD (discard), k CARD [MELD…] (knock); after a knock, Enter lets gincli "
        "spread for the defender\n"
        "irregularities: irregular NAME N (NAME holds N cards), seen NAME CARD… [out] (cards seen, drawing out of "
        "turn with out), illegal (the knock just refused was found illegal; illegal spread: after the defender "
        "spread), remedy CHOICE [NAME] (redeal, continue, accept, play-exposed, pick-up) · u undo · q quit")


def read_cards(text: str) -> list[int]:
    """Cards typed with spaces between them (``7h 8h 10♥``)."""
    return [read_card(token) for token in text.split()]


class Scorer:
    """A session recorded at another table: the scorer's entries, hand by hand."""

    def __init__(self, table: Table, screen: Screen, file: SavedTranscript, options: dict[str, Any]):
        self.table, self.screen, self.file, self.options = table, screen, file, options
        self.refused: Move | None = None  # a knock the rules refused, which the table may find illegal
        self.refused_fault = IllegalMove("knock-over-limit", "")  # its refusal
        self.log: list[str] = []

    def save(self) -> None:
        self.file.save(self.table.transcript(id=self.file.path.stem, options=self.options, current=True))

    def ask(self, prompt: str) -> str:
        line = self.screen.ask(prompt)
        if line is None or line.strip().lower() in ("q", "quit"):
            raise Quit()
        return line

    def run(self) -> None:
        table = self.table
        while not table.finished:
            hand = self.deal()
            self.save()
            while not hand.over:
                self.entry(hand)
                hand = table.hand or hand
                self.save()
            result = table.end_hand(hand)
            self.save()
            from .hands import render_result

            self.screen.show(render_result(result, explained=True), clear=False)

    def deal(self) -> Hand:
        """The next hand as it was dealt: each player's cards, then the upcard."""
        table = self.table
        seat = table.seating
        self.screen.say(f"hand {len(table.results) + 1}: {safe(seat.dealer)} deals")
        while True:
            try:
                deal: dict[str, Any] = {p: sum(1 << c for c in read_cards(self.ask(f"{p}'s cards: ")))
                                        for p in seat.players}
                up = read_cards(self.ask("the upcard: "))
                if len(up) != 1:
                    raise Reject("the upcard is one card")
                deal["upcard"] = up[0]
                a, b = seat.players
                if deal[a] & deal[b] or (deal[a] | deal[b]) >> up[0] & 1:
                    raise Reject("a card is dealt twice")
                hand = Hand(seat.players, seat.dealer, table.variant, table.rules, deal=deal)
            except Reject as exc:
                self.screen.say(f"[yellow]{safe(exc)}[/]; the deal again")
                continue
            hand.number = len(table.results)
            hand.scores = table.session.scores_so_far()
            table.hand = hand
            return hand

    def entry(self, hand: Hand) -> None:
        """One line of the scorer's: a move, an irregularity or a remedy, played
        through the hand engine; a refusal is said, and nothing is lost."""
        counts = " · ".join(f"{safe(p)} {plural(hand.hands[p].bit_count(), 'card')}" for p in hand.players)
        top = card_str(hand.pile[-1]) if hand.pile else "none"
        shown = [f"discard {top} · stock {hand.stock_count} · {counts}"]
        if hand.table is not None and hand.table.exposed:
            shown.append("exposed " + " ".join(card_str(c) for g in hand.table.exposed for c in g.cards))
        expecting = "Enter: gincli spreads for the defender" if hand.phase == SPREAD else hand.expecting()
        shown.append(f"{safe(hand.to_act)}: {expecting}")
        self.screen.say("\n".join(shown))
        line = self.ask("> ").strip()
        try:
            if line in ("?", "help"):
                self.screen.say(HELP)
                return
            if line in ("u", "undo"):
                if hand.moves:
                    self.table.hand = hand.rewound(len(hand.moves) - 1)
                    self.screen.say(f"taken back: {describe(hand.moves[-1], '')}")
                return
            move: Move | None = None
            move, illegal = self.parse(line, hand)
            if illegal:
                assert self.refused is not None
                hand.knock_illegally(self.refused, self.refused_fault)
                if move is not None:  # found after the defender spread
                    hand.apply(move)
                hand.apply(Move(self.refused.player, "illegal-knock"))
                self.refused = None
                return
            assert move is not None
            self.refused = None
            hand.apply(move)
            self.screen.say(describe(move, ""))
        except Reject as exc:
            self.screen.say(f"[yellow]{safe(exc)}[/]")
        except IllegalMove as exc:
            if exc.rule in ILLEGAL_KNOCK_RULES and move is not None and move.action == "knock":
                self.refused, self.refused_fault = move, exc
                self.screen.say(f"[yellow]{safe(exc.message)}[/]: if the table found this knock illegal, type "
                                "illegal (or illegal spread, found after the defender spread)")
            else:
                self.screen.say(f"[yellow]{safe(exc.message)}[/]")

    def parse(self, line: str, hand: Hand) -> tuple[Move | None, bool]:
        """The move a line enters, and whether it finds the refused knock illegal."""
        words = line.split()
        player = hand.to_act
        if not words:
            if hand.phase == SPREAD:
                return Move(player, "layoff"), False
            raise Reject("type a move, or ? for what to type")
        head = words[0].lower()
        if head == "illegal":
            if self.refused is None:
                raise Reject("no knock was refused: illegal records a knock the rules refused as found illegal")
            spread = Move(hand.other(self.refused.player), "layoff", cards=[]) if words[1:] == ["spread"] else None
            return spread, True
        if head == "irregular" and len(words) == 3 and words[2].isdigit():
            return Move(words[1], "irregular-hand", fields={"cards": int(words[2])}), False
        if head == "seen" and len(words) >= 3:
            out = words[-1].lower() == "out"
            cards = read_cards(" ".join(words[2:-1] if out else words[2:]))
            return Move(words[1], "seen", cards=cards, fields={"in_turn": not out}), False
        if head == "remedy" and len(words) in (2, 3):
            if words[1] not in REMEDIES:
                raise Reject(f"the remedies are {', '.join(REMEDIES)}")
            due = hand.table.due if hand.table is not None else None
            chooser = words[2] if len(words) == 3 else (due.remedies.chooser if due is not None else None)
            return Move(chooser or player, "remedy", fields={"choice": words[1]}), False
        if hand.phase == OFFER and head in ("p", "pass"):
            return Move(player, "pass"), False
        if head in ("d", "take"):
            return Move(player, "draw", "discard"), False
        if head in ("s", "x") and len(words) == 2:
            return Move(player, "draw", "stock" if head == "s" else "exposed", read_card(words[1])), False
        if head in ("k", "knock") and len(words) >= 2:
            knock = Move(player, "knock", card=read_card(words[1]))
            if len(words) > 2:
                knock.melds = [read_meld(t, player) for t in words[2:]]
            return knock, False
        if len(words) == 1 and hand.phase in (DISCARD, DRAW):
            return Move(player, "discard", card=read_card(words[0])), False
        raise Reject(f"\"{safe(line, markup=False)}\" is not understood: ? for what to type")

