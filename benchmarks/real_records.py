"""Hand records (FORMATS.md) of real play: the end positions of hands gincli's
built-in bots played against each other, reproducibly.

For each pairing (``expert`` against ``simple``, ``simple`` against itself,
``expert`` against itself) ``gin match --bots A,B --hands N --seed S`` is
played (games to 100, the default rules) and each hand of its transcripts
becomes a record: both players' hands at the end, the first upcard, the
knocker. Nothing is padded or made up: knocks, undercuts and gins come in the
proportions the bots play them. The hands that ended dead (nobody knocked
before the stock ran out) go to a file of their own, so that they can be timed
apart: gincli scores them for nothing, the peer solves them.

    python benchmarks/real_records.py OUT.jsonl DEAD.jsonl [--hands 10000] [--seed 1]

``--hands`` counts the records of each pairing that did not end dead (30,000 in
all by default). The same gincli and seed give the same files.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import Counter

PAIRINGS = ("expert,simple", "simple,simple", "expert,expert")


def end_position(hand: dict, ident: str) -> dict:
    """A transcript hand's end position as a hand record: each player's cards
    after the last move, the first upcard, who knocked (none: a dead hand)."""
    deal = hand["deal"]
    held = {name: list(cards) for name, cards in deal.items() if name != "upcard"}
    knocker = None
    for move in hand["moves"]:
        action, player = move["action"], move["player"]
        if action == "draw":
            held[player].append(move["card"])  # gin match writes every card drawn
        elif action in ("discard", "knock"):
            if move.get("card") is not None:  # big gin knocks without a discard
                held[player].remove(move["card"])
            if action == "knock":
                knocker = player
    record = {"id": ident, "upcard": deal["upcard"], "hands": held}
    if knocker is not None:
        record["knocker"] = knocker
    return record


def pairing_records(gin: list[str], bots: str, hands: int, seed: int) -> tuple[list[dict], list[dict], dict]:
    """Records of the first ``hands`` hands of a match that were not dead, the dead
    ones among them apart, and the result the match gave each (by id)."""
    tag = bots.replace(",", "-")
    played = hands + hands // 2 + 100  # more than enough: the bots leave under a third dead
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.jsonl")
        subprocess.run(gin + ["match", "--bots", bots, "--hands", str(played), "--seed", str(seed),
                              "--transcripts", path, "-q"], stdout=subprocess.DEVNULL, check=True)
        live: list[dict] = []
        dead: list[dict] = []
        results: dict = {}
        with open(path) as fh:
            for line in fh:
                session = json.loads(line)
                for i, hand in enumerate(session["hands"]):
                    if len(live) == hands:
                        return live, dead, results
                    rec = end_position(hand, f"{tag}-{session['id']}-{i}")
                    results[rec["id"]] = hand.get("result")
                    (live if "knocker" in rec else dead).append(rec)
    raise SystemExit(f"{bots}: only {len(live)} hands that were not dead in {played}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out")
    ap.add_argument("dead")
    ap.add_argument("--hands", type=int, default=10_000, help="records a pairing that did not end dead")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--gin", default=None, help="the gin command (default: gin next to this Python)")
    args = ap.parse_args()
    exe = os.path.join(os.path.dirname(sys.executable), "gin")
    gin = args.gin.split() if args.gin else [exe] if os.path.exists(exe) else [sys.executable, "-m", "gincli"]
    expected: dict = {}
    with open(args.out, "w") as out, open(args.dead, "w") as dead_out:
        for bots in PAIRINGS:
            live, dead, results = pairing_records(gin, bots, args.hands, args.seed)
            expected.update(results)
            for rec in live:
                out.write(json.dumps(rec) + "\n")
            for rec in dead:
                dead_out.write(json.dumps(rec) + "\n")
            outcomes = Counter((results[r["id"]] or {}).get("outcome", "dead") for r in live + dead)
            print(f"{bots}: " + ", ".join(f"{n} {o}" for o, n in sorted(outcomes.items())), file=sys.stderr)
    check(gin, [args.out, args.dead], expected)


def check(gin: list[str], paths: list[str], expected: dict) -> None:
    """Each record scores as the match settled its hand (the same outcome, winner
    and points): the end positions were read right."""
    done = subprocess.run(gin + ["score", "-q", "--format", "json", *paths], capture_output=True, text=True,
                          check=True)
    for line in done.stdout.splitlines():
        got = json.loads(line)
        want = expected[got["id"]] or {"outcome": "dead", "winner": None, "points": 0}
        if (got["outcome"], got["winner"], got["points"]) != (want["outcome"], want["winner"], want["points"]):
            raise SystemExit(f"{got['id']}: gin score gives {got['outcome']} {got['points']}, the match {want}")


if __name__ == "__main__":
    main()
