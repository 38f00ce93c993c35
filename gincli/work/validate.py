"""Validating transcripts, for ``gin validate`` and :func:`gincli.validate`:
the defaults checked once for the run, the transcripts cut into chunks for the
worker pool, each transcript's report (any failure is that transcript's fault
only), the counts. What comes back is each report's JSON line, or what the
face's ``write`` made of it in the worker (a report for people, a CSV row)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NamedTuple

from ..base.contract import PluginFault
from ..base.errors import UsageError, record_failure
from ..base.jsonio import dumps, utf8_lines
from ..base.pool import chunked, ordered_map, worker_state
from ..formats.containers import Item
from ..replay.validate import Defaults, Fault, Report, validate
from ..rulebook.rules import resolve

if TYPE_CHECKING:
    from ..plugin.registry import Registry

CHUNK = 50  # transcripts a worker replays at a time


def validation_defaults(registry: Registry, variants: list[str] | None, scoring: str | None,
                        overrides: dict[str, Any], where: str = "--option") -> Defaults:
    """What fills in where transcripts are silent (``--variant``, the first of
    them; ``--scoring``; ``--option``), checked once for the whole run: a bad
    one is a :class:`UsageError` (``gin validate``, :func:`gincli.validate`)."""
    given = [registry.variant(v) for v in variants or []]  # a bad --variant is a usage error for the whole run
    first = given[0] if given else None
    if scoring is not None:
        registry.scoring(scoring)
    try:  # a bad --option value is a usage error for the whole run, not one per transcript (a key unknown
        # here may be an option of the scoring system a transcript names)
        known = registry.option_specs(first or registry.variant("standard"), registry.scoring(scoring or "game"))
        registry.check_left_out(overrides, known)
        resolve(known, overrides if set(overrides) <= set(known) else  # as given: values quoted as typed
                {k: v for k, v in overrides.items() if k in known}, where=where)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return Defaults(first.name if first is not None else None, scoring, overrides)


def _check(item: Item, registry: Registry, defaults: Defaults) -> Report:
    """The report on one transcript; any failure is a fault of this transcript only."""
    item.load()
    if item.error is not None:
        return _failed(None, item.error)
    try:
        return validate(item.record, registry, defaults)
    except PluginFault as exc:  # a plugin's, not the transcript's: its sentence whole
        return Report(item.record.get("id"), False, False, [Fault(None, None, "plugin-fault", exc.message)])
    except Exception as exc:
        return _failed(item.record.get("id"), record_failure(exc, "replayed", "transcript"), "internal-error")


def _failed(ident: Any, message: str, rule: str = "transcript-format") -> Report:
    return Report(ident, False, False, [Fault(None, None, rule, message)])


@dataclass
class Counts:
    """Transcripts counted: valid (``complete`` of them settled), invalid, and
    those with a plugin's fault (``plugin-fault``)."""

    valid: int = 0
    invalid: int = 0
    complete: int = 0
    plugin: int = 0

    def add(self, other: Counts) -> None:
        self.valid += other.valid
        self.invalid += other.invalid
        self.complete += other.complete
        self.plugin += other.plugin


class Validated(NamedTuple):
    """A chunk of transcripts validated, in input order: what is written of
    their reports (each one's JSON line, or what the face's ``write`` made of
    it; nothing for a valid one with ``invalid_only``), and their counts."""

    text: str
    counts: Counts


def validated(state: dict[str, Any], items: Iterable[Item], workers: int = 1,
              setup: Callable[[], dict[str, Any]] | None = None, warmup: float = 0.0,
              size: int | None = None) -> Iterator[Validated]:
    """``items`` validated, a chunk (``size`` transcripts, :data:`CHUNK`) at a
    time, in input order, over ``workers`` processes of the pool (with one,
    here). ``state``: as :func:`validate_chunk`'s, built again by ``setup()``
    in a spawned worker; ``warmup``: see :func:`~gincli.base.pool.ordered_map`."""
    return ordered_map(_validate_worker, chunked(items, size or CHUNK), workers, setup, state, warmup)


def _validate_worker(items: list[Item]) -> Validated:
    return validate_chunk(worker_state(), items)


def validate_chunk(state: dict[str, Any], items: list[Item]) -> Validated:
    """Validate a chunk of transcripts. ``state``: the ``registry``, the
    ``defaults``, ``invalid_only``; the face's ``write(report, where)`` that
    turns a report into its text, run here, in the worker, and ``shown``, true
    when that text is for people (a report it fails on "could not be shown",
    else "written"). Without ``write``, each report's JSON line."""
    invalid_only = state["invalid_only"]
    write = state.get("write") or _json_line
    doing = "shown" if state.get("shown") else "written"
    out = []
    counts = Counts()
    for item in items:
        report = _check(item, state["registry"], state["defaults"])
        try:
            text = write(report, item.where) if report.valid is False or not invalid_only else ""
        except Exception as exc:
            report = _failed(report.id, record_failure(exc, doing, "transcript's report"), "internal-error")
            text = write(report, item.where)
        out.append(text)
        if report.valid:
            counts.valid += 1
            counts.complete += report.complete
        else:
            counts.invalid += 1
            counts.plugin += any(f.rule == "plugin-fault" for f in report.errors)
    return Validated("".join(out), counts)


def _json_line(report: Report, where: str) -> str:
    try:
        line = report.to_json()
    except Exception:  # written the plain way, which fails the same way and says so
        line = dumps(report.to_dict())
    return utf8_lines([line])
