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
  if nothing else changed since);
* ``history:B:G[:master]``: the opponent's whole hand so far, walked back from each drawn hand
  (drawn alike, or with ``:master`` by master's weights) turn by turn, each card it drew from the
  stock chosen among those it could have been, and each history counted by the chance of every
  move in it under a generic player: its discard e^(-B x) among its choices, its take or refusal
  of the pile's top a logistic (G) of the deadwood that card would save (:func:`history_score`).
  ``--samples`` is then the histories walked; more of them read the moves more exactly.

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
            moves = public(hand.moves)
            found.append({"known": position[5], "weights": position[6], "theirs": hand.hands[SEATS[1]],
                          "discards": [card for seat, action, source, card in moves
                                       if seat == 1 and action == "discard"],
                          "moves": moves, "upcard": hand.upcard})
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
        x += deadwood(hand) - _least(hand | 1 << d)
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
    return _scored(p, share, total, samples)


def _scored(p: dict[str, Any], share: list[float], total: float, samples: int) -> tuple[float, float, int]:
    """A guess (each card's weight in ``share`` of ``total``, from ``samples``
    hands drawn) scored on the true hand: its log-likelihood, the sum of the
    chances it gives the cards truly held, and how many they are."""
    unknown = [c for c in range(52) if p["weights"][c]]
    need = 10 - p["known"].bit_count()
    true = p["theirs"] & ~p["known"]
    loglik = held = 0.0
    for c in unknown:
        # the share of the draws, kept off 0 and 1 by two draws of the uniform guess
        q = (share[c] / total if total else need / len(unknown)) * samples / (samples + 2) \
            + need / len(unknown) * 2 / (samples + 2)
        loglik += math.log(q if true >> c & 1 else 1 - q)
        held += q if true >> c & 1 else 0
    return loglik, held, need


def _turns(p: dict[str, Any]) -> tuple[bool, list[tuple[int, int | None, int]]]:
    """The opponent's part of the hand so far: whether it refused the first
    upcard when offered, and each turn's card on top of the pile as it drew
    (-1 where that is not known here), the card it took from the pile (None:
    the stock's) and its discard."""
    refused = False
    turns = []
    top = p["upcard"]
    moves = p["moves"]
    for i, (seat, action, source, card) in enumerate(moves):
        if action == "pass":
            refused = refused or seat == 1
        elif action == "draw" and seat == 1:
            discard = next((m[3] for m in moves[i + 1:] if m[0] == 1 and m[1] == "discard"), None)
            if discard is None:
                break
            both_refused = all(m[1] == "pass" for m in moves[:i]) and i == 2  # the stock then, no choice
            turns.append((-1 if both_refused else top, card if source == "discard" else None, discard))
        elif action == "discard":
            top = card
        elif action == "draw" and source == "discard":
            top = -1  # master took it: the card below is not followed here
    return refused, turns


def _least(hand: int, barred: int = -1) -> int:
    """The least deadwood of an eleven-card ``hand`` once a card (not ``barred``) is thrown."""
    best = 999
    rest = hand
    while rest:
        low = rest & -rest
        rest ^= low
        if low.bit_length() - 1 != barred:
            best = min(best, deadwood(hand ^ low))
    return best


def _log_take(hand: int, card: int, gamma: float, took: bool) -> float:
    """The log of the chance that a hand of ten takes (``took``) or refuses
    ``card`` on the pile: a logistic of the deadwood it would save (its best
    discard after, the card kept)."""
    if card < 0 or gamma <= 0:
        return 0.0
    z = gamma * (deadwood(hand) - _least(hand | 1 << card, card) - 0.5)
    z = z if took else -z
    return -math.log1p(math.exp(-z)) if z > -30 else z


def history_score(p: dict[str, Any], beta: float, gamma: float, samples: int, seed: int,
                  prior: bool = False) -> tuple[float, float, int]:
    """:func:`score`'s figures for a guess by the opponent's whole hand so
    far: each sample its hand now drawn alike from the cards the seat cannot
    place, then walked back turn by turn (a card from the stock chosen among
    those it could have been), and counted by the chance of every move it made
    under a generic player: discards e^(-beta x) among its choices (x the
    deadwood left above the least), each take or refusal of the pile's top by
    a logistic of the deadwood it saves (``gamma``); times the number of
    choices of each walk back (so that every history counts alike a priori)."""
    weights = p["weights"]
    unknown = [c for c in range(52) if weights[c]]
    known = p["known"]
    need = 10 - known.bit_count()
    if not need:
        return 0.0, 0.0, 0
    refused, turns = _turns(p)
    rng = SplitMix64(seed)
    walked: list[tuple[float, int]] = []  # each history's log-weight, and the hand now it was walked back from
    flat = bytes(16 if w else 0 for w in weights)
    # the cards on the table before each turn (public then): never drawn from the stock at that turn
    seen_before = []
    seen = 1 << p["upcard"]
    for seat, action, _source, card in p["moves"]:
        if action == "draw" and seat == 1:
            seen_before.append(seen)
        if card is not None:
            seen |= 1 << card
    for _ in range(samples):
        hand, _stock = draw_world(rng, unknown, weights if prior else flat, known, need, 0)
        now = hand
        logw = 0.0
        for t in range(len(turns) - 1, -1, -1):
            top, took, discard = turns[t]
            eleven = hand | 1 << discard
            least = _least(eleven, took if took is not None else -1)
            # the discard among its choices
            rest, norm = eleven, 0.0
            while rest:
                low = rest & -rest
                rest ^= low
                c = low.bit_length() - 1
                if c != took:
                    norm += math.exp(-beta * (deadwood(eleven ^ low) - least))
            logw += -beta * (deadwood(eleven & ~(1 << discard)) - least) - math.log(norm)
            if took is not None:
                hand = eleven & ~(1 << took)
                logw += _log_take(hand, took, gamma, True)
            else:
                candidates = eleven & ~seen_before[t] & ~known
                k = candidates.bit_count()
                if not k:
                    logw = -math.inf
                    break
                pick = rng.below(k)
                rest = candidates
                for _ in range(pick):
                    rest &= rest - 1
                x = (rest & -rest).bit_length() - 1
                hand = eleven & ~(1 << x)
                logw += math.log(k) + _log_take(hand, top, gamma, False)
        if logw == -math.inf:
            continue
        if refused:
            logw += _log_take(hand, p["upcard"], gamma, False)
        walked.append((logw, now & ~known))
    top_logw = max((w for w, _ in walked), default=0.0)  # the weights taken relative to the largest: none underflows
    share, total = [0.0] * 52, 0.0
    for logw, rest in walked:
        w = math.exp(logw - top_logw)
        total += w
        while rest:
            low = rest & -rest
            rest ^= low
            share[low.bit_length() - 1] += w
    return _scored(p, share, total, samples)


def guess_name(text: str) -> str:
    kind, *args = text.split(":")
    ok = ((kind in ("uniform", "master", "draws") and not args) or (kind == "discards" and len(args) == 2)
          or (kind == "history" and (len(args) == 2 or len(args) == 3 and args[2] == "master")))
    try:
        ok = ok and (kind != "discards" or (float(args[0]) > 0 and int(args[1]) > 0))
        ok = ok and (kind != "history" or (float(args[0]) >= 0 and float(args[1]) >= 0))
    except ValueError:
        ok = False
    if not ok:
        raise argparse.ArgumentTypeError(f"{text!r} is not a guess (uniform, master, draws, discards:T:K or "
                                         f"history:B:G[:master])")
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
            at = SplitMix64(a.seed).derive(i).next64()
            if g.startswith("history:"):
                _, beta, gamma, *prior = g.split(":")
                ll, h, n = history_score(p, float(beta), float(gamma), a.samples, at, prior == ["master"])
            else:
                ll, h, n = score(p, g, a.samples, at)
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
