"""The ``gin`` command line: one app factory, one module per command.

Data goes to stdout, and only data; errors, warnings, summaries and progress
go to stderr. Every failure a user can cause is a :class:`GinError` turned
into one sentence and a documented exit status (docs/cli.md); a traceback
only with ``GINCLI_DEBUG=1``.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Annotated, Any, TypeVar

import typer
from typer.core import TyperGroup

from ..errors import EXIT_UNREADABLE, GinError, unexpected

F = TypeVar("F", bound=Callable[..., Any])

EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130


@dataclass
class Settings:
    """What the global options chose; the registry is loaded on first use."""

    plugin_dirs: list[str] = field(default_factory=list)
    disabled: list[str] = field(default_factory=list)
    _registry: Any = None

    def registry(self) -> Any:
        if self._registry is None:
            from ..plugins import load_registry

            self._registry = load_registry(self.plugin_dirs, self.disabled)
            for problem in self._registry.problems:
                warn(problem)
        return self._registry


def settings(ctx: typer.Context) -> Settings:
    root = ctx.find_root()
    if not isinstance(root.obj, Settings):
        root.obj = Settings()
    return root.obj


def warn(message: str) -> None:
    """``gin: warning: MESSAGE`` on stderr, control characters made visible."""
    from .render import safe

    print(f"gin: warning: {safe(message, markup=False)}", file=sys.stderr)


def error(message: str) -> None:
    """``gin: error: MESSAGE`` on stderr, control characters made visible."""
    from .render import safe

    print(f"gin: error: {safe(message, markup=False)}", file=sys.stderr)


def debug_enabled() -> bool:
    return os.environ.get("GINCLI_DEBUG", "") not in ("", "0")


def record_failure(exc: Exception, doing: str) -> str:
    """The error of one record that failed unexpectedly (``doing``: "scored",
    "replayed", "shown"), one sentence; with ``GINCLI_DEBUG=1`` the exception
    goes on, with its traceback."""
    if debug_enabled():
        raise exc
    return unexpected(exc, doing)


def guard(fn: F) -> F:
    """Run a command: a :class:`GinError` becomes one sentence on stderr and its
    exit status; anything unexpected a short notice (exit 3) unless
    ``GINCLI_DEBUG=1`` asks for the traceback."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except GinError as exc:
            if debug_enabled():
                raise
            error(exc.message)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            print("gin: interrupted", file=sys.stderr)
            raise typer.Exit(EXIT_INTERRUPTED) from None
        except BrokenPipeError:
            _silence_stdout()
            raise typer.Exit(0) from None
        except (typer.Exit, typer.Abort):
            raise
        except Exception as exc:
            if debug_enabled():
                raise
            error(f"internal error: {type(exc).__name__}: {exc} (set GINCLI_DEBUG=1 for the traceback, "
                  "and please report it)")
            raise typer.Exit(EXIT_INTERNAL) from None

    return wrapper  # type: ignore[return-value]


def _silence_stdout() -> None:
    # Piped into `head`: the reader went away; stop writing without a traceback.
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _root(
    ctx: typer.Context,
    plugins_dir: Annotated[list[str] | None, typer.Option(
        "--plugins-dir", metavar="DIR", is_eager=True,
        help="Load plugins (*.py files or packages) from DIR; repeatable. Also GINCLI_PLUGINS_DIR.")] = None,
    disable_plugin: Annotated[list[str] | None, typer.Option(
        "--disable-plugin", metavar="NAME", is_eager=True,
        help="Do not load the plugin NAME; repeatable. Also GINCLI_DISABLE_PLUGINS=a,b.")] = None,
    color: Annotated[str, typer.Option(
        "--color", metavar="auto|always|never",
        help="Colour for people: auto (on a terminal, unless NO_COLOR is set), always or never.")] = "auto",
    version: Annotated[bool, typer.Option("--version", help="Show gincli's version and exit.")] = False,
) -> None:
    """gincli: score gin rummy hands, validate transcripts, deal, run bot matches."""
    if version:
        from .. import __version__

        print(f"gincli {__version__}")
        raise typer.Exit(0)
    from .render import COLOR_MODES, set_color

    if color not in COLOR_MODES:
        raise typer.BadParameter(f"--color takes auto, always or never, not \"{color}\"")
    set_color(color)
    s = settings(ctx)
    s.plugin_dirs = list(plugins_dir or [])
    s.disabled = list(disable_plugin or [])


class GinGroup(TyperGroup):
    """``gin``: its own commands, then those plugins add (the
    ``gincli_register_commands`` hook), found only when a name is not one of
    gincli's, so that plugins load only when needed."""

    def _plugin_commands(self, ctx: Any) -> dict[str, Any]:
        root = ctx.find_root()
        s = settings(root)
        if s._registry is None:  # the global options are parsed, the root callback has not run yet
            s.plugin_dirs = list(root.params.get("plugins_dir") or [])
            s.disabled = list(root.params.get("disable_plugin") or [])
        commands = {}
        for name, (function, help_text, _plugin) in s.registry().commands.items():
            sub = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
            sub.command(name, help=help_text)(guard(function))
            commands[name] = typer.main.get_command(sub)
        return commands

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        found = super().get_command(ctx, cmd_name)
        if found is not None or cmd_name.startswith("-"):
            return found
        return self._plugin_commands(ctx).get(cmd_name)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(super().list_commands(ctx)) + sorted(self._plugin_commands(ctx))

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        """Click's main, with its usage errors in gincli's one-line style:
        ``gin: error: invalid value for '--games': 'x' is not a valid integer;
        see 'gin match --help'`` (exit 2)."""
        usage_error = _click_class("UsageError")
        click_exception = _click_class("ClickException")
        abort = _click_class("Abort")
        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except usage_error as exc:
            ctx = getattr(exc, "ctx", None)
            path = ctx.command_path if ctx is not None else "gin"
            error(f"{_sentence(exc.format_message())}; see '{path} --help'")
            code = exc.exit_code
        except click_exception as exc:
            error(_sentence(exc.format_message()))
            code = exc.exit_code
        except abort:
            print("gin: interrupted", file=sys.stderr)
            code = EXIT_INTERRUPTED
        else:
            code = rv if isinstance(rv, int) and not isinstance(rv, bool) else 0
        if standalone_mode:
            sys.exit(code)
        return code


def _click_class(name: str) -> type:
    """One of click's exception classes, found from typer's public ones (typer
    vendors click under a private name)."""
    for klass in typer.BadParameter.__mro__:
        if klass.__name__ == name:
            return klass
    if name == "Abort":
        return typer.Abort
    raise LookupError(name)


def _sentence(message: str) -> str:
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

    return re.sub(r"is not in the range x>=([-\d.]+)", r"must be at least \1", text)


def make_app() -> typer.Typer:
    """Build the ``gin`` app: global options, then one command per module."""
    app = typer.Typer(
        name="gin",
        cls=GinGroup,
        help="gincli: score gin rummy hands, validate transcripts, deal, play, run bot matches.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback(invoke_without_command=True)(_root)
    from . import deal, match, play, plugins, report, score, validate, variants

    score.register(app)
    deal.register(app)
    validate.register(app)
    variants.register(app)
    match.register(app)
    report.register(app)
    play.register(app)
    plugins.register(app)
    return app


def main() -> None:
    """Entry point of the ``gin`` console script and ``python -m gincli``."""
    app = make_app()
    try:
        app()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        print("gin: interrupted", file=sys.stderr)
        sys.exit(EXIT_INTERRUPTED)
    except Exception as exc:  # outside any command (argument parsing)
        if debug_enabled():
            raise
        error(f"{type(exc).__name__}: {exc}")
        sys.exit(EXIT_UNREADABLE)
