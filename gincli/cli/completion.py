"""``gin completion bash|zsh|fish``: the shell completion script, and the
completions themselves, looked at only when ``_GIN_COMPLETE`` is set, so that
they cost ``gin`` nothing otherwise.

The scripts are gincli's own. Each asks ``gin`` with ``_GIN_COMPLETE`` set to
its shell's name and the command line so far (bash: ``_GIN_COMPLETE_LINE``, the
line up to the cursor, and ``_GIN_COMPLETE_BREAKS``, the characters bash ends a
word at; zsh and fish: ``_GIN_COMPLETE_ARGS``, the words before the cursor's,
a line each, and ``_GIN_COMPLETE_WORD``, the word being typed). ``gin`` answers
on standard output: a first line saying what to offer (``names``, ``nospace``:
names after which no space goes, ``files``, ``dirs``: the shell completes
those), then the names, a line each (zsh and fish: ``name<TAB>help``). What
:mod:`gincli.cli.complete` offers is thus the same in the three shells.

The protocol of typer's scripts (``_GIN_COMPLETE=complete_bash`` with
``COMP_WORDS`` and ``COMP_CWORD``, click's ``bash_complete``...), which
earlier versions of gincli printed, is still answered, with the same names.
"""

from __future__ import annotations

import os
import sys
from enum import Enum
from typing import Annotated, Any

import typer

from .base import guard

HELP = """Print the shell completion script for bash, zsh or fish.

Load it from the shell's start-up file: eval "$(gin completion bash)" in ~/.bashrc, eval "$(gin completion zsh)" in
~/.zshrc (after compinit), gin completion fish | source in ~/.config/fish/config.fish. Or save it where the shell
looks for completions: gin completion bash > ~/.local/share/bash-completion/completions/gin, gin completion zsh >
_gin in a folder of $fpath, gin completion fish > ~/.config/fish/completions/gin.fish. It completes commands,
options, and the values of the options that take names (variants, scoring systems, bots, rule options and their
values, backends, players...); files where a file goes. The script runs gin with _GIN_COMPLETE set to ask for
completions.
"""

PROG = "gin"
COMPLETE_VAR = "_GIN_COMPLETE"


class Shell(str, Enum):
    bash = "bash"
    zsh = "zsh"
    fish = "fish"


BASH = r"""# gin's completion for bash: eval "$(gin completion bash)" in ~/.bashrc
_gin_completion() {
    local -a reply
    mapfile -t reply < <(env _GIN_COMPLETE=bash _GIN_COMPLETE_LINE="${COMP_LINE:0:COMP_POINT}" \
                             _GIN_COMPLETE_BREAKS="$COMP_WORDBREAKS" "$1" 2>/dev/null)
    COMPREPLY=("${reply[@]:1}")
    case ${reply[0]-} in
        files) COMPREPLY=(); compopt -o default ;;
        dirs) COMPREPLY=(); compopt -o dirnames ;;
        nospace) compopt -o nospace ;;
    esac
    return 0
}
complete -o nosort -F _gin_completion gin 2>/dev/null || complete -F _gin_completion gin
"""

ZSH = r"""#compdef gin
# gin's completion for zsh: eval "$(gin completion zsh)" in ~/.zshrc (after
# compinit), or save it as _gin in a folder of $fpath
_gin() {
    local -a reply spaced unspaced
    local line value about entry
    reply=("${(@f)$(env _GIN_COMPLETE=zsh _GIN_COMPLETE_ARGS="${(pj:\n:)${(@Q)words[2,CURRENT-1]}}" \
                        _GIN_COMPLETE_WORD="${(Q)PREFIX}" ${words[1]} 2>/dev/null)}")
    case ${reply[1]} in
        files) _files; return ;;
        dirs) _files -/; return ;;
    esac
    for line in "${(@)reply[2,-1]}"; do
        value=${line%%$'\t'*}
        about=${line#*$'\t'}
        [[ $line == *$'\t'* ]] || about=""
        entry=${value//:/\\:}
        [[ -n $about ]] && entry="$entry:$about"
        if [[ $value == *[=,:/] ]]; then
            unspaced+=("$entry")
        else
            spaced+=("$entry")
        fi
    done
    (( ${#spaced} + ${#unspaced} )) || return 1
    _describe -t values value spaced -- unspaced -S ''
}
if [[ ${zsh_eval_context[-1]} == loadautofunc ]]; then  # loaded from $fpath, by this first Tab
    _gin "$@"
else
    compdef _gin gin
fi
"""

FISH = r"""# gin's completion for fish: gin completion fish | source in
# ~/.config/fish/config.fish, or save it as ~/.config/fish/completions/gin.fish
function __gin_completion
    set -l tokens (commandline -opc)
    set -l word (commandline -ct)
    set -l reply (env _GIN_COMPLETE=fish _GIN_COMPLETE_ARGS=(string join \n -- $tokens[2..-1] | string collect) \
                      _GIN_COMPLETE_WORD="$word" $tokens[1] 2>/dev/null)
    switch "$reply[1]"
        case files
            __fish_complete_path "$word"
        case dirs
            __fish_complete_directories "$word"
        case names nospace
            string join \n -- $reply[2..-1]
    end
end
complete --command gin --no-files --keep-order --arguments '(__gin_completion)'
"""

SCRIPTS = {Shell.bash: BASH, Shell.zsh: ZSH, Shell.fish: FISH}


def register(app: typer.Typer) -> None:
    app.command("completion", help=HELP)(guard(completion))


def completion(
    shell: Annotated[Shell, typer.Argument(help="The shell: bash, zsh or fish.")],
) -> None:
    from .render import write_data

    write_data(SCRIPTS[shell])


def complete(cli: Any, ctx_args: Any, prog_name: str, complete_var: str, instruction: str) -> int:
    """Answer the shell's request in ``complete_var``: gincli's scripts
    (``bash``, ``zsh``, ``fish``), or typer's (``complete_bash``,
    ``source_zsh``) and click's (``bash_complete``, ``zsh_source``) protocols."""
    if instruction in {s.value for s in Shell}:
        return _answer(cli, ctx_args, prog_name, instruction)
    from typer.completion import shell_complete

    from .clicks import completion_machinery

    completion_machinery()["completion_init"]()
    _answer_typer_protocol()
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


def _answer(cli: Any, ctx_args: Any, prog_name: str, shell: str) -> int:
    from . import complete

    env = os.environ
    if shell == "bash":
        line = env.get("_GIN_COMPLETE_LINE", "")
        args, incomplete, strip, quoted = bash_words(line, env.get("_GIN_COMPLETE_BREAKS", _BASH_BREAKS))
    else:
        args = [a for a in env.get("_GIN_COMPLETE_ARGS", "").split("\n") if a] \
            if env.get("_GIN_COMPLETE_ARGS") else []
        incomplete, strip, quoted = env.get("_GIN_COMPLETE_WORD", ""), "", True
    kind, items = complete.answer(cli, {}, prog_name, args, incomplete)
    out = []
    for value, about in items:
        if shell == "bash":
            if not value.startswith(strip):
                continue
            value = value[len(strip):]
            if not value:
                continue
            out.append(value if quoted else _bash_escape(value))
        else:
            text = value + (f"\t{' '.join(about.split())}" if about else "")
            out.append(text.replace("\n", " "))
    if kind == complete.NAMES_KIND and any(v.endswith(complete.OPEN_ENDS) for v, _ in items):
        kind = "nospace"
    sys.stdout.write("\n".join([kind, *out]) + "\n")
    sys.stdout.flush()
    return 0


#: bash's COMP_WORDBREAKS by default.
_BASH_BREAKS = " \t\n\"'><=;|&(:"

#: What bash would read as something else in a word inserted as it is.
_BASH_SPECIAL = set(" \t\n\"'\\$`;&|<>()!*?[]{}#~")


def _bash_escape(value: str) -> str:
    return "".join("\\" + c if c in _BASH_SPECIAL else c for c in value)


def bash_words(line: str, breaks: str) -> tuple[list[str], str, str, bool]:
    """The line bash passed (up to the cursor), as ``(args, incomplete, strip,
    quoted)``: the words after the command's name, the word being typed (its
    quotes and escapes removed), what of it bash does not replace (bash's
    word begins after the last of ``breaks``: ``spade_doubles=`` of
    ``spade_doubles=t``), and whether the word is inside an open quote."""
    words: list[str] = []
    current: list[str] = []
    in_word = False
    quote = ""
    escaped = False
    replaced_from = 0  # where, in the word's unquoted text, the part bash replaces begins
    for ch in line:
        if escaped:
            current.append(ch)
            escaped = False
            continue
        if quote:
            if ch == quote:
                quote = ""
            elif ch == "\\" and quote == '"':
                escaped = True
            else:
                current.append(ch)
            continue
        if ch in " \t\n":
            if in_word:
                words.append("".join(current))
                current, in_word = [], False
            replaced_from = 0
            continue
        in_word = True
        if ch == "\\":
            escaped = True
        elif ch in "'\"":
            quote = ch
            replaced_from = len(current)
        else:
            current.append(ch)
            if ch in breaks:
                replaced_from = len(current)
    incomplete = "".join(current)
    return words[1:], incomplete, incomplete[:replaced_from], bool(quote)


def _answer_typer_protocol() -> None:
    """typer's bash, zsh and fish classes, answering with gincli's completions."""
    from . import complete
    from .clicks import completion_machinery

    click = completion_machinery()
    CompletionItem, add_completion_class = click["CompletionItem"], click["add_completion_class"]
    BashComplete, ZshComplete, FishComplete = click["BashComplete"], click["ZshComplete"], click["FishComplete"]

    def get_completions(self: Any, args: list[str], incomplete: str) -> list[Any]:
        _, items = complete.answer(self.cli, self.ctx_args, self.prog_name, args, incomplete)
        return [CompletionItem(value, help=about) for value, about in items]

    for base in (BashComplete, ZshComplete, FishComplete):
        add_completion_class(type(base.__name__, (base,), {"get_completions": get_completions}), base.name)
