"""Going on with a run (``--resume``): the sessions an earlier run of the
same match or tournament wrote, read back from its transcripts file
(:class:`~gincli.formats.store.TranscriptLog`), each compared with the session
this run would play in its place, and counted. A file that holds anything
else is refused in a sentence naming the line, and left as it was."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..base.arguments import FLAGS, Spelling
from ..base.errors import UsageError
from ..formats.store import TranscriptLog
from ..formats.transcripts import TRANSCRIPT_FORMAT
from .runner import MatchSpec, SessionOutcome, Tally
from .tournament import pairing_done


def read_back(log: TranscriptLog, pairings: Sequence[MatchSpec], header: Mapping[str, Any], tallies: list[Tally],
              *, tournament: bool, say: Spelling = FLAGS) -> list[SessionOutcome]:
    """The sessions ``log`` holds, each counted into its pairing's tally (a
    match is one pairing), in the order written; then the file is ready for
    this run's sessions (:meth:`~gincli.formats.store.TranscriptLog.go_on`).
    A tournament's pairings come in order, each after the one before it is
    over. :class:`UsageError` naming the line for anything else."""
    need = (f"{say.on('resume')} needs the same {say('bots')}, {say('names')}, "
            + (f"{say('gauntlet')}, " if tournament else "")
            + f"{say('seed')}, {say('duplicate')}, {say('hands')} or {say('games')}, {say('variant')}, "
              f"{say('scoring')} and {say('options')}")
    finish = f"{say.on('resume')} only finishes a file this {log.what} wrote"
    found: list[SessionOutcome] = []
    counts = [0] * len(pairings)
    current = 0

    def cut_short(raw: bytes) -> bool:
        """Whether a last line is the start of a session's, as gincli writes it."""
        if tournament:
            return not raw.endswith(b"\n") and raw.lstrip().startswith(b'{"format": "gincli')
        head = f'{{"format": "{TRANSCRIPT_FORMAT}", "id": "{pairings[0].session_id(counts[0])}"'.encode()
        line = raw.rstrip(b"\n")
        return bool(line) and (line.startswith(head) or head.startswith(line))

    for number, doc in log.sessions(cut_short):
        k = 0
        if tournament:
            match = doc.get("match")
            pairing = match.get("pairing") if isinstance(match, dict) else None
            if type(pairing) is not int or not 0 <= pairing < len(pairings) or pairing < current:
                raise UsageError(f"{log.path} line {number} is not the next session of this tournament (its pairing "
                                 f"is {pairing!r}); {finish}, in order")
            k = pairing
            while current < k:  # the pairings before must be over
                if not pairing_done(pairings[current], tallies[current]):
                    raise UsageError(f"{log.path} line {number} starts pairing {k} before pairing {current} is "
                                     f"over; {finish}")
                current += 1
        spec = pairings[k]
        differs = differences(doc, spec, counts[k], header)
        if differs:
            raise UsageError(f"{log.path} line {number} is from another {log.what}: its {differs} ({need})",
                             parameters=("transcripts", "resume"))
        if tournament and pairing_done(spec, tallies[k]):
            raise UsageError(f"{log.path} line {number} is a session past the end of pairing {k}; {finish}")
        outcome = SessionOutcome.from_transcript(counts[k], doc)
        counts[k] += 1
        found.append(outcome)
        if tournament:  # a match's are counted once the file is known to hold no more than asked
            tallies[k].add(outcome, check=False)  # done already: not stopped again for what the bot did then
    if not tournament:
        spec = pairings[0]
        if len(found) > spec.count:
            raise UsageError(f"{log.path} already holds {len(found)} sessions, more than the {spec.count} asked; "
                             f"give {say.given(spec.unit, f'{len(found)} or more')}", parameters=(spec.unit,))
        for outcome in found:
            tallies[0].add(outcome, check=False)
    log.go_on()
    return found


def _completed(options: Any, header: Mapping[str, Any]) -> Any:
    """A transcript's ``options`` with what gincli leaves out of them (the options
    of move sets that are off, at their defaults: ``header["written"]`` holds what
    this run writes) taken from this run's rules, ``header["options"]``: so that
    a file written before gincli left them out, and one written since, both
    compare equal to this run's rules when they are the same."""
    written, full = header.get("written"), header.get("options")
    if not isinstance(options, dict) or not isinstance(written, Mapping) or not isinstance(full, Mapping):
        return options
    return {**{k: v for k, v in full.items() if k not in written}, **options}


def differences(doc: dict[str, Any], spec: MatchSpec, index: int, header: Mapping[str, Any]) -> str:
    """What tells a transcript from session ``index`` of this match, in words
    ("options differ (gin_bonus: 50 there, 25 here)"), or ``""``."""
    from ..rulebook.rules import format_value

    if doc.get("id") != spec.session_id(index):
        return f"session id is {format_value(doc.get('id'))}, not {spec.session_id(index)}"
    match = doc.get("match")
    if not isinstance(match, dict):
        return "\"match\" field is missing (it was not written by gin match)"
    expected = {**spec.match_field(), **{k: v for k, v in header.items() if k != "written"},
                "players": list(spec.seats(index)), "session seed": spec.seed_of(index)}
    found = {**match, "variant": doc.get("variant"), "scoring": doc.get("scoring"),
             "options": _completed(doc.get("options"), header), "players": doc.get("players"),
             "session seed": doc.get("seed")}
    keys = [k for k in expected if found.get(k) != expected[k]]
    if not keys:
        return ""
    key = keys[0]
    theirs, mine = found.get(key), expected[key]
    if isinstance(theirs, dict) and isinstance(mine, dict):
        option = next(k for k in sorted(set(theirs) | set(mine)) if theirs.get(k) != mine.get(k))
        detail = f"{option}: {format_value(theirs.get(option))} there, {format_value(mine.get(option))} here"
    else:
        detail = f"{format_value(theirs)} there, {format_value(mine)} here"
    return f"{key} differ{'' if key.endswith('s') else 's'} ({detail})"
