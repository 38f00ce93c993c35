"""docs/plugin-reference.md (issue 35, criterion 6): every public field of each
object a plugin's hooks and methods receive, or a plugin subclasses, is on the
page, in that object's section: the class's attributes and methods (its
gincli bases' too), its dataclass fields and slots, and the attributes an
instance of it sets."""

from __future__ import annotations

import dataclasses
import re

import pytest
from conftest import ROOT

import gincli
from gincli.hand.engine import Hand
from gincli.plugin.registry import load_registry
from gincli.rulebook.meldrules import MeldSolver

PAGE = (ROOT / "docs" / "plugin-reference.md").read_text()


def sample_instances() -> dict[str, object]:
    """An instance of each class whose instances set attributes of their own."""
    reg = load_registry(entry_points=False)
    variant, system = reg.variant("standard"), reg.scoring("game")
    rules = reg.rules(variant, system)
    hand = Hand(("ann", "bob"), "ann", variant, rules, deck=list(range(52)))
    corner = reg.rules(reg.variant("round-the-corner"), system)
    bot = reg.bot("simple")(gincli.rulebook.rng.SplitMix64(1), "ann")
    return {"Hand": hand, "Variant": variant, "ScoringSystem": system, "MoveSet": reg.movesets["doubling"],
            "MeldRules": reg.meld_rules["round-the-corner"], "MeldSolver": corner.melds,
            "Session": gincli.Session(["ann", "bob"], rules), "Bot": bot, "PlayerView": hand.view("bob"),
            "Option": gincli.Option("x", 1, "an option")}


#: Every object the page gives, by its section's title.
CLASSES = {"Move": gincli.Move, "PlayerView": gincli.PlayerView, "Hand": Hand, "Position": gincli.Position,
           "Spread": gincli.Spread, "HandResult": gincli.HandResult, "Option": gincli.Option, "Rules": gincli.Rules,
           "MeldSolver": MeldSolver, "Variant": gincli.Variant, "ScoringSystem": gincli.ScoringSystem,
           "Session": gincli.Session, "Seating": gincli.Seating, "MoveSet": gincli.MoveSet,
           "MeldRules": gincli.MeldRules, "Bot": gincli.Bot, "MatchBackend": gincli.MatchBackend,
           "MatchWork": gincli.MatchWork}


def public_fields(cls: type, instance: object | None) -> set[str]:
    names: set[str] = set()
    for klass in cls.__mro__:
        if klass.__module__.startswith("gincli") and klass is not dict:
            names |= set(vars(klass)) | set(getattr(klass, "__annotations__", {})) | set(getattr(klass, "__slots__",
                                                                                                    ()))
    if dataclasses.is_dataclass(cls):
        names |= {f.name for f in dataclasses.fields(cls)}
    if instance is not None and hasattr(instance, "__dict__"):
        names |= set(vars(instance))
    return {n for n in names if not n.startswith("_")}


def section(title: str) -> str:
    found = re.search(rf"^## {title}\n(.*?)(?=^## |\Z)", PAGE, re.S | re.M)
    assert found, f"docs/plugin-reference.md has no section {title}"
    return found.group(1)


@pytest.mark.parametrize("title", list(CLASSES))
def test_every_public_field_is_on_the_reference_page(title):
    cls = CLASSES[title]
    instance = sample_instances().get(title)
    if instance is not None:
        assert isinstance(instance, cls)
    text = section(title)
    written = set(re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)", text))
    missing = sorted(public_fields(cls, instance) - written)
    assert missing == [], f"docs/plugin-reference.md, {title}: not documented: {', '.join(missing)}"


def test_the_page_names_no_field_a_class_does_not_have():
    """What a table's first column names is a field of its object (or a call on it)."""
    instances = sample_instances()
    for title, cls in CLASSES.items():
        fields = public_fields(cls, instances.get(title))
        for row in re.findall(r"^\| (`.*?) \|", section(title), re.M):
            for name in re.findall(r"`([A-Za-z_][A-Za-z0-9_]*)", row):
                assert name in fields, f"docs/plugin-reference.md, {title}: {name} is no field of it"


def test_the_reference_is_linked_and_spread_is_exported():
    assert "(plugin-reference.md)" in (ROOT / "docs" / "plugins.md").read_text()
    from gincli.rulebook.scoring import Position, Spread

    assert gincli.Spread is Spread and gincli.Position is Position
