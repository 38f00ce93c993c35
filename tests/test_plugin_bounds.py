"""Plugin code is bounded (issue 31): an import that takes long is named on
stderr while it runs and left out at a limit a user would wait for; nothing a
plugin writes while it loads, by ``print`` or on file descriptor 1, reaches
standard output; what a plugin registers is checked as it arrives; and a
plugin's fault is exit status 4 in every command. Real ``gin`` processes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from conftest import one_error

ROOT = Path(__file__).resolve().parent.parent
GIN = str(Path(sys.executable).with_name("gin"))
HANDS = str(ROOT / "examples" / "hands.jsonl")
GAME = str(ROOT / "examples" / "game.json")
EXIT_PLUGIN_FAULT = 4


def env_for(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("GINCLI_")}
    env["GINCLI_CONFIG_DIR"] = str(tmp_path / "config")
    env.update(extra)
    return env


def plugin_dir(tmp_path: Path, **files: str) -> Path:
    folder = tmp_path / "plugins"
    folder.mkdir(exist_ok=True)
    for name, code in files.items():
        (folder / f"{name}.py").write_text(textwrap.dedent(code))
    return folder


def gin(tmp_path: Path, *args: str, env: dict[str, str] | None = None, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([GIN, *args], capture_output=True, text=True, cwd=tmp_path, timeout=120,
                          env=env or env_for(tmp_path), **kw)


def plugin_fault(res: subprocess.CompletedProcess, *words: str) -> str:
    """The run ended with exit 4 and one ``gin: error:`` line holding ``words``, no traceback."""
    return one_error(res, EXIT_PLUGIN_FAULT, *words)


# -- the import's time limit ---------------------------------------------------------------------------

def test_a_slow_import_is_named_on_stderr_while_it_runs(tmp_path):
    release = tmp_path / "release"
    folder = plugin_dir(tmp_path, slow=f"""
        import os, time
        while not os.path.exists({str(release)!r}):  # the test lets it go once it has seen the notice
            time.sleep(0.01)
        from gincli import Variant, hookimpl

        @hookimpl
        def gincli_register_variants(register):
            register(Variant("slow-but-sure", "loaded at last"))
        """)
    proc = subprocess.Popen([GIN, "--plugins-dir", str(folder), "variants", "-f", "json"], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env_for(tmp_path, GINCLI_IMPORT_TIME_LIMIT="600"))
    try:
        line = proc.stderr.readline()
        assert proc.poll() is None  # still importing: the plugin waits for the release file
        assert line == (f'gin: warning: plugin "slow" ({folder / "slow.py"}) is still importing after 1 s; it is '
                        "left out at 600 s (GINCLI_IMPORT_TIME_LIMIT, or import_time_limit in config.toml, sets the "
                        "limit)\n")
        release.write_text("")
        out, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert "slow-but-sure" in {v["name"] for v in json.loads(out)["variants"]}


def test_an_import_that_never_ends_is_left_out_at_the_limit_and_the_command_goes_on(tmp_path):
    folder = plugin_dir(tmp_path, loops="while True:\n    pass\n")
    for quiet in ((), ("-q",)):  # -q keeps warnings, this one too
        res = gin(tmp_path, "--plugins-dir", str(folder), "score", "-f", "json", *quiet, HANDS,
                  env=env_for(tmp_path, GINCLI_IMPORT_TIME_LIMIT="1"))
        assert res.returncode == 0, res.stderr
        assert len([json.loads(line) for line in res.stdout.splitlines()]) == 5  # its normal output
        warnings = [line for line in res.stderr.splitlines() if line.startswith("gin: warning:")]
        assert warnings[0].startswith(f'gin: warning: plugin "loops" ({folder / "loops.py"}) is still importing '
                                      "after 0.5 s; it is left out at 1 s")
        assert warnings[1].startswith('gin: warning: plugin "loops"') and "did not finish importing within 1 s; " \
            "it was left out" in warnings[1]


def test_the_limit_is_settable_in_config_toml_and_the_environment_wins(tmp_path):
    folder = plugin_dir(tmp_path, loops="while True:\n    pass\n")
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text("import_time_limit = 0.5\n")
    res = gin(tmp_path, "--plugins-dir", str(folder), "bots")
    assert res.returncode == 0 and "did not finish importing within 0.5 s" in res.stderr, res.stderr
    res = gin(tmp_path, "--plugins-dir", str(folder), "bots", env=env_for(tmp_path, GINCLI_IMPORT_TIME_LIMIT="1"))
    assert res.returncode == 0 and "did not finish importing within 1 s" in res.stderr, res.stderr
    shown = json.loads(gin(tmp_path, "config", "-f", "json").stdout)["defaults"]["import_time_limit"]
    assert shown == {"value": 0.5, "from": "config file"}


@pytest.mark.parametrize("value", ["0", "1e9", "true", '"5"'])
def test_a_limit_in_config_toml_out_of_range_is_one_sentence(tmp_path, value):
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text(f"import_time_limit = {value}\n")
    res = gin(tmp_path, "variants")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stderr.startswith("gin: error: the config file") and "import_time_limit must be a number of " \
        "seconds from 0.1 to 600" in res.stderr


def test_a_bad_limit_in_the_environment_is_said_and_the_default_used(tmp_path):
    folder = plugin_dir(tmp_path, quick="X = 1\n")
    res = gin(tmp_path, "--plugins-dir", str(folder), "variants", "-f", "json",
              env=env_for(tmp_path, GINCLI_IMPORT_TIME_LIMIT="soon"))
    assert res.returncode == 0 and json.loads(res.stdout)["variants"]
    assert res.stderr.count('GINCLI_IMPORT_TIME_LIMIT="soon" is not a number of seconds from 0.1 to 600; the '
                            "default, 5 s, is used") == 1


def test_a_register_hook_that_never_ends_is_stopped_at_the_limit(tmp_path):
    folder = plugin_dir(tmp_path, stuck="""
        from gincli import Variant, hookimpl

        @hookimpl
        def gincli_register_variants(register):
            register(Variant("first", "registered before it got stuck"))
            while True:
                pass
        """)
    res = gin(tmp_path, "--plugins-dir", str(folder), "variants", "-f", "json",
              env=env_for(tmp_path, GINCLI_IMPORT_TIME_LIMIT="1"))
    assert res.returncode == 0, res.stderr
    assert "first" in {v["name"] for v in json.loads(res.stdout)["variants"]}
    assert 'plugin "stuck": its gincli_register_variants hook did not finish within 1 s' in res.stderr


# -- standard output holds the data only ---------------------------------------------------------------

WRITER = """
    import os
    import sys
    os.write(1, b"fd1 at import\\n")
    print("print at import")
    sys.__stdout__.write("real stdout at import\\n")
    from gincli import Variant, hookimpl

    @hookimpl
    def gincli_register_variants(register):
        os.write(1, b"fd1 in a hook\\n")
        print("print in a hook")
        register(Variant("written", "a variant from a plugin that writes"))
    """


@pytest.mark.parametrize("command", [("variants", "-f", "json"), ("plugins", "-f", "json"),
                                     ("score", "-f", "json", HANDS)])
def test_what_a_plugin_writes_while_it_loads_never_reaches_stdout(tmp_path, command):
    folder = plugin_dir(tmp_path, writer=WRITER)
    res = gin(tmp_path, "--plugins-dir", str(folder), *command)
    assert res.returncode == 0, res.stderr
    assert "at import" not in res.stdout and "in a hook" not in res.stdout
    for line in res.stdout.splitlines() if command[0] == "score" else [res.stdout]:
        json.loads(line)  # stdout is the command's data, whole
    for said in ("fd1 at import", "print at import", "real stdout at import", "fd1 in a hook", "print in a hook"):
        assert said in res.stderr
    if command[0] == "variants":
        assert "written" in {v["name"] for v in json.loads(res.stdout)["variants"]}


def test_stdout_is_gincli_s_again_once_plugins_are_loaded(tmp_path):
    folder = plugin_dir(tmp_path, writer=WRITER)
    res = gin(tmp_path, "--plugins-dir", str(folder), "deal", "--seed", "1", "-f", "json", "--variant", "written")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["variant"] == "written"


# -- what a plugin registers is checked as it arrives, and its fault is exit 4 ------------------------------

def _variant(defaults: str = "{}", extra: str = "()") -> str:
    return f"""
        from gincli import Option, Variant, hookimpl

        class Odd(Variant):
            extra_options = {extra}

        @hookimpl
        def gincli_register_variants(register):
            register(Odd("odd", "a variant with something wrong", {defaults}))
        """


def _scoring(options: str) -> str:
    return f"""
        from gincli import Option, ScoringSystem, hookimpl
        from gincli_builtin.scoring import HandScoring

        class Odd(HandScoring):
            name = "odd"
            options = {options}

        @hookimpl
        def gincli_register_scoring_systems(register):
            register(Odd())
        """


def _moveset(body: str) -> str:
    return f"""
        from gincli import MoveSet, Option, hookimpl

        class Odd(MoveSet):
            name = "odd"
            options = (Option("odd_moves", False, "play with the odd moves", "bool"),)
            {body}

            def enabled(self, rules):
                return rules["odd_moves"]

        @hookimpl
        def gincli_register_moves(register):
            register(Odd())
        """


def _meld_rules(body: str, gated: bool = False) -> str:
    return f"""
        from gincli import MeldRules, Option, hookimpl, standard_melds

        class Odd(MeldRules):
            name = "odd"
            options = (Option("odd_melds", False, "play with the odd melds", "bool"),)

            def enabled(self, rules):
                return rules["odd_melds"]

            def card_value(self, card, rules):
                if {gated} and not rules["odd_melds"]:
                    return super().card_value(card, rules)
                {body}

        @hookimpl
        def gincli_register_meld_rules(register):
            register(Odd())
        """


#: (plugin code, what the sentence names, how a command asks for it: --variant, --scoring or --option)
BAD = {
    "variant default of the wrong kind": (_variant('{"gin_bonus": "lots"}'),
                                          "the variant odd's default for gin_bonus is wrong: gin_bonus must be a "
                                          'whole number >= 0, not "lots"', ("--variant", "odd")),
    "variant option default outside its choices": (
        _variant(extra='(Option("odd_deal", "north", "who deals", "choice", ("east", "west")),)'),
        'the variant odd\'s option "odd_deal" is wrong: its default "north" is not one of "east", "west"',
        ("--variant", "odd")),
    "variant description not text": (_variant().replace('"a variant with something wrong"', "42"),
                                     "the variant odd's description must be text, not \"42\"", ("--variant", "odd")),
    "scoring option of no kind": (_scoring('(Option("odd_target", 100, "a target", "number"),)'),
                                  'the scoring system odd\'s option "odd_target" is wrong: its kind is "number", '
                                  "not one of int, bool, choice, int-or-off, knock-limit", ("--scoring", "odd")),
    "scoring option name with a dash": (_scoring('(Option("odd-target", 100, "a target"),)'),
                                        'the scoring system odd\'s option "odd-target" is wrong: its name must be a '
                                        "lower-case word", ("--scoring", "odd")),
    "scoring option default past its most": (_scoring('(Option("odd_target", 500, "a target", most=100),)'),
                                             "its default 500 is not a whole number from 0 to 100",
                                             ("--scoring", "odd")),
    "move set outcomes not names": (_moveset('outcomes = ("fine", 7)'),
                                    "the move set odd's outcomes must be a tuple of names",
                                    ("--option", "odd_moves=true")),
    "move set rule ids not text": (_moveset('rule_ids = {"odd-rule": None}'),
                                   "the move set odd's rule_ids must map rule ids to what each means",
                                   ("--option", "odd_moves=true")),
    "meld rules card value 2**32": (_meld_rules("return 2**32 if card % 13 == 12 else super().card_value(card, rules)"),
                                    "the meld rules odd's card_value() returned 4294967296, not a whole number from "
                                    "0 to 100, with every option at its default", ("--option", "odd_melds=true")),
    "meld rules card value negative": (_meld_rules("return -1"),
                                       "card_value() returned -1, not a whole number from 0 to 100",
                                       ("--option", "odd_melds=true")),
}


@pytest.mark.parametrize("case", list(BAD))
def test_bad_registration_data_is_one_sentence_and_exit_4_when_asked_for(tmp_path, case):
    code, said, asked = BAD[case]
    folder = plugin_dir(tmp_path, odd=code)
    listed = gin(tmp_path, "--plugins-dir", str(folder), "variants", "-f", "json")
    assert listed.returncode == 0, listed.stderr  # left out at load: a warning, and the rest works
    json.loads(listed.stdout)
    warnings = [line for line in listed.stderr.splitlines() if line.startswith("gin: warning:")]
    assert len(warnings) == 1 and warnings[0].startswith('gin: warning: plugin "odd": ') and said in warnings[0]
    runs = {"score": ("score", "-f", "json", *asked, HANDS),
            "validate": ("validate", "-f", "json", *asked, GAME),
            "match": ("match", "--bots", "simple,random", "--games", "1", "--seed", "1", "-f", "json", *asked)}
    for command, args in runs.items():
        res = gin(tmp_path, "--plugins-dir", str(folder), *args)
        if command == "score" and asked[0] == "--option":  # the rules each record asks for: each one's fault
            records_failed(res, said)
            continue
        plugin_fault(res, 'plugin "odd"', said)
        assert res.stdout == "", command


def records_failed(res: subprocess.CompletedProcess, said: str) -> None:
    """``gin score``: every record of examples/hands.jsonl an error entry naming the plugin, exit 4."""
    assert res.returncode == EXIT_PLUGIN_FAULT and "Traceback" not in res.stderr, res.stderr
    out = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(out) == len(Path(HANDS).read_text().splitlines())
    assert all(o["error"].startswith('plugin "odd": ') and said in o["error"] for o in out)


def test_a_bot_with_bad_parameters_is_left_out_and_a_match_asking_for_it_is_exit_4(tmp_path):
    folder = plugin_dir(tmp_path, odd="""
        from gincli import Option, hookimpl
        from gincli_builtin.bots import SimpleBot

        class Odd(SimpleBot):
            name = "odd"
            description = "simple, with a parameter it cannot have"
            parameters = (Option("care", 2, "how careful", "bool"),)

        @hookimpl
        def gincli_register_bots(register):
            register(Odd)
        """)
    listed = gin(tmp_path, "--plugins-dir", str(folder), "bots", "-f", "json")
    assert listed.returncode == 0 and "odd" not in listed.stdout
    said = 'the bot odd\'s option "care" is wrong: its default 2 is not true or false'
    assert said in listed.stderr
    plugin_fault(gin(tmp_path, "--plugins-dir", str(folder), "match", "--bots", "odd,simple", "--games", "1"),
                 'plugin "odd"', said)


GATED = _meld_rules("return 2**32 if card % 13 == 12 else super().card_value(card, rules)", gated=True)


def test_a_card_value_of_2_to_the_32_under_the_rules_asked_for_stops_every_command_with_exit_4(tmp_path):
    """The card value is right at the defaults and wrong once its option is on:
    no command scores with it (no bot is credited billions, no hand forfeited);
    gin score gives each record the fault."""
    folder = plugin_dir(tmp_path, odd=GATED)
    said = "the meld rules odd's card_value() returned 4294967296, not a whole number from 0 to 100"
    listed = gin(tmp_path, "--plugins-dir", str(folder), "variants", "-f", "json")
    assert listed.returncode == 0 and listed.stderr == ""  # right at the defaults: registered
    on = ("--option", "odd_melds=true")
    for args in (("match", "--bots", "simple,expert", "--games", "2", "--seed", "1", "-f", "json", *on),
                 ("deal", "--seed", "1", *on)):
        res = gin(tmp_path, "--plugins-dir", str(folder), *args)
        plugin_fault(res, 'plugin "odd"', said)
        assert res.stdout == ""
    records_failed(gin(tmp_path, "--plugins-dir", str(folder), "score", "-f", "json", *on, HANDS), said)
    doc = json.loads(gin(tmp_path, "deal", "--seed", "1", "-f", "json").stdout)
    doc["options"]["odd_melds"] = True
    res = gin(tmp_path, "--plugins-dir", str(folder), "validate", "-f", "json", "-", input=json.dumps(doc))
    assert res.returncode == EXIT_PLUGIN_FAULT, res.stderr
    fault = json.loads(res.stdout)["errors"][0]
    assert fault["rule"] == "plugin-fault" and said in fault["message"]


def test_a_per_record_plugin_fault_costs_its_record_and_the_run_is_exit_4(tmp_path):
    folder = plugin_dir(tmp_path, odd="""
        from gincli import Variant, hookimpl

        class Fragile(Variant):
            def knock_limit(self, rules, upcard):
                raise RuntimeError("no limit today")

        @hookimpl
        def gincli_register_variants(register):
            register(Fragile("fragile", "fails at every knock"))
        """)
    records = [json.loads(line) for line in Path(HANDS).read_text().splitlines()]
    records[0]["variant"] = "fragile"
    res = gin(tmp_path, "--plugins-dir", str(folder), "score", "-f", "json", "-",
              input="".join(json.dumps(r) + "\n" for r in records))
    assert res.returncode == EXIT_PLUGIN_FAULT, res.stderr
    out = [json.loads(line) for line in res.stdout.splitlines()]
    assert len(out) == len(records) and 'plugin "odd"' in out[0]["error"]
    assert all("error" not in o for o in out[1:])  # the others are scored


NOISY_BOT = textwrap.dedent('''
    import os, subprocess, sys
    from gincli import Bot, hookimpl

    class Noisy(Bot):
        name = "noisy"
        description = "writes on file descriptor 1 and starts a program that writes on its standard output"

        def choose(self, view):
            os.write(1, b"noise on descriptor 1\\n")
            print("noise through print")
            if not getattr(self, "started", False):
                subprocess.run([sys.executable, "-c", "print('noise from a child')"])
                self.started = True
            return view.legal()[0]

    @hookimpl
    def gincli_register_bots(register):
        register(Noisy)
''')


@pytest.mark.parametrize("workers", ["1", "2"])
def test_what_plugin_code_writes_while_a_command_runs_never_reaches_stdout(tmp_path, workers):
    """Not only while plugins load: a plugin's bot that writes on descriptor 1,
    prints, and starts a program that writes on its standard output, during a
    match (in this process, and in forked workers): the JSON on stdout parses,
    and the noise is on stderr."""
    folder = plugin_dir(tmp_path, noisy=NOISY_BOT)
    res = gin(tmp_path, "--plugins-dir", str(folder), "match", "--bots", "noisy,simple", "--hands", "3",
              "--seed", "1", "--workers", workers, "-q", "-f", "json")
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["hands"] == 3
    assert "noise" not in res.stdout
    for noise in ("noise on descriptor 1", "noise through print", "noise from a child"):
        assert noise in res.stderr
