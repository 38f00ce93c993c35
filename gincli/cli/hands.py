"""One hand's result for people: both spreads, the layoffs, and where the points
come from (deadwood, bonuses, multiplier). ``gin score`` and ``gin play`` show
hands this way."""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable
from typing import Any

from ..rulebook.cards import CARD_LABELS, by_rank, cards_of
from ..rulebook.irregular import IRREGULAR, VOID
from ..rulebook.melds import meld_info
from ..rulebook.scoring import HandResult, meld_cards_in_order, meld_strs, sort_melds
from .render import cards_markup, safe


def _namer(markup: bool) -> Any:
    return safe if markup else plain_name


#: Names as :func:`safe` shows them in plain text, by name: a run's few
#: players come again and again (bounded: names are input).
_PLAIN_NAMES: dict[str, str] = {}


def plain_name(text: object) -> str:
    """``safe(text, markup=False)``, remembered for a name (a string)."""
    if type(text) is not str:
        return safe(text, markup=False)
    found = _PLAIN_NAMES.get(text)
    if found is None:
        found = safe(text, markup=False)
        if len(_PLAIN_NAMES) < 4096:
            _PLAIN_NAMES[text] = found
    return found


#: The headline of the outcomes that say only who won and how: what comes between the two.
_WINS = {"knock": "knocks and wins", "undercut": "undercuts and wins", "gin": "goes gin and wins",
         "big_gin": "goes big gin and wins"}


def headline(result: HandResult, markup: bool = True) -> str:
    """What happened, in a few words, as rich markup (or plain text): "ann knocks
    and wins 15"."""
    name = _namer(markup)
    outcome, p = result.outcome, result.points
    wins = _WINS.get(outcome)
    if wins is not None:
        return f"{name(result.winner)} {wins} {p}"
    if outcome == "dead":
        return "dead hand: nobody scores"
    if outcome == "gin_tied":
        return f"{name(result.knocker.name if result.knocker else None)}'s gin is tied: nobody scores"
    if outcome == VOID:
        return "redeal: the hand is void"
    if outcome == IRREGULAR:
        return "irregular hand: nobody scores"
    if outcome == "forfeit":
        return f"{name((result.forfeit or {}).get('player'))} forfeits: {name(result.winner)} wins {p}"
    return f"{name(outcome).replace('_', ' ')}: {name(result.winner)} wins {p}"


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
    return _sums(result.outcome, result.points, result.multiplier or 1, name(k.name), name(d.name), k.deadwood,
                 d.deadwood, bool(d.layoffs), multiplied_because)


def _sums(outcome: str, points: int, m: int, kn: str, dn: str, k_dw: int, d_dw: int, laid_off: bool,
          multiplied_because: str | None) -> str:
    """A knock's or gin's points, the arithmetic in words, from the knocker's and
    the defender's names (as shown) and deadwoods, and the multiplier ``m``."""
    laid = " after laying off" if laid_off else ""
    if outcome == "knock":
        said, sum_ = f"{dn} has {d_dw}{laid}, {kn} knocked with {k_dw}: ", f"{d_dw} − {k_dw}"
    elif outcome in ("gin", "big_gin"):
        what = "gin" if outcome == "gin" else "big gin"
        said, sum_ = f"{kn} went {what}: ", f"{d_dw} ({dn}'s deadwood{laid}) + {points // m - d_dw} ({what} bonus)"
    else:  # undercut
        than = "as little as" if d_dw == k_dw else "less than"
        said = f"{dn} has {d_dw}{laid}, {than} {kn}'s {k_dw}: undercut, "
        sum_ = f"{k_dw} − {d_dw} + {points // m - (k_dw - d_dw)} (undercut bonus)"
    if m == 1:
        return f"{said}{sum_} = {points}"
    why = f" ({multiplied_because})" if multiplied_because else ""
    return f"{said}({sum_}) × {m}{why} = {points}"


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
    """Each card as drawn: the rule book's labels, in bold (hearts and diamonds red) with ``colour``."""
    if not colour:
        return CARD_LABELS
    from .render import is_red

    return tuple(f"{_BOLD}{_RED}{label}{_OFF}" if is_red(c) else f"{_BOLD}{label}{_OFF}"
                 for c, label in enumerate(CARD_LABELS))


_LABELS: dict[bool, tuple[str, ...]] = {}
#: Each meld's place in the written order and its cards as drawn, by colour, then by meld.
_MELDS: dict[bool, dict[int, tuple[tuple[int, int], str]]] = {False: {}, True: {}}
#: A few cards as drawn by rank, by colour, then by mask.
_FEW: dict[bool, dict[int, str]] = {False: {}, True: {}}


def hand_text(result: HandResult, colour: bool = False, movesets: Iterable[Any] = ()) -> str:
    """A hand's score for people as plain lines (ANSI colours when ``colour``):
    the headline, each spread (melds, layoffs, deadwood) and where the points
    come from. What ``gin score`` writes for people, a record at a time."""
    labels = _LABELS.get(colour) or _LABELS.setdefault(colour, _labels(colour))
    ident = f"{safe(result.id, markup=False)} · " if result.id is not None else ""
    title = f"{ident}{plain_name(result.variant)}"
    lines = [(f"{_BOLD}{title}{_OFF}" if colour else title) + f" — {headline(result, markup=False)}"]
    spreads = [(role, spread) for role, spread in (("knocker", result.knocker), ("defender", result.defender))
               if spread is not None]
    names = [plain_name(spread.name) for _, spread in spreads]
    width = max([len(who) + len(role) for who, (role, _) in zip(names, spreads, strict=True)], default=0) + 3
    for who, (role, spread) in zip(names, spreads, strict=True):
        melds = "  ".join([t for _, t in sorted([_meld_text(m, colour, labels) for m in spread.melds])])
        laid = (" ".join([labels[c] for c in spread.layoffs]) if role == "defender" and spread.layoffs else "")
        dead = _by_rank_text(spread.deadwood_mask, colour, labels)
        lines.append(_spread_line(who, f"{_BOLD}{who}{_OFF}" if colour else who, role, width, melds, laid, dead,
                                  spread.deadwood))
    stake = (result.fields or {}).get("multiplier", 1)
    why = "spade doubling" if result.multiplier != stake else ("the stake" if stake != 1 else None)
    said = explain(result, why, movesets, markup=False)
    lines.append(f"  {_DIM}{said}{_OFF}" if colour else "  " + said)
    return "\n".join(lines) + "\n"


def _spread_line(who: str, shown: str, role: str, width: int, melds: str, laid: str, dead: str,
                 deadwood: int) -> str:
    """A spread's line: who (``shown``, as drawn), the role, the melds, what was
    laid off, the deadwood cards and their count; ``width`` sets the melds' column."""
    return _spread_head(who, shown, role, width) + _spread_cards(melds, laid, dead, deadwood)


def _spread_head(who: str, shown: str, role: str, width: int) -> str:
    return f"  {shown} ({role}){' ' * (width - len(who) - len(role))}"


def _spread_cards(melds: str, laid: str, dead: str, deadwood: int) -> str:
    return (f"{melds or 'no melds'}{' · laid off ' + laid if laid else ''} · deadwood {dead + ' ' if dead else ''}"
            f"= {deadwood}")


def knock_text_lane(scorer: Any) -> Callable[[bytes], tuple[str, str, str, int, str, str] | None]:
    """``gin score``'s hot path for people, without colours: a JSON Lines record
    of a plain knock or gin, read raw (:meth:`~gincli.formats.records.HandScorer.plain_line`),
    straight to :func:`hand_text`'s text, the cards drawn by the rule book's
    compiled scorer (``knock_labels``); with the outcome, the winner, the points
    and the knocker and the defender. None for any other record (a dead hand, an
    error): :func:`hand_text` of its result then, the same text."""
    from ..rulebook.scoring import knock_labels

    seated: dict[tuple[str, str, str], tuple[str, str, str, str, str]] = {}  # the few pairs of a run, bounded
    sums: dict[tuple[Any, ...], str] = {}

    def pair(knocker: str, defender: str, variant: str) -> tuple[str, str, str, str, str]:
        kn, dn = plain_name(knocker), plain_name(defender)
        width = max(len(kn) + 7, len(dn) + 8) + 3
        found = (kn, dn, plain_name(variant), _spread_head(kn, kn, "knocker", width),
                 _spread_head(dn, dn, "defender", width))
        if len(seated) < 4096:
            seated[knocker, defender, variant] = found
        return found

    def text(p0: str, p1: str, m0: int, m1: int, knocker: str | None, upcard: int | None, variant: Any,
             rules: Any, ident: Any) -> tuple[str, str, str, int, str, str] | None:
        settled = knock_labels(p0, p1, m0, m1, knocker, upcard, variant, rules)
        if settled is None or knocker is None:
            return None
        outcome, knocker_wins, points, multiplier, defender, (k_dw, d_dw, k_melds, k_dead, d_melds, laid,
                                                              d_dead) = settled
        kn, dn, name, k_head, d_head = (seated.get((knocker, defender, variant.name))
                                        or pair(knocker, defender, variant.name))
        key = (outcome, points, multiplier, kn, dn, k_dw, d_dw, bool(laid))
        said = sums.get(key)
        if said is None:  # a run's sums come again and again: remembered (bounded)
            said = _sums(*key, "spade doubling" if multiplier != 1 else None)
            if len(sums) < 65536:
                sums[key] = said
        if ident is not None:  # safe() changes no printable string (no control characters, no lone surrogates)
            name = f"{ident if type(ident) is str and ident.isprintable() else safe(ident, markup=False)} · {name}"
        return (f"{name} — "
                f"{kn if knocker_wins else dn} {_WINS[outcome]} {points}\n"
                f"{k_head}{_spread_cards(k_melds, '', k_dead, k_dw)}\n"
                f"{d_head}{_spread_cards(d_melds, laid, d_dead, d_dw)}\n"
                f"  {said}\n", outcome, knocker if knocker_wins else defender, points, knocker, defender)

    return functools.partial(scorer.plain_line, make=text)


def _meld_text(meld: int, colour: bool, labels: tuple[str, ...]) -> tuple[tuple[int, int], str]:
    """A meld's place in the written order, and its cards as drawn."""
    found = _MELDS[colour].get(meld)
    if found is None:
        found = _MELDS[colour][meld] = (meld_info(meld).key,
                                        " ".join([labels[c] for c in meld_cards_in_order(meld)]))
    return found


def _by_rank_text(mask: int, colour: bool, labels: tuple[str, ...]) -> str:
    """Cards by rank, as drawn; the few a knocker keeps as deadwood, remembered (bounded)."""
    few = mask.bit_count() <= 3
    if few:
        found = _FEW[colour].get(mask)
        if found is not None:
            return found
    text = " ".join([labels[c] for c in by_rank(cards_of(mask))])
    if few and len(_FEW[colour]) < 4096:
        _FEW[colour][mask] = text
    return text
