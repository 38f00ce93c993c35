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


def game_pad(game: dict[str, Any], players: Sequence[str], title: str, last: int | None = None) -> Any:
    """One game as a score pad: each won hand adds to the winner's running total,
    then the bonuses, then the totals. With ``last``, only the last entries
    are listed (a line says how many came before)."""
    from rich.table import Table

    table = Table(title=title, title_justify="left", min_width=26)
    table.add_column("", style="dim")
    for p in players:
        table.add_column(safe(p), justify="right")
    running = dict.fromkeys(players, 0)
    entries = game.get("hands", [])
    skip = _skip(entries, last)
    for i, (winner, points) in enumerate(entries):
        running[winner] += points
        if i + 1 == skip:
            table.add_row(f"{skip} hands", *(str(running[p]) for p in players))
        elif i >= skip:
            table.add_row(f"+{points}", *(f"{running[p]}" if p == winner else "" for p in players))
    if not entries:  # nothing won yet (a dead first hand): the pad says so
        table.add_row("no points yet", *("0" for _ in players))
    winner = game.get("winner")
    if winner is None:
        table.caption = IN_PLAY
        return table
    table.add_section()
    for key, parts in game.get("bonuses", {}).items():
        if any(parts.values()):
            table.add_row(BONUS_LABELS.get(key, key), *(f"+{parts[p]}" if parts[p] else "" for p in players))
    table.add_section()
    totals = game["scores"]
    table.add_row("total", *(f"[bold]{totals[p]}[/]" for p in players))
    table.caption = game_caption(game, players)
    return table


BONUS_LABELS = {"game": "game", "shutout": "shutout", "box": "boxes"}

#: The caption of a pad whose session is not settled yet.
IN_PLAY = "in play: no winner yet"


def game_caption(game: dict[str, Any], players: Sequence[str]) -> str:
    winner = game["winner"]
    totals = game["scores"]
    loser = next(p for p in players if p != winner)
    shut = ", a shutout" if game.get("hands_won", {}).get(loser, 1) == 0 else ""
    return f"won by {safe(winner)}{shut}; net {game.get('net', totals[winner] - totals[loser])}"


def games_table(games: list[dict[str, Any]], players: Sequence[str], title: str, last: int | None = None) -> Any:
    """Several games on one pad, a pair of columns a game (Hollywood on a narrow
    screen): row n holds each game's n-th entry."""
    from rich.table import Table

    table = Table(title=title, title_justify="left")
    table.add_column("", style="dim")  # no number: a row holds each game's next entry, not one hand
    for gi in range(len(games)):
        for pi, p in enumerate(players):
            table.add_column(f"game {gi + 1}\n{safe(p)}" if pi == 0 else f"\n{safe(p)}", justify="right")
    columns = []
    for g in games:
        running = dict.fromkeys(players, 0)
        rows = []
        for winner, points in g.get("hands", []):
            running[winner] += points
            rows.append([str(running[p]) if p == winner else "" for p in players])
        columns.append(rows)
    depth = max((len(rows) for rows in columns), default=0)
    skip = max(0, depth - last) if last is not None else 0
    if skip:
        table.add_row(f"{skip} more above", *([""] * (len(games) * len(players))))
    for n in range(skip, depth):
        cells = []
        for rows in columns:
            cells += rows[n] if n < len(rows) else [""] * len(players)
        table.add_row("", *cells)
    if not depth:
        table.add_row("no points yet", *(["0"] * (len(games) * len(players))))
    if any(g.get("winner") for g in games):
        table.add_section()
        for key, label in BONUS_LABELS.items():
            cells = []
            for g in games:
                parts = g.get("bonuses", {}).get(key, {})
                cells += [f"+{parts[p]}" if parts.get(p) else "" for p in players]
            if any(cells):
                table.add_row(label, *cells)
        table.add_section()
        cells = []
        for g in games:
            cells += [f"[bold]{g['scores'][p]}[/]" if g.get("winner") else "" for p in players]
        table.add_row("total", *cells)
    return table


class SideBySide:
    """Pads side by side where they fit the width, else ``narrow`` (one table)."""

    def __init__(self, pads: list[Any], narrow: Any, gap: int = 2):
        self.pads = pads
        self.narrow = narrow
        self.gap = gap

    def __rich_console__(self, console: Any, options: Any) -> Any:
        from rich.columns import Columns
        from rich.measure import Measurement

        need = sum(Measurement.get(console, options, p).maximum for p in self.pads) + self.gap * (len(self.pads) - 1)
        yield Columns(self.pads, padding=(0, self.gap)) if need <= options.max_width else self.narrow


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def _skip(entries: list[Any], last: int | None) -> int:
    return max(0, len(entries) - last) if last is not None else 0


def settlement(result: dict[str, Any], players: Sequence[str]) -> str:
    scores = result.get("scores", {})
    return "settlement: " + ", ".join(f"{safe(p)} {_signed(scores.get(p, 0))}" for p in players)


def cutthroat_pad(result: dict[str, Any], players: Sequence[str], title: str, last: int | None = None) -> Any:
    """Three columns, a running total each; who sat out each hand; the bonuses,
    the totals, and every player's net result."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    table = Table(title=title, title_justify="left")
    table.add_column("", style="dim")
    for p in players:
        table.add_column(safe(p), justify="right")
    table.add_column("sat out", style="dim")
    running = dict.fromkeys(players, 0)
    entries = result.get("hands", [])
    skip = _skip(entries, last)
    for i, (winner, points, out) in enumerate(entries):
        running[winner] += points
        if i + 1 == skip:
            table.add_row(f"{skip} hands", *(str(running[p]) for p in players), "")
        elif i >= skip:
            table.add_row(f"+{points}", *(str(running[p]) if p == winner else "" for p in players), safe(out or ""))
    winner = result.get("winner")
    if winner is not None:
        table.add_section()
        for key, parts in result.get("bonuses", {}).items():
            if any(parts.values()):
                table.add_row(BONUS_LABELS.get(key, key), *(f"+{parts[p]}" if parts[p] else "" for p in players), "")
        table.add_section()
        table.add_row("total", *(f"[bold]{result['totals'][p]}[/]" for p in players), "")
        shut = ", ".join(f"{safe(p)} pays {v}" for p, v in result.get("shutouts", {}).items())
        table.caption = f"won by {safe(winner)}" + (f"; shut out: {shut}" if shut else "")
    else:
        table.caption = IN_PLAY
    return Group(table, Text.from_markup(settlement(result, players)))


def chouette_pad(result: dict[str, Any], players: Sequence[str], title: str, last: int | None = None) -> Any:
    """The box against the partnership, with each hand's captain; then the
    bonuses, the totals, and every player's net result."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    box = result.get("box")
    partners = [p for p in players if p != box]
    table = Table(title=f"{title}: {safe(box)} is the box against {', '.join(map(safe, partners))}" if box else title,
                  title_justify="left")
    table.add_column("", style="dim")
    table.add_column("captain")
    table.add_column(f"box ({safe(box)})" if box else "box", justify="right")
    table.add_column("partners", justify="right")
    running = {"box": 0, "partners": 0}
    entries = result.get("hands", [])
    skip = _skip(entries, last)
    for i, (side, points, captain) in enumerate(entries):
        running[side] += points
        if i + 1 == skip:
            table.add_row(f"{skip} hands", "", str(running["box"]), str(running["partners"]))
        elif i >= skip:
            table.add_row(f"+{points}", safe(captain or ""), *(str(running[s]) if s == side else ""
                                                          for s in ("box", "partners")))
    winner = result.get("winner")
    if winner is not None:
        table.add_section()
        for key, parts in result.get("bonuses", {}).items():
            if any(parts.values()):
                table.add_row(BONUS_LABELS.get(key, key), "", *(f"+{parts[s]}" if parts[s] else ""
                                                                for s in ("box", "partners")))
        table.add_section()
        table.add_row("total", "", *(f"[bold]{result['totals'][s]}[/]" for s in ("box", "partners")))
        table.caption = f"won by the {'box' if winner == 'box' else 'partners'}"
    else:
        table.caption = IN_PLAY
    return Group(table, Text.from_markup(settlement(result, players)))


def partnership_pad(result: dict[str, Any], players: Sequence[str], title: str, last: int | None = None) -> Any:
    """Team columns deal by deal (each deal's points at the two tables, and the
    winning team's running total); then the bonuses, totals and settlement."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    teams = result.get("teams") or [[players[0], players[2]], [players[1], players[3]]]
    names = [" & ".join(map(safe, t)) for t in teams]
    table = Table(title=f"{title}: {names[0]} against {names[1]}", title_justify="left")
    table.add_column("deal", style="dim", justify="right")
    table.add_column("tables", style="dim", justify="center")
    for n in names:
        table.add_column(n, justify="right")
    running = [0, 0]
    deals = result.get("deals", [])
    skip = _skip(deals, last)
    for i, (won, points, both) in enumerate(deals):
        if won is not None:
            running[won] += points
        if i + 1 == skip:
            table.add_row(f"1–{skip}", "", *(str(r) for r in running))
        elif i >= skip:
            cells = [str(running[t]) if t == won else "" for t in (0, 1)]
            table.add_row(str(i + 1), f"{both[0]}–{both[1]}" + ("" if won is not None else " tie"), *cells)
    winner = result.get("winner")
    if winner is not None:
        table.add_section()
        for key, parts in result.get("bonuses", {}).items():
            if any(parts):
                table.add_row(BONUS_LABELS.get(key, key), "", *(f"+{v}" if v else "" for v in parts))
        table.add_section()
        table.add_row("total", "", *(f"[bold]{t}[/]" for t in result["totals"]))
        table.caption = f"won by {names[winner]}"
    else:
        table.caption = IN_PLAY
    return Group(table, Text.from_markup(settlement(result, players)))


def session_sheet(result: dict[str, Any], scoring: str, players: Sequence[str], last: int | None = None) -> Any:
    """A settled (or open) session as score sheets, for people. With ``last``,
    long pads list only their last entries."""
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    if "teams" in result:
        return partnership_pad(result, players, scoring, last)
    if "box" in result:
        return chouette_pad(result, players, scoring, last)
    if isinstance(result.get("totals"), dict) and "hands" in result:
        return cutthroat_pad(result, players, scoring, last)
    if scoring == "game" or ("games" not in result and "hands" in result):
        return game_pad(result, players, "game", last)
    if "games" in result and scoring != "match-500":  # hollywood and its kin: pads side by side
        pads = [game_pad(g, players, f"game {i + 1}", last) for i, g in enumerate(result["games"])]
        sums = ", ".join(f"{safe(p)} {result['scores'][p]}" for p in players)
        winner = result.get("winner")
        foot = Text.from_markup(f"sum of the games: {sums}" + (f" · winner: [bold]{safe(winner)}[/]" if winner else ""))
        return Group(SideBySide(pads, games_table(result["games"], players, scoring, last)), foot)
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
        if "current_game" in result:
            return Group(table, game_pad(result["current_game"], players, f"game {len(result['games']) + 1}",
                                         last))
        return table
    scores = ", ".join(f"{p} {v}" for p, v in result.get("scores", {}).items())
    return Text(safe(f"hand by hand: {scores}", markup=False))


def score_line(result: dict[str, Any], scoring: str, players: Sequence[str], rules: Any) -> str:
    """The session's score so far on one line, for the table (long names cut short)."""
    from .render import cut

    def pair(scores: dict[str, Any]) -> str:
        return " · ".join(f"{cut(p, 16)} {scores.get(p, 0)}" for p in players)

    if "teams" in result:
        teams = [" & ".join(cut(p, 12) for p in t) for t in result["teams"]]
        return f"{teams[0]} {result['totals'][0]} · {teams[1]} {result['totals'][1]} (to {rules['target']})"
    if "box" in result:
        return (f"box ({result['box']}) {result['totals']['box']} · partners {result['totals']['partners']} "
                f"(to {rules['target']})")
    if isinstance(result.get("totals"), dict):
        return f"{pair(result['totals'])} (to {rules['target']})"

    if scoring == "match-500" and "current_game" in result:
        return (f"game {len(result.get('games', [])) + 1}: {pair(result['current_game']['scores'])}"
                f"   match: {pair(result['scores'])} (to {rules['match_target']})")
    if "games" in result and scoring != "match-500":
        games = result["games"]
        each = " / ".join("–".join(str(g["scores"][p]) for p in players) + ("✓" if g.get("winner") else "")
                          for g in games)
        return f"{' – '.join(cut(p, 16) for p in players)}: {each} ({len(games)} games to {rules['target']})"
    if scoring == "game" and "target" in rules:
        return f"{pair(result.get('scores', {}))} (game to {rules['target']})"
    if scoring == "hand":
        return f"{pair(result.get('scores', {}))} (each hand settled alone)"
    return pair(result.get("scores", {}))


def winner_text(result: dict[str, Any], markup: bool = True) -> str | None:
    """Who won a session, for people (rich markup, or plain text): a name, a
    team's names (``ann & cat``, as the CSV's ``winner`` column spells them),
    the box or the partners; None while nobody has."""
    from ..formats.rows import WINNERS_JOIN, winners_of

    winner = result.get("winner")
    if winner is None:
        return None
    show = safe if markup else str
    if "box" in result and winner in ("box", "partners"):
        return f"the box, {show(result['box'])}" if winner == "box" else "the partners"
    return WINNERS_JOIN.join(show(p) for p in winners_of(result)) or None
