# file: slowknock.py
from gincli import MoveSet, Option, hookimpl

__version__ = "1.0"  # written in the transcripts that need this plugin


class SlowKnock(MoveSet):
    """No knocking (or going gin) before a hand's first_knock_turn-th turn: a move
    set that adds no move, only takes the knock out early. It counts the turns
    as they are played (a turn starts with a draw)."""

    name = "slowknock"
    description = "No knocking before a hand's first_knock_turn-th turn."
    options = (Option("slow_knock", False, "no knocking in a hand's first turns", "bool"),
               Option("first_knock_turn", 3, "the first turn of a hand in which a player may knock"))
    rule_ids = {"knock-too-early": "a knock before the hand's first_knock_turn-th turn"}

    def enabled(self, rules):
        return rules["slow_knock"]

    def start(self, rules):
        return {"turn": 0, "first_knock_turn": rules["first_knock_turn"]}

    def forbids(self, view, move):
        state = view.extensions[self.name]
        if move.action == "knock" and state["turn"] < state["first_knock_turn"]:
            return "knock-too-early"
        return None

    def played(self, hand, move):
        if move.action == "draw":
            hand.extensions[self.name]["turn"] += 1


@hookimpl
def gincli_register_moves(register):
    register(SlowKnock())
