"""How near master's play-outs come to the points its hands end with.

At each discard master searches in a match against ``expert``, the position
is kept (what master's seat saw, and the discard it made); when the hand ends,
the points it ended with (master's, negative when the opponent's). Then, for
each number of the opponent's improving draws asked for (``--draws``, master's
``THEIR_DRAWS``: the opponent's hand in each world made better by that many of
the stock's cards), the mean of the play-outs of that discard in ``--worlds``
worlds beside the mean of what the hands really ended with, by how many cards
were left in the stock. Play-outs whose mean is far from what hands end with
judge the discards in a game other than the one played::

    python benchmarks/playout_calibration.py --hands 1000 --seed 21 --draws 0,1,2,3 --master-draws 0

``--master-draws`` is the ``THEIR_DRAWS`` of the master that plays the match
(its default unless given; 0: master as it was before, ``master-as-dealt``).

The match is played in this process (``gincli.play_match`` with a Python bot),
reproducible by its seed; the table goes to stdout (``--format json`` for
scripts), progress to stderr.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from typing import Any

from gincli import play_match
from gincli.hand import playout
from gincli.hand.view import PlayerView
from gincli.rulebook.rng import SplitMix64
from gincli_builtin.expert import _Knowledge
from gincli_builtin.master import MasterBot, searchable

#: The stock's bands of the table: the first turns, the middle of a hand, its end.
BANDS = (("31-25", 25), ("24-15", 15), ("14-0", 0))


class Recorder(MasterBot):
    """master, keeping each position it searches and, when the hand ends, its points."""

    name = "master"

    def __init__(self, rng: SplitMix64, seat: str = ""):
        super().__init__(rng, seat)
        self.hand_positions: list[dict[str, Any]] = []
        self.positions: list[dict[str, Any]] = []

    def choose(self, view: PlayerView):
        move = super().choose(view)
        if move.action == "discard" and searchable(view):
            position = self.search_position(view, _Knowledge(view, self), playout.DISCARD, view.taken)
            if position is not None:
                self.hand_positions.append(dict(args=(*position, [playout.DISCARD_ID + (move.card or 0)]),
                                                stock=view.stock_count))
        return move

    def hand_over(self, view: PlayerView, result: dict) -> None:
        winner, points = result.get("winner"), result.get("points") or 0
        ended = points if winner == view.me else -points if winner else 0
        for p in self.hand_positions:
            p["ended"] = ended
        self.positions += self.hand_positions
        self.hand_positions = []


def band(stock: int) -> str:
    return next(name for name, least in BANDS if stock >= least)


def counts(text: str) -> list[int]:
    """``--draws``: whole numbers from 0, comma-separated."""
    try:
        values = [int(d) for d in text.split(",")]
    except ValueError:
        values = [-1]
    if any(v < 0 for v in values):
        raise argparse.ArgumentTypeError(f"{text!r} is not whole numbers from 0, comma-separated")
    return values


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--draws", type=counts, default=counts("0,1,2,3"),
                    help="the opponent's improving draws to weigh, comma-separated")
    ap.add_argument("--worlds", type=int, default=200, help="worlds a position is played out in")
    ap.add_argument("--master-draws", type=int, default=MasterBot.THEIR_DRAWS,
                    help="the THEIR_DRAWS of the master that plays the match")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    args = ap.parse_args(argv)
    draws = args.draws
    bot = Recorder(SplitMix64(args.seed))
    bot.THEIR_DRAWS = args.master_draws
    print(f"playing {args.hands} hands of master (THEIR_DRAWS {args.master_draws}) against expert (seed "
          f"{args.seed})", file=sys.stderr)
    play_match([bot, "expert"], hands=args.hands, seed=args.seed, workers=1, transcripts=False)
    positions = bot.positions
    table: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"positions": 0, "ended": 0.0, "playouts": defaultdict(float)})
    for p in positions:
        for name in (band(p["stock"]), "all"):
            row = table[name]
            row["positions"] += 1
            row["ended"] += p["ended"]
    for d in draws:
        print(f"play-outs with {d} improving draws, {len(positions)} positions", file=sys.stderr)
        for i, p in enumerate(positions):
            totals, _ = playout.search(*p["args"], args.worlds, SplitMix64(args.seed).derive(i).next64(), d)
            for name in (band(p["stock"]), "all"):
                table[name]["playouts"][d] += totals[0] / args.worlds
    rows = [{"stock": name, "positions": table[name]["positions"],
             "ended": round(table[name]["ended"] / table[name]["positions"], 2),
             "playouts": {str(d): round(table[name]["playouts"][d] / table[name]["positions"], 2) for d in draws}}
            for name in [b[0] for b in BANDS] + ["all"] if table[name]["positions"]]
    if args.format == "json":
        print(json.dumps({"hands": args.hands, "seed": args.seed, "worlds": args.worlds, "rows": rows}))
    else:
        print(f"{'cards in the stock':>18} {'positions':>9} {'hands ended':>11} "
              + " ".join(f"{f'{d} draws':>9}" for d in draws))
        for r in rows:
            print(f"{r['stock']:>18} {r['positions']:>9} {r['ended']:>+11.2f} "
                  + " ".join(f"{r['playouts'][str(d)]:>+9.2f}" for d in draws))
    return 0


if __name__ == "__main__":
    sys.exit(main())
