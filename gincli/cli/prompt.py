"""What gin play's screen shows and reads: cards and melds as people type them,
a move in words, the screen itself (a terminal, or a pipe), and the input that
is not a move now (:class:`Reject`) or ends the session (:class:`Quit`)."""

from __future__ import annotations

import re
from typing import IO, Any

from ..base.errors import RecordError
from ..hand.moves import Move
from ..hand.view import PlayerView
from ..rulebook.cards import CARD_TABLE
from ..rulebook.meldrules import STANDARD
from ..rulebook.scoring import check_meld
from .render import card_markup, cards_markup, rendered, safe, terminal_width


class Reject(Exception):
    """Input that is not a move now: one sentence, then the prompt again."""


_CARD = re.compile(r"(10|[2-9tjqka])\s*([shdc♠♥♦♣])", re.I)


def read_card(token: str) -> int:
    """A card as a person types it: ``7h``, ``7H``, ``10♥``, ``th``, ``T♥``."""
    m = _CARD.fullmatch(token.strip())
    if m is None:
        raise Reject(f"\"{token}\" is not a card: cards are written like 7h, 10♥ or Qs")
    rank = m.group(1).upper()
    return CARD_TABLE[("T" if rank == "10" else rank) + m.group(2).lower()]


def read_meld(token: str, me: str, view: PlayerView | None = None) -> int:
    """A meld typed as its cards, joined or with - , + between them: ``7s7h7d``, ``4h-5h-6h``."""
    text = re.sub(r"[-,+/]", "", token)
    found = list(_CARD.finditer(text))
    if not found or "".join(m.group(0) for m in found) != text:
        raise Reject(f"\"{token}\" is not a meld: write its cards together, like 7s7h7d or 4h-5h-6h")
    try:
        return check_meld([read_card(m.group(0)) for m in found], me, view.melds if view is not None else STANDARD)
    except RecordError as exc:
        raise Reject(exc.message.replace(f"{me}'s meld", "the meld")) from None


def describe(move: Move, me: str) -> str:
    """A move in words, as the player ``me`` may know it (never a card drawn by
    the opponent from the stock)."""
    you = move.player == me
    who = "you" if you else safe(move.player)
    s = "" if you else "s"
    if move.action == "pass":
        return f"{who} pass{'es' if s else ''} on the upcard"
    if move.action == "draw":
        if move.source == "discard":
            return f"{who} take{s} {card_markup(move.card)} from the discard pile" if move.card is not None \
                else f"{who} take{s} the top of the discard pile"
        return f"you draw {card_markup(move.card)} from the stock" if you and move.card is not None \
            else f"{who} draw{s} from the stock"
    if move.action == "discard":
        assert move.card is not None, "a discard played names its card (Hand.apply refuses one that does not)"
        return f"{who} discard{s} {card_markup(move.card)}"
    if move.action == "knock":
        return f"{who} knock{s}" if move.card is not None else f"{who} go{'es' if s else ''} big gin"
    if move.action == "layoff":
        return f"{who} spread{s}"
    fields = move.fields or {}
    if move.action == "irregular-hand":  # what a scorer records of a table (gin play --record)
        return f"{who} hold{s} {fields.get('cards')} cards: a wrong number"
    if move.action == "seen":
        return f"{who} saw {cards_markup(move.cards or [])}, now exposed"
    if move.action == "illegal-knock":
        return f"{who} knocked illegally"
    if move.action == "remedy":
        return f"{who} choose{s} the remedy {fields.get('choice')}"
    return f"{who} {safe(move.action)}{s}"  # a move set's move: "bob doubles", "you accept"


class Screen:
    """Where the game is shown and moves come from: a terminal (redrawn, in
    colour) or a pipe (plain text, moves read line by line)."""

    def __init__(self, out: IO[str], source: IO[str], interactive: bool):
        from rich.console import Console

        self.interactive = interactive
        self.source = source
        if interactive:
            self.console = Console(file=out, highlight=False, force_terminal=True, emoji=False)
            try:
                import readline  # noqa: F401  (line editing and history at the prompt)
            except ImportError:
                pass
        else:  # the table is drawn for 80 columns
            self.console = Console(file=out, highlight=False, color_system=None, emoji=False, width=80)
        #: Lines of text (:meth:`say`) are wrapped at spaces to a terminal's width, never inside a word;
        #: in a file or a pipe they are never wrapped (a path stays whole, to copy; a line, to grep).
        self.text_console: Any = None
        columns = terminal_width(out) if not interactive else None
        if columns:
            self.text_console = Console(file=out, highlight=False, color_system=None, emoji=False, width=columns)

    @property
    def width(self) -> int:
        return self.console.size.width

    def rows(self, taken: int) -> int | None:
        """How many entries of a score pad fit on a terminal whose other
        content takes ``taken`` lines (no limit through a pipe)."""
        return max(3, self.console.size.height - taken) if self.interactive else None

    def show(self, renderable: Any, clear: bool = True, soft_wrap: bool = False) -> None:
        if self.interactive:
            if clear:
                self.console.clear()
            self.console.print(renderable, soft_wrap=soft_wrap)
            return
        self.console.file.write(rendered(renderable, self.console, soft_wrap))  # no padding at the ends of lines
        self.console.file.flush()

    def say(self, markup: str) -> None:
        """A line of text: in a terminal, wrapped at spaces to its width (a
        word, a path, is never cut, unless it is wider than the terminal);
        in a file or a pipe, never wrapped."""
        if self.interactive:
            self.console.print(markup, soft_wrap=False)  # rich wraps at spaces, to the terminal's width
        elif self.text_console is not None:
            self.console.file.write(rendered(markup, self.text_console))
            self.console.file.flush()
        else:
            self.show(markup, clear=False, soft_wrap=True)

    def ask(self, prompt: str = "> ") -> str | None:
        """A line of input; None at the end of input."""
        if self.interactive:
            try:
                return self.console.input(prompt)
            except EOFError:
                return None
        line = self.source.readline()
        if not line:
            return None
        line = line.rstrip("\r\n")
        self.console.print(f"{prompt}{line}", markup=False)
        return line


class Quit(Exception):
    pass


