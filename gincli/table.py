"""Playing whole sessions: hand after hand until the scoring system settles.

:func:`play_session` deals every hand from one seeded generator (a cut for
the first deal unless the dealer is given), asks a chooser for each move,
scores each hand, enters it into the session, picks the next dealer by the
``next_dealer`` rule (the same dealer after a dead hand), and returns the
transcript it recorded (FORMATS.md), which ``gin validate`` accepts.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .bots import BotError
from .engine import Hand, IllegalMove, Move, cut_for_deal, next_dealer, shuffled_deck
from .formats.transcripts import transcript
from .rng import SplitMix64
from .rules import Rules
from .scoring import HandResult
from .session import ScoringSystem
from .variant import Variant

#: Chooses the next move of the player to act in a hand.
Chooser = Callable[[Hand], Move]


@dataclass
class SessionRecord:
    """A played session: its transcript, hand results and settled result."""

    transcript: dict[str, Any]
    results: list[HandResult]
    result: dict[str, Any]
    capped: bool = False  # stopped by max_hands before the session was settled


def play_hand(hand: Hand, choose: Chooser) -> HandResult:
    """Play one hand to its end; after a knock gincli chooses the defender's
    spread (the best for the defender), and the transcript says what was scored.

    A chooser that raises :class:`~gincli.bots.BotError`, or returns a move the
    rules forbid, makes the player to act forfeit the hand."""
    while hand.phase not in ("spread", "over"):
        player = hand.to_act
        try:
            move = choose(hand)
            if move.player != player:
                raise BotError(f"replied for {move.player!r}, not its own seat {player!r}")
            hand.apply(move)
        except BotError as exc:
            return hand.forfeit(player, exc.reason)
        except IllegalMove as exc:
            return hand.forfeit(player, f"illegal move ({exc.rule}): {exc.message}")
    hand.record_spread()
    assert hand.result is not None
    return hand.result


def play_session(players: Sequence[str], variant: Variant, rules: Rules, system: ScoringSystem,
                 choose: Chooser, seed: int, *, dealer: str | None = None, id: Any = None,
                 options: dict[str, Any] | None = None, max_hands: int = 10_000, record: bool = True,
                 on_hand: Callable[[Hand, HandResult, Any], None] | None = None) -> SessionRecord:
    """Play one session to its end (``hand`` scoring: one hand), or until
    ``max_hands`` hands are played: the record is then ``capped`` (and so is
    the transcript, gincli's field ``"capped": true``). With ``record=False`` no
    transcript is built (faster, for matches that keep none).
    ``on_hand(hand, result, session)`` is called after each hand."""
    rng = SplitMix64(seed)
    cut = None
    if dealer is None:
        dealer, cut = cut_for_deal(rng, players, rules)
    session = system.new_session(players, rules)
    hands: list[dict[str, Any]] = []
    results: list[HandResult] = []
    capped = False
    for _ in range(max_hands):
        hand = Hand(players, dealer, variant, rules, deck=shuffled_deck(rng))
        hand.number = len(results)
        hand.scores = session.scores_so_far()
        result = play_hand(hand, choose)
        if record:
            hands.append(hand.to_dict())
        results.append(result)
        session.add_hand(result)
        if on_hand is not None:
            on_hand(hand, result, session)
        if session.finished or session.settles_each_hand:
            break
        dealer = next_dealer(rules, players, dealer, result)
    else:
        capped = True
    settled = session.result()
    doc = transcript(players, variant.name, system.name, hands, options=options, id=id, seed=seed, cut=cut,
                     result=_claim(settled), capped=capped) if record else {}
    return SessionRecord(doc, results, settled, capped)


def _claim(result: dict[str, Any]) -> dict[str, Any]:
    """The session result as a transcript claims it (FORMATS.md's fields)."""
    keep = ("games", "scores", "winner")
    out = {k: v for k, v in result.items() if k in keep}
    if "games" in out:
        out["games"] = [{k: v for k, v in g.items() if k in ("scores", "winner")} for g in out["games"]]
    return out
