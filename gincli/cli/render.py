"""Turning data into output: JSON for programs, rich renderings for people.

Rich is imported only when something is rendered for people, so that
``--format json`` starts fast.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from enum import Enum
from typing import Any

from ..rulebook.cards import RANKS, SUIT_SYMBOLS, parse_card
from ..base.errors import plural  # noqa: F401  (re-exported for the commands)
from ..base.jsonio import dumps


class OutputFormat(str, Enum):
    text = "text"
    json = "json"


class RowsFormat(str, Enum):
    """The formats of a command whose results are rows: CSV too (compare with ``== "json"``)."""

    text = "text"
    json = "json"
    csv = "csv"


def data() -> Any:
    """Standard output, where the data goes (:func:`gincli.cli.streams.data`)."""
    from .streams import data

    return data()


def write_data(text: str, json: bool = False) -> None:
    """Data on standard output; ``json``: JSON text, written as UTF-8 whatever the terminal's encoding."""
    out = data()
    if json and hasattr(out, "json_text"):
        out.json_text(text)
    else:
        out.write(text)


def write_json(obj: Any) -> None:
    """One JSON document on stdout (indented), always valid UTF-8."""
    write_data(dumps(obj, indent=2) + "\n", json=True)


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
        show(render(data))


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


#: How output for people is coloured (``gin --color``, config.COLOR_MODES): ``auto``
#: (on a terminal, unless NO_COLOR is set), ``always`` or ``never``.
_color = "auto"


def set_color(mode: str) -> None:
    """The ``--color`` choice, for every console made from now on."""
    global _color
    _color = mode


def color_mode() -> str:
    if _color == "auto" and os.environ.get("NO_COLOR"):
        return "never"
    return _color


def _console(file: Any) -> Any:
    """A console for people on ``file``: on a terminal, its width and colours;
    elsewhere (a file, a pipe) no colour and no wrapping (unless COLUMNS sets a width)."""
    from rich.console import Console

    terminal = _isatty(file)
    mode = color_mode()
    kwargs: dict[str, Any] = {"file": file, "highlight": False, "emoji": False}
    if mode == "always":
        kwargs["force_terminal"] = True
    elif mode == "never":
        kwargs["no_color"] = True
        if not terminal:
            kwargs["color_system"] = None
    if not terminal:
        columns = os.environ.get("COLUMNS", "")
        kwargs["width"] = int(columns) if columns.isdigit() and int(columns) > 0 else 10_000
    return Console(**kwargs)


def _isatty(file: Any) -> bool:
    try:
        return bool(file.isatty())
    except (AttributeError, ValueError):
        return False


def stdout_console() -> Any:
    return _console(data())


def stderr_console() -> Any:
    console = _console(sys.stderr)
    console.soft_wrap = True
    return console


def show(renderable: Any, console: Any = None) -> None:
    """Write something for people on stdout: as rich draws it on a terminal; in
    a file or a pipe as plain lines, with no padding left at their ends."""
    console = console or stdout_console()
    if console.is_terminal:
        console.print(renderable)
        return
    console.file.write(rendered(renderable, console))


def rendered(renderable: Any, console: Any = None, soft_wrap: bool = False) -> str:
    """What ``show`` writes in a file or a pipe: the lines, right-stripped."""
    console = console or stdout_console()
    with console.capture() as capture:
        console.print(renderable, soft_wrap=soft_wrap)
    return "".join(line.rstrip() + "\n" for line in capture.get().splitlines())


def cut(text: str, limit: int) -> str:
    """``text`` at most ``limit`` characters long, an ellipsis where it was cut."""
    return text if len(text) <= limit else text[:max(0, limit - 1)] + "…"


def bot_label(spec: str, limit: int = 16) -> str:
    """A bot for a column of a screen or a table: its spec, an external
    program by the name of its script or program (``exec:python3
    examples/bot.py`` is ``bot.py``), cut to ``limit`` characters."""
    if spec.startswith("exec:"):
        import shlex

        try:
            words = shlex.split(spec[5:])
        except ValueError:
            words = spec[5:].split()
        words = words or [spec]
        program = words[0]
        if _INTERPRETER.match(os.path.basename(program)):  # python3 bot.py, node bot.js, java -jar x.jar
            program = next((w for w in words[1:] if not w.startswith("-")), program)
        spec = os.path.basename(program.rstrip("/")) or program
    return cut(spec, limit)


_INTERPRETER = re.compile(r"(python[\d.]*|pypy[\d.]*|node|nodejs|deno|bun|java|ruby|perl|php|bash|sh|zsh|"
                          r"Rscript|julia|lua[\d.]*|dotnet|mono|uv|uvx|env|exec)$")


def player_label(name: str, spec: str | None = None, limit: int = 24) -> str:
    """``name (bot)``, or the name alone when the bot is called so, at most
    ``limit`` characters: what a screen's or a table's first column shows."""
    bot = bot_label(spec, max(6, limit // 2)) if spec is not None else None
    if bot is None or bot == name:
        return cut(name, limit)
    return f"{cut(name, limit - len(bot) - 3)} ({bot})"


_RED = (1, 2)  # hearts, diamonds


def card_label(card: int) -> str:
    """``10♥``, ``Q♠``: rank and suit symbol, as people write cards."""
    rank = RANKS[card % 13]
    return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card // 13]


def is_red(card: int) -> bool:
    return card // 13 in _RED


def card_style(card: int) -> str:
    """The rich style of a card: bold, red for hearts and diamonds."""
    return "bold red" if is_red(card) else "bold"


def card_markup(card: int | str) -> str:
    """A card as rich markup: rank and suit symbol, red for hearts and diamonds."""
    c = parse_card(card) if isinstance(card, str) else card
    return f"[{card_style(c)}]{card_label(c)}[/]"


def cards_markup(cards: Iterable[int | str], sep: str = " ") -> str:
    return sep.join(card_markup(c) for c in cards)


_CARD_TOKEN = re.compile(r"(?<![\w\"])(10|[2-9TJQKA])([shdc])(?![\w\"])")


def message_markup(message: str) -> str:
    """A message from the core (made safe for rich) with its card tokens
    (``Tc``) drawn as cards are everywhere else for people (``10♣``), so that a
    block shows one card style. Quoted input (``"Tc"``) is left as typed."""
    return _CARD_TOKEN.sub(lambda m: card_markup(m.group(1) + m.group(2)), safe(message))


#: Work shorter than this shows no progress bar at all.
BAR_DELAY = 1.0


@contextmanager
def progress_bar(description: str, total: float | None, enabled: bool = True, unit: str = "bytes",
                 streaming: bool = False, status: Any = None) -> Iterator[Any]:
    """A progress bar on stderr, for work that lasts (it appears after
    :data:`BAR_DELAY` seconds, whether or not any work is done by then) and
    clears itself when done. Yields a function ``advance(completed)`` taking the
    absolute amount done, in ``unit`` (bytes of input read, or items). None
    when stderr is not a terminal, nor when the command writes its output
    (``streaming``) to the same terminal: a bar would interleave with it.
    ``status()``, when given, is text shown beside the bar (a match's running
    score), asked at each advance. The time left is the time so far scaled by
    what is left, from the start (not from the pace of the last few updates,
    which chunks of work make jumpy)."""
    if not enabled or not _isatty(sys.stderr) or (streaming and _isatty(sys.stdout)):
        yield lambda completed: None
        return
    import threading

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns: list[Any] = [TextColumn("{task.description}"), BarColumn()]
    columns.append(TextColumn("{task.percentage:>3.0f}%") if unit == "bytes" else MofNCompleteColumn())
    columns += [TimeElapsedColumn(), TextColumn("eta"), _time_left_column()] if total else [TimeElapsedColumn()]
    if status is not None:
        columns.append(TextColumn("{task.fields[status]}"))
    progress = Progress(*columns, console=stderr_console(), transient=True)
    task = progress.add_task(description, total=total, status="")
    lock = threading.Lock()
    state = {"shown": False, "done": False}

    def show() -> None:
        with lock:
            if not state["shown"] and not state["done"]:
                progress.start()
                state["shown"] = True

    timer = threading.Timer(BAR_DELAY, show)
    timer.daemon = True
    timer.start()

    def advance(completed: float) -> None:
        progress.update(task, completed=completed, **({"status": status()} if status is not None else {}))

    try:
        yield advance
    finally:
        timer.cancel()
        with lock:
            state["done"] = True
            if state["shown"]:
                progress.stop()


def _time_left_column() -> Any:
    from rich.progress import ProgressColumn
    from rich.text import Text

    class TimeLeft(ProgressColumn):
        """The time left: the time so far, scaled by the share of the work still to do."""

        def render(self, task: Any) -> Any:
            if not task.total or not task.completed or task.elapsed is None:
                return Text("-:--:--", style="progress.remaining")
            left = task.elapsed * (task.total - task.completed) / task.completed
            left = int(max(0, left))
            return Text(f"{left // 3600}:{left % 3600 // 60:02d}:{left % 60:02d}", style="progress.remaining")

    return TimeLeft()


def stdin_notice(command: str, what: str, path: str) -> None:
    """Say so on stderr when ``-`` reads standard input from a terminal (else
    gincli seems to hang): what it waits for, and how to end it."""
    if path == "-" and _isatty(sys.stdin):
        print(f"{command}: reading {what} from standard input (a terminal); end with Ctrl-D", file=sys.stderr)
