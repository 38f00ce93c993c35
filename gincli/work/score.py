"""Scoring a chunk of hand records, for ``gin score``'s workers and
:func:`gincli.score`: each record's result or its one-sentence error, the
outcome counts and each player's totals. JSON lines and CSV rows are written
here; the text for people is the face's (given in the state)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from ..base.contract import PluginFault
from ..base.errors import RecordError, record_failure
from ..base.jsonio import error_line, utf8_lines
from ..formats.containers import Item
from ..formats.records import HandScorer
from ..rulebook.scoring import HandResult


def _tally(players: dict[str, list[int]], outcome: str, winner: str | None, points: int, *seated: str) -> None:
    for name in seated:
        entry = players.get(name)
        if entry is None:
            entry = players[name] = [0, 0, 0, 0, 0]
        entry[0] += 1
    if winner is not None:
        entry = players.get(winner)
        if entry is None:
            entry = players[winner] = [0, 0, 0, 0, 0]
        entry[1] += 1
        entry[2] += points
        if outcome in ("gin", "big_gin"):
            entry[3] += 1
        elif outcome == "undercut":
            entry[4] += 1


def score_chunk(state: dict[str, Any], items: list[Item]) -> tuple[str, Counter[str], int, list[tuple[int, str]],
                                                                    dict[str, list[int]], int]:
    """Score a chunk of records: what to write (JSON lines, CSV rows, or each
    hand for people), outcome counts, failures, for people each failure's
    sentence with where it goes in the text (an offset), each player's totals,
    and how many of the failures were a plugin's fault.
    ``state``: the scorer, the mode (text, json, csv) and the colour; for
    text, the face's ``text(result, colour, movesets)`` that draws a hand and
    ``label(id)`` that shows a record's id (``gin score``'s workers, and
    :func:`gincli.score`)."""
    scorer: HandScorer = state["scorer"]
    mode, colour = state["mode"], state["colour"]
    text = mode == "text"
    if mode == "csv":
        from ..formats import rows  # here: csv, and its module, only for --format csv
    lines: list[str] = []
    errors: list[tuple[int, str]] = []
    written = 0  # characters of text so far: where a failure's sentence goes
    counts: Counter[str] = Counter()
    players: dict[str, list[int]] = {}
    failed = faults = 0
    lane = scorer.score_line if mode == "json" else None
    for item in items:
        if lane is not None and item.raw is not None:
            try:
                done = lane(item.raw)
            except Exception:  # the careful way below meets it again, and says it properly
                done = None
            if done is not None:
                lines.append(done[0])
                counts[done[1]] += 1
                _tally(players, done[1], done[2], done[3], done[4], done[5])
                continue
        item.load()
        result, message, plugin = _score_one(scorer, item)
        if result is not None:
            try:
                if text:
                    block = ("\n" if lines else "") + state["text"](result, colour, scorer.movesets(result))
                elif mode == "csv":
                    block = rows.lines([rows.hand_row(item.where, result.to_dict())])
                else:
                    block = result.to_json()
                lines.append(block)
                written += len(block)
                counts[result.outcome] += 1
                _tally(players, result.outcome, result.winner, result.points, *_seated(result, item))
                continue
            except Exception as exc:
                message = record_failure(exc, "written" if not text else "shown")
        failed += 1
        faults += plugin
        if text:
            ident = _id_of(item)
            label = f" ({state['label'](ident)})" if ident is not None else ""
            errors.append((written, f"{item.where}{label}: {message}"))
        elif mode == "csv":
            lines.append(rows.lines([rows.hand_error_row(item.where, _id_of(item), message)]))
        else:
            lines.append(error_line(_id_of(item), message))
    if mode == "json":
        return utf8_lines(lines), counts, failed, errors, players, faults
    return "".join(lines), counts, failed, errors, players, faults


def _seated(result: HandResult, item: Item) -> tuple[str, ...]:
    """Who played a scored hand: its knocker and defender, or for a dead hand the record's players."""
    if result.knocker is not None and result.defender is not None:
        return result.knocker.name, result.defender.name
    hands = item.record.get("hands") if isinstance(item.record, dict) else None
    return tuple(n for n in hands if isinstance(n, str)) if isinstance(hands, dict) else ()


def _score_one(scorer: HandScorer, item: Item) -> tuple[HandResult | None, str, bool]:
    """One record's result, or why it has none, and whether that is a plugin's
    fault: any failure costs this record only."""
    if item.error is not None:
        return None, item.error, False
    try:
        return scorer.score(item.record), "", False
    except PluginFault as exc:
        return None, exc.message, True
    except RecordError as exc:
        return None, exc.message, False
    except Exception as exc:
        return None, record_failure(exc, "scored"), False


def _id_of(item: Item) -> Any:
    return item.record.get("id") if isinstance(item.record, dict) else None
