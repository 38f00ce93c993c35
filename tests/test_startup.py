"""What ``gin`` loads to start: ``gin --help`` and ``gin --version`` import no
command's module, no engine, no pluggy and no rich; ``gin --help`` lists
gincli's commands with the summaries their modules give; shell completion."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

GIN = str(Path(sys.executable).with_name("gin"))

HEAVY = ("gincli.hand.engine", "gincli.sessions.systems", "gincli.plugin.registry", "gincli.rulebook.melds", "pluggy",
         "rich", "typer.rich_utils", "gincli.cli.score", "gincli.cli.match", "gincli.cli.play", "gincli.cli.deal")

PROBE = """
import sys
sys.argv = ["gin", *sys.argv[1:]]
from gincli.cli import main
try:
    main()
except SystemExit:
    pass
heavy = {heavy!r}
print("LOADED", sorted(m for m in heavy if m in sys.modules), file=sys.stderr)
"""


def loaded(tmp_path: Path, *args: str, heavy: tuple[str, ...] = HEAVY, packages: bool = False,
           ) -> tuple[str, list[str]]:
    from importlib.metadata import entry_points

    # An installed plugin package (gincli-ray, which the test command installs) may add a command:
    # gin --help then loads it to tell. Disabled (unless ``packages``), it cannot.
    env = dict(os.environ, GINCLI_CONFIG_DIR=str(tmp_path / "config"))
    if not packages:
        env["GINCLI_DISABLE_PLUGINS"] = ",".join(ep.name for ep in entry_points(group="gincli"))
    env.pop("GINCLI_PLUGINS_DIR", None)
    res = subprocess.run([sys.executable, "-c", PROBE.format(heavy=heavy), *args], capture_output=True, text=True,
                         env=env, timeout=300, cwd=tmp_path)
    line = [ln for ln in res.stderr.splitlines() if ln.startswith("LOADED")][-1]
    return res.stdout, eval(line[len("LOADED "):])


#: What listing the commands need not load when no plugin adds one: the built-in plugins and the registry.
BUILT_INS = ("gincli.plugin.registry", "gincli_builtin.bots", "gincli_builtin.variants", "gincli.hand.engine",
             "gincli.sessions.systems")


def test_help_loads_plugins_but_not_the_built_ins_to_tell_whether_any_adds_a_command(tmp_path):
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "quiet.py").write_text("from gincli import hookimpl\n\n"
                                     "@hookimpl\ndef gincli_register_bots(register):\n    pass\n")
    out, modules = loaded(tmp_path, "--plugins-dir", str(folder), "--help", heavy=BUILT_INS, packages=True)
    assert "Commands:" in out and modules == []
    (folder / "loud.py").write_text("from gincli import hookimpl\n\ndef hello():\n    \"\"\"Say hello.\"\"\"\n\n"
                                    "@hookimpl\ndef gincli_register_commands(register):\n    register(hello)\n")
    out, modules = loaded(tmp_path, "--plugins-dir", str(folder), "--help", heavy=BUILT_INS, packages=True)
    assert "hello" in out.split("Commands:")[1] and "gincli.plugin.registry" in modules
    (folder / "loud.py").unlink()
    (folder / "broken.py").write_text("raise RuntimeError('no luck')\n")
    res = subprocess.run([GIN, "--plugins-dir", str(folder), "--help"], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, GINCLI_CONFIG_DIR=str(tmp_path / "config")))
    assert res.returncode == 0 and res.stderr.count("no luck") == 1, res.stderr  # said once


@pytest.mark.parametrize("args", [("--help",), ("--version",), ("-h",)])
def test_help_and_version_load_nothing_heavy(tmp_path, args):
    out, modules = loaded(tmp_path, *args)
    assert out.strip()
    assert modules == []


def test_a_command_loads_only_what_it_needs(tmp_path):
    _, modules = loaded(tmp_path, "deal", "--seed", "1", "-f", "json")
    assert "gincli.cli.deal" in modules and "gincli.cli.match" not in modules and "gincli.cli.play" not in modules


def test_scoring_for_a_program_loads_no_rich(tmp_path):
    # stderr a pipe, no -q: the progress line's parts are ready, yet rich (some 20 ms) waits for a line to write
    record = tmp_path / "hand.json"
    record.write_text('{"hands": {"ann": ["As", "2s", "3s", "4d", "5d", "6d", "7c", "8c", "9c", "Kh"], '
                      '"bob": ["Ah", "2h", "3h", "4h", "5c", "6c", "7h", "8h", "9d", "Qd"]}, "knocker": "ann"}')
    out, modules = loaded(tmp_path, "score", "-f", "json", str(record), heavy=("rich",))
    assert '"outcome": "knock"' in out and modules == []


def test_help_lists_every_command_with_its_own_summary(run):
    from typer.main import get_group

    from gincli.cli.app import COMMANDS, GinGroup, _sub_app

    res = run("--help")
    assert res.exit_code == 0
    lines = res.stdout.split("Commands:")[1].splitlines()
    listed = [line.split()[0] for line in lines if line.strip() and not line.startswith("   ")]
    assert listed == list(COMMANDS)
    shown = " ".join(" ".join(lines).split()).replace("- ", "-")  # each summary whole, wrapped (at a hyphen
    for name, (_module, summary) in COMMANDS.items():                 # too), never cut short
        assert f"{name} {summary}" in shown, name
    group = GinGroup()
    for name, (module, summary) in COMMANDS.items():
        group._load(module)
        command = group.commands[name]
        assert " ".join(command.help.split("\n\n")[0].split()) == summary, name  # a paragraph, as click rewraps it
    sub = _sub_app()
    assert get_group(sub).commands == {}


def test_a_mistyped_command_is_suggested_among_all_commands(run):
    res = run("scroe")
    assert res.exit_code == 2 and "did you mean 'score'?" in res.stderr


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_the_script(shell):
    res = subprocess.run([GIN, "completion", shell], capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert "_GIN_COMPLETE" in res.stdout and "gin" in res.stdout


def test_completion_of_an_unknown_shell_is_a_usage_error():
    res = subprocess.run([GIN, "completion", "tcsh"], capture_output=True, text=True, timeout=300)
    assert res.returncode == 2 and "Traceback" not in res.stderr and "tcsh" in res.stderr


@pytest.mark.parametrize("instruction", ["complete_bash", "bash_complete"])
def test_completing_gin_sc_gives_score(tmp_path, instruction):
    env = dict(os.environ, COMP_WORDS="gin sc", COMP_CWORD="1", _GIN_COMPLETE=instruction,
               GINCLI_CONFIG_DIR=str(tmp_path / "config"))
    res = subprocess.run([GIN], capture_output=True, text=True, env=env, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout.split() == ["score"]


def test_completing_options_and_choices(tmp_path):
    env = dict(os.environ, _GIN_COMPLETE="complete_bash", GINCLI_CONFIG_DIR=str(tmp_path / "config"))

    def complete(words: str) -> list[str]:
        res = subprocess.run([GIN], capture_output=True, text=True, timeout=300,
                             env=dict(env, COMP_WORDS=words, COMP_CWORD=str(len(words.split(" ")) - 1)))
        assert res.returncode == 0, res.stderr
        return res.stdout.split()

    assert "--workers" in complete("gin score --w")
    assert complete("gin score --format j") == ["json"]
    assert set(complete("gin completion ")) == {"bash", "zsh", "fish"}


def test_completion_lists_plugin_commands(tmp_path):
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "hello.py").write_text("from gincli import hookimpl\n\n"
                                     "def hello():\n    print('hello')\n\n"
                                     "@hookimpl\ndef gincli_register_commands(register):\n    register(hello)\n")
    env = dict(os.environ, COMP_WORDS="gin he", COMP_CWORD="1", _GIN_COMPLETE="complete_bash",
               GINCLI_CONFIG_DIR=str(tmp_path / "config"), GINCLI_PLUGINS_DIR=str(folder))
    res = subprocess.run([GIN], capture_output=True, text=True, env=env, timeout=300)
    assert res.stdout.split() == ["hello"]
    del env["_GIN_COMPLETE"]
    res = subprocess.run([GIN, "--help"], capture_output=True, text=True, env=env, timeout=300)
    assert "hello" in res.stdout.split("Commands:")[1]



# -- Ctrl-C while gin is still starting ---------------------------------------------------------------

INTERRUPT_AT_IMPORT = """
import sys

class CtrlC:  # the key pressed while {module} is being imported
    def find_spec(self, name, path=None, target=None):
        if name == {module!r}:
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, CtrlC())
sys.argv = ["gin", "score", "--help"]
from gincli.entry import main
main()
"""


@pytest.mark.parametrize("module", ["typer", "gincli.cli", "gincli.cli.score", "gincli.formats.records"])
def test_ctrl_c_while_starting_is_one_line_not_a_traceback(tmp_path, module):
    env = dict(os.environ, GINCLI_CONFIG_DIR=str(tmp_path / "config"))
    res = subprocess.run([sys.executable, "-c", INTERRUPT_AT_IMPORT.format(module=module)], capture_output=True,
                         text=True, env=env, timeout=300, cwd=tmp_path)
    assert res.returncode == 130 and res.stderr == "gin: interrupted\n", res.stderr
    assert res.stdout == ""


def in_gincli(traceback: str) -> bool:
    """Whether a traceback passes through gincli's own code: a frame in the
    installed package's folder (by its real path, not a name: a checkout's own
    folder may be called gincli too)."""
    import gincli

    folders = {os.path.dirname(gincli.__file__), os.path.realpath(os.path.dirname(gincli.__file__))}
    frames = re.findall(r'File "([^"]*)"', traceback)
    return any(os.path.realpath(f).startswith(tuple(d + os.sep for d in folders)) or
               f.startswith(tuple(d + os.sep for d in folders)) for f in frames)


def test_in_gincli_tells_the_package_from_a_folder_of_the_same_name():
    import gincli

    package = os.path.dirname(gincli.__file__)
    assert in_gincli(f'  File "{package}{os.sep}cli{os.sep}__init__.py", line 1, in main')
    assert not in_gincli('  File "/home/me/gincli/.venv/bin/gin", line 5, in <module>')
    assert not in_gincli('  File "/home/me/gincli/.venv/lib/python3.11/site.py", line 9, in main')


@pytest.mark.parametrize("command", [[GIN], [sys.executable, "-m", "gincli"]], ids=["gin", "python-m"])
def test_ctrl_c_at_any_moment_of_start_up_gives_one_line(tmp_path, command):
    """A real SIGINT, sent at moments spread over gin's start-up: held while
    modules are imported, then answered with the one line."""
    import signal
    import time

    env = dict(os.environ, GINCLI_CONFIG_DIR=str(tmp_path / "config"))
    for delay in [i / 100 for i in range(1, 21)]:  # every hundredth of a second of it
        proc = subprocess.Popen([*command, "variants"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env)
        time.sleep(delay)
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=300)
        # Python's own start (its site module, the launcher pip writes, finding gincli: before any line of
        # gincli runs) is the one time a Ctrl-C is still Python's to answer, with its own traceback; from
        # gincli's first line on: finished first (0), or interrupted with one line (130) and nothing else
        # (there Python ends with its traceback and SIGINT; or, when the Ctrl-C lands in a clean-up of its
        # import system, it notes "Exception ignored" and goes on: either way no frame of gincli)
        # (or, when it lands while Python reads its script as a possible zip archive, notes "Failed checking if
        # argv[0] is an import path entry" with that frozen frame, and goes on)
        pythons = (proc.returncode not in (0, 130) or err.startswith("Exception ignored in: <function _get_module_lock")
                   or err.startswith("Failed checking if argv[0] is an import path entry"))
        if not in_gincli(err) and "gin: interrupted" not in err and pythons:
            continue
        assert proc.returncode in (0, 130), (delay, proc.returncode, err)
        if proc.returncode == 130:
            assert err == "gin: interrupted\n", (delay, err)
        else:
            assert "Traceback" not in err and "Exception ignored" not in err, (delay, err)


def test_ctrl_c_while_a_plugin_is_imported_is_held_then_answered(tmp_path):
    """The interrupt lands inside the import system (a plugin's module, which
    goes on importing after it): one line, exit 130, nothing else."""
    folder = tmp_path / "plugins"
    folder.mkdir()
    (folder / "ctrl_c.py").write_text("import os, signal\nos.kill(os.getpid(), signal.SIGINT)\n"
                                      "import decimal, fractions  # the import goes on\n")
    env = dict(os.environ, GINCLI_CONFIG_DIR=str(tmp_path / "config"))
    for _ in range(3):  # the command imports as it goes: the held Ctrl-C is answered after the first, not at its end
        res = subprocess.run([GIN, "--plugins-dir", str(folder), "variants"], capture_output=True, text=True,
                             env=env, timeout=300)
        assert res.returncode == 130 and res.stderr == "gin: interrupted\n", res.stderr
        assert res.stdout == ""


def test_ctrl_c_in_the_console_script_before_main_is_answered_by_main(tmp_path):
    """Between importing gincli.entry and calling main (the launcher's own
    lines): held, and answered as main starts."""
    launcher = tmp_path / "gin"
    launcher.write_text("import os, signal, sys\nfrom gincli.entry import main\n"
                        "os.kill(os.getpid(), signal.SIGINT)\nsys.exit(main())\n")
    env = dict(os.environ, GINCLI_CONFIG_DIR=str(tmp_path / "config"))
    res = subprocess.run([sys.executable, str(launcher), "variants"], capture_output=True, text=True, env=env,
                         timeout=300)
    assert res.returncode == 130 and res.stderr == "gin: interrupted\n", res.stderr


def test_importing_gincli_in_a_program_changes_no_signal_handler(tmp_path):
    code = ("import signal, gincli, gincli.entry\n"
            "assert signal.getsignal(signal.SIGINT) is signal.default_int_handler\n"
            "assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, [])\n"
            "gincli.Move\nprint('ok')\n")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert res.returncode == 0 and res.stdout == "ok\n", res.stderr
