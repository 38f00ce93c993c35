"""``gin play`` through a pipe: every variant and scoring system played to the end
from typed commands, what a player may type, taking a move back, quitting, and
the transcript that ``gin validate`` accepts at every point."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT
from helpers import mask

from gincli.hand.engine import Hand, Move, shuffled_deck
from gincli.replay.validate import validate
from gincli.rulebook.cards import card_str
from gincli.rulebook.rng import SplitMix64

GIN = str(Path(sys.executable).with_name("gin"))


def play(*args: str, input: str, tmp_path: Path, name: str = "t.json") -> tuple[subprocess.CompletedProcess, Path]:
    path = tmp_path / name
    res = subprocess.run([GIN, "play", "--name", "ann", "--transcript", str(path), *args], input=input,
                         capture_output=True, text=True, cwd=ROOT, timeout=600,
                         env={"PATH": "/usr/bin:/bin", "GINCLI_CONFIG_DIR": str(tmp_path / "config"),
                              "GINCLI_DATA_DIR": str(tmp_path / "data"), "PYTHONIOENCODING": "utf-8"})
    return res, path


def command_for(move: Move) -> str:
    """What a player types for a move."""
    if move.action == "pass":
        return "p"
    if move.action == "draw":
        return "s" if move.source == "stock" else "d"
    if move.action == "discard":
        return card_str(move.card)
    if move.action == "knock":
        return "k" if move.card is None else f"k {card_str(move.card).lower()}"
    return move.action  # a move set's move: "accept"


def script(registry, seed: int, variant: str, scoring: str, bots: tuple[str, ...] = ("simple",), options=None):
    """The commands a player who plays like the ``simple`` bot types in a whole
    session of ``gin play --seed seed`` against ``bots`` (each named after its
    bot), and the hands that session must record: the same session played here
    through the engine, the player's moves by that bot."""
    from gincli.sessions.table import Table, take_turn
    from gincli_builtin.bots import SimpleBot

    v = registry.variant(variant)
    system = registry.scoring(scoring)
    rules = registry.rules(v, system, options or {})
    from gincli.cli.options import bot_names

    names = bot_names(list(bots), reserved=("ann",))
    players = ("ann", *names)
    table = Table(players, v, rules, system, seed)
    opponents = {n: registry.bot(b)(SplitMix64(seed).derive(2 + i), n)
                 for i, (n, b) in enumerate(zip(names, bots, strict=True))}
    me = SimpleBot(SplitMix64(7), "ann")
    lines = []
    while not table.finished:
        hand = table.deal()
        while hand.phase not in ("spread", "over"):
            player = hand.to_act
            if player == "ann":
                view = hand.view("ann")
                if view.must_draw_stock and view.phase == "draw" and len(view.legal()) == 1:
                    hand.apply(view.draw_stock())  # gin play makes the only move itself
                    continue
                move = me.choose(view)
                lines.append(command_for(move))
                hand.apply(move)
            else:
                take_turn(hand, lambda h, player=player: opponents[player].choose(h.view(player)))
        table.end_hand(hand)
    return lines, table


@pytest.mark.parametrize("variant,scoring,bots", [
    ("standard", "game", ("simple",)), ("standard", "hand", ("simple",)), ("oklahoma", "hollywood", ("simple",)),
    ("gin-only", "game", ("simple",)), ("standard", "match-500", ("simple",)), ("oklahoma", "game", ("expert",)),
    ("standard", "cutthroat", ("simple", "expert")), ("standard", "chouette", ("expert", "simple")),
    ("oklahoma", "chouette", ("simple", "random", "expert")),
    ("standard", "partnership", ("simple", "expert", "random")),
    ("doubling", "game", ("expert",)), ("doubling", "cutthroat", ("expert", "expert")),
])
def test_a_whole_session_typed_through_a_pipe_is_recorded_move_for_move(registry, tmp_path, variant, scoring, bots):
    seed = 11
    lines, table = script(registry, seed, variant, scoring, bots)
    res, path = play("--seed", str(seed), "--bot", ",".join(bots), "--variant", variant, "--scoring", scoring,
                     input="\n".join(lines) + "\n", tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    doc = json.loads(path.read_text())
    expected = table.transcript()
    assert doc["hands"] == expected["hands"] and doc["result"] == expected["result"]
    report = validate(doc, registry)
    assert report.valid and report.complete, report.errors
    out = res.stdout
    assert f"hand {len(table.results)} over" in out and f"The {scoring} is over" in out
    assert f"gin validate {path}" in out
    assert "\x1b[" not in out, "no colour codes through a pipe"
    assert all(line == line.rstrip() for line in out.splitlines()), "no trailing spaces through a pipe"


def first_hand(registry, seed: int) -> Hand:
    from gincli.sessions.table import Table

    v = registry.variant("standard")
    system = registry.scoring("game")
    return Table(("ann", "simple"), v, registry.rules(v, system, {}), system, seed).deal()


def seed_where(registry, test) -> int:
    return next(seed for seed in range(100) if test(first_hand(registry, seed)))


def test_input_that_is_not_a_move_gets_one_sentence_and_the_prompt_again(registry, tmp_path):
    seed = seed_where(registry, lambda h: h.to_act == "ann")  # ann is offered the upcard first
    res, path = play("--seed", str(seed), "--bot", "simple", input="hello\n9z\n42\nk\nq\n", tmp_path=tmp_path)
    assert res.returncode == 0 and res.stderr == ""
    out = res.stdout
    assert out.count("first, take the upcard") == 4  # four times the same sentence, the prompt again
    assert "Traceback" not in out and "You left after 0 hands" in out
    report = validate(json.loads(path.read_text()), registry)
    assert report.valid and not report.complete and json.loads(path.read_text())["hands"][0]["moves"] == []


def test_a_bad_card_and_a_card_not_held_are_named(registry, tmp_path):
    seed = seed_where(registry, lambda h: h.to_act == "ann")
    hand = first_hand(registry, seed)
    held = hand.hands["ann"]
    not_held = next(c for c in range(52) if not held >> c & 1 and c != hand.upcard)
    lines = ["d", "9z", card_str(not_held), "12", card_str(hand.upcard), "q"]
    res, _ = play("--seed", str(seed), "--bot", "simple", input="\n".join(lines) + "\n", tmp_path=tmp_path)
    out = res.stdout
    assert "\"9z\" is not a card" in out
    assert f"you do not hold {card_str(not_held)}" in out
    assert "there is no card at position 12" in out
    assert f"you just took {card_str(hand.upcard)} from the discard pile" in out


def test_undo_takes_back_a_card_taken_from_the_pile_but_never_a_stock_draw(registry, tmp_path):
    seed = seed_where(registry, lambda h: h.to_act == "ann")
    res, path = play("--seed", str(seed), "--bot", "simple", input="d\nu\nq\n", tmp_path=tmp_path)
    assert "taken back: you take" in res.stdout
    doc = json.loads(path.read_text())
    assert doc["hands"][0]["moves"] == [] and validate(doc, registry).valid
    # Both pass the upcard: ann draws from the stock (made for her, the only move); that shows her a card.
    res, path = play("--seed", str(seed), "--bot", "simple", input="p\nu\nq\n", tmp_path=tmp_path, name="u2.json")
    moves = json.loads(path.read_text())["hands"][0]["moves"]
    if moves[1]["action"] == "pass":  # simple refused it too
        assert "cannot be taken back: you have seen a new card since" in res.stdout
        assert moves[2] == {"player": "ann", "action": "draw", "from": "stock", "card": moves[2]["card"]}
    else:  # simple took the upcard and discarded: a card ann had not seen
        assert "cannot be taken back" in res.stdout


def test_undo_is_refused_once_a_hidden_card_was_seen(registry):
    v = registry.variant("standard")
    rules = registry.rules(v, registry.scoring("game"), {})
    h = Hand(("ann", "bob"), "bob", v, rules, deck=shuffled_deck(SplitMix64(3)))
    h.apply(Move("ann", "pass"))
    h.apply(Move("bob", "pass"))
    before = h.known("ann")
    assert h.rewound(1).known("ann") == before  # bob's pass showed ann nothing
    h.apply(Move("ann", "draw", "stock"))
    assert h.known("ann") != before  # the stock card is new to ann
    assert h.rewound(3).known("ann") == h.known("ann")


def test_a_move_taken_back_replays_the_same_hand(registry):
    v = registry.variant("standard")
    rules = registry.rules(v, registry.scoring("game"), {})
    h = Hand(("ann", "bob"), "bob", v, rules, deck=shuffled_deck(SplitMix64(3)))
    h.apply(Move("ann", "draw", "discard"))
    back = h.rewound(0)
    assert back.phase == "offer" and back.to_act == "ann" and back.hands == h.initial_hands
    assert back.pile == [h.upcard]


def test_quit_and_end_of_input_leave_a_valid_transcript(registry, tmp_path):
    for input_, name in (("q\n", "q.json"), ("", "eof.json")):
        res, path = play("--seed", "8", "--bot", "simple", input=input_, tmp_path=tmp_path, name=name)
        assert res.returncode == 0, res.stderr
        report = validate(json.loads(path.read_text()), registry)
        assert report.valid and not report.complete


def test_hint_and_help_answer_without_moving(registry, tmp_path):
    res, path = play("--seed", "8", "--bot", "simple", input="h\n?\nq\n", tmp_path=tmp_path)
    out = res.stdout
    assert "hint: the master bot would" in out
    assert "You may " in out and "k 7h: knock discarding 7h" in out
    moves = json.loads(path.read_text())["hands"][0]["moves"]
    assert not [m for m in moves if m["player"] == "ann"]


def test_format_json_writes_only_the_summary_on_stdout(registry, tmp_path):
    res, path = play("--seed", "8", "--bot", "simple", "--format", "json", input="q\n", tmp_path=tmp_path)
    summary = json.loads(res.stdout)
    assert summary["transcript"] == str(path) and summary["complete"] is False and summary["hands"] == 0
    assert summary["players"] == ["ann", "simple"] and summary["seed"] == 8
    assert "Your turn" in res.stderr


def test_an_existing_transcript_is_never_overwritten(tmp_path):
    (tmp_path / "t.json").write_text("my notes\n")
    res, path = play("--seed", "8", "--bot", "simple", input="q\n", tmp_path=tmp_path)
    assert res.returncode == 2 and "already exists" in res.stderr
    assert path.read_text() == "my notes\n"


def test_without_transcript_a_new_file_is_written_in_the_data_folder(registry, tmp_path):
    res = subprocess.run([GIN, "play", "--seed", "8", "--bot", "simple", "--name", "ann"], input="q\n",
                         capture_output=True, text=True, cwd=ROOT, timeout=300,
                         env={"PATH": "/usr/bin:/bin", "GINCLI_DATA_DIR": str(tmp_path / "data"),
                              "GINCLI_CONFIG_DIR": str(tmp_path / "config")})
    assert res.returncode == 0, res.stderr
    files = list((tmp_path / "data" / "games").glob("*-8.json"))
    assert len(files) == 1 and str(files[0]) in res.stdout.replace("\n", "")
    assert validate(json.loads(files[0].read_text()), registry).valid


def test_usage_errors_are_one_sentence(tmp_path):
    for args, words in ((["--bot", "nobody"], "unknown bot"), (["--variant", "nope"], "unknown variant"),
                        (["--dealer", "zed"], "is not one of the players"),
                        (["--option", "knock_limit=x"], "knock_limit must be"),
                        (["--scoring", "cutthroat"], "cutthroat takes 3 players, so --bot needs 2 bots, not 1"),
                        (["--scoring", "partnership", "--bot", "simple,simple,simple", "--dealer", "ann"],
                         "--dealer is for two players")):
        res, _ = play(*args, input="q\n", tmp_path=tmp_path)
        assert res.returncode == 2 and words in res.stderr and "Traceback" not in res.stderr


# -- reading what people type ---------------------------------------------------------------------

def view_of(registry, hand_text: str, phase: str = "discard", taken: str | None = None, limit: int = 10):
    from gincli.hand.view import PlayerView

    rules = registry.rules(registry.variant("standard"), registry.scoring("game"), {})
    return PlayerView("ann", "bob", "bob", phase, mask(hand_text), 0, (1,), 20, (), (), (), (), (),
                      mask(taken).bit_length() - 1 if taken else -1, False, limit, False, rules, {}, 0)


def test_cards_are_read_as_people_type_them(registry):
    from gincli.cli.play import read_card

    for text in ("7h", "7H", "7♥", " 7h "):
        assert card_str(read_card(text)) == "7h"
    for text in ("10h", "th", "T♥", "10♥", "TH"):
        assert card_str(read_card(text)) == "Th"


def test_a_knock_names_its_discard_and_may_name_the_melds(registry):
    from gincli.cli.play import Reject, parse_command

    view = view_of(registry, "7s 7h 7d 4c 5c 6c 2d 3d Ah Kd 2s")
    order: list[int] = []  # knocks name their card
    cmd = parse_command("k kd", view, order)
    assert cmd.move.action == "knock" and card_str(cmd.move.card) == "Kd" and cmd.move.melds is None
    cmd = parse_command("k kd 7s7h7d 4c-5c-6c", view, order)
    assert sorted(cmd.move.melds) == sorted([mask("7s 7h 7d"), mask("4c 5c 6c")])
    best = parse_command("k", view, order).move
    assert card_str(best.card) == "Kd"  # it leaves 2d 3d Ah 2s: 8, the least
    with pytest.raises(Reject, match="over the knock limit of 10"):
        parse_command("k 2d", view, order)
    with pytest.raises(Reject, match="is not a meld"):
        parse_command("k kd 7s7h8d", view, order)


def test_a_knock_may_name_its_discard_by_position(registry):
    from gincli.cli.play import Reject, parse_command
    from gincli.rulebook.cards import cards_of

    view = view_of(registry, "7s 7h 7d 4c 5c 6c 2d 3d Ah Kd 2s")
    order = list(cards_of(view.hand))  # as the screen numbers them
    at = order.index(mask("Kd").bit_length() - 1) + 1
    cmd = parse_command(f"k {at}", view, order)
    assert cmd.move.action == "knock" and card_str(cmd.move.card) == "Kd"
    with pytest.raises(Reject, match="positions go from 1 to 11"):
        parse_command("k 12", view, order)


def test_a_card_just_taken_cannot_be_discarded_and_positions_count_from_one(registry):
    from gincli.cli.play import Reject, parse_command

    view = view_of(registry, "7s 7h 7d 4c 5c 6c 2d 3d Ah Kd 9s", taken="9s")
    order = [mask(c).bit_length() - 1 for c in "7s 7h 7d 4c 5c 6c 2d 3d Ah Kd 9s".split()]
    assert card_str(parse_command("1", view, order).move.card) == "7s"
    with pytest.raises(Reject, match="you just took 9s"):
        parse_command("11", view, order)
    with pytest.raises(Reject, match="you do not hold Qc"):
        parse_command("qc", view, order)
    with pytest.raises(Reject, match="you have drawn"):
        parse_command("s", view, order)


def doubling_view(registry, offer=None, holder=None, multiplier=1, phase="draw"):
    from gincli.hand.view import PlayerView

    rules = registry.rules(registry.variant("doubling"), registry.scoring("game"), {})
    state = {"multiplier": multiplier, "offer": offer, "holder": holder, "max_multiplier": None}
    return PlayerView("ann", "bob", "bob", phase, mask("7s 7h 7d 4c 5c 6c 2d 3d Ah Kd"), 0, (1,), 20, (), (), (),
                      (), (), -1, False, 10, False, rules, {}, 0, {"doubling": state})


def test_under_doubling_x_offers_and_an_offer_must_be_answered_y_or_n(registry):
    from gincli.cli.play import Reject, legal_text, parse_command

    view = doubling_view(registry)
    assert "double (x)" in legal_text(view)
    assert parse_command("x", view, []).move.action == "double"
    assert parse_command("double", view, []).move.action == "double"
    offered = doubling_view(registry, offer="bob")
    assert legal_text(offered) == "accept (y), or decline (n)"
    assert parse_command("y", offered, []).move.action == "accept"
    assert parse_command("n", offered, []).move.action == "decline"
    with pytest.raises(Reject, match="answer first: accept"):
        parse_command("s", offered, [])
    held = doubling_view(registry, holder="bob", multiplier=2)
    assert "double" not in legal_text(held)
    with pytest.raises(Reject):
        parse_command("x", held, [])


def test_an_external_bot_is_an_opponent_too(registry, tmp_path):
    res, path = play("--seed", "5", "--bot", "exec:python3 examples/bot.py", "--scoring", "hand",
                     input="s\n11\n" * 150, tmp_path=tmp_path)
    assert res.returncode == 0, res.stderr
    assert "The hand is over (ann " in res.stdout
    report = validate(json.loads(path.read_text()), registry)
    assert report.valid and report.complete


def test_the_transcript_is_saved_as_indented_json_byte_for_byte(registry, tmp_path):
    """gin play saves the session after every move: each hand is indented once
    (then found again), yet the file is exactly ``dumps(doc, indent=1)`` at
    every length of the session, odd names included."""
    from gincli.base.jsonio import dumps
    from gincli.formats.store import SavedTranscript

    _, table = script(registry, 11, "oklahoma", "hollywood", ("simple",))
    doc = table.transcript()
    file = SavedTranscript(tmp_path / "t.json")
    try:
        for n in range(len(doc["hands"]) + 1):
            d = dict(doc, hands=doc["hands"][:n])
            assert file.text(d) == dumps(d, indent=1) + "\n", n
        for odd in (dict(doc, players=["\ud800", "bob"]), dict(doc, id="\0hands\0"), dict(doc, id="é\u2028")):
            assert file.text(odd) == dumps(odd, indent=1) + "\n"
    finally:
        file.close()
