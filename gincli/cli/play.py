"""``gin play``: play gin rummy against a bot, in the terminal or through a pipe."""

from __future__ import annotations

import os
import shlex
import shutil
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..base.config import data_dir
from ..base.errors import UsageError, clip, plural
from ..base.jsonio import dumps
from ..formats.store import SavedTranscript
from ..hand.bots import Bot, BotError
from ..hand.engine import DISCARD, DRAW, MAX_HAND_MOVES, OFFER, OVER, SPREAD, Hand
from ..hand.moves import IllegalMove, Move
from ..hand.view import PlayerView
from ..matches.external import BotStartFailure, ExternalSpec, configure, external_bot, is_external
from ..matches.runner import DEFAULT_MAX_FORFEITS, ForfeitStop, timed_if_third_party
from ..rulebook.cards import card_str
from ..rulebook.rng import SplitMix64
from ..rulebook.scoring import HandResult
from ..sessions.systems import open_session
from ..sessions.table import Table, take_turn
from . import complete
from .base import EXIT_INTERRUPTED, bots_registry, error, guard
from .options import (
    BotLogOpt,
    BotsFileOpt,
    BotTraceOpt,
    OptionOpt,
    SeedOpt,
    StartTimeLimitOpt,
    TimeLimitOpt,
    bot_names,
    check_dealer,
    check_seats,
    default_name,
    overrides_from,
    random_seed,
    split_bots,
    utf8_text,
    whole_numbers,
)
from .prompt import Quit, Reject, Screen, describe, read_card, read_meld
from .render import (
    OutputFormat,
    card_markup,
    cut,
    data,
    player_label,
    safe,
    write_data,
)

if TYPE_CHECKING:
    from ..plugin.registry import Registry

HELP = """Play gin rummy against a bot: a whole session of the scoring system (a game to 100 by default).

Type s or d to draw (stock, discard pile), a card (7h, 10♥) or its position to discard, k CARD to knock, ? for the
moves you may make, h for a hint, u to take back your last move, q to quit. Every move is saved as it is made to a
transcript that gin validate accepts (--transcript FILE; by default a new file in gincli's data folder). Moves may
also come line by line from a pipe; the table is then printed as plain text.
"""

COMMANDS = ("draw: s (stock), d (discard pile) · discard: 7h, 10♥ or a position · p: pass the upcard\n"
            "k: knock with the best discard · k 7h: knock discarding 7h · k 7h 4c5c6c: and spread these melds")


def register(app: typer.Typer) -> None:
    app.command("play", help=HELP)(guard(play))


_NONE = type("_Source", (), {"name": ""})()  # a parameter with no source


@dataclass
class SavedGame:
    """A session ``gin play`` saved, to go on with (``--resume``): its rules,
    players, bots and seed, from the transcript's ``play`` field and header."""

    doc: dict[str, Any]
    me: str
    players: tuple[str, ...]
    bot_names: list[str]
    specs: list[str]
    variant: Any
    system: Any
    options: dict[str, Any]
    seed: int
    dealer: str | None
    #: The folder the session was begun in, where its external bots run (``None``: a transcript
    #: saved before gincli recorded it; they run from the current folder, as they always did).
    cwd: str | None = None

    @classmethod
    def read(cls, path: Path, registry: Registry) -> SavedGame:
        from ..base.errors import GinError
        from ..formats.containers import Reader
        from ..replay.validate import Defaults, read_header, validate

        try:
            items = list(Reader(str(path)).items())
        except GinError as exc:
            raise UsageError(f"--resume: {exc.message}") from None
        if len(items) != 1 or items[0].error is not None:
            raise UsageError(f"{path} does not hold one transcript of gin play; --resume goes on with such a file")
        doc = items[0].record
        play = doc.get("play")
        if not isinstance(play, dict) or not isinstance(play.get("human"), str) or not isinstance(
                play.get("bots"), dict) or not all(isinstance(v, str) for v in play["bots"].values()):
            raise UsageError(f"{path} is not a session of gin play (it has no \"play\" field naming its players "
                             "and bots); --resume goes on with one")
        report = validate(doc, registry)
        if not report.valid:
            fault = report.errors[0]
            raise UsageError(f"{path} is not a valid transcript ({fault.rule}: {fault.message}); gin validate "
                             "says more")
        if report.complete:
            raise UsageError(f"the session in {path} is over already: there is nothing to go on with")
        try:
            players, variant, system, rules, _ = read_header(doc, registry, Defaults())
        except ValueError as exc:
            raise UsageError(f"{path}: {exc}") from None
        me = play["human"]
        names = [p for p in players if p != me]
        if me not in players or set(play["bots"]) != set(names) or type(doc.get("seed")) is not int:
            raise UsageError(f"{path}: its \"play\" field does not match its players and seed")
        dealer = play.get("dealer")
        cwd = play.get("cwd")
        if cwd is not None and not (isinstance(cwd, str) and os.path.isabs(cwd)):
            raise UsageError(f"{path}: the \"cwd\" of its \"play\" field is not a folder's absolute path")
        return cls(doc, me, players, names, [play["bots"][n] for n in names], variant, system, dict(rules),
                   doc["seed"], dealer if isinstance(dealer, str) else None, cwd)


# -- what the player types ------------------------------------------------------------------

@dataclass
class Command:
    kind: str  # move, help, hint, undo, quit
    move: Move | None = None


#: The bots whose move a hint gives, the strongest first (the first loaded).
HINT_BOTS = ("master", "expert")

_WORDS = {"?": "help", "help": "help", "h": "hint", "hint": "hint", "u": "undo", "undo": "undo",
          "q": "quit", "quit": "quit", "exit": "quit"}


def parse_command(text: str, view: PlayerView, order: list[int]) -> Command:
    """What a line of input asks for, in the player's current phase; raises
    :class:`Reject` with one sentence when it is not something they may do now."""
    words = text.strip().split()
    if not words:
        raise Reject("type a move, or ? for the moves you may make")
    head = words[0].lower()
    if head in _WORDS and len(words) == 1:
        return Command(_WORDS[head])
    plugin_move = _plugin_move(head, view)
    if plugin_move is not None:
        return Command("move", plugin_move)
    if _answer_due(view):
        raise Reject(f"answer first: {legal_text(view)}")
    phase = view.phase
    top = view.discard_top
    if phase == OFFER:
        if head in ("d", "t", "take"):
            return Command("move", view.take())
        if head in ("p", "pass", "s", "stock"):
            return Command("move", view.pass_())
        raise Reject(_not_understood(text) + f"first, take the upcard {card_str(top) if top is not None else ''} "
                     "(d) or pass (p)")
    if phase == DRAW:
        if head in ("s", "stock"):
            return Command("move", view.draw_stock())
        if head in ("d", "t", "take"):
            if view.must_draw_stock:
                raise Reject("both players passed the upcard: draw from the stock (s)")
            return Command("move", view.take())
        raise Reject(_not_understood(text) + "draw first: s for the stock, d for the top of the discard pile")
    if phase != DISCARD:
        raise Reject("it is not your turn")
    if head in ("k", "knock", "gin"):
        return Command("move", knock_move(words[1:], view, order))
    if head in ("s", "d", "stock", "take", "p", "pass"):
        raise Reject("you have drawn: discard a card (by name or position), or k to knock")
    if len(words) > 1:
        raise Reject("discard one card: its name (7h) or its position (1 to 11)")
    return Command("move", view.discard(pick_card(words[0], view, order)))


def _not_understood(text: str) -> str:
    """The start of a rejection of a line that is no move at all (``zz``), not
    one that is a move out of its turn (a card before drawing)."""
    words = text.strip().split()
    try:
        read_card(words[0])
        return ""
    except (Reject, IndexError):
        pass
    if words and (words[0].isdigit() or words[0].lower() in ("k", "knock", "gin")):
        return ""
    return f"\"{safe(text.strip(), markup=False)}\" is not understood; "


def pick_card(token: str, view: PlayerView, order: list[int]) -> int:
    """A card of the player's hand, by name or by its position on screen."""
    if token.isdigit():
        n = int(token)
        if not 1 <= n <= len(order):
            raise Reject(f"there is no card at position {n}: positions go from 1 to {len(order)}")
        card = order[n - 1]
    else:
        card = read_card(token)
        if not view.hand >> card & 1:
            raise Reject(f"you do not hold {card_str(card)}")
    if card == view.taken:
        raise Reject(f"you just took {card_str(card)} from the discard pile: discard another card")
    return card


def knock_move(args: list[str], view: PlayerView, order: list[int]) -> Move:
    """``k`` (the best discard, or big gin), ``k CARD``, or ``k CARD MELD…``; a card by name or by its
    position on screen (``order``)."""
    if not args:
        if view.big_gin and view.melds.deadwood(view.hand) == 0:
            return view.knock(None)
        from .screens import best_discard

        best = best_discard(view)
        assert best is not None
        dw, card = best
        if dw > view.knock_limit:
            raise Reject(_over_limit(view, card, dw))
        return view.knock(card)
    card = pick_card(args[0], view, order)
    if len(args) == 1:
        dw = view.melds.deadwood(view.hand & ~(1 << card))
        if dw > view.knock_limit:
            raise Reject(_over_limit(view, card, dw))
        return view.knock(card)
    move = view.knock(card)
    move.melds = [read_meld(t, view.me, view) for t in args[1:]]
    return move


def _over_limit(view: PlayerView, card: int, dw: int) -> str:
    if view.knock_limit == 0:
        return f"only gin ends this hand, and discarding {card_str(card)} leaves {dw} deadwood"
    return f"discarding {card_str(card)} leaves {dw} deadwood, over the knock limit of {view.knock_limit}"


def _movesets(view: PlayerView) -> tuple[Any, ...]:
    return tuple(getattr(view.rules, "movesets", ()))


def _answer_due(view: PlayerView) -> bool:
    return any(ms.answer_due(view) for ms in _movesets(view))


def _plugin_move(word: str, view: PlayerView) -> Move | None:
    """The legal move of a move set (doubling's) that ``word`` names: its
    action, or the short key the move set gives it."""
    for ms in _movesets(view):
        for move in ms.legal(view):
            if word in (move.action, ms.keys.get(move.action)):
                return move
    return None


def _plugin_moves_text(view: PlayerView) -> str:
    parts = []
    for ms in _movesets(view):
        for move in ms.legal(view):
            key = ms.keys.get(move.action)
            parts.append(f"{move.action} ({key})" if key else move.action)
    return ", or ".join(parts)


def legal_text(view: PlayerView) -> str:
    """The moves the player may make now, with what to type."""
    extra = _plugin_moves_text(view)
    if _answer_due(view):
        return extra
    text = _standard_text(view)
    return f"{text}; or {extra}" if extra else text


def _standard_text(view: PlayerView) -> str:
    top = card_markup(view.discard_top) if view.discard_top is not None else ""
    legal = view.legal()  # what the rules allow, a move set's restrictions included
    if view.phase in (OFFER, DRAW):
        texts = {"stock": "draw from the stock (s)", "discard": f"take {top} from the discard pile (d)"}
        if view.phase == OFFER:
            texts = {"discard": f"take the upcard {top} (d)", "pass": "pass (p)"}
        order = ("discard", "pass") if view.phase == OFFER else ("stock", "discard")
        sources = {m.source or m.action for m in legal if m.action in ("draw", "pass")}
        return ", or ".join(texts[k] for k in order if k in sources)
    discards = [m.card for m in legal if m.action == "discard"]
    text = "discard any card (its name or position)"
    if view.taken >= 0:
        text = f"discard any card but {card_markup(view.taken)}"
    if len(discards) < view.hand.bit_count() - (view.taken >= 0):  # a move set forbids some
        text = ("discard " + ", ".join(card_markup(c) for c in discards if c is not None)) if discards else \
            "no discard now"
    knocks = [m.card for m in legal if m.action == "knock" and m.card is not None]
    if knocks:
        text += "; knock discarding " + ", ".join(card_markup(c) for c in knocks) + " (k CARD)"
    if view.knock(None) in legal:
        text += "; big gin (k)"
    if not knocks and view.phase == DISCARD:
        from .screens import best_discard

        best = best_discard(view)
        if best is not None and best[0] <= view.knock_limit and not view.allows(view.knock(best[1])):
            text += "; no knocking now (a rule of " + ", ".join(_forbidding(view, view.knock(best[1]))) + ")"
        else:
            text += f"; knocking needs {view.knock_limit or 'no'} deadwood or less"
    return text


def _forbidding(view: PlayerView, move: Move) -> list[str]:
    """The move sets in play that forbid or refuse ``move`` now, each with its reason."""
    out = []
    refused = view.refusal(move) if view.refusal is not None else None
    if refused is not None:
        ms, exc = refused
        out.append(f"{ms.name}: {ms.rule_ids.get(exc.rule or '') or exc.message}")
    for ms in _movesets(view):
        rule = ms.checked_forbids(view, move) if ms.restricts else None
        if rule is not None:
            out.append(f"{ms.name}: {ms.rule_ids[rule]}")
    return out


# -- telling what happened --------------------------------------------------------------------

def advice(move: Move, view: PlayerView) -> str:
    """A move suggested to the player, in words."""
    if move.action == "pass":
        return "pass on the upcard"
    if move.action == "draw":
        if move.source == "stock":
            return "draw from the stock"
        return f"take {card_markup(view.discard_top)} from the discard pile" if view.discard_top is not None \
            else "take the top of the discard pile"
    if move.action == "discard" and move.card is not None:
        return f"discard {card_markup(move.card)}"
    if move.action == "knock":
        if move.card is None:
            return "go big gin"
        gin = view.melds.deadwood(view.hand & ~(1 << move.card)) == 0
        return f"{'go gin' if gin else 'knock'}, discarding {card_markup(move.card)}"
    return move.action


# -- the screen ------------------------------------------------------------------------------

def fail(message: str) -> typer.Exit:
    """``gin: error: MESSAGE`` on stderr, as every command says it (on a
    terminal wrapped at spaces). Returns the exit (status 2) to raise."""
    error(message)
    return typer.Exit(UsageError.exit_code)


# -- the game ---------------------------------------------------------------------------------

class Game:
    """One session between the player at the screen and bots."""

    def __init__(self, table: Table, me: str, bots: dict[str, Bot], screen: Screen, file: SavedTranscript,
                 registry: Registry, options: dict[str, Any], hint_seed: int, bot_labels: dict[str, str],
                 play_field: dict[str, Any] | None = None, max_forfeits: int = DEFAULT_MAX_FORFEITS):
        self.table = table
        self.me = me
        self.bots = bots
        self.screen = screen
        self.file = file
        self.registry = registry
        self.options = options
        self.hint_rng = SplitMix64(hint_seed)
        self.bot_labels = bot_labels
        self.play_field = play_field
        self.log: list[str] = []
        self.drawn = -1
        self.notify = [b for b in bots.values() if type(b).hand_over is not Bot.hand_over]
        #: Hands a bot forfeits in a row that stop the session (0: never).
        self.max_forfeits = max_forfeits
        self.forfeits: dict[str, list[tuple[int, str]]] = {}  # each bot's forfeits in a row: (hand, reason)
        #: For each external bot, the start of its program (``Program.starts``) that last answered a decision:
        #: one that fails before its first answer since it was started cannot play.
        self.answered: dict[str, int] = {}

    # -- the transcript --

    def save(self) -> None:
        table = self.table
        doc = table.transcript(id=self.file.path.stem, options=self.options, current=True,
                               plugins=self.registry.transcript_plugins(table.variant, table.system, table.rules,
                                                                        self.options))
        if self.play_field is not None:  # who played it and with what: for --resume, and gin report
            doc["play"] = self.play_field
        self.file.save(doc)

    # -- playing --

    def run(self) -> None:
        table = self.table
        going_on = table.hand is not None  # --resume, in the middle of a hand
        while not table.finished:
            if going_on:
                hand = table.hand
                assert hand is not None
                going_on = False
                self.log = [f"hand {hand.number + 1}: going on from the transcript, after "
                            f"{plural(len(hand.moves), 'move')}"]
            else:
                hand = table.deal()
                dealer, other = hand.dealer, hand.pone
                if self.me in hand.players:
                    opening = f"{self._who(dealer)} deal{'' if dealer == self.me else 's'}"
                else:
                    opening = f"you sit out; {safe(dealer)} deals to {safe(other)}"
                self.log = [f"hand {hand.number + 1}: {opening}; the upcard is {card_markup(hand.upcard)}"]
            self.save()
            self.play_hand()
            hand = table.hand
            assert hand is not None
            result = table.end_hand(hand)
            for name in hand.players:  # a hand played to its end without forfeiting ends a bot's run
                if result.forfeit is None or result.forfeit.get("player") != name:
                    self.forfeits.pop(name, None)
            for bot in self.notify:
                if bot.seat in hand.players:
                    bot.hand_over(hand.view(bot.seat), result.to_dict())
            self.save()
            self.show_result(hand, result)
            if not table.finished:
                self.pause("Enter: next hand · q: quit")

    def _who(self, name: str) -> str:
        """A player as the screen names them (rich markup): "you", or their name."""
        return "you" if name == self.me else safe(name)

    def play_hand(self) -> None:
        while True:
            hand = self.table.hand
            assert hand is not None
            if hand.phase in (SPREAD, OVER):
                return
            if len(hand.moves) >= MAX_HAND_MOVES:
                hand.stall()
                self.log.append(f"the hand stalled at {MAX_HAND_MOVES:,} moves: it is dead")
                return
            player = hand.to_act
            if player == self.me:
                view = hand.view(self.me)
                if view.phase == DRAW and view.must_draw_stock and len(view.legal()) == 1:  # the only move
                    self.apply(hand, view.draw_stock())
                    continue
                self.human_turn(hand, view)
            else:
                self.bot_turn(hand, player)

    def bot_turn(self, hand: Hand, player: str) -> None:
        """A bot's move. A bot that fails forfeits the hand, as in gin match,
        but the session stops instead (:class:`BotStartFailure`,
        :class:`ForfeitStop`, that hand not scored) when an external bot
        cannot play at all (its program fails to start, or fails before its
        first answer since it was started: the human would only be dealt
        forfeits), or when a bot forfeits ``--max-forfeits`` hands in a row."""
        bot = self.bots[player]
        program = getattr(bot, "program", None) if is_external(type(bot)) else None
        before = len(hand.moves)

        def choose(h: Hand) -> Move:
            failed = getattr(bot, "failed_here", 0)  # the protocol's count: starts with no "ready"
            try:
                move = bot.choose(h.view(player))
            except BotError as exc:
                started = getattr(bot, "failed_here", 0) > failed
                if program is not None and (started or self.answered.get(player) != program.starts):
                    raise self.cannot_play(player, exc.reason, started) from None  # not a forfeit: no hand lost
                raise
            if program is not None:
                self.answered[player] = program.starts
            return move

        take_turn(hand, choose)
        for move in hand.moves[before:]:
            self.log.append(describe(move, self.me))
        forfeit = hand.result.forfeit if hand.result is not None else None
        if forfeit is not None and forfeit.get("player") == player:
            run = self.forfeits.setdefault(player, [])
            run.append((hand.number, str(forfeit.get("reason", ""))))
            if self.max_forfeits and len(run) >= self.max_forfeits:
                self.table.hand = hand.rewound(before)  # that hand as it was before the fault: not scored
                raise self.forfeit_stop(player, run)
            self.log.append(f"{safe(player)} forfeits the hand: {safe(forfeit['reason'])}")
        self.save()

    def bot_name(self, player: str) -> str:
        """A bot as a stop names it: its spec (``exec:python3 bot.py``), with its seat when there are several."""
        label = self.bot_labels.get(player, player)
        return f"the bot {label}" if len(self.bots) == 1 or label == player else f"the bot {player} ({label})"

    def stderr_said(self, player: str, silent: str = "") -> str:
        """The last lines an external bot wrote on its standard error, for a stop's sentence (each once)."""
        program = getattr(self.bots[player], "program", None)
        lines: list[str] = []
        for line in program.stderr_tail() if program is not None else ():
            line = clip(line, 200)
            if line not in lines:
                lines.append(line)
        return "; its standard error ends: " + " | ".join(lines) if lines else silent

    def cannot_play(self, player: str, reason: str, at_start: bool) -> BotStartFailure:
        what = "failed to start" if at_start else "started, but failed before its first move"
        return BotStartFailure(f"{self.bot_name(player)} {what} ({reason}), so the session stops"
                               + self.stderr_said(player, "; it wrote nothing on its standard error"))

    def forfeit_stop(self, player: str, run: list[tuple[int, str]]) -> ForfeitStop:
        said: dict[str, list[str]] = {}  # the last reasons, each once, with the hands it was given in
        latest = run[-3:]
        for number, reason in latest:
            said.setdefault(clip(reason, 200), []).append(f"hand {number + 1}")
        last = "; ".join(f"{', '.join(where)}: {reason}" for reason, where in said.items())
        return ForfeitStop(f"{self.bot_name(player)} forfeited {len(run)} hands in a row, so the session stops "
                           f"(--max-forfeits {self.max_forfeits}); the last {len(latest)}: {last}"
                           + self.stderr_said(player))

    def apply(self, hand: Hand, move: Move) -> None:
        hand.apply(move)
        if move.action == "draw" and move.source == "stock":
            assert move.card is not None, "Hand.apply names the card of every draw it plays"
            self.drawn = move.card
        else:
            self.drawn = -1
        self.log.append(describe(move, self.me))
        self.save()

    def human_turn(self, hand: Hand, view: PlayerView) -> None:
        notice = ""
        while True:
            screen, order = self.table_screen(view, notice)
            self.screen.show(screen)
            line = self.screen.ask()
            if line is None:
                raise Quit()
            try:
                command = parse_command(line, view, order)
                if command.kind == "quit":
                    raise Quit()
                if command.kind == "help":
                    notice = "You may " + legal_text(view) + ".\n" + COMMANDS
                    continue
                if command.kind == "hint":
                    notice = self.hint(view)
                    continue
                if command.kind == "undo":
                    self.undo(hand)
                    return
                assert command.move is not None
                self.apply(hand, command.move)
                return
            except Reject as exc:
                notice = f"[yellow]{safe(exc)}[/]"
            except IllegalMove as exc:
                notice = f"[yellow]{safe(exc.message)}[/]"

    def hint(self, view: PlayerView) -> str:
        name = next((n for n in HINT_BOTS if n in self.registry.bots), None)
        if name is None:
            return "[yellow]no hint: neither the master bot nor the expert bot is loaded[/]"
        move = self.registry.bots[name](SplitMix64(self.hint_rng.next64()), self.me).choose(view)
        return f"hint: the {name} bot would {advice(move, view)}"

    def undo(self, hand: Hand) -> None:
        """Take back the player's last move of this hand, with every move after
        it, unless a card they had not seen was revealed since."""
        mine = [i for i, m in enumerate(hand.moves) if m.player == self.me]
        if not mine:
            self.log.append("[yellow]nothing of yours to take back in this hand[/]")
            return
        back = hand.rewound(mine[-1])
        if back.known(self.me) != hand.known(self.me):
            self.log.append("[yellow]that move cannot be taken back: you have seen a new card since[/]")
            return
        taken = hand.moves[mine[-1]]
        self.table.hand = back
        self.drawn = -1
        self.log.append(f"taken back: {describe(taken, self.me)}")
        self.save()

    def pause(self, prompt: str) -> None:
        if not self.screen.interactive:
            return
        self.screen.say(f"[dim]{prompt}[/]")
        answer = self.screen.ask("")
        if answer is None or answer.strip().lower() in ("q", "quit"):
            raise Quit()

    # -- drawing --

    def labels(self, hand: Hand) -> tuple[str, str]:
        """The first column's labels, short enough for 80 columns whatever the names and bots."""
        opponent = hand.other(self.me)
        me = "you" if self.me == "you" else f"you ({cut(self.me, 17)})"
        return safe(me), safe(player_label(opponent, self.bot_labels.get(opponent, opponent), 23))

    def table_screen(self, view: PlayerView, notice: str) -> tuple[Any, list[int]]:
        from .screens import TableInfo, render_table
        from .sheets import score_line, session_sheet

        table = self.table
        result = table.session.result()
        hand = table.hand
        assert hand is not None
        me_label, opp_label = self.labels(hand)
        out = [p for p in table.players if p not in hand.players]
        sitting = f" · {', '.join(safe(p) for p in out)} sit{'s' if len(out) == 1 else ''} out" if out else ""
        title = (f"[bold]gin[/] · {safe(table.variant.name)} · {table.system.name} · hand {hand.number + 1} · "
                 f"{safe(self._who(hand.dealer))} deal{'' if hand.dealer == self.me else 's'}{sitting} · "
                 f"seed {table.seed}")
        prompt = (notice or "Your turn: " + legal_text(view) + ".") + "\n[dim]? moves · h hint · u undo · q quit[/]"
        info = TableInfo(title, me_label, opp_label, score_line(result, table.system.name, table.players,
                                                                table.rules),
                         session_sheet(result, table.system.name, table.players, self.screen.rows(12)),
                         self.log, prompt,
                         self.drawn if view.phase == DISCARD else -1)
        return render_table(view, info, self.screen.width)

    def show_result(self, hand: Hand, result: HandResult) -> None:
        from rich.console import Group
        from rich.text import Text

        from .hands import headline, render_result
        from .sheets import session_sheet

        reasons = []
        stake = (result.fields or {}).get("multiplier", 1)
        if result.multiplier != stake:  # Oklahoma's spade doubling
            reasons.append(f"the upcard {card_markup(hand.upcard)} is a spade")
        if stake != 1:
            reasons.append(f"the stake ×{stake}")
        why = " and ".join(reasons) or None
        sat_out = "" if self.me in hand.players else " (you sat out)"
        title = f"[bold]hand {hand.number + 1} over{sat_out}[/] — {headline(result)}"
        parts: list[Any] = [*(Text.from_markup(line) for line in self.log[-3:]), Text(""),
                            render_result(result, title=title, explained=True, multiplied_because=why,
                                          movesets=self.table.rules.movesets)]
        session = self.table.session.result()
        parts += [Text(""), session_sheet(session, self.table.system.name, self.table.players, self.screen.rows(22))]
        self.screen.show(Group(*parts))

    def finish(self, quit: bool) -> dict[str, Any]:
        """The closing words, and the summary for ``--format json``."""
        table = self.table
        session = table.session.result()
        path = self.file.path
        if quit:
            self.screen.say(f"You left after {len(table.results)} hand{'s' if len(table.results) != 1 else ''}. "
                            f"The transcript so far is in {safe(path)} (valid, not complete).")
        else:
            from .sheets import winner_text

            scores = ", ".join(f"{safe(p)} {v}" for p, v in session.get("scores", {}).items())
            winner = winner_text(session)
            verdict = "you win" if session.get("winner") == self.me else f"{winner} wins" if winner else "no winner"
            if "winner" not in session:  # hand scoring: each hand settled alone, nobody wins the session
                self.screen.say(f"[bold]The {table.system.name} is over[/] ({scores}).")
            else:
                self.screen.say(f"[bold]The {table.system.name} is over: {verdict}[/] ({scores}).")
            self.screen.say(f"The transcript is in {safe(path)}; check it with: gin validate {safe(path)}")
        return {"transcript": str(path), "complete": table.finished, "hands": len(table.results),
                "players": list(table.players), "seed": table.seed, "variant": table.variant.name,
                "scoring": table.system.name, "result": session}


def bot_factory(registry: Registry, spec: str, cwd: str | None) -> Callable[[SplitMix64, str], Bot]:
    """The bot of ``spec``; an external one runs in ``cwd`` (the folder a resumed
    session was begun in: a relative path of its command means what it meant
    then), unless its bots file gives it a folder of its own (then taken from
    ``cwd``, if relative)."""
    if cwd is None:
        return registry.bot(spec)
    if spec.startswith("exec:"):
        ext = replace(ExternalSpec.from_command(spec[len("exec:"):].strip()), cwd=cwd)
        program = ext.argv[0]
        found = (Path(cwd) / program).is_file() if os.sep in program else shutil.which(program) is not None
        if not found:
            raise UsageError(f"cannot run {ext.label}: {program} is not a program on the PATH or a path from "
                             f"{cwd}, the folder the session was begun in")
        return external_bot(ext)
    factory = registry.bot(spec)
    if is_external(factory):
        ext = factory.external
        return external_bot(replace(ext, cwd=os.path.join(cwd, ext.cwd) if ext.cwd else cwd))
    return factory


def stopped(stop: UsageError, game: Game, path: Path, cwd: str | None, unknown_cwd: bool) -> str:
    """The sentence that stops a session whose bot cannot play: the bot's
    fault, then that nothing was claimed for the hand and how to go on."""
    hand = game.table.hand
    number = hand.number + 1 if hand is not None else len(game.table.results) + 1
    started = isinstance(stop, BotStartFailure)
    where = f"; it ran in {cwd}, the folder the session was begun in" if started and cwd and cwd != _here() else ""
    kept = f"; hand {number} is not scored: the transcript so far is in {path}"
    if started and unknown_cwd:
        return (f"{stop.message}{kept}, which does not say which folder the session was begun in (an older gincli "
                "saved it), so the bot ran in this one: if its command names a file there, go on from that folder "
                f"with: gin play --resume --transcript {shlex.quote(str(path.resolve()))}")
    return (f"{stop.message}{where}{kept}; fix the bot, then go on with: gin play --resume --transcript "
            f"{shlex.quote(str(path))}")


def _record(registry: Registry, names: str, variant: str, scoring: str, option: list[str] | None,
            dealer: str | None, transcript: str | None) -> None:
    """``gin play --record A,B``: the scorer's session (:mod:`gincli.cli.record`)."""
    from .record import Scorer

    players = tuple(utf8_text(n, "--record").strip() for n in names.split(","))
    if len(players) != 2 or not all(players) or players[0] == players[1]:
        raise UsageError(f"--record takes the two players' names, as ann,bob, not \"{names}\"")
    v, system = registry.variant(variant), registry.scoring(scoring)
    check_seats(system, 2, "--record", "players")
    try:
        rules = registry.rules(v, system, overrides_from(option))
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    check_dealer(dealer, players)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = Path(transcript) if transcript is not None else data_dir() / "games" / f"{stamp}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    file = SavedTranscript(path, False)
    try:
        screen = Screen(data(), sys.stdin, sys.stdin.isatty() and sys.stdout.isatty())
        table = Table(players, v, rules, system, 0, dealer=dealer or players[0])
        scorer = Scorer(table, screen, file, registry.transcript_options(v, rules))
        try:
            scorer.run()
            screen.say(f"[bold]The {system.name} is over[/].")
        except Quit:
            screen.say(f"You left after {plural(len(table.results), 'hand')}.")
        scorer.save()
        screen.say(f"The transcript is in {safe(path)}; check it with: gin validate {safe(path)}")
    finally:
        file.close()


def _here() -> str | None:
    try:
        return os.getcwd()
    except OSError:
        return None


def play(
    ctx: typer.Context,
    bot: Annotated[str, typer.Option("--bot", "-b", metavar="BOT[,BOT…]", autocompletion=complete.bots,
                                     help="Your opponent: a bot gin bots lists, or exec:COMMAND; with three or "
                                          "four players, the others, comma-separated.")] = "expert",
    name: Annotated[str | None, typer.Option("--name", metavar="NAME",
                                             show_default="your login name", help="Your name in the transcript.")]
    = None,
    variant: Annotated[str, typer.Option("--variant", metavar="NAME|FILE.toml", autocompletion=complete.variants,
                                         help="Variant of play.")] = "standard",
    scoring: Annotated[str, typer.Option("--scoring", "-s", metavar="NAME", autocompletion=complete.scoring_systems,
                                         help="Scoring system.")] = "game",
    option: OptionOpt = None,
    seed: SeedOpt = None,
    dealer: Annotated[str | None, typer.Option("--dealer", metavar="NAME",
                                               show_default="cut for it", help="Who deals first.")] = None,
    transcript: Annotated[str | None, typer.Option(
        "--transcript", metavar="FILE",
        show_default="a new file in gincli's data folder", help="Save the transcript here.")] = None,
    resume: Annotated[bool, typer.Option(
        "--resume", help="Go on with the session --transcript FILE holds (its rules, bots, names and seed).")]
    = False,
    time_limit: TimeLimitOpt = 5.0,
    start_time_limit: StartTimeLimitOpt = 30.0,
    bots_file: BotsFileOpt = None,
    bot_log: BotLogOpt = None,
    bot_trace: BotTraceOpt = None,
    max_forfeits: Annotated[int, typer.Option(
        "--max-forfeits", click_type=whole_numbers(0), metavar="N",
        help="Stop the session (exit 2) once a bot forfeits N hands in a row, quoting the reasons; that hand is "
             "not scored, and --resume goes on with it; 0: never.")] = DEFAULT_MAX_FORFEITS,
    format: Annotated[OutputFormat, typer.Option(
        "--format", "-f", help="text; json also writes a summary of the session on stdout (the table then "
                               "goes to stderr).")] = OutputFormat.text,
    record: Annotated[str | None, typer.Option(
        "--record", metavar="NAME,NAME",
        help="Record a game played at another table between these two players, as its scorer: you enter each "
             "deal, both players' moves, and the irregularities found with their remedies.")] = None,
) -> None:
    registry = bots_registry(ctx, bots_file)
    if record is not None:
        given = [f"--{n}" for n in ("bot", "name", "seed", "resume")
                 if (ctx.get_parameter_source(n) or _NONE).name == "COMMANDLINE"]
        if given:
            raise UsageError(f"--record enters both players' moves: leave out {', '.join(given)}")
        _record(registry, record, variant, scoring, option, dealer, transcript)
        return
    saved = None
    if resume:
        if transcript is None:
            raise UsageError("--resume needs --transcript FILE, the session to go on with")
        given = [f"--{n}" for n in ("bot", "name", "variant", "scoring", "option", "seed", "dealer")
                 if (ctx.get_parameter_source(n) or _NONE).name == "COMMANDLINE"]
        if given:
            raise UsageError(f"--resume takes the rules, the bots, the names and the seed from {transcript}: leave "
                             f"out {', '.join(given)}")
        saved = SavedGame.read(Path(transcript), registry)
        name, bot, seed, dealer = saved.me, ",".join(saved.specs), saved.seed, saved.dealer
    me = utf8_text(name if name is not None else default_name(), "--name").strip()
    if not me:
        raise UsageError("--name needs a name")
    v = saved.variant if saved else registry.variant(variant)
    system = saved.system if saved else registry.scoring(scoring)
    overrides = saved.options if saved else overrides_from(option)
    specs = saved.specs if saved else split_bots(bot)
    if not all(specs):
        raise UsageError(f"--bot takes bots separated by commas, not \"{bot}\"")
    check_seats(system, len(specs), "--bot", "bots", others=1)
    names = saved.bot_names if saved else bot_names(specs, reserved=(me,))
    players = saved.players if saved else (me, *names)
    try:
        rules = registry.rules(v, system, overrides)
        open_session(system, players, rules)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    cwd = saved.cwd if saved else None
    if cwd is not None and not os.path.isdir(cwd):  # recorded for a session with external bots
        raise UsageError(f"cannot go on with {transcript}: its external bots ran in the folder {cwd}, where the "
                         "session was begun, and it is not a folder here; put it back, or set the \"cwd\" of the "
                         "transcript's \"play\" field to where the bots are now")
    factories = {n: bot_factory(registry, spec, cwd) for n, spec in zip(names, specs, strict=True)}
    external = any(is_external(f) for f in factories.values())
    if saved is None and external:
        try:
            cwd = os.getcwd()  # recorded: a relative path of an exec: command means what it means here
        except OSError:
            cwd = None
    check_dealer(dealer, players)
    if seed is None:
        seed = random_seed()
    if transcript is not None:
        path = Path(transcript)
    else:
        folder = data_dir() / "games"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{time.strftime('%Y%m%d-%H%M%S')}-{seed}.json"
    file = SavedTranscript(path, resume)
    try:
        out = sys.stderr if format is OutputFormat.json else data()
        screen = Screen(out, sys.stdin, sys.stdin.isatty() and out.isatty())
        bots = {}
        for i, n in enumerate(players[1:], 1):
            factory = factories[n]
            configure(factory, time_limit, start_time_limit, bot_log, bot_trace)
            bots[n] = timed_if_third_party(n, factory, time_limit)(SplitMix64(seed).derive(1 + i), n)
            bots[n].players = players
        table = Table(players, v, rules, system, seed, dealer=dealer)
        if saved:
            own = {n: b for n, b in bots.items() if not is_external(factories[n])}

            def catch_up(hand: Any, move: Any) -> None:  # a bot of gincli's decides again, as it did: same state
                if move.player in own:
                    own[move.player].choose(hand.view(move.player))

            def hand_over(hand: Any, result: Any) -> None:
                for n, b in own.items():
                    if n in hand.players and type(b).hand_over is not Bot.hand_over:
                        b.hand_over(hand.view(n), result.to_dict())

            try:
                table.replay(saved.doc["hands"], catch_up, hand_over)
            except ValueError as exc:
                raise UsageError(f"cannot go on with {path}: {exc}") from None
        play_field = {"human": me, "bots": dict(zip(names, specs, strict=True)), "dealer": dealer}
        if cwd is not None:
            play_field["cwd"] = cwd
        game = Game(table, me, bots, screen, file, registry, registry.transcript_options(v, rules), seed ^ 0x5EED,
                    dict(zip(names, specs, strict=True)), play_field, max_forfeits)
        quit = False
        stop: UsageError | None = None
        try:
            game.run()
        except Quit:
            quit = True
        except (BotStartFailure, ForfeitStop) as exc:  # a bot that cannot play: nothing is claimed
            stop = exc
        except KeyboardInterrupt:
            game.save()
            screen.say(f"\ninterrupted; the transcript so far is in {safe(path)}")
            raise typer.Exit(EXIT_INTERRUPTED) from None
        finally:
            for b in bots.values():
                b.close()
            from ..matches.external import close_all

            fault = close_all()
        game.save()
        if fault is not None:  # a bot log or trace that stopped taking lines as its bot ended
            raise fault
        if stop is not None:
            raise fail(stopped(stop, game, path, cwd if saved else None, external and saved is not None and
                               saved.cwd is None))
        summary = game.finish(quit)
        if format is OutputFormat.json:
            write_data(dumps(summary) + "\n", json=True)
    finally:
        file.close()  # the lock beside it
