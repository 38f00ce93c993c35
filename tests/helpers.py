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


def assert_legal_and_replayable(registry, bots: tuple[str, str], variant: str, scoring: str, seed: int) -> None:
    """Two sessions of ``bots`` (duplicate deals) under ``variant`` and ``scoring``:
    the same transcripts when played again with the seed, each valid, no forfeit."""
    from gincli.matches.runner import MatchSpec, play_match_session
    from gincli.replay.validate import validate

    def transcripts() -> list[str]:
        spec = MatchSpec(bots, bots, "games", 2, seed, variant, scoring, {}, True)
        return [play_match_session(spec, i, registry, True).transcript or "" for i in range(2)]

    first = transcripts()
    assert first == transcripts()
    for line in first:
        doc = json.loads(line)
        report = validate(doc, registry)
        assert report.valid, report.errors
        assert not any(h.get("forfeit") for h in doc["hands"])
