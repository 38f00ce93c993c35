"""Validating a chunk of transcripts, for ``gin validate``'s workers and
:func:`gincli.validate`: the defaults checked once for the run, each
transcript's report (any failure is that transcript's fault only), the counts.
JSON lines and CSV rows are written here; the report for people is the face's
(given in the state)."""

from __future__ import annotations

from typing import Any

from ..base.contract import PluginFault
from ..base.errors import UsageError, record_failure
from ..base.jsonio import dumps, utf8_lines
from ..formats.containers import Item
from ..replay.validate import Defaults, Fault, Report, validate
from ..rulebook.rules import resolve


def validation_defaults(registry: Any, variants: list[str] | None, scoring: str | None,
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


def _check(item: Item, registry: Any, defaults: Defaults) -> Report:
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


def validate_chunk(state: dict[str, Any], items: list[Item]) -> tuple[str, int, int, int, int]:
    """Validate a chunk of transcripts: what to write (JSON lines, a report for
    people, or one line each), and the counts (valid, invalid, complete, and
    those with a plugin's fault: ``plugin-fault``). ``state``: the registry, the
    defaults, the mode, ``invalid_only``, and for people (``text``, ``brief``)
    the face's ``people(report, where, mode)`` that draws a report
    (``gin validate``'s workers, and :func:`gincli.validate`)."""
    mode, invalid_only = state["mode"], state["invalid_only"]
    people = state.get("people")
    out = []
    valid = invalid = complete = plugin = 0
    for item in items:
        report = _check(item, state["registry"], state["defaults"])
        try:
            text = _written(report, item.where, mode, people) if report.valid is False or not invalid_only else ""
        except Exception as exc:
            report = _failed(report.id, record_failure(exc, "written" if mode in ("json", "csv") else "shown",
                                                       "transcript's report"), "internal-error")
            text = _written(report, item.where, mode, people)
        out.append(text)
        if report.valid:
            valid += 1
            complete += report.complete
        else:
            invalid += 1
            plugin += any(f.rule == "plugin-fault" for f in report.errors)
    return "".join(out), valid, invalid, complete, plugin


def _written(report: Report, where: str, mode: str, people: Any) -> str:
    if mode == "csv":
        from ..formats import rows

        return rows.lines([rows.transcript_row(where, report.to_dict())])
    if mode == "json":
        try:
            line = report.to_json()
        except Exception:  # written the plain way, which fails the same way and says so
            line = dumps(report.to_dict())
        return utf8_lines([line])
    return people(report, where, mode)
