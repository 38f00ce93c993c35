"""Playing whole sessions: hand after hand until the scoring system settles.

A :class:`Table` holds one session being played: it deals every hand from one
seeded generator (a cut for the first deal unless the dealer is given; hand
``k``'s deck is the generator's ``k``-th shuffle after the cut), takes
each finished hand into the scoring system's session, picks the next dealer by
the ``next_dealer`` rule (the same dealer after a dead hand), and writes the
transcript so far (FORMATS.md), which ``gin validate`` accepts at any point.
:func:`play_session` plays a whole session with a chooser (bots, in ``gin
match``); ``gin play`` drives a :class:`Table` move by move.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base.contract import PluginFault
from ..base.errors import GinError, debug_enabled, quote
from ..formats.transcripts import transcript
from ..hand.bots import BotError, failure
from ..hand.engine import MAX_HAND_MOVES, Hand, IllegalMove, Move, cut_cards, shuffled_deck
from ..rulebook.cards import CARD_NAMES
from ..rulebook.rng import SplitMix64
from ..rulebook.rules import Rules
from ..rulebook.scoring import HandResult
from ..rulebook.variant import Variant
from .systems import ScoringSystem, Seating, open_session

#: Chooses the next move of the player to act in a hand.
Chooser = Callable[[Hand], Move]


@dataclass
class SessionRecord:
    """A played session: its transcript, hand results and settled result."""

    transcript: dict[str, Any]
    results: list[HandResult]
    result: dict[str, Any]
    capped: bool = False  # stopped by max_hands before the session was settled
    pairs: list[tuple[str, ...]] = field(default_factory=list)  # the two who played each hand
    stalled: int = 0  # hands stopped at the engine's move cap


class Table:
    """One session at the table, hand by hand.

    The players cut for the deal (those the session names, in order), unless
    a two-player session is given its first ``dealer``; the session then seats
    every hand. :meth:`deal` deals the next hand; the caller plays it to its
    end through the hand engine, then :meth:`end_hand` enters it. ``record``
    keeps each finished hand's transcript form (off for matches that keep none).

    ``duplicate`` (two players): every hand's cards go to the players as the
    session's first dealer would deal them, whoever deals it, so that the two
    sessions of a duplicate pair (the same seed, the players' seats and so
    their cut cards swapped) give each player, hand for hand, the cards the
    other held. Where the other player deals, the deck is written with its
    first twenty cards swapped two by two, so that dealing it as RULES.md
    says gives those hands, with the same upcard and stock.
    """

    def __init__(self, players: Sequence[str], variant: Variant, rules: Rules, system: ScoringSystem,
                 seed: int, *, dealer: str | None = None, record: bool = True, duplicate: bool = False):
        self.players = tuple(players)
        self.variant = variant
        self.rules = rules
        self.system = system
        self.seed = seed
        self.rng = SplitMix64(seed)
        self.session = open_session(system, self.players, rules)
        self.cut: dict[str, int] | None = None
        if dealer is None:
            self.cut = cut_cards(self.rng, self.session.cutters())
            self.seating = self.session.first_seating(self.cut)
        else:
            if len(self.players) != 2:
                raise ValueError("only a two-player session may be given its first dealer; the others cut")
            self.seating = Seating((self.players[0], self.players[1]), dealer)
        if duplicate and len(self.players) != 2:
            raise ValueError("only a two-player session is dealt in duplicate")
        #: Under ``duplicate``: the session's first dealer, as whom every hand is dealt.
        self.deals_as = self.seating.dealer if duplicate else None
        self.record = record
        self.hands: list[dict[str, Any]] = []  # the finished hands, as transcript hands
        self.results: list[HandResult] = []
        self.pairs: list[tuple[str, ...]] = []  # who played each finished hand
        self.hand: Hand | None = None  # the hand being played
        self.capped = False  # stopped by a hand cap before the session was settled
        self.stalled = 0  # hands stopped at the engine's move cap

    @property
    def finished(self) -> bool:
        """Whether the session is settled (``hand`` scoring: after its one hand)."""
        return self.session.finished or (self.session.settles_each_hand and bool(self.results))

    @property
    def dealer(self) -> str:
        """Who deals the next hand."""
        return self.seating.dealer

    def deal(self) -> Hand:
        """Deal the next hand to the two players the session seats (from the
        session's own generator; under ``duplicate``, as the first dealer would)."""
        deck = shuffled_deck(self.rng)
        if self.deals_as is not None and self.seating.dealer != self.deals_as:
            deck[0:20:2], deck[1:20:2] = deck[1:20:2], deck[0:20:2]  # the first dealer's cards to the first dealer
        hand = Hand(self.seating.players, self.seating.dealer, self.variant, self.rules, deck=deck)
        hand.number = len(self.results)
        hand.scores = self.session.scores_so_far()
        self.hand = hand
        return hand

    def end_hand(self, hand: Hand) -> HandResult:
        """Enter a hand played to its end (gincli spreads for a defender who did not)."""
        hand.record_spread()
        result = hand.finish()
        if self.record:
            self.hands.append(self._hand_dict(hand))
        self.enter(result, hand.players, hand.stalled)
        return result

    def enter(self, result: HandResult, players: tuple[str, ...], stalled: bool = False) -> None:
        """Enter the result of the hand being played, played and scored
        elsewhere than on its :class:`Hand` (gincli.rl's compiled hands), by
        ``players``; ``stalled`` if it was stopped at the engine's move cap.
        No transcript hand is kept for it."""
        self.results.append(result)
        self.pairs.append(players)
        self.stalled += stalled
        self.session.add_hand(result)
        if not self.session.finished:
            self.seating = self.session.next_seating(self.seating, result)
        self.hand = None

    def replay(self, hands: Sequence[Any], before: Callable[[Hand, Move], None] | None = None,
               after: Callable[[Hand, HandResult], None] | None = None) -> None:
        """Play again the hands of a transcript this table's seed dealt (``gin
        play --resume``): each is dealt as before and its moves made again
        (``before(hand, move)`` is told each first, ``after(hand, result)`` each
        hand entered: the bots catch up); those finished are entered, and a
        last one left unfinished stays the hand being played.
        :class:`ValueError` in one sentence when the transcript is not what this
        table deals (another seed, other rules)."""
        for hi, raw in enumerate(hands):
            if self.finished:
                raise ValueError(f"hand {hi + 1} was played after the session was settled")
            hand = self.deal()
            if not isinstance(raw, dict):
                raise ValueError(f"hand {hi + 1} is not an object")
            recorded = raw.get("deck")
            if recorded is not None and recorded != [CARD_NAMES[c] for c in hand.deck or ()]:
                raise ValueError(f"hand {hi + 1} was not dealt from this seed (its deck differs)")
            if raw.get("dealer") != hand.dealer:
                raise ValueError(f"hand {hi + 1} was dealt by {quote(raw.get('dealer'))}, not {quote(hand.dealer)}")
            try:
                for m in raw.get("moves") or ():
                    move = Move.from_dict(m)
                    if before is not None:
                        before(hand, move)
                    hand.apply(move)
            except IllegalMove as exc:
                raise ValueError(f"hand {hi + 1} holds a move the rules refuse: {exc.message}") from None
            forfeit = raw.get("forfeit")
            if isinstance(forfeit, dict) and not hand.over and forfeit.get("player") in hand.players:
                hand.forfeit(forfeit["player"], str(forfeit.get("reason", "")))
            if raw.get("stalled") is True and not hand.finishable:
                hand.stall()
            if not hand.finishable:
                if hi < len(hands) - 1:
                    raise ValueError(f"hand {hi + 1} stops before its end, but another hand follows")
                return
            result = self.end_hand(hand)
            if after is not None:
                after(hand, result)

    def _hand_dict(self, hand: Hand) -> dict[str, Any]:
        d = hand.to_dict()
        if len(self.players) > 2:  # FORMATS.md: each hand names its two players
            d = {"players": list(hand.players), **d}
        return d

    def transcript(self, *, id: Any = None, options: dict[str, Any] | None = None,
                   current: bool = False, settled: dict[str, Any] | None = None,
                   plugins: dict[str, Any] | None = None) -> dict[str, Any]:
        """The transcript so far: the finished hands (and, with ``current``, the
        hand being played, its moves so far), and the session's result once
        settled (``settled``, when the caller has it already)."""
        hands = list(self.hands)
        if current and self.hand is not None:
            hands.append(self._hand_dict(self.hand))
        result = None
        if self.finished:
            result = _claim(settled if settled is not None else self.session.result())
        return transcript(self.players, self.variant.name, self.system.name, hands, options=options, id=id,
                          seed=self.seed, cut=self.cut, result=result, capped=self.capped, plugins=plugins)


def take_turn(hand: Hand, choose: Chooser) -> None:
    """The player to act makes one move, chosen by ``choose`` (a bot: plugin
    code). A chooser that fails (raises anything, ``SystemExit`` too; a
    ``KeyboardInterrupt`` goes through), returns something that is not a move,
    or a move the rules forbid, makes that player forfeit the hand, as an
    external bot's crash or illegal reply does."""
    player = hand.to_act
    try:
        move = choose(hand)
        if not isinstance(move, Move):
            raise BotError(f"returned {quote(move)}, not a move")
        if move.player != player:
            raise BotError(f"replied for {quote(move.player)}, not its own seat {quote(player)}")
        hand.apply(move)
    except BotError as exc:
        hand.forfeit(player, exc.reason)
    except IllegalMove as exc:
        hand.forfeit(player, f"illegal move ({exc.rule}): {exc.message}")
    except (GinError, KeyboardInterrupt):
        raise  # a variant's or a move set's fault, a bot that cannot be started at all, Ctrl-C: not this hand's
    except BaseException as exc:  # a sys.exit() in a bot ends its hand, not the match
        if debug_enabled():
            raise
        hand.forfeit(player, failure(exc))


def play_hand(hand: Hand, choose: Chooser) -> HandResult:
    """Play one hand to its end (see :func:`take_turn`); after a knock gincli
    chooses the defender's spread (the best for the defender), and the
    transcript says what was scored."""
    while hand.phase not in ("spread", "over"):
        if len(hand.moves) >= MAX_HAND_MOVES:
            return hand.stall()
        take_turn(hand, choose)
    hand.record_spread()
    assert hand.result is not None
    return hand.result


def play_session(players: Sequence[str], variant: Variant, rules: Rules, system: ScoringSystem,
                 choose: Chooser, seed: int, *, dealer: str | None = None, id: Any = None,
                 options: dict[str, Any] | None = None, plugins: dict[str, Any] | None = None,
                 max_hands: int = 10_000, record: bool = True, duplicate: bool = False,
                 on_hand: Callable[[Hand, HandResult, Any], None] | None = None) -> SessionRecord:
    """Play one session to its end (``hand`` scoring: one hand), or until
    ``max_hands`` hands are played: the record is then ``capped`` (and so is
    the transcript, gincli's field ``"capped": true``). With ``record=False`` no
    transcript is built (faster, for matches that keep none). ``duplicate``:
    each hand dealt as the first dealer would deal it (:class:`Table`).
    ``on_hand(hand, result, session)`` is called after each hand."""
    at = "the start"  # where a plugin's fault stops it, for the sentence that says so
    try:
        table = Table(players, variant, rules, system, seed, dealer=dealer, record=record, duplicate=duplicate)
        while not table.finished:
            if len(table.results) >= max_hands:
                table.capped = True
                break
            at = f"hand {len(table.results) + 1}"
            hand = table.deal()
            play_hand(hand, choose)
            result = table.end_hand(hand)
            if on_hand is not None:
                on_hand(hand, result, table.session)
            at = f"the end of hand {len(table.results)}"
        at = "the end"
        settled = table.session.result()  # plugin code, checked: once a session
    except PluginFault as exc:
        if id is None:
            raise
        raise PluginFault(f"{exc.message} (at {at} of session {id})") from None
    doc = table.transcript(id=id, options=options, settled=settled, plugins=plugins) if record else {}
    return SessionRecord(doc, table.results, settled, table.capped, table.pairs, table.stalled)


def _claim(result: dict[str, Any]) -> dict[str, Any]:
    """The session result as a transcript claims it (FORMATS.md's fields)."""
    keep = ("box", "teams", "totals", "games", "scores", "winner")
    out = {k: v for k, v in result.items() if k in keep}
    if "games" in out:
        out["games"] = [{k: v for k, v in g.items() if k in ("scores", "winner")} for g in out["games"]]
    return out
