"""Turning data into output: JSON for programs, rich renderings for people.

Rich is imported only when something is rendered for people, so that
``--format json`` starts fast.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from enum import Enum
from typing import Any

from ..cards import RANKS, SUIT_SYMBOLS, parse_card


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


def write_json_line(obj: Any) -> None:
    """One JSON object on one line of stdout."""
    sys.stdout.write(json.dumps(obj, ensure_ascii=False) + "\n")


def write_json(obj: Any) -> None:
    sys.stdout.write(json.dumps(obj, ensure_ascii=False, indent=2) + "\n")


def emit(format: OutputFormat, data: Any, render: Any) -> None:
    """Write ``data``: as JSON for programs, or ``render(data)`` for people."""
    if format is OutputFormat.json:
        write_json(data)
    else:
        stdout_console().print(render(data))


def listing(title: str, first: str, rows: Iterable[tuple[str, ...]], *columns: str) -> Any:
    """A table listing what is loaded: a name column, then ``columns``."""
    from rich.table import Table

    table = Table(title=title, title_justify="left", show_lines=True)
    table.add_column(first, style="bold cyan", no_wrap=True)
    for col in columns:
        table.add_column(col, style="dim" if col == "from" else None, overflow="fold",
                         no_wrap=col == "hooks")  # hook names read best whole
    for row in rows:
        table.add_row(*row)
    return table


def stdout_console() -> Any:
    from rich.console import Console

    return Console(file=sys.stdout, highlight=False, soft_wrap=False)


def stderr_console() -> Any:
    from rich.console import Console

    return Console(file=sys.stderr, highlight=False, soft_wrap=True)


_RED = (1, 2)  # hearts, diamonds


def card_markup(card: int | str) -> str:
    """A card as rich markup: rank and suit symbol, red for hearts and diamonds."""
    c = parse_card(card) if isinstance(card, str) else card
    rank = RANKS[c % 13]
    text = ("10" if rank == "T" else rank) + SUIT_SYMBOLS[c // 13]
    return f"[bold red]{text}[/]" if c // 13 in _RED else f"[bold]{text}[/]"


def cards_markup(cards: Iterable[int | str], sep: str = " ") -> str:
    return sep.join(card_markup(c) for c in cards)


@contextmanager
def progress_bar(description: str, total: float | None, enabled: bool = True,
                 unit: str = "bytes") -> Iterator[Any]:
    """A progress bar on stderr (only when stderr is a terminal); yields a
    function ``advance(completed)`` taking the absolute amount done, in
    ``unit`` (bytes of input read, or items)."""
    if not enabled or not sys.stderr.isatty():
        yield lambda completed: None
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns: list[Any] = [TextColumn("{task.description}"), BarColumn()]
    columns.append(TextColumn("{task.percentage:>3.0f}%") if unit == "bytes" else MofNCompleteColumn())
    columns.append(TimeElapsedColumn())
    with Progress(*columns, console=stderr_console(), transient=True) as progress:
        task = progress.add_task(description, total=total)
        yield lambda completed: progress.update(task, completed=completed)
