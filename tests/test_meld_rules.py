"""Meld rules that change (issue 22; RULES.md "Variants of play",
round-the-corner): the ``gincli_register_meld_rules`` hook, the solver it
builds, and the built-in ``round-the-corner`` rules (``corner_runs``,
``ace_value``, ``layoff_on_gin``) reaching everything that depends on them:
scoring, knocks and their limits, declared melds, ``legal()``, the bots, the
screens, ``gin score``, ``gin validate``, ``gin deal`` and ``gin match``.
Property tests hold the solver to a brute-force reference
(tests/reference_corner.py) and, with the rule book's own melds, to the
standard fast solver."""

from __future__ import annotations

import json
import random
import sys

import pytest
import reference_corner as refc
from helpers import cards, json_lines, mask, record
from hypothesis import given, settings, strategies as st

from gincli.base.errors import RecordError
from gincli.formats.records import HandScorer
from gincli.rulebook import layoffs, melds
from gincli.rulebook.cards import CARD_NAMES, CARD_VALUES, cards_of, mask_of
from gincli.rulebook.meldrules import STANDARD, STANDARD_WORDS, HandSearch, MeldSolver, standard_melds

CORNER = MeldSolver("corner", tuple(sorted(set(standard_melds(corner=True)))),
                    tuple(15 if c % 13 == 0 else v for c, v in enumerate(CARD_VALUES)), True, "corner")
PLAIN = MeldSolver("plain", tuple(sorted(set(standard_melds()))), CARD_VALUES, False, STANDARD_WORDS)


def ref_cards(m: int) -> frozenset:
    return frozenset(refc.card(CARD_NAMES[c]) for c in range(52) if m >> c & 1)


def ref_melds(ms) -> tuple[frozenset, ...]:
    return tuple(ref_cards(m) for m in ms)


@pytest.fixture(scope="module")
def scorer(registry):
    return lambda **kw: HandScorer(registry, kw.pop("variant", None), "game", kw)


def score(scorer, rec, **options):
    return scorer(**options).score(rec).to_dict()


hands = st.lists(st.integers(0, 51), min_size=20, max_size=20, unique=True)


# -- corner_runs ----------------------------------------------------------------------------

@pytest.mark.parametrize("run", ["Qs Ks As", "Ks As 2s", "As 2s 3s", "Js Qs Ks As 2s", "Qh Kh Ah 2h 3h 4h"])
def test_corner_runs_meld_round_the_corner(run):
    assert CORNER.is_meld(mask(run))
    assert CORNER.deadwood(mask(run)) == 0


@pytest.mark.parametrize("run", ["Qs Ks As", "Ks As 2s"])
def test_without_corner_runs_q_k_a_is_no_run(run):
    assert not STANDARD.is_meld(mask(run)) and not PLAIN.is_meld(mask(run))
    assert not CORNER.is_meld(mask("Ks As 3s")) and not CORNER.is_meld(mask("Qs As 2s"))


def test_a_run_round_the_corner_holds_each_card_once_so_at_most_thirteen():
    suit = mask(" ".join(r + "s" for r in "A23456789TJQK"))
    assert CORNER.is_meld(suit) and CORNER.deadwood(suit) == 0
    assert all(m.bit_count() <= 13 for m in CORNER.meld_masks)


def test_a_corner_run_is_written_in_sequence(scorer):
    r = score(scorer, record("Qs Ks As 2h 3h 4h 5c 5d 5s 9c", "Js 2s 7h 7d 8c 9d Td Jd Kc Kh"),
              variant="round-the-corner")
    assert ["Qs", "Ks", "As"] in r["knocker"]["melds"]
    assert r["knocker"]["deadwood"] == 9


def test_layoffs_extend_a_corner_run_both_ways(scorer):
    """Onto Q-K-A the defender lays off the J or the 2 of its suit (RULES.md)."""
    r = score(scorer, record("Qs Ks As 2h 3h 4h 5c 5d 5s 9c", "Js 2s 7h 7d 8c 9d Td Jd Kc Kh"),
              variant="round-the-corner")
    assert sorted(r["defender"]["layoffs"]) == ["2s", "Js"]


# -- ace_value ------------------------------------------------------------------------------

def test_ace_value_counts_an_ace_in_deadwood_15(scorer):
    assert CORNER.deadwood(mask("Ac")) == 15 and CORNER.card_value(0) == 15
    # the knocker's deadwood is 2 + 3 + 15: the ace's 15 counts towards the limit
    with pytest.raises(RecordError, match="^ann knocked with 20 deadwood, over the knock limit of 10$"):
        score(scorer, record("7s 7h 7d 7c Js Qs Ks 2c 3d Ad", "Kd Kh Kc Ts Qh 8d 6c 5h 2h 9c"),
              variant="round-the-corner")


def test_ace_value_reaches_the_knock_limit(run, tmp_path):
    f = tmp_path / "h.jsonl"
    f.write_text(json.dumps(record("7s 7h 7d 7c Js Qs Ks 2c 3d Ad", "Kd Kh Kc Ts Qh 8d 6c 5h 2h 9c")) + "\n")
    ok = run("score", "-f", "json", str(f))
    assert json_lines(ok.stdout)[0]["points"] > 0
    refused = run("score", "-f", "json", "-o", "ace_value=15", str(f))
    assert refused.exit_code == 1
    assert json_lines(refused.stdout)[0]["error"] == "ann knocked with 20 deadwood, over the knock limit of 10"


def test_oklahoma_with_ace_value_an_ace_upcard_still_means_gin_only(scorer):
    with pytest.raises(RecordError, match="^ann knocked with 5 deadwood, but only gin may end a hand here"):
        score(scorer, record("7s 7h 7d Js Qs Ks 2c 3c 4c 5d", "Kd Kh Kc Ts Qh 8d 6c 5h 2h 9c", upcard="Ah"),
              variant="oklahoma", ace_value=15)
    r = score(scorer, record("7s 7h 7d Js Qs Ks 2c 3c 4c 5d", "Kd Kh Kc Ts Qh 8d 6c 5h 2h 9c", upcard="6h"),
              variant="oklahoma", ace_value=15)
    assert r["outcome"] == "knock"


# -- layoff_on_gin --------------------------------------------------------------------------

def test_layoff_on_gin_a_defender_left_with_nothing_ties_the_hand(scorer, run, tmp_path):
    rec = record("Qs Ks As 2h 3h 4h 5c 5d 5s 5h", "Js 2s 7h 8h 9h 9d Td Jd 6h 3s", id="t")
    r = score(scorer, rec, variant="round-the-corner")
    assert (r["outcome"], r["winner"], r["points"]) == ("gin_tied", None, 0)
    assert sorted(r["defender"]["layoffs"]) == ["2s", "3s", "Js"] and r["defender"]["deadwood"] == 0
    f = tmp_path / "t.jsonl"
    f.write_text(json.dumps(dict(rec, variant="round-the-corner")) + "\n")
    res = run("score", str(f))
    assert "gin is tied: nobody scores" in res.stdout and "1 tied gin" in res.stderr


def test_layoff_on_gin_otherwise_gin_scores_the_deadwood_left(scorer):
    r = score(scorer, record("Qs Ks As 2h 3h 4h 5c 5d 5s 5h", "Js 2s 7h 8h 9c 9d Td Kd 6h 3s"),
              variant="round-the-corner")
    assert r["outcome"] == "gin" and r["winner"] == "ann"
    assert sorted(r["defender"]["layoffs"]) == ["2s", "3s", "Js"]
    assert r["points"] == r["defender"]["deadwood"] + 20


def test_without_layoff_on_gin_layoffs_onto_gin_are_an_error(scorer):
    rec = record("Qs Ks As 2h 3h 4h 5c 5d 5s 5h", "Js 2s 7h 8h 9h 9d Td Jd 6h 3s", layoffs=["Js"])
    with pytest.raises(RecordError, match="^layoffs onto gin are not allowed$"):
        score(scorer, rec, variant="round-the-corner", layoff_on_gin=False)
    del rec["layoffs"]
    assert score(scorer, rec, variant="round-the-corner")["outcome"] == "gin_tied"


def test_big_gin_still_takes_no_layoffs(scorer):
    rec = record("Qs Ks As 2h 3h 4h 5c 5d 5s 5h 6h", "Js 2s 7h 8h 9h 9d Td Jd Kd 3s")
    r = score(scorer, rec, variant="round-the-corner", big_gin_bonus=31)
    assert r["outcome"] == "big_gin" and r["defender"]["layoffs"] == []


# -- the variant, and the options on any variant --------------------------------------------

def test_round_the_corner_is_a_variant_file_with_the_rule_books_defaults(registry):
    v = registry.variants["round-the-corner"]
    rules = registry.rules(v, registry.scoring("game"))
    assert (rules["corner_runs"], rules["ace_value"], rules["layoff_on_gin"]) == (True, 15, True)
    assert (rules["gin_bonus"], rules["undercut_bonus"], rules["box_bonus"], rules["target"]) == (20, 20, 20, 125)
    assert rules.melds.layoff_on_gin and rules.melds.is_meld(mask("Ks As 2s"))


def test_any_variant_may_set_the_options(registry, run, tmp_path):
    rules = registry.rules(registry.variants["standard"], registry.scoring("game"), {"corner_runs": True})
    assert rules.melds.is_meld(mask("Qs Ks As")) and rules.melds.card_value(0) == 1
    assert registry.rules(registry.variants["standard"], registry.scoring("game")).melds is STANDARD
    f = tmp_path / "h.jsonl"
    f.write_text(json.dumps(record("Qs Ks As 2h 3h 4h 5c 5d 5s 9c", "Js 7h 7d 8c 9d Td Jd Kc Kh 2d",
                                   melds={"ann": [["Qs", "Ks", "As"], ["2h", "3h", "4h"], ["5c", "5d", "5s"]]}))
                 + "\n")
    refused = run("score", "-f", "json", str(f))
    assert json_lines(refused.stdout)[0]["error"].startswith("ann's meld [Qs Ks As] is not a meld (a set is")
    ok = run("score", "-f", "json", "-o", "corner_runs=true", str(f))
    assert ok.exit_code == 0, ok.stdout
    assert json_lines(ok.stdout)[0]["knocker"]["deadwood"] == 9


def test_the_corner_words_say_what_a_meld_is(run, tmp_path):
    f = tmp_path / "h.jsonl"
    f.write_text(json.dumps(record("Qs Ks As 2h 3h 4h 5c 5d 5s 9c", "Js 7h 7d 8c 9d Td Jd Kc Kh 2d",
                                   melds={"ann": [["Js", "Ks", "As"]]}, variant="round-the-corner")) + "\n")
    res = run("score", "-f", "json", str(f))
    assert "round the corner" in json_lines(res.stdout)[0]["error"]


# -- against the references -----------------------------------------------------------------

@settings(max_examples=150, deadline=None)
@given(hands, st.booleans())
def test_corner_solver_deadwood_is_the_brute_force_minimum(deck, eleven):
    book = refc.Book()
    hand = mask_of(deck[:11] if eleven else deck[:10])
    assert CORNER.deadwood(hand) == book.min_deadwood(ref_cards(hand))
    arrangements = CORNER.min_arrangements(hand)
    assert arrangements and all(a.deadwood == CORNER.deadwood(hand) for a in arrangements)
    for a in arrangements:
        assert all(CORNER.is_meld(m) and not m & ~hand for m in a.melds)
        assert CORNER.mask_value(a.deadwood_mask) == a.deadwood


@settings(max_examples=100, deadline=None)
@given(hands)
def test_corner_layoffs_leave_the_brute_force_least(deck):
    book = refc.Book()
    k, d = mask_of(deck[:10]), mask_of(deck[10:20])
    for arr in CORNER.min_arrangements(k)[:3]:
        dw, laid, rest = CORNER.best_defence(d, arr.melds)
        assert dw == book.defender_best(ref_cards(d), ref_melds(arr.melds))
        assert book.fits(frozenset(ref_cards(mask_of(laid))), ref_melds(arr.melds))
        assert rest.deadwood == dw and not mask_of(laid) & rest.deadwood_mask


@settings(max_examples=120, deadline=None)
@given(hands, st.sampled_from([(True, 15, True), (True, 1, False), (False, 15, True), (False, 1, True)]))
def test_scoring_under_the_corner_options_is_the_brute_force_score(registry, deck, options):
    corner, ace, on_gin = options
    book = refc.Book(corner, ace, on_gin)
    k, d = mask_of(deck[:10]), mask_of(deck[10:20])
    if book.min_deadwood(ref_cards(k)) > 10 + (14 if ace == 15 else 0):
        return
    scorer = HandScorer(registry, "round-the-corner", "game",
                        {"corner_runs": corner, "ace_value": ace, "layoff_on_gin": on_gin, "knock_limit": 30})
    rec = record(" ".join(CARD_NAMES[c] for c in deck[:10]), " ".join(CARD_NAMES[c] for c in deck[10:20]))
    got = scorer.score(rec).to_dict()
    outcome, role, points = book.score_hand(ref_cards(k), ref_cards(d))
    winner = {"knocker": "ann", "defender": "bob", None: None}[role]
    assert (got["outcome"], got["winner"], got["points"]) == (outcome, winner, points)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=21, max_size=21, unique=True), st.booleans())
def test_the_solver_built_from_the_rule_books_melds_is_the_standard_solver(deck, eleven):
    """What the hook builds, given the rule book's own data, agrees with the
    fast paths on every hand: deadwood, arrangements, layoffs."""
    k = mask_of(deck[:11] if eleven else deck[:10])
    d = mask_of(deck[11:21] if eleven else deck[10:20])  # two hands: no card in both
    assert not k & d
    assert PLAIN.deadwood(k) == melds.deadwood(k)
    fast = {tuple(sorted(a.melds)) for a in melds.min_arrangements(k)}
    assert fast <= {tuple(sorted(a.melds)) for a in PLAIN.min_arrangements(k)}
    for arr in melds.min_arrangements(k):
        a, b = layoffs.best_defence(d, arr.melds), PLAIN.best_defence(d, arr.melds)
        assert (a[0], len(a[1])) == (b[0], len(b[1]))


def test_the_search_and_the_suit_tables_agree():
    """The solver's ways: the search over the melds a hand holds (compiled where
    it is built, and in Python), and the tables of one-suit melds (what it uses
    for sets and runs without the compiled search)."""
    python = HandSearch(CORNER.meld_masks, CORNER.values)
    rng = random.Random(5)
    for _ in range(3000):
        h = mask_of(rng.sample(range(52), rng.choice((10, 11))))
        assert CORNER.deadwood(h) == CORNER._by_suits(h) == python.solve(h)


def test_meld_rules_that_are_not_sets_and_runs_are_solved_by_search():
    """A meld of two suits and two ranks (a plugin may define any)."""
    square = mask("7s 8s 7h 8h")
    s = MeldSolver("sq", tuple(sorted(set(standard_melds()) | {square})), CARD_VALUES, False, "squares")
    assert not s._structured
    assert s.deadwood(mask("7s 8s 7h 8h 2c")) == 2 and melds.deadwood(mask("7s 8s 7h 8h 2c")) == 32
    assert s.best_arrangement(mask("7s 8s 7h 8h 2c")).melds == (square,)


# -- the hook: plugin faults ----------------------------------------------------------------

BAD = '''
from gincli import MeldRules, Option, hookimpl

class Bad(MeldRules):
    name = "bad"
    options = (Option("bad_melds", False, "bad", "bool"),)
    def enabled(self, rules):
        return rules["bad_melds"]
    def melds(self, rules):
        return [7, 1 << 60]

class Also(MeldRules):
    name = "also"
    options = (Option("also_melds", False, "also", "bool"),)
    def enabled(self, rules):
        return rules["also_melds"]

@hookimpl
def gincli_register_meld_rules(register):
    register(Bad())
    register(Also())
'''


def test_a_plugins_bad_melds_are_a_sentence_naming_it(run, tmp_path):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "bad.py").write_text(BAD)
    f = tmp_path / "h.jsonl"
    f.write_text(json.dumps(record("Qs Ks As 2h 3h 4h 5c 5d 5s 9c", "Js 7h 7d 8c 9d Td Jd Kc Kh 2d")) + "\n")
    res = run("--plugins-dir", str(tmp_path / "p"), "score", "-o", "bad_melds=true", str(f))
    assert res.exit_code not in (0, 3), res.output
    assert 'plugin "bad"' in res.stderr and "bad's melds()" in res.stderr and "Traceback" not in res.stderr
    both = run("--plugins-dir", str(tmp_path / "p"), "score", "-o", "corner_runs=true", "-o", "also_melds=true",
               str(f))
    assert both.exit_code == 2
    assert "at most one may be" in both.stderr


# -- play: legal(), the bots, transcripts -----------------------------------------------------

@pytest.mark.parametrize("bot", ["random", "simple", "expert"])
def test_every_built_in_bot_plays_round_the_corner_legally(run, tmp_path, bot):
    t = tmp_path / "t.jsonl"
    res = run("match", "--bots", f"{bot},simple", "--variant", "round-the-corner", "--games", "3", "--seed", "4",
              "--workers", "1", "-q", "-f", "json", "--transcripts", str(t))
    assert res.exit_code == 0, res.stderr
    summary = json.loads(res.stdout)
    assert all(p["forfeits"] == 0 for p in summary["players"])
    checked = run("validate", "-f", "json", str(t))
    assert checked.exit_code == 0, checked.stdout
    reports = json_lines(checked.stdout)
    assert all(r["valid"] and r["complete"] for r in reports)
    assert all(h["variant"] == "round-the-corner" for r in reports for h in r["hands"])


def test_an_external_bot_playing_from_legal_never_forfeits(run, tmp_path):
    from test_match import script_bot

    bot = tmp_path / "first.py"
    bot.write_text(script_bot())
    res = run("match", "--bots", f"exec:{sys.executable} {bot},simple", "--names", "first,simple", "--variant",
              "round-the-corner", "--games", "2", "--seed", "2", "--workers", "1", "-q", "-f", "json")
    assert res.exit_code == 0, res.stderr
    assert all(p["forfeits"] == 0 for p in json.loads(res.stdout)["players"])


def test_legal_knocks_follow_the_corner_melds(registry):
    from gincli.hand.engine import Hand

    rules = registry.rules(registry.variants["round-the-corner"], registry.scoring("game"))
    deck = cards("Qs 2d Ks 3d As 4d 2h 9c 3h 9h 4h 8c 5c Td 5d 8s 5s Jc 9s Jh 7d")
    rest = [c for c in range(52) if c not in deck]
    hand = Hand(("ann", "bob"), "bob", registry.variants["round-the-corner"], rules, deck=deck + rest)
    view = hand.view("ann")
    assert view.melds is rules.melds
    hand.apply(view.pass_())
    hand.apply(hand.view("bob").pass_())
    hand.apply(hand.view("ann").draw_stock())
    moves = hand.view("ann").legal()
    knocks = [m for m in moves if m.action == "knock"]
    held = hand.hands["ann"]
    assert held == mask("Qs Ks As 2s 2h 3h 4h 5c 5d 5s 9s")
    expected = {c for c in cards_of(held) if rules.melds.deadwood(held & ~(1 << c)) <= 10}
    assert {m.card for m in knocks} == expected and len(expected) < len(cards_of(held))
    # under the rule book's melds, Q-K-A-2 is no run: no knock at all
    assert all(melds.deadwood(held & ~(1 << c)) > 10 for c in cards_of(held))


def test_matches_are_the_same_on_one_worker_and_two(run):
    one = run("match", "--bots", "expert,simple", "--variant", "round-the-corner", "--games", "4", "--seed", "9",
              "--workers", "1", "-q", "--transcripts", "-")
    two = run("match", "--bots", "expert,simple", "--variant", "round-the-corner", "--games", "4", "--seed", "9",
              "--workers", "2", "-q", "--transcripts", "-")
    assert one.exit_code == two.exit_code == 0
    assert one.stdout == two.stdout


def test_deal_and_validate_know_the_variant(run, tmp_path):
    res = run("deal", "--variant", "round-the-corner", "--seed", "3", "-f", "json")
    assert res.exit_code == 0
    doc = json.loads(res.stdout)
    assert doc["variant"] == "round-the-corner"


def test_the_hand_screen_shows_corner_melds_in_sequence():
    from gincli.cli.screens import hand_order

    groups, dw = hand_order(mask("Ks As 2s 2h 3h 4h 5c 5d 5s 9c"), CORNER)
    assert ["Ks", "As", "2s"] in [[CARD_NAMES[c] for c in g] for g in groups]
    assert dw == 9


def test_transcripts_carry_the_corner_options_only_where_they_are_played(run):
    plain = json_lines(run("match", "--bots", "simple,simple", "--games", "1", "--seed", "1", "-q", "--workers", "1",
                           "--transcripts", "-").stdout)[0]
    assert not {"corner_runs", "ace_value", "layoff_on_gin"} & set(plain["options"])
    corner = json_lines(run("match", "--bots", "simple,simple", "--games", "1", "--seed", "1", "-q", "--workers",
                            "1", "--variant", "round-the-corner", "--transcripts", "-").stdout)[0]
    assert {k: corner["options"][k] for k in ("corner_runs", "ace_value", "layoff_on_gin")} == {
        "corner_runs": True, "ace_value": 15, "layoff_on_gin": True}
    assert "plugins" not in corner  # a built-in's: every gincli has it
    on_standard = json_lines(run("match", "--bots", "simple,simple", "--games", "1", "--seed", "1", "-q", "--workers",
                                 "1", "-o", "corner_runs=true", "--transcripts", "-").stdout)[0]
    assert on_standard["options"]["corner_runs"] is True and on_standard["variant"] == "standard"


def test_the_rule_books_melds_as_masks_are_the_melds_its_solver_knows():
    """The two spellings of the rule book's melds agree: ``standard_melds()``
    (what the hook's data is compared with) is exactly the masks
    ``melds.is_meld`` accepts among sets and one-suit stretches: 13 ranks ×
    (1 + 4) sets and 4 suits × 66 runs."""
    masks = standard_melds()
    assert len(masks) == len(set(masks)) == 13 * 5 + 4 * sum(14 - n for n in range(3, 14))
    assert all(melds.is_meld(cards_of(m)) for m in masks)
    known = set(masks)
    for s in range(4):  # every stretch of a suit that is a run is listed, and nothing round the corner
        for bits in range(1, 1 << 13):
            m = bits << (13 * s)
            assert (m in known) == (bits.bit_count() >= 3 and melds.is_meld(cards_of(m)))

