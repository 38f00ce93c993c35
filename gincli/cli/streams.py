"""Standard output holds data, and only data; the machine's faults in one sentence.

While a command runs, ``sys.stdout`` is a stand-in that sends whatever is
printed there (a plugin's ``print()``, say) to stderr, saying so once: gincli
writes its data through :func:`data`, the real standard output. A write that
the system refuses (a full disk, ``/dev/full``, a special file) is an
:class:`OutputError`: one sentence naming the target and the reason, exit 2.

:func:`prepare` runs first of all: a standard stream that is closed at start
(``2>&-``) is opened on ``/dev/null`` so that no file gincli opens takes its
place (gincli's messages would otherwise land in the data), a standard error
that refuses a write (``2>/dev/full``) is treated the same from then on
(:class:`_Messages`), and text for people never fails on an encoding that
lacks the suit symbols.
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..base.contract import StrayOutput
from ..base.errors import GinError, MachineError, os_reason

#: Whether standard output was closed when gin started (``>&-``).
stdout_closed = False


class OutputError(MachineError):
    """The system refused a write: a full disk, a closed or special file."""


def prepare() -> None:
    """Standard streams fit to use, before anything else runs (see the module's docstring)."""
    global stdout_closed
    for fd in (0, 1, 2):
        try:
            os.fstat(fd)
        except OSError:
            try:
                null = os.open(os.devnull, os.O_RDWR)
            except OSError:
                continue
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
            if fd == 1:
                stdout_closed = True
            # the process's standard stream from now on, open as long as it runs
            stream = open(fd, "w" if fd else "r", encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
            setattr(sys, ("stdin", "stdout", "stderr")[fd], stream)
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if stream is not None and not _unicode(stream) and hasattr(stream, "reconfigure"):
            import codecs

            codecs.register_error(PLAIN, _plain)
            try:  # an ASCII or Latin-1 terminal: 7♠ is written 7s, never an error
                stream.reconfigure(errors=PLAIN)
            except (OSError, ValueError, LookupError):
                pass
    if sys.stderr is not None and not isinstance(sys.stderr, _Messages):
        sys.stderr = _Messages(sys.stderr)


class _Messages:
    """Standard error, where gincli's messages go. A write the system refuses
    (a full disk, ``2>/dev/full``, a reader gone) drops the messages from then
    on, as a standard error closed at start does: ``/dev/null`` takes its
    place (what Python and the workers would write there too), and the run
    ends with the status its work earns, the data on standard output untouched."""

    def __init__(self, stream: Any):
        self._stream = stream

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError:
            self._drop()
            return len(text)

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError:
            self._drop()

    def _drop(self) -> None:
        try:
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(null, self._stream.fileno())
            os.close(null)
        except (OSError, ValueError, AttributeError):
            return
        try:
            self._stream.flush()  # what it holds goes to /dev/null
        except (OSError, ValueError):
            pass

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


#: The error handler of text for people on a terminal whose encoding lacks
#: gincli's symbols: suits as letters, rules and dots as ASCII, anything else "?".
PLAIN = "gincli-plain"
_PLAIN = {"♠": "s", "♥": "h", "♦": "d", "♣": "c", "·": "-", "—": "-", "–": "-", "…": "...", "─": "-",
          "│": "|", "✓": "ok", "✗": "x", "×": "x", "≥": ">=", "≤": "<=", "±": "+/-", "→": "->", "∞": "inf",
          "•": "*", "“": '"', "”": '"', "‘": "'", "’": "'"}


def _plain(exc: UnicodeError) -> tuple[str, int]:
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object[exc.start:exc.end]
    return "".join(_PLAIN.get(c, "?") for c in text), exc.end


def _encoding(stream: Any) -> str:
    """A stream's encoding, lower case, without dashes and underscores (``utf8``)."""
    return (getattr(stream, "encoding", None) or "").lower().replace("-", "").replace("_", "")


def _unicode(stream: Any) -> bool:
    return _encoding(stream).startswith("utf")


def utf8_output(json: bool = False) -> bool:
    """Whether standard output takes bytes (:meth:`_Data.utf8`) and is UTF-8;
    with ``json``, whatever its encoding (JSON is UTF-8, as :meth:`_Data.json_text` writes it)."""
    out = data()
    if not isinstance(out, _Data) or out.buffer.raw is None:
        return False
    return json or _encoding(out) == "utf8"


def unicode_output() -> bool:
    """Whether standard output takes any character (else gincli draws cards with letters)."""
    return _unicode(data())


class _Data:
    """The real standard output, its write failures turned into :class:`OutputError`."""

    def __init__(self, stream: Any):
        self._stream = stream
        self.buffer = _Binary(getattr(stream, "buffer", None), self)

    def write(self, text: str) -> int:
        try:
            return self._stream.write(text)
        except OSError as exc:
            raise refused(exc) from None

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as exc:
            raise refused(exc) from None

    def json_text(self, text: str) -> None:
        """Write JSON: UTF-8 as JSON requires, whatever the terminal's encoding."""
        if _unicode(self._stream) or self.buffer.raw is None:
            self.write(text)
        else:
            self.flush()
            self.buffer.write(text.encode("utf-8"))

    def utf8(self, *chunks: bytes) -> None:
        """Write text already encoded as UTF-8 (when :func:`utf8_output`): what the
        text layer holds first, then the bytes."""
        self.flush()
        for chunk in chunks:
            if chunk:
                self.buffer.write(chunk)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


class _Binary:
    def __init__(self, raw: Any, owner: _Data):
        self.raw = raw
        self._owner = owner

    def write(self, data: bytes) -> int:
        try:
            return self.raw.write(data)
        except OSError as exc:
            raise refused(exc) from None

    def flush(self) -> None:
        try:
            self.raw.flush()
        except OSError as exc:
            raise refused(exc) from None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


def refused(exc: OSError, target: str = "standard output") -> GinError:
    """The sentence for a write the system refused (``BrokenPipeError`` stays
    itself: the reader went away, which is no error)."""
    if isinstance(exc, BrokenPipeError) or exc.errno == errno.EPIPE:
        return exc  # type: ignore[return-value]
    return OutputError(f"cannot write to {target}: {os_reason(exc)}")


_data: _Data | None = None


def data() -> Any:
    """Where gincli writes its data: the real standard output (during a command,
    wrapped so that a refused write is one sentence)."""
    if _data is not None:
        return _data
    return sys.stdout


@contextmanager
def command_streams() -> Iterator[None]:
    """For the run of a command: :func:`data` is standard output, ``sys.stdout`` the stand-in."""
    global _data
    if _data is not None:  # a command inside a command (tests): already in place
        yield
        return
    real = sys.stdout
    moved = _move_fd1(real)
    _data = _Data(real if moved is None else moved[1])
    sys.stdout = StrayOutput()
    try:
        yield
    finally:
        sys.stdout = real
        _data = None
        if moved is not None:
            _restore_fd1(*moved)


def _move_fd1(real: Any) -> tuple[int, Any] | None:
    """Standard output's descriptor kept for gincli's data alone: the data is
    written to a copy of file descriptor 1, and descriptor 1 itself points at
    standard error for the command's run, so that what plugin code writes
    there (``os.write(1, ...)``, a C extension's ``printf``, a program it
    starts) never mixes into the data. Only where descriptor 1 is standard
    output's (not in a test's captured streams) and both standard streams are
    open; else ``None``, and nothing moves."""
    try:
        if real is None or real.fileno() != 1 or stdout_closed:
            return None
        real.flush()
        saved = os.dup(1)
    except (AttributeError, OSError, ValueError):
        return None
    try:
        os.set_inheritable(saved, False)
        os.dup2(2, 1)
    except OSError:
        os.close(saved)
        return None
    import io

    binary = open(saved, "wb", closefd=False)  # noqa: SIM115  (the data's stream, open for the command's run)
    stream = io.TextIOWrapper(binary, encoding=real.encoding, errors=real.errors,
                              line_buffering=real.line_buffering, write_through=getattr(real, "write_through", False))
    return saved, stream


def _restore_fd1(saved: int, stream: Any) -> None:
    """Descriptor 1 is standard output again (what the data stream still holds is written first)."""
    try:
        stream.flush()
    except (OSError, ValueError):
        pass
    try:
        os.dup2(saved, 1)
    finally:
        os.close(saved)
