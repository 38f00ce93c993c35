"""An episode at the table, move by move, for the environments of this
package: one hand (``episode="hand"``) or a whole session of the scoring
system (``episode="session"``), dealt by a :class:`~gincli.sessions.table.Table`
from one seed as every command deals (so the deal for seed S is ``gin deal
--seed S``'s), played on the hand engine, its moves given as action ids
(:mod:`.actions`) and its positions seen through each seat's view (:mod:`.observe`).

The rewards are zero-sum: when a hand ends, its winner gets its points and the
other loses them (``episode="hand"``); in a session, each hand's end gives each
player the change in (its score − the opponent's) on the session's score pad,
so an episode's return is the session's final difference, bonuses included.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..base.errors import UsageError, quote
from ..hand.engine import MAX_HAND_MOVES, SPREAD, Hand
from ..hand.moves import Move
from ..hand.view import PlayerView, standard_choices
from ..rulebook.meldrules import STANDARD
from ..rulebook.rng import SplitMix64
from ..rulebook.rules import OFF
from ..rulebook.scoring import HandResult
from ..sessions.table import Table, take_turn
from ..work.python import overrides, registry, seed as checked_seed
from .actions import ActionTable
from .compiled import STDPLAY
from .observe import PHASE_INDEX, REWARD_SCALE, Encoder, encode

#: The two seats, as PettingZoo's classic environments name them.
AGENTS = ("player_0", "player_1")
EPISODES = ("hand", "session")


def check_seed(seed: Any) -> int | None:
    """A seed as the API takes it (a numpy integer too)."""
    return checked_seed(int(seed) if isinstance(seed, np.integer) else seed)


class Game:
    """The rules of an environment, and the episode being played.

    ``variant`` (a name or a ``.toml`` file), ``scoring`` and ``options`` are
    ``gin deal``'s; a mistake in them is a :class:`~gincli.base.errors.UsageError`
    in one sentence. ``max_hands`` caps a session (it is then truncated)."""

    def __init__(self, variant: str = "standard", scoring: str = "game",
                 options: Mapping[str, Any] | Sequence[str] | None = None, episode: str = "hand",
                 normalize: bool = False, max_hands: int = 10_000):
        if episode not in EPISODES:
            raise UsageError(f"episode is \"hand\" or \"session\", not {quote(episode)}")
        if type(max_hands) is not int or max_hands < 1:
            raise UsageError(f"max_hands is a whole number of 1 or more, not {quote(max_hands)}")
        reg = registry()
        self.variant = reg.variant(variant)
        self.system = reg.scoring(scoring)
        if 2 not in self.system.players:
            seats = " or ".join(str(n) for n in self.system.players)
            raise UsageError(f"the scoring system {self.system.name} takes {seats} players; the environments "
                             "seat two")
        try:
            self.rules = reg.rules(self.variant, self.system, overrides(options))
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        self.movesets = tuple(self.rules.movesets)
        self.actions = ActionTable(self.movesets)
        self.encoder = Encoder(self.movesets)
        self.episode = episode
        self.scale = REWARD_SCALE if normalize else 1.0
        self.max_hands = max_hands
        self.table: Table | None = None
        self.hand: Hand | None = None
        self.seed: int | None = None
        self.done: str | None = None  # "terminated" or "truncated" once the episode has ended
        self._seeds: SplitMix64 | None = None
        self._legal: tuple[PlayerView, np.ndarray, dict[int, Move]] | None = None
        self._zeros = np.zeros(self.actions.size, np.int8)
        #: No move set in play: the mask and the observations are read from the hand
        #: itself, without a view or a move a legal id (the same numbers; tests/test_rl_fast.py
        #: holds the two paths to each other).
        self.plain = not self.movesets
        #: Whether the rules have big gin (a knock without a discard).
        self.big_gin = self.rules["big_gin_bonus"] != OFF
        self._compiled_choices = STDPLAY is not None and self.rules.melds is STANDARD
        self._mask: np.ndarray | None = None
        self._record: dict[str, list[int]] = {}
        #: Told of every hand that ends, ``on_hand(hand, result)``, before the next is dealt.
        self.on_hand: Callable[[Hand, HandResult], None] | None = None

    # -- the episode -----------------------------------------------------------------------

    def start(self, seed: int | None = None) -> None:
        """Deal a new episode: from ``seed`` (the deal ``gin deal --seed`` makes),
        else from the next seed of the last one given, else a random one."""
        seed = check_seed(seed)
        if seed is not None:
            self._seeds = SplitMix64(seed).derive(0)
        elif self._seeds is None:
            self._seeds = SplitMix64(int.from_bytes(os.urandom(8), "big"))
        table_seed = seed if seed is not None else self._seeds.next64() >> 1
        try:
            self.table = Table(AGENTS, self.variant, self.rules, self.system, table_seed, record=False)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        self.seed = table_seed
        self.done = None
        self._deal()

    def _deal(self) -> None:
        assert self.table is not None
        self.hand = self.table.deal()
        self._legal = None
        self._mask = None
        self._record = {p: [0, 0, 0, 0] for p in AGENTS}

    @property
    def to_act(self) -> str:
        assert self.hand is not None
        return self.hand.to_act

    def _acting(self) -> tuple[PlayerView, np.ndarray, dict[int, Move]]:
        """The view of the seat to act, its mask and the move each legal id plays:
        made once a position (the view's own ``legal()``: the rules in one place)."""
        if self._legal is None:
            hand = self.hand
            assert hand is not None
            view = hand.view(hand.to_act)
            self._legal = (view, *self.actions.legal(view.legal()))
        return self._legal

    def legal(self) -> tuple[np.ndarray, dict[int, Move]]:
        """The mask of the seat to act and the move each legal id plays (kept until the next move)."""
        _, mask, by_id = self._acting()
        return mask, by_id

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation and its action mask (all zeros when it is not to act)."""
        hand = self.hand
        assert hand is not None
        if self.plain:
            acting = self.done is None and agent == hand.to_act
            return {"observation": self._observation(agent),
                    "action_mask": (self._plain_mask() if acting else self._zeros).copy()}
        if self.done is None and agent == hand.to_act:
            view, mask, _ = self._acting()
            return {"observation": self.encoder.observation(view), "action_mask": mask.copy()}
        return {"observation": self.encoder.observation(hand.view(agent)), "action_mask": self._zeros.copy()}

    def _plain_mask(self) -> np.ndarray:
        """The mask of the seat to act, with no move set in play (kept until the next move)."""
        if self._mask is None:
            hand = self.hand
            assert hand is not None
            held, pile = hand.hands[hand.to_act], bool(hand.pile)
            if self._compiled_choices:
                choices = STDPLAY.choices(  # type: ignore[union-attr]
                    PHASE_INDEX[hand.phase], held, hand.taken, hand.limit, self.big_gin, hand.must_draw_stock, pile,
                    hand.stock_count)
            else:
                choices = standard_choices(hand.phase, held, hand.taken, hand.limit, self.big_gin,
                                           hand.must_draw_stock, pile, hand.stock_count, self.rules.melds)
            self._mask = self.actions.mask_of(*choices)
        return self._mask

    def _observation(self, agent: str) -> np.ndarray:
        """``agent``'s observation, read from the public record of the hand as its view would hold it."""
        hand = self.hand
        assert hand is not None
        other = AGENTS[1] if agent == AGENTS[0] else AGENTS[0]
        _, took, _, theirs = self._marks(other)
        mine = self._marks(agent)[3]
        upcard = 1 << hand.upcard
        # Every card that went to the pile (the first upcard, the discards) lies there still or is held:
        # the pile, as a mask, without walking it.
        on_pile = (upcard | mine | theirs) & ~(hand.hands[agent] | hand.hands[other])
        pile = hand.pile
        return encode(hand.hands[agent], pile[-1] if pile else -1, on_pile, took, mine, theirs,
                      upcard if other in hand.passes else 0, PHASE_INDEX.get(hand.phase, 4), hand.limit,
                      hand.stock_count)

    def _marks(self, player: str) -> list[int]:
        """How many cards ``player`` took from the pile and discarded, and each
        as a mask: brought up to date with the hand's record, which only grows."""
        hand = self.hand
        assert hand is not None
        record = self._record[player]
        took, discarded = hand.took[player], hand.discarded[player]
        if len(took) > record[0]:
            for c in took[record[0]:]:
                record[1] |= 1 << c
            record[0] = len(took)
        if len(discarded) > record[2]:
            for c in discarded[record[2]:]:
                record[3] |= 1 << c
            record[2] = len(discarded)
        return record

    # -- moves -------------------------------------------------------------------------------

    def play(self, action: Any) -> tuple[dict[str, float], dict[str, Any] | None]:
        """The seat to act plays the action id ``action``. An id that is not
        legal now forfeits the hand (as a bot's illegal move does); a value that
        is no id at all is a :class:`UsageError`. Returns each seat's reward and,
        when a hand ended, what ``info`` tells of it."""
        hand = self.hand
        assert hand is not None and self.done is None
        action = self.action_id(action)
        player = hand.to_act
        if self.plain:
            move = self.actions.standard_move(action, player) if self._plain_mask()[action] else None
        else:
            move = self.legal()[1].get(action)
        if move is None:
            hand.forfeit(player, self.refusal(player, action))
        else:
            hand.apply(move)
        return self._moved()

    def action_id(self, action: Any) -> int:
        """``action`` as an id of the table; a value that is no id at all is a :class:`UsageError`."""
        if type(action) is int and 0 <= action < self.actions.size:  # the common case, at once
            return action
        if isinstance(action, (bool, float)) or not isinstance(action, (int, np.integer)) \
                or not 0 <= action < self.actions.size:
            raise UsageError(f"an action is an id from 0 to {self.actions.size - 1}, not {quote(action)}")
        return int(action)

    def refusal(self, player: str, action: int) -> str:
        """Why ``player`` forfeits the hand for the id ``action``, which is not legal now."""
        return f"{player} chose the action {action} ({self.actions.describe(action)}), which is not legal now"

    def bot_turn(self, choose: Callable[[Hand], Move]) -> tuple[dict[str, float], dict[str, Any] | None]:
        """The seat to act is a bot: ``choose(hand)`` gives its move, checked as
        in every match (a bot that fails forfeits the hand)."""
        assert self.hand is not None and self.done is None
        take_turn(self.hand, choose)
        return self._moved()

    def _moved(self) -> tuple[dict[str, float], dict[str, Any] | None]:
        """After a move: gincli's spread after a knock, the move cap, the end of a
        hand (its rewards; the next deal, in a session), the end of the episode."""
        hand = self.hand
        table = self.table
        assert hand is not None and table is not None
        self._legal = None
        self._mask = None
        after_move(hand)
        if not hand.over:
            return dict.fromkeys(AGENTS, 0.0), None
        return self._hand_over(None, hand.stalled)

    def settle(self, result: HandResult, stalled: bool = False) -> tuple[dict[str, float], dict[str, Any]]:
        """The hand dealt was played to its end elsewhere than on its
        :class:`Hand` (the compiled module: :mod:`.compiled_game`) and scored
        ``result``, ``stalled`` at the move cap: its rewards and info, as
        after the move that ends it here."""
        return self._hand_over(result, stalled)

    def _hand_over(self, result: HandResult | None, stalled: bool) -> tuple[dict[str, float], dict[str, Any]]:
        """The hand has ended: entered at the table (``result``, when it was
        not played on the hand itself), its rewards; the next deal, in a
        session, or the end of the episode."""
        table = self.table
        assert table is not None
        hand = table.hand  # this game's (as it was dealt, when played elsewhere)
        assert hand is not None
        before = dict(table.session.scores_so_far()) if self.episode == "session" else None
        if result is None:
            result = table.end_hand(hand)
            if self.on_hand is not None:
                self.on_hand(hand, result)
        else:
            table.enter(result, hand.players, stalled)
        info: dict[str, Any] = {"result": result.to_dict()}
        if before is None:
            rewards = self._hand_rewards(result)
            self.done = "truncated" if stalled else "terminated"
        else:
            after = table.session.scores_so_far()
            a, b = AGENTS
            delta = (after.get(a, 0) - after.get(b, 0)) - (before.get(a, 0) - before.get(b, 0))
            rewards = {a: delta / self.scale, b: -delta / self.scale}
            if table.finished:
                self.done = "terminated"
            elif len(table.results) >= self.max_hands:
                table.capped = True
                self.done = "truncated"
            if self.done is not None:
                info["session"] = table.session.result()
            else:
                self._deal()
        info["hands"] = len(table.results)
        return rewards, info

    def _hand_rewards(self, result: HandResult) -> dict[str, float]:
        rewards = dict.fromkeys(AGENTS, 0.0)
        if result.winner is not None:
            loser = AGENTS[1] if result.winner == AGENTS[0] else AGENTS[0]
            rewards[result.winner] = result.points / self.scale
            rewards[loser] = -result.points / self.scale
        return rewards

    def render_as(self, mode: str | None) -> str | None:
        """``render()`` of both environments: the table as text (``"ansi"``),
        printed (``"human"``), or a warning that no mode was given."""
        if mode is None:
            from gymnasium import logger

            logger.warn("You are calling render() without a render_mode: give render_mode=\"human\" or \"ansi\".")
            return None
        text = self.render()
        if mode == "ansi":
            return text
        print(text)
        return None

    def render(self) -> str:
        """The table for people: every card (both hands: a picture, not an observation)."""
        from ..rulebook.cards import CARD_NAMES, cards_of

        hand = self.hand
        if hand is None:
            return "no hand dealt yet: reset the environment"
        top = CARD_NAMES[hand.pile[-1]] if hand.pile else "none"
        head = (f"hand {hand.number + 1} · {hand.dealer} deals · "
                + (f"{hand.to_act} to {hand.expecting()}" if not hand.over else "over")
                + f" · discard {top} · stock {hand.stock_count}")
        lines = [head] + [f"  {p}: {' '.join(CARD_NAMES[c] for c in cards_of(hand.hands[p]))}" for p in AGENTS]
        if hand.result is not None:
            r = hand.result
            lines.append(f"  {r.outcome}: " + (f"{r.winner} wins {r.points}" if r.winner else "nobody scores"))
        return "\n".join(lines)


def after_move(hand: Hand) -> None:
    """What gincli does after a move of the environments: the spreads after a
    knock (the defender's chosen for it), the move cap."""
    if hand.phase == SPREAD:
        hand.record_spread()
    elif not hand.over and len(hand.moves) >= MAX_HAND_MOVES:
        hand.stall()
