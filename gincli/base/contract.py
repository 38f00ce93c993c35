"""The plugin contract, checked where a plugin's value crosses into gincli.

Plugin code (a variant's rules, a scoring system's session, a move set, a
bot, a match backend) runs inside gincli's loops, called through
:func:`call`. Whatever it returns is checked here, at the crossing, and a
breach, or an exception it raises, becomes a :class:`PluginFault`, the one
fault of a plugin: one sentence naming the plugin and what it returned. A
``PluginFault`` is a record error, so ``gin score`` gives the record an
``error`` entry and goes on, ``gin validate`` reports the transcript's fault,
and nothing a plugin does can end a command with an internal error: every
command ends a run that met one with exit status 4, the one status of a
plugin's fault.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from .errors import EXIT_PLUGIN_FAULT, GinError, RecordError, clip, debug_enabled, quote

T = TypeVar("T")


class PluginFault(RecordError):
    """A plugin broke its contract (a value of the wrong kind, an exception):
    the record it touched fails, and the command ends with exit status 4
    (:data:`~gincli.base.errors.EXIT_PLUGIN_FAULT`), whatever it is."""

    exit_code = EXIT_PLUGIN_FAULT

    def __init__(self, message: str):
        super().__init__(message, rule="plugin-fault")


def plugin_of(obj: Any) -> str:
    """The plugin that registered ``obj`` (the registry marks what it accepts),
    else the module that defines it."""
    name = getattr(obj, "plugin", None)
    if isinstance(name, str) and name:
        return name
    cls = obj if isinstance(obj, type) else type(obj)
    return cls.__module__.split(".")[0]


def breach(obj: Any, what: str, value: Any, expected: str) -> PluginFault:
    return PluginFault(f"plugin \"{plugin_of(obj)}\": {what} returned {quote(value)}, not {expected}")


def call(obj: Any, what: str, fn: Callable[..., T], *args: Any, own: type[GinError] = RecordError) -> T:
    """``fn(*args)``, plugin code (``what``: what it is, for the sentence). An
    error of its own, an ``own`` (a rule's :class:`RecordError`; a match
    backend's sentence for the user, any :class:`GinError`), goes through;
    anything else it raises, ``sys.exit()`` too, becomes a :class:`PluginFault`
    naming the plugin, its text on one line."""
    try:
        return fn(*args)
    except own:
        raise
    except SystemExit as exc:
        if debug_enabled():
            raise
        raise PluginFault(f"plugin \"{plugin_of(obj)}\": {what} called sys.exit({exc.code!r})") from None
    except Exception as exc:
        if debug_enabled():
            raise
        text = clip(" ".join(str(exc).split()), 200)
        raise PluginFault(f"plugin \"{plugin_of(obj)}\": {what} failed: {type(exc).__name__}: {text}") from None


def whole(obj: Any, what: str, value: Any, least: int) -> int:
    """A whole number of at least ``least`` (not a bool)."""
    if type(value) is not int or value < least:
        raise breach(obj, what, value, f"a whole number of {least} or more")
    return value


def truth(obj: Any, what: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise breach(obj, what, value, "true or false")
    return value


def session_result(obj: Any, what: str, value: Any, players: tuple[str, ...]) -> dict[str, Any]:
    """A session's result in the shape FORMATS.md gives: an object whose
    ``scores`` holds a whole number for each player, JSON-able throughout."""
    from .jsonio import dumps

    if not isinstance(value, Mapping):
        raise breach(obj, what, value, "an object (FORMATS.md's session result)")
    scores = value.get("scores")
    if (not isinstance(scores, Mapping) or set(scores) != set(players)
            or not all(type(v) is int for v in scores.values())):
        raise breach(obj, f"{what}[\"scores\"]", scores, "a whole number for each player")
    try:
        dumps(value)
    except (TypeError, ValueError):
        raise breach(obj, what, value, "JSON (FORMATS.md's session result)") from None
    return dict(value)


def json_state(obj: Any, what: str, value: Any, did: str = "returned a state that is not JSON") -> Any:
    """``value`` when it is JSON throughout (it is sent to external bots and
    written in transcripts), else a :class:`PluginFault` saying where it is not."""
    where = _not_json(value, ())
    if where is not None:
        path, kind = where
        at = "".join(f"[{quote(k)}]" for k in path)
        raise PluginFault(f"plugin \"{plugin_of(obj)}\": {what} {did} "
                          f"({'its value' + at if at else 'it'} is a {kind}, which JSON has no way to write)")
    return value


def _not_json(value: Any, path: tuple[Any, ...], depth: int = 0) -> tuple[tuple[Any, ...], str] | None:
    """Where ``value`` holds something JSON cannot write, and what it is; None when nowhere."""
    if value is None or isinstance(value, (str, bool, int)):
        return None
    if isinstance(value, float):
        return None if value == value and value not in (float("inf"), float("-inf")) else (path, "non-finite number")
    if depth > 64:
        return path, "nesting too deep"
    if isinstance(value, dict):
        for k, v in value.items():
            if not isinstance(k, str):
                return path, f"{type(k).__name__} key"
            found = _not_json(v, (*path, k), depth + 1)
            if found is not None:
                return found
        return None
    if isinstance(value, (list, tuple)):
        for i, v in enumerate(value):
            found = _not_json(v, (*path, i), depth + 1)
            if found is not None:
                return found
        return None
    return path, type(value).__name__


def reraise(exc: BaseException) -> None:
    """Raise ``exc``: given to :func:`call` so that an exception a plugin
    handed over (from a worker, a node) is reported as that plugin's fault."""
    raise exc


class StrayOutput:
    """Stands for ``sys.stdout`` where plugin code runs (a command, a plugin's
    import): text printed there goes to stderr, with one warning naming the
    module that printed it, so that standard output holds gincli's data only."""

    warned = False  # once a process, whichever stand-in is written to

    def write(self, text: str) -> int:
        err = sys.stderr
        if err is None:
            return len(text)
        if not StrayOutput.warned and text.strip():
            StrayOutput.warned = True
            who = _printer()
            err.write(f"gin: warning: {who} printed to standard output; that goes to stderr, so that standard "
                      "output holds gincli's data only\n")
        try:
            return err.write(text)
        except (OSError, ValueError):
            return len(text)

    def flush(self) -> None:
        try:
            if sys.stderr is not None:
                sys.stderr.flush()
        except (OSError, ValueError):
            pass

    def isatty(self) -> bool:
        return False

    @property
    def encoding(self) -> str:
        return getattr(sys.stderr, "encoding", "utf-8") or "utf-8"

    def writable(self) -> bool:
        return True


def _printer() -> str:
    """The module (outside gincli and Python's own) that wrote to stdout, in words."""
    frame: Any = sys._getframe(2)
    while frame is not None:
        name = frame.f_globals.get("__name__", "")
        if name and not name.startswith(("gincli.", "contextlib", "io", "_io", "builtins", "rich", "typer")) \
                and name not in ("gincli", "__main__"):
            return f"the module {name} (a plugin?)"
        frame = frame.f_back
    return "something other than gincli (a plugin?)"
