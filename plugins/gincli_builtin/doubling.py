"""Built-in plugin: doubling gin (RULES.md "Doubling"), a move set written against
gincli's public API alone, like any plugin's.

At the start of a turn, before drawing (or before taking or refusing the first
upcard), the player to act may offer to double, if they may: the first offer
may come from either player; after an offer is accepted, only the player who
accepted it may offer the next; ``max_multiplier`` caps the stake. The opponent
accepts (the multiplier doubles and the offering player goes on) or declines:
the hand ends and the offerer wins ``decline_bonus`` plus the difference of
the two players' deadwood when it is in the offerer's favour, times the
multiplier in force before the offer. Any other end is scored as usual and
multiplied; game, box and shutout bonuses never are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from gincli import OFF, HandResult, IllegalMove, Move, MoveSet, Option, RecordError, Rules, hookimpl
from gincli.base.errors import plural, quote

OFFERING = ("offer", "draw")  # the phases of a turn's start: the first upcard, or the draw


def declined_points(offerer_deadwood: int, decliner_deadwood: int, multiplier: int, rules: Rules) -> int:
    """What a declined double is worth to the player who offered it."""
    return (rules["decline_bonus"] + max(0, decliner_deadwood - offerer_deadwood)) * multiplier


def _notes(decliner: str, offerer_deadwood: int, decliner_deadwood: int, rules: Rules) -> dict[str, Any]:
    """What the explanation of a declined double shows its arithmetic with."""
    return {"decliner": decliner, "bonus": rules["decline_bonus"], "offerer_deadwood": offerer_deadwood,
            "decliner_deadwood": decliner_deadwood}


class Doubling(MoveSet):
    name = "doubling"
    description = "Doubling gin: offer to double the stake at the start of a turn; accept, or decline and lose."
    actions = ("double", "accept", "decline")
    options = (
        Option("doubling", False, "play with the doubling cube: double, accept, decline", "bool"),
        Option("max_multiplier", OFF, "the highest stake a double may reach (\"off\": no limit)", "int-or-off"),
        Option("decline_bonus", 10, "what declining a double costs, before the deadwood difference"),
    )
    outcomes = ("declined",)
    record_fields = ("multiplier", "offerer")
    rule_ids = {
        "double-out-of-turn": "an offer to double by a player who is not at the start of their own turn",
        "double-not-yours": "an offer to double by the player who did not accept the last one",
        "double-over-cap": "an offer to double past max_multiplier",
        "answer-expected": "a move other than accept or decline while an offer to double waits for its answer",
        "no-offer-pending": "an accept or decline with no offer to double to answer",
    }

    keys = {"double": "x", "accept": "y", "decline": "n"}

    def enabled(self, rules: Rules) -> bool:
        return bool(rules.get("doubling"))

    def start(self, rules: Rules) -> dict[str, Any]:
        cap = rules["max_multiplier"]
        # offer: who offered and waits for the answer; holder: who may offer next (None: either)
        return {"multiplier": 1, "offer": None, "holder": None, "max_multiplier": None if cap == OFF else cap}

    # -- what a player may do ---------------------------------------------------------------

    @staticmethod
    def _capped(state: Mapping[str, Any]) -> bool:
        cap = state["max_multiplier"]
        return cap is not None and state["multiplier"] * 2 > cap

    def legal(self, view: Any) -> list[Move]:
        state = view.extensions[self.name]
        if state["offer"] is not None:
            return [Move(view.me, "accept"), Move(view.me, "decline")] if state["offer"] != view.me else []
        if view.phase in OFFERING and state["holder"] in (None, view.me) and not self._capped(state):
            return [Move(view.me, "double")]
        return []

    def answer_due(self, view: Any) -> bool:
        offer = view.extensions[self.name]["offer"]
        return offer is not None and offer != view.me

    def expecting(self, hand: Any) -> str | None:
        offer = hand.extensions[self.name]["offer"]
        return f"accept or decline {offer}'s double" if offer is not None else None

    def check(self, hand: Any, move: Move) -> None:
        offer = hand.extensions[self.name]["offer"]
        if offer is not None:
            answerer = hand.other(offer)
            raise IllegalMove("answer-expected", f"{move.player} made a {move.action} move, but {answerer} must "
                                                 f"first accept or decline {offer}'s double")

    # -- what the moves do ---------------------------------------------------------------

    def apply(self, hand: Any, move: Move) -> None:
        state = hand.extensions[self.name]
        player = move.player
        if move.action == "double":
            if state["offer"] is not None:
                self.check(hand, move)
            if player != hand.to_act or hand.phase not in OFFERING:
                raise IllegalMove("double-out-of-turn", f"{player} offered to double, but offers come at the "
                                                        "start of one's own turn, before drawing")
            if state["holder"] not in (None, player):
                raise IllegalMove("double-not-yours", f"{player} offered to double, but only {state['holder']}, "
                                                      "who accepted the last double, may offer the next")
            if self._capped(state):
                raise IllegalMove("double-over-cap", f"{player} offered to double the stake of "
                                                     f"{state['multiplier']}, past max_multiplier "
                                                     f"{state['max_multiplier']}")
            state["offer"] = player
            hand.to_act = hand.other(player)
            return
        offerer = state["offer"]
        if offerer is None:
            raise IllegalMove("no-offer-pending", f"{player} answered ({move.action}) with no offer to double "
                                                  "to answer")
        if player != hand.other(offerer):
            raise IllegalMove("out-of-turn", f"{player} answered their own offer to double; "
                                             f"{hand.other(offerer)} answers it")
        if move.action == "accept":
            state["multiplier"] *= 2
            state["holder"] = player
            state["offer"] = None
            hand.to_act = offerer
            return
        multiplier = state["multiplier"]
        deadwood = hand.rules.melds.deadwood
        mine, theirs = deadwood(hand.hands[offerer]), deadwood(hand.hands[player])
        points = declined_points(mine, theirs, multiplier, hand.rules)
        state["offer"] = None
        hand.end(HandResult("declined", offerer, points, None, None, hand.variant.name, multiplier=multiplier,
                            fields={"multiplier": multiplier, "offerer": offerer},
                            notes=_notes(player, mine, theirs, hand.rules)))

    def finish(self, state: Mapping[str, Any], result: HandResult, rules: Rules) -> HandResult:
        m = state["multiplier"]
        result.points *= m
        result.multiplier *= m
        result.fields = {**(result.fields or {}), "multiplier": m}
        return result

    # -- hand records ------------------------------------------------------------------------

    def from_record(self, record: Mapping[str, Any], pos: Any, rules: Rules) -> dict[str, Any]:
        state = self.start(rules)
        m = record.get("multiplier", 1)
        if type(m) is not int or m < 1 or m & (m - 1):
            raise RecordError(f"\"multiplier\" must be 1, 2, 4, 8… (a stake doubled whole times), not {quote(m)}")
        if state["max_multiplier"] is not None and m > state["max_multiplier"]:
            raise RecordError(f"\"multiplier\" {m} is past max_multiplier {state['max_multiplier']}")
        state["multiplier"] = m
        outcome = record.get("outcome")
        if outcome is not None and outcome != "declined" and not any(outcome in ms.outcomes for ms in rules.movesets):
            raise RecordError("\"outcome\" in a hand record may only be \"declined\" (a declined double); the "
                              "other outcomes come from the cards")
        offerer = record.get("offerer")
        if outcome == "declined":
            if not isinstance(offerer, str) or offerer not in pos.hands:
                raise RecordError("a declined hand needs \"offerer\": the player who offered the double")
            if pos.knocker is not None:
                raise RecordError("a declined hand has no knocker: it ended when the double was declined")
            state["offer"] = offerer
        elif offerer is not None:
            raise RecordError("\"offerer\" is only for a declined hand (\"outcome\": \"declined\")")
        return state

    def score_record(self, state: Mapping[str, Any], record: Mapping[str, Any], pos: Any, variant: Any,
                     rules: Rules) -> HandResult | None:
        offerer = state["offer"]
        if offerer is None:
            return None
        decliner = next(p for p in pos.players if p != offerer)
        for name in pos.players:
            if pos.hands[name].bit_count() != 10:
                raise RecordError(f"{name} holds {plural(pos.hands[name].bit_count(), 'card')}; a double is offered "
                                  "and declined with 10 each", rule="hand-size")
        m = state["multiplier"]
        deadwood = rules.melds.deadwood
        mine, theirs = deadwood(pos.hands[offerer]), deadwood(pos.hands[decliner])
        points = declined_points(mine, theirs, m, rules)
        return HandResult("declined", offerer, points, None, None, variant.name, record.get("id"), multiplier=m,
                          fields={"multiplier": m, "offerer": offerer}, notes=_notes(decliner, mine, theirs, rules))

    def status(self, view: Any) -> str | None:
        state = view.extensions[self.name]
        text = f"stake ×{state['multiplier']}"
        if state["offer"] is not None:
            text += f" · {state['offer']} offers to double"
        elif state["holder"] is not None:
            text += f" · only {state['holder']} may double next"
        if state["max_multiplier"] is not None:
            text += f" (at most ×{state['max_multiplier']})"
        return text

    def explain(self, result: HandResult) -> str | None:
        if result.outcome != "declined":
            return None
        m = result.multiplier
        notes = result.notes or {}
        if "bonus" not in notes:  # a result made elsewhere: the rule in words
            return (f"{result.winner}'s double was declined: the decline bonus plus the deadwood difference in "
                    f"{result.winner}'s favour" + (f", × {m} (the stake before the offer)" if m != 1 else "")
                    + f" = {result.points}")
        bonus, mine, theirs = notes["bonus"], notes["offerer_deadwood"], notes["decliner_deadwood"]
        difference = (f"{theirs} − {mine} (the deadwood difference)" if theirs > mine else
                      f"0 ({notes['decliner']}'s deadwood {theirs} is not more than {mine})")
        sum_ = f"{bonus} (decline bonus) + {difference}"
        total = f"({sum_}) × {m} (the stake before the offer)" if m != 1 else sum_
        return f"{notes['decliner']} declined {result.winner}'s double: {total} = {result.points}"


@hookimpl(trylast=True)
def gincli_register_moves(register: Callable[[MoveSet], None]) -> None:
    register(Doubling())
