"""Reading records from the containers of FORMATS.md: ``.json`` (one object or
an array), ``.jsonl`` (one object a line, streamed in constant memory),
``.toml`` (one table, or ``[[records]]``) and ``-`` for standard input (the
container from ``--input-format``, else sniffed).

A record that cannot be read (a line that is not JSON, an array element that
is not an object) becomes an :class:`Item` with an ``error``; only an input
that cannot be read at all raises :class:`InputError`.
"""

from __future__ import annotations

import json
from itertools import chain
import os
import re
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from ..errors import InputError, quote
from .jsonio import Marking, holds_non_finite, loads, strip_bom, too_deep

FORMATS = ("json", "jsonl", "toml")
EXTENSIONS = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".toml": "toml"}


@dataclass(slots=True)
class Item:
    """One record read from an input, or the reason it could not be read.

    ``index`` counts records from 0 within the input; ``line`` is the 1-based
    line of a JSON Lines record.
    """

    source: str
    index: int
    line: int | None
    record: Any
    error: str | None = None
    raw: bytes | None = None

    def load(self) -> Item:
        """Parse a JSON Lines record read raw (``Reader.items(parse=False)``)."""
        raw = self.raw
        if raw is not None:
            self.raw = None
            self.record, self.error = _parse_line(raw, self.line or 0)
        return self

    @property
    def where(self) -> str:
        if self.line is not None:
            return f"{self.source}:{self.line}"
        return f"{self.source} record {self.index + 1}"


def input_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


class Reader:
    """Reads one input; ``size`` and ``position`` (bytes) let a caller show progress."""

    def __init__(self, path: str, input_format: str | None = None, stdin: IO[bytes] | None = None):
        self.path = path
        self.name = input_name(path)
        self.size: int | None = None
        self._stream: IO[bytes] | None = None
        self._stdin = stdin
        fmt = input_format
        if fmt is not None and fmt not in FORMATS:
            raise InputError(f"unknown input format {quote(fmt)}; use json, jsonl or toml")
        if path != "-" and fmt is None:
            fmt = EXTENSIONS.get(os.path.splitext(path)[1].lower())
        self.format = fmt

    def position(self) -> int:
        """Bytes read so far (the whole size once the input is closed)."""
        try:
            return self._stream.tell() if self._stream is not None else 0
        except (OSError, ValueError):
            return self.size or 0

    def _open(self) -> IO[bytes]:
        if self.path == "-":
            return self._stdin or sys.stdin.buffer
        try:
            stream = open(self.path, "rb")
        except FileNotFoundError:
            raise InputError(f"cannot read {self.path}: no such file") from None
        except IsADirectoryError:
            raise InputError(f"cannot read {self.path}: it is a directory") from None
        except OSError as exc:
            raise InputError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        try:
            self.size = os.fstat(stream.fileno()).st_size
        except OSError:
            self.size = None
        return stream

    def items(self, parse: bool = True) -> Iterator[Item]:
        """The records of this input, in order. Raises :class:`InputError` (before
        yielding anything) when the input cannot be read at all. With
        ``parse=False``, JSON Lines records come raw, to be parsed by
        :meth:`Item.load` (in a worker process). A UTF-8 byte-order mark at the
        start is skipped."""
        stream = self._open()
        self._stream = stream
        try:
            fmt = self.format
            first = strip_bom(stream.readline())
            if fmt is None:
                fmt, head, skipped = _sniff(first, stream)
            else:
                head, skipped = [first], 0
            if fmt == "jsonl":
                yield from self._jsonl(chain(head, stream), skipped, parse)
            else:
                data = b"\n" * skipped + b"".join(head) + stream.read()
                yield from self._whole(data, fmt)
        finally:
            if stream is not self._stdin and stream is not sys.stdin.buffer:
                stream.close()

    def _jsonl(self, lines: Iterator[bytes], skipped: int, parse: bool) -> Iterator[Item]:
        name = self.name
        index = 0
        for lineno, raw in enumerate(lines, skipped + 1):
            if not raw.strip():
                continue
            if parse:
                record, error = _parse_line(raw, lineno)
                yield Item(name, index, lineno, record, error)
            else:
                yield Item(name, index, lineno, None, None, raw)
            index += 1

    def _whole(self, data: bytes, fmt: str) -> Iterator[Item]:
        name = self.name
        marking = Marking()
        try:
            if fmt == "toml":
                try:
                    doc = tomllib.loads(data.decode("utf-8"), parse_float=marking.toml_float)
                except UnicodeDecodeError:
                    raise InputError(f"cannot read {name}: it is not UTF-8 text") from None
                except tomllib.TOMLDecodeError as exc:
                    raise InputError(f"cannot read {name}: it is not valid TOML ({exc}){_people_hint(data)}") from None
                records = doc["records"] if isinstance(doc.get("records"), list) else [doc]
            else:
                try:
                    doc = json.loads(data, parse_constant=marking.constant)
                except ValueError as exc:
                    if not data.strip():
                        raise InputError(f"cannot read {name}: it is empty") from None
                    raise InputError(f"cannot read {name}: it is not valid JSON ({_json_reason(exc)})"
                                     f"{_json_hint(data, exc)}") from None
                records = doc if isinstance(doc, list) else [doc]
        except RecursionError:
            raise InputError(f"cannot read {name}: {too_deep()}") from None
        except ValueError as exc:  # an integer past Python's digit limit
            raise InputError(f"cannot read {name}: {_json_reason(exc)}") from None
        for index, record in enumerate(records):
            if not isinstance(record, dict):
                yield Item(name, index, None, None, f"record {index + 1} is not an object")
            elif marking.seen and holds_non_finite(record):
                yield Item(name, index, None, None, f"record {index + 1} holds NaN or Infinity, which JSON does "
                                                    "not allow")
            else:
                yield Item(name, index, None, record)


def _parse_line(raw: bytes, lineno: int) -> tuple[Any, str | None]:
    try:
        record = loads(raw.decode("utf-8").rstrip())
    except ValueError as exc:  # UnicodeDecodeError included
        return None, f"line {lineno} is not valid JSON: {_json_reason(exc)}"
    if type(record) is dict:
        return record, None
    return None, f"line {lineno} is not a JSON object"


_TOML_HEADER = re.compile(rb"^\[\[?\s*[A-Za-z0-9_\"'.-]+\s*\]\]?\s*(#.*)?$")


def _sniff(first: bytes, stream: IO[bytes]) -> tuple[str, list[bytes], int]:
    """Guess the container of an input from its first line that is neither
    blank nor a comment; returns the format, the lines read that matter, and how
    many blank lines came before them (counted, not kept)."""
    head: list[bytes] = []
    skipped = 0
    for line in chain([first], stream):
        s = line.strip()
        if not s and not head:
            skipped += 1
            continue
        head.append(line)
        if not s or s.startswith(b"#"):
            continue
        if s.startswith(b"{"):
            try:
                json.loads(s, parse_constant=Marking().constant)
            except ValueError:
                return "json", head, skipped
            except RecursionError:
                pass  # a whole object on one line all the same
            return "jsonl", head, skipped
        if s.startswith(b"[") and not _TOML_HEADER.match(s):
            return "json", head, skipped
        return "toml", head, skipped
    return "json", head, skipped


def _people_hint(data: bytes) -> str:
    """A hint when the input is gincli's rendering for people (suit symbols,
    rules of a table) rather than data."""
    if any(mark in data for mark in ("♠".encode(), "♥".encode(), "♦".encode(), "♣".encode(), "─".encode())):
        return "; it looks like text for people: give --format json to the command that wrote it"
    return ""


def _json_hint(data: bytes, exc: ValueError) -> str:
    """A hint when a JSON document turns out to be several: JSON Lines."""
    if isinstance(exc, json.JSONDecodeError) and exc.msg == "Extra data" and exc.lineno > 1:
        first = data.lstrip().split(b"\n", 1)[0].strip()
        try:
            json.loads(first)
        except ValueError:
            return _people_hint(data)
        return "; it holds a JSON document a line (JSON Lines): name it .jsonl, or give --input-format jsonl"
    return _people_hint(data)


def _json_reason(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at column {exc.colno}" if exc.lineno == 1 else f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    if isinstance(exc, UnicodeDecodeError):
        return "it is not UTF-8 text"
    return str(exc).split(";")[0]  # an integer past the digit limit: the advice is Python's, not the user's
