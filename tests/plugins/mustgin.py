"""A test plugin, written as a third party would from docs/plugins.md: a
must-gin restriction. With ``must_gin`` on, a player may knock only with gin
(no deadwood after the discard); big gin stays where the rules have it."""

from gincli import MoveSet, Option, hookimpl


class MustGin(MoveSet):
    name = "mustgin"
    description = "Knock only with gin."
    options = (Option("must_gin", False, "a player may knock only with gin", "bool"),)
    rule_ids = {"knock-not-gin": "a knock with deadwood, where only gin may end a hand"}

    def enabled(self, rules):
        return rules["must_gin"]

    def forbids(self, view, move):
        if move.action == "knock" and move.card is not None and view.melds.deadwood(view.hand & ~(1 << move.card)):
            return "knock-not-gin"
        return None


@hookimpl
def gincli_register_moves(register):
    register(MustGin())
