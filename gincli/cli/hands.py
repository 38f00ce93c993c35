"""One hand's result for people: both spreads, the layoffs, and where the points
come from (deadwood, bonuses, multiplier). ``gin score`` and ``gin play`` show
hands this way."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from ..rulebook.cards import by_rank, cards_of
from ..rulebook.irregular import IRREGULAR, VOID
from ..rulebook.scoring import HandResult, meld_cards_in_order, meld_strs, sort_melds
from .render import cards_markup, safe


def _namer(markup: bool) -> Any:
    return safe if markup else (lambda t: safe(t, markup=False))


def headline(result: HandResult, markup: bool = True) -> str:
    """What happened, in a few words, as rich markup (or plain text): "ann knocks
    and wins 15"."""
    name = _namer(markup)
    w, p = name(result.winner), result.points
    return {
        "knock": f"{w} knocks and wins {p}",
        "undercut": f"{w} undercuts and wins {p}",
        "gin": f"{w} goes gin and wins {p}",
        "big_gin": f"{w} goes big gin and wins {p}",
        "dead": "dead hand: nobody scores",
        "gin_tied": f"{name(result.knocker.name if result.knocker else None)}'s gin is tied: nobody scores",
        "forfeit": f"{name((result.forfeit or {}).get('player'))} forfeits: {w} wins {p}",
        VOID: "redeal: the hand is void",
        IRREGULAR: "irregular hand: nobody scores",
    }.get(result.outcome, f"{name(result.outcome).replace('_', ' ')}: {w} wins {p}")


def explain(result: HandResult, multiplied_because: str | None = None, movesets: Iterable[Any] = (),
            markup: bool = True) -> str:
    """Where a hand's points come from, as arithmetic in words (rich markup, or
    plain text): "bob has 21 after laying off, ann knocked with 6: 21 − 6 = 15".
    A move set explains the outcomes it adds (a declined double)."""
    name = _namer(markup)
    for ms in movesets:
        if result.outcome in ms.outcomes:
            text = ms.explain(result)
            if text:
                return name(text)
    if result.outcome == "dead":
        return "nobody knocked before the wall: nobody scores, and the same dealer deals again"
    if result.outcome == VOID:
        return "a wrong number of cards found at the table: the hand is void, and the same dealer deals again"
    counts = (result.fields or {}).get("irregular_hands") or {}
    if result.outcome == IRREGULAR:
        many = " and ".join(f"{name(p)} holds {n} cards" for p, n in counts.items() if n > 10)
        return (f"{many}, and a player holding too many cards may not win the hand: nobody scores it, and the "
                "same dealer deals again")
    short = [f"{name(p)} holds {n} cards" for p, n in counts.items() if n < 10]
    if short:  # the end-of-hand rule, then the arithmetic on the counts it makes
        return (f"{' and '.join(short)}: the count takes the penalty for each missing card (irregular_hand_penalty), "
                "and a player short of cards gets no gin or undercut bonus; "
                + _arithmetic(result, multiplied_because, name))
    return _arithmetic(result, multiplied_because, name)


def _arithmetic(result: HandResult, multiplied_because: str | None, name: Any) -> str:
    """Where a hand's points come from, the spreads' counts and the bonuses."""
    k, d = result.knocker, result.defender
    if result.outcome == "gin_tied" and d is not None:
        return (f"{name(d.name)} laid off onto the gin and has no deadwood left (layoff_on_gin): the hand is "
                "tied, nobody scores")
    if result.outcome == "forfeit":
        return f"{name(result.winner)} wins the forfeiter's deadwood plus the gin bonus: {result.points}"
    if k is None or d is None:
        return f"{name(result.winner)} wins {result.points}"
    kn, dn = name(k.name), name(d.name)
    m = result.multiplier or 1
    base = result.points // m

    def total(sum_: str) -> str:
        if m == 1:
            return f"{sum_} = {result.points}"
        why = f" ({multiplied_because})" if multiplied_because else ""
        return f"({sum_}) × {m}{why} = {result.points}"

    laid = " after laying off" if d.layoffs else ""
    if result.outcome in ("gin", "big_gin"):
        what = "gin" if result.outcome == "gin" else "big gin"
        bonus = base - d.deadwood
        return f"{kn} went {what}: " + total(f"{d.deadwood} ({dn}'s deadwood{laid}) + {bonus} ({what} bonus)")
    if result.outcome == "knock":
        return f"{dn} has {d.deadwood}{laid}, {kn} knocked with {k.deadwood}: " + total(
            f"{d.deadwood} − {k.deadwood}")
    bonus = base - (k.deadwood - d.deadwood)  # undercut
    than = "as little as" if d.deadwood == k.deadwood else "less than"
    return (f"{dn} has {d.deadwood}{laid}, {than} {kn}'s {k.deadwood}: undercut, "
            + total(f"{k.deadwood} − {d.deadwood} + {bonus} (undercut bonus)"))


def render_result(result: HandResult, title: str | None = None, explained: bool = False,
                  multiplied_because: str | None = None, movesets: Iterable[Any] = ()) -> Any:
    """A hand's score for people: a headline and a table of both spreads (and,
    with ``explained``, a line saying where the points come from)."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    if title is None:
        ident = f"{safe(result.id)} · " if result.id is not None else ""
        title = f"[bold]{ident}{safe(result.variant)}[/] — {headline(result)}"
    head = Text.from_markup(title)
    note = Text.from_markup(explain(result, multiplied_because, movesets), style="dim") if explained else None
    if result.knocker is None or result.defender is None:
        return Group(head, note) if note is not None else head
    table = Table(title=head, title_justify="left", show_edge=False, pad_edge=False, box=None,
                  padding=(0, 2))
    table.add_column("player", style="bold")
    table.add_column("melds")
    table.add_column("laid off")
    table.add_column("deadwood cards")
    table.add_column("deadwood", justify="right")
    for role, spread in (("knocker", result.knocker), ("defender", result.defender)):
        melds = "\n".join(cards_markup(meld_strs(m)) for m in sort_melds(spread.melds)) or "—"
        laid = cards_markup(spread.layoffs) if spread.layoffs else "—"
        dead = cards_markup(by_rank(cards_of(spread.deadwood_mask))) or "—"
        table.add_row(f"{safe(spread.name)} ({role})", melds, laid if role == "defender" else "", dead,
                      str(spread.deadwood))
    return Group(table, note) if note is not None else table


# -- the same, as plain text: fast enough for a million records ---------------------------------------

_BOLD, _DIM, _RED, _OFF = "\x1b[1m", "\x1b[2m", "\x1b[31m", "\x1b[0m"


def _labels(colour: bool) -> tuple[str, ...]:
    from .render import card_label, is_red

    out = []
    for c in range(52):
        label = card_label(c)
        out.append((f"{_BOLD}{_RED}{label}{_OFF}" if is_red(c) else f"{_BOLD}{label}{_OFF}") if colour
                   else label)
    return tuple(out)


_LABELS: dict[bool, tuple[str, ...]] = {}


def hand_text(result: HandResult, colour: bool = False, movesets: Iterable[Any] = ()) -> str:
    """A hand's score for people as plain lines (ANSI colours when ``colour``):
    the headline, each spread (melds, layoffs, deadwood) and where the points
    come from. What ``gin score`` writes for people, a record at a time."""
    labels = _LABELS.get(colour) or _LABELS.setdefault(colour, _labels(colour))

    def cards(cs: Iterable[int]) -> str:
        return " ".join(labels[c] for c in cs)

    bold = (lambda t: f"{_BOLD}{t}{_OFF}") if colour else (lambda t: t)
    dim = (lambda t: f"{_DIM}{t}{_OFF}") if colour else (lambda t: t)
    ident = f"{safe(result.id, markup=False)} · " if result.id is not None else ""
    lines = [bold(f"{ident}{safe(result.variant, markup=False)}") + f" — {headline(result, markup=False)}"]
    spreads = [(role, spread) for role, spread in (("knocker", result.knocker), ("defender", result.defender))
               if spread is not None]
    width = max((len(safe(spread.name, markup=False)) + len(role) for role, spread in spreads), default=0) + 3
    for role, spread in spreads:
        who = safe(spread.name, markup=False)
        parts = ["  ".join(cards(meld_cards_in_order(m)) for m in sort_melds(spread.melds)) or "no melds"]
        if role == "defender" and spread.layoffs:
            parts.append("laid off " + cards(spread.layoffs))
        dead = cards(by_rank(cards_of(spread.deadwood_mask)))
        parts.append(f"deadwood {dead + ' ' if dead else ''}= {spread.deadwood}")
        lines.append(f"  {bold(who)} ({role}){' ' * (width - len(who) - len(role))}" + " · ".join(parts))
    stake = (result.fields or {}).get("multiplier", 1)
    why = "spade doubling" if result.multiplier != stake else ("the stake" if stake != 1 else None)
    lines.append("  " + dim(explain(result, why, movesets, markup=False)))
    return "\n".join(lines) + "\n"
