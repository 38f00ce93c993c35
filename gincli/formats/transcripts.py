"""Transcripts (FORMATS.md "Transcript"): building and writing them.

gincli writes a transcript with ``format``, ``id`` (when given), ``variant``,
``scoring``, ``options`` (the rules: every option's value, but those of a move
set that is off and at their defaults), ``players`` and ``hands`` (each with
``dealer``, ``deck``, ``deal``, ``moves`` and, once finished, ``result``), then
the session ``result`` once settled. Its own additions: ``plugins`` (the
plugins, but the built-ins, that provide what its rules need: a machine
without one says which), ``seed`` (the seed that dealt it), ``cut`` (the cards
cut for the first deal), ``capped`` (a session stopped by the hand cap) and,
from ``gin match``, ``match`` (what defines the match: bots, names, seed,
duplicate, unit).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base.version import __version__
from ..rulebook.cards import CARD_NAMES

#: The ``format`` field of every transcript (FORMATS.md).
TRANSCRIPT_FORMAT = "gincli-transcript/1"


def transcript(players: Sequence[str], variant: str, scoring: str, hands: list[dict[str, Any]], *,
               options: Mapping[str, Any] | None = None, id: Any = None, seed: int | None = None,
               cut: Mapping[str, int] | None = None, result: Mapping[str, Any] | None = None,
               capped: bool = False, plugins: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """A transcript document, fields in the order FORMATS.md lists them, then
    gincli's ``capped`` when the session was stopped by the hand cap, and
    ``gincli``: the version of gincli that wrote it (results are traceable)."""
    doc: dict[str, Any] = {"format": TRANSCRIPT_FORMAT}
    if id is not None:
        doc["id"] = id
    doc["variant"] = variant
    doc["scoring"] = scoring
    if options:
        doc["options"] = dict(options)
    if plugins:
        doc["plugins"] = {name: dict(entry) for name, entry in plugins.items()}
    doc["players"] = list(players)
    if seed is not None:
        doc["seed"] = seed
    if cut:
        doc["cut"] = {p: CARD_NAMES[c] for p, c in cut.items()}
    doc["hands"] = hands
    if result is not None:
        doc["result"] = dict(result)
    if capped:
        doc["capped"] = True
    doc["gincli"] = __version__
    return doc


def to_toml(doc: Mapping[str, Any]) -> str:
    """A transcript as TOML (TOML has no null: null fields are left out)."""
    import tomli_w

    def clean(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: clean(v) for k, v in value.items() if v is not None}
        if isinstance(value, list):
            return [clean(v) for v in value if v is not None]
        return value

    return tomli_w.dumps(clean(doc))
