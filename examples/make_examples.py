"""Regenerate the example transcripts in examples/ (played by gincli's engine with a
seeded, greedy player; under doubling, one that doubles near a knock). Usage:
python examples/make_examples.py"""

from __future__ import annotations

import json
from pathlib import Path

from gincli.hand.engine import DISCARD, Hand, Move
from gincli.plugin.registry import load_registry
from gincli.rulebook.melds import deadwood
from gincli.sessions.table import play_session

HERE = Path(__file__).parent


def greedy(h: Hand) -> Move:
    """Knock as soon as possible; else take the upcard when it lowers deadwood, and
    discard to the least deadwood."""
    moves = h.legal_moves()
    knocks = [m for m in moves if m.action == "knock"]
    if knocks:
        return min(knocks, key=lambda m: deadwood(h.hands[h.to_act] & ~(1 << m.card)) if m.card is not None else -1)
    if h.phase == DISCARD:
        held = h.hands[h.to_act]
        return min((m for m in moves if m.action == "discard"), key=lambda m: (deadwood(held & ~(1 << m.card)), m.card))
    held = h.hands[h.to_act]
    top = h.pile[-1] if h.pile else None
    take = top is not None and min(
        deadwood((held | 1 << top) & ~(1 << c)) for c in range(52) if held >> c & 1) < deadwood(held)
    wanted = "discard" if take else ("stock" if h.phase != "offer" else None)
    for m in moves:
        if (m.action == "draw" and m.source == wanted) or (wanted is None and m.action == "pass"):
            return m
    return moves[-1]


def doubler(h: Hand) -> Move:
    """The greedy player, under doubling: offers with 12 or less deadwood, declines
    with 30 or more, else accepts."""
    moves = h.legal_moves()
    actions = {m.action: m for m in moves}
    held = deadwood(h.hands[h.to_act])
    if "accept" in actions:
        return actions["decline" if held >= 30 else "accept"]
    if "double" in actions and held <= 12:
        return actions["double"]
    return greedy(h)


def make(name: str, variant: str, scoring: str, seed: int, options: dict | None = None, indent: int | None = 1,
         players: tuple[str, ...] = ("ann", "bob"), chooser=greedy):
    registry = load_registry(entry_points=False)
    v = registry.variant(variant)
    system = registry.scoring(scoring)
    rules = registry.rules(v, system, options or {})
    rec = play_session(players, v, rules, system, chooser, seed, id=name, options=dict(rules))
    (HERE / f"{name}.json").write_text(json.dumps(rec.transcript, indent=indent) + "\n")
    return rec


def make_faulty() -> None:
    """The game, with one fault: in hand 0 a player takes the discard and throws it straight back."""
    bad = json.loads((HERE / "game.json").read_text())
    bad["id"] = "faulty"
    moves = bad["hands"][0]["moves"]
    for i in range(3, len(moves) - 1):
        if (moves[i]["action"] == "draw" and moves[i]["from"] == "stock" and moves[i - 1]["action"] == "discard"
                and moves[i + 1]["action"] == "discard"):
            moves[i] = {"player": moves[i]["player"], "action": "draw", "from": "discard", "card": moves[i - 1]["card"]}
            moves[i + 1]["card"] = moves[i - 1]["card"]
            break
    (HERE / "faulty.json").write_text(json.dumps(bad, indent=1) + "\n")


if __name__ == "__main__":
    make("game", "standard", "game", 2026)
    make_faulty()
    make("hollywood", "oklahoma", "hollywood", 7, indent=None)
    make("match", "standard", "match-500", 3, indent=None)
    make("gin-only-hand", "gin-only", "hand", 12)
    make("cutthroat", "standard", "cutthroat", 4, indent=None, players=("ann", "bob", "cat"))
    make("chouette", "standard", "chouette", 4, indent=None, players=("ann", "bob", "cat", "dan"))
    make("partnership", "standard", "partnership", 4, indent=None, players=("ann", "bob", "cat", "dan"))
    make("doubling", "doubling", "game", 5, indent=None, chooser=doubler)
