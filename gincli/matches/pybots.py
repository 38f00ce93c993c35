"""Bots that are Python objects of the calling process (:func:`gincli.play_match`):
a :class:`~gincli.hand.bots.Bot` instance, or any callable ``(view, legal) ->
move`` taking the view and the legal moves as the bot protocol's dicts
(docs/bot-protocol.md) and returning one of ``legal``.

They play in this process (or in workers forked from it), so an object that
holds a model loaded once keeps it, and its state, across decisions and
sessions. What a callable returns is checked where it crosses, as an external
bot's reply is: a move not among ``legal``, or an exception it raises (a
``sys.exit()`` too; only a ``KeyboardInterrupt`` goes through), is that seat's
forfeit of the hand with the reason, never a crash of the match.

With a time limit (``play_match(time_limit=...)``), each call of a bot runs on
a daemon thread of its own (:class:`BotThread`), which the match waits on for
the limit at most: a decision past it forfeits the hand with an external bot's
reason, and its answer, when it comes, is discarded. Without one, the bot is
called right here, with no thread between."""

from __future__ import annotations

import os
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..base.errors import quote
from ..hand.bots import Bot, BotError, TimeOut, failure
from ..hand.moves import Move
from ..hand.view import PlayerView
from ..rulebook.rng import SplitMix64
from .external.protocol import legal_json, view_to_json

if TYPE_CHECKING:
    from queue import SimpleQueue

#: A callable bot: the view and the legal moves (the protocol's dicts) in, one of the legal moves out.
Decide = Callable[[dict[str, Any], list[dict[str, Any]]], Any]


class CallableBot(Bot):
    """A seat played by a callable ``(view, legal) -> move``; ``label`` names it in a forfeit's reason."""

    description = "a Python callable (view, legal) -> move"

    def __init__(self, rng: SplitMix64, seat: str, decide: Decide, label: str):
        super().__init__(rng, seat)
        self.decide = decide
        self.label = label
        self.name = label

    def choose(self, view: PlayerView) -> Move:
        legal = view.legal()
        encoded = legal_json(legal)
        try:
            reply = self.decide(view_to_json(view), legal_json(legal))
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # a sys.exit() too: the bot's fault, never the caller's end
            raise BotError(f"the bot {self.label} {failure(exc)}") from None
        if isinstance(reply, Move):
            if reply in legal:
                return reply
        elif isinstance(reply, dict):
            asked = {k: v for k, v in reply.items() if k != "player"} if reply.get("player") == view.me else reply
            for move, d in zip(legal, encoded, strict=True):
                if asked == d:
                    return move
        raise BotError(f"the bot {self.label} returned {quote(reply)}, not one of the legal moves")


class _Call:
    """One call handed to a :class:`BotThread`: ``job`` is ``None`` once the
    caller stopped waiting (not run if it had not started); ``done`` is a lock
    held until it has run (cheaper to wait on than an event)."""

    __slots__ = ("job", "done", "started", "value", "error")

    def __init__(self, fn: Callable[..., Any], args: tuple[Any, ...], done: Any):
        self.job: tuple[Callable[..., Any], tuple[Any, ...]] | None = (fn, args)
        self.done = done
        self.started = False
        self.value: Any = None
        self.error: BaseException | None = None


class BotThread:
    """The daemon thread a timed Python bot's calls run on, one at a time and
    in order, so the object never sees two calls at once, and a call still
    running when the next comes makes that one wait (within its own limit).
    Started by the first call in each process: a worker forked from this one
    starts its own (threads do not survive a fork). A call past the limit is
    left to run on, its answer discarded; the thread ends once the match has
    forgotten the bot and the thread is idle."""

    def __init__(self, limit: float):
        self.limit = limit
        self._pid = -1
        self._calls: SimpleQueue[_Call | None] | None = None

    def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` on the thread: what it returns, or what it raised (a
        ``SystemExit`` or ``KeyboardInterrupt`` too) raised here; a
        :class:`BotError` with an external bot's reason when it has not ended
        within the limit."""
        import threading

        calls = self._calls
        if calls is None or self._pid != os.getpid():
            import queue

            calls = queue.SimpleQueue()
            self._calls = calls
            threading.Thread(target=_serve, args=(calls,), name="gincli Python bot", daemon=True).start()
            weakref.finalize(self, calls.put, None).atexit = False
            self._pid = os.getpid()
        done = threading.Lock()
        done.acquire()
        call = _Call(fn, args, done)
        calls.put(call)
        if not done.acquire(True, self.limit):
            busy = not call.started
            call.job = None
            hint = " (it was still busy with an earlier call past its time)" if busy else ""
            raise TimeOut(self.limit, hint=hint)
        if call.error is not None:
            raise call.error
        return call.value


def _serve(calls: SimpleQueue[_Call | None]) -> None:
    """A :class:`BotThread`'s loop: each call in turn, what it raised kept for the caller."""
    while True:
        call = calls.get()
        if call is None:
            return
        job = call.job
        if job is None:
            continue  # its caller stopped waiting before it started
        call.started = True
        try:
            call.value = job[0](*job[1])
        except BaseException as exc:  # handed to the caller, which decides (a KeyboardInterrupt goes on there)
            call.error = exc
        call.done.release()


class TimedBot(Bot):
    """A Python bot object's seat under a time limit: its ``choose``, and its
    ``hand_over`` and ``close`` where it has them, run on its :class:`BotThread`."""

    def __init__(self, bot: Bot, thread: BotThread):  # no Bot.__init__: rng, seat and players are the bot's own
        self.bot = bot
        self.thread = thread
        self.name = bot.name
        self.description = bot.description

    @property
    def rng(self) -> SplitMix64:
        return self.bot.rng

    @rng.setter
    def rng(self, value: SplitMix64) -> None:
        self.bot.rng = value

    @property
    def seat(self) -> str:
        return self.bot.seat

    @seat.setter
    def seat(self, value: str) -> None:
        self.bot.seat = value

    @property
    def players(self) -> tuple[str, ...]:
        return self.bot.players

    @players.setter
    def players(self, value: tuple[str, ...]) -> None:
        self.bot.players = value

    def choose(self, view: PlayerView) -> Move:
        return self.thread.run(self.bot.choose, view)

    def hand_over(self, view: PlayerView, result: dict) -> None:
        if type(self.bot).hand_over is not Bot.hand_over:
            self._told(self.bot.hand_over, view, result)

    def close(self) -> None:
        if type(self.bot).close is not Bot.close:
            self._told(self.bot.close)

    def _told(self, fn: Callable[..., None], *args: Any) -> None:
        try:
            self.thread.run(fn, *args)
        except BotError:
            pass  # past the limit: no hand to forfeit; its next decision finds it busy


def bot_factory(obj: Any, label: str, time_limit: float | None = None) -> Callable[[SplitMix64, str], Bot]:
    """What the runner calls for each seat and session (``factory(rng, seat)``):
    for a :class:`Bot` instance, the instance itself, given the session's
    generator and its seat; for a callable, a :class:`CallableBot` around it.
    With ``time_limit``, either wrapped in a :class:`TimedBot`, its sessions
    all on one :class:`BotThread`."""
    if isinstance(obj, Bot):
        def make(rng: SplitMix64, seat: str = "") -> Bot:
            obj.rng = rng
            obj.seat = seat
            return obj
    elif callable(obj):
        def make(rng: SplitMix64, seat: str = "") -> Bot:
            return CallableBot(rng, seat, obj, label)
    else:
        raise TypeError(f"{quote(obj)} is neither a bot name, a gincli.Bot nor a callable")
    if time_limit is None:
        return make
    thread = BotThread(time_limit)

    def timed(rng: SplitMix64, seat: str = "") -> Bot:
        return TimedBot(make(rng, seat), thread)

    return timed


def label_of(obj: Any) -> str:
    """A Python bot's name in the summary (``bot``) and in its player's name:
    a bot's ``name``, else the callable's or its class's name."""
    name = getattr(obj, "name", None) if isinstance(obj, Bot) else None
    if not name:
        name = getattr(obj, "__name__", None) or type(obj).__name__
    text = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in str(name))[:40]
    return text or "python"
