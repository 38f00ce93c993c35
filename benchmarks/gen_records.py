"""Write N realistic hand records (FORMATS.md) as JSON Lines, reproducibly.

Each record is the end of a hand as it happens at a table: about 70% knocks
(the knocker's ten cards built from melds and low cards, at most 10 deadwood),
10% gins and 20% dead hands; the defender's ten cards come from the rest of
the deck. Usage: python benchmarks/gen_records.py N [SEED] > records.jsonl
"""

from __future__ import annotations

import json
import random
import sys

RANKS = "A23456789TJQK"
SUITS = "shdc"
NAMES = [r + s for s in SUITS for r in RANKS]


def _melds(rng: random.Random, taken: set[int]) -> list[int]:
    out: list[int] = []
    while len(out) < 7:
        if rng.random() < 0.4:
            r = rng.randrange(13)
            meld = [s * 13 + r for s in rng.sample(range(4), rng.choice((3, 3, 4)))]
        else:
            s, lo = rng.randrange(4), rng.randrange(11)
            meld = [s * 13 + r for r in range(lo, min(13, lo + rng.choice((3, 3, 4, 5))))]
        if any(c in taken for c in meld) or len(out) + len(meld) > 10:
            if len(out) >= 6:
                break
            continue
        out += meld
        taken.update(meld)
    return out


def _deadwood(cards: list[int]) -> int:
    from gincli.rulebook.cards import mask_of
    from gincli.rulebook.melds import deadwood

    return deadwood(mask_of(cards))


def record(rng: random.Random, i: int) -> dict:
    while True:
        taken: set[int] = set()
        knocker = _melds(rng, taken)
        kind = rng.random()
        pool = [c for c in range(52) if c not in taken]
        rng.shuffle(pool)
        if kind < 0.1 and len(knocker) == 10:
            pass
        elif kind < 0.1:
            continue
        else:
            low = [c for c in pool if c % 13 < 5]
            knocker += low[:10 - len(knocker)]
        if len(knocker) != 10:
            continue
        dw = _deadwood(knocker)
        if kind >= 0.3 and not (0 < dw <= 10) or kind < 0.1 and dw != 0:
            continue
        rest = [c for c in range(52) if c not in knocker]
        rng.shuffle(rest)
        defender, upcard = rest[:10], rest[10]
        players = ["ann", "bob"] if rng.random() < 0.5 else ["bob", "ann"]
        rec = {"id": f"h{i}", "upcard": NAMES[upcard],
               "hands": {players[0]: [NAMES[c] for c in knocker], players[1]: [NAMES[c] for c in defender]}}
        if kind < 0.1 or kind >= 0.3:
            rec["knocker"] = players[0]
        return rec


def main() -> None:
    n = int(sys.argv[1])
    rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1)
    out = sys.stdout
    for i in range(n):
        out.write(json.dumps(record(rng, i)) + "\n")


if __name__ == "__main__":
    main()
