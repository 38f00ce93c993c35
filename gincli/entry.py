"""The ``gin`` console script's entry point (and ``python -m gincli``).

Loading the command line takes a few hundredths of a second; a Ctrl-C in that
time ends the run with the same one line as a Ctrl-C at any other time
(``gin: interrupted``, exit 130), never a traceback. From the moment this
module is imported (the console script's first line of gincli) until the
command line is loaded, SIGINT ends the run at once; then Python's own
handler is back, and every command answers a Ctrl-C itself.
"""

from __future__ import annotations

import sys

import _signal as signal  # the C module: the signal module would import enum first, a window of its own

EXIT_INTERRUPTED = 130


def _interrupted(*_: object) -> None:
    """Ctrl-C while the command line loads: one line, and the process ends at
    once. Not ``sys.exit``: the signal may land inside a callback of the import
    system (a module lock's weakref), where a ``SystemExit`` is printed as an
    ignored exception with its traceback, and loading goes on. Nothing has been
    written or started yet, so there is nothing to clean up."""
    try:
        sys.stderr.write("gin: interrupted\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
    import os

    os._exit(EXIT_INTERRUPTED)


def _starting() -> None:
    try:
        if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when SIGINT is ignored
            signal.signal(signal.SIGINT, _interrupted)
    except ValueError:  # not the main thread: imported, not run as gin
        pass


_starting()


def main() -> None:
    try:
        from .cli import main as run
    except KeyboardInterrupt:
        _interrupted()
    if signal.getsignal(signal.SIGINT) is _interrupted:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    run()
