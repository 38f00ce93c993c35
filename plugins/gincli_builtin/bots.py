"""Built-in plugin: the bots ``random``, ``simple``, ``expert`` and ``master`` (master.py).

``simple`` is the published baseline of the EAAI gin rummy challenge (Neller,
2021, SimpleGinRummyPlayer): it takes the face-up card only if the card then
forms a meld; it discards a random card among those leaving the least
deadwood, never the card just taken; it knocks as soon as it can; as defender
it lays off all it can (gincli spreads the defender's best). Under doubling it
never offers and always accepts.
"""

from __future__ import annotations

from collections.abc import Callable

from gincli import hookimpl
from gincli.hand.bots import Bot
from gincli.hand.moves import Move
from gincli.hand.view import PlayerView

from .expert import ExpertBot
from .master import MasterBot, MasterKnockBot


def answer_due(view: PlayerView, accept: bool = True) -> Move | None:
    """The answer to an offer to double that waits for this player (accept, or
    decline), or None when none does."""
    state = view.extensions.get("doubling")
    if state is None or state["offer"] is None or state["offer"] == view.me:
        return None
    return Move(view.me, "accept" if accept else "decline")


class RandomBot(Bot):
    name = "random"
    description = "Uniformly random legal moves (a hand still ends legally: by knock, gin or the wall)."

    def choose(self, view: PlayerView) -> Move:
        moves = view.legal()
        return moves[self.rng.below(len(moves))]


#: Discards of one player in a hand past which the hand is two players trading discards: the
#: stock alone ends a hand within 32 draws, so only taking each other's discards lasts this long.
TRADING_TURNS = 50


def trading(view: PlayerView, card: int) -> bool:
    """Whether taking ``card`` would go on trading discards: the hand is past
    :data:`TRADING_TURNS` of this player's discards and ``card`` is one of them.
    Two ``simple`` bots under meld rules where almost any card melds (a plugin's)
    would otherwise take each other's discards until gincli ends the hand dead
    at 2,000 moves; under the rule book's melds no hand of 20,000 got there."""
    return len(view.my_discards) >= TRADING_TURNS and card in view.my_discards


class SimpleBot(Bot):
    name = "simple"
    description = ("The EAAI challenge baseline: takes the face-up card only to form a meld, discards to the "
                   "least deadwood, knocks as soon as it can; late in a long hand it takes back none of its "
                   "own discards.")

    def choose(self, view: PlayerView) -> Move:
        return self.allowed(view, self._choose(view))  # never a move a move set forbids

    def _choose(self, view: PlayerView) -> Move:
        hand = view.hand
        answer = answer_due(view)
        if answer is not None:  # under doubling: never offers, always accepts
            return answer
        melds = view.melds  # the meld rules in force: what melds, what each card counts
        if view.phase != "discard":
            top = view.discard_top
            if not view.must_draw_stock and top is not None and melds.forms_meld(hand, top) and not trading(view, top):
                return view.take()
            return view.pass_() if view.phase == "offer" else view.draw_stock()
        deadwood = melds.deadwood
        if view.big_gin and deadwood(hand) == 0 and view.allows(view.knock(None)):
            return view.knock(None)
        best = 1 << 30
        choices: list[int] = []
        taken = view.taken
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            c = low.bit_length() - 1
            if c == taken:
                continue
            dw = deadwood(hand ^ low)
            if dw < best:
                best, choices = dw, [c]
            elif dw == best:
                choices.append(c)
        card = choices[self.rng.below(len(choices))] if len(choices) > 1 else choices[0]
        knocks = best <= view.knock_limit and view.allows(view.knock(card))  # as soon as the rules let it
        return view.knock(card) if knocks else view.discard(card)


@hookimpl(trylast=True)
def gincli_register_bots(register: Callable[[type[Bot]], None]) -> None:
    for bot in (RandomBot, SimpleBot, ExpertBot, MasterKnockBot, MasterBot):
        register(bot)
