"""``--format csv``: results for a spreadsheet, a row each, streamed.

RFC 4180: a header row first, fields quoted where they hold a comma, a quote
or a line break, lines ending in CRLF. Safe to open: a text field that a
spreadsheet would run as a formula (it starts with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return: a player named ``=cmd|' /c calc'!A1``) gets a
leading ``'``, as OWASP recommends; numbers are written as numbers (``-12``),
a negative zero as ``0.0``, as in JSON. One layout per kind of row:

- :data:`HAND`: a scored hand (``gin score``);
- :data:`TRANSCRIPT`: a replayed transcript (``gin validate``);
- :data:`SESSION`: a session of a match (``gin match``, ``gin report``);
- :data:`PAIRING`: a pairing of a tournament (``gin tournament``);
- :data:`RATING`: a player of a tournament's rating list, the table after
  the pairings' (:func:`tournament_tables`).

Players take numbered columns (``player_1``, ``score_1``, ... up to four), so
that two-, three- and four-player rows line up. ``winner`` is a name: with
more players, the names of the side that won, joined by `` & `` (``ann &
cat``, a partnership's team, as gincli's text says it), never a team's index.
``source`` is ``FILE:LINE``, the file and the line the record starts on
(:attr:`gincli.formats.containers.Item.where`).
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..rulebook.irregular import IRREGULAR, VOID

#: The most players a row has columns for.
SEATS = 4

HAND = ("source", "id", "variant", "outcome", "winner", "points", "knocker", "knocker_deadwood", "defender",
        "defender_deadwood", "layoffs", "error")

TRANSCRIPT = ("source", "id", "valid", "complete", "variant", "scoring", "hands", "winner",
              *(f"{k}_{i}" for i in range(1, SEATS + 1) for k in ("player", "score")),
              "errors", "rule", "error_hand", "error_move", "message")

SESSION = ("session", "seed", *(f"{k}_{i}" for i in range(1, SEATS + 1) for k in ("player", "score")), "winner",
           "hands", "dead_hands", "forfeits", "capped")


PAIRING = ("pairing", "player_1", "bot_1", "player_2", "bot_2", "unit", "games", "wins_1", "wins_2", "draws",
           "score_1", "points_1", "points_2", "won_both", "split", "lost_both", "sprt_llr", "sprt_result",
           "elo_1", "elo_low_1", "elo_high_1", "forfeits_1", "forfeits_2", "time_outs_1", "time_outs_2",
           "stale_replies_1", "stale_replies_2", "program_1", "version_1", "program_2", "version_2")

RATING = ("rank", "player", "bot", "program", "version", "games", "score", "points", "rating", "rating_low",
          "rating_high", "unbounded", "forfeits", "time_outs", "stale_replies")


def lines(rows: Iterable[Sequence[Any]]) -> str:
    """Rows as CSV text (RFC 4180): quoted where needed, CRLF line ends; ``None`` is an empty field,
    true and false are ``true`` and ``false``, text a spreadsheet would run as a formula starts with ``'``."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    for row in rows:
        writer.writerow([_field(v) for v in row])
    return out.getvalue()


#: What a text field starting with one of them is to a spreadsheet: a formula
#: (OWASP, "CSV Injection"; a tab and a carriage return too: some spreadsheets drop them before one).
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def _field(value: Any) -> Any:
    """One field: the text, the number or the word the csv module writes."""
    if value is None:
        return ""
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        value = value.replace("\x00", "\\x00")  # the csv module refuses NUL; a spreadsheet would too
        return "'" + value if value.startswith(FORMULA_STARTS) else value
    if type(value) is float and value == 0:
        return 0.0  # -0.0 too: one zero, as in JSON
    return value


#: Between the names of the players who won together (a partnership's team, chouette's partners).
WINNERS_JOIN = " & "


def winners_of(result: Mapping[str, Any]) -> list[str]:
    """The names of who won a session, from its result (FORMATS.md's shapes):
    the winner's name; a partnership's team (``winner`` is its index into
    ``teams``); chouette's box, or its partners (the players but the box);
    none while nobody has won (or under ``hand``, where nobody wins a session)."""
    winner = result.get("winner")
    if winner is None:
        return []
    teams = result.get("teams")
    if type(winner) is int and isinstance(teams, Sequence) and 0 <= winner < len(teams) \
            and isinstance(teams[winner], Sequence) and not isinstance(teams[winner], str):
        return [str(p) for p in teams[winner]]
    box = result.get("box")
    if isinstance(box, str) and winner in ("box", "partners"):
        players = list(result.get("scores") or {}) if isinstance(result.get("scores"), Mapping) else []
        return [box] if winner == "box" else [p for p in players if p != box]
    return [winner] if isinstance(winner, str) else [str(_plain(winner))]


def winners_text(result: Mapping[str, Any]) -> str | None:
    """:func:`winners_of` as one field: ``ann``, ``ann & cat``; None for none."""
    return WINNERS_JOIN.join(winners_of(result)) or None


def header(layout: Sequence[str]) -> str:
    return lines([layout])


def hand_row(source: str, result: Mapping[str, Any]) -> list[Any]:
    """A scored hand (``gin score --format json``'s object) as a :data:`HAND` row."""
    knocker = result.get("knocker") or {}
    defender = result.get("defender") or {}
    return [source, _plain(result.get("id")), result.get("variant"), result.get("outcome"), result.get("winner"),
            result.get("points"), knocker.get("name"), knocker.get("deadwood"), defender.get("name"),
            defender.get("deadwood"), " ".join(defender.get("layoffs") or ()), None]


def hand_error_row(source: str, ident: Any, message: str) -> list[Any]:
    return [source, _plain(ident), *([None] * (len(HAND) - 3)), message]


def transcript_row(source: str, report: Mapping[str, Any]) -> list[Any]:
    """A replayed transcript (``gin validate --format json``'s object) as a :data:`TRANSCRIPT` row."""
    scores, result = report.get("scores"), report.get("result")
    scores = scores if isinstance(scores, Mapping) else {}
    result = result if isinstance(result, Mapping) else {}
    errors = report.get("errors") or []
    first = errors[0] if errors and isinstance(errors[0], Mapping) else {}
    return [source, _plain(report.get("id")), report.get("valid"), report.get("complete"), report.get("variant"),
            report.get("scoring"), len(report.get("hands") or ()), winners_text(result),
            *_seats(list(scores), scores), len(errors), first.get("rule"), _plain(first.get("hand")),
            _plain(first.get("move")), first.get("message") or report.get("error")]


def session_row(session: str, seed: Any, players: Sequence[str], scores: Mapping[str, Any], winner: Any,
                hands: int, dead: int, forfeits: int, capped: bool) -> list[Any]:
    """A session of a match as a :data:`SESSION` row (scores: each player's net result, once settled)."""
    return [session, seed, *_seats(list(players), scores), winner, hands, dead, forfeits, capped]


def outcome_row(spec: Any, o: Any) -> list[Any]:
    """A played session (:class:`gincli.matches.runner.SessionOutcome` of the
    match ``spec``) as a :data:`SESSION` row."""
    dead = sum(1 for hand in o.hands if hand[1] is None and hand[0] not in (VOID, IRREGULAR))
    winner = WINNERS_JOIN.join(o.winners) or o.winner  # with more players, the side's names
    if not winner and spec.unit == "hands" and o.hands:  # a hand settled alone: its winner
        winner = o.hands[-1][1]
    return session_row(spec.session_id(o.index), spec.seed_of(o.index), spec.seats(o.index), o.scores, winner,
                       len(o.hands), dead, len(o.forfeits), o.capped)


def _seats(players: list[str], scores: Mapping[str, Any]) -> list[Any]:
    out: list[Any] = []
    for i in range(SEATS):
        name = players[i] if i < len(players) else None
        out += [name, scores.get(name) if name is not None else None]
    if len(players) > SEATS:  # never from gincli: sessions seat four at most
        out[-2] = ";".join(players[SEATS - 1:])
    return out


def _plain(value: Any) -> Any:
    """A value from the input for one field: text, a number, or JSON for anything else."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    from ..base.jsonio import dumps

    try:
        return dumps(value)
    except (TypeError, ValueError, RecursionError):
        return str(value)


def pairing_row(p: Mapping[str, Any]) -> list[Any]:
    """A pairing of ``gin tournament --format json`` as a :data:`PAIRING` row."""
    a, b = p["players"]
    pairs = p.get("pairs") or {}
    sprt = p.get("sprt") or {}
    elo = p.get("elo") or {}
    programs = p.get("programs") or {}
    return [f"{a} v {b}", a, p["bots"][0], b, p["bots"][1], p["unit"], p["games"], p["wins"][a], p["wins"][b],
            p["draws"], p["score"], p["points"][a], p["points"][b], pairs.get("won_both"), pairs.get("split"),
            pairs.get("lost_both"), sprt.get("llr"), sprt.get("result"), elo.get("diff"), elo.get("low"),
            elo.get("high"), *(p.get(what, {}).get(n) for what in ("forfeits", "time_outs", "stale_replies")
                               for n in (a, b)),
            *(programs.get(n, {}).get(k) for n in (a, b) for k in ("name", "version"))]


def rating_row(p: Mapping[str, Any]) -> list[Any]:
    """A player of ``gin tournament --format json``'s rating list as a :data:`RATING` row."""
    program = p.get("program") or {}
    return [p["rank"], p["name"], p["bot"], program.get("name"), program.get("version"), p["games"], p["score"],
            p["points"], p["rating"], p["rating_low"], p["rating_high"], p.get("unbounded"), p.get("forfeits"),
            p.get("time_outs"), p.get("stale_replies")]


def tournament_tables(summary: Mapping[str, Any]) -> str:
    """A tournament for a spreadsheet: its pairings (:data:`PAIRING`), an empty
    line, then its rating list (:data:`RATING`), best first."""
    return (header(PAIRING) + lines(pairing_row(p) for p in summary["pairings"]) + "\r\n"
            + header(RATING) + lines(rating_row(p) for p in summary["players"]))
