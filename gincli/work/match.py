"""One run of a match or a tournament, for every face (``gin match``,
``gin tournament``, :func:`gincli.play_match`, :func:`gincli.play_tournament`).

A :class:`MatchRun` is built from one :class:`~gincli.work.plan.MatchOptions`:
the plan checked, each pairing's tally made (a match is one pairing), the
backend started, the transcripts' file opened and locked (with ``resume``,
the sessions it holds read back and counted). :meth:`MatchRun.play` then plays
the sessions through the backend: results come in session order, whatever the
backend, each written to the transcripts as it arrives and counted, until the
last or until the SPRT decides, or Ctrl-C. Whatever ends it, the transcripts
are closed, the external bots and the backend stopped, and what was played
kept: the face renders :meth:`MatchRun.summary` and says how the run ended
(``refused``, ``stopped``, ``interrupted``).
"""

from __future__ import annotations

import contextlib
import gc
import time
from collections.abc import Callable, Iterable
from typing import Any

from ..base.arguments import FLAGS, Spelling
from ..base.errors import GinError, MachineError
from ..base.pool import chunked
from ..formats.store import TranscriptLog, TranscriptSink, recorded_seed
from ..hand.bots import StoppedByBot
from ..matches.backends import BackendRun, MatchWork
from ..matches.resume import read_back
from ..matches.runner import MatchSpec, SessionOutcome, Tally
from ..matches.tournament import pairing_done, tournament_summary
from ..plugin.registry import Registry, load_registry
from .plan import MatchOptions, MatchPlan, TournamentPlan, plan_match, plan_tournament

Advance = Callable[[int], None]


def _nothing(n: int) -> None:
    pass


class MatchRun:
    """A match (or with ``tournament``, a tournament) ready to play.

    ``sink``: where the transcripts go when ``options.transcripts`` names no
    file (the face's standard output, the API's list); ``tally``: the
    class that counts each pairing (a :class:`Tally`, or one that also keeps
    what a report page draws); ``plugins``: the plugins folders and the
    disabled plugins, for workers that load the registry afresh (spawned, or
    on another machine). :class:`UsageError` for a mistake in the options;
    nothing is left open when the constructor fails."""

    def __init__(self, registry: Registry, options: MatchOptions, *, tournament: bool = False, say: Spelling = FLAGS,
                 sink: TranscriptSink | None = None, tally: type[Tally] = Tally,
                 plugins: tuple[Iterable[str], Iterable[str]] = ((), ())):
        self.registry = registry
        self.options = options
        self.tournament = tournament
        self.say = say
        self.plugins = (tuple(plugins[0]), tuple(plugins[1]))
        path = options.transcripts if options.transcripts != "-" else None
        if options.seed is None and options.resume and path:
            from dataclasses import replace

            options = self.options = replace(options, seed=recorded_seed(path))
        self.plan: MatchPlan | TournamentPlan
        if tournament:
            self.plan = plan_tournament(registry, options, say)
            self.pairings = list(self.plan.matches)
        else:
            self.plan = plan_match(registry, options, say)
            self.pairings = [self.plan.spec]
        header = self.plan.header
        self.tallies = [tally(m, self.plan.test, self.plan.variant.name, header["options"]) for m in self.pairings]
        #: The sessions an earlier run wrote to the file (``resume``), counted already.
        self.earlier: list[SessionOutcome] = []
        self.out: TranscriptSink | None = sink
        # the backend before the file: a cluster out of reach leaves nothing behind
        self.backend = BackendRun(self.plan.backend, self.plan.backend_options, options.workers)
        try:
            if path:
                log = TranscriptLog.open(path, options.resume, "tournament" if tournament else "match", say)
                try:
                    if options.resume:
                        self.earlier = read_back(log, self.pairings, header, self.tallies, tournament=tournament,
                                                 say=say)
                except BaseException:
                    log.close()
                    raise
                self.out = log
        except BaseException:
            self.backend.stop()
            raise
        #: Sessions and hands done before this run (a resumed file's).
        self.done = sum(t.sessions for t in self.tallies)
        self.hands_before = sum(t.hands for t in self.tallies)
        #: How the run ended (once played): a write the machine refused, the
        #: backend's word on stopping, Ctrl-C, a bot that stopped it (its
        #: forfeits in a row, its failed starts: the sentence saying so, and how
        #: to go on), the seconds it took.
        self.refused: GinError | None = None
        self.stopped: str | None = None
        self.interrupted = False
        self.halted: StoppedByBot | None = None
        self.elapsed = 0.0

    @property
    def total(self) -> int:
        """The sessions the run plays at most, with those done before."""
        return len(self.pairings) * self.pairings[0].count

    @property
    def workers(self) -> int:
        return self.backend.workers

    @property
    def played(self) -> int:
        """The hands this run played (a resumed file's cost nothing now)."""
        return sum(t.hands for t in self.tallies) - self.hands_before

    def work_of(self, spec: MatchSpec) -> MatchWork:
        """What the backend's workers need to play a pairing's sessions."""
        return MatchWork.of(spec, self.out is not None, load_registry, self.plugins[0], self.plugins[1],
                            self.options.bots_file, self.registry)

    def play(self, advance: Advance = _nothing, each: Callable[[SessionOutcome], None] | None = None) -> None:
        """Play every session not played yet, in order: ``advance(n)`` after
        each chunk (``n`` sessions done of :attr:`total`), ``each(outcome)``
        for each session as it is counted. A bot that stops the run (its
        forfeits in a row, its failed starts) ends it too (:attr:`halted`: the
        sentence, saying where the sessions played are and how to go on), and
        Ctrl-C (:attr:`interrupted`), what was played kept; the face writes
        the summary, then says why. Either way the transcripts are closed and
        the bots and the backend stopped."""
        gc.freeze()
        started = time.perf_counter()
        try:
            self.refused = self._play(advance, each)
        except StoppedByBot as exc:
            self.halted = self._stop_sentence(exc)
        except KeyboardInterrupt:
            self.interrupted = True
        finally:
            if self.out is not None:
                try:
                    self.out.close()
                except MachineError as exc:
                    self.refused = self.refused or exc
                except OSError:  # a reader gone (--transcripts - | head): the bots and workers still go below
                    pass
            from ..matches.external import close_all

            self.refused = self.refused or close_all()  # a bot log that stopped taking lines as its bot ended
            self.stopped = self.backend.stop()  # a backend that fails to let go is said after the result
            self.elapsed = time.perf_counter() - started

    def _play(self, advance: Advance, each: Callable[[SessionOutcome], None] | None) -> MachineError | None:
        """Each pairing's sessions in turn, from where its tally stands; the
        progress counts a tournament's pairing as its count of sessions,
        whether or not its SPRT stops it sooner. Returns the write the machine
        refused (a full disk), which stops the run."""
        for k, (spec, tally) in enumerate(zip(self.pairings, self.tallies, strict=True)):
            if pairing_done(spec, tally):
                continue
            before = k * spec.count

            def progress(n: int, before: int = before) -> None:
                advance(before + n)

            refused = self._stream(self.work_of(spec), tally, progress, each)
            if refused is not None:
                return refused
            if self.tournament:
                advance(before + spec.count)
        return None

    def _stream(self, work: MatchWork, tally: Tally, advance: Advance,
                each: Callable[[SessionOutcome], None] | None) -> MachineError | None:
        """One pairing's sessions from where ``tally`` stands, through the backend."""
        spec = work.spec
        start = tally.sessions
        size = self.backend.chunk_size(spec.unit, spec.count - start)
        chunks = chunked(range(start, spec.count), size, ramp=self.backend.workers)
        with contextlib.closing(self.backend.results(work, chunks)) as results:
            for outcomes in results:
                for o in outcomes:
                    if self.out is not None and o.transcript is not None:
                        try:
                            self.out.write(o.transcript.encode() + b"\n")
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

    def _stop_sentence(self, exc: StoppedByBot) -> StoppedByBot:
        """A run stopped by a bot (its forfeits in a row, its failed starts):
        the same sentence, saying where the sessions played so far are kept
        and how to go on once the bot is fixed."""
        path = self.options.transcripts
        if not path or path == "-":
            return exc
        what = "tournament" if self.tournament else "match"
        if self.say.flags:
            how = f"gin {what} ... --transcripts {path} --resume"
        else:
            how = f"gincli.play_{what}(..., transcripts={path!r}, resume=True)"
        return type(exc)(f"{exc.message}; the sessions played are in {path}: fix the bot, then go on with {how}")

    def summary(self) -> dict[str, Any]:
        """What ``--format json`` prints: the match's summary, or the
        tournament's crosstable and rating list, of every session counted."""
        plan = self.plan
        if not isinstance(plan, TournamentPlan):
            summary = self.tallies[0].summary()
        else:
            summary = tournament_summary(plan.tour, plan.header, plan.matches, self.tallies, *plan.anchor)
        if self.halted is not None:  # what stopped it, for a program reading the summary
            summary["stopped"] = self.halted.message
        return summary
