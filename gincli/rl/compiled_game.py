"""A game of the rule book's own rules (no move set in play, the standard
melds) played by the compiled module (:mod:`.compiled`), for the AEC
environment: each move, the mask and the observation of the seat to act in
one call, the hand's end scored by gincli's scoring. The :class:`Hand` object
is brought up to date from the moves played only when it is read (``render``,
a test, a script), so it is the engine's hand as the engine would have played
it; the rules, the deal, the rewards and the info are :class:`.game.Game`'s.
tests/test_rl_fast.py holds it to the engine, move for move."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..hand.engine import Hand
from ..rulebook.meldrules import STANDARD
from ..rulebook.scoring import HandResult, Position, dead_hand, forfeit_result, score_position
from .compiled import STDPLAY
from .game import AGENTS, Game, after_move
from .observe import OBSERVATION_SIZE


def compiled(game: Game) -> bool:
    """Whether the compiled module can play ``game``'s rules (and was built)."""
    return STDPLAY is not None and game.plain and game.rules.melds is STANDARD


def new_game(variant: str = "standard", scoring: str = "game",
             options: Mapping[str, Any] | Sequence[str] | None = None, episode: str = "hand",
             normalize: bool = False, max_hands: int = 10_000) -> Game:
    """The game of these rules (:class:`.game.Game`'s arguments): compiled where it can be."""
    game = Game(variant, scoring, options, episode, normalize, max_hands)
    return CompiledGame(variant, scoring, options, episode, normalize, max_hands) if compiled(game) else game


def compiled_result(game: Game, ending: tuple[int, int, int, int, int]) -> HandResult:
    """The result of ``game``'s hand, which the compiled module played to its
    end (``Batch.ending``: both hands, how it ended, the seat, an action
    refused): scored as the engine scores that end (``Hand._score``,
    ``Hand.forfeit``, a dead hand)."""
    assert game.table is not None and STDPLAY is not None
    hand = game.table.hand  # as it was dealt
    assert hand is not None
    hand0, hand1, how, seat, refused = ending
    hands = {p: hand0 if p == AGENTS[0] else hand1 for p in hand.hands}  # the engine's order of seats
    player = AGENTS[seat]
    if how == STDPLAY.KNOCKED:
        return score_position(Position(hand.players, hands, player, hand.upcard, {}, None), hand.variant, hand.rules)
    if how == STDPLAY.FORFEITED:
        return forfeit_result(player, hand.other(player), hands[player], hand.rules, hand.variant.name,
                              game.refusal(player, refused))
    return dead_hand(hand.players, hand.variant.name)  # at the wall, or stopped at the move cap


class CompiledGame(Game):
    """:class:`.game.Game`, its hands played by the compiled module."""

    def __init__(self, variant: str = "standard", scoring: str = "game",
                 options: Mapping[str, Any] | Sequence[str] | None = None, episode: str = "hand",
                 normalize: bool = False, max_hands: int = 10_000):
        assert STDPLAY is not None
        self._dealt: Hand | None = None
        self._played: list[int] = []  # the ids played in this hand
        self._caught_up = 0  # how many of them the hand object has played
        self._ended = 0  # how the hand ended (the module's KNOCKED, ...), 0 while it goes on
        super().__init__(variant, scoring, options, episode, normalize, max_hands)
        self._batch = STDPLAY.Batch(1, self.actions.size)
        self._seat = 0
        self._obs = np.empty(OBSERVATION_SIZE, np.float32)  # the seat to act's, written by the module
        self._acting_mask = np.empty(self.actions.size, np.int8)

    @property
    def hand(self) -> Hand | None:
        """The hand, as the engine has it after the moves played so far."""
        hand = self._dealt
        if hand is not None and self._caught_up < len(self._played):
            last = len(self._played) - 1
            for k in range(self._caught_up, last + 1):
                action, player = self._played[k], hand.to_act
                if k == last and self._ended == STDPLAY.FORFEITED:  # type: ignore[union-attr]
                    hand.forfeit(player, self.refusal(player, action))
                else:
                    move = self.actions.standard_move(action, player)
                    assert move is not None
                    hand.apply(move)
                    after_move(hand)
            self._caught_up = len(self._played)
        return hand

    @hand.setter
    def hand(self, dealt: Hand | None) -> None:
        self._dealt = dealt
        self._played = []
        self._caught_up = 0
        self._ended = 0
        if dealt is not None:
            assert dealt.stock is not None
            self._seat = self._batch.deal(0, dealt.hands[AGENTS[0]], dealt.hands[AGENTS[1]], dealt.upcard,
                                          bytes(dealt.stock), AGENTS.index(dealt.dealer), dealt.limit, self.big_gin,
                                          self._obs, self._acting_mask)

    @property
    def to_act(self) -> str:
        return AGENTS[self._seat]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if self.done is None and agent == AGENTS[self._seat]:
            return {"observation": self._obs.copy(), "action_mask": self._acting_mask.copy()}
        seen = np.empty(OBSERVATION_SIZE, np.float32)
        self._batch.observe(0, AGENTS.index(agent), seen)
        return {"observation": seen, "action_mask": self._zeros.copy()}

    def play(self, action: Any) -> tuple[dict[str, float], dict[str, Any] | None]:
        assert self._dealt is not None and self.done is None
        action = self.action_id(action)
        self._legal = None
        self._played.append(action)
        seat = self._batch.play(0, action, self._obs, self._acting_mask)
        if seat >= 0:
            self._seat = seat
            return dict.fromkeys(AGENTS, 0.0), None
        self._ended = -seat
        stalled = self._ended == STDPLAY.STALLED  # type: ignore[union-attr]
        return self.settle(compiled_result(self, self._batch.ending(0)), stalled)

    def bot_turn(self, choose: Any) -> tuple[dict[str, float], dict[str, Any] | None]:
        raise RuntimeError("a compiled game has no bots: Game plays them")
