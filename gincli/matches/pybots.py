"""Bots that are Python objects of the calling process (:func:`gincli.play_match`):
a :class:`~gincli.hand.bots.Bot` instance, or any callable ``(view, legal) ->
move`` taking the view and the legal moves as the bot protocol's dicts
(docs/bot-protocol.md) and returning one of ``legal``.

They play in this process (or in workers forked from it), so an object that
holds a model loaded once keeps it, and its state, across decisions and
sessions. What a callable returns is checked where it crosses, as an external
bot's reply is: a move not among ``legal``, or an exception it raises, is that
seat's forfeit of the hand with the reason, never a crash of the match."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..base.errors import quote, shorten
from ..hand.bots import Bot, BotError
from ..hand.moves import Move
from ..hand.view import PlayerView
from ..rulebook.rng import SplitMix64
from .external.protocol import legal_json, view_to_json

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
        except Exception as exc:
            raise BotError(f"the bot {self.label} raised {type(exc).__name__}: {shorten(str(exc))}") from None
        if isinstance(reply, Move):
            if reply in legal:
                return reply
        elif isinstance(reply, dict):
            asked = {k: v for k, v in reply.items() if k != "player"} if reply.get("player") == view.me else reply
            for move, d in zip(legal, encoded):
                if asked == d:
                    return move
        raise BotError(f"the bot {self.label} returned {quote(reply)}, not one of the legal moves")


def bot_factory(obj: Any, label: str) -> Callable[[SplitMix64, str], Bot]:
    """What the runner calls for each seat and session (``factory(rng, seat)``):
    for a :class:`Bot` instance, the instance itself, given the session's
    generator and its seat; for a callable, a :class:`CallableBot` around it."""
    if isinstance(obj, Bot):
        def same(rng: SplitMix64, seat: str = "") -> Bot:
            obj.rng = rng
            obj.seat = seat
            return obj

        return same
    if callable(obj):
        def wrapped(rng: SplitMix64, seat: str = "") -> Bot:
            return CallableBot(rng, seat, obj, label)

        return wrapped
    raise TypeError(f"{quote(obj)} is neither a bot name, a gincli.Bot nor a callable")


def label_of(obj: Any) -> str:
    """A Python bot's name in the summary (``bot``) and in its player's name:
    a bot's ``name``, else the callable's or its class's name."""
    name = getattr(obj, "name", None) if isinstance(obj, Bot) else None
    if not name:
        name = getattr(obj, "__name__", None) or type(obj).__name__
    text = "".join(ch if ch.isalnum() or ch in "-_." else "_" for ch in str(name))[:40]
    return text or "python"
