"""``gin deal``: a reproducible, seeded deal that starts a transcript."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any

import typer

from ..base.jsonio import dumps
from ..formats.transcripts import to_toml
from ..hand.engine import Hand
from ..rulebook.cards import by_suit, cards_of
from ..work.deal import deal_table, deal_transcript, parse_players  # noqa: F401  (gin play's and gin match's too)
from . import complete
from .base import guard, settings
from .options import OptionOpt, SeedOpt, overrides_from
from .render import cards_markup, safe, show, write_data

HELP = """Deal one hand, reproducibly: the same seed gives the same deal on every machine.

Writes a transcript (docs/formats.md) holding the shuffled deck and the deal, ready for moves: a picture of the deal
for people, or --format json / toml for programs. Without --dealer the players cut for the deal (the higher card
deals; spades rank highest). Without --seed a random seed is chosen and recorded in the transcript.
"""


class DealFormat(str, Enum):
    text = "text"
    json = "json"
    toml = "toml"


def register(app: typer.Typer) -> None:
    app.command("deal", help=HELP)(guard(deal))


def deal(
    ctx: typer.Context,
    seed: SeedOpt = None,
    players: Annotated[str, typer.Option("--players", metavar="A,B[,C,D]",
                                         help="The players: two, or as many as the scoring system seats.")]
    = "ann,bob",
    dealer: Annotated[str | None, typer.Option("--dealer", metavar="NAME",
                                               show_default="cut for it", help="Who deals.")] = None,
    variant: Annotated[str, typer.Option("--variant", metavar="NAME|FILE.toml", autocompletion=complete.variants,
                                         help="Variant of play.")] = "standard",
    scoring: Annotated[str, typer.Option("--scoring", "-s", metavar="NAME", autocompletion=complete.scoring_systems,
                                         help="Scoring system.")] = "game",
    option: OptionOpt = None,
    id: Annotated[str | None, typer.Option("--id", help="The transcript's id.")] = None,
    format: Annotated[DealFormat, typer.Option("--format", "-f",
                                               help="text for people; json or toml for programs.")]
    = DealFormat.text,
) -> None:
    names = parse_players(players)
    hand, doc = deal_transcript(settings(ctx).registry(), names, seed=seed, dealer=dealer, variant=variant,
                                scoring=scoring, overrides=overrides_from(option), id=id)
    if format is DealFormat.json:
        write_data(dumps(doc) + "\n", json=True)
    elif format is DealFormat.toml:
        write_data(to_toml(doc))
    else:
        show(render_deal(hand, doc))


def render_deal(hand: Hand, doc: dict[str, Any]) -> Any:
    """A deal for people: both hands sorted by suit, the upcard, the stock."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    head = f"[bold]{safe(doc['variant'])}[/] · seed {doc['seed']} · {safe(hand.dealer)} deals"
    if "cut" in doc:
        head += " (cut: " + ", ".join(f"{safe(p)} {cards_markup([c])}" for p, c in doc["cut"].items()) + ")"
    table = Table(show_header=False, box=None, padding=(0, 2))
    table.add_column(style="bold")
    table.add_column()
    for p in (hand.pone, hand.dealer):
        table.add_row(safe(p), cards_markup(by_suit(cards_of(hand.hands[p]))))
    out = [p for p in doc["players"] if p not in hand.players]
    if out:
        table.add_row("sitting out", ", ".join(safe(p) for p in out))
    table.add_row("upcard", cards_markup([hand.upcard]))
    table.add_row("stock", f"{hand.stock_count} cards")
    note = Text.from_markup(f"[dim]{safe(hand.pone)} may take the upcard or pass first.[/]")
    return Group(Text.from_markup(head), table, note)
