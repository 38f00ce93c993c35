"""``gin completion bash|zsh|fish``: the shell completion script, and the
completions themselves (typer's scripts and protocol, looked at only when
``_GIN_COMPLETE`` is set, so that they cost ``gin`` nothing otherwise)."""

from __future__ import annotations

from enum import Enum
from typing import Annotated, Any

import typer

from .base import guard

HELP = """Print the shell completion script for bash, zsh or fish.

Load it from the shell's start-up file: eval "$(gin completion bash)" in ~/.bashrc, eval "$(gin completion zsh)" in ~/.zshrc (after compinit), gin completion fish | source in ~/.config/fish/config.fish. Or save it where the shell looks for completions, for instance gin completion bash > ~/.local/share/bash-completion/completions/gin. The script runs gin with _GIN_COMPLETE set to ask for completions.
"""

PROG = "gin"
COMPLETE_VAR = "_GIN_COMPLETE"


class Shell(str, Enum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


def register(app: typer.Typer) -> None:
    app.command("completion", help=HELP)(guard(completion))


def completion(
    shell: Annotated[Shell, typer.Argument(help="The shell: bash, zsh or fish.")],
) -> None:
    from typer._completion_shared import get_completion_script

    from .render import write_data

    write_data(get_completion_script(prog_name=PROG, complete_var=COMPLETE_VAR, shell=shell.value).strip() + "\n")


def complete(cli: Any, ctx_args: Any, prog_name: str, complete_var: str, instruction: str) -> int:
    """Answer the shell's request in ``complete_var``: typer's order
    (``complete_bash``, ``source_zsh``) or click's (``bash_complete``, ``zsh_source``)."""
    from typer._completion_classes import completion_init
    from typer.completion import shell_complete

    completion_init()
    first, _, rest = instruction.partition("_")
    if first in {s.value for s in Shell} and rest in ("complete", "source"):
        instruction = f"{rest}_{first}"
    try:
        return shell_complete(cli, ctx_args, prog_name, complete_var, instruction)
    except KeyError as exc:  # run by hand, without the variables the shell's script sets
        from .base import error

        error(f"{complete_var} asks for completions, but {exc.args[0]} is not set: the script of gin completion "
              "SHELL sets it; see gin completion --help")
        return 2
