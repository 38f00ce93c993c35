"""``gin bots check BOT``: an external bot run through the protocol's
situations, as chess engine testers' compliance checks do (fastchess
``--compliance``): the handshake, every phase of a hand (the first upcard,
both refusing it, a draw, a discard after taking the upcard, a knock, the
wall), a whole hand and its ``hand_over``, a message of a type it does not
know, a new session's ``hello``, big gin, doubling's offer and answer,
``bye``, and a restart.

Each check is one or more real exchanges with the program (the same
:class:`~.process.Program` a match runs), each decision built by the engine
from a real deal; each reports pass or fail, every line sent and read, and
the fix. The situations are found by playing deals with a fixed policy, so a
check is the same on every run.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from ...base.errors import clip, quote
from ...base.jsonio import loads
from ...hand.bots import BotError, TimeOut
from ...hand.engine import Hand, shuffled_deck
from ...hand.moves import IllegalMove, Move
from ...rulebook.cards import CARD_NAMES
from ...rulebook.rng import SplitMix64
from .process import EXIT_GRACE, Program, encode
from .protocol import PROTOCOL, ExternalSpec, inexact_integer, legal_json, view_to_json, wrong_id

#: The seat the checked bot plays, and its opponent.
BOT, OPPONENT = "bot", "opponent"
#: Deals tried to find a situation (each is found within the first few).
TRIES = 400
#: How many checks :func:`run_checks` runs.
CHECKS = 17


@dataclass
class Check:
    """One check: its name, what it puts the bot through, and how it went."""

    name: str
    situation: str
    number: int = 0  # its place among the checks, from 1
    passed: bool = True
    exchange: list[tuple[str, str]] = field(default_factory=list)  # (">" sent, "<" read, "!" gincli's note, line)
    problem: str = ""
    fix: str = ""
    seconds: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "situation": self.situation, "passed": self.passed,
                "exchange": [{"direction": d, "line": line} for d, line in self.exchange],
                "problem": self.problem or None, "fix": self.fix or None, "seconds": round(self.seconds, 3),
                "number": self.number}


class Failed(Exception):
    """A check that failed: what went wrong, and how to fix it."""

    def __init__(self, problem: str, fix: str):
        super().__init__(problem)
        self.problem = problem
        self.fix = fix


FLUSH = ("write each reply as one line ending in a newline and flush standard output at once "
         "(Python: print(json.dumps(reply), flush=True))")
LOG = "write only replies on standard output; log to standard error"


class Checker:
    """A conversation with the program, each line kept in the current check's exchange."""

    def __init__(self, spec: ExternalSpec, time_limit: float, start_time_limit: float):
        self.spec = spec
        self.time_limit = spec.time_limit or time_limit
        self.start_time_limit = spec.start_time_limit or start_time_limit
        # where each limit is set, for the fix that raises it
        self.limits = {"decide": "the bots file's time_limit" if spec.time_limit else "--time-limit",
                       "hello": "the bots file's start_time_limit" if spec.start_time_limit else "--start-time-limit"}
        self.program = Program(spec.argv, cwd=spec.cwd, env=dict(spec.env), label=spec.label)
        self.check: Check | None = None
        self.seeds = SplitMix64(0x5EED)
        #: Why the program could not be started and greeted, once it could not (the check it failed in): the
        #: checks after it fail at once, rather than each waiting out the start-up limit again.
        self.unstartable: str | None = None

    # -- lines ------------------------------------------------------------------------------

    def note(self, text: str) -> None:
        assert self.check is not None
        self.check.exchange.append(("!", text))

    def send(self, message: dict[str, Any]) -> None:
        assert self.check is not None
        self.check.exchange.append((">", encode(message).decode()))
        try:
            self.program.send(message)
        except BotError as exc:
            raise Failed(f"gincli could not write to it: it {exc.reason}", "read standard input until its end, "
                         "answering each request; exit only after bye or at the end of the input") from None

    def request(self, message: dict[str, Any], limit: float) -> dict[str, Any]:
        """Send a request with a new id; the reply echoing it."""
        assert self.check is not None
        self.program.request_id += 1  # the program keeps the ids it was sent, as a match's does
        rid = self.program.request_id
        self.send({**message, "id": rid})
        sent = time.monotonic()
        while True:
            try:
                raw = self.program.line(limit, keep=True)
            except TimeOut as exc:
                raise self.late(exc, message["type"], rid, sent) from None
            except BotError as exc:
                self.stderr_lines()
                raise Failed(f"it {exc.reason}", "answer every request; a bot that crashes shows why on its standard "
                             "error (gin match --bot-log DIR keeps it)") from None
            text = raw.decode("utf-8", errors="replace")
            self.check.exchange.append(("<", text))
            if not text.strip():
                continue
            try:
                reply = loads(raw.decode("utf-8"))
            except (ValueError, RecursionError):
                self.program.kill()
                raise Failed(f"it replied with a line that is not JSON: {quote(clip(text, 120))}",
                             LOG + "; a reply is one JSON object on one line (never pretty-printed)") from None
            if not isinstance(reply, dict):
                self.program.kill()
                raise Failed(f"it replied {quote(clip(text, 120))}, not a JSON object",
                             "reply with one JSON object, such as {\"action\": \"pass\", \"id\": 2}")
            if "id" not in reply:
                self.program.kill()
                raise Failed("its reply has no \"id\"", f"echo the request's id in every reply "
                             f"(here \"id\": {rid})")
            if reply["id"] != rid:
                self.program.kill()
                if self.program.sent_earlier(reply["id"]):
                    raise Failed(f"its reply echoes the id {reply['id']} of an earlier request, not this request's "
                                 f"{rid}: a stale or extra reply (a match passes it over and waits on)",
                                 "answer each request once, echoing its own id; never answer hand_over, bye or a "
                                 "message you do not know")
                raise Failed(f"it {wrong_id(reply['id'], rid)}: a protocol error (a match forfeits the hand)",
                             f"answer only requests, echoing the id as it came, a number (here \"id\": {rid}); "
                             "never answer hand_over, bye or a message you do not know")
            return reply

    def late(self, exc: TimeOut, what: str, rid: int, sent: float) -> Failed:
        """Why the program did not answer ``what`` (``hello``, ``decide``) within
        its limit, found out: its input is closed, and it is given a little more
        time (the start-up limit again for a ``hello``; 2 s for a decision). An
        answer that comes at once when its input ends was held in an unflushed
        buffer; one that comes later, or to a request it had not even read yet,
        is a slow start (or decision); none at all, a silent program."""
        program = self.program
        unread = program.unread()  # what of the request it had not read yet
        program.close_input()
        limit, option = (self.start_time_limit, self.limits["hello"]) if what == "hello" else \
            (self.time_limit, self.limits["decide"])
        self.note(f"no answer within {limit:g} s ({option}): gincli closes its input and waits a little longer, "
                  "to see why")
        closed = time.monotonic()
        wait = limit if what == "hello" else EXIT_GRACE
        ended = ""  # what ended its output, if it ended
        answered = None
        while answered is None and not ended:
            left = closed + wait - time.monotonic()
            if left <= 0:
                break
            try:
                raw = program.line(left, keep=True)
            except TimeOut:
                break
            except BotError as err:
                ended = err.reason
                break
            assert self.check is not None
            self.check.exchange.append(("<", raw.decode("utf-8", errors="replace")))
            try:
                reply = loads(raw.decode("utf-8"))
            except (ValueError, RecursionError):
                continue
            if isinstance(reply, dict) and reply.get("id") == rid:
                answered = time.monotonic()
        program.kill()
        self.stderr_lines()
        request = "its hello" if what == "hello" else "the request"
        waited = f"{limit + wait:g} s (its limit of {limit:g} s, {option}, and {wait:g} s more with its input closed)"
        if answered is not None and answered - closed < 0.5 and not unread:
            return Failed(f"it answered {request} only when its input was closed, {answered - sent:.1f} s after it "
                          "was sent: it holds its replies in a buffer until it exits", FLUSH)
        if answered is not None:
            took = answered - sent
            return Failed(f"it answered {request} after {took:.1f} s, past its limit of {limit:g} s ({option})"
                          + (": it starts slower than that" if what == "hello" else ""),
                          f"give it the time it needs ({option} {math.ceil(2 * took)}), or make it answer sooner")
        if exc.silent and unread:
            return Failed(f"it had not read {request} after {waited}: it starts slower than that, or it does not "
                          "read standard input",
                          f"if it needs longer to start (loading a model, a virtual machine), raise {option}; "
                          "else read the requests from standard input, a line each")
        ended = f"; it exited as its input ended ({ended})" if ended else ""
        if exc.silent:
            read = "it read its hello and " if unread == 0 else "it "
            return Failed(f"{read}wrote nothing on standard output in {waited}{ended}: it never answered",
                          "answer every request with one line on standard output (not a file, not standard "
                          "error), flushed at once; its standard error, if it wrote any, is above")
        return Failed(f"it did not answer {request} in {waited}{ended}",
                      f"answer each request within {option}, once, echoing its id")

    def stderr_lines(self) -> None:
        """The last lines of its standard error, into the check's exchange."""
        assert self.check is not None
        self.check.exchange.extend(("!", f"standard error: {line}") for line in self.program.stderr_tail())

    # -- the handshake ----------------------------------------------------------------------

    def hello(self, rules: Any, seed: int | None = None) -> dict[str, Any]:
        """Greet the program (starting it if it is not running): ``ready``
        checked. A program that cannot be started and greeted fails every
        check after at once (:attr:`unstartable`)."""
        if self.unstartable is not None:
            raise Failed(f"not run: the bot could not start ({self.unstartable})", "fix its start first")
        if not self.program.alive():
            self.note(f"gincli starts `{self.spec.label}`")
            try:
                self.program.start()
            except BotError as exc:
                raise self.cannot_start(Failed(f"it cannot be started: it {exc.reason}", "check the command (and "
                                               "its cwd); gin bots check runs it as gin match does")) from None
            try:
                return self.greet(rules, seed)
            except Failed as exc:
                raise self.cannot_start(exc) from None
        return self.greet(rules, seed)

    def cannot_start(self, exc: Failed) -> Failed:
        """``exc``, a start that failed: the checks after this one fail at once."""
        assert self.check is not None
        self.unstartable = f"check {self.check.number}, {self.check.name}"
        return exc

    def greet(self, rules: Any, seed: int | None) -> dict[str, Any]:
        """``hello``, answered by ``ready``, to the running program."""
        seed = self.seeds.next64() >> 11 if seed is None else seed
        message = {"type": "hello", "protocol": PROTOCOL, "seat": BOT, "opponent": OPPONENT,
                   "players": [BOT, OPPONENT], "options": dict(rules), "seed": seed,
                   "parameters": dict(self.spec.parameters)}
        inexact = inexact_integer(message)
        if inexact:
            raise Failed(f"{inexact} is past 2**53 - 1: JSON parsers such as JavaScript's read it inexactly",
                         "give such a parameter as a string")
        reply = self.request(message, self.start_time_limit)
        if reply.get("type") != "ready":
            self.program.kill()
            raise Failed(f"it answered hello with {quote(clip(str(reply), 120))}, not a ready",
                         "answer hello with {\"type\": \"ready\", \"id\": <hello's id>, \"name\": ..., "
                         "\"version\": ...}")
        return reply

    def decide(self, hand: Hand, why: str = "") -> Move:
        """Ask the bot for a move in ``hand`` (its turn) and check it is legal:
        the move, applied to the hand."""
        view = hand.view(BOT)
        legal = view.legal()
        reply = self.request({"type": "decide", "view": view_to_json(view, options=False),
                              "legal": legal_json(legal)}, self.time_limit)
        move_dict = {k: v for k, v in reply.items() if k != "id"}
        move_dict.setdefault("player", BOT)
        try:
            move = Move.from_dict(move_dict)
        except IllegalMove as exc:
            raise Failed(f"its move cannot be read: {exc.message}", "reply with one of the moves of legal, "
                         "adding the id: " + _legal_text(legal)) from None
        if move.player != BOT:
            raise Failed(f"it replied for {quote(move.player)}, not its own seat {quote(BOT)}",
                         "leave \"player\" out, or give the seat hello named (\"seat\")")
        try:
            hand.apply(move)
        except IllegalMove as exc:
            fix = (RULE_FIXES.get(exc.rule) if exc.rule else None) or why or "reply with one of the moves of legal"
            raise Failed(f"it made an illegal move ({exc.rule}): {exc.message}",
                         fix + "; here: " + _legal_text(legal)) from None
        return move


#: The fix of the illegal moves a bot's author makes most, by the rule they break.
RULE_FIXES = {
    "discard-drawn-upcard": "a card taken from the pile this turn (view.taken) may not be discarded",
    "draw-from-wall": "the last two cards of the stock are never drawn: when legal has no draw from the stock, "
                      "take the discard or knock",
    "first-turn-order": "the first upcard is taken or passed first; after both pass, the non-dealer draws from "
                        "the stock (view.must_draw_stock)",
    "discard-not-held": "discard a card of view.hand",
    "answer-expected": "while an offer to double waits, only accept or decline are legal",
}


def _legal_text(legal: list[Move]) -> str:
    import json

    moves = [json.dumps(m) for m in legal_json(legal)]
    return ", ".join(moves[:6]) + (f" and {len(moves) - 6} more" if len(moves) > 6 else "")


# -- situations ---------------------------------------------------------------------------------

def policy(view: Any, legal: list[Move], *, knock: bool = True, take: bool = False) -> Move:
    """A fixed player, to reach the situations: refuses the upcard, draws from
    the stock (from the pile with ``take``), discards to the least deadwood,
    knocks as soon as it may (unless ``knock`` is off)."""
    if view.phase == "offer":
        return next(m for m in legal if m.action == ("draw" if take else "pass"))
    if view.phase == "draw":
        moves = {m.source: m for m in legal if m.action == "draw"}
        return moves.get("discard" if take else "stock") or next(iter(moves.values()))
    deadwood = view.melds.deadwood
    options = [(m, m.card) for m in legal if m.action in ("discard", "knock") and m.card is not None]
    if knock:
        knocks = [(m, c) for m, c in options if m.action == "knock"]
        if knocks:
            return min(knocks, key=lambda mc: deadwood(view.hand & ~(1 << mc[1])))[0]
    discards = [(m, c) for m, c in options if m.action == "discard"]
    return min(discards, key=lambda mc: (deadwood(view.hand & ~(1 << mc[1])), mc[1]))[0]


def find(rules: Any, variant: Any, wanted: Callable[[Hand, Any, list[Move]], bool], **play: Any) -> Hand:
    """The first position (over fixed deals, either seat dealing) where it is
    the bot's turn and ``wanted(hand, view, legal)`` holds."""
    for seed in range(TRIES):
        for dealer in (OPPONENT, BOT):
            deck = shuffled_deck(SplitMix64(seed))
            hand = Hand((BOT, OPPONENT), dealer, variant, rules, deck=deck)
            while hand.phase not in ("spread", "over") and len(hand.moves) < 200:
                view = hand.view(hand.to_act)
                legal = view.legal()
                if hand.to_act == BOT and wanted(hand, view, legal):
                    return hand
                hand.apply(policy(view, legal, **play))
    raise RuntimeError("no deal gives this situation")  # a variant that never has it: reported, not raised


def stacked(rules: Any, variant: Any, bot: list[str], upcard: str, stock_top: str) -> Hand:
    """A hand the bot (the non-dealer) is dealt ``bot``, with the upcard and the
    top of the stock given: both refuse the upcard, so the bot draws
    ``stock_top``."""
    ids = [CARD_NAMES.index(c) for c in bot]
    fixed = {*ids, CARD_NAMES.index(upcard), CARD_NAMES.index(stock_top)}
    rest = [c for c in range(52) if c not in fixed]
    deck = [0] * 22
    for i in range(10):
        deck[2 * i] = ids[i]
        deck[2 * i + 1] = rest.pop()
    deck[20] = CARD_NAMES.index(upcard)
    deck[21] = CARD_NAMES.index(stock_top)
    hand = Hand((BOT, OPPONENT), OPPONENT, variant, rules, deck=deck + rest)
    hand.apply(Move(BOT, "pass"))
    hand.apply(Move(OPPONENT, "pass"))
    hand.apply(Move(BOT, "draw", "stock"))
    return hand


# -- the checks -----------------------------------------------------------------------------------

def run_checks(spec: ExternalSpec, variant: Any, rules_for: Callable[[dict[str, Any]], Any], time_limit: float,
               start_time_limit: float) -> Iterator[Check]:
    """Run every check, yielding each as it ends; the program is closed at the end."""
    c = Checker(spec, time_limit, start_time_limit)
    try:
        yield from _checks(c, variant, rules_for)
    finally:
        c.program.kill()


def _checks(c: Checker, variant: Any, rules_for: Callable[[dict[str, Any]], Any]) -> Iterator[Check]:
    standard = rules_for({})
    # the rules the running program was last greeted with; how many checks have run
    state: dict[str, Any] = {"greeted": None, "number": 0}

    def run(name: str, situation: str, body: Callable[[], None]) -> Check:
        check = c.check = Check(name, situation, state["number"] + 1)
        state["number"] += 1
        started = time.monotonic()
        try:
            body()
        except Failed as exc:
            check.passed, check.problem, check.fix = False, exc.problem, exc.fix
        except RuntimeError as exc:
            check.passed, check.problem, check.fix = False, f"gincli found no such situation: {exc}", \
                "check the variant and --option given"
        check.seconds = time.monotonic() - started
        return check

    def greeted(rules: Any) -> None:
        """Greet the program with ``rules`` unless it was already (a restart after a failure greets again)."""
        if not c.program.alive() or state["greeted"] is not rules:
            state["greeted"] = None
            c.hello(rules)
            state["greeted"] = rules

    def handshake() -> None:
        reply = c.hello(standard)
        state["greeted"] = standard
        if not str(reply.get("name", "")).strip():
            raise Failed("its ready gives no \"name\"", "say who it is: {\"type\": \"ready\", \"id\": ..., "
                         "\"name\": \"my-bot\", \"version\": \"1.0\"} (the match summary shows them)")

    yield run("handshake", "hello, answered by ready within --start-time-limit", handshake)

    def decision(wanted: Callable[[Hand, Any, list[Move]], bool], why: str = "", **play: Any) -> Callable[[], None]:
        def body() -> None:
            hand = find(standard, variant, wanted, **play)
            greeted(standard)
            c.decide(hand, why)
        return body

    yield run("first upcard", "the non-dealer is offered the first upcard: take it or pass",
              decision(lambda h, v, legal: v.phase == "offer" and not v.passes))
    yield run("upcard passed to the dealer", "the non-dealer refused the upcard; the dealer may take it or pass",
              decision(lambda h, v, legal: v.phase == "offer" and len(v.passes) == 1))
    yield run("both refused the upcard", "both refused the upcard: the non-dealer must draw from the stock",
              decision(lambda h, v, legal: v.phase == "draw" and v.must_draw_stock,
                       "after both refuse the upcard the only legal move is a draw from the stock"))
    yield run("draw", "a turn's draw: from the stock or the discard pile",
              decision(lambda h, v, legal: v.phase == "draw" and not v.must_draw_stock and len(v.my_discards) >= 1))
    yield run("discard after taking", "a discard after taking the top of the pile, which may not be discarded",
              decision(lambda h, v, legal: v.phase == "discard" and v.taken >= 0,
                       "a card taken from the pile this turn (view.taken) may not be discarded", take=True))
    yield run("knock", "a discard when knocking is legal (its deadwood is within the knock limit)",
              decision(lambda h, v, legal: v.phase == "discard" and any(m.action == "knock" for m in legal)))
    yield run("the wall", "the last turn: the draw left two cards in the stock; discard or knock",
              decision(lambda h, v, legal: v.phase == "discard" and v.stock_count <= 2, knock=False))

    played: dict[str, Any] = {}

    def whole_hand() -> None:
        hand = Hand((BOT, OPPONENT), OPPONENT, variant, standard, deck=shuffled_deck(SplitMix64(7)))
        greeted(standard)
        while hand.phase not in ("spread", "over") and len(hand.moves) < 400:
            if hand.to_act == BOT:
                c.decide(hand)
            else:
                view = hand.view(OPPONENT)
                hand.apply(policy(view, view.legal()))
        if hand.phase not in ("spread", "over"):
            raise Failed("the hand did not end within 400 moves", "draw from the stock when the discard pile "
                         "gives nothing, so that the stock runs down")
        hand.record_spread()
        played["hand"] = hand
        c.note(f"the hand ends: {hand.result.outcome if hand.result is not None else 'over'}")

    yield run("a whole hand", "a hand played to its end against a fixed opponent, the bot's moves applied",
              whole_hand)

    def hand_over() -> None:
        hand = played.get("hand")
        if hand is None or hand.result is None:
            hand = find(standard, variant, lambda h, v, legal: True)
            result = hand.forfeit(BOT, "(a hand for the check)")
        else:
            result = hand.result
        greeted(standard)
        c.send({"type": "hand_over", "view": view_to_json(hand.view(BOT)), "result": result.to_dict()})
        c.note("no answer is due; the next request must be answered")
        c.decide(find(standard, variant, lambda h, v, legal: v.phase == "offer" and not v.passes))

    yield run("hand_over", "the end of a hand: hand_over needs no answer; the next decide is answered", hand_over)

    def unknown() -> None:
        greeted(standard)
        c.send({"type": "gincli_future_message", "note": "a message type of a later version"})
        c.note("no answer is due: a bot ignores types and fields it does not know")
        c.decide(find(standard, variant, lambda h, v, legal: v.phase == "draw" and not v.must_draw_stock))

    yield run("an unknown message", "a message of a type a later version may add: ignored, not answered",
              unknown)

    def new_session() -> None:
        greeted(standard)
        c.note("a new session: hello again, to the same program, with the session's own seed")
        c.hello(standard)
        c.decide(find(standard, variant, lambda h, v, legal: v.phase == "offer" and not v.passes))

    yield run("a new session", "hello comes at every session (with its seed), not only at the start", new_session)

    def big_gin() -> None:
        try:
            rules = rules_for({"big_gin_bonus": 31})
        except ValueError as exc:
            raise RuntimeError(f"big gin cannot be played here: {exc}") from None
        hand = stacked(rules, variant, ["As", "2s", "3s", "4s", "5h", "6h", "7h", "9c", "9d", "9h"], "Kd", "5s")
        greeted(rules)
        c.decide(hand, "with big gin, eleven melded cards may knock without a discard: {\"action\": \"knock\"}")

    yield run("big gin", "big gin on (hello's options): eleven melded cards, legal holds a knock without a card",
              big_gin)

    def doubling_rules() -> Any:
        try:
            return rules_for({"doubling": True})
        except ValueError as exc:
            raise RuntimeError(f"doubling cannot be played here: {exc}") from None

    def offer() -> None:
        rules = doubling_rules()
        hand = find(rules, variant, lambda h, v, legal: any(m.action == "double" for m in legal)
                    and v.phase == "draw")
        greeted(rules)
        c.decide(hand, "under doubling, legal adds {\"action\": \"double\"} at the start of a turn; any move of "
                       "legal will do")

    yield run("doubling: the offer", "doubling on: at the start of its turn the bot may offer to double", offer)

    def answer() -> None:
        rules = doubling_rules()

        def offered(h: Hand, v: Any, legal: list[Move]) -> bool:
            return all(m.action in ("accept", "decline") for m in legal)

        hand = _doubled(rules, variant)
        if hand is None or not offered(hand, hand.view(BOT), hand.view(BOT).legal()):
            raise RuntimeError("no offer to double to answer")
        greeted(rules)
        move = c.decide(hand, "when the opponent offers to double, legal holds only accept and decline")
        if move.action not in ("accept", "decline"):
            raise Failed(f"it answered an offer to double with {move.action}", "accept or decline")

    yield run("doubling: the answer", "doubling on: the opponent offers to double; only accept or decline",
              answer)

    def bye() -> None:
        greeted(standard)
        c.send({"type": "bye"})
        proc = c.program.proc
        assert proc is not None
        try:
            code = proc.wait(timeout=EXIT_GRACE)
        except Exception:
            c.program.kill()
            raise Failed(f"it did not exit within {EXIT_GRACE:g} s of bye (it was killed)",
                         "exit on bye, and at the end of standard input") from None
        c.note(f"it exited (status {code})")
        c.program.kill()

    yield run("bye", f"bye: the match is over, exit within {EXIT_GRACE:g} s", bye)

    def restart() -> None:
        c.program.kill()
        c.note("gincli starts the program again, as after a failure: a new hello")
        c.hello(standard)
        state["greeted"] = standard
        c.decide(find(standard, variant, lambda h, v, legal: v.phase == "offer" and not v.passes))

    yield run("a restart", "a new program after a failure: hello, ready, and a decision", restart)


def _doubled(rules: Any, variant: Any) -> Hand | None:
    """A hand where the opponent has just offered to double the bot."""
    for seed in range(TRIES):
        deck = shuffled_deck(SplitMix64(seed))
        hand = Hand((BOT, OPPONENT), BOT, variant, rules, deck=deck)  # the opponent is the non-dealer: it acts first
        while hand.phase not in ("spread", "over") and len(hand.moves) < 200:
            view = hand.view(hand.to_act)
            legal = view.legal()
            if hand.to_act == OPPONENT and any(m.action == "double" for m in legal):
                hand.apply(Move(OPPONENT, "double"))
                return hand
            hand.apply(policy(view, [m for m in legal if m.action != "double"] or legal))
    return None
