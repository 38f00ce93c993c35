"""The commands as functions: :func:`score`, :func:`validate`, :func:`deal`,
:func:`play_match` (docs/api.md). Each calls the code its command calls and
returns what the command writes with ``--format json``, as dicts. Every
argument is checked before anything runs, by the checks the command's options
use (:mod:`gincli.base.arguments`): a mistake is a
:class:`~gincli.base.errors.UsageError` with the command's sentence, naming
the argument (``games: 0 must be at least 1``) where the command names its flag."""

from __future__ import annotations

import contextlib
import os
import warnings
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from os import PathLike
from typing import Any

from ..base.arguments import (
    KEYWORDS,
    argument,
    flag,
    json_value,
    optional_text,
    seconds,
    shown,
    text,
    texts,
    whole_number,
)
from ..base.config import MAX_WORKERS
from ..base.errors import ConfigError, UsageError, quote
from ..base.jsonio import dumps, holds_nan_or_infinity, loads
from ..base.pool import chunked, forks
from ..formats.containers import Item
from ..formats.records import HandScorer
from ..formats.store import MemorySink
from ..hand.bots import Bot
from ..matches.backends import DEFAULT_BACKEND
from ..matches.external import DEFAULT_TIME_LIMIT
from ..matches.pybots import bot_factory, label_of
from ..matches.runner import DEFAULT_MAX_FORFEITS
from ..matches.stats import parse_sprt
from ..plugin.registry import Registry, load_registry
from ..work.deal import deal_transcript, parse_players
from ..work.match import MatchRun
from ..work.plan import MatchOptions
from ..work.python import overrides as _overrides, registry, seed as _seed
from ..work.score import json_lines, scored
from ..work.validate import validated, validation_defaults


def _registry_with(*variants: str | None) -> Registry:
    """The registry, with the variant files the ``variant`` arguments name
    read: one that cannot be read, or that is wrong, is a mistake in the
    argument (:class:`UsageError`, in the command's sentence), as an unknown
    name is. A plugin's fault stays its own."""
    reg = registry()
    for name in variants:
        try:
            if name is not None:
                reg.variant(name)
        except ConfigError as exc:
            raise UsageError(exc.message) from None
    return reg


VARIANT = "a variant's name or a .toml file"
SCORING = "a scoring system's name"


def _count(name: str, value: Any, low: int = 1, high: int | None = None) -> int | None:
    return None if value is None else argument(name, whole_number, value, low, high)


def _players(players: Any) -> tuple[str, ...]:
    """``players``: names separated by commas, or a list of them."""
    if isinstance(players, str):
        return parse_players(players, KEYWORDS)
    names = argument("players", texts, players, "players' names", "a player's name")
    return parse_players(",".join(names), KEYWORDS, given=names)


def _records(records: Any) -> Iterable[Any]:
    if isinstance(records, (Mapping, str, bytes)) or not isinstance(records, Iterable):
        one = f"one {type(records).__name__}: put it in a list" if isinstance(records, (Mapping, str, bytes)) \
            else quote(records)
        raise UsageError(f"records takes an iterable of records (dicts), not {one}")
    return records


def _items(records: Iterable[Any]) -> Iterator[Item]:
    for i, record in enumerate(records):
        if type(record) is not dict:
            yield Item("<records>", i, None, None, f"record {i + 1} is not a dict (a JSON object)")
        elif holds_nan_or_infinity(record):  # as the record of a file holding one is refused, never echoed
            yield Item("<records>", i, None, None, f"record {i + 1} holds NaN or Infinity, which JSON does not allow")
        else:
            yield Item("<records>", i, None, record)


def _lines(text: str) -> Iterator[dict[str, Any]]:
    for line in text.splitlines():
        yield loads(line)


def score(records: Iterable[Mapping[str, Any]], *, variant: str | None = None, scoring: str = "game",
          options: Mapping[str, Any] | Sequence[str] | None = None) -> Iterator[dict[str, Any]]:
    """Score hand records (dicts, FORMATS.md), lazily: for each record, in
    order, the score result ``gin score --format json`` writes for it, or
    ``{"id": ..., "error": "..."}`` for a record that cannot be scored.

    ``variant`` (a name or a ``.toml`` file), ``scoring`` and ``options`` are
    ``--variant``, ``--scoring`` and ``--option``: for records that name none.
    A bad one is a :class:`~gincli.base.errors.UsageError`, raised by the call
    (before any record is read).

    >>> [r["outcome"] for r in gincli.score(records)]  # doctest: +SKIP
    """
    records = _records(records)
    variant = argument("variant", optional_text, variant, VARIANT)
    scoring = argument("scoring", text, scoring, SCORING)
    scorer = HandScorer(_registry_with(variant), variant, scoring, _overrides(options), where="options")
    return _scored(scorer, records)


def _scored(scorer: HandScorer, records: Iterable[Any]) -> Iterator[dict[str, Any]]:
    for chunk in scored({"scorer": scorer}, chunked(_items(records), 1)):  # a record read when its result is asked for
        yield from _lines(json_lines(chunk.records))


def validate(transcript: Mapping[str, Any], *, variant: str | Sequence[str] | None = None,
             scoring: str | None = None, options: Mapping[str, Any] | Sequence[str] | None = None) -> dict[str, Any]:
    """Replay a transcript (a dict, FORMATS.md) move by move: the validation
    report ``gin validate --format json`` writes for it (``valid``,
    ``complete``, ``errors`` with rule ids, each hand's score, the session's).
    ``variant``, ``scoring`` and ``options`` fill in what the transcript
    leaves out, as ``--variant`` (one or several), ``--scoring`` and ``--option`` do."""
    if variant is None or isinstance(variant, (str, PathLike)):
        variants = [argument("variant", text, variant, VARIANT)] if variant is not None else []
    else:
        variants = argument("variant", texts, variant, "variants' names or .toml files", VARIANT)
    scoring = argument("scoring", optional_text, scoring, SCORING)
    overrides = _overrides(options)
    reg = _registry_with(*variants)
    defaults = validation_defaults(reg, variants, scoring, overrides, where="options")
    state = {"registry": reg, "defaults": defaults, "invalid_only": False}
    if type(transcript) is not dict:
        item = Item("<transcript>", 0, None, None, "the transcript is not a dict (a JSON object)")
    elif holds_nan_or_infinity(transcript):
        item = Item("<transcript>", 0, None, None, "the transcript holds NaN or Infinity, which JSON does not allow")
    else:
        item = Item("<transcript>", 0, None, transcript)
    return next(_lines(next(validated(state, [item])).text))


def deal(*, seed: int | None = None, players: Sequence[str] | str = ("ann", "bob"), dealer: str | None = None,
         variant: str = "standard", scoring: str = "game", options: Mapping[str, Any] | Sequence[str] | None = None,
         id: Any = None) -> dict[str, Any]:
    """A seeded deal: the transcript ``gin deal --format json`` writes (the
    shuffled deck and the deal, ready for moves). Without ``seed``, a random
    one, recorded in the transcript; without ``dealer``, the players cut for it."""
    seed, names, dealer, variant, scoring, overrides = _deal_arguments(seed, players, dealer, variant, scoring,
                                                                       options)
    id = argument("id", json_value, id)
    _, doc = deal_transcript(_registry_with(variant), names, seed=seed, dealer=dealer, variant=variant,
                             scoring=scoring, overrides=overrides, id=id, say=KEYWORDS)
    return loads(dumps(doc))


def _deal_arguments(seed: Any, players: Any, dealer: Any, variant: Any, scoring: Any,
                    options: Any) -> tuple[int | None, tuple[str, ...], str | None, str, str, dict[str, Any]]:
    """:func:`deal`'s and :func:`~gincli.api.hands.new_hand`'s arguments, checked."""
    return (_seed(seed), _players(players), argument("dealer", optional_text, dealer, "a player's name"),
            argument("variant", text, variant, VARIANT), argument("scoring", text, scoring, SCORING),
            _overrides(options))


class Transcripts:
    """The sessions of a match, as the transcripts ``gin match --transcripts``
    writes (dicts, in session order): iterate them, ``len()``, index them.
    Each is read from its JSON line when it is asked for."""

    def __init__(self, lines: list[bytes]):
        self._lines = lines

    def __len__(self) -> int:
        """How many sessions were kept."""
        return len(self._lines)

    def __iter__(self) -> Iterator[dict[str, Any]]:
        return (loads(line) for line in self._lines)

    def __getitem__(self, index: int) -> dict[str, Any]:
        return loads(self._lines[index])

    def lines(self) -> Iterator[str]:
        """Each transcript as its JSON line (what the file holds, without the newline)."""
        return (line.decode("utf-8").rstrip("\n") for line in self._lines)

    def __repr__(self) -> str:
        return f"<{len(self)} transcripts>"


class MatchResult:
    """What :func:`play_match` played: ``summary``, the dict ``gin match
    --format json`` prints for the same arguments, and ``transcripts``
    (:class:`Transcripts`; empty with ``transcripts=False``)."""

    def __init__(self, summary: dict[str, Any], transcripts: Transcripts):
        self.summary = summary
        self.transcripts = transcripts

    @property
    def win_rate(self) -> dict[str, Any] | None:
        """Two players: the first one's share of the points (a win 1, a draw ½) with its 95% interval."""
        return self.summary.get("win_rate")

    def __repr__(self) -> str:
        s = self.summary
        return f"<MatchResult {' v '.join(p['name'] for p in s['players'])}: {s['sessions']} sessions>"


BotLike = Any  # str | gincli.Bot | Callable[[dict, list[dict]], dict]


def _python_bots(reg: Any, bots: Sequence[BotLike], time_limit: float | None) -> tuple[list[str], list[str]]:
    """The bots' specs for the plan, each Python object registered under a
    label of its own (timed by ``time_limit``, when given); returns the specs
    and the labels to drop afterwards."""
    specs: list[str] = []
    labels: list[str] = []
    seen: dict[int, int] = {}
    taken = set(reg.bots) | set(reg.named_bots) | {b for b in bots if isinstance(b, str)}
    for i, b in enumerate(bots):
        if isinstance(b, str):
            specs.append(b)
            continue
        if not isinstance(b, Bot) and not callable(b):
            raise UsageError(f"bot {i + 1} is {quote(b)}: give a bot's name, exec:COMMAND, a gincli.Bot or a "
                             "callable (view, legal) -> move")
        if isinstance(b, Bot) and id(b) in seen:
            raise UsageError(f"bots {seen[id(b)] + 1} and {i + 1} are the same gincli.Bot object, which plays one "
                             "seat: give each seat its own")
        seen[id(b)] = i
        base = label_of(b)
        label, n = base, 1
        while label in taken:
            n += 1
            label = f"{base}-{n}"
        taken.add(label)
        specs.append(label)
        labels.append(label)
        reg.add_bot_object(label, bot_factory(b, label, time_limit))
    return specs, labels


@contextlib.contextmanager
def _bots_in(reg: Any, bots: Sequence[BotLike], workers: int | None, backend: str,
             time_limit: float | None) -> Iterator[tuple[list[str], int | None]]:
    """The bots as specs, the Python objects among them registered for this run
    only; and the workers (one, where a Python object cannot go to more)."""
    if isinstance(bots, str):
        raise UsageError(f"bots takes a list of bots, not the text {quote(bots)}")
    if isinstance(bots, (bytes, Mapping)) or not isinstance(bots, Iterable):
        raise UsageError(f"bots takes a list of bots, not {quote(bots)}")
    specs, labels = _python_bots(reg, list(bots), time_limit)
    try:
        if labels and (backend != DEFAULT_BACKEND or (workers is not None and workers > 1 and not forks())):
            where = (f"the backend {backend}" if backend != DEFAULT_BACKEND else
                     "workers on this platform, which are spawned, not forked")
            raise UsageError(f"a Python bot object plays in this process, not in {where}: give workers=1 (or name "
                             "a bot of a plugin, or exec:COMMAND)")
        yield specs, (1 if labels and workers is None and not forks() else workers)
    finally:
        for label in labels:
            reg.drop_bot_object(label)


def _transcripts(value: Any) -> tuple[bool, str | None]:
    """``transcripts``: True (kept in memory), False (none), or a file's path
    (written as ``--transcripts FILE`` writes it); returns whether to keep
    them and the path."""
    if isinstance(value, bool):
        return value, None
    if isinstance(value, (str, PathLike)) and os.fspath(value) not in ("", "-"):
        return False, os.fspath(value)
    raise UsageError(f"transcripts: {shown(value)} is not True, False or a file's path")


def _match_options(*, games: Any, hands: Any, seed: Any, workers: Any, duplicate: Any, variant: Any,
                   scoring: Any, options: Any, sprt: Any, backend: Any, backend_options: Any, address: Any,
                   names: Any, time_limit: Any, start_time_limit: Any, max_hands: Any, bot_log: Any,
                   bot_trace: Any, max_forfeits: Any, transcripts: Any, resume: Any, bots_file: Any,
                   gauntlet: Any = None, anchor: Any = None) -> tuple[MatchOptions, bool, float | None]:
    """The arguments of :func:`play_match` and :func:`play_tournament`, each
    checked as ``gin match``'s option is, as the commands' one options object
    (its bots given later, once the Python objects among them are
    registered); whether the transcripts are kept in memory; and the time
    limit of Python bots (None: untimed)."""
    if sprt is not None:
        try:
            parse_sprt(sprt, "sprt")
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    if names is not None:
        names = ",".join(argument("names", texts, names, "players' names", "a player's name"))
    keep, path = _transcripts(transcripts)
    timed = None if time_limit is None else argument("time_limit", seconds, time_limit)
    listed = (None if backend_options is None else
              tuple(argument("backend_options", texts, backend_options, "KEY=VALUE strings", "a KEY=VALUE string")))
    opts = MatchOptions(
        (), games=_count("games", games), hands=_count("hands", hands), seed=_seed(seed),
        workers=_count("workers", workers, 1, MAX_WORKERS), duplicate=argument("duplicate", flag, duplicate),
        variant=argument("variant", text, variant, VARIANT),
        scoring=argument("scoring", optional_text, scoring, SCORING), options=_overrides(options),
        sprt=sprt, backend=argument("backend", text, backend, "a backend's name"), backend_options=listed,
        address=argument("address", optional_text, address, "a cluster's address (HOST:PORT, or auto)"),
        names=names, time_limit=DEFAULT_TIME_LIMIT if timed is None else timed,
        start_time_limit=30.0 if start_time_limit is None else argument("start_time_limit", seconds,
                                                                        start_time_limit),
        max_hands=argument("max_hands", whole_number, max_hands, 1),
        bot_log=argument("bot_log", optional_text, bot_log, "a folder's path"),
        bot_trace=argument("bot_trace", optional_text, bot_trace, "a folder's path"),
        max_forfeits=argument("max_forfeits", whole_number, max_forfeits, 0), transcripts=path,
        resume=argument("resume", flag, resume), bots_file=argument("bots_file", optional_text, bots_file,
                                                                    "a bots file's path"),
        gauntlet=_count("gauntlet", gauntlet),
        anchor=argument("anchor", optional_text, anchor, "a player's name (NAME or NAME=ELO)"))
    return opts, keep, timed


def play_match(bots: Sequence[BotLike], *, games: int | None = None, hands: int | None = None,
               seed: int | None = None, workers: int | None = None, duplicate: bool = False,
               variant: str = "standard", scoring: str | None = None,
               options: Mapping[str, Any] | Sequence[str] | None = None, sprt: str | None = None,
               backend: str = DEFAULT_BACKEND, backend_options: Sequence[str] | None = None,
               address: str | None = None, names: Sequence[str] | None = None, time_limit: float | None = None,
               start_time_limit: float = 30.0, max_hands: int = 10_000, bot_log: str | None = None,
               bot_trace: str | None = None, max_forfeits: int = DEFAULT_MAX_FORFEITS,
               transcripts: bool | str | PathLike[str] = True, resume: bool = False,
               bots_file: str | PathLike[str] | None = None) -> MatchResult:
    """Play a match, as ``gin match`` does with the same arguments: ``hands=N``
    (each settled alone) or ``games=N`` (sessions of ``scoring``, game by
    default), reproducible by ``seed`` whatever ``workers`` and ``backend``
    are; ``duplicate`` plays every deal twice with the seats swapped;
    ``sprt="elo0,elo1"`` stops once the test decides; ``bot_log`` and
    ``bot_trace`` name folders for external bots' stderr and exchanges, and
    ``max_forfeits`` hands forfeited in a row by one bot stop the match
    (:class:`~gincli.base.errors.UsageError`, its ``summary`` what was played;
    0: never), as on the command line.

    ``bots``: two (or as many as the scoring system seats), each a bot's name
    (``"expert"``, ``"master:samples=40"``), ``"exec:COMMAND"``, a named bot
    of ``bots_file`` (``--bots-file``), a :class:`gincli.Bot` instance, or a
    callable ``(view, legal) -> move`` taking the protocol's dicts
    (docs/bot-protocol.md) and returning one of ``legal``. A Python object
    plays in this process, its state kept; with ``workers`` > 1 in forked
    workers (each its own copy), which needs a platform that forks and the
    local backend. A move not in ``legal``, or an exception it raises
    (``sys.exit()`` too), forfeits that hand, with the reason.

    ``time_limit``: seconds a decision, for external bots (5 without it) and
    Python objects (untimed without it): past it the hand is forfeited and the
    match goes on; the late call is left running on a daemon thread, its
    answer discarded.

    ``transcripts``: True keeps every session's transcript in the result;
    a file's path writes them there as each session ends, as
    ``--transcripts FILE`` does (locked while the match plays; a file that
    holds something is refused), and with ``resume=True`` finishes the match
    that file holds, playing only what it lacks (the seed, when not given,
    is the file's); False keeps none.

    Returns a :class:`MatchResult`: ``summary`` (``gin match --format json``'s
    dict) and ``transcripts`` (the sessions kept in memory)."""
    opts, keep, timed = _match_options(games=games, hands=hands, seed=seed, workers=workers, duplicate=duplicate,
                                variant=variant, scoring=scoring, options=options, sprt=sprt, backend=backend,
                                backend_options=backend_options, address=address, names=names,
                                time_limit=time_limit, start_time_limit=start_time_limit, max_hands=max_hands,
                                bot_log=bot_log, bot_trace=bot_trace, max_forfeits=max_forfeits,
                                transcripts=transcripts, resume=resume, bots_file=bots_file)
    summary, lines = _play(bots, opts, keep, timed, tournament=False)
    return MatchResult(summary, Transcripts(lines))


def _play(bots: Sequence[BotLike], opts: MatchOptions, keep: bool, timed: float | None, *,
          tournament: bool) -> tuple[dict[str, Any], list[bytes]]:
    """Play a match or a tournament as its command does (:class:`MatchRun`):
    the summary, as ``--format json`` prints it, and the transcripts kept.
    Ctrl-C, once the bots and the backend are stopped, is raised again; a
    write the machine refused is raised; a backend that fails to let go is a
    warning (:mod:`warnings`)."""
    reg = _registry_with(opts.variant)
    if opts.bots_file is not None:  # its named bots for this call only: a registry of its own
        reg = _with_bots_file(opts.bots_file)
    with _bots_in(reg, bots, opts.workers, opts.backend, timed) as (specs, workers):
        sink = MemorySink() if keep else None
        run = MatchRun(reg, replace(opts, bots=tuple(specs), given=specs, workers=workers), tournament=tournament,
                       say=KEYWORDS, sink=sink)
        run.play()
        if run.stopped:
            warnings.warn(run.stopped, stacklevel=3)
        if run.refused is not None:
            raise run.refused
        if run.interrupted:
            raise KeyboardInterrupt
        summary = loads(dumps(run.summary()))
        if run.halted is not None:  # a bot stopped it: the error carries what was played
            run.halted.summary = summary
            raise run.halted
    return summary, sink.lines if sink is not None else []


def _with_bots_file(path: str) -> Registry:
    """The plugins, with the named bots of the bots file ``path``: a mistake
    in the file is a :class:`UsageError`, in the command's sentence."""
    reg = load_registry()
    try:
        reg.add_bots_file(path)
    except ConfigError as exc:
        raise UsageError(exc.message) from None
    return reg


class TournamentResult:
    """What :func:`play_tournament` played: ``summary``, the dict ``gin
    tournament --format json`` prints for the same arguments (the crosstable,
    the ratings, each pairing), and ``transcripts`` (every session, each naming
    its pairing)."""

    def __init__(self, summary: dict[str, Any], transcripts: Transcripts):
        self.summary = summary
        self.transcripts = transcripts

    def __repr__(self) -> str:
        return f"<TournamentResult {len(self.summary.get('pairings', []))} pairings>"


def play_tournament(bots: Sequence[BotLike], *, games: int | None = None, hands: int | None = None,
                    gauntlet: int | None = None, seed: int | None = None, workers: int | None = None,
                    duplicate: bool = False, variant: str = "standard", scoring: str | None = None,
                    options: Mapping[str, Any] | Sequence[str] | None = None, sprt: str | None = None,
                    anchor: str | None = None, backend: str = DEFAULT_BACKEND,
                    backend_options: Sequence[str] | None = None, address: str | None = None,
                    names: Sequence[str] | None = None, time_limit: float | None = None,
                    start_time_limit: float = 30.0,
                    max_hands: int = 10_000, bot_log: str | None = None, bot_trace: str | None = None,
                    max_forfeits: int = DEFAULT_MAX_FORFEITS, transcripts: bool | str | PathLike[str] = True,
                    resume: bool = False, bots_file: str | PathLike[str] | None = None) -> TournamentResult:
    """Play a tournament, as ``gin tournament`` does with the same arguments:
    three bots or more (as :func:`play_match` takes them, Python objects
    too), every pairing a match of ``games`` or ``hands`` (a round robin, or
    with ``gauntlet=K`` the first K against the others), the same deals for
    each; ``anchor="NAME[=ELO]"`` fixes the ratings' scale. The other
    arguments (``time_limit``, ``transcripts``, ``resume`` too) are
    :func:`play_match`'s. Returns a :class:`TournamentResult`."""
    opts, keep, timed = _match_options(games=games, hands=hands, seed=seed, workers=workers, duplicate=duplicate,
                                variant=variant, scoring=scoring, options=options, sprt=sprt, backend=backend,
                                backend_options=backend_options, address=address, names=names,
                                time_limit=time_limit, start_time_limit=start_time_limit, max_hands=max_hands,
                                bot_log=bot_log, bot_trace=bot_trace, max_forfeits=max_forfeits,
                                transcripts=transcripts, resume=resume, bots_file=bots_file, gauntlet=gauntlet,
                                anchor=anchor)
    summary, lines = _play(bots, opts, keep, timed, tournament=True)
    return TournamentResult(summary, Transcripts(lines))
