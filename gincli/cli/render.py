"""Turning data into output: JSON for programs, rich renderings for people.

Rich is imported only when something is rendered for people, so that
``--format json`` starts fast.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from enum import Enum
from typing import Any

from ..cards import RANKS, SUIT_SYMBOLS, parse_card
from ..formats.jsonio import dumps


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


def write_json(obj: Any) -> None:
    """One JSON document on stdout (indented), always valid UTF-8."""
    sys.stdout.write(dumps(obj, indent=2) + "\n")


#: Characters never written to a terminal as they are: C0 (newline and tab
#: too, inside one-line messages), DEL, C1, and lone surrogates.
_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
_NAMED = {"\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _visible(m: re.Match[str]) -> str:
    c = m.group()
    return _NAMED.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")


def safe(text: object, markup: bool = True) -> str:
    """Text from input (ids, names, file names, messages quoting input) fit to
    show people: control characters and lone surrogates become visible escapes
    (``\\x1b``, ``\\n``) and, unless ``markup=False`` (plain text, not given to
    rich as markup), rich markup is escaped (``[/]`` shows as itself)."""
    try:
        s = text if isinstance(text, str) else str(text)
    except RecursionError:
        s = f"a deeply nested {type(text).__name__}"
    if _CONTROL.search(s):
        s = _CONTROL.sub(_visible, s)
    if markup:
        from rich.markup import escape

        s = escape(s)
    return s


def emit(format: OutputFormat, data: Any, render: Any) -> None:
    """Write ``data``: as JSON for programs, or ``render(data)`` for people."""
    if format is OutputFormat.json:
        write_json(data)
    else:
        stdout_console().print(render(data))


def listing(title: str, first: str, rows: Iterable[tuple[str, ...]], *columns: str,
            markup: tuple[str, ...] = ()) -> Any:
    """A table listing what is loaded: a name column, then ``columns``. Cells are
    plain text (shown safely), but those of the columns named in ``markup``."""
    from rich.table import Table

    table = Table(title=title, title_justify="left", show_lines=True)
    table.add_column(first, style="bold cyan", no_wrap=True)
    for col in columns:
        table.add_column(col, style="dim" if col == "from" else None, overflow="fold",
                         no_wrap=col == "hooks")  # hook names read best whole
    is_markup = [False] + [col in markup for col in columns]
    for row in rows:
        table.add_row(*(cell if m else safe(cell) for cell, m in zip(row, is_markup)))
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
