"""Small helpers for tests: cards from text, JSON Lines from output."""

from __future__ import annotations

import json

from gincli.rulebook.cards import mask_of, parse_card


def cards(text: str) -> list[int]:
    """``"7s 7h 7d"`` -> card ints."""
    return [parse_card(t) for t in text.split()]


def mask(text: str) -> int:
    return mask_of(cards(text))


def json_lines(text: str) -> list[dict]:
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def record(ann: str, bob: str, knocker: str | None = "ann", **extra) -> dict:
    """A hand record for players ann and bob."""
    rec = {"hands": {"ann": ann.split(), "bob": bob.split()}}
    if knocker is not None:
        rec["knocker"] = knocker
    rec.update(extra)
    return rec
