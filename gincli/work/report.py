"""A match or a tournament read back from its transcripts (``gin report``;
``gin match --report`` counts its sessions the same way as they are played):
:class:`History`, a match's tally that also keeps what a report page draws,
and :class:`Reading`, the transcripts of one match or one tournament (or a
session of ``gin play``) read record by record into the tallies their command
kept, each record that does not belong said in one sentence. The page itself,
its charts and text, is the face's."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..base.errors import GinError, UsageError, plural
from ..formats import rows
from ..formats.transcripts import TRANSCRIPT_FORMAT
from ..matches.resume import differences
from ..matches.runner import MatchSpec, SessionOutcome, Tally
from ..matches.stats import Running, Sprt
from ..rulebook.irregular import IRREGULAR, VOID

if TYPE_CHECKING:
    from ..plugin.registry import Registry

MOST_PENDING = 1_000  # records left out before the first session, held to be said once one is found


class History(Tally):
    """A match's tally that also keeps what its page draws: after every sample
    (a game, a hand, or a duplicate deal's pair) the first player's score so far
    with its 95% interval and the SPRT's log-likelihood ratio; after every
    session each player's points per hand played and mean net result a game;
    and how each player's hands ended. Linear in the number of sessions."""

    def __init__(self, spec: MatchSpec, sprt: Sprt | None = None, variant: str | None = None,
                 rules: Any = None):
        super().__init__(spec, sprt, variant, rules)
        self._running = Running()
        self.written_by: str | None = None  # the gincli that wrote the transcripts (gin report)
        self.rate: list[tuple[float, float, float]] = []  # (score, low, high)
        self.llr: list[float] = []
        self.per_hand: dict[str, list[float]] = {n: [] for n in spec.names}
        self.net: dict[str, list[tuple[int, float]]] = {n: [] for n in spec.names}  # (session, mean so far)
        self._net_total = dict.fromkeys(spec.names, 0.0)
        self.ends: dict[str, Counter[str]] = {n: Counter() for n in spec.names}

    def add(self, out: SessionOutcome, check: bool = True) -> None:
        super().add(out, check)
        for x in self.samples[len(self.rate):]:
            self._running.add(x)
            e = self._running.estimate()
            self.rate.append((e.mean, e.low, e.high))
            if self.sprt is not None:
                self.llr.append(self.sprt.llr_running(self._running))
        for name, p in self.players.items():
            self.per_hand[name].append(p["points"] / p["hands_played"] if p["hands_played"] else 0.0)
        for name, net in out.scores.items():
            if name in self._net_total:
                self._net_total[name] += net
                self.net[name].append((self.sessions, self._net_total[name] / len(self.nets[name])))
        for outcome, winner, _points, forfeiter, pair in out.hands:
            if forfeiter is not None:
                self.ends[forfeiter]["forfeit"] += 1  # counted against who forfeited, as the summary does
            elif winner is None:
                for name in pair:  # a redeal, an irregular hand, or a dead one
                    self.ends[name][outcome if outcome in (VOID, IRREGULAR) else "dead"] += 1
            else:
                self.ends[winner][outcome] += 1


# The page


NOT_A_TRANSCRIPT = "not a transcript of gincli's (its \"format\" is not gincli-transcript/1)"
NOT_A_MATCH = ("not a session of this match: it has no \"match\" field (a session of gin play is drawn alone, in a "
               "report of its own)")
KINDS = {"tournament": "a session of a tournament", "match": "a session of a match",
         "play": "a session of gin play (or one without a match)"}


def kind_of(doc: Any) -> str | None:
    """What a record is a session of, by what it says: ``tournament`` (its
    ``match`` field names a pairing and its tournament), ``match``, ``play``
    (a transcript with no ``match`` field), or None (not a transcript)."""
    if not isinstance(doc, dict) or doc.get("format") != TRANSCRIPT_FORMAT:
        return None
    match = doc.get("match")
    if not isinstance(match, dict):
        return "play"
    return "tournament" if "tournament" in match or "pairing" in match else "match"


class Reading:
    """What gin report has read so far: the match or tournament its first
    session began (``drawing``), where that was, and the records left out
    before it (said once a session is found; when none is, one sentence
    instead). The face gives ``error``, which says a record left out, and
    ``rows``, which takes a match's CSV rows as its sessions are read (None:
    no rows)."""

    def __init__(self, test: Sprt | None, anchor: str | None, registry: Registry, error: Callable[[str], None],
                 rows: Callable[[str], None] | None = None):
        self.test, self.anchor, self.registry, self.error, self.rows = test, anchor, registry, error, rows
        self.drawing: MatchDrawing | TournamentDrawing | None = None
        self.began = ""  # where the first session was
        self.records = 0
        self.pending: list[str] = []
        self.skipped = 0
        self.first_problem: tuple[str, str] | None = None

    def add(self, doc: dict[str, Any], where: str, source: str) -> str | None:
        """Draw one record, or say why not; :class:`UsageError` for a file that
        mixes a tournament's sessions with another kind's."""
        self.records += 1
        kind = kind_of(doc)
        if self.drawing is None:
            drawing, problem = _begin(doc, kind, self.test, self.anchor, source, self.registry, self.rows)
            if drawing is None:
                return problem
            problem = drawing.add(doc, self._say_pending)
            if problem is not None:  # not its first session either: the next record may begin one
                return problem
            self.drawing, self.began = drawing, where
            return None
        elif kind is not None and (kind == "tournament") != isinstance(self.drawing, TournamentDrawing):
            began = "tournament" if isinstance(self.drawing, TournamentDrawing) else self.drawing.kind
            raise UsageError(f"{where} is {KINDS[kind]}, but {self.began} began {KINDS[began]}: a report draws "
                             "one tournament or one match, so give each its own; no page written")
        return self.drawing.add(doc, None)

    def left_out(self, where: str, problem: str) -> None:
        if self.drawing is not None:
            self.error(f"{where}: {problem}")
            return
        if self.first_problem is None:
            self.first_problem = (where, problem)
        if len(self.pending) < MOST_PENDING:
            self.pending.append(f"{where}: {problem}")
        else:
            self.skipped += 1

    def _say_pending(self) -> None:
        for message in self.pending:
            self.error(message)
        if self.skipped:
            self.error(f"and {plural(self.skipped, 'more record')} before the first session, left out likewise")
        self.pending = []

    def nothing(self, files: list[str]) -> str:
        """The one sentence for inputs that hold no session to draw."""
        named = ", ".join("standard input" if f == "-" else f for f in files)
        if not self.records:
            return (f"no session to report: {named} holds no record (gin match --transcripts FILE and gin "
                    "tournament --transcripts FILE write sessions, gin play --transcript FILE one); no page written")
        where, problem = self.first_problem or ("", "")
        every = "its one record could not" if self.records == 1 else f"none of its {self.records:,} records could"
        return f"no session to report in {named}: {every} be drawn (the first, {where}: {problem}); no page written"


class MatchDrawing:
    """A match being drawn (or a session of gin play, drawn as a match of it
    alone); with ``rows``, each session's CSV row given to it as it is drawn,
    after the header."""

    def __init__(self, history: History, header: dict[str, Any], kind: str, rows: Callable[[str], None] | None):
        self.history, self.header, self.kind, self.rows = history, header, kind, rows

    def add(self, doc: dict[str, Any], first: Callable[[], None] | None) -> str | None:
        """Draw the match's next session, or say why not; ``first``, called
        before anything is written for the first session drawn."""
        out = _add(self.history, doc, self.header)
        if isinstance(out, str):
            return out
        if first is not None:
            first()
        if self.rows is not None:
            head = rows.header(rows.SESSION) if first is not None else ""
            self.rows(head + rows.lines([rows.outcome_row(self.history.spec, out)]))
        return None


class TournamentDrawing:
    """A tournament being drawn: each pairing's match and its tally, as gin
    tournament keeps them, filled from the transcripts."""

    def __init__(self, tour: Any, header: dict[str, Any], rules: dict[str, Any], test: Sprt | None,
                 anchor: tuple[str | None, float], written_by: str | None):
        self.tour, self.header, self.rules, self.anchor, self.written_by = tour, header, rules, anchor, written_by
        self.matches = [tour.match(k) for k in range(len(tour.pairings()))]
        self.tallies = [Tally(m, test, header["variant"], rules) for m in self.matches]

    def add(self, doc: dict[str, Any], first: Callable[[], None] | None) -> str | None:
        """Draw the next session of its pairing, or say why not; ``first``, as :meth:`MatchDrawing.add`'s."""
        if kind_of(doc) is None:
            return NOT_A_TRANSCRIPT
        match = doc.get("match")
        k = match.get("pairing") if isinstance(match, dict) else None
        if type(k) is not int or not 0 <= k < len(self.matches):
            from ..rulebook.rules import format_value

            return (f"not a session of this tournament: its pairing is {format_value(k)}, and the tournament's are "
                    f"0 to {len(self.matches) - 1}")
        spec, tally = self.matches[k], self.tallies[k]
        differs = differences(doc, spec, tally.sessions, self.header)
        if differs:
            return f"not pairing {k}'s next session ({spec.session_id(tally.sessions)}): its {differs}"
        out = _outcome(doc, tally.sessions, spec)
        if out is None:
            return (f"session {spec.session_id(tally.sessions)} holds results that gin tournament does not write "
                    "(gin validate says where)")
        tally.add(out, check=False)
        if first is not None:
            first()
        return None

    def summary(self) -> dict[str, Any]:
        """gin tournament's summary, from the transcripts: the same but for
        what they do not hold (the Python and platform it ran on); the count a
        pairing is the most sessions any pairing holds."""
        from dataclasses import replace

        from ..matches.tournament import tournament_summary

        tour = replace(self.tour, count=max(t.sessions for t in self.tallies))
        summary = tournament_summary(tour, {**self.header, "options": self.rules}, self.matches, self.tallies,
                                     *self.anchor)
        summary["gincli"] = self.written_by or "unknown"
        summary.pop("python", None)
        summary.pop("platform", None)
        return summary


def _begin(doc: dict[str, Any], kind: str | None, test: Sprt | None, anchor: str | None, source: str,
           registry: Registry, rows: Callable[[str], None] | None) -> tuple[MatchDrawing | TournamentDrawing | None,
                                                                         str | None]:
    """The match or tournament a first transcript starts (and draws it in), or
    why it cannot start one."""
    if kind is None:
        return None, NOT_A_TRANSCRIPT
    match = doc.get("match") if kind != "play" else _played(doc)
    if not isinstance(match, dict):
        return None, NOT_A_TRANSCRIPT
    bots, names, seed, duplicate, unit = (match.get(k) for k in ("bots", "names", "seed", "duplicate", "unit"))
    header = {k: doc.get(k) for k in ("variant", "scoring", "options")}
    if kind == "play":
        header["play"] = doc.get("id")
        header["scoring"] = header["scoring"] or "game"  # FORMATS.md's defaults: a transcript may leave them out
        header["options"] = {} if header["options"] is None else header["options"]
    if not (isinstance(bots, list) and isinstance(names, list) and 2 <= len(names) == len(bots) <= 4
            and all(isinstance(x, str) for x in bots + names) and len(set(names)) == len(names)
            and type(seed) is int and isinstance(duplicate, bool) and unit in ("games", "hands")
            and isinstance(header["variant"], str) and isinstance(header["scoring"], str)
            and isinstance(header["options"], dict)):
        return None, f"its \"match\" field is not one gin {'tournament' if kind == 'tournament' else 'match'} writes"
    rules = _rules(header, registry)
    written = _written(header, registry)
    overrides = _overrides(header, registry)
    full = {**header, "options": rules, "written": written} if written is not None else header
    if kind == "tournament":
        return _begin_tournament(doc, match, full, rules, overrides, test, anchor)
    if anchor is not None:
        raise UsageError(f"--anchor is for a tournament's ratings, and {source} holds {KINDS[kind]}")
    if test is not None and len(names) > 2:
        raise UsageError(f"--sprt is for two players: the SPRT compares two bots head to head, and {len(names)} "
                         f"play in {source}")
    spec = MatchSpec(tuple(bots), tuple(names), unit, 0, seed, header["variant"], header["scoring"], overrides,
                     duplicate)
    history = History(spec, test, None, rules)
    history.written_by = doc.get("gincli") if isinstance(doc.get("gincli"), str) else None
    # the sessions that follow compare by their rules in full, however written
    return MatchDrawing(history, full, kind, rows), None


def _begin_tournament(doc: dict[str, Any], match: dict[str, Any], header: dict[str, Any], rules: dict[str, Any],
                      overrides: dict[str, Any], test: Sprt | None,
                      anchor: str | None) -> tuple[TournamentDrawing | None, str | None]:
    """The tournament a first session of one starts, from its ``match`` field's
    ``tournament`` (its bots, players and gauntlet), or why not."""
    from ..matches.tournament import TournamentSpec
    from .plan import anchor_of

    t = match.get("tournament")
    bots, names, gauntlet = (t.get(k) for k in ("bots", "names", "gauntlet")) if isinstance(t, dict) else ((),) * 3
    if not (isinstance(bots, list) and isinstance(names, list) and 2 <= len(names) == len(bots)
            and all(isinstance(x, str) for x in bots + names) and len(set(names)) == len(names)
            and (gauntlet is None or type(gauntlet) is int and 1 <= gauntlet < len(names))):
        return None, "its \"match\" field's \"tournament\" is not one gin tournament writes"
    tour = TournamentSpec(tuple(bots), tuple(names), match["unit"], 0, match["seed"], header["variant"],
                          header["scoring"], overrides, match["duplicate"], gauntlet=gauntlet)
    written_by = doc.get("gincli") if isinstance(doc.get("gincli"), str) else None
    return TournamentDrawing(tour, header, rules, test, anchor_of(anchor, tour.names), written_by), None


def _played(doc: dict[str, Any]) -> dict[str, Any] | None:
    """The ``match`` field a session of gin play stands for: its players (the
    person as ``you`` and each bot by its spec, from its ``play`` field; each by
    name for a transcript without one), its seed, one session."""
    play = doc.get("play")
    play = play if isinstance(play, dict) else {}
    players = doc.get("players")
    bots = play.get("bots")
    bots = bots if isinstance(bots, dict) else {}
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return None
    return {"bots": [bots.get(p, p) if p != play.get("human") else "you" for p in players], "names": players,
            "seed": doc.get("seed") if type(doc.get("seed")) is int else 0, "duplicate": False,
            "unit": "hands" if doc.get("scoring") == "hand" else "games"}


def _rules(header: dict[str, Any], registry: Registry) -> dict[str, Any]:
    """The rules of a match in full, as its summary gives them: the transcript's
    options over the defaults of its variant and scoring system (a transcript
    leaves out the options of move sets that are off, at their defaults); the
    options alone when these are not loaded here."""
    try:
        return dict(registry.rules(registry.variant(header["variant"], files=False),
                                   registry.scoring(header["scoring"]), header["options"], where="options"))
    except (GinError, ValueError):
        return dict(header["options"])


def _written(header: dict[str, Any], registry: Registry) -> dict[str, Any] | None:
    """What gincli writes now of the rules of a transcript's options (None when its
    variant or scoring system is not loaded here): a file written before gincli
    left out the options of move sets that are off, then resumed, holds both."""
    try:
        variant = registry.variant(header["variant"], files=False)
        rules = registry.rules(variant, registry.scoring(header["scoring"]), header["options"], where="options")
    except (GinError, ValueError):
        return None
    return registry.transcript_options(variant, rules)


def _overrides(header: dict[str, Any], registry: Registry) -> dict[str, Any]:
    """The options a match set (as its --option did): those that differ from
    the defaults of its variant and scoring system; every one when these are
    not loaded here."""
    try:
        defaults = registry.rules(registry.variant(header["variant"], files=False), registry.scoring(header["scoring"]))
    except (GinError, ValueError):
        return dict(header["options"])
    return {k: v for k, v in header["options"].items() if k not in defaults or defaults[k] != v}


def _outcome(doc: dict[str, Any], index: int, spec: MatchSpec) -> SessionOutcome | None:
    """Session ``index``'s outcome from its transcript, or None when it holds
    results gincli does not write (a list where an object goes, a stranger)."""
    try:
        out = SessionOutcome.from_transcript(index, doc)
        names = set(spec.names) | {None}
        plausible = (all(isinstance(outcome, str) and {winner, forfeiter, *pair} <= names and type(points) is int
                         for outcome, winner, points, forfeiter, pair in out.hands)
                     and all(type(v) in (int, float) for v in out.scores.values()))
    except (AttributeError, TypeError):  # a list or a number where gin match writes an object
        plausible = False
    return out if plausible else None


def _add(h: History, doc: dict[str, Any], header: dict[str, Any]) -> SessionOutcome | str:
    """Add the transcript of the match's next session (its outcome), or say why it is not."""
    index = h.sessions
    if "play" in header:  # a session of gin play is drawn alone
        if index:
            return (f"a session of gin play, or one without a match, is drawn alone ({header['play']} was first): "
                    "give this one a report of its own")
    elif doc.get("format") != TRANSCRIPT_FORMAT:
        return NOT_A_TRANSCRIPT
    elif not isinstance(doc.get("match"), dict):
        return NOT_A_MATCH
    differs = "" if "play" in header else differences(doc, h.spec, index, header)
    if differs:
        return f"not the match's next session (s{index}): its {differs}"
    out = _outcome(doc, index, h.spec)
    if out is None:
        return f"session s{index} holds results that gin match does not write (gin validate says where)"
    h.add(out, check=False)  # a file read, not a match played: nothing to stop
    return out
