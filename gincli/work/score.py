"""Scoring hand records, for ``gin score`` and :func:`gincli.score`: the
records cut into chunks for the worker pool, each record's result or its
one-sentence error, the outcome counts and each player's totals, per input
and for the run. What comes back is data: each result's JSON text, or what
the face's ``write`` made of it in the worker (a hand for people, a CSV row),
and each failure as a :class:`Failure`; the face writes them out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any, NamedTuple

from ..base.contract import PluginFault
from ..base.errors import RecordError, record_failure
from ..base.jsonio import error_line, utf8_lines
from ..base.pool import ordered_map, worker_state
from ..formats.containers import Item, Lines, Reader
from ..formats.records import HandScorer
from ..rulebook.scoring import HandResult

CHUNK = 1000  # records (lines of JSON Lines) a worker scores at a time

#: Each player's totals: hands played, hands won, points won, gins (big gins too), undercuts.
PLAYER_FIELDS = ("hands", "hands_won", "points", "gins", "undercuts")


class Failure(NamedTuple):
    """A record that could not be scored (or written): where it is, its id
    (``None`` when it has none), and the sentence that says why."""

    where: str
    id: Any
    message: str


class Scored(NamedTuple):
    """A chunk of records scored, in input order: each record's text (its
    result's JSON, or what the face's ``write`` made of it) or its
    :class:`Failure`; the outcome counts; each player's totals (as
    :data:`PLAYER_FIELDS`); how many records failed, and how many of those
    were a plugin's fault."""

    records: list[str | Failure]
    counts: Counter[str]
    players: dict[str, list[int]]
    failed: int
    faults: int


def scored(state: dict[str, Any], chunks: Iterable[Lines | list[Item]], workers: int = 1,
           setup: Callable[[], dict[str, Any]] | None = None, warmup: float = 0.0) -> Iterator[Scored]:
    """Each chunk of records scored (lines of JSON Lines as read,
    :meth:`~gincli.formats.containers.Reader.batches`, or a list of items), in
    input order, over ``workers`` processes of the pool (with one, here, each
    chunk read only as its turn comes; with more, this process scores chunks
    too, beside ``workers - 1`` worker processes: ``helps`` in
    :func:`~gincli.base.pool.ordered_map`). ``state``: as :func:`score_chunk`'s,
    built again by ``setup()`` in a spawned worker; ``warmup``: see
    :func:`~gincli.base.pool.ordered_map`."""
    return ordered_map(_score_worker, chunks, workers, setup, state, warmup, helps=True)


def batches(reader: Reader) -> Iterator[Lines | list[Item]]:
    """An input's records in chunks of :data:`CHUNK` (lines of JSON Lines as read), for :func:`scored`."""
    return reader.batches(CHUNK)


def _score_worker(chunk: Lines | list[Item]) -> Scored:
    return score_chunk(worker_state(), chunk)


def json_lines(records: list[str | Failure]) -> str:
    """A chunk's records as FORMATS.md's JSON Lines: each result's line, and
    ``{"id": ..., "error": ...}`` for each failure (``gin score -f json``, :func:`gincli.score`)."""
    return utf8_lines([r if isinstance(r, str) else error_line(r.id, r.message) for r in records])


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


def score_chunk(state: dict[str, Any], chunk: Lines | list[Item]) -> Scored:
    """Score a chunk of records. ``state``: the ``scorer``; the face's
    ``write(result, where)`` that turns a scored record into its text, run
    here, in the worker, and ``shown``, true when that text is for people (a
    record it fails on "could not be shown", else "written"). Without
    ``write``, each result's JSON text (the common record straight from its
    raw line). ``lane(raw)``, given, is the face's own hot path of a raw line
    (``(text, outcome, winner, points, player, player)``, or None to go the
    usual way). ``finish(records)``, given, makes the chunk's records into what
    the face writes (the texts joined), here too."""
    scorer: HandScorer = state["scorer"]
    write: Callable[[HandResult, str], str] | None = state.get("write")
    finish = state.get("finish")
    doing = "shown" if state.get("shown") else "written"
    records: list[str | Failure] = []
    counts: Counter[str] = Counter()
    players: dict[str, list[int]] = {}
    failed = faults = 0
    lane = state.get("lane") or (scorer.score_line if write is None else None)  # a face's own hot path first
    result_lane = scorer.result_line if write is not None else None
    for item in chunk.items() if isinstance(chunk, Lines) else chunk:
        if item.raw is not None:
            if lane is not None:
                try:
                    done = lane(item.raw)
                except Exception:  # the careful way below meets it again, and says it properly
                    done = None
                if done is not None:
                    records.append(done[0])
                    counts[done[1]] += 1
                    _tally(players, done[1], done[2], done[3], done[4], done[5])
                    continue
            if result_lane is not None and write is not None:
                try:
                    solved = result_lane(item.raw)
                    text = "" if solved is None else write(solved[0], item.where)
                except Exception:  # as above
                    solved = None
                if solved is not None:
                    hand = solved[0]
                    records.append(text)
                    counts[hand.outcome] += 1
                    if hand.knocker is not None and hand.defender is not None:
                        _tally(players, hand.outcome, hand.winner, hand.points, hand.knocker.name, hand.defender.name)
                    else:  # a dead hand: the record's players
                        _tally(players, hand.outcome, hand.winner, hand.points, solved[1], solved[2])
                    continue
        item.load()
        result, message, plugin = _score_one(scorer, item)
        if result is not None:
            try:
                records.append(result.to_json() if write is None else write(result, item.where))
                counts[result.outcome] += 1
                _tally(players, result.outcome, result.winner, result.points, *_seated(result, item))
                continue
            except Exception as exc:
                message = record_failure(exc, doing)
        failed += 1
        faults += plugin
        records.append(Failure(item.where, _id_of(item), message))
    return Scored(records if finish is None else finish(records), counts, players, failed, faults)


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


class Totals:
    """What a run (or one of its inputs) scored: outcomes, failures, each player's totals."""

    def __init__(self, source: str):
        self.source = source
        self.outcomes: Counter[str] = Counter()
        self.failed = 0
        self.players: dict[str, list[int]] = {}

    def add(self, outcomes: Counter[str], failed: int, players: dict[str, list[int]]) -> None:
        self.outcomes.update(outcomes)
        self.failed += failed
        for name, values in players.items():
            mine = self.players.get(name)
            if mine is None:
                self.players[name] = list(values)
            else:
                for i, v in enumerate(values):
                    mine[i] += v

    def merge(self, other: Totals) -> None:
        self.add(other.outcomes, other.failed, other.players)

    def to_dict(self) -> dict[str, Any]:
        return {"source": self.source, "hands": sum(self.outcomes.values()), "failed": self.failed,
                "outcomes": dict(sorted(self.outcomes.items())),
                "players": {name: dict(zip(PLAYER_FIELDS, values, strict=True)) for name, values in sorted(
                    self.players.items(), key=lambda kv: (-kv[1][2], kv[0]))}}


def summary_object(total: Totals, per_input: list[Totals]) -> dict[str, Any]:
    """``gin score --summary``'s object (docs/formats.md): the run's totals, and each input's."""
    out = total.to_dict()
    del out["source"]
    out["files"] = [t.to_dict() for t in per_input]
    return out
