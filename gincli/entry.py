"""The ``gin`` console script's entry point (and ``python -m gincli``).

A Ctrl-C at any moment of a run, start-up included, ends it with one line
(``gin: interrupted``, exit 130), never a traceback. Python answers a Ctrl-C by
raising ``KeyboardInterrupt`` wherever the program is; inside the import system
that can land in a callback of a module lock, where Python prints the exception
as "ignored", with its traceback, and goes on importing. So gin holds the
interrupt while a module is being imported, and answers it as soon as the
imports are done:

- ``gincli/__init__.py``, the first of gincli's code the console script runs,
  blocks SIGINT (the kernel holds it) before it imports anything, then imports
  this module;
- this module, when the process is the ``gin`` command, installs
  :func:`_on_interrupt` as the SIGINT handler; then it unblocks: a Ctrl-C that
  came meanwhile is delivered then (in a program importing gincli, to its own
  handler, as ``KeyboardInterrupt`` from ``import gincli``);
- :func:`_on_interrupt` raises ``KeyboardInterrupt`` at once, unless the
  import system, or code that ``exec`` or ``eval`` runs from a string, is on
  the stack (:func:`_importing` says why), or :func:`main` has not been called
  yet (the console script's own lines): then it notes the interrupt and asks
  again a few milliseconds later, until it can be raised (:func:`main`
  answers one held until it starts); meanwhile every import statement that
  ends outside the import system answers it (:func:`_import_then_answer`). A second Ctrl-C while one is held is
  answered at once (a plugin that hangs while it is imported).

The commands answer the ``KeyboardInterrupt`` themselves (their one line, and
what they keep: a transcript, a report page); :mod:`gincli.cli` answers it
before a command runs. A library user's ``import gincli`` changes no handler.
"""

from __future__ import annotations

import _thread  # the C module, already loaded (threading imports more)
import builtins
import sys
import time

TYPE_CHECKING = False  # typing is not imported (see gincli/__init__.py)
if TYPE_CHECKING:
    import signal  # typeshed has no stub of the C module: these are its functions
else:
    import _signal as signal  # the C module, already loaded: the signal module would import enum first

EXIT_INTERRUPTED = 130

#: How long a held Ctrl-C waits before it is asked again (seconds).
RECHECK = 0.005

_held = {"pending": False, "resent": False, "running": False}


def _run_as_gin(argv: list[str], orig_argv: list[str]) -> bool:
    """Whether this process is the ``gin`` command (its console script, or
    ``python -m gincli``), not a program importing gincli."""
    name = (argv[0] if argv else "").replace("\\", "/").rsplit("/", 1)[-1]
    if name in ("gin", "gin.exe", "gin-script.py", "gin-script.pyw"):
        return True
    return any(a == "-mgincli" or (a == "-m" and b == "gincli")
               for a, b in zip(orig_argv, orig_argv[1:] + [""], strict=True))
_main_thread = _thread.get_ident()


def _importing(frame: object) -> bool:
    """Whether the stack that ``frame`` ends passes through the import system,
    or through code ``exec`` or ``eval`` runs from a string (``<string>``: the
    methods dataclasses write, annotations evaluated by inspect and typing).
    A ``KeyboardInterrupt`` that crosses such code marks the process as ended
    by an unhandled Ctrl-C, whoever catches it later: Python then ends itself
    with SIGINT (status -2) instead of 130."""
    while frame is not None:
        name = frame.f_code.co_filename  # type: ignore[attr-defined]
        if name == "<string>" or name.startswith("<frozen importlib"):
            return True
        frame = frame.f_back  # type: ignore[attr-defined]
    return False


def _ask_again() -> None:
    """From a thread of its own: the held Ctrl-C again, a little later."""
    time.sleep(RECHECK)
    if not _held["pending"] or sys.is_finalizing():  # answered meanwhile, or the process is ending
        return
    _held["resent"] = True
    try:
        if hasattr(signal, "pthread_kill"):
            signal.pthread_kill(_main_thread, signal.SIGINT)  # wakes the main thread from a blocking call
        else:
            signal.raise_signal(signal.SIGINT)
    except (OSError, ValueError):  # the process is ending
        pass


_import = builtins.__import__


def _import_then_answer(name: str, globals: object = None, locals: object = None, fromlist: object = (),
                        level: int = 0) -> object:
    """``__import__`` while a Ctrl-C is held in :func:`main`: the import, then
    the interrupt, as soon as the outermost import statement is done (a command
    that imports as it goes would otherwise have the held Ctrl-C land in its
    next import at every recheck, and run to its end)."""
    module = _import(name, globals, locals, fromlist, level)  # type: ignore[arg-type]
    if _held["pending"] and _held["running"] and not _importing(sys._getframe(1)):
        _held["pending"] = False
        builtins.__import__ = _import
        raise KeyboardInterrupt
    return module


def _on_interrupt(signum: int, frame: object) -> None:
    """SIGINT: ``KeyboardInterrupt`` now, or as soon as no module is being imported."""
    if _held["resent"]:
        _held["resent"] = False
        if not _held["pending"]:  # asked again after main() answered it
            return
    elif _held["pending"]:  # a second Ctrl-C while one is held: now, whatever is being imported
        _held["pending"] = False
        builtins.__import__ = _import
        raise KeyboardInterrupt
    if not _held["running"] or _importing(frame):  # main() not reached yet (the console script), or an import
        _held["pending"] = True
        if _held["running"]:
            builtins.__import__ = _import_then_answer  # type: ignore[assignment]
        _thread.start_new_thread(_ask_again, ())
        return
    _held["pending"] = False
    builtins.__import__ = _import
    raise KeyboardInterrupt


def _interrupted(*_: object) -> None:
    """Ctrl-C while the process ends (its output written, its files closed):
    the one line, and the process ends at once."""
    try:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:
        pass
    try:
        sys.stderr.write("gin: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    import os

    os._exit(EXIT_INTERRUPTED)


def _starting() -> None:
    """In the gin command, install :func:`_on_interrupt` (unless SIGINT is
    ignored, or handled by someone else), then deliver a Ctrl-C the kernel held
    meanwhile. A program that imports this module keeps its own handler."""
    package = sys.modules[__package__ or "gincli"]
    try:
        gin = _run_as_gin(sys.argv, getattr(sys, "orig_argv", []))
        if gin and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
            signal.signal(signal.SIGINT, _on_interrupt)
    except ValueError:  # not the main thread: imported, not run as gin
        pass
    finally:
        if getattr(package, "_interrupt_held", False):
            vars(package)["_interrupt_held"] = False
            signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


_starting()


def main() -> None:
    _held["running"] = True
    try:
        try:
            if _held["pending"]:  # a Ctrl-C held since start-up
                _held["pending"] = False
                raise KeyboardInterrupt
            from .base.heap import keep_freed

            keep_freed()  # the gin process's allocator keeps what it frees (gincli/base/heap.py)
            from .cli import main as run
        except KeyboardInterrupt:
            _interrupted()
        run()
    finally:
        if signal.getsignal(signal.SIGINT) is _on_interrupt:  # from here on, the process only ends
            signal.signal(signal.SIGINT, _interrupted)
            if _held["pending"]:  # a Ctrl-C held while the last modules were imported: answered now
                _interrupted()
