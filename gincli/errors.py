"""gincli's exceptions and the exit statuses they map to.

Every failure a user can cause is one of these, carrying one clear sentence.
The CLI turns them into that sentence on stderr (or an ``error`` entry in JSON
output) and a documented exit status; a traceback only with ``GINCLI_DEBUG=1``.
"""

from __future__ import annotations

#: Exit statuses, as documented in docs/cli.md.
EXIT_OK = 0
EXIT_RECORD_FAILED = 1  # some record or transcript failed; the others were processed
EXIT_UNREADABLE = 2  # the input (or the command line) cannot be used at all


class GinError(Exception):
    """Base class: a problem a user can fix, with one clear sentence."""

    exit_code = EXIT_UNREADABLE

    def __init__(self, message: str, rule: str | None = None):
        super().__init__(message)
        self.message = message
        #: A stable identifier of the rule broken (``gin validate``'s rule ids).
        self.rule = rule

    def __str__(self) -> str:
        return self.message


class RecordError(GinError):
    """One record cannot be scored or replayed; the others still are."""

    exit_code = EXIT_RECORD_FAILED


class InputError(GinError):
    """An input cannot be read at all (missing file, not JSON/TOML at all)."""

    exit_code = EXIT_UNREADABLE


class UsageError(GinError):
    """A command-line choice is wrong: unknown variant, bad ``--option``."""

    exit_code = EXIT_UNREADABLE


class ConfigError(GinError):
    """A variant file or a plugin is wrong; names the file or plugin."""

    exit_code = EXIT_UNREADABLE


class PluginError(ConfigError):
    """A plugin failed to import or broke a hook's contract."""
