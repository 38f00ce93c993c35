"""The Python API (docs/api.md) and the command line agree: on the same
inputs, gincli.score, validate, deal and play_match return exactly what gin
score, validate, deal and match write with --format json; bots may be Python
objects holding state, on one worker or on forked ones; a GameHand steps
through the engine's hand."""

from __future__ import annotations

import json
import sys

import pytest
from conftest import ROOT

import gincli
from gincli.base.errors import GinError, UsageError


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def read_jsonl(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def parsable(path, tmp_path):
    """The records of a JSON Lines file that are JSON (a record cut short is the reader's, not the API's)."""
    records = []
    for line in path.read_text().splitlines():
        try:
            records.append(json.loads(line))
        except ValueError:
            pass
    out = tmp_path / path.name
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    return out, records


# -- score ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["hands.jsonl", "bad-hands.jsonl"])
def test_score_returns_what_gin_score_writes(run, name, tmp_path):
    path, records = parsable(ROOT / "examples" / name, tmp_path)
    res = run("score", str(path), "--format", "json", "--quiet")
    assert res.exit_code in (0, 1), res.stderr
    got = list(gincli.score(records))
    assert got == json_lines(res.stdout)
    if name.startswith("bad"):
        assert any("error" in r and set(r) == {"id", "error"} for r in got)


def test_score_takes_variant_and_options_as_the_command_does(run, tmp_path):
    path = ROOT / "examples" / "hands.jsonl"
    res = run("score", str(path), "--format", "json", "--quiet", "--variant", "oklahoma", "--option",
              "big_gin_bonus=50")
    got = list(gincli.score(read_jsonl(path), variant="oklahoma", options={"big_gin_bonus": 50}))
    assert got == json_lines(res.stdout)
    assert list(gincli.score(read_jsonl(path), options=["big_gin_bonus=50"])) == json_lines(
        run("score", str(path), "--format", "json", "--quiet", "--option", "big_gin_bonus=50").stdout)


def test_score_is_lazy_and_a_record_that_is_not_a_dict_is_its_own_error():
    read = []

    def records():
        read.append(1)
        yield {"id": "x", "hands": 3}
        read.append(2)
        yield [1, 2]
        raise AssertionError("read past what was asked for")

    it = gincli.score(records())
    first = next(it)
    assert first["id"] == "x" and "error" in first and read == [1]  # the second not read yet
    assert next(it) == {"id": None, "error": "record 2 is not a dict (a JSON object)"}
    with pytest.raises(AssertionError):
        next(it)


def test_scores_read_in_turn_each_keep_their_own_arguments():
    records = read_jsonl(ROOT / "examples" / "hands.jsonl")
    plain, bonus = gincli.score(records), gincli.score(records, options={"gin_bonus": 50})
    together = []
    for pair in zip(plain, bonus, strict=True):
        assert gincli.validate(gincli.deal(seed=1))["valid"]  # another call's work in between
        together.append(pair)
    alone = list(gincli.score(records)), list(gincli.score(records, options={"gin_bonus": 50}))
    assert together == list(zip(*alone, strict=True))
    assert [p["points"] for p, _ in together] != [b["points"] for _, b in together]


def test_score_of_one_dict_and_a_bad_variant_are_usage_errors():
    with pytest.raises(UsageError, match="put it in a list"):
        list(gincli.score({"id": "x"}))
    with pytest.raises(UsageError, match="unknown variant"):
        list(gincli.score([{"id": "x"}], variant="no-such-variant"))


# -- validate and deal -------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["game.json", "faulty.json", "doubling.json", "cutthroat.json"])
def test_validate_returns_what_gin_validate_writes(run, name):
    path = ROOT / "examples" / name
    res = run("validate", str(path), "--format", "json", "--quiet")
    expected = json_lines(res.stdout)
    doc = json.loads(path.read_text())
    docs = doc if isinstance(doc, list) else [doc]
    assert [gincli.validate(d) for d in docs] == expected


def test_validate_fills_in_as_the_command_does_and_says_what_is_not_a_transcript(run, tmp_path):
    doc = gincli.deal(seed=4)
    del doc["variant"]
    path = tmp_path / "t.json"
    path.write_text(json.dumps(doc))
    res = run("validate", str(path), "--format", "json", "--quiet", "--variant", "oklahoma")
    assert gincli.validate(doc, variant="oklahoma") == json_lines(res.stdout)[0]
    report = gincli.validate([1, 2])  # type: ignore[arg-type]
    assert report["valid"] is False and report["errors"][0]["rule"] == "transcript-format"


@pytest.mark.parametrize("args,kwargs", [
    (("--seed", "5"), {"seed": 5}),
    (("--seed", "9", "--players", "x,y", "--dealer", "y", "--variant", "oklahoma", "--id", "t1"),
     {"seed": 9, "players": ["x", "y"], "dealer": "y", "variant": "oklahoma", "id": "t1"}),
    (("--seed", "2", "--players", "a,b,c", "--scoring", "cutthroat"),
     {"seed": 2, "players": ("a", "b", "c"), "scoring": "cutthroat"}),
])
def test_deal_returns_what_gin_deal_writes(run, args, kwargs):
    res = run("deal", *args, "--format", "json")
    assert res.exit_code == 0, res.stderr
    assert gincli.deal(**kwargs) == json.loads(res.stdout)


def test_deal_says_what_is_wrong_as_the_command_does(run):
    res = run("deal", "--seed", "1", "--dealer", "zed")
    with pytest.raises(UsageError) as info:
        gincli.deal(seed=1, dealer="zed")
    assert info.value.message in res.stderr


# -- play_match --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("args,kwargs", [
    (("--bots", "simple,random", "--games", "3", "--seed", "11"), {"bots": ["simple", "random"], "games": 3,
                                                                   "seed": 11}),
    (("--bots", "expert,simple", "--hands", "6", "--seed", "3", "--duplicate", "--workers", "2"),
     {"bots": ["expert", "simple"], "hands": 6, "seed": 3, "duplicate": True, "workers": 2}),
    (("--bots", "simple,simple,random", "--games", "2", "--seed", "5", "--scoring", "cutthroat", "--option",
      "target=50"),
     {"bots": ["simple", "simple", "random"], "games": 2, "seed": 5, "scoring": "cutthroat",
      "options": {"target": 50}}),
])
def test_play_match_returns_the_summary_and_transcripts_gin_match_writes(run, tmp_path, args, kwargs):
    path = tmp_path / "t.jsonl"
    res = run("match", *args, "--format", "json", "--quiet", "--transcripts", str(path))
    assert res.exit_code == 0, res.stderr
    result = gincli.play_match(**kwargs)
    assert result.summary == json.loads(res.stdout)
    assert list(result.transcripts) == read_jsonl(path)
    assert len(result.transcripts) == result.summary["sessions"]
    assert all(gincli.validate(t)["valid"] for t in result.transcripts)


def test_play_match_writes_a_transcripts_file_and_resumes_it_as_gin_match_does(run, tmp_path):
    """One match run for both faces: transcripts=PATH is --transcripts FILE, resume=True is --resume."""
    whole = tmp_path / "whole.jsonl"
    res = run("match", "--bots", "expert,random", "--games", "5", "--seed", "21", "--transcripts", str(whole),
              "--format", "json", "--quiet")
    assert res.exit_code == 0, res.stderr
    path = tmp_path / "m.jsonl"
    first = gincli.play_match(["expert", "random"], games=2, seed=21, transcripts=path)
    assert len(first.transcripts) == 0 and path.read_text() == "".join(whole.read_text().splitlines(True)[:2])
    with path.open("a") as fh:  # a session's line cut short by an interruption
        fh.write(whole.read_text().splitlines(True)[2][:40])
    done = gincli.play_match(["expert", "random"], games=5, transcripts=str(path), resume=True)  # the file's seed
    assert path.read_text() == whole.read_text()
    assert done.summary == json.loads(res.stdout)


def test_play_match_refuses_a_file_that_holds_another_match_in_the_commands_sentence(tmp_path):
    path = tmp_path / "m.jsonl"
    gincli.play_match(["expert", "random"], games=2, seed=21, transcripts=path)
    before = path.read_bytes()
    with pytest.raises(UsageError) as info:
        gincli.play_match(["expert", "simple"], games=3, seed=21, transcripts=path, resume=True)
    assert info.value.message.startswith(f"{path} line 1 is from another match: its bots differ")
    assert info.value.message.endswith("(resume=True needs the same bots, names, seed, duplicate, hands or games, "
                                       "variant, scoring and options)")
    with pytest.raises(UsageError, match="already holds something; resume=True finishes the match"):
        gincli.play_match(["expert", "random"], games=3, seed=21, transcripts=path)
    assert path.read_bytes() == before


def test_play_tournament_resumes_a_file_as_gin_tournament_does(run, tmp_path):
    whole = tmp_path / "whole.jsonl"
    args = ("--bots", "simple,random,expert", "--hands", "4", "--seed", "4")
    res = run("tournament", *args, "--transcripts", str(whole), "--format", "json", "--quiet")
    assert res.exit_code == 0, res.stderr
    path = tmp_path / "t.jsonl"
    path.write_text("".join(whole.read_text().splitlines(True)[:6]))  # pairing 0 and half of pairing 1
    result = gincli.play_tournament(["simple", "random", "expert"], hands=4, seed=4, transcripts=path, resume=True)
    assert path.read_text() == whole.read_text()
    assert result.summary == json.loads(res.stdout)


def test_play_match_takes_the_named_bots_of_a_bots_file(run, tmp_path):
    bots = tmp_path / "bots.toml"
    bots.write_text(f'[bots.mine]\ncommand = ["{sys.executable}", "{ROOT / "examples" / "bot.py"}"]\n')
    res = run("match", "--bots-file", str(bots), "--bots", "mine,simple", "--hands", "4", "--seed", "2",
              "--workers", "1", "--format", "json", "--quiet")
    assert res.exit_code == 0, res.stderr
    result = gincli.play_match(["mine", "simple"], hands=4, seed=2, workers=1, bots_file=bots)
    assert result.summary == json.loads(res.stdout)
    with pytest.raises(UsageError, match='unknown bot "mine"'):  # for that call only
        gincli.play_match(["mine", "simple"], hands=2, seed=2, workers=1)


def test_play_match_without_transcripts_has_the_same_summary(run):
    res = run("match", "--bots", "simple,random", "--hands", "4", "--seed", "8", "--format", "json", "--quiet")
    result = gincli.play_match(["simple", "random"], hands=4, seed=8, transcripts=False)
    assert result.summary == json.loads(res.stdout) and len(result.transcripts) == 0


@pytest.mark.parametrize("args,kwargs,flags,keywords", [
    (("--bots", "simple", "--games", "1"), {"bots": ["simple"], "games": 1},
     '--bots takes bots separated by commas, at least two, not "simple"',
     'bots takes at least two bots, not ["simple"]'),
    (("--bots", "simple,random"), {"bots": ["simple", "random"]},
     "give either --hands N or --games N", "give either hands=N or games=N"),
    (("--bots", "simple,random", "--hands", "3", "--duplicate"), {"bots": ["simple", "random"], "hands": 3,
                                                                  "duplicate": True},
     "--duplicate plays deals in pairs", "duplicate plays deals in pairs"),
    (("--bots", "simple,nobody", "--hands", "1"), {"bots": ["simple", "nobody"], "hands": 1},
     'unknown bot "nobody"', 'unknown bot "nobody"'),
    (("--bots", "simple,random", "--hands", "1", "--option", "no_such=1"),
     {"bots": ["simple", "random"], "hands": 1, "options": {"no_such": 1}},
     '--option: unknown option "no_such"', 'options: unknown option "no_such"'),
])
def test_play_match_says_what_is_wrong_as_the_command_does(run, args, kwargs, flags, keywords):
    """The same sentence, naming the flag on the command line and the argument in Python."""
    res = run("match", *args, "--quiet")
    assert res.exit_code == 2
    with pytest.raises(UsageError) as info:
        gincli.play_match(**kwargs)
    assert info.value.message.startswith(keywords)
    assert res.stderr.replace("\n", " ").startswith(f"gin: error: {flags}")
    assert info.value.message.replace(keywords, flags, 1) in res.stderr.replace("\n", " ")


# -- bots as Python objects --------------------------------------------------------------------------------


class Model:
    """Stands for a model loaded once: it counts what it was asked."""

    loads = 0

    def __init__(self) -> None:
        Model.loads += 1
        self.asked = 0

    def predict(self, legal: list[dict]) -> int:
        self.asked += 1
        knocks = [i for i, m in enumerate(legal) if m["action"] == "knock"]
        return knocks[0] if knocks else len(legal) - 1


class ModelBot(gincli.Bot):
    """A gincli.Bot holding a model; it remembers every session it sat in."""

    name = "modelbot"

    def __init__(self, model: Model):
        self.model = model
        self.seats: list[str] = []

    def choose(self, view):
        from gincli.matches.external.protocol import legal_json

        legal = view.legal()
        if not self.seats or self.seats[-1] != self.seat:
            self.seats.append(self.seat)
        return legal[self.model.predict(legal_json(legal))]


class Policy:
    """A callable bot with state: its calls, and the hands it saw."""

    def __init__(self) -> None:
        self.model = Model()
        self.hands: set[tuple[int, str]] = set()

    def __call__(self, view: dict, legal: list[dict]) -> dict:
        self.hands.add((view["hand_number"], view["me"]))
        return legal[self.model.predict(legal)]


@pytest.mark.parametrize("workers", [1, 2])
def test_python_bots_with_state_play_whole_matches_without_forfeits(workers):
    policy, bot = Policy(), ModelBot(Model())
    result = gincli.play_match([policy, bot], games=4, seed=21, workers=workers)
    s = result.summary
    assert s["sessions"] == 4 and s["hands"] >= 4
    assert [p["forfeits"] for p in s["players"]] == [0, 0] and s["forfeit_reasons"] == []
    assert [p["name"] for p in s["players"]] == ["Policy", "modelbot"] == s["bots"]
    assert all(gincli.validate(t)["valid"] for t in result.transcripts)
    if workers == 1:  # played here: the objects' own state grew, across decisions and sessions
        assert policy.model.asked > s["hands"] and bot.model.asked > s["hands"] and bot.seats == ["modelbot"]
    again = gincli.play_match([Policy(), ModelBot(Model())], games=4, seed=21, workers=3 - workers)
    assert again.summary == s  # reproducible by seed whatever the workers


def test_a_bot_object_plays_the_same_as_the_same_bot_by_name():
    from gincli.plugin.registry import load_registry

    simple = load_registry().bot("simple")
    by_name = gincli.play_match(["simple", "random"], hands=6, seed=2)
    as_object = gincli.play_match([simple(None, ""), "random"], hands=6, seed=2, names=["simple", "random"])
    strip = [{k: v for k, v in p.items() if k != "bot"} for p in as_object.summary["players"]]
    assert strip == [{k: v for k, v in p.items() if k != "bot"} for p in by_name.summary["players"]]


def test_a_callable_that_answers_wrong_or_raises_forfeits_with_the_reason():
    def illegal(view, legal):
        return {"action": "knock", "card": "Xx"}

    def broken(view, legal):
        raise RuntimeError("the model is not loaded")

    result = gincli.play_match([illegal, broken], hands=2, seed=1, workers=1)
    reasons = {g["player"]: g["reason"] for g in result.summary["forfeit_reasons"]}
    assert reasons["illegal"].startswith("the bot illegal returned") and "not one of the legal moves" in \
        reasons["illegal"]
    assert reasons.get("broken", "the bot broken raised RuntimeError: the model is not loaded") == \
        "the bot broken raised RuntimeError: the model is not loaded"
    versus = gincli.play_match(["simple", broken], hands=2, seed=1, workers=1)
    assert {g["reason"] for g in versus.summary["forfeit_reasons"]} == {
        "the bot broken raised RuntimeError: the model is not loaded"}
    assert versus.summary["players"][1]["forfeits"] == 2


def test_a_move_with_its_own_player_or_as_an_engine_move_is_accepted():
    def with_player(view, legal):
        return {**legal[-1], "player": view["me"]}

    result = gincli.play_match([with_player, "random"], hands=2, seed=4, workers=1)
    assert result.summary["forfeit_reasons"] == []


def test_python_bots_say_what_they_need(monkeypatch):
    bot = ModelBot(Model())
    with pytest.raises(UsageError, match="same gincli.Bot object"):
        gincli.play_match([bot, bot], hands=1, seed=1)
    with pytest.raises(UsageError, match="neither|give a bot's name"):
        gincli.play_match([42, "random"], hands=1, seed=1)
    from gincli.base import pool

    monkeypatch.setattr(pool, "START_METHOD", "spawn")
    with pytest.raises(UsageError, match="workers=1"):
        gincli.play_match([Policy(), "random"], hands=2, seed=1, workers=2)
    assert gincli.play_match([Policy(), "random"], hands=2, seed=1).summary["sessions"] == 2  # one worker, then


def test_a_python_bot_is_forgotten_after_its_match():
    def random(view, legal):  # the name of a built-in bot: it gets one of its own
        return legal[0]

    result = gincli.play_match([random, "random"], hands=2, seed=1, workers=1)
    assert result.summary["bots"] == ["random-2", "random"]
    from gincli.api.calls import registry

    assert registry().bot("random") is not None and "random-2" not in registry()._bot_cache


# -- a hand to step through --------------------------------------------------------------------------------


def test_a_hand_steps_through_the_engine_and_its_transcript_validates():
    hand = gincli.new_hand(6)
    doc = gincli.deal(seed=6)
    assert hand.engine.to_dict(result=False)["deck"] == doc["hands"][0]["deck"]
    assert hand.dealer == doc["hands"][0]["dealer"] and hand.phase == "offer"
    first = hand.to_act
    view = hand.view()
    assert view["me"] == first and len(view["hand"]) == 10 and hand.legal()
    seen = []
    while not hand.over:
        legal = hand.legal()
        knocks = [m for m in legal if m["action"] == "knock"]
        seen.append(hand.phase)
        hand.apply(knocks[0] if knocks else legal[-1])
    assert hand.to_act is None and hand.legal() == [] and hand.result is not None
    doc["hands"][0]["moves"] = hand.moves
    report = gincli.validate(doc)
    assert report["valid"], report["errors"]
    assert {k: report["hands"][0][k] for k in ("outcome", "winner", "points")} == \
        {k: hand.result[k] for k in ("outcome", "winner", "points")}


def test_a_copy_is_independent_and_an_illegal_move_changes_nothing():
    hand = gincli.new_hand(3)
    copy = hand.copy()
    copy.apply(copy.legal()[0])
    assert len(copy.moves) == 1 and hand.moves == [] and hand.phase == "offer"
    with pytest.raises(gincli.IllegalMove) as info:
        hand.apply({"action": "discard", "card": "7h"})
    assert info.value.rule and hand.moves == [] and isinstance(info.value, GinError)
    with pytest.raises(UsageError, match="not a player"):
        hand.view("nobody")
    with pytest.raises(UsageError, match="two players"):
        gincli.new_hand(1, players=["a", "b", "c"])


def test_the_api_names_are_documented_and_the_old_module_path_keeps_the_function():
    import importlib

    for name in ("score", "validate", "deal", "play_match", "play_tournament", "new_hand", "GameHand",
                 "MatchResult", "TournamentResult", "Transcripts"):
        obj = getattr(gincli, name)
        assert name in gincli.__all__ and (obj.__doc__ or "").strip(), name
        if isinstance(obj, type):  # and each public member of a class
            for member, value in vars(obj).items():
                if not member.startswith("_"):
                    doc = (value.fget if isinstance(value, property) else value).__doc__
                    assert (doc or "").strip(), f"{name}.{member}"
    old = importlib.import_module("gincli.validate")  # the module path of an earlier release
    assert old is importlib.import_module("gincli.replay.validate")
    from gincli.validate import Report  # noqa: F401

    assert callable(gincli.validate) and gincli.validate.__module__ == "gincli.api.calls"


def test_the_public_names_are_listed_once_and_type_checkers_see_the_same():
    """gincli's public names are one table (``_PUBLIC``), which ``__all__`` and the
    lazy imports come from; the imports under ``TYPE_CHECKING``, which type
    checkers read instead, name exactly those, from the same modules, each
    re-exported (``Name as Name``)."""
    import ast
    import importlib

    tree = ast.parse((ROOT / "gincli" / "__init__.py").read_text(encoding="utf-8"))
    checked = [node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING"]
    static = {alias.name: (node.module, alias.asname) for block in checked for node in block.body
              if isinstance(node, ast.ImportFrom) and node.level == 1 for alias in node.names}
    assert static == {name: (module, name) for name, module in gincli._LAZY.items()}
    assert sorted(gincli.__all__) == sorted([*gincli._LAZY, "__version__"])
    assert len(gincli.__all__) == len(set(gincli.__all__))
    for name, module in gincli._LAZY.items():
        assert getattr(gincli, name) is getattr(importlib.import_module(f"gincli.{module}"), name), name


def test_py_typed_is_shipped():
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert "py.typed" in data["package-data"]["gincli"] and (ROOT / "gincli" / "py.typed").exists()


# -- play_tournament ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("args,kwargs", [
    (("--bots", "simple,random,expert", "--hands", "4", "--seed", "7"),
     {"bots": ["simple", "random", "expert"], "hands": 4, "seed": 7}),
    (("--bots", "expert,simple,random", "--games", "2", "--seed", "2", "--gauntlet", "1", "--anchor", "simple=1000",
      "--workers", "2"),
     {"bots": ["expert", "simple", "random"], "games": 2, "seed": 2, "gauntlet": 1, "anchor": "simple=1000",
      "workers": 2}),
])
def test_play_tournament_returns_what_gin_tournament_writes(run, tmp_path, args, kwargs):
    path = tmp_path / "t.jsonl"
    res = run("tournament", *args, "--format", "json", "--quiet", "--transcripts", str(path))
    assert res.exit_code == 0, res.stderr
    result = gincli.play_tournament(**kwargs)
    assert result.summary == json.loads(res.stdout)
    assert list(result.transcripts) == read_jsonl(path)


def test_a_python_bot_plays_a_tournament_and_mistakes_are_the_commands():
    policy = Policy()
    result = gincli.play_tournament([policy, "simple", "random"], hands=2, seed=1, workers=1)
    assert [p["name"] for p in result.summary["players"]].count("Policy") == 1
    assert policy.model.asked > 0 and len(result.transcripts) == 6
    with pytest.raises(UsageError, match="two bots play a match"):
        gincli.play_tournament(["simple", "random"], hands=2)
    with pytest.raises(UsageError, match="^anchor \"nobody\" is not one of the players"):
        gincli.play_tournament(["simple", "random", "expert"], hands=2, anchor="nobody")


def test_a_python_bot_that_forfeits_every_hand_stops_the_match_as_on_the_command_line():
    import gincli
    from gincli.base.errors import UsageError

    def hopeless(view, legal):
        return {"action": "resign"}  # never one of legal

    with pytest.raises(UsageError, match="forfeited 3 hands in a row"):
        gincli.play_match([hopeless, "simple"], hands=20, seed=1, workers=1, max_forfeits=3)
    result = gincli.play_match([hopeless, "simple"], hands=4, seed=1, workers=1, max_forfeits=0)
    assert result.summary["hands"] == 4


def test_a_bot_whose_every_reason_differs_gives_a_summary_of_a_bounded_size():
    """forfeit_reasons groups a player's first REASONS_KEPT reasons one by one, and its
    forfeits for any other reason after them in one group more (``others``): counted,
    not listed; the summary for people gives three reasons and one line for the rest."""
    from gincli.cli.summary import forfeit_lines
    from gincli.matches.runner import OTHER_REASONS, REASONS_KEPT

    calls = []

    def glitchy(view, legal):
        calls.append(1)
        if len(calls) % 3 == 0:
            raise RuntimeError(f"glitch number {len(calls)}")
        return legal[0]

    result = gincli.play_match([glitchy, "simple"], hands=120, seed=2, workers=1, max_forfeits=0)
    s = result.summary
    forfeits = s["players"][0]["forfeits"]
    groups = s["forfeit_reasons"]
    assert forfeits > REASONS_KEPT + 5
    assert len(groups) == REASONS_KEPT + 1 and sum(g["count"] for g in groups) == forfeits
    kept, others = groups[:-1], groups[-1]
    assert all(g["count"] == 1 and "others" not in g and g["reason"].startswith("the bot glitchy raised RuntimeError: "
                                                                                "glitch number ") for g in kept)
    assert others["others"] is True and others["reason"] == OTHER_REASONS
    assert others["count"] == forfeits - REASONS_KEPT
    assert (others["first_session_index"], others["first_hand_index"]) > (kept[-1]["first_session_index"],
                                                                          kept[-1]["first_hand_index"])
    lines = forfeit_lines(groups)
    assert len(lines) == 4 and lines[0].startswith("forfeit: glitchy, 1 time (first in session ")
    assert lines[3] == (f"forfeit: glitchy, {forfeits - 3:,} more times, for other reasons (--format json lists "
                        f"{REASONS_KEPT - 3} more of them, and counts the rest)")
    assert forfeit_lines(groups[:5])[3:] == ["forfeit: glitchy, 2 more times, for 2 other reasons (--format json "
                                              "lists them)"]


def test_time_outs_are_counted_whatever_group_their_forfeits_fall_in():
    from gincli.hand.bots import TIME_OUT
    from gincli.matches.runner import REASONS_KEPT, MatchSpec, SessionOutcome, Tally

    tally = Tally(MatchSpec(("a", "b"), ("a", "b"), "hands", 40, 1, "standard", "standard"))
    for i in range(40):
        reason = f"{TIME_OUT} {i}.5 s" if i % 2 else f"said {i}"
        tally.add(SessionOutcome(i, [("knock", "b", 10, "a", ("a", "b"))], "b", forfeits=[("a", reason, 0)]),
                  check=False)
    assert len(tally.forfeit_groups()) == REASONS_KEPT + 1
    assert tally.time_outs("a") == 20 and tally.time_outs("b") == 0
