"""Rule options: their names, types, defaults, and one resolved set of them.

Every option RULES.md names is declared here once, with its default from the
rule book. Variants change defaults (data); scoring systems declare their own
options the same way. Values come from, in rising priority: the option's
default, the variant's file, then a transcript's ``options`` or ``--option``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base.errors import quote
from .meldrules import STANDARD

#: The value of an option that is switched off (``big_gin_bonus = "off"``).
OFF = "off"


@dataclass(frozen=True)
class Option:
    """One rule option.

    ``kind`` is one of ``int`` (a whole number >= 0), ``bool``, ``choice`` (one
    of ``choices``), ``int-or-off`` (a number, or ``"off"``), ``knock-limit``
    (a number, or ``"upcard"``: the first upcard's value, an ace meaning gin only).
    ``most``, when given, is the largest number the option takes (a card's
    value, say, which meld rules keep within :data:`~gincli.rulebook.meldrules.MAX_CARD_VALUE`).
    """

    name: str
    default: Any
    description: str
    kind: str = "int"
    choices: tuple[str, ...] = field(default=())
    most: int | None = None

    def allowed(self) -> str:
        """What values are allowed, in words, for error messages and help."""
        number = "a whole number >= 0" if self.most is None else f"a whole number from 0 to {self.most}"
        return {
            "int": number,
            "bool": "true or false",
            "int-or-off": f'{number}, or "off"',
            "knock-limit": f'{number}, or "upcard"',
        }.get(self.kind) or "one of " + ", ".join(f'"{c}"' for c in self.choices)

    def coerce(self, value: Any) -> Any:
        """Check a value (from TOML, JSON or :func:`parse_value`) and return it
        in canonical form; raise ``ValueError`` with what is allowed."""
        kind = self.kind
        if kind == "bool":
            if isinstance(value, bool):
                return value
        elif kind == "choice":
            if isinstance(value, str) and value in self.choices:
                return value
        else:
            if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= (
                    value if self.most is None else self.most):
                return value
            if kind == "int-or-off" and (value is False or value == OFF or value is None):
                return OFF
            if kind == "knock-limit" and value == "upcard":
                return value
        raise ValueError(f"{self.name} must be {self.allowed()}, not {format_value(value)}")


#: What an option's ``kind`` may be (:class:`Option`).
OPTION_KINDS = ("int", "bool", "choice", "int-or-off", "knock-limit")


def format_value(value: Any) -> str:
    """An option value as messages and listings show it (JSON, cut to a readable length)."""
    return quote(value)


def parse_value(text: str) -> Any:
    """Read a ``--option`` value typed on the command line."""
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no"):
        return False
    if low in ("off", "none", "null"):
        return OFF
    try:
        return int(low)
    except ValueError:
        return text.strip()


class Assignments(dict[str, Any]):
    """``--option`` values read (:func:`parse_value`), with the text as typed
    (``typed``) so that an error quotes ``"on"``, not the ``true`` it was read as."""

    typed: dict[str, str]

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.typed = {}


def parse_assignments(items: Iterable[str], where: str = "--option") -> dict[str, Any]:
    """Parse ``key=value`` strings from ``--option`` (``where``: how the
    sentence names it); ``ValueError`` on a bad one."""
    out = Assignments()
    for item in items:
        key, sep, val = item.partition("=")
        key = key.strip().replace("-", "_")
        if not sep or not key:
            raise ValueError(f"{where} takes key=value (for example big_gin_bonus=31), not {quote(item)}")
        out[key] = parse_value(val)
        out.typed[key] = val.strip()
    return out


#: The options of play and hand scoring every variant has (RULES.md).
PLAY_OPTIONS: tuple[Option, ...] = (
    Option("knock_limit", 10, "most deadwood a player may knock with; \"upcard\": the first upcard's value, an ace "
           "meaning gin only", "knock-limit"),
    Option("knock_limit_cap", OFF, "the most the knock limit may be (with knock_limit = \"upcard\": the upcard's "
           "value, capped); \"off\": no cap", "int-or-off"),
    Option("gin_bonus", 25, "bonus for going gin"),
    Option("undercut_bonus", 25, "bonus to the defender for an undercut (a tie is an undercut)"),
    Option("big_gin_bonus", OFF, "bonus for big gin (all eleven cards melded); \"off\" forbids big gin",
           "int-or-off"),
    Option("spade_doubles", False, "double the hand's score when the first upcard is a spade", "bool"),
    Option("next_dealer", "winner", "who deals the next hand (after a dead hand the same dealer deals again)",
           "choice", ("winner", "loser", "alternate")),
    Option("first_dealer", "high", "after the cut for the deal, whether the higher or the lower card deals",
           "choice", ("high", "low")),
    Option("irregular_hand_penalty", 10, "what a player found with too few cards at the end of a hand adds to "
           "their deadwood count for each missing card"),
)


class Rules(Mapping[str, Any]):
    """A resolved, read-only set of option values; also readable as attributes
    (``rules.knock_limit``). ``movesets`` are the move sets these values turn
    on (:class:`gincli.MoveSet`): the rules of the moves plugins add; ``melds``
    the meld rules in force (a :class:`~gincli.rulebook.meldrules.MeldSolver`:
    the rule book's, :data:`~gincli.rulebook.meldrules.STANDARD`, unless a
    plugin's meld rules are on)."""

    __slots__ = ("_values", "movesets", "melds")

    def __init__(self, values: Mapping[str, Any], movesets: tuple[Any, ...] = (), melds: Any = None):
        object.__setattr__(self, "_values", dict(values))
        object.__setattr__(self, "movesets", tuple(movesets))
        object.__setattr__(self, "melds", STANDARD if melds is None else melds)

    def __getitem__(self, key: str) -> Any:
        return self._values[key]

    def __getattr__(self, key: str) -> Any:
        try:
            return self._values[key]
        except KeyError:
            raise AttributeError(key) from None

    def __reduce__(self) -> Any:  # slots and a read-only __setattr__: pickle by the constructor
        return (Rules, (self._values, self.movesets, self.melds))

    def __setattr__(self, key: str, value: Any) -> None:
        raise AttributeError("Rules are read-only")

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __repr__(self) -> str:
        return f"Rules({self._values!r})"

    def __hash__(self) -> int:
        return hash(tuple(sorted((k, repr(v)) for k, v in self._values.items())))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Mapping) and dict(self.items()) == dict(other.items())


def resolve(specs: Mapping[str, Option], *layers: Mapping[str, Any], where: str = "--option") -> Rules:
    """Merge option layers over the defaults of ``specs``.

    A key that is not an option, or a value of the wrong kind, raises
    ``ValueError`` naming the key and what is allowed; ``where`` says where
    the bad value came from.
    """
    values = {name: spec.default for name, spec in specs.items()}
    for layer in layers:
        for key, val in layer.items():
            spec = specs.get(key)
            if spec is None:
                known = ", ".join(sorted(specs))
                raise ValueError(f"{where}: unknown option {quote(key)}; the options are {known}")
            try:
                values[key] = spec.coerce(val)
            except ValueError as exc:
                typed = getattr(layer, "typed", {})
                if key in typed:  # as the user typed it
                    raise ValueError(f"{where}: {key} must be {spec.allowed()}, not {quote(typed[key])}") from None
                raise ValueError(f"{where}: {exc}") from None
    return Rules(values)
