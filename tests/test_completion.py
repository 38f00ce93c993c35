"""Shell completion, in the real shells: bash, zsh and fish run in a terminal
(tmux), load the script ``gin completion SHELL`` prints the way docs/cli.md
says, and Tab is pressed; the screen shows what was completed. fish's own
``complete -C`` asks its completion machinery without a terminal. Then every
option of every command: each one whose value is a name offers names, each
one that takes a file or a folder offers those, and the others offer nothing
(never files)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

GIN = str(Path(sys.executable).with_name("gin"))
TMUX = shutil.which("tmux")
SHELLS = {name: shutil.which(name) for name in ("bash", "zsh", "fish")}
SENTINEL = "@"
PROMPT = "$ "


def script(shell: str) -> str:
    res = subprocess.run([GIN, "completion", shell], capture_output=True, text=True, timeout=120)
    assert res.returncode == 0 and res.stderr == "", res.stderr
    return res.stdout


def need(shell: str) -> str:
    if SHELLS[shell] is None:
        pytest.skip(f"{shell} is not installed here (.ci/run installs it from the system packages)")
    return SHELLS[shell]


def environment(home: Path) -> dict[str, str]:
    return {"PATH": f"{Path(GIN).parent}:/usr/bin:/bin", "HOME": str(home), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8",
            "TERM": "xterm-256color", "GINCLI_CONFIG_DIR": str(home / "config"), "XDG_CONFIG_HOME": str(home / "xdg"),
            "ZDOTDIR": str(home / "zdot")}


class ShellPane:
    """An interactive shell in a tmux session of its own, its start-up file
    loading gin's completion as docs/cli.md says; its folder holds one file,
    ``only-file.txt``, so that a completion offering files shows it."""

    def __init__(self, shell: str, home: Path, zsh_fpath: bool = False):
        exe = need(shell)
        if TMUX is None:
            pytest.skip("tmux is not installed here (.ci/run installs it from the system packages)")
        self.work = home / "work"
        self.work.mkdir(parents=True)
        (self.work / "only-file.txt").write_text("x\n")
        if shell == "bash":
            rc = home / "bashrc"
            rc.write_text(f"PS1='{PROMPT}'\neval \"$(gin completion bash)\"\n"
                          "bind 'set show-all-if-ambiguous on'\nbind 'set completion-query-items 0'\n"
                          "bind 'set page-completions off'\nbind 'set bell-style none'\n")
            argv = [exe, "--noprofile", "--rcfile", str(rc), "-i"]
        elif shell == "zsh":
            (home / "zdot").mkdir()
            if zsh_fpath:  # saved as _gin in a folder of $fpath, loaded when first needed
                (home / "functions").mkdir()
                (home / "functions" / "_gin").write_text(script("zsh"))
                load = f"fpath=({home / 'functions'} $fpath)\nautoload -U compinit && compinit -u -D\n"
            else:
                load = "autoload -U compinit && compinit -u -D\neval \"$(gin completion zsh)\"\n"
            (home / "zdot" / ".zshrc").write_text(f"PS1='{PROMPT}'\nunsetopt beep\n{load}")
            argv = [exe, "-i"]
        else:
            (home / "xdg" / "fish").mkdir(parents=True)
            (home / "xdg" / "fish" / "config.fish").write_text(
                f"function fish_prompt; echo -n '{PROMPT}'; end\nset -g fish_greeting\n"
                "set -g fish_autosuggestion_enabled 0\ngin completion fish | source\n")
            argv = [exe, "-i"]
        self.socket = f"gincli-complete-{uuid.uuid4().hex[:8]}"
        self.tmux = [TMUX, "-L", self.socket]
        subprocess.run([*self.tmux, "-f", "/dev/null", "new-session", "-d", "-s", "sh", "-x", "160", "-y", "40",
                        "-c", str(self.work), *argv], env=environment(home), check=True)
        self.wait_for(lambda screen: screen.rstrip().endswith(PROMPT.rstrip()), "the prompt")

    def screen(self) -> str:
        return subprocess.run([*self.tmux, "capture-pane", "-p", "-t", "sh"], capture_output=True, text=True,
                              check=True).stdout

    def keys(self, *keys: str, literal: bool = False) -> None:
        subprocess.run([*self.tmux, "send-keys", "-t", "sh", *(["-l"] if literal else []), *keys], check=True)

    def wait_for(self, ready, what: str, timeout: float = 90) -> str:
        deadline = time.monotonic() + timeout
        while True:
            screen = self.screen()
            if ready(screen):
                return screen
            if time.monotonic() > deadline:
                raise AssertionError(f"the screen never showed {what}; it shows:\n{screen}")
            time.sleep(0.05)

    def fresh_line(self) -> None:
        self.keys("C-u")
        self.keys("C-l")
        self.wait_for(lambda screen: screen.strip() == PROMPT.strip(), "an empty screen and prompt")

    def line_after_tab(self, typed: str) -> str:
        """Type ``typed``, press Tab, then type a sentinel: the command line as
        it then stands (the sentinel shows whether a space was added)."""
        self.fresh_line()
        self.keys(typed, literal=True)
        self.keys("Tab")
        self.keys(SENTINEL, literal=True)
        screen = self.wait_for(lambda s: _last_prompt_line(s).endswith(SENTINEL), "the sentinel typed after Tab")
        return _last_prompt_line(screen)[len(PROMPT):-len(SENTINEL)]

    def listing_after_tab(self, typed: str, *expected: str) -> str:
        """Type ``typed`` and press Tab: the screen once it lists ``expected``."""
        self.fresh_line()
        self.keys(typed, literal=True)
        self.keys("Tab")
        return self.wait_for(lambda s: all(e in s.split(typed, 1)[-1] for e in expected),
                             f"the completions {expected!r}")

    def close(self) -> None:
        subprocess.run([*self.tmux, "kill-server"], capture_output=True)


def _last_prompt_line(screen: str) -> str:
    lines = [line for line in screen.splitlines() if line.startswith(PROMPT)]
    return lines[-1].rstrip("\n") if lines else ""


@pytest.fixture(scope="module", params=["bash", "zsh", "fish"])
def pane(request, tmp_path_factory):
    p = ShellPane(request.param, tmp_path_factory.mktemp(request.param))
    yield p
    p.close()


# What Tab makes of a command line, the same in the three shells: the line
# typed, and the line after Tab (the trailing space, or not, included).
UNIQUE = [
    ("gin tournament --bots expert,s", "gin tournament --bots expert,simple "),  # the last bot of a comma list
    ("gin match --bots simple,exp", "gin match --bots simple,expert "),
    ("gin play --bot ra", "gin play --bot random "),
    ("gin score --option sp", "gin score --option spade_doubles="),  # a key: no space, its value comes next
    ("gin score --option spade_doubles=t", "gin score --option spade_doubles=true "),
    ("gin deal --option knock_limit=u", "gin deal --option knock_limit=upcard "),
    ("gin match --scoring partn", "gin match --scoring partnership "),
    ("gin deal --seed ", "gin deal --seed "),  # a number: nothing, never the folder's file
    ("gin match --option gin_bonus=", "gin match --option gin_bonus="),
    ("gin validate --format cs", "gin validate --format csv "),
    ("gin score on", "gin score only-file.txt "),  # a file where a file goes
]


@pytest.mark.parametrize("typed,completed", UNIQUE, ids=[u[0] for u in UNIQUE])
def test_tab_completes_the_word(pane, typed, completed):
    assert pane.line_after_tab(typed) == completed


def test_tab_lists_a_switchs_values_and_no_files(pane):
    screen = pane.listing_after_tab("gin score --option spade_doubles=", "true", "false")
    assert "only-file.txt" not in screen


def test_tab_lists_the_scoring_systems(pane):
    screen = pane.listing_after_tab("gin match --scoring c", "chouette", "cutthroat")
    assert "only-file.txt" not in screen and "hollywood" not in screen.split("--scoring c", 1)[1]


def test_zsh_completion_saved_in_fpath(tmp_path):
    """``gin completion zsh > _gin`` in a folder of $fpath: compinit finds it, the first Tab loads it."""
    p = ShellPane("zsh", tmp_path, zsh_fpath=True)
    try:
        assert p.line_after_tab("gin tournament --bots expert,s") == "gin tournament --bots expert,simple "
        assert p.line_after_tab("gin score --option spade_doubles=f") == "gin score --option spade_doubles=false "
    finally:
        p.close()


def test_bash_completes_the_value_of_an_option_joined_by_equals(tmp_path):
    """bash splits words at = (COMP_WORDBREAKS): --option=KEY=VALUE still completes."""
    p = ShellPane("bash", tmp_path)
    try:
        assert p.line_after_tab("gin score --option=spade_doubles=f") == "gin score --option=spade_doubles=false "
        assert p.line_after_tab("gin match --bots exe") == "gin match --bots exec:"
    finally:
        p.close()


def fish_complete(home: Path, *lines: str) -> list[list[str]]:
    """fish's completions of each line (``complete -C``), the script loaded as docs/cli.md says."""
    exe = need("fish")
    commands = "; ".join(f"complete -C {_fish_quote(line)}; echo '<end>'" for line in lines)
    res = subprocess.run([exe, "--no-config", "-c", f"gin completion fish | source; {commands}"],
                         capture_output=True, text=True, env=environment(home), cwd=home, timeout=300)
    assert res.returncode == 0, res.stderr
    blocks = res.stdout.split("<end>\n")[:-1]
    return [[row.split("\t")[0] for row in block.splitlines()] for block in blocks]


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def test_fish_completes_option_values_with_help(tmp_path):
    (tmp_path / "only-file.txt").write_text("x\n")
    got = fish_complete(tmp_path, "gin tournament --bots expert,s", "gin score --option spade_doubles=",
                        "gin score --option=spade_doubles=t", "gin deal --seed ", "gin match --bot-log ",
                        "gin deal --players ann,bob,cat --scoring cutthroat --dealer ")
    assert got[0] == ["expert,simple"]
    assert got[1] == ["spade_doubles=true", "spade_doubles=false"]
    assert got[2] == ["--option=spade_doubles=true"]
    assert got[3] == []
    assert "only-file.txt" not in got[4]  # a folder goes there: folders only
    assert got[5] == ["ann", "bob", "cat"]


# -- every option of every command ------------------------------------------------------------------

@pytest.fixture
def answer(tmp_path, monkeypatch):
    """What gin offers for a command line (the words before the cursor's, and
    the word being typed), in-process: the function every shell's script asks."""
    import typer

    from gincli.cli import complete, make_app

    monkeypatch.setenv("GINCLI_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.chdir(tmp_path)
    group = typer.main.get_command(make_app())

    def ask(args: list[str], incomplete: str = "") -> tuple[str, list[str]]:
        kind, items = complete.answer(group, {}, "gin", args, incomplete)
        return kind, [value for value, _ in items]

    ask.group = group
    return ask


def every_option():
    """(command path, parameter) for every parameter of every gincli command."""
    import typer

    from gincli.cli import make_app
    from gincli.cli.app import COMMANDS

    group = typer.main.get_command(make_app())
    ctx = group.make_context("gin", ["--help"], resilient_parsing=True)
    out = [((), p) for p in group.params]
    for name in COMMANDS:
        command = group.get_command(ctx, name)
        out += [((name,), p) for p in command.params]
        for sub_name, sub in getattr(command, "commands", {}).items():
            out += [((name, sub_name), p) for p in sub.params]
    return [(path, p) for path, p in out if p.name != "help" and not getattr(p, "is_flag", False)]


#: For the options whose value is a name: a command line that gives what they
#: depend on, and a name they must offer.
OFFERS = {
    "--variant": ([], "oklahoma"), "--scoring": ([], "cutthroat"), "--option": ([], "big_gin_bonus="),
    "--bots": ([], "simple"), "--bot": ([], "expert"), "--backend": ([], "local"),
    "--disable-plugin": ([], "gincli-bots"), "--input-format": ([], "jsonl"), "--color": ([], "never"),
    "--format": ([], "json"), "--dealer": (["--players", "ann,bob"], "bob"),
    "--anchor": (["--bots", "simple,random,expert"], "random"),
}


def _label(item):
    path, p = item
    return " ".join(("gin", *path, next((o for o in p.opts if o.startswith("--")), p.name)))


@pytest.mark.parametrize("item", every_option(), ids=_label)
def test_every_option_offers_what_its_value_is(answer, item, tmp_path):
    from gincli.cli import complete

    path, param = item
    long_name = next((o for o in param.opts if o.startswith("--")), None)
    kind_by_metavar = complete.value_kind(param)
    if long_name in OFFERS:
        before, offered = OFFERS[long_name]
        if path and path[-1] == "play" and long_name == "--dealer":
            before, offered = ["--name", "ann", "--bot", "simple"], "simple"
        if path == ("report",) and long_name == "--anchor":  # the players of the transcripts named
            (tmp_path / "t.jsonl").write_text(json.dumps({"format": "gincli-transcript/1",
                                                          "players": ["simple", "random"], "hands": []}) + "\n")
            before = [str(tmp_path / "t.jsonl")]
        if path == ("bots", "check") and long_name == "--bot":
            pytest.fail("gin bots check takes its bot as an argument")
        kind, values = answer([*path, *before, long_name])
        assert kind == "names" and offered in values, values
    elif long_name is None and (kind_by_metavar == "names"
                                or (" ".join(("gin", *path)), param.name) in complete.ARGUMENTS):
        # an argument that takes names (a new one's: none to offer)
        kind, values = answer(list(path))
        new = complete.ARGUMENTS.get((" ".join(("gin", *path)), param.name)) is complete._nothing
        assert kind == "names" and (values == [] if new else values), (path, param.name)
    elif kind_by_metavar != "names":  # a file or a folder: the shell completes it
        kind, values = answer([*path, long_name] if long_name else list(path))
        assert (kind, values) == (kind_by_metavar, []), param.metavar
    else:  # a number or free text: nothing, and never files
        assert long_name in complete.NAMES, f"{long_name} is not classified: name its completion in complete.NAMES"
        kind, values = answer([*path, long_name])
        assert (kind, values) == ("names", []), values


def test_bots_check_offers_external_bots(answer, tmp_path):
    bots = tmp_path / "bots.toml"
    bots.write_text('[bots.mine]\ncommand = ["python3", "bot.py"]\n')
    kind, values = answer(["bots", "--bots-file", str(bots), "check"])
    assert values == ["mine", "exec:"]


def test_option_keys_already_given_are_not_offered_again(answer):
    _, values = answer(["score", "--option", "spade_doubles=true", "--option"], "sp")
    assert values == []
    _, values = answer(["score", "--option", "spade_doubles=true", "--option"], "big")
    assert values == ["big_gin_bonus="]


def test_option_keys_and_values_follow_the_variant_and_scoring_chosen(answer):
    _, keys = answer(["match", "--scoring", "match-500", "--option"], "")
    assert "match_target=" in keys and "target=" in keys
    _, keys = answer(["match", "--option"], "")  # game by default
    assert "match_target=" not in keys and "target=" in keys
    _, keys = answer(["match", "--hands", "5", "--option"], "")  # hand: no session options
    assert "target=" not in keys and "knock_limit=" in keys
    assert answer(["deal", "--option"], "shutout=") == ("names", ["shutout=bonus", "shutout=double"])
    assert answer(["deal", "--option"], "big_gin_bonus=") == ("names", ["big_gin_bonus=off"])
    assert answer(["deal", "--option"], "nosuch=") == ("names", [])


def test_bash_words_split_like_bash():
    from gincli.cli.completion import bash_words

    breaks = " \t\n\"'><=;|&(:"
    assert bash_words("gin score --option spade_doubles=t", breaks) == (
        ["score", "--option"], "spade_doubles=t", "spade_doubles=", False)
    assert bash_words("gin match --bots exec:py", breaks) == (["match", "--bots"], "exec:py", "exec:", False)
    assert bash_words("gin score 'my fi", breaks) == (["score"], "my fi", "", True)
    assert bash_words("gin score my\\ fi", breaks) == (["score"], "my fi", "", False)
    assert bash_words("gin score ", breaks) == (["score"], "", "", False)


def test_a_completion_never_writes_an_error(tmp_path):
    """A broken config file, an unknown command, a bots file that is not TOML:
    the answer is what can still be offered, and nothing on stderr."""
    config = tmp_path / "config"
    config.mkdir()
    (config / "config.toml").write_text("this is not toml\n")
    (tmp_path / "bad.toml").write_text("[[[\n")
    for line in ("gin nosuch --x", f"gin match --bots-file {tmp_path / 'bad.toml'} --bots ex", "gin sc"):
        env = dict(os.environ, _GIN_COMPLETE="bash", _GIN_COMPLETE_LINE=line, GINCLI_CONFIG_DIR=str(config))
        res = subprocess.run([GIN], capture_output=True, text=True, env=env, timeout=120)
        assert res.returncode == 0 and res.stderr == "", res.stderr
        assert res.stdout.splitlines()[0] in ("names", "nospace", "files", "dirs")
