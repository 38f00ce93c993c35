"""The Python API checks every argument as the command line checks its
options (issue 31): a bad one is ``gincli.UsageError`` with the command's
sentence, naming the argument where the command names its flag, and never
another exception (docs/api.md, "Arguments, and their mistakes")."""

from __future__ import annotations

import math
import re
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import gincli

GIN = str(Path(sys.executable).with_name("gin"))
ROOT = Path(__file__).resolve().parent.parent
TWO = ["simple", "random"]
THREE = ["simple", "random", "expert"]
RECORD = {"hands": {"ann": ["7s", "7h", "7d", "Ts", "Js", "Qs", "Ks", "As", "2c", "5d"],
                    "bob": ["Kh", "Kd", "Kc", "Ac", "2h", "4c", "5h", "6c", "8d", "9s"]}, "knocker": "ann"}


class Opaque:
    """Something no transcript can hold."""

    def __repr__(self) -> str:
        return "Opaque()"


def call(function: str, *args, **kwargs):
    """The function's whole answer: a lazy one (score's) read to its end."""
    result = getattr(gincli, function)(*args, **kwargs)
    return list(result) if function == "score" else result


OPTIONS = [
    ({"options": 5}, "options: 5 is not a mapping of options nor a list of key=value strings"),
    ({"options": "gin_bonus=1"}, 'options: "gin_bonus=1" is not a mapping of options nor a list of key=value strings'),
    ({"options": [5]}, "options: item 1, 5, is not a key=value string"),
    ({"options": ["gin_bonus"]}, 'options takes key=value (for example big_gin_bonus=31), not "gin_bonus"'),
    ({"options": {1: 2}}, "options: the key 1 is not an option's name (text)"),
    ({"options": {"no_such": 1}}, 'options: unknown option "no_such"; the options are '),
    ({"options": {"gin_bonus": "a"}}, 'options: gin_bonus must be a whole number >= 0, not "a"'),
    ({"options": ["gin_bonus=a"]}, 'options: gin_bonus must be a whole number >= 0, not "a"'),
]
SEEDS = [
    ({"seed": -1}, "seed: -1 is not between 0 and 18446744073709551615"),
    ({"seed": 2**64}, "seed: 18446744073709551616 is not between 0 and 18446744073709551615"),
    ({"seed": True}, "seed: True is not a whole number"),
    ({"seed": 1.0}, "seed: 1.0 is not a whole number"),
    ({"seed": float("nan")}, "seed: nan is not a whole number"),
    ({"seed": "7"}, "seed: '7' is not a whole number"),
]
RULES = [
    ({"variant": 5}, "variant: 5 is not a variant's name or a .toml file"),
    ({"variant": None}, "variant: None is not a variant's name or a .toml file"),
    ({"variant": "nope"}, 'unknown variant "nope"; the variants are '),
    ({"variant": "nowhere.toml"}, "cannot read variant file nowhere.toml: "),
    ({"scoring": 5}, "scoring: 5 is not a scoring system's name"),
    ({"scoring": "nope"}, 'unknown scoring system "nope"; the scoring systems are '),
]
DEAL = SEEDS + RULES + OPTIONS + [
    ({"players": 5}, "players: 5 is not a list of players' names"),
    ({"players": ["ann", 5]}, "players: item 2, 5, is not a player's name"),
    ({"players": ["ann"]}, 'players takes different names, not ["ann"]'),
    ({"players": "ann,ann"}, 'players takes different names separated by commas, not "ann,ann"'),
    ({"dealer": 5}, "dealer: 5 is not a player's name"),
    ({"dealer": "zed"}, 'dealer "zed" is not one of the players ann and bob'),
    ({"scoring": "cutthroat"}, "the scoring system cutthroat takes 3 players, so players needs 3 names, not 2"),
]
MATCH = SEEDS + OPTIONS + [(dict(k, hands=2), m) for k, m in RULES if "scoring" not in k] + [
    ({"bots": "simple,random"}, 'bots takes a list of bots, not the text "simple,random"'),
    ({"bots": 5}, "bots takes a list of bots, not 5"),
    ({"bots": ["simple"]}, 'bots takes at least two bots, not ["simple"]'),
    ({"bots": ["simple", 5]}, "bot 2 is 5: give a bot's name, exec:COMMAND, a gincli.Bot or a callable"),
    ({"bots": ["simple", "nobody"]}, 'unknown bot "nobody"; the bots are '),
    ({"hands": 0}, "hands: 0 must be at least 1"),
    ({"hands": True}, "hands: True is not a whole number"),
    ({"hands": 2.0}, "hands: 2.0 is not a whole number"),
    ({"hands": "2"}, "hands: '2' is not a whole number"),
    ({"hands": None, "games": 0}, "games: 0 must be at least 1"),
    ({"hands": None}, "give either hands=N or games=N"),
    ({"games": 1}, "give either hands=N or games=N"),
    ({"hands": 1, "scoring": "game"}, "hands plays hands settled alone (scoring hand); use games=N with scoring"),
    ({"hands": None, "games": 1, "scoring": 5}, "scoring: 5 is not a scoring system's name"),
    ({"hands": None, "games": 1, "scoring": "nope"}, 'unknown scoring system "nope"; the scoring systems are '),
    ({"workers": 0}, "workers: 0 is not between 1 and 1024"),
    ({"workers": 1025}, "workers: 1025 is not between 1 and 1024"),
    ({"workers": False}, "workers: False is not a whole number"),
    ({"duplicate": 1}, "duplicate: 1 is not True or False"),
    ({"duplicate": "yes"}, 'duplicate: "yes" is not True or False'),
    ({"duplicate": True, "hands": 3}, "duplicate plays deals in pairs: give an even number"),
    ({"transcripts": None}, "transcripts: None is not True, False or a file's path"),
    ({"transcripts": ""}, "transcripts: \"\" is not True, False or a file's path"),
    ({"resume": True}, "resume=True needs transcripts=FILE, the file to finish"),
    ({"resume": 1}, "resume: 1 is not True or False"),
    ({"bots_file": 5}, "bots_file: 5 is not a bots file's path"),
    ({"sprt": 5}, "sprt takes elo0,elo1 or elo0,elo1,alpha,beta (for example 0,20 or 0,50,0.01,0.01), not 5"),
    ({"sprt": (0,)}, "sprt takes elo0,elo1 or elo0,elo1,alpha,beta (for example 0,20 or 0,50,0.01,0.01), not [0]"),
    ({"sprt": (10, 0)}, "sprt needs elo0 < elo1"),
    ({"sprt": "10,0"}, "sprt needs elo0 < elo1"),
    ({"sprt": (0, "x")}, 'sprt takes numbers, elo0,elo1 or elo0,elo1,alpha,beta, not [0, "x"]'),
    ({"sprt": (True, 5)}, "sprt takes numbers, elo0,elo1 or elo0,elo1,alpha,beta, not [true, 5]"),
    ({"sprt": (0, math.nan)}, "sprt takes Elo differences from -1000 to 1000, not [0, nan]"),
    ({"sprt": (0, 10, 0.7, 0.05)}, "sprt takes alpha and beta between 0 and 0.5 (for example 0.05), not "
                                   "[0, 10, 0.7, 0.05]"),
    ({"backend": 5}, "backend: 5 is not a backend's name"),
    ({"backend": "nope"}, 'unknown match backend "nope"; the backends are '),
    ({"backend_options": "x=1"}, 'backend_options: "x=1" is not a list of KEY=VALUE strings'),
    ({"backend_options": ["x"]}, 'backend_options takes KEY=VALUE, not "x"'),
    ({"backend_options": ["x=1"]}, 'backend_options: the backend local takes '),
    ({"address": 5}, "address: 5 is not a cluster's address (HOST:PORT, or auto)"),
    ({"address": "head:6379"}, "address is for a backend that connects to a cluster (such as backend=ray), and the "
                               "backend local takes no address"),
    ({"names": "ab"}, "names: \"ab\" is not a list of players' names"),
    ({"names": ["a"]}, 'names takes 2 different names, one for each bot, not ["a"]'),
    ({"names": ["a", "a"]}, 'names takes 2 different names, one for each bot, not ["a", "a"]'),
    ({"time_limit": math.nan}, "time_limit: nan is not a number of seconds (give one from 0.01 to 86,400)"),
    ({"time_limit": math.inf}, "time_limit: inf is not a number of seconds (give one from 0.01 to 86,400)"),
    ({"time_limit": 0}, "time_limit: 0 is not between 0.01 and 86,400 seconds (a day)"),
    ({"time_limit": 1e6}, "time_limit: 1e+06 is not between 0.01 and 86,400 seconds (a day)"),
    ({"time_limit": True}, "time_limit: True is not a number of seconds"),
    ({"time_limit": "5"}, 'time_limit: "5" is not a number of seconds'),
    ({"start_time_limit": -1.0}, "start_time_limit: -1 is not between 0.01 and 86,400 seconds (a day)"),
    ({"max_hands": 0}, "max_hands: 0 must be at least 1"),
    ({"max_forfeits": -1}, "max_forfeits: -1 must be at least 0"),
    ({"bot_log": 5}, "bot_log: 5 is not a folder's path"),
    ({"bot_trace": b"dir"}, "bot_trace: b'dir' is not a folder's path"),
]
TOURNAMENT = [(dict(k, bots=THREE) if "bots" not in k else k, m) for k, m in MATCH
              if not str(k.get("bots", "")).startswith("['simple'") and "names" not in k] + [
    ({"bots": TWO}, 'bots takes three bots or more, not ["simple", "random"]; two bots play a match: '
                    "gincli.play_match"),
    ({"names": ["a", "b"]}, 'names takes 3 different names, one for each bot, not ["a", "b"]'),
    ({"gauntlet": 0}, "gauntlet: 0 must be at least 1"),
    ({"gauntlet": "1"}, "gauntlet: '1' is not a whole number"),
    ({"gauntlet": 3}, "gauntlet=3 leaves no bot to play: it takes 1 to 2 with 3 bots"),
    ({"anchor": 5}, "anchor: 5 is not a player's name (NAME or NAME=ELO)"),
    ({"anchor": "nobody"}, 'anchor "nobody" is not one of the players (simple, random, expert)'),
    ({"anchor": "simple=x"}, 'anchor takes NAME=ELO with a number, not "simple=x"'),
    ({"anchor": "simple=nan"}, 'anchor takes an Elo from -10000 to 10000, not "nan"'),
]
SCORE = [(dict(k, records=[RECORD]), m) for k, m in RULES if k.get("variant", 0) is not None] + [
    (dict(k, records=[RECORD]), m) for k, m in OPTIONS] + [
    ({"records": 5}, "records takes an iterable of records (dicts), not 5"),
    ({"records": RECORD}, "records takes an iterable of records (dicts), not one dict: put it in a list"),
    ({"records": "{}"}, "records takes an iterable of records (dicts), not one str: put it in a list"),
    ({"records": [RECORD], "variant": None, "scoring": None}, "scoring: None is not a scoring system's name"),
]
VALIDATE = [
    ({"variant": 5}, "variant: 5 is not a list of variants' names or .toml files"),
    ({"variant": ["standard", 5]}, "variant: item 2, 5, is not a variant's name or a .toml file"),
    ({"variant": ["nope"]}, 'unknown variant "nope"; the variants are '),
    ({"scoring": 5}, "scoring: 5 is not a scoring system's name"),
    ({"options": 5}, "options: 5 is not a mapping of options nor a list of key=value strings"),
    ({"options": {"gin_bonus": "a"}}, 'options: gin_bonus must be a whole number >= 0, not "a"'),
]
NEW_HAND = [c for c in DEAL if "cutthroat" not in str(c[0])] + [
    ({"players": "ann,bob,cat", "scoring": "cutthroat"}, "a hand is played by two players, not 3"),
]
DEAL = DEAL + [
    ({"id": Opaque()}, "id: Opaque() is not a JSON value"),
    ({"id": math.nan}, "id: nan is not a JSON value (JSON has no NaN or Infinity)"),
    ({"id": {"a": {1, 2}}}, "id: {'a': {1, 2}} is not a JSON value"),
]


def _cases():
    """Every bad argument of every function: (function, kwargs, the sentence it starts)."""
    base = {"score": {}, "validate": {"transcript": {}}, "deal": {}, "new_hand": {},
            "play_match": {"bots": TWO, "hands": 2}, "play_tournament": {"bots": THREE, "hands": 2}}
    table = {"score": SCORE, "validate": VALIDATE, "deal": DEAL, "new_hand": NEW_HAND, "play_match": MATCH,
             "play_tournament": TOURNAMENT}
    for function, cases in table.items():
        for kwargs, message in cases:
            yield pytest.param(function, {**base[function], **kwargs}, message,
                               id=f"{function}-{'-'.join(f'{k}={v!r}'[:30] for k, v in kwargs.items())}")


@pytest.mark.parametrize("function,kwargs,message", list(_cases()))
def test_a_bad_argument_is_a_usage_error_in_the_commands_words(function, kwargs, message):
    with pytest.raises(gincli.UsageError) as info:
        call(function, **kwargs)
    assert info.value.message.startswith(message), info.value.message
    assert "\n" not in info.value.message and "--" not in info.value.message.split(";")[0]


def test_the_exceptions_are_gincli_names():
    from gincli.base.errors import GinError, UsageError

    assert gincli.UsageError is UsageError and issubclass(gincli.UsageError, gincli.GinError)
    assert gincli.GinError is GinError and {"UsageError", "GinError"} <= set(gincli.__all__)


def test_sprt_as_numbers_is_the_same_test_as_sprt_as_text():
    as_text = gincli.play_match(TWO, hands=4, seed=3, sprt="-50,50,0.2,0.2", transcripts=False)
    as_tuple = gincli.play_match(TWO, hands=4, seed=3, sprt=(-50, 50, 0.2, 0.2), transcripts=False)
    assert as_text.summary == as_tuple.summary and as_text.summary["sprt"]


# -- the same value on the command line: the same sentence after the flag's prefix -------------------

PARITY = [
    ("play_match", {"bots": TWO, "hands": 0}, ["match", "--bots", "simple,random", "--hands", "0"],
     "hands:", "invalid value for '--hands':"),
    ("play_match", {"bots": TWO, "hands": 2, "workers": 0}, ["match", "--bots", "simple,random", "--hands", "2",
                                                             "-j", "0"],
     "workers:", "invalid value for '--workers' / '-j':"),
    ("play_match", {"bots": TWO, "hands": 2, "max_forfeits": -1},
     ["match", "--bots", "simple,random", "--hands", "2", "--max-forfeits", "-1"],
     "max_forfeits:", "invalid value for '--max-forfeits':"),
    ("play_match", {"bots": TWO, "hands": 2, "time_limit": math.nan},
     ["match", "--bots", "simple,random", "--hands", "2", "--time-limit", "nan"],
     "time_limit:", "invalid value for '--time-limit':"),
    ("play_match", {"bots": TWO, "hands": 2, "sprt": (10, 0)},
     ["match", "--bots", "simple,random", "--hands", "2", "--sprt", "10,0"], "sprt", "--sprt"),
    ("play_match", {"bots": TWO, "hands": 2, "options": {"no_such": 1}},
     ["match", "--bots", "simple,random", "--hands", "2", "-o", "no_such=1"], "options:", "--option:"),
    ("play_match", {"bots": TWO, "hands": 1, "games": 1},
     ["match", "--bots", "simple,random", "--hands", "1", "--games", "1"],
     "give either hands=N or games=N", "give either --hands N or --games N"),
    ("deal", {"seed": -1}, ["deal", "--seed", "-1"], "seed:", "invalid value for '--seed':"),
    ("deal", {"seed": 1, "dealer": "zed"}, ["deal", "--seed", "1", "--dealer", "zed"], "dealer", "--dealer"),
    ("play_tournament", {"bots": THREE, "hands": 2, "gauntlet": 3},
     ["tournament", "--bots", "simple,random,expert", "--hands", "2", "--gauntlet", "3"], "gauntlet=3",
     "--gauntlet 3"),
]


@pytest.mark.parametrize("function,kwargs,argv,argument,flag", PARITY, ids=[" ".join(p[2]) for p in PARITY])
def test_the_command_line_says_the_same_sentence_after_its_flag(tmp_path, function, kwargs, argv, argument, flag):
    with pytest.raises(gincli.UsageError) as info:
        call(function, **kwargs)
    message = info.value.message
    assert message.startswith(argument)
    res = subprocess.run([GIN, *argv], capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env={"GINCLI_CONFIG_DIR": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert res.returncode == 2, res.stderr
    said = re.fullmatch(r"gin: error: (.*?)(; see 'gin \w+ --help')?\n", res.stderr, re.S)
    assert said, res.stderr
    assert said.group(1) == flag + message[len(argument):]


# -- junk for each argument: a result or a UsageError, never another exception -------------------------

def _junk():
    leaves = (st.none() | st.booleans() | st.integers(-2**70, 2**70) | st.sampled_from([0, 1, 2, 3, -1, 2**64])
              | st.floats(allow_nan=True, allow_infinity=True)
              | st.text(max_size=12).filter(lambda t: "exec" not in t) | st.binary(max_size=6)
              | st.sampled_from(["standard", "game", "hand", "simple", "ann", "0,20", "gin_bonus=3", "a=b",
                                 "x.toml", "local", "-1", "nan", "ann,bob", "simple=5", "cutthroat"])
              | st.just(object()) | st.just(math.nan))
    return st.recursive(leaves, lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
                        | st.dictionaries(st.text(max_size=8) | st.integers(), inner, max_size=3), max_leaves=6)


ARGUMENTS = {
    "score": ("records", "variant", "scoring", "options"),
    "validate": ("transcript", "variant", "scoring", "options"),
    "deal": ("seed", "players", "dealer", "variant", "scoring", "options", "id"),
    "new_hand": ("seed", "players", "dealer", "variant", "scoring", "options"),
    "play_match": ("bots", "games", "hands", "seed", "workers", "duplicate", "variant", "scoring", "options",
                   "sprt", "backend", "backend_options", "address", "names", "time_limit", "start_time_limit",
                   "max_hands", "bot_log", "bot_trace", "max_forfeits", "transcripts", "resume", "bots_file"),
    "play_tournament": ("bots", "games", "hands", "gauntlet", "seed", "anchor", "workers", "names", "sprt",
                        "options", "max_hands"),
}
BASE = {"score": {"records": [RECORD]}, "validate": {"transcript": {}}, "deal": {"seed": 1}, "new_hand": {},
        "play_match": {"bots": TWO, "hands": 1, "seed": 1, "workers": 1, "transcripts": False},
        "play_tournament": {"bots": THREE, "hands": 1, "seed": 1, "workers": 1, "transcripts": False}}
#: The counts whose junk, when it is a whole number, would play as many hands or games: kept small.
COUNTS = {"games", "hands", "max_hands"}


@pytest.mark.parametrize("function,name", [(f, a) for f, names in ARGUMENTS.items() for a in names])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(junk=_junk())
def test_junk_for_an_argument_is_a_result_or_a_usage_error(function, name, junk):
    if name in COUNTS and isinstance(junk, int) and not isinstance(junk, bool):
        assume(junk <= 4)
    kwargs = {**BASE[function], name: junk}
    if name == "games" and function.startswith("play"):
        kwargs["hands"] = None
    if name in ("transcripts", "bots_file") and isinstance(junk, str):
        assume(False)  # a file's path: written (or read) in the current folder; tested with real paths
    try:
        call(function, **kwargs)
    except gincli.UsageError as exc:
        assert exc.message and "\n" not in exc.message


@pytest.mark.parametrize("kwargs,parameters", [
    ({"hands": None}, ("hands", "games")),
    ({"hands": None, "games": 0}, ("games",)),
    ({"hands": 3, "duplicate": True}, ("duplicate",)),
    ({"resume": True}, ("resume", "transcripts")),
    ({"names": ["ann", "ann"]}, ("names",)),
    ({"address": "x"}, ("address", "backend")),
])
def test_a_usage_error_names_its_arguments_as_data(kwargs, parameters):
    """Errors carry data, faces word them: the arguments a sentence is about are
    ``parameters``, by the API's names, whatever the sentence calls them."""
    with pytest.raises(gincli.UsageError) as info:
        gincli.play_match(TWO, **{"hands": 2, "seed": 1, "workers": 1, "transcripts": False, **kwargs})
    assert info.value.parameters == parameters, info.value.message
