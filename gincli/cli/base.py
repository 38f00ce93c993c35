"""What every command of the ``gin`` command line shares: the settings the
global options chose (and the registry, loaded on first use), the one-line
messages on stderr, and :func:`guard`, which runs a command so that every
failure a user can cause is one sentence and a documented exit status."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

import typer

from ..base.errors import EXIT_PLUGIN_FAULT, EXIT_UNREADABLE, GinError, debug_enabled, record_failure, unexpected  # noqa: F401

if TYPE_CHECKING:
    from ..plugin.loading import PluginLoading
    from ..plugin.registry import Registry

F = TypeVar("F", bound=Callable[..., Any])

EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130


@dataclass
class Settings:
    """What the global options chose; the registry is loaded on first use."""

    plugin_dirs: list[str] = field(default_factory=list)
    disabled: list[str] = field(default_factory=list)
    _registry: Registry | None = None
    _loading: PluginLoading | None = None
    _warned: int = 0  # the plugins' problems said so far (the loading's, then the registry's, once each)
    #: ``config.toml``: where it is, what it holds, and what is wrong with it
    #: (reported once the command line is parsed, so that --help still works).
    config_file: Any = None
    config: dict[str, Any] = field(default_factory=dict)
    config_error: GinError | None = None
    _fitted: set[str] = field(default_factory=set)
    _plugin_commands: dict[str, Any] | None = None  # built once a run

    def loading(self) -> PluginLoading:
        """The plugins loaded but the built-ins: enough to tell whether any adds
        a command (``gin --help`` then loads nothing else)."""
        if self._loading is None:
            from ..plugin.loading import ENV_IMPORT_TIME_LIMIT, PluginLoading

            limit = self.config.get("import_time_limit")
            if limit is not None and not os.environ.get(ENV_IMPORT_TIME_LIMIT):
                os.environ[ENV_IMPORT_TIME_LIMIT] = repr(float(limit))  # worker processes load plugins too
            self._loading = PluginLoading(self.plugin_dirs, self.disabled, notice=warn)
        return self._loading

    def registry(self) -> Registry:
        if self._registry is None:
            from ..plugin.registry import load_registry

            self._registry = load_registry(loading=self.loading())
            self.warn_problems(self._registry.problems)
        return self._registry

    def warn_problems(self, problems: list[str]) -> None:
        """The plugins' problems not said yet, each once (the registry's list
        continues the loading's)."""
        for problem in problems[self._warned:]:
            warn(problem)
        self._warned = max(self._warned, len(problems))


def settings(ctx: typer.Context) -> Settings:
    root = ctx.find_root()
    if not isinstance(root.obj, Settings):
        root.obj = Settings()
    return root.obj


def bots_registry(ctx: typer.Context, bots_file: str | None) -> Registry:
    """The registry, with the named bots of ``--bots-file`` too (gin match, bots, play)."""
    registry = settings(ctx).registry()
    if bots_file is not None:
        registry.add_bots_file(bots_file)
    return registry


def warn(message: str) -> None:
    """``gin: warning: MESSAGE`` on stderr, control characters made visible;
    on a terminal wrapped at spaces, never inside a word (:func:`.render.say`)."""
    from .render import safe, say

    say(f"gin: warning: {safe(message, markup=False)}")


def error(message: str) -> None:
    """``gin: error: MESSAGE`` on stderr, control characters made visible;
    on a terminal wrapped at spaces, never inside a word (:func:`.render.say`)."""
    from .render import safe, say

    say(f"gin: error: {safe(message, markup=False)}")


def interrupted() -> typer.Exit:
    """Ctrl-C, at any moment of a run: one line on stderr; the exit (status 130) to raise."""
    print("gin: interrupted", file=sys.stderr)
    return typer.Exit(EXIT_INTERRUPTED)




def guard(fn: F, stdout_is_data: bool = True, plugin: str | None = None) -> F:
    """Run a command: a :class:`GinError` becomes one sentence on stderr and its
    exit status; anything unexpected a short notice (exit 3) unless
    ``GINCLI_DEBUG=1`` asks for the traceback. With ``stdout_is_data`` (gincli's
    own commands), standard output holds the command's data only
    (:func:`gincli.cli.streams.command_streams`); a plugin's command prints as it likes.
    A plugin's command that fails is that plugin's fault, said so (exit 4), never a
    gincli bug to report: ``plugin`` names it (``plugin "hello": its command odds``)."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from contextlib import nullcontext

        from .streams import command_streams, data

        try:
            with command_streams() if stdout_is_data else nullcontext():
                try:
                    return fn(*args, **kwargs)
                finally:
                    data().flush()  # inside: a refused write is said like any other
        except GinError as exc:
            if debug_enabled():
                raise
            error(exc.message)
            raise typer.Exit(exc.exit_code) from None
        except KeyboardInterrupt:
            raise interrupted() from None
        except BrokenPipeError:
            _silence_stdout()
            raise typer.Exit(0) from None
        except (typer.Exit, typer.Abort):
            raise
        except SystemExit as exc:  # a plugin's sys.exit() inside a command: said, not obeyed silently
            if debug_enabled():
                raise
            error(f"{plugin} called sys.exit({exc.code!r}); gincli stopped" if plugin else
                  f"something called sys.exit({exc.code!r}) during the command (a plugin?); gincli stopped")
            raise typer.Exit(EXIT_PLUGIN_FAULT) from None
        except OSError as exc:  # the machine refused something gincli did not expect to fail
            if debug_enabled():
                raise
            from ..base.errors import os_reason

            target = f" {exc.filename}" if getattr(exc, "filename", None) else ""
            error(f"the system refused an operation on{target or ' a file'}: {os_reason(exc)}")
            raise typer.Exit(EXIT_UNREADABLE) from None
        except Exception as exc:
            if debug_enabled():
                raise
            if plugin is not None:
                from ..base.errors import clip

                error(f"{plugin} failed: {type(exc).__name__}: {clip(str(exc), 120)} "
                      "(GINCLI_DEBUG=1 shows the traceback)")
                raise typer.Exit(EXIT_PLUGIN_FAULT) from None
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


