"""Reading records from the containers of FORMATS.md: ``.json`` (one object or
an array), ``.jsonl`` (one object a line, streamed in constant memory),
``.toml`` (one table, or ``[[records]]``) and ``-`` for standard input (the
container from ``--input-format``, else sniffed). Any of them may be gzip
compressed: a name ending ``.gz`` (``hands.jsonl.gz``), or data starting with
gzip's magic bytes (standard input too), is decompressed as it is read, still
in constant memory for JSON Lines.

A record that cannot be read (a line that is not JSON, an array element that
is not an object, a line longer than :data:`MAX_RECORD_BYTES`) becomes an
:class:`Item` with an ``error``; only an input that cannot be read at all (a
``.json`` or ``.toml`` document past :data:`MAX_DOCUMENT_BYTES` among them)
raises :class:`InputError`. Nothing is read whole before its size is known to be
within its limit: lines with a bounded ``readline``, documents in pieces.
"""

from __future__ import annotations

import io
import json
import os
import re
import stat
import sys
import zlib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from itertools import chain
from typing import IO, Any, NamedTuple, cast

from ..base.compiled import compiled
from ..base.errors import InputError, quote, shorten
from ..base.jsonio import BOM, Marking, OutOfRange, holds_non_finite, loads, too_deep
from ..base.pool import chunked

FORMATS = ("json", "jsonl", "toml")
EXTENSIONS = {".json": "json", ".jsonl": "jsonl", ".ndjson": "jsonl", ".toml": "toml"}
GZIP_MAGIC = b"\x1f\x8b"

#: The longest line of JSON Lines, in bytes (its newline aside): one record. A
#: hand record is a few hundred bytes, a transcript of a long session tens of
#: megabytes; a longer line is an error for that record, skipped in pieces.
MAX_RECORD_BYTES = 64 * 1024 * 1024
#: The largest ``.json`` or ``.toml`` document, in bytes after decompression:
#: these are parsed whole (JSON Lines, read a line at a time, has no such limit).
MAX_DOCUMENT_BYTES = 256 * 1024 * 1024
#: How much of an over-long line, or of a document, is read at a time.
PIECE = 64 * 1024


@dataclass(slots=True)
class Item:
    """One record read from an input, or the reason it could not be read.

    ``index`` counts records from 0 within the input; ``line`` is the 1-based
    line the record starts on (a JSON Lines record's line, the line of a
    ``.json`` array's element or ``.toml`` ``[[records]]`` table, a document's
    first line), None for records that come from no file (Python objects).
    :attr:`where` names it: ``FILE:LINE``, the same in every container.
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


@dataclass(slots=True)
class Lines:
    """Lines of JSON Lines as read (``data``, each line ending in a newline),
    the first of them line ``line`` of its input and the first record its
    record ``index``: what a worker process is sent, a few bytes a record
    (:meth:`Reader.batches`). ``cut``: the lines (counted from 0 here) that
    were past :data:`MAX_RECORD_BYTES`, let go when read (each an empty line
    in ``data``). ``span``: where ``data`` lies, byte for byte, in a regular
    file: a worker process is then sent that place, not the bytes, and reads
    them there itself (:func:`_read_span`), so that the process that reads
    the input does not copy it all through the workers' pipes."""

    source: str
    line: int
    index: int
    data: bytes
    cut: tuple[int, ...] = ()
    span: Span | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        span = self.span
        if span is None:
            return (Lines, (self.source, self.line, self.index, self.data, self.cut))
        # the check of what the worker reads, made only when a worker is sent it
        return (_lines_at, (self.source, self.line, self.index, span._replace(check=_checksum(self.data))))

    def items(self) -> Iterator[Item]:
        """The records, raw (:meth:`Item.load` parses one), as
        :meth:`Reader.items` gives them with ``parse=False``."""
        name = self.source
        index = self.index
        lineno = self.line
        cut = self.cut
        for raw in self.data.split(b"\n")[:-1]:
            if not raw or raw.isspace():  # a blank line, or one too long
                if cut and lineno - self.line in cut:
                    limit = size_text(MAX_RECORD_BYTES)
                    yield Item(name, index, lineno, None, f"line {lineno} is longer than {limit}, the limit of a "
                                                          "record")
                    index += 1
                lineno += 1
                continue
            yield Item(name, index, lineno, None, None, raw)
            index += 1
            lineno += 1


class Span(NamedTuple):
    """Where a :class:`Lines`'s bytes lie in a regular file: its path and
    identity (device, inode), the offset and length of the bytes, and their
    checksum (:func:`_checksum`, set as it is sent)."""

    path: str
    device: int
    inode: int
    offset: int
    length: int
    check: int = 0


#: A worker's open input, (device, inode) and descriptor: the one it last read a span of.
_span_file: list[Any] = []


def _lines_at(source: str, line: int, index: int, span: Span) -> Lines:
    """A :class:`Lines` sent as a :class:`Span`: its bytes read from the file."""
    return Lines(source, line, index, _read_span(source, span))


def _read_span(source: str, span: Span) -> bytes:
    """The bytes of ``span``, read from its file (kept open for the next span
    of it); :class:`InputError` when the file is no longer what was read."""
    key = (span.device, span.inode)
    try:
        if not _span_file or _span_file[0] != key:
            try:
                fd = os.open(span.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            except FileNotFoundError:
                raise InputError(f"cannot read {source}: it was removed while it was read") from None
            st = os.fstat(fd)
            if (st.st_dev, st.st_ino) != key:
                os.close(fd)
                raise InputError(f"cannot read {source}: it was replaced while it was read")
            if _span_file:
                os.close(_span_file[1])
            _span_file[:] = [key, fd]
        fd = _span_file[1]
        parts = []
        offset, left = span.offset, span.length
        while left > 0:
            piece = os.pread(fd, left, offset)
            if not piece:
                break
            parts.append(piece)
            offset += len(piece)
            left -= len(piece)
    except OSError as exc:
        raise InputError(f"cannot read {source}: {exc.strerror or exc}") from None
    data = parts[0] if len(parts) == 1 else b"".join(parts)
    if len(data) != span.length or _checksum(data) != span.check:
        raise InputError(f"cannot read {source}: it changed while it was read")
    return data


def _records(data: bytes, lines: int, cut: int) -> int:
    """The records among ``lines`` lines of JSON Lines (``data``): the lines
    not blank, and those past the limit (``cut``, each an empty line in
    ``data``). Compiled where it can be (``_stdscore.records``); else, a line
    that starts with ``{`` is no blank line, so the count is one pass in C
    unless some line does not."""
    if _STDSCORE is not None:
        return _STDSCORE.records(data) + cut
    if data.count(b"\n{") + data.startswith(b"{") == lines:
        return lines
    return sum(1 for raw in data.split(b"\n")[:-1] if raw and not raw.isspace()) + cut


#: The compiled twin of gin score's hot path, for :func:`_records`, :func:`_newlines` and :func:`_checksum`.
_STDSCORE = compiled("gincli.rulebook._stdscore")


def _newlines(data: bytes) -> int:
    """The newlines in ``data``: its lines as read."""
    return data.count(b"\n")


#: What a :class:`Span`'s bytes are checked by: the same function in the
#: process that read them and in the worker that reads them again (the same
#: installation, the same environment). Compiled, a Fletcher sum, some four
#: times faster than zlib's CRC-32 (``_stdscore.checksum``); else the CRC.
_checksum: Callable[[bytes], int] = zlib.crc32
if _STDSCORE is not None:
    _newlines = _STDSCORE.lines  # noqa: F811  (memchr, where bytes.count looks at every byte)
    _checksum = _STDSCORE.checksum


def input_name(path: str) -> str:
    return "<stdin>" if path == "-" else path


class Reader:
    """Reads one input; ``size`` and ``position`` (bytes) let a caller show progress."""

    def __init__(self, path: str, input_format: str | None = None, stdin: IO[bytes] | None = None):
        self.path = path
        self.name = input_name(path)
        self.size: int | None = None
        self._stream: IO[bytes] | None = None  # the bytes as stored (compressed or not): position() reads it
        self._stdin = stdin
        #: Whether the input is gzip data (known once it is opened).
        self.gzipped = False
        #: Why the input stopped before its end, once the records before were
        #: yielded (a truncated or corrupt gzip stream); see :meth:`check`.
        self.failure: InputError | None = None
        fmt = input_format
        if fmt is not None and fmt not in FORMATS:
            raise InputError(f"unknown input format {quote(fmt)}; use json, jsonl or toml")
        if path != "-" and fmt is None:
            base, ext = os.path.splitext(path)
            if ext.lower() == ".gz":
                ext = os.path.splitext(base)[1]
            fmt = EXTENSIONS.get(ext.lower())
        self.format = fmt

    def position(self) -> int:
        """Bytes read so far (the whole size once the input is closed); of the
        compressed data for a gzip input."""
        try:
            return self._stream.tell() if self._stream is not None else 0
        except (OSError, ValueError):
            return self.size or 0

    def check(self) -> None:
        """Raise the :class:`InputError` that ended the input early, if any,
        once the records read before it were handled."""
        if self.failure is not None:
            raise self.failure

    def _open(self) -> IO[bytes]:
        if self.path == "-":
            return self._stdin or sys.stdin.buffer
        try:
            stream = open(self.path, "rb")  # noqa: SIM115  (the input's stream, read by items(), which closes it)
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
        return cast("Iterator[Item]", self._records(parse, 0))

    def batches(self, size: int) -> Iterator[Lines | list[Item]]:
        """The records of this input, in order, about ``size`` at a time: JSON
        Lines as :class:`Lines` (the lines as read, made into raw items by
        whoever handles them: a worker process), other containers as lists of
        items. As :meth:`items` otherwise."""
        return cast("Iterator[Lines | list[Item]]", self._records(False, size))

    def _records(self, parse: bool, batch: int) -> Iterator[Item | Lines | list[Item]]:
        """:meth:`items`, or with ``batch``, :meth:`batches`."""
        raw = self._open()
        self._stream = raw
        self.failure = None
        try:
            stream = self._decompressed(raw)
            fmt = self.format
            limit = MAX_RECORD_BYTES
            try:
                first = _first_line(stream.readline, limit)
                if fmt is None:
                    fmt, head, skipped = _sniff(first, stream, limit)
                else:
                    head, skipped = [first], 0
            except (EOFError, OSError, zlib.error) as exc:
                raise self._unreadable(exc) from None
            if fmt == "jsonl":
                try:
                    if batch:
                        yield from self._jsonl_lines(head, stream, skipped, batch)
                    else:
                        yield from self._jsonl(head, stream, skipped, parse)
                except (EOFError, OSError, zlib.error) as exc:
                    # The records before were read whole and yielded: they stay processed.
                    self.failure = self._unreadable(exc)
            else:
                try:
                    data = self._document(head, skipped, stream)
                except (EOFError, OSError, zlib.error) as exc:
                    raise self._unreadable(exc) from None
                if batch:
                    yield from chunked(self._whole(data, fmt), batch)
                else:
                    yield from self._whole(data, fmt)
        finally:
            if raw is not self._stdin and raw is not sys.stdin.buffer:
                raw.close()

    def _place(self, stream: IO[bytes]) -> tuple[str, int, int] | None:
        """The path and identity of the input when ``stream`` reads a regular
        file's bytes as they are stored (not standard input, not gzip data),
        so that a worker can read them there (:class:`Span`); else None."""
        if self.path == "-" or self.gzipped or stream is not self._stream or not hasattr(os, "pread"):
            return None
        try:
            st = os.fstat(stream.fileno())
            stream.tell()
        except (OSError, ValueError, AttributeError):
            return None
        if not stat.S_ISREG(st.st_mode) or st.st_size == 0:  # /proc's files say 0 and change
            return None
        return (os.path.abspath(self.path), st.st_dev, st.st_ino)

    def _decompressed(self, raw: IO[bytes]) -> IO[bytes]:
        """The input's bytes, decompressed as they are read when it is gzip data:
        a name ending ``.gz``, or gzip's magic bytes at the start."""
        stream = raw
        if self.path != "-" and self.path.lower().endswith(".gz"):
            self.gzipped = True
        else:
            try:
                if self.path == "-":  # a pipe: read the first two bytes, then put them back
                    head = raw.read(2)
                    stream = io.BufferedReader(_Prefixed(head, raw))
                else:
                    head = raw.peek(2)[:2]  # type: ignore[attr-defined]
            except OSError as exc:
                raise self._unreadable(exc) from None
            self.gzipped = head == GZIP_MAGIC
        if not self.gzipped:
            return stream
        import gzip

        return gzip.GzipFile(fileobj=stream, mode="rb")  # type: ignore[return-value]

    def _unreadable(self, exc: BaseException) -> InputError:
        """One sentence for an input that cannot be read on (a read failing, gzip
        data cut short or corrupt), naming it."""
        name = self.name
        if isinstance(exc, EOFError):
            return InputError(f"cannot read {name}: its gzip data is truncated")
        if isinstance(exc, zlib.error) or type(exc).__name__ == "BadGzipFile":
            reason = str(exc)
            if reason.startswith("Not a gzipped file"):
                return InputError(f"cannot read {name}: it is not gzip data")
            return InputError(f"cannot read {name}: its gzip data is corrupt ({shorten(reason)})")
        if isinstance(exc, OSError):
            return InputError(f"cannot read {name}: {exc.strerror or exc}")
        return InputError(f"cannot read {name}: {shorten(str(exc))}")

    def _document(self, head: list[bytes], skipped: int, stream: IO[bytes]) -> bytearray:
        """A whole ``.json`` or ``.toml`` document: the lines sniffing read, then
        the rest in pieces; :class:`InputError` as soon as it is past
        :data:`MAX_DOCUMENT_BYTES` (never more than that is held)."""
        limit = MAX_DOCUMENT_BYTES
        data = bytearray(b"\n" * skipped)
        for line in head:
            for piece in line.pieces if type(line) is Cut else (line,):
                data += piece
        while len(data) <= limit:
            piece = stream.read(min(PIECE, limit + 1 - len(data)))
            if not piece:
                return data
            data += piece
        what = "decompresses to more" if self.gzipped else "is larger"
        raise InputError(f"cannot read {self.name}: it {what} than {size_text(limit)}, the limit of a .json or "
                         ".toml document (JSON Lines, .jsonl, is read a record at a time)")

    def _jsonl(self, head: list[bytes], stream: IO[bytes], skipped: int, parse: bool) -> Iterator[Item]:
        """The records of JSON Lines: ``head`` (the lines sniffing read), then
        ``stream`` a line at a time, none read past :data:`MAX_RECORD_BYTES`."""
        name = self.name
        index = 0
        limit = MAX_RECORD_BYTES
        readline = stream.readline
        for lineno, raw in enumerate(chain(head, lines_of(readline, limit)), skipped + 1):
            if type(raw) is Cut:  # too long: what was read of it let go, the rest skipped, never held
                raw.pieces.clear()
                if not raw.ended:
                    skip_line(readline)
                yield Item(name, index, lineno, None, f"line {lineno} is longer than {size_text(limit)}, the "
                                                      "limit of a record")
                index += 1
                continue
            if not raw or raw.isspace():  # a blank line (no copy made to find out)
                continue
            if parse:
                record, error = _parse_line(raw, lineno)
                yield Item(name, index, lineno, record, error)
            else:
                yield Item(name, index, lineno, None, None, raw)
            index += 1

    def _jsonl_lines(self, head: list[bytes], stream: IO[bytes], skipped: int, size: int) -> Iterator[Lines]:
        """:meth:`_jsonl`'s lines, at least ``size`` at a time (blank ones too:
        they keep the count of lines), as they were read: the input is read
        in pieces of :data:`PIECE` bytes and cut at line ends, never a line at
        a time (the worker that gets a chunk splits it). A line past the limit
        is let go as it is read, and stands as an empty line, marked."""
        name = self.name
        limit = MAX_RECORD_BYTES
        step = min(PIECE, limit + 1)  # a line whole inside a piece is never past the limit
        read = getattr(stream, "read1", None) or stream.read
        place = self._place(stream)  # (path, device, inode) of a regular file read as it is stored

        def spanned(data: bytes, held: int) -> Span | None:
            """Where the chunk's ``data`` lies in the file, ``held`` bytes read after it (a
            line begun): for the lines after the first (sniffing read those), none past the limit."""
            if place is None or cut or first == skipped + 1:
                return None
            stop = stream.tell() - held
            return Span(*place, stop - len(data), len(data))
        parts: list[bytes] = []  # whole lines, for the chunk
        count = 0  # the lines in parts
        cut: list[int] = []
        first, index = skipped + 1, 0
        begun: list[bytes] = []  # a line begun in pieces before, not yet ended
        held = 0  # its length
        for raw in head:
            if type(raw) is Cut:
                raw.pieces.clear()
                if not raw.ended:
                    skip_line(stream.readline)
                cut.append(count)
                raw = b"\n"
            elif raw[-1:] != b"\n":  # the input's last line
                raw += b"\n"
            parts.append(raw)
            count += 1
        while True:
            if count >= size:
                data = b"".join(parts)
                chunk = Lines(name, first, index, data, tuple(cut), spanned(data, held))
                yield chunk
                first += count
                index += _records(chunk.data, count, len(cut))
                parts, count, cut = [], 0, []
            try:
                piece = read(step)
            except (EOFError, OSError, zlib.error):
                if parts:  # the lines read whole before the input failed are handled, then the failure said
                    yield Lines(name, first, index, b"".join(parts), tuple(cut))
                raise
            if not piece:
                break
            end = piece.find(b"\n")
            if end < 0 or held + end > limit:
                if held + len(piece) - (end >= 0) <= limit:
                    begun.append(piece)
                    held += len(piece)
                    continue
                # past the limit: what was read of it let go, the rest of it skipped, an empty line marked
                begun.clear()
                held = 0
                if end < 0:
                    skip_line(stream.readline)
                    rest = b""
                else:
                    rest = piece[end + 1:]
                cut.append(count)
                parts.append(b"\n")
                count += 1
                piece = rest
                if not piece:
                    continue
                end = -1 if piece.find(b"\n") < 0 else 0
                if end < 0:
                    begun.append(piece)
                    held = len(piece)
                    continue
            last = piece.rfind(b"\n") + 1
            if begun:
                begun.append(piece[:last])
                whole = b"".join(begun)
                begun.clear()
            else:
                whole = piece if last == len(piece) else piece[:last]
            if last < len(piece):
                begun.append(piece[last:])
            held = len(piece) - last
            parts.append(whole)
            count += _newlines(whole)
        ended = not begun
        if begun:  # the input's last line, without its newline
            parts.append(b"".join(begun) + b"\n")
            count += 1
        if parts:
            data = b"".join(parts)
            yield Lines(name, first, index, data, tuple(cut), spanned(data, 0) if ended else None)

    def _whole(self, data: bytes | bytearray, fmt: str) -> Iterator[Item]:
        name = self.name
        marking = Marking()
        try:
            if fmt == "toml":
                import tomllib  # here: JSON, the common input, never pays for it

                try:
                    doc = tomllib.loads(data.decode("utf-8"), parse_float=marking.toml_float)
                except UnicodeDecodeError:
                    raise InputError(f"cannot read {name}: it is not UTF-8 text") from None
                except tomllib.TOMLDecodeError as exc:
                    raise InputError(f"cannot read {name}: it is not valid TOML ({exc}){_people_hint(data)}") from None
                if isinstance(doc.get("records"), list):
                    records = doc["records"]
                    starts = _toml_lines(data, len(records))
                else:
                    records, starts = [doc], [1]
            else:
                try:
                    doc, starts = _json_document(data, marking)
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
            line = starts[index] if index < len(starts) else starts[-1]
            mark = marking.seen and holds_non_finite(record)
            if not isinstance(record, dict):
                yield Item(name, index, line, None, f"record {index + 1} is not an object")
            elif mark and mark.literal is None:
                yield Item(name, index, line, None, f"record {index + 1} holds NaN or Infinity, which JSON does "
                                                    "not allow")
            elif mark and mark.literal is not None:
                yield Item(name, index, line, None, f"record {index + 1} holds a number past what a double can "
                                                    f"hold ({shorten(mark.literal)})")
            else:
                yield Item(name, index, line, record)


_JSON_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's white space, as the json module skips it


def _json_document(data: bytes | bytearray, marking: Marking) -> tuple[Any, list[int]]:
    """A ``.json`` document, and the line each of its records starts on: an
    array's elements (read one by one, in a single pass), or the document. A
    document that is not valid JSON is read again by :func:`json.loads`, which
    raises its own error."""
    decoder = json.JSONDecoder(parse_constant=marking.constant, parse_float=marking.json_float)
    try:
        text = data.decode(json.detect_encoding(data), "surrogatepass")  # as json.loads decodes bytes
        space = cast("Callable[[str, int], re.Match[str]]", _JSON_SPACE.match)  # it always matches, maybe nothing
        at = space(text, 0).end()
        starts = []
        if text.startswith("[", at):
            doc = []
            at = space(text, at + 1).end()
            end = at + 1 if text.startswith("]", at) else None
            while end is None:
                value, after = decoder.raw_decode(text, at)
                doc.append(value)
                starts.append(at)
                at = space(text, after).end()
                if text.startswith(",", at):
                    at = space(text, at + 1).end()
                elif text.startswith("]", at):
                    end = at + 1
                else:
                    raise ValueError("not an array")
        else:
            doc, end = decoder.raw_decode(text, at)
            starts.append(at)
        if space(text, end).end() != len(text):
            raise ValueError("more after the document")
    except (ValueError, RecursionError):
        marking.seen = False
        return json.loads(data, parse_constant=marking.constant, parse_float=marking.json_float), [1]
    lines, line, counted = [], 1, 0
    for start in starts:
        line += text.count("\n", counted, start)
        counted = start
        lines.append(line)
    return doc, lines or [1]


_TOML_RECORDS = re.compile(rb"""^[ \t]*\[\[[ \t]*(?:records|"records"|'records')[ \t]*\]\]""", re.M)


def _toml_lines(data: bytes | bytearray, count: int) -> list[int]:
    """The line each ``[[records]]`` table of a ``.toml`` document starts on
    (the line of its header); for records written otherwise (an inline array),
    the line where ``records`` is set."""
    lines, line, counted = [], 1, 0
    for m in _TOML_RECORDS.finditer(data):
        line += data.count(b"\n", counted, m.start())
        counted = m.start()
        lines.append(line)
    if len(lines) == count:
        return lines
    found = re.search(rb"^[ \t]*records[ \t]*=", data, re.M)
    return [1 + data.count(b"\n", 0, found.start()) if found else 1] * max(count, 1)


class _Prefixed(io.RawIOBase):
    """A stream with bytes already read from it put back in front (standard
    input, once its first bytes were looked at); closing it leaves the stream open."""

    def __init__(self, prefix: bytes, stream: IO[bytes]):
        self._prefix = prefix
        self._stream = stream
        self._read1 = getattr(stream, "read1", stream.read)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        if self._prefix:
            n = min(len(buffer), len(self._prefix))
            buffer[:n] = self._prefix[:n]
            self._prefix = self._prefix[n:]
            return n
        data = self._read1(len(buffer))
        buffer[:len(data)] = data
        return len(data)


class Cut(bytes):
    """A line longer than the limit it was read to: the bytes of its first
    piece, with ``pieces``, all that was read of it (past the limit by at most
    one piece), and whether that ``ended`` it (its newline read); if not, the
    rest of the line is still in the stream. A line too long is never joined
    into one object: it is held once, in pieces, and only until it is let go."""

    pieces: list[bytes]
    ended: bool


def _cut(pieces: list[bytes], ended: bool) -> Cut:
    line = Cut(pieces[0])
    line.pieces = pieces
    line.ended = ended
    return line


def too_long(line: bytes) -> bool:
    """Whether ``line``, from :func:`lines_of`, is longer than its limit (a :class:`Cut`)."""
    return type(line) is Cut


def lines_of(readline: Any, limit: int) -> Iterator[bytes]:
    """The lines ``readline`` gives, each whole when at most ``limit`` bytes
    long (its newline aside), else a :class:`Cut`, whose rest the caller skips
    (:func:`skip_line`) or reads on. A line is read in pieces of at most
    :data:`PIECE` bytes: a short one in one call, as ``readline()`` would."""
    size = min(PIECE, limit + 1)
    for line in iter(partial(readline, size), b""):
        if len(line) < size or line[-1:] == b"\n":  # whole: ended, or the input's end
            yield line
        else:
            yield _read_on(readline, line, limit)


def _read_on(readline: Any, piece: bytes, limit: int) -> bytes:
    """A line whose first ``piece`` did not end it, read on to its end or
    past ``limit``."""
    pieces = []
    size = 0
    while True:
        size += len(piece)
        ended = piece[-1:] == b"\n"
        pieces.append(piece)
        if size - ended > limit:
            return _cut(pieces, ended)
        if ended or not piece:
            return b"".join(pieces)
        piece = readline(PIECE)


def _first_line(readline: Any, limit: int) -> bytes:
    """The first line of an input, a UTF-8 byte-order mark before it skipped,
    as :func:`lines_of` reads it."""
    start = readline(len(BOM))
    if start == BOM:
        return next(lines_of(readline, limit), b"")
    if len(start) < len(BOM) or start.endswith(b"\n"):
        return start
    return _read_on(readline, start, limit)


def _first_byte(line: bytes) -> bytes:
    """The first byte of a line that is not white space (of a :class:`Cut`, of all its pieces)."""
    for piece in line.pieces if type(line) is Cut else (line,):
        start = piece.lstrip()[:1]
        if start:
            return start
    return b""


def skip_line(readline: Any) -> None:
    """Read on to the end of a line (its newline, or the end of the input) in
    pieces of :data:`PIECE` bytes, holding none of it."""
    while True:
        piece = readline(PIECE)
        if not piece or piece.endswith(b"\n"):
            return


def bounded_lines(stream: IO[bytes], limit: int) -> Iterator[bytes]:
    """The lines of ``stream``, none held past ``limit`` bytes: a longer line
    comes as a :class:`Cut` of its first piece (:func:`too_long`), the rest
    of it skipped."""
    readline = stream.readline
    for line in lines_of(readline, limit):
        if type(line) is Cut:
            del line.pieces[1:]
            if not line.ended:
                skip_line(readline)
        yield line


def size_text(n: int) -> str:
    """A size in bytes for people: ``64 MiB``, ``1 KiB``, ``1,000 bytes``."""
    for unit, size in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= size and n % size == 0:
            return f"{n // size} {unit}"
    return f"{n:,} bytes"


def _parse_line(raw: bytes, lineno: int) -> tuple[Any, str | None]:
    try:
        record = loads(raw.decode("utf-8").rstrip())
    except OutOfRange as exc:
        return None, f"line {lineno} holds a number past what a double can hold ({shorten(exc.literal)})"
    except ValueError as exc:  # UnicodeDecodeError included
        return None, f"line {lineno} is not valid JSON: {_json_reason(exc)}"
    if type(record) is dict:
        return record, None
    return None, f"line {lineno} is not a JSON object"


_TOML_HEADER = re.compile(rb"^\[\[?\s*[A-Za-z0-9_\"'.-]+\s*\]\]?\s*(#.*)?$")


def _sniff(first: bytes, stream: IO[bytes], limit: int | None = None) -> tuple[str, list[bytes], int]:
    """Guess the container of an input from its first line that is neither
    blank nor a comment; returns the format, the lines read that matter, and how
    many blank lines came before them (counted, not kept). Lines are read to
    ``limit`` bytes (:data:`MAX_RECORD_BYTES` unless given): one cut there is
    JSON Lines if it starts with ``{`` (a record past the limit, the error of
    that record), else a document; what was read of it ends the head, the rest
    is still in ``stream``."""
    if limit is None:
        limit = MAX_RECORD_BYTES
    head: list[bytes] = []
    skipped = 0
    held = 0
    for line in chain([first], lines_of(stream.readline, limit)):
        if type(line) is Cut:
            head.append(line)
            start = _first_byte(line)
            return "jsonl" if start in (b"{", b"") else "json" if start == b"[" else "toml", head, skipped
        s = line.strip()
        if not s and not head:
            skipped += 1
            continue
        head.append(line)
        held += len(line)
        if held > MAX_DOCUMENT_BYTES:  # comments and blank lines only, so far: a document, past its limit
            return "toml", head, skipped
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


def _people_hint(data: bytes | bytearray) -> str:
    """A hint when the input is gincli's rendering for people (suit symbols,
    rules of a table) rather than data."""
    if any(mark in data for mark in ("♠".encode(), "♥".encode(), "♦".encode(), "♣".encode(), "─".encode())):
        return "; it looks like text for people: give --format json to the command that wrote it"
    return ""


def _json_hint(data: bytes | bytearray, exc: ValueError) -> str:
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
        where = f"column {exc.colno}" if exc.lineno == 1 else f"line {exc.lineno} column {exc.colno}"
        return f"{exc.msg} at {where}"
    if isinstance(exc, UnicodeDecodeError):
        return "it is not UTF-8 text"
    return str(exc).split(";")[0]  # an integer past the digit limit: the advice is Python's, not the user's
