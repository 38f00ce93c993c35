"""Session results drawn as score sheets, the way a table keeps them on paper.

A game is a score pad: each won hand adds to the winner's running total (a
line under it), then the bonuses settle the game. Hollywood is three pads
side by side; a closed game takes no more entries. A 500-point match is a
table of games with the running match points.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .render import safe


def game_pad(game: dict[str, Any], players: Sequence[str], title: str) -> Any:
    """One game as a score pad: each won hand adds to the winner's running total,
    then the bonuses, then the totals."""
    from rich.table import Table

    table = Table(title=title, title_justify="left", min_width=26)
    table.add_column("", style="dim")
    for p in players:
        table.add_column(safe(p), justify="right")
    running = dict.fromkeys(players, 0)
    for winner, points in game.get("hands", []):
        running[winner] += points
        table.add_row(f"+{points}", *(f"{running[p]}" if p == winner else "" for p in players))
    winner = game.get("winner")
    if winner is None:
        table.caption = "open"
        return table
    table.add_section()
    labels = {"game": "game", "shutout": "shutout", "box": "boxes"}
    for key, parts in game.get("bonuses", {}).items():
        if any(parts.values()):
            table.add_row(labels.get(key, key), *(f"+{parts[p]}" if parts[p] else "" for p in players))
    table.add_section()
    totals = game["scores"]
    table.add_row("total", *(f"[bold]{totals[p]}[/]" for p in players))
    loser = next(p for p in players if p != winner)
    shut = ", a shutout" if game.get("hands_won", {}).get(loser, 1) == 0 else ""
    table.caption = f"won by {safe(winner)}{shut}; net {game.get('net', totals[winner] - totals[loser])}"
    return table


def session_sheet(result: dict[str, Any], scoring: str, players: Sequence[str]) -> Any:
    """A settled (or open) session as score sheets, for people."""
    from rich.columns import Columns
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    if scoring == "game" or ("games" not in result and "hands" in result):
        return game_pad(result, players, "game")
    if "games" in result and scoring != "match-500":  # hollywood and its kin: pads side by side
        pads = [game_pad(g, players, f"game {i + 1}") for i, g in enumerate(result["games"])]
        sums = ", ".join(f"{safe(p)} {result['scores'][p]}" for p in players)
        winner = result.get("winner")
        foot = f"sum of the games: {sums}" + (f" · winner: [bold]{safe(winner)}[/]" if winner else "")
        return Group(Columns(pads, padding=(0, 2)), Text.from_markup(foot))
    if "games" in result:  # match-500
        table = Table(title="match", title_justify="left")
        table.add_column("game", justify="right")
        table.add_column("winner")
        for p in players:
            table.add_column(safe(p), justify="right")
        table.add_column("net", justify="right")
        for p in players:
            table.add_column(f"{safe(p)} match", justify="right")
        match = dict.fromkeys(players, 0)
        for i, g in enumerate(result["games"], 1):
            match[g["winner"]] += g.get("net", 0)
            table.add_row(str(i), safe(g["winner"]), *(str(g["scores"][p]) for p in players), str(g.get("net", "")),
                          *(str(match[p]) for p in players))
        winner = result.get("winner")
        table.caption = f"winner: {safe(winner)}" if winner else "match not settled"
        return table
    scores = ", ".join(f"{p} {v}" for p, v in result.get("scores", {}).items())
    return Text(safe(f"hand by hand: {scores}", markup=False))
