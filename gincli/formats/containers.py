"""Reading records from the containers of FORMATS.md: ``.json`` (one object or
an array), ``.jsonl`` (one object a line, streamed in constant memory),
``.toml`` (one table, or ``[[records]]``) and ``-`` for standard input (the
container from ``--input-format``, else sniffed).

A record that cannot be read (a line that is not JSON, an array element that
is not an object) becomes an :class:`Item` with an ``error``; only an input
that cannot be read at all raises :class:`InputError`.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from typing import IO, Any

from ..errors import InputError

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
            raise InputError(f"unknown input format \"{fmt}\"; use json, jsonl or toml")
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
        :meth:`Item.load` (in a worker process)."""
        stream = self._open()
        self._stream = stream
        try:
            fmt = self.format
            head = b""
            if fmt is None:
                fmt, head = _sniff(stream)
            if fmt == "jsonl":
                yield from self._jsonl(stream, head, parse)
            else:
                data = head + stream.read()
                yield from self._whole(data, fmt)
        finally:
            if stream is not self._stdin and stream is not sys.stdin.buffer:
                stream.close()

    def _jsonl(self, stream: IO[bytes], head: bytes, parse: bool) -> Iterator[Item]:
        name = self.name
        lines: Any = stream if not head else _chain(head, stream)
        index = 0
        for lineno, raw in enumerate(lines, 1):
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
        if fmt == "toml":
            try:
                doc = tomllib.loads(data.decode("utf-8"))
            except UnicodeDecodeError:
                raise InputError(f"cannot read {name}: it is not UTF-8 text") from None
            except tomllib.TOMLDecodeError as exc:
                raise InputError(f"cannot read {name}: it is not valid TOML ({exc})") from None
            records = doc["records"] if isinstance(doc.get("records"), list) else [doc]
        else:
            try:
                doc = json.loads(data)
            except ValueError as exc:
                if not data.strip():
                    raise InputError(f"cannot read {name}: it is empty") from None
                raise InputError(f"cannot read {name}: it is not valid JSON ({_json_reason(exc)})") from None
            records = doc if isinstance(doc, list) else [doc]
        for index, record in enumerate(records):
            if isinstance(record, dict):
                yield Item(name, index, None, record)
            else:
                yield Item(name, index, None, None, f"record {index + 1} is not an object")


def _parse_line(raw: bytes, lineno: int) -> tuple[Any, str | None]:
    try:
        record = json.loads(raw.decode("utf-8").rstrip())
    except ValueError as exc:  # UnicodeDecodeError included
        return None, f"line {lineno} is not valid JSON: {_json_reason(exc)}"
    if type(record) is dict:
        return record, None
    return None, f"line {lineno} is not a JSON object"


def _chain(head: bytes, stream: IO[bytes]) -> Iterator[bytes]:
    yield from io.BytesIO(head)
    yield from stream


_TOML_HEADER = re.compile(rb"^\[\[?\s*[A-Za-z0-9_\"'.-]+\s*\]\]?\s*(#.*)?$")


def _sniff(stream: IO[bytes]) -> tuple[str, bytes]:
    """Guess the container of an input from its first line; returns the
    format and the bytes already read."""
    head = b""
    for line in stream:
        head += line
        s = line.strip()
        if not s or s.startswith(b"#"):
            continue
        if s.startswith(b"{"):
            try:
                json.loads(s)
                return "jsonl", head
            except ValueError:
                return "json", head
        if s.startswith(b"[") and not _TOML_HEADER.match(s):
            return "json", head
        return "toml", head
    return "json", head


def _json_reason(exc: ValueError) -> str:
    if isinstance(exc, json.JSONDecodeError):
        return f"{exc.msg} at column {exc.colno}" if exc.lineno == 1 else f"{exc.msg} at line {exc.lineno} column {exc.colno}"
    if isinstance(exc, UnicodeDecodeError):
        return "it is not UTF-8 text"
    return str(exc)
