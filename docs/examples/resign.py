# file: resign.py
from gincli import HandResult, IllegalMove, Move, MoveSet, Option, RecordError, hookimpl


class Resigning(MoveSet):
    """At the start of a turn, before drawing, a player may resign the hand:
    the opponent wins resign_points at once."""

    name = "resigning"
    description = "Resign a hand at the start of a turn; the opponent wins resign_points."
    actions = ("resign",)
    options = (Option("resigning", False, "a player may resign a hand", "bool"),
               Option("resign_points", 15, "what a resigned hand is worth to the opponent"))
    outcomes = ("resigned",)
    record_fields = ("resigner",)  # a hand record of a resigned hand names who resigned
    rule_ids = {"resign-out-of-turn": "a resignation that is not at the start of one's own turn"}
    keys = {"resign": "r"}

    def enabled(self, rules):
        return rules["resigning"]

    def legal(self, view):
        return [Move(view.me, "resign")] if view.phase in ("offer", "draw") else []

    def apply(self, hand, move):
        if move.player != hand.to_act or hand.phase not in ("offer", "draw"):
            raise IllegalMove("resign-out-of-turn", f"{move.player} resigned, but not at the start of their turn")
        winner = hand.other(move.player)
        hand.end(HandResult("resigned", winner, hand.rules["resign_points"], None, None, hand.variant.name))

    def score_record(self, state, record, pos, variant, rules):
        if record.get("outcome") != "resigned":
            return None  # not ended by a resignation: scored from the cards
        if record.get("resigner") not in pos.players:
            raise RecordError(f"a resigned hand names its \"resigner\", one of {' and '.join(pos.players)}")
        winner = next(p for p in pos.players if p != record["resigner"])
        return HandResult("resigned", winner, rules["resign_points"], None, None, variant.name)

    def explain(self, result):
        return f"the opponent resigned: {result.winner} wins resign_points, {result.points}"


@hookimpl
def gincli_register_moves(register):
    register(Resigning())
