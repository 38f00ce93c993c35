"""Changes to ``master``'s search tried and not kept, as bots, so that the
figures docs/benchmarks.md gives for them ("Past the plateau") can be played
again, each on master as it was when tried (``master-as-dealt``) unless said:
``gin --plugins-dir benchmarks/trials match --bots master-their8,master-as-dealt
--games 1000 --duplicate --seed 9206 --workers 2``.

* ``master-twin``: master (as it is) under another name, the control of such a match;
* ``master-surer``: a discard replaces master-knock's only on a gain of at least
  a point a hand as well as a standard error;
* ``master-draws``: the draw searched too, the top of the pile against the
  stock, in ``worlds`` worlds, on a standard error;
* ``master-their8``: the play-outs' opponent knocks with up to 8 points of
  deadwood instead of playing for gin;
* ``master-as-dealt``: master before its worlds' opponent hands were made
  better by two of the stock's cards (``THEIR_DRAWS`` 0): held as drawn.

Each takes master's parameters (``master-surer:worlds=768``).
"""

from __future__ import annotations

from gincli import hookimpl
from gincli.hand import playout
from gincli.hand.moves import Move
from gincli.hand.view import PlayerView
from gincli_builtin.expert import _Knowledge
from gincli_builtin.master import MasterBot, searchable


class TwinBot(MasterBot):
    name = "master-twin"
    description = "master under another name: the control of a match against master."
    params = dict(MasterBot.params)


class AsDealtBot(MasterBot):
    name = "master-as-dealt"
    description = "master as it was before its worlds' opponent hands were made better: each held as drawn."
    params = dict(MasterBot.params)
    THEIR_DRAWS = 0


class SurerBot(AsDealtBot):
    name = "master-surer"
    description = "master, switching from master-knock's discard only on a gain of a point a hand or more."
    params = dict(MasterBot.params)
    MIN_GAIN = 1.0


class TheirEightBot(AsDealtBot):
    name = "master-their8"
    description = "master, its play-outs' opponent knocking with up to 8 points instead of playing for gin."
    params = dict(MasterBot.params)
    THEIR_KNOCK_AT = 8


class DrawsBot(AsDealtBot):
    name = "master-draws"
    description = "master, with its draws searched too: the top of the pile against the stock."
    params = dict(MasterBot.params)

    def choose(self, view: PlayerView) -> Move:
        move = super().choose(view)
        if (move.action != "draw" or not searchable(view, "draw") or view.stock_count <= 2
                or view.must_draw_stock):  # both seats refused the first upcard: the rules say the stock
            return move
        position = self.search_position(view, _Knowledge(view, self), playout.DRAW, -1)
        if position is None:
            return move
        took = move.source == "discard"
        ids = [playout.TAKE, playout.STOCK] if took else [playout.STOCK, playout.TAKE]
        n = self.params["worlds"]
        totals, squares = playout.search(*position, ids, n, self.rng.next64(), self.THEIR_DRAWS)
        diff = (totals[1] - totals[0]) / n
        spread = max(squares[1] / n - diff * diff, 0.0) ** 0.5
        if diff > self.Z * spread / n ** 0.5:
            return view.draw_stock() if took else view.take()
        return move


@hookimpl
def gincli_register_bots(register):
    for bot in (TwinBot, SurerBot, TheirEightBot, AsDealtBot, DrawsBot):
        register(bot)
