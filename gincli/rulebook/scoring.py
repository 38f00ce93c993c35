"""Scoring one hand from its end position (RULES.md, "Going out" and
"Scoring a hand"). This module is the one place those rules live: ``gin
score``, the hand engine and ``gin validate`` all call :func:`score_position`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from json.encoder import encode_basestring as _encode_str
from typing import Any, cast

from ..base.compiled import compiled
from ..base.errors import RecordError, plural
from ..base.jsonio import dumps as _dumps
from .cards import CARD_LABELS, CARD_NAMES, CARD_TABLE, by_rank, card_str, cards_of, json_by_rank
from .irregular import IRREGULAR, VOID, TableHand
from .meldrules import STANDARD, MeldSolver
from .melds import Arrangement, deadwood, in_sequence, meld_info, min_arrangements
from .rules import OFF, Rules
from .variant import Variant

OUTCOMES = ("knock", "undercut", "gin", "big_gin", "dead", "forfeit", "gin_tied", IRREGULAR, VOID)
CARD_JSON = tuple(f'"{n}"' for n in CARD_NAMES)


@dataclass(slots=True)
class Position:
    """The end of one hand, as a hand record describes it.

    ``hands`` maps each of the two players to a card mask; ``melds`` holds the
    declared spreads (name -> list of meld masks) and ``layoffs`` the declared
    layoffs (cards), ``None`` where gincli is to choose.
    """

    players: tuple[str, str]
    hands: dict[str, int]
    knocker: str | None = None
    upcard: int | None = None
    melds: dict[str, list[int]] = field(default_factory=dict)
    layoffs: list[int] | None = None


@dataclass(slots=True)
class Spread:
    """A player's hand as spread at the end: melds, deadwood, and (defender) layoffs."""

    name: str
    melds: tuple[int, ...]
    deadwood_mask: int
    deadwood: int
    layoffs: list[int] | None = None

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"name": self.name, "melds": [list(meld_info(m).names) for m in sort_melds(self.melds)]}
        if self.layoffs is not None:
            d["layoffs"] = [CARD_NAMES[c] for c in self.layoffs]
        d["deadwood_cards"] = [CARD_NAMES[c] for c in by_rank(cards_of(self.deadwood_mask))]
        d["deadwood"] = self.deadwood
        return d

    def to_json(self) -> str:
        """``dumps(self.to_dict())`` (:mod:`gincli.base.jsonio`'s strict writer),
        built directly (the hot path of ``gin score``)."""
        return _spread_json(_json_value(self.name), self.melds, self.layoffs, self.deadwood_mask, self.deadwood)


@dataclass(slots=True)
class HandResult:
    """The score of one hand (FORMATS.md, "Score result")."""

    outcome: str
    winner: str | None
    points: int
    knocker: Spread | None
    defender: Spread | None
    variant: str = "standard"
    id: Any = None
    #: gincli's addition for a forfeited hand: ``{"player": ..., "reason": ...}``.
    forfeit: dict[str, Any] | None = None
    #: What the hand's points were multiplied by, in all (Oklahoma's spade
    #: doubling, a move set's stake).
    multiplier: int = 1
    #: Fields a move set adds to the score result and the transcript's hand
    #: result (doubling's ``multiplier``).
    fields: dict[str, Any] | None = None
    #: What a move set's explanation for people draws on (never written in a
    #: result or a transcript): doubling's decline bonus and deadwoods.
    notes: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        d = {
            "id": self.id,
            "variant": self.variant,
            "outcome": self.outcome,
            "winner": self.winner,
            "points": self.points,
            "knocker": self.knocker.to_dict() if self.knocker else None,
            "defender": self.defender.to_dict() if self.defender else None,
        }
        if self.forfeit is not None:
            d["forfeit"] = self.forfeit
        if self.fields:
            d.update(self.fields)
        return d

    def claim(self) -> dict[str, Any]:
        """The hand's result as a transcript writes it: outcome, winner, points, and
        the fields move sets add."""
        d = {"outcome": self.outcome, "winner": self.winner, "points": self.points}
        if self.fields:
            d.update(self.fields)
        return d

    def to_json(self) -> str:
        """``dumps(self.to_dict())`` (:mod:`gincli.base.jsonio`'s strict writer), built directly."""
        if self.forfeit is not None or self.fields:
            return _dumps(self.to_dict())
        knocker = self.knocker.to_json() if self.knocker else "null"
        defender = self.defender.to_json() if self.defender else "null"
        winner = "null" if self.winner is None else _json_value(self.winner)
        return _result_json(_json_value(self.id), _json_value(self.variant), self.outcome, winner, self.points,
                            knocker, defender)


def _result_json(ident: str, variant: str, outcome: str, winner: str, points: int, knocker: str,
                 defender: str) -> str:
    """A score result's JSON text from the JSON texts of its parts."""
    return (f'{{"id": {ident}, "variant": {variant}, "outcome": "{outcome}", "winner": {winner}, '
            f'"points": {points}, "knocker": {knocker}, "defender": {defender}}}')


def _melds_text(melds: tuple[int, ...]) -> str:
    """Melds as the inside of a JSON list, in the order they are written."""
    if len(melds) == 1:
        return (_MELD_TEXT.get(melds[0]) or _meld_text(melds[0]))[1]
    if melds:
        get = _MELD_TEXT.get
        return ", ".join([t for _, t in sorted([get(m) or _meld_text(m) for m in melds])])
    return ""


def _spread_json(name: str, melds: tuple[int, ...], layoffs: list[int] | None, deadwood_mask: int,
                 deadwood: int) -> str:
    """A spread's JSON text (``name`` already JSON): melds in written order,
    deadwood cards by rank."""
    text = _melds_text(melds)
    laid = "" if layoffs is None else ', "layoffs": [' + ", ".join([CARD_JSON[c] for c in layoffs]) + "]"
    return (f'{{"name": {name}, "melds": [{text}]{laid}, '
            f'"deadwood_cards": [{json_by_rank(deadwood_mask)}], "deadwood": {deadwood}}}')


#: Each meld's place in the written order (:func:`sort_melds`'s key as one number:
#: no two melds of a hand share it) and its JSON text.
_MELD_TEXT: dict[int, tuple[int, str]] = {}


def _meld_text(meld: int) -> tuple[int, str]:
    info = meld_info(meld)
    found = _MELD_TEXT[meld] = (info.key[0] * 4 + info.key[1], info.json)
    return found


def _json_value(value: Any) -> str:
    """A value from the input (an id) as strict JSON: ``ValueError`` for a NaN
    or an infinity, a negative zero as ``0.0``."""
    if type(value) is str:
        return _encode_str(value)
    if type(value) is int:
        return str(value)
    return _dumps(value)


def sort_melds(melds: tuple[int, ...] | list[int]) -> list[int]:
    """Melds in the order they are written: by lowest rank, then suit."""
    if len(melds) < 2:
        return list(melds)
    return sorted(melds, key=lambda m: meld_info(m).key)


def meld_strs(meld: int) -> list[str]:
    """A meld's cards as written: a run ascending, a set by suit."""
    return list(meld_info(meld).names)


def dead_hand(players: tuple[str, str], variant: str = "standard", id: Any = None) -> HandResult:
    """Nobody knocked before the wall: nobody scores."""
    return HandResult("dead", None, 0, None, None, variant, id)


def forfeit_result(player: str, opponent: str, held: int, rules: Rules, variant: str,
                   reason: str) -> HandResult:
    """A player who cannot go on (a bot's illegal reply, crash or hang) forfeits
    the hand: the opponent wins, as if by gin, the forfeiter's deadwood (all the
    cards held) plus the gin bonus. Outcome ``forfeit`` (gincli's addition)."""
    points = rules.melds.deadwood(held) + rules["gin_bonus"]
    return HandResult("forfeit", opponent, points, None, None, variant,
                      forfeit={"player": player, "reason": reason})


def _upcard_reason(variant: Variant, rules: Rules) -> str:
    """Why scoring needs the first upcard, naming the option to blame."""
    reasons = []
    for key, why in (("knock_limit", "knock_limit is \"upcard\" (the knock limit is the upcard's value)"),
                     ("spade_doubles", "spade_doubles is on (a spade upcard doubles the hand)")):
        value = rules.get(key)
        if (key == "knock_limit" and value == "upcard") or (key == "spade_doubles" and value is True):
            reasons.append(why + (f" in the variant {variant.name}" if variant.defaults.get(key) == value else ""))
    return " and ".join(reasons) or f"the variant {variant.name} needs it"


def score_position(pos: Position, variant: Variant, rules: Rules, id: Any = None,
                   table: TableHand | None = None) -> HandResult:
    """Score a hand's end position under a variant and its rules.

    Declared melds and layoffs are checked and used, never replaced; where
    absent, gincli chooses (FORMATS.md): the knocker's arrangement is one of
    minimum deadwood that leaves the defender the worst best result; the
    defender's melds and layoffs are those leaving the least deadwood.
    ``table``: the hand was found irregular at the table, and is scored by the
    end-of-hand rule (RULES.md, "Irregularities at the table"): each player it
    names holds a wrong number of cards on purpose.
    Raises :class:`RecordError` with one sentence when the position is not legal.
    """
    p0, p1 = pos.players
    for name in pos.players:
        count = pos.hands[name].bit_count()
        if count != 10 and not (name == pos.knocker and count == 11) and (table is None or name not in table.right):
            raise RecordError(f"{name} holds {plural(count, 'card')}; a player holds 10 at the end of a hand"
                              + (" (11 only for big gin)" if name == pos.knocker else "")
                              + "; a hand found irregular at the table says so (a hand record's \"irregular\": "
                                "true, a transcript's irregular-hand move)", rule="hand-size")
    for name in pos.melds:
        if name not in pos.hands:
            raise RecordError(f"melds are given for \"{name}\", who is not a player", rule="unknown-player")
    if pos.knocker is None:
        if pos.layoffs:
            raise RecordError("layoffs are given but nobody knocked (a dead hand)", rule="layoff-without-knock")
        return dead_hand(pos.players, variant.name, id)

    knocker = pos.knocker
    defender = p1 if knocker == p0 else p0
    k_mask = pos.hands[knocker]
    d_mask = pos.hands[defender]
    upcard = pos.upcard
    if upcard is None and variant.checked_needs_upcard(rules):
        raise RecordError(f"this hand needs its first upcard (field \"upcard\"): {_upcard_reason(variant, rules)}",
                          rule="missing-upcard")

    solver = rules.melds
    k_declared = declared_melds(knocker, k_mask, pos.melds.get(knocker), solver)
    d_declared = declared_melds(defender, d_mask, pos.melds.get(defender), solver)
    if table is None:
        outcome, candidates = check_knock(knocker, k_mask, k_declared, variant, rules, upcard)
        k_pen = d_pen = 0
    else:
        outcome, candidates = check_knock(knocker, k_mask, k_declared, variant, rules, upcard,
                                          eleven=table.right.get(knocker, k_mask.bit_count()) == 11,
                                          accepted=table.accepted)
        k_pen = table.penalty(knocker, k_mask.bit_count(), rules)
        d_pen = table.penalty(defender, d_mask.bit_count(), rules)
        if k_pen and outcome != "knock":  # a count above 0 is no gin: the defender lays off
            outcome = "knock"
    k_dw = candidates[0].deadwood + k_pen

    multiplier = variant.checked_multiplier(rules, upcard)
    lay_off = lays_off(outcome, solver)
    if pos.layoffs and not lay_off:
        raise RecordError(f"layoffs onto {'gin' if outcome == 'gin' else 'big gin'} are not allowed",
                          rule="layoff-onto-gin")
    arr, d_dw, laid, d_arr = defend(d_mask, candidates, solver, lay_off, d_declared, pos.layoffs)
    outcome, knocker_wins, points = settle(outcome, k_dw, d_dw + d_pen, rules)
    winner = None if knocker_wins is None else knocker if knocker_wins else defender
    fields = None
    if table is not None:
        held = {p: pos.hands[p].bit_count() for p in pos.players}
        bonus = rules[_BONUS[outcome]] if outcome in _BONUS else 0
        outcome, winner, points = table.settled(outcome, winner, points, bonus, held)
        wrong = {p: held[p] for p in pos.players if p in table.right}
        fields = {"irregular_hands": wrong} if wrong else None
    return HandResult(outcome, winner, points * multiplier,
                      Spread(knocker, arr.melds, arr.deadwood_mask, arr.deadwood + k_pen),
                      Spread(defender, d_arr.melds, d_arr.deadwood_mask, d_arr.deadwood + d_pen, laid),
                      variant.name, id, multiplier=multiplier, fields=fields)


#: The bonus each outcome's points hold (the option that gives it).
_BONUS = {"gin": "gin_bonus", "big_gin": "big_gin_bonus", "undercut": "undercut_bonus"}


def lays_off(outcome: str, solver: MeldSolver) -> bool:
    """Whether the defender may lay off (RULES.md "Layoffs"): after a knock, and
    after gin where the meld rules allow it; never after big gin."""
    return outcome == "knock" or (outcome == "gin" and solver.layoff_on_gin)


def defend(d_mask: int, candidates: list[Arrangement], solver: MeldSolver, lay_off: bool,
           melds: list[int] | None = None,
           layoffs: list[int] | None = None) -> tuple[Arrangement, int, list[int], Arrangement]:
    """The defender's answer to a knock: of the knocker's ``candidates`` (all
    of the same deadwood), the first that leaves the defender the most after
    the defender's best layoffs (or the declared ``melds`` and ``layoffs``,
    checked); then the defender's deadwood, layoffs in laying order, and
    arrangement of the rest. Without ``lay_off`` (gin, big gin) the first
    candidate, and the defender's declared melds or best arrangement, nothing
    laid. The one place the knocker's and the defender's choices are made:
    :func:`score_position`, :func:`knock_points` and :func:`plain_pieces` (so
    the accelerator too) all come here. Raises the first :class:`RecordError`
    of the declared layoffs when they fit none of the candidates."""
    if not lay_off:
        d_arr = _as_arrangement(d_mask, melds, solver) if melds is not None else solver.best_arrangement(d_mask)
        return candidates[0], d_arr.deadwood, [], d_arr
    best = None
    error: RecordError | None = None
    for arr in candidates:
        try:
            d_dw, laid, d_arr = solver.best_defence(d_mask, arr.melds, melds, layoffs)
        except RecordError as exc:
            error = error or exc
            continue
        if best is None or d_dw > best[1]:
            best = (arr, d_dw, laid, d_arr)
    if best is None:
        assert error is not None
        raise error
    return best


def knock_points(k_mask: int, d_mask: int, k_dw: int, rules: Rules) -> int:
    """The points of a knock (or gin, or big gin with eleven cards) with
    ``k_mask`` (deadwood ``k_dw``) against ``d_mask``, nothing declared, chosen as
    :func:`score_position` chooses (:func:`defend`): the knocker's, negative
    when the defender's, 0 for a gin tied by layoffs; before any multiplier.
    For bots weighing a knock against hands they imagine: no checks, no result
    object."""
    solver = rules.melds
    outcome = "knock" if k_dw else "big_gin" if k_mask.bit_count() == 11 else "gin"
    if lays_off(outcome, solver):
        d_dw = defend(d_mask, solver.min_arrangements(k_mask), solver, True)[1]
    else:  # the defender's own deadwood: the knocker's arrangement does not matter
        d_dw = solver.deadwood(d_mask)
    _, won, points = settle(outcome, k_dw, d_dw, rules)
    return 0 if won is None else points if won else -points


def settle(outcome: str, k_dw: int, d_dw: int, rules: Rules) -> tuple[str, bool | None, int]:
    """A legal knock settled (RULES.md "Scoring a hand"), from ``outcome`` as
    :func:`check_knock` found it (``knock``, ``gin``, ``big_gin``) and the two
    deadwoods after layoffs: the outcome (a knock may be an undercut, a gin tied
    by layoffs), whether the knocker wins (None: nobody), and the points before
    any multiplier."""
    if outcome == "knock":
        if d_dw > k_dw:
            return "knock", True, d_dw - k_dw
        return "undercut", False, k_dw - d_dw + rules["undercut_bonus"]
    if outcome == "big_gin":
        return "big_gin", True, d_dw + rules["big_gin_bonus"]
    if not d_dw and rules.melds.layoff_on_gin:  # the defender laid off everything onto gin
        return "gin_tied", None, 0
    return "gin", True, d_dw + rules["gin_bonus"]


#: ``(variant, upcard) -> (variant, rules, knock limit, multiplier)`` (limit -1:
#: the hand needs its upcard; used only for the same rules object), for variants
#: that keep the rule book's ways of reading them (:class:`Variant`'s own methods:
#: functions of the rules and the upcard alone); a plugin's overrides are asked
#: every hand.
_LIMITS: dict[tuple[Variant, int | None], tuple[Variant, Rules, int, int]] = {}


def _remember_limits(variant: Variant, rules: Rules, upcard: int | None, limit: int, multiplier: int) -> None:
    kind = type(variant)
    if (kind.needs_upcard is Variant.needs_upcard and kind.knock_limit is Variant.knock_limit
            and kind.hand_multiplier is Variant.hand_multiplier):
        _LIMITS[(variant, upcard)] = (variant, rules, limit, multiplier)


def score_plain(p0: str, p1: str, m0: int, m1: int, knocker: str | None, upcard: int | None,
                variant: Variant, rules: Rules, id: Any = None) -> tuple[str, str, str | None, int, str, str] | None:
    """``score_position(pos, variant, rules, id).to_json()`` and the outcome (then
    the winner, the points and the two players, for the totals of a run), for
    the common position: ten cards each, nothing declared, no move set's fields,
    a legal knock or none. Built without the objects: the hot path of ``gin
    score --format json``. None for any other position (an error, big gin):
    :func:`score_position` is then the one to ask."""
    ident = _encode_str(id) if type(id) is str else _json_value(id)
    if knocker is None:  # _result_json of a dead hand, in one piece
        if m0.bit_count() != 10 or m1.bit_count() != 10 or rules.melds is not STANDARD:
            return None
        return (f'{{"id": {ident}, "variant": {_json_value(variant.name)}, "outcome": "dead", "winner": null, '
                f'"points": 0, "knocker": null, "defender": null}}', "dead", None, 0, p0, p1)
    solved = _solve_plain(p0, p1, m0, m1, knocker, upcard, variant, rules, _plain)
    if solved is None:
        return None
    defender, multiplier, (k_dw, d_dw, k_melds, k_dead, d_melds, laid, d_dead) = solved
    k_name = _encode_str(knocker)
    # knocker_wins is never None here: the standard melds lay nothing off onto gin
    outcome, knocker_wins, points = settle("knock" if k_dw else "gin", k_dw, d_dw, rules)
    won = knocker if knocker_wins else defender
    winner = k_name if knocker_wins else _encode_str(defender)
    points *= multiplier
    # _result_json of two _spread_json, in one piece (tests/test_score_fast.py holds them to the same text)
    return (f'{{"id": {ident}, "variant": {_json_value(variant.name)}, "outcome": "{outcome}", "winner": {winner}, '
            f'"points": {points}, "knocker": {{"name": {k_name}, "melds": [{k_melds}], '
            f'"deadwood_cards": [{k_dead}], "deadwood": {k_dw}}}, '
            f'"defender": {{"name": {_encode_str(defender)}, "melds": [{d_melds}], '
            f'"layoffs": [{laid}], '
            f'"deadwood_cards": [{d_dead}], "deadwood": {d_dw}}}}}', outcome, won, points,
            knocker, defender)


def result_plain(p0: str, p1: str, m0: int, m1: int, knocker: str | None, upcard: int | None,
                 variant: Variant, rules: Rules, id: Any = None) -> HandResult | None:
    """``score_position(pos, variant, rules, id)`` for the common position, as
    :func:`score_plain` takes it: the hot path of ``gin score`` for people and
    as CSV. None for any other position: :func:`score_position` is then the one to ask."""
    if knocker is None:
        if m0.bit_count() != 10 or m1.bit_count() != 10 or rules.melds is not STANDARD:
            return None
        return HandResult("dead", None, 0, None, None, variant.name, id)
    solved = _solve_plain(p0, p1, m0, m1, knocker, upcard, variant, rules, _spreads)
    if solved is None:
        return None
    defender, multiplier, (k_dw, d_dw, k_melds, k_dead, d_melds, laid, d_dead) = solved
    outcome, knocker_wins, points = settle("knock" if k_dw else "gin", k_dw, d_dw, rules)
    return HandResult(outcome, knocker if knocker_wins else defender, points * multiplier,
                      Spread(knocker, k_melds, k_dead, k_dw), Spread(defender, d_melds, d_dead, d_dw, laid),
                      variant.name, id, multiplier=multiplier)


_Solver = Callable[[int, int, int], Any]


def _solve_plain(p0: str, p1: str, m0: int, m1: int, knocker: str, upcard: int | None, variant: Variant,
                 rules: Rules, solve: _Solver) -> tuple[str, int, Any] | None:
    """A plain knock solved by ``solve`` (:func:`plain_pieces` or
    :func:`plain_spreads`, or their compiled twins): the defender, the
    multiplier, and what ``solve`` gave; None when the position is not the
    common one (not ten cards each, other meld rules, an upcard needed and
    missing, a knock over the limit)."""
    if m0.bit_count() != 10 or m1.bit_count() != 10 or rules.melds is not STANDARD:
        return None
    if knocker == p0:
        k_mask, d_mask, defender = m0, m1, p1
    else:
        k_mask, d_mask, defender = m1, m0, p0
    known = _LIMITS.get((variant, upcard))
    if known is not None and known[0] is variant and known[1] is rules:
        _, _, limit, multiplier = known
        if limit < 0:
            return None
    else:
        if upcard is None and variant.checked_needs_upcard(rules):
            _remember_limits(variant, rules, upcard, -1, 0)
            return None
        limit = variant.checked_knock_limit(rules, upcard)
        multiplier = variant.checked_multiplier(rules, upcard)
        _remember_limits(variant, rules, upcard, limit, multiplier)
    solved = solve(k_mask, d_mask, limit)
    return None if solved is None else (defender, multiplier, solved)


def plain_spreads(k_mask: int, d_mask: int, limit: int) -> tuple[int, int, tuple[int, ...], int, tuple[int, ...],
                                                                 list[int], int] | None:
    """A knock of ten cards against ten under the standard melds, nothing
    declared, solved: None when the knocker's deadwood is over ``limit``, else
    the knocker's deadwood, the defender's, the knocker's melds (masks) and
    deadwood cards (a mask), the defender's melds, layoffs (cards, in the order
    laid) and deadwood cards: the choices of :func:`defend`, as
    :func:`score_position` makes them. The pure-Python reference of the
    accelerator's ``_stdscore.spreads``."""
    candidates = min_arrangements(k_mask)
    k_dw = candidates[0].deadwood
    if k_dw > limit:
        return None
    arr, d_dw, laid, d_arr = defend(d_mask, candidates, STANDARD, lays_off("knock" if k_dw else "gin", STANDARD))
    return k_dw, d_dw, arr.melds, arr.deadwood_mask, d_arr.melds, list(laid), d_arr.deadwood_mask


def plain_pieces(k_mask: int, d_mask: int, limit: int) -> tuple[int, int, str, str, str, str, str] | None:
    """:func:`plain_spreads`, the melds and cards as the insides of JSON lists
    (the melds in written order). The pure-Python reference of the accelerator
    (``_stdscore.plain``, which tests/test_accel.py holds to the same answers)."""
    return _drawn(plain_spreads(k_mask, d_mask, limit), _melds_text, json_by_rank,
                  lambda laid: ", ".join([CARD_JSON[c] for c in laid]))


def _drawn(solved: tuple[int, int, tuple[int, ...], int, tuple[int, ...], list[int], int] | None,
           melds: Callable[[tuple[int, ...]], str], cards: Callable[[int], str],
           laid: Callable[[list[int]], str]) -> tuple[int, int, str, str, str, str, str] | None:
    """:func:`plain_spreads`'s answer with its melds, deadwood cards and layoffs drawn as texts."""
    if solved is None:
        return None
    k_dw, d_dw, k_melds, k_dead, d_melds, layoffs, d_dead = solved
    return k_dw, d_dw, melds(k_melds), cards(k_dead), melds(d_melds), laid(layoffs), cards(d_dead)


def plain_labels(k_mask: int, d_mask: int, limit: int) -> tuple[int, int, str, str, str, str, str] | None:
    """:func:`plain_pieces` for people: each card as people write it
    (``CARD_LABELS``), cards apart by a space and melds by two. The pure-Python
    reference of the accelerator's ``_stdscore.labels``."""
    return _drawn(plain_spreads(k_mask, d_mask, limit), _melds_labels, _labels_by_rank,
                  lambda laid: " ".join([CARD_LABELS[c] for c in laid]))


def _melds_labels(melds: tuple[int, ...]) -> str:
    return "  ".join([" ".join([CARD_LABELS[c] for c in meld_cards_in_order(m)]) for m in sort_melds(melds)])


def _labels_by_rank(mask: int) -> str:
    return " ".join([CARD_LABELS[c] for c in by_rank(cards_of(mask))])


def knock_labels(p0: str, p1: str, m0: int, m1: int, knocker: str | None, upcard: int | None, variant: Variant,
                 rules: Rules) -> tuple[str, bool, int, int, str, tuple[int, int, str, str, str, str, str]] | None:
    """A plain knock (as :func:`score_plain` takes it) settled, its cards as
    people write them: ``(outcome, whether the knocker wins, points, multiplier,
    defender, plain_labels's pieces)``; None for a dead hand and any position
    not the common one. The hot path of ``gin score`` for people."""
    if knocker is None:
        return None
    solved = _solve_plain(p0, p1, m0, m1, knocker, upcard, variant, rules, _labels)
    if solved is None:
        return None
    defender, multiplier, pieces = solved
    outcome, knocker_wins, points = settle("knock" if pieces[0] else "gin", pieces[0], pieces[1], rules)
    if knocker_wins is None:
        return None
    return outcome, knocker_wins, points * multiplier, multiplier, defender, pieces


def _accelerator(name: str) -> Callable[[int, int, int], Any] | None:
    """The compiled twin of :func:`plain_pieces` (``plain``) or of
    :func:`plain_spreads` (``spreads``), in ``gincli.rulebook._stdscore``, built
    by ``pip install`` where a C compiler is; or None: not built, or
    ``GINCLI_PURE=1`` in the environment (the pure-Python path, the same answers)."""
    module = compiled(f"{__package__}._stdscore")
    return None if module is None else cast("Callable[[int, int, int], Any]", getattr(module, name))


#: What :func:`score_plain` solves with: the accelerator, else :func:`plain_pieces`.
_plain = _accelerator("plain") or plain_pieces
#: What :func:`result_plain` solves with: the accelerator, else :func:`plain_spreads`.
_spreads = _accelerator("spreads") or plain_spreads
#: What :func:`knock_labels` solves with: the accelerator, else :func:`plain_labels`.
_labels = _accelerator("labels") or plain_labels
#: Whether the hot path runs compiled (``gin score`` writes the same either way).
ACCELERATED = _plain is not plain_pieces


def check_knock(knocker: str, held: int, melds: list[int] | None, variant: Variant, rules: Rules,
                upcard: int | None, eleven: bool | None = None,
                accepted: bool = False) -> tuple[str, list[Arrangement]]:
    """Check that a knock is legal (RULES.md "Going out"): the knocker's hand after
    the knock discard (10 cards, or 11 for big gin) and declared melds, if any.
    ``eleven``: whether the knock is big gin (no discard), where the number of
    cards held does not say (a hand found irregular); ``accepted``: the opponent
    accepted the knock although its count is above the knock limit.

    Returns the outcome so far (``knock``, ``gin`` or ``big_gin``) and the
    knocker's arrangements to choose from: the declared one, or every one of
    minimum deadwood. Raises :class:`RecordError` (rule ``knock-over-limit``,
    ``big-gin-off``, ``big-gin-not-melded``) when the knock is not legal.
    """
    solver = rules.melds
    candidates = [_as_arrangement(held, melds, solver)] if melds is not None else solver.min_arrangements(held)
    dw = candidates[0].deadwood
    if held.bit_count() == 11 if eleven is None else eleven:
        if rules["big_gin_bonus"] == OFF:
            raise RecordError(f"{knocker} holds 11 cards (big gin), but big gin is off "
                              "(set the option big_gin_bonus to play it)", rule="big-gin-off")
        if dw:
            raise RecordError(f"{knocker} holds 11 cards, which is only legal for big gin, "
                              f"but they leave {dw} deadwood", rule="big-gin-not-melded")
        return "big_gin", candidates
    limit = variant.checked_knock_limit(rules, upcard)
    if dw > limit and not accepted:
        if limit == 0:
            raise RecordError(f"{knocker} knocked with {dw} deadwood, but only gin may end a hand "
                              f"here ({_limit_reason(variant, rules, upcard)})", rule="knock-over-limit")
        raise RecordError(f"{knocker} knocked with {dw} deadwood, over the knock limit of {limit}",
                          rule="knock-over-limit")
    return ("gin" if dw == 0 else "knock"), candidates


def _limit_reason(variant: Variant, rules: Rules, upcard: int | None) -> str:
    if rules["knock_limit"] == "upcard" and upcard is not None and upcard % 13 == 0:
        return f"the first upcard {card_str(upcard)} is an ace"
    return f"the variant {variant.name} allows no knock with deadwood"


def declared_melds(name: str, held: int, melds: list[int] | None,
                   solver: MeldSolver = STANDARD) -> list[int] | None:
    """A player's declared melds, checked: each a real meld (under ``solver``'s
    rules) of cards held, no card twice."""
    if melds is None:
        return None
    used = 0
    for meld in melds:
        if not solver.is_meld(meld):
            raise RecordError(f"{name}'s meld [{' '.join(card_str(x) for x in _no_meld_in_order(meld))}] "
                              f"is not a meld ({solver.words})", rule="not-a-meld")
        if meld & ~held:
            names = " ".join(card_str(c) for c in meld_cards_in_order(meld))
            missing = card_str(cards_of(meld & ~held)[0])
            raise RecordError(f"{name}'s meld [{names}] uses {missing}, which {name} does not hold",
                              rule="meld-not-held")
        if meld & used:
            twice = card_str(cards_of(meld & used)[0])
            raise RecordError(f"{name} uses {twice} in two melds", rule="meld-card-reused")
        used |= meld
    return list(melds)


def _as_arrangement(held: int, melds: list[int], solver: MeldSolver = STANDARD) -> Arrangement:
    used = 0
    for m in melds:
        used |= m
    rest = held & ~used
    return Arrangement(solver.mask_value(rest), tuple(melds), rest)


def _no_meld_in_order(cards: int) -> list[int]:
    """Cards declared as a meld that is none, as a meld would be written: one
    suit in sequence, else by rank (none, for an empty one)."""
    held = cards_of(cards)
    if held and held[-1] // 13 == held[0] // 13:
        return in_sequence(held)
    return by_rank(held)


def meld_cards_in_order(meld: int) -> list[int]:
    """A meld's cards as written (a run in sequence, round the corner too)."""
    return [CARD_TABLE[n] for n in meld_info(meld).names]


def check_meld(cards: list[int], owner: str, solver: MeldSolver | None = None) -> int:
    """A declared meld's card mask: its cards distinct, and, with ``solver``, a
    meld under its rules (:class:`RecordError` when not). Records and
    transcripts are read before their rules are known: their melds are checked
    when scored (:func:`declared_melds`)."""
    mask = 0
    for c in cards:
        if mask >> c & 1:
            raise RecordError(f"{owner}'s meld [{' '.join(card_str(x) for x in cards)}] lists {card_str(c)} twice",
                              rule="not-a-meld")
        mask |= 1 << c
    if solver is not None and not solver.is_meld(mask):
        raise RecordError(f"{owner}'s meld [{' '.join(card_str(x) for x in cards)}] is not a meld ({solver.words})",
                          rule="not-a-meld")
    return mask


__all__ = ["Position", "Spread", "HandResult", "score_position", "dead_hand", "deadwood", "check_meld"]
