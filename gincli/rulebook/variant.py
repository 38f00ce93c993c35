"""Variants of play: what a variant may change, and variant files (TOML).

A :class:`Variant` is mostly data: the defaults of the options in
:data:`gincli.rulebook.rules.PLAY_OPTIONS`. Its methods are the points where a variant
changes the rules without touching the engine: the knock limit (which may
come from the first upcard, or be 0 to forbid knocking with deadwood), and a
multiplier for a hand's score. Bonuses are options. A Python plugin subclasses
``Variant`` to change behaviour; a TOML file names a variant to start from and
overrides options.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..base.config import read_toml
from ..base.contract import call, truth, whole
from ..base.errors import ConfigError, quote
from .cards import CARD_VALUES
from .rules import OFF, PLAY_OPTIONS, Option, Rules

#: The keys a variant file may have at its top level.
VARIANT_FILE_KEYS = ("name", "base", "description", "options")


class Variant:
    """A variant of play.

    Attributes: ``name`` (how users select it), ``description`` (one line),
    ``defaults`` (option values that differ from the rule book's defaults),
    ``source`` (where it was defined, for messages and ``gin variants``).
    Subclasses may add options by overriding ``extra_options``.
    """

    extra_options: tuple[Option, ...] = ()

    def __init__(self, name: str, description: str = "", defaults: Mapping[str, Any] | None = None,
                 source: str = "built-in"):
        self.name = name
        self.description = description
        self.defaults = dict(defaults or {})
        self.source = source

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name!r} from {self.source}>"

    @property
    def options(self) -> dict[str, Option]:
        """The options of play this variant has, by name."""
        return {o.name: o for o in PLAY_OPTIONS + tuple(self.extra_options)}

    def derive(self, name: str, description: str, defaults: Mapping[str, Any], source: str) -> Variant:
        """A new variant that starts from this one and overrides some defaults;
        it keeps this variant's behaviour (its class)."""
        new = copy.copy(self)
        new.name = name
        new.description = description or self.description
        new.defaults = {**self.defaults, **defaults}
        new.source = source
        return new

    # -- the rules a variant may change ----------------------------------------------

    def needs_upcard(self, rules: Rules) -> bool:
        """Whether scoring a hand needs that hand's first upcard."""
        return rules["knock_limit"] == "upcard" or bool(rules["spade_doubles"])

    def knock_limit(self, rules: Rules, upcard: int | None) -> int:
        """The most deadwood a player may knock with in a hand; 0 means gin only.

        ``"upcard"`` (Oklahoma): the first upcard's value, face cards 10; an ace
        means nobody may knock with deadwood. ``knock_limit_cap``, when not off,
        is the most it may be (a house rule: Oklahoma, but never above 7).
        """
        limit = rules["knock_limit"]
        if limit == "upcard":
            if upcard is None:
                raise ValueError("upcard needed")
            return _capped(0 if upcard % 13 == 0 else CARD_VALUES[upcard], rules)
        return _capped(limit, rules)

    # -- the same, checked: what the engine and the scorer call. A plugin's
    # -- override is plugin code: what it returns is checked where it crosses.

    def checked_knock_limit(self, rules: Rules, upcard: int | None) -> int:
        """:meth:`knock_limit`, checked: a whole number of 0 or more."""
        if type(self).knock_limit is Variant.knock_limit:
            return self.knock_limit(rules, upcard)
        what = f"the variant {self.name}'s knock_limit()"
        return whole(self, what, call(self, what, self.knock_limit, rules, upcard), 0)

    def checked_multiplier(self, rules: Rules, upcard: int | None) -> int:
        """:meth:`hand_multiplier`, checked: a whole number of 1 or more."""
        if type(self).hand_multiplier is Variant.hand_multiplier:
            return self.hand_multiplier(rules, upcard)
        what = f"the variant {self.name}'s hand_multiplier()"
        return whole(self, what, call(self, what, self.hand_multiplier, rules, upcard), 1)

    def checked_needs_upcard(self, rules: Rules) -> bool:
        """:meth:`needs_upcard`, checked: true or false."""
        if type(self).needs_upcard is Variant.needs_upcard:
            return self.needs_upcard(rules)
        what = f"the variant {self.name}'s needs_upcard()"
        return truth(self, what, call(self, what, self.needs_upcard, rules))

    def hand_multiplier(self, rules: Rules, upcard: int | None) -> int:
        """What a hand's points are multiplied by (``spade_doubles``: 2 when the
        first upcard is a spade)."""
        if rules["spade_doubles"] and upcard is not None and upcard // 13 == 0:
            return 2
        return 1


def _capped(limit: int, rules: Rules) -> int:
    """A knock limit under the option ``knock_limit_cap`` (off: as it is)."""
    cap = rules.get("knock_limit_cap", OFF)
    return limit if cap == OFF else min(limit, cap)


def read_variant_file(path: Path) -> dict[str, Any]:
    """Read a variant file's raw table; errors name the file."""
    data = read_toml(path, "variant file")
    for key in data:
        if key not in VARIANT_FILE_KEYS:
            allowed = ", ".join(VARIANT_FILE_KEYS)
            raise ConfigError(f"variant file {path}: unknown key {quote(key)}; a variant file has {allowed}")
    for key in ("name", "base", "description"):
        if key in data and not isinstance(data[key], str):
            raise ConfigError(f"variant file {path}: \"{key}\" must be a string")
    if "options" in data and not isinstance(data["options"], dict):
        raise ConfigError(f"variant file {path}: \"options\" must be a table ([options])")
    if "name" in data and not data["name"].strip():
        raise ConfigError(f"variant file {path}: \"name\" may not be empty")
    data.setdefault("name", path.stem)
    data.setdefault("options", {})
    return data


class PendingVariant:
    """A variant file read but not yet bound to its base (bases may come from
    other plugins, so the registry binds them once every plugin registered)."""

    def __init__(self, data: Mapping[str, Any], source: str):
        self.name: str = data["name"]
        self.base: str | None = data.get("base")
        self.description: str = data.get("description", "")
        self.options: dict[str, Any] = dict(data.get("options", {}))
        self.source = source

    @classmethod
    def from_file(cls, path: Path) -> PendingVariant:
        return cls(read_variant_file(path), str(path))

    def __repr__(self) -> str:
        return f"<PendingVariant {self.name!r} from {self.source}>"


def variant_from_file(path: str) -> PendingVariant:
    """A variant read from a TOML variant file, ready to ``register()``."""
    return PendingVariant.from_file(Path(path))
