"""A match's summary for people: the table of the players, then its
statistics in sentences (``gin match``, ``gin report``)."""

from __future__ import annotations

from typing import Any

from ..hand.engine import MAX_HAND_MOVES
from ..rulebook.rules import format_value
from .render import bot_label, cut, plural, safe, signed

#: The reasons of each player's forfeits a match's summary for people gives one by one; the
#: rest in one line (``--format json`` lists more: ``REASONS_KEPT`` of gincli/matches/runner.py).
SHOWN_REASONS = 3


def forfeit_lines(groups: list[dict[str, Any]]) -> list[str]:
    """A match's forfeits for people: each player's first :data:`SHOWN_REASONS`
    reasons, with their counts and where each began; then, for a player with
    more, one line for the rest."""
    lines = []
    shown: dict[str, int] = {}
    rest: dict[str, list[dict[str, Any]]] = {}
    for g in groups:
        player = g["player"]
        if shown.get(player, 0) < SHOWN_REASONS and not g.get("others"):
            shown[player] = shown.get(player, 0) + 1
            lines.append(f"forfeit: {player}, {plural(g['count'], 'time')} (first in session "
                         f"{g['first_session_index'] + 1}, hand {g['first_hand_index'] + 1}): {g['reason']}")
        else:
            rest.setdefault(player, []).append(g)
    for player, more in rest.items():
        listed = sum(1 for g in more if not g.get("others"))
        times = plural(sum(g["count"] for g in more), "more time")
        if listed < len(more):  # past the reasons counted one by one
            lines.append(f"forfeit: {player}, {times}, for other reasons (--format json lists {listed} more of "
                         "them, and counts the rest)")
        else:
            lines.append(f"forfeit: {player}, {times}, for {plural(listed, 'other reason')} (--format json lists "
                         f"{'it' if listed == 1 else 'them'})")
    return lines


def capped_note(s: dict[str, Any]) -> str:
    """What the hand cap did to a match (its summary ``s``), in one sentence."""
    n = s["capped_sessions"]
    return (f"{plural(n, 'session')} reached the hand cap of {s['max_hands']:,} hands unsettled and "
            "stopped (raise it with --max-hands)")


def render_summary(s: dict[str, Any]) -> Any:
    """The match summary for people: a table of the players, then the statistics."""
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"{safe(s['variant'])} · {s['scoring']} · seed {s['seed']}"
                        + (" · duplicate deals" if s["duplicate"] else ""), title_justify="left",
                  box=box.SIMPLE_HEAD, pad_edge=False)
    forfeits = any(p["forfeits"] for p in s["players"])
    many = len(s["players"]) > 2
    table.add_column("player", no_wrap=True)
    if s["games"]:
        table.add_column("games", justify="right", no_wrap=True)
    cols = ["played", "won", "pts/hand", "gins"] if many else ["hands", "points", "pts/hand", "gins", "undercuts"]
    cols += (["forfeits"] if forfeits else []) + (["net a game (95%)"] if many and s["games"] else [])
    for col in cols:
        table.add_column(col, justify="right", no_wrap=True)
    for p in s["players"]:
        name = cut(p["name"], 20)
        bot = bot_label(p["bot"], 16)
        row = [f"[bold]{safe(name)}[/]" + (f" [dim]({safe(bot)})[/]" if bot != p["name"] else "")]
        if s["games"]:
            row.append(str(p["games_won"]))
        if many:
            row += [str(p["hands_played"]), str(p["hands_won"]), f"{p['points_per_hand']:.2f}", str(p["gins"])]
        else:
            row += [str(p["hands_won"]), str(p["points"]), f"{p['points_per_hand']:.2f}", str(p["gins"]),
                    str(p["undercuts"])]
        row += [str(p["forfeits"])] if forfeits else []
        if many and s["games"]:
            row.append(net_text(p["net_per_game"]))
        table.add_row(*row)
    unit = s["unit"]
    lines = [
        ("games and hands are those won" + (" (played: hands played; a game is won by the best net result)"
                                            if many else "") + "; "
         f"{plural(s['hands'], 'hand')} played" + (f" in {plural(s['games'], 'session')}" if s["games"] else "")
         + f", {s['dead_hands']:,} dead"
         + (f", {s['irregular_hands']:,} irregular (won by nobody)" if s.get("irregular_hands") else "")
         + (f"; {plural(s['redeals'], 'hand')} voided and dealt again" if s.get("redeals") else "")),
    ]
    if "points_per_hand" in s:  # a hand match: the points first, what it measures
        pp = s["points_per_hand"]
        if pp["diff"] is not None:
            them = next(p["name"] for p in s["players"] if p["name"] != pp["player"])
            interval = (f"95% interval {signed(pp['low'], 2)} to {signed(pp['high'], 2)}" if pp["low"] is not None
                        else "no interval from one sample")
            each = "a hand" if not s["duplicate"] else "a hand (duplicate pairs)"
            lines.append(f"{pp['player']} nets {signed(pp['diff'], 2)} points {each} against {them} ({interval}, "
                         f"{plural(pp['samples'], 'sample')})")
    if "win_rate" in s and not s["win_rate"]["samples"]:
        lines.append(f"no {unit} finished: no win rate yet")
    elif "win_rate" in s:
        wr = s["win_rate"]
        elo = s["elo"]
        lines += [
            f"{wr['player']} scores {wr['value']:.1%} of {unit}s (95% interval {wr['low']:.1%} to {wr['high']:.1%}, "
            f"{plural(wr['samples'], 'sample')})",
            elo_text(elo, safe(wr['player'], markup=False), unit),
        ]
        if "results" in s:
            r = s["results"]
            counts = f"{r['wins']:,} won, {r['draws']:,} drawn, {r['losses']:,} lost"
            if "pairs" in s:
                pr = s["pairs"]
                counts += (f"; pairs: {pr['won_both']:,} won both, {pr['split']:,} split, {pr['lost_both']:,} lost both"
                           + (f", {pr['other']:,} other" if pr["other"] else ""))
            lines.append(f"{r['player']}'s {r['unit']}s: {counts} · LOS {s['los']:.1%}")
            pr = s.get("pairs") or {}
            if pr.get("effective") is not None and pr.get("correlation") is not None:
                played = r["wins"] + r["draws"] + r["losses"]
                lines.append(f"the pairs' two sessions correlate {signed(pr['correlation'], 3)}: the {played:,} "
                             f"{r['unit']}s are worth {pr['effective']:,.1f} independent ones")
        nelo = s.get("normalized_elo") or {}
        if nelo.get("nelo") is not None:
            lines.append(f"normalised Elo {signed(nelo['nelo'], 1)} ± {nelo['error']:.1f} "
                         f"(95%: {signed(nelo['low'], 1)} to {signed(nelo['high'], 1)})")
    if "sprt" in s:
        sp = s["sprt"]
        verdict = {"H1": "H1 accepted", "H0": "H0 accepted", "continue": "undecided"}[sp["result"]]
        lines.append(f"SPRT [{sp['elo0']:g}, {sp['elo1']:g}], alpha {sp['alpha']:g}, beta {sp['beta']:g}: "
                     f"LLR {sp['llr']:.2f} (bounds {sp['lower']:.2f}, {sp['upper']:.2f}): {verdict}")
    for p in s["players"]:
        if p.get("program"):
            lines.append(program_text(p))
        if p.get("stale_replies"):
            lines.append(f"{p['name']} sent {p['stale_replies']} stale repl{'y' if p['stale_replies'] == 1 else 'ies'}"
                         " (answers to an earlier request: passed over)")
    lines.extend(forfeit_lines(s["forfeit_reasons"]))
    if s["capped_sessions"]:
        lines.append(capped_note(s))
    if s.get("unfinished_sessions"):
        lines.append(f"{plural(s['unfinished_sessions'], 'session')} left unfinished (quit before it was settled): "
                     "no game won nor drawn, its finished hands counted")
    if s.get("stalled_hands"):
        lines.append(f"{plural(s['stalled_hands'], 'hand')} stalled (stopped dead at "
                     f"{MAX_HAND_MOVES:,} moves: the players took each other's discards for ever)")
    if s.get("options"):
        lines.append("options: " + ", ".join(f"{k}={format_value(v)}" for k, v in s["options"].items()))
    if s.get("gincli"):
        lines.append(provenance(s))
    return Group(table, *(Text(safe(line, markup=False)) for line in lines))


def program_text(p: dict[str, Any]) -> str:
    """An external bot as its handshake named it: ``external is example 2.0 (exec:python3 examples/bot.py)``."""
    program = p["program"]
    return f"{p['name']} is {program['name'] or 'a program'} {program['version']}".rstrip() + f" ({p['bot']})"


def elo_text(elo: dict[str, Any], who: str, unit: str) -> str:
    """The Elo line for people; an unbounded end (a score of 0% or 100%) as ∞."""
    low = "-∞" if elo["low"] is None else signed(elo["low"], 1)
    high = "+∞" if elo["high"] is None else signed(elo["high"], 1)
    if elo["diff"] is None:
        won = elo["high"] is None
        return (f"Elo difference {'+∞' if won else '-∞'}: {who} {'won' if won else 'lost'} every {unit} "
                f"(95% interval {low} to {high})")
    error = f" ± {elo['error']:.1f}" if elo["error"] is not None else ""
    return f"Elo difference {signed(elo['diff'], 1)}{error} (95%: {low} to {high})"


def net_text(net: dict[str, Any]) -> str:
    if net["mean"] is None:
        return "—"
    if net["low"] is None:
        return f"{signed(net['mean'])} (unbounded)"
    return f"{signed(net['mean'])} ({signed(net['low'])} to {signed(net['high'])})"


def provenance(s: dict[str, Any]) -> str:
    """What a figure was measured with, for people: gincli's version, Python's,
    the system (``--format json`` gives the whole platform)."""
    parts = [f"gincli {s.get('gincli', '?')}"]
    if s.get("python"):
        parts.append(f"Python {s['python']}")
    if s.get("platform"):
        parts.append(" ".join([s["platform"].split("-")[0], _machine(s["platform"])]).rstrip())
    return " · ".join(parts)


def _machine(platform: str) -> str:
    for arch in ("x86_64", "aarch64", "arm64", "AMD64", "i686", "ppc64le", "s390x", "riscv64"):
        if arch in platform:
            return arch
    return ""


# gin tournament

def rating_text(p: dict[str, Any]) -> str:
    """A rating with its interval for people; an unbounded one as such."""
    unbounded = p.get("unbounded")
    rated = "" if p.get("score") in (0, 1) else " against the rated players"  # some were won (lost) against others
    if unbounded == "above":
        return f"+∞ (won every game{rated})"
    if unbounded == "below":
        return f"-∞ (lost every game{rated})"
    if unbounded == "unknown":
        return "— (played only unrated players)"
    if p["rating"] is None:
        return "—"
    low = "-∞" if p["rating_low"] is None else signed(p["rating_low"])
    high = "+∞" if p["rating_high"] is None else signed(p["rating_high"])
    return f"{signed(p['rating'])} ({low} to {high})"


def render_tournament(s: dict[str, Any]) -> Any:
    """The rating list, then the crosstable, for people."""
    from rich import box
    from rich.console import Group, JustifyMethod
    from rich.table import Table
    from rich.text import Text

    from .render import bot_label, cut

    unit = s["unit"]
    title = (f"{safe(s['variant'])} · {s['scoring']} · seed {s['seed']} · {s['kind']} of {len(s['players'])}"
             f" · {plural(s['per_pairing'], unit)} a pairing" + (" · duplicate deals" if s["duplicate"] else ""))
    ratings = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    columns: tuple[tuple[str, JustifyMethod], ...] = (("rank", "right"), ("player", "left"), (f"{unit}s", "right"),
                                                     ("score", "right"), ("rating (95%)", "right"))
    # what the bots did, where any did it: hands forfeited (for not answering in time), stale replies
    faults = [(key, head) for key, head in (("forfeits", "forfeits"), ("time_outs", "time-outs"),
                                             ("stale_replies", "stale replies"))
              if any(p.get(key) for p in s["players"])]
    for col, justify in columns + tuple((head, "right") for _, head in faults):
        ratings.add_column(col, justify=justify, no_wrap=True)
    for p in s["players"]:
        program = p.get("program")
        bot = cut(f"{program['name']} {program['version']}".strip(), 16) if program else bot_label(p["bot"], 16)
        who = f"[bold]{safe(cut(p['name'], 20))}[/]" + (f" [dim]({safe(bot)})[/]" if bot != p["name"] else "")
        ratings.add_row(str(p["rank"]), who, str(p["games"]), "—" if p["score"] is None else f"{p['score']:.1%}",
                        rating_text(p), *(f"{p.get(key, 0):,}" for key, _ in faults))
    order = [p["name"] for p in s["players"]]
    cross = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    cross.add_column("", no_wrap=True)
    for n in order:
        cross.add_column(safe(cut(n, 12)), justify="right", no_wrap=True)
    cells = {}
    for pr in s["pairings"]:
        a, b = pr["players"]
        cells[(a, b)] = (pr["wins"][a], pr["wins"][b], pr["draws"])
        cells[(b, a)] = (pr["wins"][b], pr["wins"][a], pr["draws"])
    for row in order:
        line = [f"[bold]{safe(cut(row, 20))}[/]"]
        for col in order:
            if row == col:
                line.append("·")
            elif (row, col) in cells:
                w, lost, d = cells[(row, col)]
                share = (w + d / 2) / (w + lost + d) if w + lost + d else 0.5
                line.append(f"{w}-{lost}" + (f"-{d}" if d else "") + f" {share:.0%}")
            else:
                line.append("")
        cross.add_row(*line)
    notes = [f"ratings: the maximum-likelihood Bradley–Terry fit of every {unit}, "
             + (f"{s['anchor']['name']} held at {s['anchor']['rating']:+g}" if s["anchor"] else "mean 0")
             + ("; 95% intervals from the duplicate pairs" if s["duplicate"] else "; 95% intervals")]
    for pr in s["pairings"]:
        if pr.get("sprt") and pr["sprt"]["result"] != "continue":
            a, b = pr["players"]
            notes.append(f"SPRT {a} v {b}: {pr['sprt']['result']} accepted after {plural(pr['sessions'], 'session')}")
    for p in s["players"]:
        if p.get("program"):
            notes.append(program_text(p))
    for pr in s["pairings"]:  # each player's forfeits in a pairing, and the first reason
        for name in pr["players"]:
            groups = [g for g in pr.get("forfeit_reasons", ()) if g["player"] == name]
            if not groups:
                continue
            g = groups[0]
            more = sum(1 for o in groups[1:] if not o.get("others"))  # the reasons listed one by one
            others = " and more" if any(o.get("others") for o in groups) else ""
            notes.append(f"forfeits in {' v '.join(pr['players'])}: {name} {pr['forfeits'][name]:,}, the first in "
                         f"session {g['first_session_index'] + 1} hand {g['first_hand_index'] + 1}: {g['reason']}"
                         + (f" ({plural(more, 'other reason')}{others}: --format json lists them)" if more else ""))
    notes.append(provenance(s))
    heading = "crosstable: the row's wins-losses (-draws) against the column, and its score"
    return Group(Text(title), ratings, Text(heading), cross, *(Text(safe(n, markup=False)) for n in notes))
