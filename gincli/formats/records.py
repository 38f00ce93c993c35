"""Hand records (FORMATS.md, "Hand record"): parsing and scoring one record.

Every way a record can be wrong becomes a :class:`RecordError` with one
sentence, which ``gin score`` writes as that record's ``error`` entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Generic, Protocol, TypeVar

from ..base.contract import PluginFault, plugin_of
from ..base.errors import GinError, RecordError, quote
from ..base.jsonio import fast_loads, scan_object as _scan
from ..rulebook.cards import CARD_BITS, CARD_TABLE, card_str, parse_card, parse_cards
from ..rulebook.irregular import TableHand
from ..rulebook.rules import Rules
from ..rulebook.scoring import HandResult, Position, check_meld, result_plain, score_plain, score_position
from ..rulebook.variant import Variant

if TYPE_CHECKING:
    from ..hand.moveset import MoveSet


def parse_position(record: Mapping[str, Any]) -> Position:
    """Read a hand record's end position; :class:`RecordError` if it is malformed."""
    hands = record.get("hands")
    if not isinstance(hands, dict):
        if isinstance(record.get("format"), str) and record["format"].startswith("gincli-transcript"):
            raise RecordError("this is a transcript, not a hand record: replay and check it with gin validate")
        raise RecordError("a hand record needs \"hands\": an object of two players, name -> list of cards")
    if len(hands) != 2:
        raise RecordError(f"a hand record needs exactly two players in \"hands\", not {len(hands)}")
    players = tuple(hands)
    masks: dict[str, int] = {}
    bits = CARD_BITS.__getitem__
    for name, cards in hands.items():
        try:
            # A sum of distinct bits has as many bits set as there are cards; a card twice carries.
            mask = sum(map(bits, cards)) if type(cards) is list else -1
        except (KeyError, TypeError):
            mask = -1
        if mask < 0 or mask.bit_count() != len(cards):
            mask = _slow_mask(name, cards)
        masks[name] = mask
    both = masks[players[0]] & masks[players[1]]
    if both:
        c = (both & -both).bit_length() - 1
        raise RecordError(f"{card_str(c)} is in both {players[0]}'s and {players[1]}'s hands")

    knocker = record.get("knocker")
    if knocker is not None and (not isinstance(knocker, str) or knocker not in masks):
        what = "is not a player" if isinstance(knocker, str) else "must be a player's name"
        raise RecordError(f"the knocker {quote(knocker)} {what} (the players are {players[0]} and {players[1]})")

    upcard = record.get("upcard")
    if upcard is not None:
        try:
            upcard = CARD_TABLE[upcard] if type(upcard) is str and upcard in CARD_TABLE else parse_card(upcard)
        except RecordError as exc:
            raise RecordError(f"upcard: {exc}") from None

    melds: dict[str, list[int]] = {}
    declared = record.get("melds")
    if declared is not None:
        if not isinstance(declared, dict):
            raise RecordError("\"melds\" must be an object: player name -> list of melds")
        for name, lists in declared.items():
            if name not in masks:
                raise RecordError(f"melds are given for {quote(name)}, who is not a player")
            if not isinstance(lists, list):
                raise RecordError(f"{name}'s melds must be a list of melds (each a list of cards)")
            melds[name] = [check_meld(parse_cards(m, f"a meld of {name}'s"), name) for m in lists]

    layoffs = record.get("layoffs")
    if layoffs is not None:
        layoffs = parse_cards(layoffs, "layoffs")
        if knocker is not None:
            defender = players[1] if knocker == players[0] else players[0]
            for c in layoffs:
                if not masks[defender] >> c & 1:
                    raise RecordError(f"layoff {card_str(c)} is not in {defender}'s hand")
    return Position(players, masks, knocker, upcard, melds, layoffs)


def irregular_counts(record: Mapping[str, Any], pos: Position, rules: Rules) -> TableHand | None:
    """A record marked ``"irregular": true`` (FORMATS.md): each player whose number
    of cards is wrong, with the number they should hold, for the end-of-hand rule
    (the knocker's eleven cards are big gin where big gin is on and they all
    meld); None for a record not so marked."""
    mark = record.get("irregular")
    if mark is None or mark is False:
        return None
    if mark is not True:
        raise RecordError(f"\"irregular\" must be true or false, not {quote(mark)}")
    right: dict[str, int] = {}
    for name in pos.players:
        held = pos.hands[name]
        should = 10
        if (name == pos.knocker and held.bit_count() == 11 and rules["big_gin_bonus"] != "off"
                and rules.melds.deadwood(held) == 0):
            should = 11
        if held.bit_count() != should:
            right[name] = should
    return TableHand(right)


def _slow_mask(name: str, cards: Any) -> int:
    """A hand's mask, card by card, raising the precise error."""
    mask = 0
    for c in parse_cards(cards, f"{name}'s hand"):
        bit = 1 << c
        if mask & bit:
            raise RecordError(f"{card_str(c)} appears twice in {name}'s hand")
        mask |= bit
    return mask


_CARD_BIT = CARD_BITS.__getitem__


#: A scoring system, as this layer sees one: what a :class:`RuleSource` names,
#: handed back to it to make rules (the sessions layer, above, says what one is).
System = TypeVar("System")
_T = TypeVar("_T")


class RuleSource(Protocol[System]):
    """The rules of play, from the plugins (the registry is one, handed down
    by the command): a variant and a scoring system by name (an unknown one is
    a :class:`~gincli.base.errors.UsageError`), and the rules they make with
    the options given (a bad one is a ``ValueError``, one sentence)."""

    def variant(self, name: str, files: bool = True) -> Variant: ...

    def scoring(self, name: str) -> System: ...

    def rules(self, variant: Variant, scoring: System, overrides: Mapping[str, Any] | None = None,
              where: str = "--option") -> Rules: ...


class RecordSource(RuleSource[System], Protocol):
    """What scoring hand records needs of the plugins: the rules, and every
    move set (the record fields and outcomes each claims, on or off)."""

    @property
    def movesets(self) -> Mapping[str, MoveSet]: ...  # read only: the registry's dict[str, MoveSet] is one


class HandScorer(Generic[System]):
    """Scores hand records under a default variant, a scoring system and option
    overrides, caching the rules of each variant it meets."""

    def __init__(self, registry: RecordSource[System], variant: str | None, scoring: str = "game",
                 overrides: Mapping[str, Any] | None = None, where: str = "--option"):
        self.registry = registry
        self.default_variant = variant or "standard"
        self.scoring = registry.scoring(scoring)
        self.overrides = overrides if isinstance(overrides, dict) else dict(overrides or {})
        self.where = where  # how a bad override's sentence names the overrides: --option, or options
        self._cache: dict[str, tuple[Variant, Rules]] = {}
        #: A plugin's fault in the rules of a variant, by its name: the fault of every record it touches.
        self._faults: dict[str, PluginFault] = {}
        #: The variants without move sets met so far, by the name a record gives
        #: (None: the default), for :meth:`score_line`.
        self._plain: dict[str | None, tuple[Variant, Rules]] = {}
        owned = {f for ms in registry.movesets.values() for f in ms.record_fields}
        #: Fields of a record that no move set claims ("outcome" is checked the long way).
        self._plain_fields = frozenset({"id", "variant", "hands", "knocker", "upcard", "melds", "layoffs"} - owned
                                       - {"outcome"})
        #: Fields of a record :meth:`score_line` takes (nothing declared).
        self._lane_fields = self._plain_fields - {"melds", "layoffs"}
        # Fail early, for the whole run, on a bad --variant or --option; a plugin's fault in
        # making the rules is each record's
        try:
            self._rules_for(self.default_variant, usage=True)
        except PluginFault:
            if self.default_variant not in self._faults:
                raise

    def _rules_for(self, name: str, usage: bool = False) -> tuple[Variant, Rules]:
        """A variant's rules under the overrides. A plugin's fault in making them (its
        meld rules' data, an option of a plugin left out) is every record's that
        asks for them, never the run's: each gets the error, the others are scored."""
        cached = self._cache.get(name)
        if cached is not None:
            return cached
        fault = self._faults.get(name)
        if fault is not None:
            raise fault
        try:
            variant = self.registry.variant(name, files=usage)  # a record may not name a file
        except GinError as exc:
            if usage or isinstance(exc, PluginFault):
                raise
            raise RecordError(exc.message) from None
        try:
            rules = self.registry.rules(variant, self.scoring, self.overrides, where=self.where)
        except ValueError as exc:
            from ..base.errors import UsageError

            raise UsageError(str(exc)) from None
        except PluginFault as exc:
            self._faults[name] = exc
            raise
        self._cache[name] = (variant, rules)
        if not rules.movesets:  # the hot path's: a record naming it, or none for the default
            self._plain[name] = (variant, rules)
            if name == self.default_variant:
                self._plain[None] = (variant, rules)
        return variant, rules

    def score(self, record: Mapping[str, Any]) -> HandResult:
        """Score one record; :class:`RecordError` when it cannot be scored."""
        name = record.get("variant")
        if name is None:
            name = self.default_variant
        elif not isinstance(name, str):
            raise RecordError("\"variant\" must be a string")
        variant, rules = self._rules_for(name)
        pos = parse_position(record)
        self._check_fields(record, rules)
        outcome = record.get("outcome")
        table = irregular_counts(record, pos, rules)
        if not rules.movesets:
            if outcome is not None:
                raise self._unclaimed(outcome, rules)
            return score_position(pos, variant, rules, record.get("id"), table)
        states = {ms.name: ms.checked_from_record(record, pos, rules) for ms in rules.movesets}
        for ms in rules.movesets:  # a hand ended by a move set's move (a declined double)
            ended = ms.checked_score_record(states[ms.name], record, pos, variant, rules)
            if ended is not None:
                return replace(ended, id=record.get("id")) if ended.id != record.get("id") else ended
        if outcome is not None:  # an outcome the cards never give, that no move set scored: never a dead hand
            raise self._unclaimed(outcome, rules)
        result = score_position(pos, variant, rules, record.get("id"), table)
        for ms in rules.movesets:
            result = ms.checked_finish(states[ms.name], result, rules)
        return result

    def score_line(self, raw: bytes) -> tuple[str, str, str | None, int, str, str] | None:
        """A JSON Lines record, read raw, straight to its result's JSON text and
        outcome (then its winner, points and two players): the hot path of ``gin score --format json``. Only for the
        common record (an object of id, variant, hands, knocker and upcard, well
        formed, under a variant without move sets, ten cards each); None for any
        other, or on any error: the careful way (parse the line, :meth:`score`,
        ``to_json``) then gives the same result, or the error in its exact words."""
        plain = self._plain_record(raw)
        return None if plain is None else score_plain(*plain)

    def plain_line(self, raw: bytes, make: Callable[..., _T | None]) -> _T | None:
        """``make(*plain)`` of a JSON Lines record read raw, ``plain`` as
        :meth:`score_line` reads it (the players, their cards, the knocker, the
        upcard, the variant, its rules and the id): a face's own hot path (``gin
        score`` for people); None for any other record."""
        plain = self._plain_record(raw)
        return None if plain is None else make(*plain)

    def result_line(self, raw: bytes) -> tuple[HandResult, str, str] | None:
        """A JSON Lines record, read raw, straight to its result and its two
        players, as :meth:`score_line` takes it: the hot path of ``gin score``
        for people and as CSV. None for any other record: the careful way then
        gives the same result, or the error."""
        plain = self._plain_record(raw)
        if plain is None:
            return None
        result = result_plain(*plain)
        return None if result is None else (result, plain[0], plain[1])

    def _plain_record(self, raw: bytes) -> tuple[str, str, int, int, str | None, int | None, Variant, Rules,
                                                  Any] | None:
        """The common record's players, their cards (masks), the knocker, the
        upcard, the variant and its rules, and the id; None for any other record."""
        if fast_loads is not None:
            record = fast_loads(raw)  # past 64 bits an integer is a float here: the id is checked below
            if type(record) is not dict:
                return None
        else:
            text = raw.decode().rstrip()
            if text[:1] != "{":
                return None
            record, end = _scan(text, 0)
            if end != len(text):
                return None
        if not self._lane_fields.issuperset(record):
            return None
        cached = self._plain.get(record.get("variant"))
        if cached is None:
            return None
        hands = record["hands"]
        if type(hands) is not dict or len(hands) != 2:
            return None
        (p0, c0), (p1, c1) = hands.items()
        if type(c0) is not list or type(c1) is not list:
            return None
        bits = _CARD_BIT
        m0 = sum(map(bits, c0))  # KeyError, TypeError: not cards, the careful way says which
        m1 = sum(map(bits, c1))
        if m0.bit_count() != len(c0) or m1.bit_count() != len(c1) or m0 & m1:
            return None
        knocker = record.get("knocker")
        if knocker is not None and knocker != p0 and knocker != p1:
            return None
        upcard = record.get("upcard")
        if upcard is not None:
            upcard = CARD_TABLE.get(upcard) if type(upcard) is str else None
            if upcard is None:
                return None
        ident = record.get("id")
        if ident is not None and type(ident) is not str and type(ident) is not int:
            return None  # a float, a list, an object: json's reading, the careful way
        return p0, p1, m0, m1, knocker, upcard, cached[0], cached[1], ident

    def movesets(self, result: HandResult) -> tuple[Any, ...]:
        """The move sets in play where ``result`` was scored (to explain its outcome)."""
        cached = self._cache.get(result.variant)
        return tuple(cached[1].movesets) if cached else ()

    @staticmethod
    def _unclaimed(outcome: Any, rules: Any) -> RecordError:
        """The error of a record whose ``outcome`` no move set in play scored."""
        for ms in rules.movesets:
            if isinstance(outcome, str) and outcome in ms.outcomes:
                return PluginFault(f"plugin \"{plugin_of(ms)}\": the outcome {quote(outcome)} is the move set "
                                   f"{ms.name}'s, but its score_record() gave this record no result")
        return RecordError(f"no move set in play has the outcome {quote(outcome)}: \"outcome\" in a hand record "
                           "is a move set's (\"declined\" under doubling); the others come from the cards")

    def _check_fields(self, record: Mapping[str, Any], rules: Any) -> None:
        """A record holding a field or outcome of a move set that is off is an
        error: it would otherwise be scored without it."""
        if self._plain_fields.issuperset(record):  # the common record: nothing a move set could own
            return
        on = {ms.name for ms in rules.movesets}
        for ms in self.registry.movesets.values():
            if ms.name in on:
                continue
            given = [f for f in ms.record_fields if f in record]
            if given or record.get("outcome") in ms.outcomes:
                what = f"\"{given[0]}\"" if given else f"the outcome \"{record.get('outcome')}\""
                raise RecordError(f"{what} belongs to {ms.name}, which is off for this variant (turn it on with "
                                  f"--option {ms.options[0].name}=true, or a variant that plays it)"
                                  if ms.options else f"{what} belongs to {ms.name}, which is off here")
