# file: cautious.py
from gincli import Bot, Option, hookimpl
from gincli.melds import deadwood


class Cautious(Bot):
    name = "cautious"
    description = "Discards to the least deadwood; knocks only with `limit` or less (5)."
    parameters = (Option("limit", 5, "the most deadwood it knocks with"),)

    def choose(self, view):
        legal = view.legal()
        if view.phase != "discard":
            preferred = view.pass_() if view.phase == "offer" else view.draw_stock()
            return preferred if preferred in legal else legal[0]  # an answer due (a double): the first
        options = [(deadwood(view.hand & ~(1 << c)), c) for c in view.cards if c != view.taken]
        least, card = min(options)
        if least <= min(self.params["limit"], view.knock_limit):
            return view.knock(card)
        return view.discard(card)


@hookimpl
def gincli_register_bots(register):
    register(Cautious)
