"""JSON in and out, the same rules everywhere: input has no NaN or Infinity
(FORMATS.md's JSON has none) and no byte-order mark left in it; output is
always valid UTF-8 JSON, whatever strings the input held.
"""

from __future__ import annotations

import json
import sys
from typing import Any

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


#: The scanner ``json.loads(text, parse_constant=_no_constant)`` runs, made once:
#: ``scan_object(text, 0)`` is ``(value, end)``.
scan_object = _scan = json.JSONDecoder(parse_constant=_no_constant).scan_once


def loads(text: str | bytes) -> Any:
    """Parse one JSON value; ``ValueError`` (one sentence) when it is not JSON,
    holds NaN or Infinity, or is nested too deeply."""
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
        return json.loads(text, parse_constant=_no_constant)
    except RecursionError:
        raise ValueError(too_deep()) from None


class NonFinite:
    """Stands for a NaN or an infinity in a whole document, so that only the
    records holding one fail (:func:`holds_non_finite`)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "NaN"


NON_FINITE = NonFinite()


class Marking:
    """``parse_constant`` / ``parse_float`` hooks that put :data:`NON_FINITE` in
    place of NaN and infinities, remembering whether they did."""

    def __init__(self) -> None:
        self.seen = False

    def constant(self, name: str) -> Any:
        self.seen = True
        return NON_FINITE

    def toml_float(self, text: str) -> Any:
        value = float(text)
        if value != value or value in (float("inf"), float("-inf")):
            self.seen = True
            return NON_FINITE
        return value


def holds_non_finite(value: Any) -> bool:
    """Whether a parsed value holds :data:`NON_FINITE` anywhere (iteratively:
    any depth)."""
    stack = [value]
    while stack:
        v = stack.pop()
        if v is NON_FINITE:
            return True
        if isinstance(v, dict):
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return False


def dumps(obj: Any, indent: int | None = None) -> str:
    """``obj`` as JSON text that always encodes as UTF-8: non-ASCII characters
    as they are, unless a lone surrogate (from ``"\\ud800"`` in the input) is
    among them; then the whole text is ASCII with escapes."""
    text = json.dumps(obj, ensure_ascii=False, indent=indent)
    return text if encodable(text) else json.dumps(obj, ensure_ascii=True, indent=indent)


def encodable(text: str) -> bool:
    """Whether ``text`` encodes as UTF-8 (no lone surrogates)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def utf8_lines(lines: list[str]) -> str:
    """JSON lines joined, each ending in a newline; a line holding a lone
    surrogate is written again with ASCII escapes."""
    text = "\n".join(lines) + "\n" if lines else ""
    if encodable(text):
        return text
    return "".join((line if encodable(line) else json.dumps(json.loads(line), ensure_ascii=True)) + "\n"
                   for line in lines)


def error_line(ident: Any, message: str) -> str:
    """FORMATS.md's ``{"id": ..., "error": ...}`` for a record that failed
    (``id`` null when it cannot be written)."""
    try:
        return json.dumps({"id": ident, "error": message}, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        return json.dumps({"id": None, "error": message}, ensure_ascii=False)
