"""The transcript store: where transcripts are written, locked, read back and
resumed, for every writer of them (``gin match``, ``gin tournament``,
``gin play``, :func:`gincli.play_match`, :func:`gincli.play_tournament`).

- :class:`TranscriptLog`: a file of JSON Lines, one session a line, each
  appended whole as its session ends; locked for the run (one writer a file);
  read back line by line for ``--resume`` (a last line cut short by an
  interruption dropped, anything else refused in a sentence naming the line);
- :class:`StreamSink` (a stream: ``--transcripts -``) and
  :class:`MemorySink` (the API's list of lines), which take the same lines;
- :class:`SavedTranscript`: one session's transcript rewritten whole after
  every move (``gin play --transcript``), so that the file always holds a
  valid transcript of the play so far.

What a line must hold to belong to a run is the run's to say (the matches
layer compares each with its spec): the store knows files, lines and locks.
"""

from __future__ import annotations

import errno
import json
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import IO, Any, BinaryIO, Protocol

from ..base.arguments import FLAGS, Spelling
from ..base.errors import MachineError, UsageError, os_reason, plural
from ..base.jsonio import dumps, encodable, loads, unsigned_zeros
from . import containers
from .containers import bounded_lines, size_text, too_long
from .files import lock, lock_beside, unlock_beside
from .transcripts import TRANSCRIPT_FORMAT

#: The errors of a full disk (or a full quota): the run can be finished later, once there is room.
FULL = (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC))


class TranscriptSink(Protocol):
    """Where a run's transcripts go, a whole line (bytes, ending in a newline) at a time."""

    def write(self, data: bytes) -> None: ...

    def close(self) -> None: ...


class StreamSink:
    """Each line written to a binary stream and flushed as its session ends
    (``--transcripts -``: the transcripts are the data on standard output)."""

    def __init__(self, stream: IO[bytes]):
        self.stream = stream

    def write(self, data: bytes) -> None:
        self.stream.write(data)
        self.stream.flush()

    def close(self) -> None:
        self.stream.flush()


class MemorySink:
    """The lines kept in memory, in order (the Python API's ``transcripts``)."""

    def __init__(self) -> None:
        self.lines: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.lines.append(data)

    def close(self) -> None:
        pass


def parse_line(raw: bytes) -> dict[str, Any] | None:
    """A whole line of a transcripts file as the transcript it holds, or
    ``None`` when it is not one (cut short, not JSON, another format)."""
    if not raw.endswith(b"\n"):
        return None
    try:
        doc = loads(raw)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) and doc.get("format") == TRANSCRIPT_FORMAT else None


class TranscriptLog:
    """A run's file of transcripts (``--transcripts FILE``), open and locked
    for the run: read back with :meth:`sessions` (``--resume``), then each
    session's line appended whole with :meth:`write`. Nothing but what this
    run's earlier sessions wrote is ever truncated or overwritten."""

    def __init__(self, fh: BinaryIO, path: str, what: str, size: int, say: Spelling = FLAGS):
        self.fh = fh
        self.say = say  # how the sentences name the arguments: --resume, resume=True
        self.path = path
        self.what = what  # what --resume finishes: "match", "tournament"
        self.size = size  # the file's size when opened
        self.fd = fh.fileno()
        self.lines = 0  # lines written by this run
        self.kept = 0  # the bytes of the sessions read back

    @classmethod
    def open(cls, path: str, resume: bool, what: str = "match", say: Spelling = FLAGS) -> TranscriptLog:
        """The file opened for a run and locked for it (:func:`~gincli.formats.files.lock`):
        for reading back and appending with ``resume`` (a regular file), else
        for appending to a file that must be empty. :class:`UsageError` /
        :class:`MachineError` in one sentence, the file left as it was."""
        try:
            fd = os.open(path, os.O_RDWR | os.O_CREAT if resume else os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o666)
        except OSError as exc:
            folder = os.path.dirname(os.path.abspath(path))
            if isinstance(exc, FileNotFoundError) and not os.path.isdir(folder):
                raise UsageError(f"cannot write the transcripts to {path}: the folder {folder} does not exist "
                                 "(make it first, or give another path)") from None
            raise UsageError(f"cannot write the transcripts to {path}: {exc.strerror or exc}") from None
        try:
            lock(fd, path, "the transcripts file")  # one writer a file: a second run stops here, having written nothing
        except BaseException:
            os.close(fd)
            raise
        st = os.fstat(fd)
        regular = stat.S_ISREG(st.st_mode)
        if resume and not regular:
            os.close(fd)
            raise UsageError(f"{path} is not a regular file; {say.on('resume')} only finishes a file of transcripts",
                             parameters=("resume",))
        if not resume and regular and st.st_size > 0:
            os.close(fd)
            raise UsageError(f"{path} already holds something; {say.on('resume')} finishes the {what} that wrote it, "
                             "or give another file", parameters=("resume",))
        try:
            fh = os.fdopen(fd, "r+b" if resume else "ab")
        except OSError as exc:  # a special file that cannot be written like one (/proc/version)
            os.close(fd)
            raise MachineError(f"cannot write the transcripts to {path}: {os_reason(exc)}") from None
        return cls(fh, path, what, st.st_size, say)

    def sessions(self, cut_short: Callable[[bytes], bool]) -> Iterator[tuple[int, dict[str, Any]]]:
        """The transcripts an earlier run wrote, from the start of the file:
        each with its line number. A last line that ``cut_short`` says is the
        start of a session's line, cut by an interruption, is left out;
        anything else that is not a transcript is a :class:`UsageError` naming
        the line. A line is read to
        :data:`~gincli.formats.containers.MAX_RECORD_BYTES` at most: a longer
        one is refused, unless it is the last, cut short. The file is not
        changed: :meth:`go_on` then cuts what follows the sessions read."""
        self.kept = 0
        number = 0
        limit = containers.MAX_RECORD_BYTES  # read when asked: the limit of the run, not of the import
        lines = bounded_lines(self.fh, limit)  # a longer line comes cut at the limit, the rest skipped
        raw = next(lines, None)
        while raw is not None:
            following = next(lines, None)
            number += 1
            doc = parse_line(raw)
            if doc is None:
                if following is None and cut_short(raw):
                    break
                finish = f"{self.say.on('resume')} only finishes a file this {self.what} wrote"
                if too_long(raw):
                    raise UsageError(f"{self.path} line {number} is longer than {size_text(limit)}, the "
                                     f"limit of a transcript; {finish}")
                raise UsageError(f"{self.path} line {number} is not a transcript of this {self.what}; {finish}")
            yield number, doc
            self.kept += len(raw)
            raw = following

    def go_on(self) -> None:
        """Once :meth:`sessions` were read and accepted: what follows them (a
        last line cut short) is cut, and this run's lines go after them."""
        if self.kept < self.size:
            self.fh.truncate(self.kept)
        self.fh.seek(self.kept)

    def write(self, data: bytes) -> None:
        """One session's line, written whole, straight to the file (no buffer
        left to fail later). A write the system refuses (a full disk) takes
        back what it wrote of its line, so that the file holds whole sessions
        only (``--resume`` goes on from them), and is a :class:`MachineError`
        naming the file."""
        try:
            start = os.lseek(self.fd, 0, os.SEEK_END)
        except OSError:
            start = None  # not seekable (a pipe, a device): nothing to take back
        view = memoryview(data)
        try:
            while view:
                view = view[os.write(self.fd, view):]
        except OSError as exc:
            if start is not None:
                try:
                    os.ftruncate(self.fd, start)
                except OSError:
                    pass
            kept = (f"; the {plural(self.lines, 'session')} written before it {'is' if self.lines == 1 else 'are'} "
                    "kept" if self.lines else "")
            hint = f" (finish the {self.what} with {self.say.on('resume')} once there is room)" \
                if exc.errno in FULL else ""
            raise MachineError(f"cannot write the transcripts to {self.path}: {os_reason(exc)}{kept}{hint}") \
                from None
        self.lines += 1

    def close(self) -> None:
        try:
            self.fh.close()
        except OSError:
            pass


def recorded_seed(path: str) -> int | None:
    """The match seed a transcripts file was written with (its first
    session's ``match`` field), for ``--resume`` without ``--seed``; ``None``
    when the file holds no readable first line."""
    try:
        with open(path, "rb") as fh:
            first = fh.readline(containers.MAX_RECORD_BYTES + 1)
    except OSError:
        return None
    doc = parse_line(first)
    match = doc.get("match") if doc is not None else None
    seed = match.get("seed") if isinstance(match, dict) else None
    return seed if isinstance(seed, int) and not isinstance(seed, bool) else None


#: Where the hands go in the indented document (no transcript holds this string: JSON escapes it as \\u0000).
_HANDS = "\0hands\0"


class SavedTranscript:
    """One session's transcript, rewritten whole (to a temporary file, then
    renamed) after every move (``gin play --transcript``): whatever happens,
    the file holds a valid transcript of the play so far. Locked for the run
    (a lock file beside it): a second run on the same file is refused.
    ``option``: how the sentences name the file's option."""

    def __init__(self, path: Path, resume: bool = False, option: str = "--transcript"):
        self.path = path
        if path.is_dir():
            raise UsageError(f"{option} {path} is a folder; name a file")
        if not path.parent.is_dir():
            raise UsageError(f"{option} {path}: the folder {path.parent} does not exist")
        if path.exists() and not stat.S_ISREG(path.stat().st_mode):  # /dev/full: it is replaced at every move
            raise UsageError(f"{option} {path} is not a regular file; name a file (gin play saves the "
                             "transcript whole after every move, in its place)")
        self.lock: int | None = lock_beside(path, "the transcript")
        if not resume and path.exists() and path.stat().st_size > 0:
            self.close()
            raise UsageError(f"{option} {path} already exists; name a new file (gin play never "
                             "overwrites one; --resume goes on with the session it holds)")
        self.lines = path.suffix.lower() in (".jsonl", ".ndjson")
        self._hands: dict[str, str] = {}  # a hand's JSON -> its indented text, as the document holds it

    def text(self, doc: dict[str, Any]) -> str:
        """The document as saved: one line in a JSON Lines file, else indented
        (``dumps(doc, indent=1)``, byte for byte). Python's encoder indents in
        Python, and the whole session is saved after every move: each hand is
        indented once, when it is first saved as it is, and found again by its
        compact JSON (which C encodes), so a long session costs no more a move."""
        if self.lines:
            return dumps(doc) + "\n"
        hands = doc.get("hands")
        if not isinstance(hands, list) or not hands:
            return dumps(doc, indent=1) + "\n"
        parts = []
        for hand in hands:
            key = json.dumps(hand, ensure_ascii=False, allow_nan=False)
            part = self._hands.get(key)
            if part is None:
                part = json.dumps(hand, ensure_ascii=False, indent=1, allow_nan=False).replace("\n", "\n  ")
                self._hands[key] = part
            parts.append(part)
        head = json.dumps({**doc, "hands": [_HANDS]}, ensure_ascii=False, indent=1, allow_nan=False)
        marker = json.dumps(_HANDS)
        text = head.replace(marker, ",\n  ".join(parts)) if head.count(marker) == 1 else ""
        return unsigned_zeros(text) + "\n" if text and encodable(text) else dumps(doc, indent=1) + "\n"

    def save(self, doc: dict[str, Any]) -> None:
        text = self.text(doc)
        tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
        try:
            with open(tmp, "w", encoding="utf-8") as fh:
                fh.write(text)
            os.replace(tmp, self.path)
        except OSError as exc:
            try:
                tmp.unlink()
            except OSError:
                pass
            raise MachineError(f"cannot save the transcript to {self.path}: {os_reason(exc)}; the file holds the "
                               "play up to the last move saved") from None

    def close(self) -> None:
        if self.lock is not None:
            unlock_beside(self.path, self.lock)
            self.lock = None
