# file: cautious.py
from gincli import Bot, hookimpl
from gincli.melds import deadwood


class Cautious(Bot):
    name = "cautious"
    description = "Discards to the least deadwood; knocks only with 5 or less."

    def choose(self, view):
        if view.phase != "discard":
            return view.pass_() if view.phase == "offer" else view.draw_stock()
        options = [(deadwood(view.hand & ~(1 << c)), c) for c in view.cards if c != view.taken]
        least, card = min(options)
        if least <= min(5, view.knock_limit):
            return view.knock(card)
        return view.discard(card)


@hookimpl
def gincli_register_bots(register):
    register(Cautious)
