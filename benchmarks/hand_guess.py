"""How well master's worlds guess the opponent's hand.

    python benchmarks/hand_guess.py [--hands 150] [--seed 77] [--samples 200] [--guesses master,uniform,...]
                                    [--format text|json]

``--hands`` hands of master against ``expert`` are played (seed S). At each discard master
searches, the opponent's hand is drawn ``--samples`` times as master's worlds draw it
(:func:`gincli.hand.playout.draw_world`, from the weights master gives the cards it cannot place),
each card's share of the draws is taken as the chance that the opponent holds it, and the guess is
scored on the true hand: the log-likelihood of the true hand, card by card (a proper score: higher
is better; 0 would be certainty), and the mean chance given to the cards truly held. The guesses:

* ``uniform``: every card master cannot place alike;
* ``master``: master's weights (what the opponent took and refused), the hand as drawn;
* ``draws``: the same, the hand then made better by master's ``THEIR_DRAWS`` of the stock's cards;
* ``discards:T:K``: master's weights, each drawn hand counted with the chance
  e^(-x/T) of each of the opponent's last K discards, x the deadwood that discard left above the
  least it could have left, from the drawn hand and the discarded card (the hand it then held,
  if nothing else changed since).

Progress goes to stderr; reproducible by seed.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from search_oracle import SEATS, public, searched

from gincli.hand.playout import draw_world
from gincli.rulebook.meldrules import STANDARD
from gincli.rulebook.rng import SplitMix64
from gincli_builtin.master import MasterBot

deadwood = STANDARD.deadwood


def positions(hands: int, seed: int) -> list[dict[str, Any]]:
    """Each position master searched in ``hands`` hands against expert: its
    worlds' weights, the opponent's known cards, true hand and discards."""
    found = []
    for index in range(hands):
        for hand, _moves, position, _rng in searched(seed, index):
            found.append({"known": position[5], "weights": position[6], "theirs": hand.hands[SEATS[1]],
                          "discards": [card for seat, action, source, card in public(hand.moves)
                                       if seat == 1 and action == "discard"]})
        print(f"\rhands played: {index + 1}/{hands}, {len(found)} positions", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return found


def fit(hand: int, discards: list[int], t: float) -> float:
    """The product of e^(-x/t) over ``discards``, each as if thrown from
    ``hand`` with it (x: the deadwood left above the least it could leave)."""
    x = 0
    for d in discards:
        if hand >> d & 1:
            continue
        held = hand | 1 << d
        least = min(deadwood(held & ~(1 << c)) for c in range(52) if held >> c & 1)
        x += deadwood(hand) - least
    return math.exp(-x / t)


def score(p: dict[str, Any], guess: str, samples: int, seed: int) -> tuple[float, float, int]:
    """The guess's log-likelihood of the true hand at position ``p``, the sum of
    the chances it gives the cards truly held, and how many they are."""
    weights = p["weights"]
    unknown = [c for c in range(52) if weights[c]]
    need = 10 - p["known"].bit_count()
    if not need:
        return 0.0, 0.0, 0
    if guess == "uniform":
        weights = bytes(16 if w else 0 for w in weights)
    kind, *args = guess.split(":")
    t, k = (float(args[0]), int(args[1])) if kind == "discards" else (0.0, 0)
    draws = MasterBot.THEIR_DRAWS if kind == "draws" else 0
    rng = SplitMix64(seed)
    share, total = [0.0] * 52, 0.0
    for _ in range(samples):
        hand, _stock = draw_world(rng, unknown, weights, p["known"], need, draws)
        w = fit(hand, p["discards"][-k:], t) if k else 1.0
        total += w
        rest = hand & ~p["known"]
        while rest:
            low = rest & -rest
            rest ^= low
            share[low.bit_length() - 1] += w
    true = p["theirs"] & ~p["known"]
    loglik = held = 0.0
    for c in unknown:
        # the share of the draws, kept off 0 and 1 by two draws of the uniform guess
        q = share[c] / total * samples / (samples + 2) + need / len(unknown) * 2 / (samples + 2)
        loglik += math.log(q if true >> c & 1 else 1 - q)
        held += q if true >> c & 1 else 0
    return loglik, held, need


def guess_name(text: str) -> str:
    kind, *args = text.split(":")
    ok = (kind in ("uniform", "master", "draws") and not args) or kind == "discards" and len(args) == 2
    try:
        ok = ok and (kind != "discards" or (float(args[0]) > 0 and int(args[1]) > 0))
    except ValueError:
        ok = False
    if not ok:
        raise argparse.ArgumentTypeError(f"{text!r} is not a guess (uniform, master, draws or discards:T:K)")
    return text


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=150)
    ap.add_argument("--seed", type=int, default=77)
    ap.add_argument("--samples", type=int, default=200, help="opponent hands drawn a position")
    ap.add_argument("--guesses", type=lambda t: [guess_name(g) for g in t.split(",")],
                    default=["uniform", "master", "draws", "discards:2:1", "discards:4:6"])
    ap.add_argument("--format", choices=("text", "json"), default="text")
    a = ap.parse_args(argv)
    if a.hands < 1 or a.samples < 1:
        ap.error("--hands and --samples are 1 or more")
    found = positions(a.hands, a.seed)
    rows = []
    for g in a.guesses:
        loglik = held = cards = 0.0
        for i, p in enumerate(found):
            ll, h, n = score(p, g, a.samples, SplitMix64(a.seed).derive(i).next64())
            loglik, held, cards = loglik + ll, held + h, cards + n
        rows.append({"guess": g, "loglik": loglik / len(found), "held": held / cards if cards else None})
        print(f"guess {g} scored", file=sys.stderr, flush=True)
    if a.format == "json":
        print(json.dumps({"hands": a.hands, "seed": a.seed, "positions": len(found), "samples": a.samples,
                          "rows": rows}, indent=2))
        return 0
    print(f"{len(found)} positions master searched ({a.hands} hands against expert, seed {a.seed}), "
          f"{a.samples} hands drawn each")
    print(f"{'guess':>16} {'log-likelihood a position':>26} {'chance given the cards held':>28}")
    for r in rows:
        print(f"{r['guess']:>16} {r['loglik']:>26.3f} {r['held']:>28.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
