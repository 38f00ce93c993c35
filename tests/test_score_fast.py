"""The hot path of ``gin score --format json`` (``HandScorer.score_line``, built on
``scoring.score_plain``) against the careful way it stands in for (parse the
line, ``HandScorer.score``, ``to_json``) and against the brute force of
tests/reference.py: the same JSON text, byte for byte, or no answer at all."""

from __future__ import annotations

import json

import pytest
import reference as ref
from hypothesis import given, settings, strategies as st

from gincli.base.jsonio import loads
from gincli.formats.records import HandScorer
from gincli.rulebook.cards import CARD_NAMES, card_str
from gincli.rulebook.melds import best_arrangement, deadwood, min_arrangements
from gincli.rulebook.scoring import _spread_json

VARIANTS = ("standard", "oklahoma", "gin-only", "doubling", "no-such-variant")


@pytest.fixture(scope="module", params=["accelerated", "pure"])
def solver(request):
    """The hot path solving with the C accelerator (where it is built) or in pure
    Python (``scoring.plain_pieces``, as under GINCLI_PURE=1)."""
    from gincli.rulebook import scoring

    if request.param == "accelerated":
        if not scoring.ACCELERATED:
            pytest.skip("the accelerator is not built here (tests/test_accel.py says whether it should be)")
        yield
        return
    saved = scoring._plain, scoring._labels
    scoring._plain, scoring._labels = scoring.plain_pieces, scoring.plain_labels
    try:
        yield
    finally:
        scoring._plain, scoring._labels = saved


@pytest.fixture(scope="module", params=["orjson", "json"])
def scorer(registry, solver, request):
    """A scorer whose hot path reads records with orjson (when installed) or json."""
    from gincli.formats import records

    if request.param == "orjson":
        pytest.importorskip("orjson")
        yield HandScorer(registry, None, "game", {})
        return
    saved, records.fast_loads = records.fast_loads, None
    try:
        yield HandScorer(registry, None, "game", {})
    finally:
        records.fast_loads = saved


@st.composite
def records(draw):
    """Hand records as tables make them: the knocker's hand mostly melds (so that
    knocks, gins and undercuts all come up), the defender's from the rest of the
    deck; sometimes an upcard, a variant, an odd id."""
    deck = list(draw(st.permutations(range(52))))
    knocker: list[int] = []
    for _ in range(draw(st.integers(0, 12))):
        start = deck[0]
        r, s = start % 13, start // 13
        if draw(st.booleans()):  # a set
            meld = [t * 13 + r for t in range(4) if t * 13 + r in deck][:draw(st.integers(3, 4))]
        else:  # a run up from the card
            meld = [s * 13 + x for x in range(r, min(13, r + draw(st.integers(3, 5)))) if s * 13 + x in deck]
        if len(meld) >= 3 and len(knocker) + len(meld) <= 10:
            knocker += meld
            deck = [c for c in deck if c not in meld]
        else:
            deck = deck[1:] + deck[:1]
    low = [c for c in deck if c % 13 < draw(st.sampled_from((2, 3, 4, 5, 13)))]
    knocker += low[:10 - len(knocker)]
    deck = [c for c in deck if c not in knocker]
    knocker += deck[:10 - len(knocker)]
    deck = [c for c in deck if c not in knocker]
    defender, deck = deck[:10], deck[10:]
    names = draw(st.sampled_from([("ann", "bob"), ("bob", "ann"), ("é\u2028", "x\"y"), ("[b]x", "c\x1bd")]))
    ids = st.one_of(st.text(max_size=4), st.integers(), st.none(), st.floats(allow_nan=False, allow_infinity=False))
    rec = {"id": draw(ids),
           "hands": {names[0]: [CARD_NAMES[c] for c in knocker], names[1]: [CARD_NAMES[c] for c in defender]}}
    if draw(st.integers(0, 4)):
        rec["knocker"] = names[0]
    if draw(st.booleans()):
        rec["upcard"] = CARD_NAMES[deck[0]]
    if draw(st.booleans()):
        rec["variant"] = draw(st.sampled_from(VARIANTS))
    return rec


def careful(scorer, line):
    from gincli.base.errors import RecordError

    try:
        return scorer.score(loads(line)).to_json()
    except RecordError as exc:
        return {"error": exc.message}


@settings(max_examples=300, deadline=None)  # each of the four scorers: 1,200 records a run
@given(records())
def test_the_hot_path_writes_what_the_careful_way_writes(scorer, rec):
    line = json.dumps(rec, ensure_ascii=False)
    expected = careful(scorer, line)  # also caches the variant, as the careful way does in a run
    try:
        fast = scorer.score_line(line.encode())
    except ValueError:  # not JSON as the fast reader reads it: the careful way answers
        return
    if fast is None:  # not the common case, or an error: the careful way answers
        return
    assert fast[0] == expected
    assert fast[1] == json.loads(expected)["outcome"]


@settings(max_examples=300, deadline=None)
@given(records())
def test_the_text_hot_path_writes_what_hand_text_writes(scorer, rec):
    """gin score for people, without colours: the plain knocks' text straight from
    the raw line (cli/hands.py's knock_text_lane) is hand_text's of the careful way's
    result, byte for byte, with the same outcome, winner and points."""
    from gincli.base.errors import RecordError
    from gincli.cli.hands import hand_text, knock_text_lane

    line = json.dumps(rec, ensure_ascii=False)
    lane = knock_text_lane(scorer)
    try:
        fast = lane(line.encode())
    except ValueError:
        return
    try:
        result = scorer.score(loads(line))
    except RecordError:
        assert fast is None
        return
    if fast is None:
        return
    assert fast[0] == hand_text(result, False, scorer.movesets(result))
    assert fast[1:4] == (result.outcome, result.winner, result.points)
    assert lane(line.encode()) == fast  # remembered pairs and sums: the same text again


@pytest.fixture(scope="module")
def solving_scorer(registry, solver):
    """A scorer for each solver; how the record is read is the test above's."""
    yield HandScorer(registry, None, "game", {})


@settings(max_examples=300, deadline=None)
@given(records())
def test_the_hot_path_scores_as_the_brute_force_does(solving_scorer, rec):
    scorer = solving_scorer
    rec.pop("variant", None)
    rec.pop("upcard", None)
    fast = scorer.score_line(json.dumps(rec).encode())
    if fast is None or "knocker" not in rec:
        return
    out = json.loads(fast[0])
    k_name = rec["knocker"]
    d_name = next(n for n in rec["hands"] if n != k_name)
    k_hand = frozenset(ref.card(c) for c in rec["hands"][k_name])
    d_hand = frozenset(ref.card(c) for c in rec["hands"][d_name])
    outcome, winner, points = ref.score_hand(k_hand, d_hand)
    assert out["outcome"] == outcome and out["points"] == points
    assert out["winner"] == (k_name if winner == "knocker" else d_name)


@settings(max_examples=300, deadline=None)
@given(st.sets(st.integers(0, 51), min_size=0, max_size=11))
def test_best_arrangement_is_the_first_of_min_arrangements_and_minimal(hand):
    mask = sum(1 << c for c in hand)
    first = best_arrangement(mask)
    assert first == min_arrangements(mask)[0]
    assert first.deadwood == deadwood(mask) == ref.min_deadwood(frozenset(ref.card(card_str(c)) for c in hand))


def test_a_spread_is_written_as_json_dumps_writes_its_dict():
    from gincli.rulebook.scoring import Spread

    melds = min_arrangements(sum(1 << c for c in (0, 1, 2, 13, 26, 39, 12, 25, 38)))[0].melds
    spread = Spread("ann", tuple(a for a in melds), 1 << 51 | 1 << 3, 14, [4])
    assert spread.to_json() == json.dumps(spread.to_dict())
    assert _spread_json('"ann"', spread.melds, None, 0, 0) == json.dumps(
        {"name": "ann", "melds": spread.to_dict()["melds"], "deadwood_cards": [], "deadwood": 0})


@pytest.mark.parametrize("line, outcome", [
    # the defender lays off 7s onto 3-4-5-6 of spades and is left with 8 (2s 5d 5c 6c), under the knocker's 8
    ('{"id": "h1844", "upcard": "2c", "hands": {"ann": ["7d", "8d", "9d", "3s", "4s", "5s", "6s", "4h", "3c", "Ah"], '
     '"bob": ["2s", "Td", "7s", "Jc", "Js", "5d", "6c", "5c", "Jh", "7c"]}, "knocker": "ann"}', "undercut"),
    ('{"id": 7, "hands": {"ann": ["As", "2s", "3s", "4s", "5h", "5d", "5c", "9h", "Th", "Jh"], '
     '"bob": ["Kd", "Kh", "Kc", "Ts", "Qh", "8d", "6c", "6h", "2h", "Ac"]}, "knocker": "ann"}', "gin"),
    ('{"hands": {"ann": ["7s", "7h", "7d", "7c", "Js", "Qs", "Ks", "As", "2c", "5d"], '
     '"bob": ["Kd", "Kh", "Kc", "Ts", "Qh", "8d", "6c", "5h", "2h", "Ac"]}, "knocker": "ann"}', "knock"),
    ('{"id": null, "hands": {"ann": ["7s", "7h", "7d", "7c", "Js", "Qs", "Ks", "As", "2c", "5d"], '
     '"bob": ["Kd", "Kh", "Kc", "Ts", "Qh", "8d", "6c", "5h", "2h", "Ac"]}}', "dead"),
    ('{"id": 18446744073709551615, "hands": {"ann": ["7s", "7h", "7d", "7c", "Js", "Qs", "Ks", "As", "2c", "5d"], '
     '"bob": ["Kd", "Kh", "Kc", "Ts", "Qh", "8d", "6c", "5h", "2h", "Ac"]}}', "dead"),
])
def test_each_outcome_on_the_hot_path(scorer, line, outcome):
    fast = scorer.score_line(line.encode())
    assert fast is not None and fast[1] == outcome
    assert fast[0] == careful(scorer, line)


@pytest.mark.parametrize("line", [
    '{"hands": {"ann": ["7s", "7h", "7d", "7c", "Js", "Qs", "Ks", "As", "2c", "5d"], '
    '"bob": ["Kd", "Kh", "Kc", "Ts", "Qh", "8d", "6c", "5h", "2h", "Ac"]}, "knocker": "ann", "layoffs": []}',
    '{"hands": {"ann": ["7s", "7h", "7d", "7c", "Js", "Qs", "Ks", "As", "2c", "5d"], '
    '"bob": ["Kd", "Kh", "Kc", "Ts", "Qh", "8d", "6c", "5h", "2h", "Ac"]}, "knocker": "carl"}',
    '{"hands": {"ann": ["7s", "7h", "7d", "7c", "Js", "Qs", "Ks", "As", "2c", "5d"], '
    '"bob": ["Kd", "Kh", "Kc", "Ts", "Qh", "8d", "6c", "5h", "2h", "Ac"]}, "knocker": "bob"}',
    '{"hands": {"ann": ["7s", "7h", "7d", "7c", "Js", "Qs", "Ks", "As", "2c", "5d"], '
    '"bob": ["Kd", "Kh", "Kc", "Ts", "Qh", "8d", "6c", "5h", "2h", "Ac"]}, "knocker": "ann"} x',
    '{"hands": {"ann": ["7s", "7h", "7d", "7c", "Js", "Qs", "Ks", "As", "2c", "5d"], '
    '"bob": ["Kd", "Kh", "Kc", "Ts", "Qh", "8d", "6c", "5h", "2h", "7s"]}, "knocker": "ann"}',
    '{"hands": {"ann": ["7s", "7h", "7d", "7c", "Js", "Qs", "Ks", "As", "2c", "5d"]}}',
    '{"hands": {"ann": ["7s", "7h", "7d", "7c", "Js", "Qs", "Ks", "As", "2c", "5d"], '
    '"bob": ["Kd", "Kh", "Kc", "Ts", "Qh", "8d", "6c", "5h", "2h", "Ac"]}, "knocker": "ann", "upcard": "Xx"}',
])
def test_anything_but_the_common_record_is_left_to_the_careful_way(scorer, line):
    """Declarations, an unknown knocker, a knock over the limit, text after the
    object, a card in both hands, one player, a bad upcard: no answer, or an
    error (the caller then asks the careful way)."""
    try:
        assert scorer.score_line(line.encode()) is None
    except ValueError:
        pass


@settings(max_examples=300, deadline=None)
@given(st.integers(0, (1 << 52) - 1))
def test_deadwood_cards_are_written_by_rank_then_suit(mask):
    from gincli.rulebook.cards import CARD_NAMES, by_rank, cards_of, json_by_rank

    assert json_by_rank(mask) == ", ".join(f'"{CARD_NAMES[c]}"' for c in by_rank(cards_of(mask)))


class _Plain(dict):
    """A dict that is not exactly a dict: Move.from_dict reads it the long way."""


move_dicts = st.fixed_dictionaries(
    {"player": st.sampled_from(["ann", "bob", 3, None])},
    optional={"action": st.sampled_from(["draw", "discard", "pass", "knock", "layoff", "double", "", 5]),
              "from": st.sampled_from(["stock", "discard", "pile", None]),
              "card": st.sampled_from(["As", "Td", "10h", "Xx", None, 7]),
              "melds": st.sampled_from([None, [["As", "2s", "3s"]], "x"]),
              "cards": st.sampled_from([None, ["Kd"]]),
              "extra": st.just(1)})


@settings(max_examples=500, deadline=None)
@given(move_dicts)
def test_a_move_is_read_the_same_the_quick_way_and_the_long_way(d):
    from gincli.hand.moves import IllegalMove, Move

    def read(x):
        try:
            return Move.from_dict(x)
        except IllegalMove as exc:
            return ("error", exc.rule, exc.message)

    assert read(d) == read(_Plain(d))


def test_an_id_past_64_bits_is_written_exactly(scorer):
    """orjson reads such an integer as a float: the hot path then leaves the
    record to the careful way; json reads it exactly, and so does the hot path."""
    line = ('{"id": 123456789012345678901234567890, "hands": {"ann": ["7s", "7h", "7d", "7c", "Js", "Qs", "Ks", '
            '"As", "2c", "5d"], "bob": ["Kd", "Kh", "Kc", "Ts", "Qh", "8d", "6c", "5h", "2h", "Ac"]}, '
            '"knocker": "ann"}')
    fast = scorer.score_line(line.encode())
    assert fast is None or fast[0] == careful(scorer, line)
    assert '"id": 123456789012345678901234567890,' in careful(scorer, line)


@settings(max_examples=400, deadline=None)
@given(records())
def test_the_plain_defence_is_the_full_layoff_search(rec):
    """plain_defence's shortcuts (nothing to lay off; one card alone) give what
    trying every prefix of every layoff chain gives: deadwood, layoffs in order,
    arrangement."""
    from gincli.rulebook.cards import CARD_TABLE
    from gincli.rulebook.layoffs import _search, layoff_options, plain_defence

    first, second = rec["hands"].values()
    knocker = sum(1 << CARD_TABLE[c] for c in first)
    defender = sum(1 << CARD_TABLE[c] for c in second)
    for arr in min_arrangements(knocker):
        assert plain_defence(defender, arr.melds) == _search(defender, arr.melds, None,
                                                             layoff_options(arr.melds, defender))
