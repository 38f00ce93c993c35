"""Moves a plugin adds to a hand: the :class:`MoveSet`.

The hand engine knows the moves of the rule book (pass, draw, discard, knock,
layoff). A move set adds others, with their rules in one place: RULES.md's
doubling (``double``, ``accept``, ``decline``) is the built-in one, registered
through the ``gincli_register_moves`` hook like any plugin's. A move set says

- which options it adds to every variant, and whether those rules turn it on
  (:meth:`MoveSet.enabled`);
- its public state in each hand (:meth:`start`: a JSON-able dict, copied into
  every player's view as ``view.extensions[name]`` and shown to external bots);
- when its moves are legal (:meth:`legal`, from a player's view alone), and
  when an answer is due so that only its moves are (:meth:`answer_due`);
- what its moves do (:meth:`apply`, on the hand: its state, whose turn it is,
  and possibly the end of the hand with :meth:`Hand.end <gincli.hand.engine.Hand.end>`),
  and what it forbids of the standard moves meanwhile (:meth:`check`);
- which standard moves its rules take out of what a player may do
  (:meth:`forbids`: consulted by ``legal()``, the external protocol's ``legal``,
  ``gin play``'s prompt and hints, the built-in bots, and enforced on every move);
- each move once it is played, standard or its own (:meth:`played`), so that its
  state follows the hand and never has to be guessed;
- how a finished hand's result changes (:meth:`finish`: points, and fields of
  its own written in score results and transcripts);
- how hand records (``gin score``) carry it (:meth:`from_record`,
  :meth:`score_record`) and which fields and outcomes are its own;
- the rule ids its faults carry (``gin validate``) and how people read its
  results (:meth:`explain`).

Its moves are transcript moves like any other: ``{"player": ..., "action": ...}``
and any fields of their own (``Move.fields``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..base.contract import breach, call, json_state, truth
from ..rulebook.rules import Option, Rules

if TYPE_CHECKING:
    from ..rulebook.scoring import HandResult, Position
    from ..rulebook.variant import Variant
    from .engine import Hand
    from .moves import IllegalMove, Move
    from .view import PlayerView


class MoveSet:
    """Moves a plugin adds to a hand. Subclass it, set the attributes, override
    the methods its moves need, and register an instance through the
    ``gincli_register_moves`` hook."""

    #: Unique name; also the key of its state in ``view.extensions``.
    name: str = ""
    description: str = ""
    #: The actions it adds (transcript ``action`` values); none may be a standard one.
    actions: tuple[str, ...] = ()
    #: Options it adds to every variant of play (settable like any option).
    options: tuple[Option, ...] = ()
    #: Hand outcomes it adds (``score result`` ``outcome`` values).
    outcomes: tuple[str, ...] = ()
    #: Hand-record fields it reads (``gin score``); a record holding one while the
    #: move set is off is an error, never silently scored without it.
    record_fields: tuple[str, ...] = ()
    #: The rule ids of its faults, with what each means (docs/validate.md lists them).
    rule_ids: Mapping[str, str] = {}
    #: Short commands for its moves in ``gin play`` (action -> a letter or word;
    #: the action's own name is always understood).
    keys: Mapping[str, str] = {}
    source: str = "built-in"

    def enabled(self, rules: Rules) -> bool:
        """Whether these rules play with it (usually one of its options)."""
        return False

    def start(self, rules: Rules) -> dict[str, Any]:
        """Its public state at the start of a hand (JSON-able values)."""
        return {}

    def legal(self, view: PlayerView) -> list[Move]:
        """Its moves that ``view.me`` may make now (``view.extensions[self.name]``
        holds its state)."""
        return []

    def answer_due(self, view: PlayerView) -> bool:
        """Whether ``view.me`` must answer with one of its moves (then no other
        move is legal)."""
        return False

    def expecting(self, hand: Hand) -> str | None:
        """What the player to act must do, in words, when this move set decides
        it (an answer is due); else None."""
        return None

    def check(self, hand: Hand, move: Move) -> None:
        """Called before every standard move; raise :class:`~gincli.hand.moves.IllegalMove`
        with one of its :attr:`rule_ids` to refuse it (while an answer is due, say).
        ``view.legal()`` never offers a move it refuses: gincli asks it of each
        move of the player to act. A rule the player's view decides belongs in
        :meth:`forbids`."""

    def forbids(self, view: PlayerView, move: Move) -> str | None:
        """Whether its rules take the standard move ``move`` (a pass, draw, discard or
        knock of ``view.me``, at their turn) out of what ``view.me`` may do now: one
        of its :attr:`rule_ids`, saying why, or None to allow it (the rule book's
        own rules are checked apart). ``view.legal()`` never offers a move it
        forbids, and the hand refuses one with that rule id. It may not forbid
        every move a player has."""
        return None

    def played(self, hand: Hand, move: Move) -> None:
        """Told of every move once the hand has played it (a standard move or one of
        its own): change its state, ``hand.extensions[self.name]``, in place."""

    def apply(self, hand: Hand, move: Move) -> None:
        """Play one of its moves on ``hand`` (its state is ``hand.extensions[self.name]``);
        raise :class:`~gincli.hand.moves.IllegalMove` with one of its rule ids when the
        rules forbid it (the hand must then be unchanged)."""
        raise NotImplementedError

    def finish(self, state: Mapping[str, Any], result: HandResult, rules: Rules) -> HandResult:
        """A finished hand's result, changed as this move set says (by its state at
        the end): its points, and its own fields in ``result.fields``."""
        return result

    def from_record(self, record: Mapping[str, Any], pos: Position, rules: Rules) -> dict[str, Any]:
        """Its state at the end of the hand a hand record describes (``gin score``);
        raise :class:`~gincli.base.errors.RecordError` when the record's fields are wrong."""
        return self.start(rules)

    def score_record(self, state: Mapping[str, Any], record: Mapping[str, Any], pos: Position,
                     variant: Variant, rules: Rules) -> HandResult | None:
        """The result of a record whose hand ended by one of its moves (then
        :meth:`finish` is not applied), or None to score it as usual."""
        return None

    def status(self, view: PlayerView) -> str | None:
        """Its state as a player reads it at the table (``gin play``), from their
        view; None to show nothing."""
        return None

    def explain(self, result: HandResult) -> str | None:
        """Where the points of a hand that ended by one of its outcomes come from,
        in words, for people; None for the other outcomes."""
        return None

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r}>"

    # -- gincli calls a move set through these: plugin code, checked where it crosses ---------
    # (a move set does not override them; the engine, the views and the hand records call them,
    # so that none of those needs to know this module)

    def _what(self, method: str) -> str:
        return f"the move set {self.name}'s {method}()"

    def checked_start(self, rules: Rules) -> dict[str, Any]:
        state = call(self, self._what("start"), self.start, rules)
        if not isinstance(state, dict):
            raise breach(self, self._what("start"), state, "a dict (its public state)")
        return json_state(self, self._what("start"), state)

    def checked_legal(self, view: PlayerView) -> list[Move]:
        from .moves import Move

        moves = call(self, self._what("legal"), self.legal, view)
        if not isinstance(moves, list) or not all(isinstance(m, Move) and m.player == view.me for m in moves):
            raise breach(self, self._what("legal"), moves, "a list of the player's moves (gincli.Move)")
        for m in moves:
            if m.fields:  # sent to external bots, written in transcripts
                json_state(self, self._what("legal"), m.fields, f"returned a {m.action} move whose fields are not JSON")
        return [m.shown() for m in moves]  # as the move set is shown them when they are played

    def checked_answer_due(self, view: PlayerView) -> bool:
        return truth(self, self._what("answer_due"), call(self, self._what("answer_due"), self.answer_due, view))

    def checked_expecting(self, hand: Hand) -> str | None:
        text = call(self, self._what("expecting"), self.expecting, hand)
        if text is not None and not isinstance(text, str):
            raise breach(self, self._what("expecting"), text, "a sentence or None")
        return text

    def checked_check(self, hand: Hand, move: Move) -> None:
        call(self, self._what("check"), self.check, hand, move)

    def checked_apply(self, hand: Hand, move: Move) -> None:
        call(self, self._what("apply"), self.apply, hand, move)
        json_state(self, self._what("apply"), hand.extensions.get(self.name), "left its state not JSON")

    @property
    def restricts(self) -> bool:
        """Whether it overrides :meth:`forbids` (else nothing need ask it)."""
        return type(self).forbids is not MoveSet.forbids

    @property
    def checks(self) -> bool:
        """Whether it overrides :meth:`check`."""
        return type(self).check is not MoveSet.check

    @property
    def listens(self) -> bool:
        """Whether it overrides :meth:`played`."""
        return type(self).played is not MoveSet.played

    def checked_forbids(self, view: PlayerView, move: Move) -> str | None:
        rule = call(self, self._what("forbids"), self.forbids, view, move)
        if rule is not None and (not isinstance(rule, str) or rule not in self.rule_ids):
            ids = ", ".join(self.rule_ids) or "none declared"
            raise breach(self, self._what("forbids"), rule, f"None or one of its rule_ids ({ids})")
        return rule

    def refusal(self, move: Move, rule: str) -> IllegalMove:
        """The error for a standard move its :meth:`forbids` refused (rule id ``rule``)."""
        from .moves import IllegalMove

        return IllegalMove(rule, f"{move.player} may not {move.action} now: the move set {self.name} forbids "
                                 f"{self.rule_ids[rule]}")

    def checked_played(self, hand: Hand, move: Move) -> None:
        out = call(self, self._what("played"), self.played, hand, move)
        if out is not None:
            raise breach(self, self._what("played"), out,
                         f"None (it changes its state, hand.extensions[\"{self.name}\"], in place)")
        if not isinstance(hand.extensions.get(self.name), dict):
            raise breach(self, self._what("played"), hand.extensions.get(self.name),
                         "a state that stays a dict (hand.extensions[name])")

    def checked_finish(self, state: Mapping[str, Any], result: HandResult, rules: Rules) -> HandResult:
        from ..rulebook.scoring import HandResult

        out = call(self, self._what("finish"), self.finish, state, result, rules)
        if not isinstance(out, HandResult) or type(out.points) is not int or out.points < 0:
            raise breach(self, self._what("finish"), out, "a gincli.HandResult with whole points")
        if out.fields:  # written in score results and transcripts
            json_state(self, self._what("finish"), out.fields, "returned a result whose fields are not JSON")
        return out

    def checked_from_record(self, record: Mapping[str, Any], pos: Position, rules: Rules) -> dict[str, Any]:
        state = call(self, self._what("from_record"), self.from_record, record, pos, rules)
        if not isinstance(state, dict):
            raise breach(self, self._what("from_record"), state, "a dict (its state)")
        return state

    def checked_score_record(self, state: Mapping[str, Any], record: Mapping[str, Any], pos: Position,
                             variant: Variant, rules: Rules) -> HandResult | None:
        from ..rulebook.scoring import HandResult

        out = call(self, self._what("score_record"), self.score_record, state, record, pos, variant, rules)
        if out is not None and (not isinstance(out, HandResult) or type(out.points) is not int or out.points < 0):
            raise breach(self, self._what("score_record"), out, "None or a gincli.HandResult with whole points")
        if out is not None and out.fields:
            json_state(self, self._what("score_record"), out.fields, "returned a result whose fields are not JSON")
        return out
