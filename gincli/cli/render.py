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

from ..base.errors import plural  # noqa: F401  (re-exported for the commands)
from ..base.jsonio import dumps
from ..rulebook.cards import CARD_LABELS, parse_card


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


def write_utf8(*chunks: bytes) -> None:
    """Data on standard output already encoded as UTF-8 (when :func:`utf8_output`)."""
    data().utf8(*chunks)


def utf8_output(json: bool = False) -> bool:
    """Whether standard output takes bytes and is UTF-8 (with ``json``, whatever
    its encoding): what is written may then be encoded in the workers."""
    from .streams import utf8_output

    return utf8_output(json)


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
    if markup and ("[" in s or s.endswith("\\")):  # else escaping changes nothing: rich is not loaded for it
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
        table.add_row(*(cell if m else safe(cell) for cell, m in zip(row, is_markup, strict=True)))
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
    """A console for people on stderr: on a terminal, lines wrap at spaces to
    its width; elsewhere they are never wrapped (whatever COLUMNS says)."""
    console = _console(sys.stderr)
    console.soft_wrap = not console.is_terminal
    return console


def say(line: str, indent: int = 2) -> None:
    """A line for people on stderr (a command's closing line: ``gin match: 4
    sessions; ...``), plain text. On a terminal it is wrapped at spaces to the
    terminal's width, never inside a word, each further line indented by
    ``indent`` more than the first; elsewhere (a file, a pipe) it stays one line."""
    print(wrap_words(line, terminal_width(sys.stderr), indent), file=sys.stderr)


def terminal_width(file: Any) -> int | None:
    """The width of the terminal ``file`` is, or None when it is none."""
    if not _isatty(file):
        return None
    try:
        return os.get_terminal_size(file.fileno()).columns or None
    except (OSError, ValueError, AttributeError):
        return None


def wrap_words(line: str, width: int | None, indent: int = 2) -> str:
    """``line`` broken at spaces into lines of at most ``width`` cells (a word
    longer than a line stays whole, on a line of its own), each after the
    first indented by the first's leading spaces and ``indent`` more; as it is
    when ``width`` is None or the line fits."""
    if width is None or len(line) <= width and line.isascii():
        return line
    from rich.cells import cell_len

    if cell_len(line) <= width:
        return line
    lead = len(line) - len(line.lstrip(" "))
    prefix, pad = line[:lead], " " * min(lead + indent, max(0, width // 2))
    lines: list[str] = []
    current = ""  # the words of the line being filled, each with the spaces after it
    for word in re.findall(r"\S+ *", line[lead:]):
        if current and cell_len(prefix + current + word.rstrip(" ")) > width:
            lines.append(prefix + current.rstrip(" "))
            prefix, current = pad, ""
        current += word
    lines.append(prefix + current.rstrip(" "))
    return "\n".join(lines)


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


def signed(value: float, digits: int = 0) -> str:
    """A number with its sign, to ``digits`` decimals: ``+12``, ``-3.5``;
    one that rounds to zero is ``+0`` (``+0.0``), never ``-0``."""
    text = f"{value:+.{digits}f}"
    return "+" + text[1:] if text[0] == "-" and not float(text) else text


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
    return CARD_LABELS[card]


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

#: The columns a progress line leaves free at the terminal's right edge: the
#: ``^C`` a terminal echoes at Ctrl-C must fit on the line, else the line wraps
#: and the bar cannot be taken off the screen.
RIGHT_MARGIN = 2

#: The progress bar's widths: as wide as this when there is room, this narrow
#: while the other parts are still all shown, and this narrow at the least.
BAR_WIDE, BAR_COMFORTABLE, BAR_NARROW = 40, 20, 10

#: Where stderr is no terminal (a log file, CI), long work says how far it is in
#: a plain line at most this often (seconds), not a bar.
LOG_EVERY = 60.0


@contextmanager
def progress_bar(description: str, total: float | None, enabled: bool = True, unit: str = "bytes",
                 streaming: bool = False, status: Any = None) -> Iterator[Any]:
    """A progress bar on stderr, for work that lasts (it appears after
    :data:`BAR_DELAY` seconds, whether or not any work is done by then) and
    clears itself when done, and when the work stops early (Ctrl-C, an
    error): the cursor is left at the start of the line the bar held. Yields a
    function ``advance(completed)`` taking the absolute amount done, in
    ``unit`` (bytes of input read, or items). None when stderr is not a
    terminal, nor when the command writes its output (``streaming``) to the
    same terminal: a bar would interleave with it. ``status()``, when given,
    is text shown beside the bar (a match's running score: parts joined by
    `` · ``), asked at each advance. ``description`` and the status are rich
    markup, as :func:`safe` makes them. The line fits the terminal, whatever
    its width (:func:`progress_line`). The time left is the time so far scaled
    by what is left, from the start (not from the pace of the last few
    updates, which chunks of work make jumpy).

    Where stderr is no terminal, the same parts, plain, in a line of their own
    at most each :data:`LOG_EVERY` seconds (:func:`_progress_log`): a long run
    writing to a log says how far it is, a short one says nothing."""
    if not enabled:
        yield lambda completed: None
        return
    if not _isatty(sys.stderr):
        yield _progress_log(description, total, unit, status)
        return
    if streaming and _isatty(sys.stdout):
        yield lambda completed: None
        return
    import threading

    from rich.text import Text

    progress = _line_progress()(Text.from_markup(description).plain, unit, console=stderr_console(),
                                transient=True)
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
        fields = {"status": Text.from_markup(status()).plain} if status is not None else {}
        progress.update(task, completed=completed, **fields)

    try:
        yield advance
    finally:
        timer.cancel()
        with lock:
            state["done"] = True
            if state["shown"]:
                progress.stop()


def _progress_log(description: str, total: float | None, unit: str, status: Any) -> Any:
    """``advance(completed)`` for a stderr that is no terminal: once
    :data:`LOG_EVERY` seconds have passed since the start, or since its last
    line, a plain line: the description, how much is done, the time so far,
    the time left, the status (``expert v simple: 1,200/2,000 · 0:01:00 · eta
    0:00:40 · expert 61.2%``)."""
    import time

    started = time.monotonic()
    last = [started]

    def advance(completed: float) -> None:
        now = time.monotonic()
        if now - last[0] < LOG_EVERY:
            return
        last[0] = now
        # rich only now, at the first line: most runs end before it, and its import is some 20 ms
        from rich.text import Text

        count, spent, left = progress_parts(completed, total, now - started, unit)
        parts = [count, spent, *([left] if left else [])]
        if status is not None:
            parts.append(Text.from_markup(status()).plain)
        line = " · ".join(p for p in parts if p)
        # (a stderr that takes no more drops it, the work going on: gincli/cli/streams.py's _Messages)
        print(f"{Text.from_markup(description).plain}: {line}", file=sys.stderr, flush=True)

    return advance


def progress_parts(completed: float, total: float | None, elapsed: float, unit: str) -> tuple[str, str, str | None]:
    """How much is done (``169/400``, ``42%`` of bytes, or a count without a
    total), the time so far (``0:01:05``) and the time left (``eta 0:00:25``;
    None without a total), as a progress line shows them."""
    done = min(completed, total) if total else completed
    if total:
        count = f"{done / total:.0%}" if unit == "bytes" else f"{int(done):,}/{int(total):,}"
    else:
        from rich.filesize import decimal

        count = decimal(int(done)) if unit == "bytes" else f"{int(done):,}"
    left = None
    if total:
        left = "eta " + (clock(elapsed * (total - done) / done) if done else "-:--:--")
    return count, clock(elapsed), left


_LINE_PROGRESS: Any = None


def _line_progress() -> Any:
    """rich's Progress, drawing each task as one :func:`progress_line` that fits the width."""
    global _LINE_PROGRESS
    if _LINE_PROGRESS is not None:
        return _LINE_PROGRESS
    from rich.progress import Progress

    class Line:
        def __init__(self, progress: Any, task: Any):
            self.progress, self.task = progress, task

        def __rich_console__(self, console: Any, options: Any) -> Any:
            t = self.task
            yield progress_line(console, options.max_width - RIGHT_MARGIN, self.progress.gin_description, t.completed,
                                t.total, t.elapsed or 0.0, self.progress.gin_unit, t.fields.get("status", ""))

    class LineProgress(Progress):
        def __init__(self, description: str, unit: str, **kwargs: Any):
            super().__init__(**kwargs)
            self.gin_description, self.gin_unit = description, unit

        def get_renderables(self) -> Any:
            for task in self.tasks:
                yield Line(self, task)

    _LINE_PROGRESS = LineProgress
    return LineProgress


def clock(seconds: float) -> str:
    """A duration as a progress line shows it: ``0:01:05``."""
    s = int(max(0, seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def progress_line(console: Any, width: int, description: str, completed: float, total: float | None,
                  elapsed: float, unit: str = "items", status: str = "") -> Any:
    """A progress line at most ``width`` cells wide (a rich Text): the
    description, the bar, how much is done (``169/400``, ``42%``), the time so
    far, the time left (``eta 0:00:25``) and the status (plain text, parts
    joined by `` · ``). Where the width is short it drops whole parts, never
    cutting one, in this order: the bar narrows to :data:`BAR_COMFORTABLE`;
    the time so far goes; the bar narrows to :data:`BAR_NARROW`; the time
    left goes; the status loses its parts, from the last; the bar goes; and
    at last the description is shortened at a space, with an ellipsis. How
    much is done is always there."""
    from rich.cells import cell_len
    from rich.progress_bar import ProgressBar
    from rich.text import Text

    done = min(completed, total) if total else completed
    count, spent, left = progress_parts(completed, total, elapsed, unit)
    if total:  # right-aligned, so that the bar does not move as the count grows
        count = count.rjust(4 if unit == "bytes" else 2 * len(f"{int(total):,}") + 1)
    statuses = [p for p in status.split(" · ") if p] if status else []

    def fixed(desc: str, show_spent: bool, show_left: bool, n_status: int) -> int:
        """The cells of every part but the bar, with the spaces between them."""
        cells = [cell_len(count)]
        if desc:
            cells.append(cell_len(desc))
        if show_spent:
            cells.append(len(spent))
        if show_left and left is not None:
            cells.append(len(left))
        if n_status:
            cells.append(cell_len(" · ".join(statuses[:n_status])))
        return sum(cells) + len(cells) - 1

    every = len(statuses)
    plans = [(True, True, every, BAR_COMFORTABLE), (False, True, every, BAR_COMFORTABLE),
             (False, True, every, BAR_NARROW), (False, False, every, BAR_NARROW)]
    plans += [(False, False, n, BAR_NARROW) for n in range(every - 1, -1, -1)]
    plans.append((False, False, 0, 0))
    desc, bar = description, 0
    for show_spent, show_left, n_status, least in plans:
        room = width - fixed(desc, show_spent, show_left, n_status)
        if least == 0 and room >= 0:
            break
        if least and room - 1 >= least:
            bar = min(BAR_WIDE, room - 1)
            break
    else:  # the count, and as much of the description as fits before it
        show_spent = show_left = False
        n_status = 0
        desc = shorten_words(description, width - cell_len(count) - 1)
    text = Text(no_wrap=True, overflow="crop", end="")
    if desc:
        text.append(desc + " ")
    if bar:
        rendered_bar = list(console.render(ProgressBar(total=total, completed=done, width=bar),
                                           console.options.update(width=bar)))
        used = 0
        for seg in rendered_bar:
            text.append(seg.text, seg.style)
            used += cell_len(seg.text)
        text.append(" " * (bar - used) + " ")
    else:
        count = count.lstrip()  # right-aligned under a bar only
    text.append(count, "progress.download" if unit != "bytes" else "progress.percentage")
    if show_spent:
        text.append(" " + spent, "progress.elapsed")
    if show_left and left is not None:
        text.append(" " + left, "progress.remaining")
    if n_status:
        text.append(" " + " · ".join(statuses[:n_status]))
    return text


def shorten_words(text: str, limit: int) -> str:
    """``text`` in at most ``limit`` cells: whole, or its first words and an
    ellipsis (``expert v …``); a first word too long is cut (``expe…``), and
    nothing is left when fewer than two cells are."""
    from rich.cells import cell_len, set_cell_size

    if cell_len(text) <= limit:
        return text
    if limit < 2:
        return ""
    words = text.split(" ")
    for n in range(len(words) - 1, 0, -1):
        head = " ".join(words[:n]).rstrip()
        if head and cell_len(head) + 2 <= limit:
            return head + " …"
    return set_cell_size(text, limit - 1) + "…"


def stdin_notice(command: str, what: str, path: str, quiet: bool = False) -> None:
    """Say so on stderr when ``-`` reads standard input from a terminal (else
    gincli seems to hang): what it waits for, and how to end it; not with
    ``quiet`` (``-q``: only errors and warnings)."""
    if path == "-" and not quiet and _isatty(sys.stdin):
        say(f"{command}: reading {what} from standard input (a terminal); end with Ctrl-D")
