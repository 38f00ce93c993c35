"""Hollywood scoring with N games on one sheet (a gincli plugin).

A player's n-th winning hand is entered in every game from 1 to min(n, N) that is
still open; a game closes when a player reaches its target; the session ends when
every game is closed. The sheet itself is gincli's ``HollywoodSheet`` (the rule
lives in one place); this plugin adds the scoring system and its ``games`` option.
"""

from __future__ import annotations

from gincli import GAME_OPTIONS, HollywoodSheet, Option, ScoringSystem, hookimpl

__version__ = "1.0.0"


class HollywoodN(ScoringSystem):
    name = "hollywood-n"
    description = "Hollywood with N games on one sheet (4 by default); the n-th win counts in games 1..n."
    options = tuple(Option(o.name, 125 if o.name == "target" else o.default, o.description, o.kind, o.choices)
                    for o in GAME_OPTIONS) + (Option("games", 4, "games on the sheet (2 to 9)"),)

    def new_session(self, players, rules):
        if not 2 <= rules["games"] <= 9:
            raise ValueError(f"games must be 2 to 9, not {rules['games']}")
        return HollywoodSheet(players, rules, games=rules["games"])


@hookimpl
def gincli_register_scoring_systems(register):
    register(HollywoodN())
