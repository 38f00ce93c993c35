"""A test plugin, written as a third party would from docs/plugins.md: a
late-upcard restriction. With ``no_late_take`` on, nobody may take the top of
the discard pile after the hand's ``last_take_turn``-th turn; the move set
counts the turns (a turn starts with a draw) and writes the restriction the
natural way, comparing the move with ``view.take()``."""

from gincli import MoveSet, Option, hookimpl

__version__ = "0.3"


class LateTake(MoveSet):
    name = "latetake"
    description = "No taking the discard after a hand's last_take_turn-th turn."
    options = (Option("no_late_take", False, "no taking the discard late in a hand", "bool"),
               Option("last_take_turn", 6, "the last turn of a hand in which a player may take the discard"))
    rule_ids = {"take-too-late": "a draw from the discard pile after the hand's last_take_turn-th turn"}

    def enabled(self, rules):
        return rules["no_late_take"]

    def start(self, rules):
        return {"turns": 0, "last": rules["last_take_turn"]}

    def forbids(self, view, move):
        state = view.extensions[self.name]
        if move == view.take() and state["turns"] >= state["last"]:
            return "take-too-late"
        return None

    def played(self, hand, move):
        if move.action == "draw":
            hand.extensions[self.name]["turns"] += 1


@hookimpl
def gincli_register_moves(register):
    register(LateTake())
