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
#: 3 is a bug of gincli's (gincli.cli.base.EXIT_INTERNAL); a plugin's fault is never one.
EXIT_PLUGIN_FAULT = 4  # a plugin broke its contract: the sentence names it, in every command


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
    """A command-line choice or an API argument is wrong: unknown variant, bad ``--option``.

    ``parameters``: the arguments the sentence is about, as data, by the
    Python API's names (``("hands", "games")``), whichever face worded the
    sentence (the command line's ``--hands``, the API's ``hands=``)."""

    exit_code = EXIT_UNREADABLE

    def __init__(self, message: str, rule: str | None = None, *, parameters: tuple[str, ...] = ()):
        super().__init__(message, rule)
        self.parameters = parameters


class ConfigError(GinError):
    """A variant file or a plugin is wrong; names the file or plugin."""

    exit_code = EXIT_UNREADABLE


#: How many characters of a piece of input an error message quotes.
QUOTE_LIMIT = 40


def quote(value: object) -> str:
    """A piece of input as an error message shows it: as JSON, cut to
    ``QUOTE_LIMIT`` characters with an ellipsis and the full length past that
    (``"AAAA…" (52,428,800 characters)``); a NaN or an infinity (TOML's, a
    script's) as ``nan`` or ``inf``, never a token no JSON reader takes."""
    import json

    if isinstance(value, str):
        if len(value) <= QUOTE_LIMIT:
            return json.dumps(value, ensure_ascii=False)
        return json.dumps(value[:QUOTE_LIMIT], ensure_ascii=False)[:-1] + f"…\" ({len(value):,} characters)"
    try:
        text = as_json(value)
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return shorten(text)


#: A JSON string (skipped) or one of the tokens Python's encoder writes for NaN and the infinities.
_STRING_OR_NON_FINITE = r'"(?:[^"\\]|\\.)*"|-?Infinity|NaN'
_TOML_SPELLING = {"NaN": "nan", "Infinity": "inf", "-Infinity": "-inf"}


def as_json(value: object) -> str:
    """``value`` as JSON for a message, where a NaN or an infinity (in a TOML
    file, a value from a script) is spelt as TOML and Python spell it,
    ``nan``, ``inf``, ``-inf``: never a token no JSON reader takes.
    ``TypeError``, ``ValueError`` (a cycle), ``RecursionError`` when it is not JSON."""
    import json

    try:
        return json.dumps(value, ensure_ascii=False, allow_nan=False)
    except ValueError:
        import re

        text = json.dumps(value, ensure_ascii=False)  # the same error again when it is not the NaN's
        return re.sub(_STRING_OR_NON_FINITE, lambda m: _TOML_SPELLING.get(m.group(), m.group()), text, flags=re.S)


def clip(text: str, limit: int = 160) -> str:
    """A message from elsewhere (an exception's, a bot's, a cluster's) cut to
    ``limit`` characters, an ellipsis where it was cut."""
    return text if len(text) <= limit else text[:limit] + "…"


def shorten(text: str) -> str:
    """Text from the input, unquoted (an id in an error's place), cut like :func:`quote`."""
    return text if len(text) <= QUOTE_LIMIT else f"{text[:QUOTE_LIMIT]}… ({len(text):,} characters)"


def unexpected(exc: BaseException, doing: str, what: str = "record") -> str:
    """One sentence for an unexpected failure on one record (``doing``: "scored",
    "replayed"; ``what``: "record", "transcript", "hand"). The exception's own
    text is gincli's, not the input's: it is never shown (it would read as if
    it said what is wrong with the input); ``GINCLI_DEBUG=1`` shows it."""
    if isinstance(exc, RecursionError):
        return f"could not be {doing}: it is nested too deeply"
    return (f"this {what} could not be {doing}: a bug in gincli stopped it (please report it; GINCLI_DEBUG=1 "
            "shows the traceback)")


def plural(n: int, word: str, many: str | None = None) -> str:
    """``1 session``, ``4,000 dead hands``: a count for people, with thousands
    separated and the word agreeing with it (``many``: an irregular plural)."""
    if n == 1:
        return f"1 {word}"
    return f"{n:,} {many or word + 's'}"


def click_sentence(message: str) -> str:
    """Click's message as one of gincli's sentences: lower-case start, no full
    stop, one line."""
    parts = [part for part in " ".join(message.split()).rstrip(".").split(". ") if part]
    for i, part in enumerate(parts):
        if part[:1].isupper() and not part[1:2].isupper():
            parts[i] = part[0].lower() + part[1:]
    text = "; ".join(parts).replace("(Possible options:", "(possible options:")
    for click_words, ours in (("is not a valid int range", "is not a whole number"),
                              ("is not a valid integer range", "is not a whole number"),
                              ("is not a valid integer", "is not a whole number"),
                              ("is not a valid float range", "is not a number"),
                              ("is not a valid float", "is not a number")):
        text = text.replace(click_words, ours)
    import re

    text = re.sub(r"is not in the range ([-\d.]+)<=x<=([-\d.]+)", r"is not between \1 and \2", text)
    return re.sub(r"is not in the range x>=([-\d.]+)", r"must be at least \1", text)


def debug_enabled() -> bool:
    """Whether ``GINCLI_DEBUG`` asks for tracebacks (set, and not 0)."""
    import os

    return os.environ.get("GINCLI_DEBUG", "") not in ("", "0")


#: What the system's refusals mean, for people (the machine's faults, not gincli's).
_OS_REASONS = {
    "ENOSPC": "no space is left on the device (the disk is full)",
    "EDQUOT": "the disk quota is used up",
    "EROFS": "the file system is read-only",
    "EACCES": "permission denied",
    "EPERM": "the operation is not permitted",
    "EIO": "an input/output error (a failing disk or a lost network share?)",
    "EINVAL": "it does not take writes like a file (is it a special file?)",
    "EBADF": "it is closed",
    "EFBIG": "the file is too large for its file system",
    "ENXIO": "no device is behind it",
    "EISDIR": "it is a directory",
    "ENOENT": "no such file or folder",
    "ENOTDIR": "a part of the path is not a folder",
    "ELOOP": "it is a symbolic link (which gincli does not follow here)",
    "ETXTBSY": "it is a program being run",
}


def os_reason(exc: OSError) -> str:
    """Why the system refused, in words: ``no space is left on the device``."""
    import errno

    name = errno.errorcode.get(exc.errno or 0, "")
    return _OS_REASONS.get(name) or (exc.strerror or str(exc)).rstrip(".").lower() or name


class MachineError(GinError):
    """The user's machine refused something (a full disk, a closed or special
    file, a file another gin run is writing): not gincli's fault, exit 2."""


def record_failure(exc: Exception, doing: str, what: str = "record") -> str:
    """The error of one record that failed unexpectedly (``doing``: "scored",
    "replayed", "shown"; ``what``: "record", "transcript"), one sentence that
    says it is a bug; with ``GINCLI_DEBUG=1`` the exception goes on, with its
    traceback."""
    if debug_enabled():
        raise exc
    return unexpected(exc, doing, what)
