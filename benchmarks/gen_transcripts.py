"""Write N played transcripts as JSON Lines, reproducibly (greedy random play).

    python benchmarks/gen_transcripts.py N [SCORING] [SEED] > transcripts.jsonl
"""

from __future__ import annotations

import json
import random
import sys

from gincli.engine import DISCARD, Hand, Move
from gincli.melds import deadwood
from gincli.plugins import load_registry
from gincli.table import play_session


def chooser(rng: random.Random):
    def choose(h: Hand) -> Move:
        moves = h.legal_moves()
        knocks = [m for m in moves if m.action == "knock"]
        if knocks and rng.random() < 0.7:
            return rng.choice(knocks)
        if h.phase == DISCARD:
            held = h.hands[h.to_act]
            return min((m for m in moves if m.action == "discard"),
                       key=lambda m: (deadwood(held & ~(1 << m.card)), rng.random()))
        return rng.choice(moves)
    return choose


def main() -> None:
    n = int(sys.argv[1])
    scoring = sys.argv[2] if len(sys.argv) > 2 else "hand"
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 1
    registry = load_registry()
    v = registry.variant("standard")
    system = registry.scoring(scoring)
    rules = registry.rules(v, system, {})
    rng = random.Random(seed)
    out = sys.stdout
    for i in range(n):
        rec = play_session(("ann", "bob"), v, rules, system, chooser(rng), seed * 1_000_003 + i, id=f"t{i}")
        out.write(json.dumps(rec.transcript) + "\n")


if __name__ == "__main__":
    main()
