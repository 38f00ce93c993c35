"""A test plugin, written as a third party would from docs/plugins.md: an
added move. With ``surrender`` on, a player may surrender a hand at the start
of their turn (the opponent wins ``surrender_points``); and nobody may knock
before the hand's fourth turn, a rule the move set keeps in ``check()``."""

from gincli import HandResult, IllegalMove, Move, MoveSet, Option, RecordError, hookimpl


class Surrender(MoveSet):
    name = "surrender"
    description = "Surrender a hand at the start of a turn; no knock before the fourth turn."
    actions = ("surrender",)
    options = (Option("surrender", False, "a player may surrender a hand; no knock before the fourth turn", "bool"),
               Option("surrender_points", 10, "what a surrendered hand is worth to the opponent"))
    outcomes = ("surrendered",)
    record_fields = ("surrenderer",)
    rule_ids = {"surrender-out-of-turn": "a surrender that is not at the start of one's own turn",
                "knock-before-turn-four": "a knock before the hand's fourth turn"}
    keys = {"surrender": "give"}

    def enabled(self, rules):
        return rules["surrender"]

    def start(self, rules):
        return {"turns": 0}

    def legal(self, view):
        return [Move(view.me, "surrender")] if view.phase in ("offer", "draw") else []

    def check(self, hand, move):
        if move.action == "knock" and hand.extensions[self.name]["turns"] < 4:
            raise IllegalMove("knock-before-turn-four", f"{move.player} knocked before the hand's fourth turn")

    def apply(self, hand, move):
        if move.player != hand.to_act or hand.phase not in ("offer", "draw"):
            raise IllegalMove("surrender-out-of-turn", f"{move.player} surrendered, but not at the start of "
                                                       "their turn")
        hand.end(HandResult("surrendered", hand.other(move.player), hand.rules["surrender_points"], None, None,
                            hand.variant.name))

    def played(self, hand, move):
        if move.action == "draw":
            hand.extensions[self.name]["turns"] += 1

    def score_record(self, state, record, pos, variant, rules):
        if record.get("outcome") != "surrendered":
            return None
        if record.get("surrenderer") not in pos.players:
            raise RecordError("a surrendered hand names its \"surrenderer\", one of the players")
        winner = next(p for p in pos.players if p != record["surrenderer"])
        return HandResult("surrendered", winner, rules["surrender_points"], None, None, variant.name)

    def explain(self, result):
        return f"the opponent surrendered: {result.winner} wins surrender_points, {result.points}"


@hookimpl
def gincli_register_moves(register):
    register(Surrender())
