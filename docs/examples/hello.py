# file: hello.py
import typer

from gincli import hookimpl
from gincli.errors import UsageError


def odds(
    card: str = typer.Argument(..., help="A card, like 7h."),
    held: int = typer.Option(10, help="How many cards are held."),
):
    """The chance that a card is in the opponent's hand, knowing nothing else."""
    from gincli.cards import card_str, parse_card

    if not 1 <= held <= 11:
        raise UsageError(f"--held must be from 1 to 11, not {held}")
    unseen = 52 - held - 1  # the upcard is seen
    print(f"{card_str(parse_card(card))}: {10 / unseen:.1%} in the opponent's hand")


@hookimpl
def gincli_register_commands(register):
    register(odds)
