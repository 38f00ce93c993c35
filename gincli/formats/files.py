"""Writing files safely: one writer per file, and pages written whole.

- :func:`lock` takes an advisory lock on a file gincli writes for a whole run
  (``gin match --transcripts``, ``gin play --transcript``): a second run on
  the same file is refused with one sentence, before it writes anything;
- :func:`write_new` writes a file for people (a report page) whole or not at
  all: to a temporary file in the same folder, then linked into place, so that
  a symbolic link planted at the path is never followed and an existing file
  is never overwritten unless asked (``force``).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..base.errors import MachineError, UsageError, os_reason


def lock(fd: int, path: str | os.PathLike[str], what: str = "the file") -> None:
    """Hold an exclusive advisory lock on ``fd`` (open on ``path``) for as long
    as it stays open; :class:`MachineError` naming the file when another
    process holds it. Where the system has no such locks (some network file
    systems), the file is written unlocked."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX
        return
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise MachineError(f"{what} {os.fspath(path)} is being written by another gin run right now; wait for "
                           "it to end, or give another file") from None
    except OSError:
        pass


def lock_beside(path: Path, what: str = "the file") -> int:
    """Lock a file that is replaced whole as it is written (a new inode each
    time) through a hidden lock file beside it, ``.NAME.lock``; returns the
    lock file's descriptor, to close (and :func:`unlock_beside`) at the end."""
    lock_path = path.with_name(f".{path.name}.lock")
    try:
        fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0),
                     0o600)
    except OSError as exc:
        raise MachineError(f"cannot write {what} {path}: {os_reason(exc)}") from None
    try:
        lock(fd, path, what)
    except BaseException:
        os.close(fd)
        raise
    return fd


def unlock_beside(path: Path, fd: int) -> None:
    """Let go of :func:`lock_beside`'s lock and remove its file."""
    try:
        os.unlink(path.with_name(f".{path.name}.lock"))
    except OSError:
        pass
    try:
        os.close(fd)
    except OSError:
        pass


def check_new(path: str, option: str, force: bool = False) -> None:
    """Refuse, before any work, a path that :func:`write_new` would refuse:
    an existing file (unless ``force``), a symbolic link, a folder, a folder that is missing."""
    p = Path(path)
    if p.is_symlink():
        raise UsageError(f"{option} {path} is a symbolic link; gincli does not write through one: give the file "
                         "itself")
    if p.is_dir():
        raise UsageError(f"{option} {path} is a folder; name a file")
    if p.exists() and not force:
        raise UsageError(f"{option} {path} already exists; give --force to replace it, or another file")
    if p.exists() and not stat.S_ISREG(p.stat().st_mode):
        raise UsageError(f"{option} {path} is not a regular file")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: the folder {folder} does not exist (make it first, or give another "
                         "path)")


def write_new(path: str, text: str, what: str, force: bool = False) -> None:
    """Write ``text`` to ``path`` whole (UTF-8), never through a symbolic link
    and, unless ``force``, never over an existing file: :class:`UsageError` /
    :class:`MachineError` in one sentence naming ``what`` and the file, and the
    path as it was."""
    p = Path(path)
    folder = p.parent if str(p.parent) else Path(".")
    tmp = folder / f".{p.name}.{os.getpid()}.tmp"
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    except OSError as exc:
        raise MachineError(f"cannot write {what} to {path}: {os_reason(exc)}") from None
    try:
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                fh.write(text)
                fh.flush()
                os.fsync(fh.fileno())
        except OSError as exc:
            raise MachineError(f"cannot write {what} to {path}: {os_reason(exc)}") from None
        if force:
            if p.is_dir() and not p.is_symlink():
                raise UsageError(f"cannot write {what} to {path}: it is a folder")
            os.replace(tmp, p)  # replaces a link itself, never what it points to
        else:
            try:
                os.link(tmp, p)  # fails if anything (a file, a link) is there: nothing is overwritten
            except FileExistsError:
                raise UsageError(f"cannot write {what} to {path}: it already exists; give --force to replace it, "
                                 "or another file") from None
            except OSError as exc:
                if not _no_hard_links(exc):
                    raise MachineError(f"cannot write {what} to {path}: {os_reason(exc)}") from None
                if os.path.lexists(p):  # a file system without hard links: checked, then renamed
                    raise UsageError(f"cannot write {what} to {path}: it already exists; give --force to replace "
                                     "it, or another file") from None
                os.replace(tmp, p)
    finally:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _no_hard_links(exc: OSError) -> bool:
    import errno

    return exc.errno in (errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP if hasattr(errno, "ENOTSUP") else -1,
                         errno.EMLINK, errno.EXDEV)
