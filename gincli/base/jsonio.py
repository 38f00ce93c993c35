"""JSON in and out, the same rules everywhere: input has no NaN or Infinity
(FORMATS.md's JSON has none), no number past what a double can hold (``1e400``,
which Python would read as an infinity) and no byte-order mark left in it;
output is always valid UTF-8 JSON, whatever strings the input held, and is
strict: never NaN or Infinity, and no negative zero (``-0.0`` is written
``0.0``, at any depth: a zero is a zero in a result, whatever rounded to it).
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import Any

from .errors import shorten

fast_loads: Callable[[bytes | str], Any] | None
try:  # optional (pip install 'gincli[fast]'): gin score's hot path reads records with it
    from orjson import loads as fast_loads
except ImportError:  # pragma: no cover - the json module reads them all
    fast_loads = None

BOM = b"\xef\xbb\xbf"


def strip_bom(data: bytes) -> bytes:
    """``data`` without a UTF-8 byte-order mark at its start."""
    return data[3:] if data.startswith(BOM) else data


def too_deep() -> str:
    return f"it is nested deeper than {sys.getrecursionlimit()} levels"


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


_INFINITIES = (float("inf"), float("-inf"))


class OutOfRange(ValueError):
    """A number past what a double can hold (``1e400``): JSON's grammar allows
    it, but read as a number it would be an infinity, which JSON cannot hold."""

    def __init__(self, literal: str):
        super().__init__(f"it holds a number past what a double can hold ({shorten(literal)})")
        self.literal = literal


def _finite_float(text: str) -> float:
    value = float(text)
    if value in _INFINITIES:
        raise OutOfRange(text)
    return value


#: The scanner ``json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)``
#: runs, made once: ``scan_object(text, 0)`` is ``(value, end)``. (``parse_float``
#: is called for numbers with a fraction or an exponent only: the whole numbers
#: of a record cost nothing more.)
_decoder = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite_float)
scan_object = _scan = _decoder.scan_once  # type: ignore[attr-defined]  # set by its __init__; typeshed leaves it out


def loads(text: str | bytes) -> Any:
    """Parse one JSON value; ``ValueError`` (one sentence) when it is not JSON,
    holds NaN or Infinity, or is nested too deeply; :class:`OutOfRange` (a
    ``ValueError``) when it holds a number past what a double can hold."""
    if type(text) is str and text[:1] == "{":
        # The common case, a whole object, straight to the scanner json.loads would run;
        # anything else (an error, text after the value) goes through json.loads for its exact answer.
        try:
            value, end = _scan(text, 0)
            if end == len(text):
                return value
        except (ValueError, StopIteration, RecursionError):
            pass
    try:
        return json.loads(text, parse_constant=_no_constant, parse_float=_finite_float)
    except RecursionError:
        raise ValueError(too_deep()) from None


class NonFinite:
    """Stands for a NaN or an infinity in a whole document, so that only the
    records holding one fail (:func:`holds_non_finite`): :data:`NON_FINITE` for
    a ``NaN``/``Infinity`` literal (TOML's ``nan``/``inf``), one with its
    ``literal`` for a number past what a double can hold (``1e400``)."""

    __slots__ = ("literal",)

    def __init__(self, literal: str | None = None):
        self.literal = literal

    def __repr__(self) -> str:
        return "NaN" if self.literal is None else self.literal


NON_FINITE = NonFinite()

_TOML_CONSTANTS = frozenset({"inf", "+inf", "-inf", "nan", "+nan", "-nan"})


class Marking:
    """``parse_constant`` / ``parse_float`` hooks that put a :class:`NonFinite`
    in place of NaN and infinities, remembering whether they did."""

    def __init__(self) -> None:
        self.seen = False

    def constant(self, name: str) -> Any:
        self.seen = True
        return NON_FINITE

    def json_float(self, text: str) -> Any:
        value = float(text)
        if value in _INFINITIES:
            self.seen = True
            return NonFinite(text)
        return value

    def toml_float(self, text: str) -> Any:
        value = float(text)
        if value != value or value in _INFINITIES:
            self.seen = True
            return NON_FINITE if text in _TOML_CONSTANTS else NonFinite(text)
        return value


def holds_non_finite(value: Any) -> NonFinite | None:
    """The first :class:`NonFinite` a parsed value holds, None when it holds
    none (iteratively: any depth)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if type(v) is NonFinite:
            return v
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return None


def dumps(obj: Any, indent: int | None = None) -> str:
    """``obj`` as strict JSON text that always encodes as UTF-8: non-ASCII
    characters as they are, unless a lone surrogate (from ``"\\ud800"`` in the
    input) is among them; then the whole text is ASCII with escapes. A negative
    zero, at any depth, is written ``0.0``. ``ValueError`` for a NaN or an
    infinity: JSON has none, and gincli never writes one."""
    text = json.dumps(obj, ensure_ascii=False, indent=indent, allow_nan=False)
    if not encodable(text):
        text = json.dumps(obj, ensure_ascii=True, indent=indent, allow_nan=False)
    return unsigned_zeros(text)


#: A JSON string (skipped) or the number ``-0.0``, as Python's encoder writes a
#: negative zero (a number that goes on, ``-0.05``, is no match).
_STRING_OR_NEGATIVE_ZERO = re.compile(r'"(?:[^"\\]|\\.)*"|-0\.0(?![0-9eE])', re.S)


def _unsigned(m: re.Match[str]) -> str:
    return "0.0" if m.group() == "-0.0" else m.group()


def unsigned_zeros(text: str) -> str:
    """JSON text with every ``-0.0`` number written ``0.0`` (strings as they are).
    The search runs only when the text holds ``-0.0`` at all: seldom."""
    return _STRING_OR_NEGATIVE_ZERO.sub(_unsigned, text) if "-0.0" in text else text


def holds_nan_or_infinity(value: Any) -> bool:
    """Whether a Python value (a dict from a script, not parsed JSON) holds a
    NaN or an infinite float anywhere, keys too (iteratively: any depth; a
    container met again, or a cycle, is looked at once)."""
    stack, seen = [value], set()
    while stack:
        v = stack.pop()
        if isinstance(v, float):
            if v != v or v in _INFINITIES:
                return True
        elif isinstance(v, (dict, list, tuple)):
            if id(v) in seen:
                continue
            seen.add(id(v))
            if isinstance(v, dict):
                stack.extend(v.keys())
                stack.extend(v.values())
            else:
                stack.extend(v)
    return False


def encodable(text: str) -> bool:
    """Whether ``text`` encodes as UTF-8 (no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def utf8_lines(lines: list[str]) -> str:
    """JSON lines joined, each ending in a newline; a line holding a lone
    surrogate is written again with ASCII escapes (``ValueError`` if it holds
    NaN or Infinity: it is not JSON)."""
    text = "\n".join(lines) + "\n" if lines else ""
    if encodable(text):
        return text
    return "".join((line if encodable(line) else dumps(json.loads(line, parse_constant=_no_constant))) + "\n"
                   for line in lines)


def error_line(ident: Any, message: str) -> str:
    """FORMATS.md's ``{"id": ..., "error": ...}`` for a record that failed
    (``id`` null when it cannot be written: not JSON, or NaN or an infinity)."""
    try:
        return dumps({"id": ident, "error": message})
    except (TypeError, ValueError, RecursionError):
        return dumps({"id": None, "error": message})
