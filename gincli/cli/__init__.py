"""The ``gin`` command line, the top layer: the app (:mod:`.app`), what every
command shares (:mod:`.base`: settings, messages, the guard that turns every
failure into a sentence and an exit status), standard output kept for data
(:mod:`.streams`), one module per command, and the renderings for people
(:mod:`.render`, :mod:`.hands`, :mod:`.screens`, :mod:`.sheets`,
:mod:`.summary`) and for spreadsheets (:mod:`.rows`).

Data goes to stdout, and only data; errors, warnings, summaries and progress
go to stderr. Every failure a user can cause is a :class:`GinError` turned
into one sentence and a documented exit status (docs/cli.md); a traceback
only with ``GINCLI_DEBUG=1``. It may import every layer.
"""

from __future__ import annotations

from .app import COMMANDS, main, make_app

__all__ = ["COMMANDS", "main", "make_app"]
