#!/usr/bin/env python3
"""A complete external gin rummy bot for gincli, standard library only.

It speaks the gincli-bot/2 protocol (docs/bot-protocol.md): one JSON object a
line on stdin; one reply line on stdout, echoing the request's id, for "hello"
(ready: its name and version) and for each "decide" (a move). It plays like the
EAAI baseline: it takes the face-up card only when it forms a meld, discards to
the least deadwood, and knocks as soon as it can.

    gin match --bots exec:"python3 examples/bot.py",simple --games 10
"""

import json
import random
import sys

RANKS = "A23456789TJQK"
SUITS = "shdc"


def parse(name):
    return RANKS.index(name[0]), SUITS.index(name[1])


def value(card):
    return min(card[0] + 1, 10)


def melds_in(cards):
    """Every set (3 or 4 of a rank) and run (3+ in a suit, ace low) within the cards."""
    cards = set(cards)
    found = []
    by_rank = {}
    for r, s in cards:
        by_rank.setdefault(r, []).append((r, s))
    for group in by_rank.values():
        if len(group) >= 3:
            found.append(frozenset(group))
            if len(group) == 4:
                for leave in group:
                    found.append(frozenset(c for c in group if c != leave))
    for s in range(4):
        for lo in range(13):
            run = []
            for r in range(lo, 13):
                if (r, s) not in cards:
                    break
                run.append((r, s))
                if len(run) >= 3:
                    found.append(frozenset(run))
    return found


def deadwood(cards):
    """Least total value of the cards left out of melds (tries every combination)."""
    cards = frozenset(cards)
    melds = melds_in(cards)
    best = sum(value(c) for c in cards)

    def search(i, used):
        nonlocal best
        best = min(best, sum(value(c) for c in cards - used))
        for j in range(i, len(melds)):
            if not melds[j] & used:
                search(j + 1, used | melds[j])

    search(0, frozenset())
    return best


def forms_meld(hand, card):
    return any(card in m for m in melds_in(set(hand) | {card}))


def decide(view, legal, rng):
    hand = [parse(c) for c in view["hand"]]
    actions = {(m["action"], m.get("from")) for m in legal}
    if ("accept", None) in actions:  # doubling: an offer waits for this bot's answer
        return {"action": "accept"}
    if view["phase"] in ("offer", "draw"):
        top = parse(view["discard_pile"][-1]) if view["discard_pile"] else None
        if ("draw", "discard") in actions and top is not None and forms_meld(hand, top):
            return {"action": "draw", "from": "discard"}
        if view["phase"] == "offer":
            return {"action": "pass"}
        return {"action": "draw", "from": "stock"}
    options = {}
    for m in legal:
        if m["action"] == "discard":
            rest = [c for c in hand if c != parse(m["card"])]
            options[m["card"]] = deadwood(rest)
    least = min(options.values())
    card = rng.choice(sorted(c for c, dw in options.items() if dw == least))
    if least <= view["knock_limit"]:
        return {"action": "knock", "card": card}
    return {"action": "discard", "card": card}


def answer(message, reply):
    """One JSON object on one line, echoing the request's id, flushed at once."""
    sys.stdout.write(json.dumps({**reply, "id": message["id"]}) + "\n")
    sys.stdout.flush()


def main():
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        kind = message.get("type")
        if kind == "hello":
            rng = random.Random(message.get("seed", 0))
            answer(message, {"type": "ready", "name": "example", "version": "2.0"})
        elif kind == "decide":
            answer(message, decide(message["view"], message["legal"], rng))
        elif kind == "bye":
            break
        # "hand_over" and anything new: nothing to answer


if __name__ == "__main__":
    main()
