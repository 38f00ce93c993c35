"""The checks of the arguments the commands and the Python API take, each
with its one sentence, held once so that ``gin`` and ``gincli`` cannot word
them apart (docs/cli.md, docs/api.md).

A check returns the value it was given, or raises ``ValueError`` with a
sentence about the value alone (``0 must be at least 1``). The command line
puts click's ``invalid value for '--games':`` before it; the Python API the
argument's name, through :func:`argument` (``games: 0 must be at least 1``).
A sentence that names an argument among others (``give either --hands N or
--games N``) takes a :class:`Spelling`: the command line's flags or the API's
keywords."""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

from .errors import UsageError, quote, shorten

#: The seeds gincli's generator takes (SplitMix64 starts from a 64-bit state):
#: 0 to 2^64 - 1. A seed outside is refused, never folded into the range.
SEED_MAX = 2**64 - 1

#: The time limits an external bot may have, in seconds: a hundredth of a
#: second to a day (a longer wait is past what some systems can wait for at once).
MIN_SECONDS = 0.01
MAX_SECONDS = 86_400.0

T = TypeVar("T")


def argument(name: str, check: Callable[..., T], value: Any, *args: Any, **kwargs: Any) -> T:
    """``check(value, ...)``, its sentence a :class:`UsageError` naming the
    argument ``name`` as the API spells it: ``games: 0 must be at least 1``."""
    try:
        return check(value, *args, **kwargs)
    except ValueError as exc:
        raise UsageError(f"{name}: {exc}", parameters=(name,)) from None


def whole_number(value: Any, low: int, high: int | None = None, *, text: bool = False) -> int:
    """A whole number from ``low`` (to ``high``): an ``int``, never a bool
    nor a float (``1.5`` and ``5.0`` are not rounded); with ``text``, digits
    too (the command line's, which are all text)."""
    if isinstance(value, int) and not isinstance(value, bool):
        number: int | None = value
    elif text and isinstance(value, str):
        stripped = value.strip()
        digits = stripped[1:] if stripped[:1] in "+-" else stripped
        if not (digits.isascii() and digits.isdigit()):
            raise ValueError(f"{shorten(repr(value))} is not a whole number")
        try:
            number = int(stripped)
        except ValueError:  # more digits than Python reads: past any bound
            number = None
    else:
        raise ValueError(f"{shorten(repr(value))} is not a whole number")
    if number is None or number < low or high is not None and number > high:
        shown = shorten(str(number if number is not None else value.strip()))
        if high is None and number is not None:
            raise ValueError(f"{shown} must be at least {low}")
        raise ValueError(f"{shown} is not between {low} and {high}" if high is not None else f"{shown} is too large")
    return number


def seconds_problem(value: float) -> str:
    """Why ``value`` is not a time limit (``""`` when it is one)."""
    if value != value or value in (float("inf"), float("-inf")):
        return f"{value} is not a number of seconds (give one from {MIN_SECONDS:g} to {MAX_SECONDS:,.0f})"
    if not MIN_SECONDS <= value <= MAX_SECONDS:
        return f"{value:g} is not between {MIN_SECONDS:g} and {MAX_SECONDS:,.0f} seconds (a day)"
    return ""


def seconds(value: Any, *, text: bool = False) -> float:
    """A time limit: a number of seconds from 0.01 to 86,400 (a day); NaN,
    infinity and a bool are refused; with ``text``, the digits of a number too."""
    try:
        if (isinstance(value, (int, float)) and not isinstance(value, bool)) or (text and isinstance(value, str)):
            number = float(value)
        else:
            raise ValueError
    except (ValueError, OverflowError):  # OverflowError: an int past any float, past any limit too
        if isinstance(value, int) and not isinstance(value, bool):
            number = math.inf if value > 0 else -math.inf
        else:
            raise ValueError(f"{shown(value)} is not a number of seconds") from None
    problem = seconds_problem(number)
    if problem:
        raise ValueError(problem)
    return number


def flag(value: Any) -> bool:
    """A switch: ``True`` or ``False`` (not 1, not ``"yes"``)."""
    if not isinstance(value, bool):
        raise ValueError(f"{shown(value)} is not True or False")
    return value


def text(value: Any, what: str) -> str:
    """A name or a path, as text (``what`` says what it names: ``a variant's name``)."""
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
    if not isinstance(value, str):
        raise ValueError(f"{shown(value)} is not {what}")
    return value


def optional_text(value: Any, what: str) -> str | None:
    """:func:`text`, or None."""
    return None if value is None else text(value, what)


def texts(value: Any, what: str, one: str) -> list[str]:
    """A list (or tuple) of texts, each ``one`` (``a player's name``): one
    text alone is refused, not read letter by letter."""
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, Sequence):
        raise ValueError(f"{shown(value)} is not a list of {what}")
    for i, v in enumerate(value):
        if not isinstance(v, str):
            raise ValueError(f"item {i + 1}, {shown(v)}, is not {one}")
    return list(value)


def json_value(value: Any) -> Any:
    """A value a transcript can hold (JSON's: text, numbers, true/false, null, lists, objects of them)."""
    from .jsonio import dumps, holds_nan_or_infinity

    if holds_nan_or_infinity(value):
        raise ValueError(f"{shown(value)} is not a JSON value (JSON has no NaN or Infinity)")
    try:
        dumps(value)
    except (TypeError, ValueError, RecursionError):
        raise ValueError(f"{shown(value)} is not a JSON value (text, a number, True, False, None, "
                         "a list or a dict of them)") from None
    return value


def shown(value: Any) -> str:
    """A value of the wrong kind as a sentence shows it: text quoted as the
    command line's sentences quote it, anything else as Python writes it
    (``None``, ``True``, ``nan``), cut to a readable length."""
    return quote(value) if isinstance(value, str) else shorten(repr(value))


class Spelling:
    """How a sentence names an argument: the command line's flags
    (``--hands``, ``--hands N``) or the Python API's keywords (``hands``,
    ``hands=N``). ``renamed``: the flags whose name is not the keyword's."""

    def __init__(self, flags: bool, renamed: Mapping[str, str] | None = None):
        self.flags = flags
        self.renamed = dict(renamed or {})

    def __call__(self, name: str) -> str:
        """The argument ``name`` (a keyword of the API): ``--hands`` or ``hands``."""
        if not self.flags:
            return name
        return self.renamed.get(name, "--" + name.replace("_", "-"))

    def given(self, name: str, value: str) -> str:
        """The argument given a value: ``--hands N`` or ``hands=N``."""
        return f"{self(name)} {value}" if self.flags else f"{name}={value}"

    def on(self, name: str) -> str:
        """A switch turned on: ``--resume`` or ``resume=True``."""
        return self(name) if self.flags else f"{name}=True"


#: The command line's spelling: ``--players`` for the API's ``names``, ``--option`` for ``options``.
FLAGS = Spelling(True, {"names": "--players", "options": "--option", "backend_options": "--backend-option"})
#: The Python API's spelling: each argument by its keyword.
KEYWORDS = Spelling(False)

