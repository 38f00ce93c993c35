"""What ``gin play`` shows: the table from the player's seat, and each hand's end.

The table is drawn from the player's :class:`~gincli.hand.view.PlayerView` alone
(their cards and the public record of play), so nothing on screen can show a
card the seat may not know. It fits 80×24; a wider terminal also gets the
score pad beside it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..hand.view import PlayerView
from ..rulebook.cards import CARD_TABLE, by_suit, cards_of
from ..rulebook.meldrules import STANDARD, MeldSolver
from ..rulebook.melds import meld_info
from ..rulebook.scoring import sort_melds
from .render import card_label, card_style

WIDE = 110  # columns from which the score pad sits beside the table


def card_text(cards: Sequence[int], sep: str = " ") -> Any:
    """Cards as styled text (red hearts and diamonds)."""
    from rich.text import Text

    out = Text()
    for i, c in enumerate(cards):
        if i:
            out.append(sep)
        out.append(card_label(c), style=card_style(c))
    return out


def hand_order(hand: int, melds: MeldSolver = STANDARD) -> tuple[list[list[int]], int]:
    """A hand as people hold it: its best melds under the meld rules in force
    (each in its order: a run in sequence, round the corner too), then the
    deadwood cards by suit; and the deadwood count."""
    arr = melds.best_arrangement(hand)
    groups = [in_order(m) for m in sort_melds(arr.melds)]
    rest = by_suit(cards_of(arr.deadwood_mask))
    if rest:
        groups.append(rest)
    return groups, arr.deadwood


def numbered_hand(groups: list[list[int]], mark: int = -1) -> tuple[Any, Any, list[int]]:
    """Two lines, the cards and their positions (1-based, for discarding by
    number), melds set apart; ``mark`` (a card) is underlined. Returns the lines
    and the cards in position order."""
    from rich.text import Text

    cards_line, numbers = Text(), Text()
    order: list[int] = []
    for gi, group in enumerate(groups):
        if gi:
            cards_line.append("  ")
            numbers.append("  ")
        for c in group:
            order.append(c)
            cards_line.append(" ")
            style = card_style(c) + (" underline" if c == mark else "")
            cards_line.append(card_label(c).rjust(3), style=style)
            numbers.append(f"{len(order):>4}", style="dim")
    return cards_line, numbers, order


@dataclass
class TableInfo:
    """What the table shows besides the seat's view."""

    title: str
    me_label: str
    opponent_label: str
    score_line: str
    pad: Any = None  # the score pad, shown beside the table on wide screens
    log: list[str] = field(default_factory=list)
    prompt: str = ""
    drawn: int = -1  # the card the player just drew, underlined


def knock_text(view: PlayerView) -> str:
    if view.knock_limit == 0:
        return "gin only (no knocking with deadwood)"
    cap = view.rules.get("knock_limit_cap", "off")
    why = (" (the upcard" + (f", at most {cap}" if cap != "off" else "") + ")"
           if view.rules["knock_limit"] == "upcard" else "")
    return f"knock limit {view.knock_limit}{why}"


def in_order(meld: int) -> list[int]:
    """A meld's cards in the order they are written (K A 2 round the corner)."""
    return [CARD_TABLE[n] for n in meld_info(meld).names]


def best_discard(view: PlayerView) -> tuple[int, int] | None:
    """(deadwood, card) of the discard leaving the least deadwood (ties: the
    highest card), or None before drawing."""
    if view.phase != "discard":
        return None
    best = None
    melds = view.melds
    for c in cards_of(view.hand):
        if c == view.taken:
            continue
        key = (melds.deadwood(view.hand & ~(1 << c)), -melds.card_value(c), -c)
        if best is None or key < best[0]:
            best = (key, c)
    assert best is not None
    return best[0][0], best[1]


def render_table(view: PlayerView, info: TableInfo, width: int) -> tuple[Any, list[int]]:
    """The table from the seat of ``view.me``; returns it and the player's cards
    in position order."""
    from rich.console import Group
    from rich.rule import Rule
    from rich.table import Table
    from rich.text import Text

    groups, dw = hand_order(view.hand, view.melds)
    cards_line, numbers, order = numbered_hand(groups, info.drawn if info.drawn >= 0 else view.taken)
    held = len(order)
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column()
    took = Text("10 cards")  # at this seat's turn the opponent has discarded
    if view.opponent_took:
        took.append(" · took from the pile: ")
        took.append_text(card_text(view.opponent_took))
    grid.add_row(info.opponent_label, took)
    grid.add_row("", "")
    pile = Text()
    if view.discard_pile:
        pile.append_text(card_text([view.discard_pile[-1]]))
        pile.append(" on top")
        below = list(reversed(view.discard_pile[:-1]))[:6]
        if below:
            pile.append(" · then ", style="dim")
            pile.append_text(card_text(below))
            if len(view.discard_pile) > 7:
                pile.append(" …", style="dim")
    else:
        pile.append("empty", style="dim")
    grid.add_row("discards", pile)
    grid.add_row("stock", Text(f"{view.stock_count} cards · {knock_text(view)}"))
    for ms in getattr(view.rules, "movesets", ()):  # doubling's stake, and any plugin's
        status = ms.status(view)
        if status:
            grid.add_row(ms.name, Text(status, style="magenta"))
    grid.add_row("", "")
    grid.add_row(info.me_label, cards_line)
    grid.add_row("", numbers)
    status = f"deadwood {dw}" + (f" with {held} cards" if held == 11 else "")
    best = best_discard(view)
    if best is not None and best[0] <= view.knock_limit and view.allows(view.knock(best[1])):
        status += " · you can " + ("go gin" if best[0] == 0 else "knock") + " (k)"
    grid.add_row("", Text(status, style="cyan"))
    grid.add_row("", "")
    grid.add_row("score", Text(info.score_line))
    main = Group(Text.from_markup(info.title), Rule(style="dim"), grid, Rule(style="dim"),
                 *(Text.from_markup(line) for line in info.log[-4:]), Text.from_markup(info.prompt))
    if width >= WIDE and info.pad is not None:
        layout = Table.grid(padding=(0, 3))
        layout.add_column(width=min(80, width - 36))
        layout.add_column()
        layout.add_row(main, info.pad)
        return layout, order
    return main, order
