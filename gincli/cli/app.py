"""The ``gin`` app: its global options, the commands (each imported when it
is run, plugins' found when a name is not one of gincli's), the config file's
defaults for the options, click's usage errors in gincli's one-line style, and
:func:`main`, where the console script enters."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

from ..base.errors import EXIT_UNREADABLE, click_sentence, debug_enabled
from .base import Settings, error, guard, interrupted, settings


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
        from ..base.version import __version__

        print(f"gincli {__version__}")
        raise typer.Exit(0)
    problem = settings(ctx).config_error
    if problem is not None:
        error(problem.message)
        raise typer.Exit(problem.exit_code)
    from ..base.config import COLOR_MODES
    from .render import set_color

    if color not in COLOR_MODES:
        raise typer.BadParameter(f"--color takes auto, always or never, not \"{color}\"")
    set_color(color)
    s = settings(ctx)
    s.plugin_dirs = list(plugins_dir or [])
    s.disabled = list(disable_plugin or [])


#: gincli's own commands: the module of this package that registers each (its
#: ``register(app)``), and its summary for ``gin --help``, which lists them
#: without importing them (tests/test_startup.py checks that the summaries match).
COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("score", "Score hands from their end positions (hand records)."),
    "deal": ("deal", "Deal one hand, reproducibly: the same seed gives the same deal on every machine."),
    "validate": ("validate", "Replay transcripts move by move and check every rule and every claimed result."),
    "variants": ("variants", "List the variants of play and the scoring systems that are loaded, with their options "
                             "and defaults."),
    "match": ("match", "Play a match between bots, headless (two; three or four for cutthroat, chouette and "
                       "partnership): --hands N (N hands, each settled alone) or --games N (N sessions of the "
                       "scoring system, game by default)."),
    "bots": ("match", "List the bots: those plugins register, with their parameters (gin match --bots expert:k=v), "
                      "the named external bots of bots files, and exec:COMMAND."),
    "tournament": ("tournament", "Play a tournament between bots: every pairing plays a match, --games N "
                                 "(sessions of the scoring system, game by default) or --hands N a pairing; then a "
                                 "crosstable and a rating list."),
    "report": ("report", "Draw a match or a tournament as one HTML page, from the transcripts gin match "
                         "--transcripts or gin tournament --transcripts wrote (or a session of gin play)."),
    "play": ("play", "Play gin rummy against a bot: a whole session of the scoring system (a game to 100 by "
                     "default)."),
    "plugins": ("plugins", "List the plugins that are loaded, in order of precedence (plugin folders, the user's "
                           "config folder, installed packages, the built-ins: the first to register a name keeps "
                           "it), the hooks each implements and what each registered or replaced; and any plugin "
                           "left out, with why."),
    "config": ("config", "Show the config file (config.toml in the config folder) and the defaults in effect."),
    "completion": ("completion", "Print the shell completion script for bash, zsh or fish."),
}


def _sub_app() -> typer.Typer:
    return typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=None)


class GinGroup(TyperGroup):
    """``gin``: its own commands, each imported when it is run (``gin --help``
    lists them from :data:`COMMANDS`), then those plugins add (the
    ``gincli_register_commands`` hook), found only when a name is not one of
    gincli's, so that plugins load only when needed. Reads ``config.toml`` for
    the defaults of the options (click's ``default_map``)."""

    def make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        try:
            return self._make_context(info_name, args, parent, **extra)
        except KeyboardInterrupt:  # while the command line and the config file are read
            raise interrupted() from None

    def _make_context(self, info_name: str | None, args: list[str], parent: Any = None, **extra: Any) -> Any:
        if parent is None and "default_map" not in extra:
            from ..base.config import config_path, default_map, read_config
            from ..base.errors import GinError

            s = Settings()
            s.config_file = config_path()
            try:
                s.config = read_config(s.config_file, tuple(COMMANDS))
            except GinError as exc:
                s.config_error = exc
            if s.config:
                extra["default_map"] = default_map(s.config, tuple(COMMANDS))
            extra.setdefault("obj", s)
        return super().make_context(info_name, args, parent=parent, **extra)

    def _load(self, module: str) -> None:
        """Import the module of a command of gincli's and add the commands it registers."""
        import importlib

        sub = _sub_app()
        importlib.import_module(f"{__package__}.{module}").register(sub)
        for name, command in typer.main.get_group(sub).commands.items():
            self.add_command(command, name)

    def _fit_defaults(self, ctx: Any, name: str, command: Any) -> None:
        """Check the config file's defaults for a command against its options, once."""
        root = ctx.find_root()
        s = settings(root)
        defaults = root.default_map.get(name) if root.default_map else None
        if not isinstance(defaults, dict) or name in s._fitted:
            return
        from ..base.errors import GinError
        from .defaults import command_defaults

        s._fitted.add(name)
        try:
            root.default_map[name] = command_defaults(s.config_file, name, command, root, defaults,
                                                      s.config.get(name))
        except GinError as exc:
            root.default_map[name] = {}
            if s.config_error is None:
                s.config_error = exc

    def _plugin_commands(self, ctx: Any) -> dict[str, Any]:
        root = ctx.find_root()
        s = settings(root)
        if s._plugin_commands is not None:
            return s._plugin_commands
        if s._registry is None:  # the global options are parsed, the root callback has not run yet
            s.plugin_dirs = list(root.params.get("plugins_dir") or [])
            s.disabled = list(root.params.get("disable_plugin") or [])
            if not _plugins_may_add_commands(s.plugin_dirs, s.disabled):
                return {}
            loading = s.loading()
            if not loading.adds_commands():  # the built-ins add none: they are not loaded to tell
                s.warn_problems(loading.problems)
                s._plugin_commands = {}
                return s._plugin_commands
        commands = {}
        for name, (function, help_text, plugin) in s.registry().commands.items():
            sub = _sub_app()
            sub.command(name, help=help_text)(guard(function, stdout_is_data=False,
                                                     plugin=f"plugin \"{plugin}\": its command {name}"))
            commands[name] = typer.main.get_command(sub)
        s._plugin_commands = commands
        return commands

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        if cmd_name in COMMANDS and cmd_name not in self.commands:
            self._load(COMMANDS[cmd_name][0])
        found = super().get_command(ctx, cmd_name)
        if found is not None:
            if cmd_name in COMMANDS:
                self._fit_defaults(ctx, cmd_name, found)
            return found
        if cmd_name.startswith("-"):
            return None
        return self._plugin_commands(ctx).get(cmd_name)

    def list_commands(self, ctx: Any) -> list[str]:
        return list(COMMANDS) + sorted(self._plugin_commands(ctx))

    def format_commands(self, ctx: Any, formatter: Any) -> None:
        """The commands for ``gin --help``: gincli's from their summaries (none is
        imported), then plugins', each whole (wrapped, never cut short)."""
        names = self.list_commands(ctx)
        rows = []
        for name in names:
            if name in COMMANDS:
                rows.append((name, COMMANDS[name][1]))
                continue
            command = self.get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command.get_short_help_str(10_000)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def resolve_command(self, ctx: Any, args: list[str]) -> Any:
        from .clicks import UsageError as ClickUsageError

        try:
            return super().resolve_command(ctx, args)
        except ClickUsageError as exc:  # suggest among all of gincli's commands, loaded or not
            if args and "Did you mean" not in exc.message:
                from difflib import get_close_matches

                matches = get_close_matches(args[0], self.list_commands(ctx))
                if matches:
                    exc.message = exc.message.rstrip(".") + ". Did you mean " + ", ".join(map(repr, matches)) + "?"
            raise

    def _main_shell_completion(self, ctx_args: Any, prog_name: str, complete_var: str | None = None) -> None:
        """Shell completion (``_GIN_COMPLETE=bash_complete``, or typer's order,
        ``complete_bash``), looked at only when the variable is set."""
        complete_var = complete_var or f"_{prog_name}_COMPLETE".replace("-", "_").upper()
        instruction = os.environ.get(complete_var)
        if not instruction:
            return
        from .completion import complete

        sys.exit(complete(self, ctx_args, prog_name, complete_var, instruction))

    def invoke(self, ctx: Any) -> Any:
        """A Ctrl-C while a command loads (or outside its guard) is the same one
        line as inside it (typer would end with exit 130 and say nothing)."""
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            raise interrupted() from None

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, windows_expand_args: bool = True, **extra: Any) -> Any:
        """Click's main, with its usage errors in gincli's one-line style:
        ``gin: error: invalid value for '--games': 'x' is not a valid integer;
        see 'gin match --help'`` (exit 2)."""
        from .clicks import ClickException, UsageError as ClickUsageError

        try:
            rv = super().main(args, prog_name, complete_var, standalone_mode=False,
                              windows_expand_args=windows_expand_args, **extra)
        except ClickUsageError as exc:
            ctx = getattr(exc, "ctx", None)
            path = ctx.command_path if ctx is not None else "gin"
            error(f"{click_sentence(exc.format_message())}; see '{path} --help'")
            code = exc.exit_code
        except ClickException as exc:
            error(click_sentence(exc.format_message()))
            code = exc.exit_code
        except typer.Abort:
            code = interrupted().exit_code
        else:
            code = rv if isinstance(rv, int) and not isinstance(rv, bool) else 0
        if standalone_mode:
            sys.exit(code)
        return code


def _plugins_may_add_commands(plugin_dirs: list[str], disabled: list[str] | tuple[str, ...] = ()) -> bool:
    """Whether any plugin could add a command: the built-ins add none, so only
    plugin folders (given, in the environment, in the config folder) or installed
    plugin packages not disabled can. Spares ``gin --help`` loading every plugin."""
    from ..base.config import ENTRY_POINT_GROUP, ENV_DISABLE, ENV_PLUGINS_DIR, config_dir

    if plugin_dirs or os.environ.get(ENV_PLUGINS_DIR) or (config_dir() / "plugins").is_dir():
        return True
    from ..base.packages import entry_points

    blocked = set(disabled) | {n.strip() for n in os.environ.get(ENV_DISABLE, "").split(",")}
    return any(ep.name not in blocked for ep in entry_points(ENTRY_POINT_GROUP))


def make_app() -> typer.Typer:
    """Build the ``gin`` app: global options; each command is imported when it is run."""
    app = typer.Typer(
        name="gin",
        cls=GinGroup,
        help="gincli: score gin rummy hands, validate transcripts, deal, play, run bot matches.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
        rich_markup_mode=None,  # click's plain help: rich's costs more than the 0.15 s start-up budget
        context_settings={"help_option_names": ["-h", "--help"]},
    )
    app.callback(invoke_without_command=True)(_root)
    return app


def main() -> None:
    """The command line (the console script enters through :mod:`gincli.entry`)."""
    try:
        from . import streams

        streams.prepare()
        if streams.stdout_closed:
            error("standard output is closed, and gin writes its results there: open it, or send it to /dev/null "
                  "(>/dev/null)")
            sys.exit(EXIT_UNREADABLE)
        make_app()()
    except SystemExit:
        raise
    except KeyboardInterrupt:
        sys.exit(interrupted().exit_code)
    except Exception as exc:  # outside any command (argument parsing)
        if debug_enabled():
            raise
        error(f"{type(exc).__name__}: {exc}")
        sys.exit(EXIT_UNREADABLE)
