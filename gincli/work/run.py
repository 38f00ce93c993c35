"""Running a match's sessions, and a tournament's pairings, through a
backend (``gin match``, ``gin tournament``, :func:`gincli.play_match`,
:func:`gincli.play_tournament`): results in session order, written and counted
as they come, until the last or until the SPRT decides."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from ..base.errors import MachineError
from ..base.pool import chunked
from ..matches.backends import BackendRun, MatchWork
from ..matches.runner import Tally
from ..matches.tournament import pairing_done


def stream_sessions(run: BackendRun, work: MatchWork, tally: Tally, start: int, out: Any,
                    each: Callable[[Any], None] | None, advance: Callable[[int], None]) -> MachineError | None:
    """Play a match's sessions from ``start`` through the backend (``gin match``,
    each pairing of ``gin tournament``): results come in session order, whatever
    the backend, and each is written to ``out`` as it arrives, counted in
    ``tally`` and given to ``each``, until the last or until the SPRT decides.
    Returns the write the machine refused (a full disk), which stops it."""
    spec = work.spec
    if tally.decided() or start >= spec.count:
        return None
    size = run.chunk_size(spec.unit, spec.count - start)
    stream = contextlib.closing(run.results(work, chunked(range(start, spec.count), size, ramp=run.workers)))
    with stream as chunks:
        for results in chunks:
            for o in results:
                if out is not None and o.transcript is not None:
                    try:
                        out.write(o.transcript.encode() + b"\n")
                    except MachineError as exc:
                        return exc
                try:
                    tally.add(o)  # may stop the match: a bot that forfeits hand after hand
                finally:
                    if each is not None:
                        each(o)
                if tally.decided():
                    break
            advance(tally.sessions)
            if tally.decided():
                break
    return None


def play_pairings(run: BackendRun, matches: list[Any], tallies: list[Tally], out: Any,
                  advance: Callable[[int], None], work_of: Callable[[Any], MatchWork]) -> MachineError | None:
    """Play each pairing's match in turn, from where its tally stands
    (``gin tournament``, :func:`gincli.play_tournament`); the progress counts each
    pairing as its count of sessions, whether or not its SPRT stops it sooner.
    Returns the write the machine refused (a full disk), which stops it."""
    for k, (spec, tally) in enumerate(zip(matches, tallies, strict=True)):
        if pairing_done(spec, tally):
            continue
        count = spec.count

        def progress(n: int, k: int = k, count: int = count) -> None:
            advance(k * count + n)

        refused = stream_sessions(run, work_of(spec), tally, tally.sessions, out, None, progress)
        if refused is not None:
            return refused
        advance((k + 1) * count)
    return None
