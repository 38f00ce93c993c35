"""A test plugin: a move set that only restricts. With ``slow_knock`` on, nobody
may knock (or go gin) before the hand's ``first_knock_turn``-th turn; the move
set counts the turns in ``played()`` (a turn starts with each draw)."""

from gincli import Move, MoveSet, Option, hookimpl


class SlowKnock(MoveSet):
    name = "slowknock"
    description = "No knocking before a hand's first_knock_turn-th turn."
    options = (Option("slow_knock", False, "no knocking in a hand's first turns", "bool"),
               Option("first_knock_turn", 3, "the first turn of a hand in which a player may knock"))
    rule_ids = {"knock-too-early": "a knock before the hand's first_knock_turn-th turn"}

    def enabled(self, rules):
        return rules["slow_knock"]

    def start(self, rules):
        return {"turn": 0, "first_knock_turn": rules["first_knock_turn"]}

    def forbids(self, view, move: Move):
        state = view.extensions[self.name]
        if move.action == "knock" and state["turn"] < state["first_knock_turn"]:
            return "knock-too-early"
        return None

    def played(self, hand, move: Move):
        if move.action == "draw":
            hand.extensions[self.name]["turn"] += 1


@hookimpl
def gincli_register_moves(register):
    register(SlowKnock())
