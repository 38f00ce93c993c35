"""Replaying transcripts move by move: the heart of ``gin validate``.

A transcript (FORMATS.md "Transcript") is one session: its hands are dealt
from their ``deck`` or ``deal``, every move is played through the hand engine,
each finished hand is scored and entered into the session's scoring system,
and every claimed result is compared with what the moves produce. The first
fault stops the check; it is reported with its hand and move index, a stable
rule id (docs/validate.md lists them) and one sentence. After a fault the rest
of the transcript is still followed leniently, only to tell whether it reaches
the end of the session (``complete``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..base.contract import PluginFault
from ..base.errors import GinError, RecordError, UsageError, debug_enabled, plural, quote, unexpected
from ..base.jsonio import dumps
from ..formats.transcripts import TRANSCRIPT_FORMAT
from ..hand.engine import MAX_HAND_MOVES, SPREAD, Hand, IllegalMove, Move
from ..plugin.registry import GINCLI_OPTIONS, Registry
from ..rulebook.cards import CARD_NAMES, CARD_TABLE, card_str, parse_card
from ..rulebook.irregular import ILLEGAL_KNOCK_RULES, VOID
from ..rulebook.rules import PLAY_OPTIONS, Rules
from ..rulebook.scoring import HandResult
from ..rulebook.variant import Variant
from ..sessions.systems import CheckedSession, ScoringSystem, Seating, open_session

#: Whether a hand's deal may give a wrong number of cards: only one that records a wrong count found
#: at the table (an irregular-hand move); read only where a deal's count is wrong.
IRREGULAR_DEAL = "irregular-hand"


@dataclass
class Fault:
    """The first fault of a transcript."""

    hand: int | None
    move: int | None
    rule: str
    message: str
    context: dict[str, Any] | None = None  # the hands at that point, for people

    def to_dict(self) -> dict[str, Any]:
        return {"hand": self.hand, "move": self.move, "rule": self.rule, "message": self.message}


@dataclass
class Report:
    """The validation report of one transcript (FORMATS.md "Validation report")."""

    id: Any
    valid: bool
    complete: bool
    errors: list[Fault] = field(default_factory=list)
    hands: list[HandResult] = field(default_factory=list)
    result: dict[str, Any] = field(default_factory=dict)
    variant: str | None = None
    scoring: str | None = None
    players: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id, "valid": self.valid, "complete": self.complete,
            "errors": [e.to_dict() for e in self.errors],
            "hands": [h.to_dict() for h in self.hands],
            "scores": self.result.get("scores", {}),
            "result": self.result, "variant": self.variant, "scoring": self.scoring,
        }

    def to_json(self) -> str:
        """``dumps(self.to_dict())`` (:mod:`gincli.base.jsonio`'s strict writer), each
        hand's result written by :meth:`HandResult.to_json` (the hot path of ``gin validate``)."""
        head = dumps({"id": self.id, "valid": self.valid, "complete": self.complete,
                      "errors": [e.to_dict() for e in self.errors]})
        tail = dumps({"scores": self.result.get("scores", {}), "result": self.result, "variant": self.variant,
                      "scoring": self.scoring})
        return f'{head[:-1]}, "hands": [{", ".join([h.to_json() for h in self.hands])}], {tail[1:]}'


@dataclass
class Defaults:
    """What the command line says where a transcript is silent."""

    variant: str | None = None
    scoring: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)


class Stop(Exception):
    def __init__(self, fault: Fault):
        super().__init__(fault.message)
        self.fault = fault


def validate(doc: Any, registry: Registry, defaults: Defaults | None = None) -> Report:
    """Replay one transcript and report on it."""
    defaults = defaults or Defaults()
    ident = doc.get("id") if isinstance(doc, dict) else None
    report = Report(ident, True, False)
    try:
        players, variant, system, rules, hands = _header(doc, registry, defaults)
    except Stop as stop:
        report.valid = False
        report.errors.append(stop.fault)
        return report
    report.variant, report.scoring, report.players = variant.name, system.name, players
    try:
        session = open_session(system, players, rules)
    except PluginFault as exc:
        report.valid = False
        report.errors.append(Fault(None, None, "plugin-fault", exc.message))
        return report
    except ValueError as exc:
        report.valid = False
        report.errors.append(Fault(None, None, "transcript-options", str(exc)))
        return report
    fault: Fault | None = None
    try:
        seating = _first_seating(doc, session, players)
    except Stop as stop:
        seating, fault = None, stop.fault
    except PluginFault as exc:
        seating, fault = None, Fault(None, None, "plugin-fault", exc.message)
    last = len(hands) - 1
    mi: int | None = None  # the move being replayed, for a fault nobody foresaw
    for hi, raw in enumerate(hands if fault is None else []):
        mi = None
        try:
            if session.finished:
                raise Stop(Fault(hi, None, "hand-after-session-end",
                                 "this hand was played after the session was settled"))
            pair = _hand_players(hi, raw, players)
            _check_seats(hi, raw, pair, seating, hands, bool(doc.get("cut")), session.tables)
            hand = _deal(hi, raw, pair, variant, rules)
            moves = raw.get("moves", [])
            if not isinstance(moves, list):
                raise Stop(Fault(hi, None, "malformed-move", "\"moves\" must be a list"))
            # The engine leaves a hand as it was when it refuses a move, so the state to show
            # with a fault is taken after it; a move set's code makes no such promise.
            lazy = not hand.movesets
            apply, read = hand.apply, Move.from_dict
            for mi, m in enumerate(moves):
                before = None if lazy or hand.phase == "over" else _snapshot(hand)
                move = None
                try:
                    move = read(m)
                    apply(move)
                except IllegalMove as exc:
                    try:
                        if move is None or not _found_at_table(moves, mi, move, exc):
                            raise
                        if exc.rule == "hand-size":
                            hand.spread_unscored(move, exc)  # the wrong counts are recorded next
                        else:
                            hand.knock_illegally(move, exc)  # found at the table: its remedy follows
                    except IllegalMove as refused:
                        ctx = {"state": before or _snapshot(hand), "moves": moves[max(0, mi - 6):mi], "move": m}
                        message = refused.message + _late(moves, mi, refused)
                        raise Stop(Fault(hi, mi, refused.rule or "illegal-move", message, ctx)) from None
            mi = None
            forfeit = raw.get("forfeit")
            if forfeit is not None and not hand.over:
                who = forfeit.get("player") if isinstance(forfeit, dict) else None
                if who not in pair:
                    raise Stop(Fault(hi, None, "unknown-player", f"the forfeit names {quote(who)}, "
                                                                 "who is not a player of the hand"))
                hand.forfeit(who, str(forfeit.get("reason", "")))
            if raw.get("stalled") is True and not hand.finishable:
                if len(hand.moves) < MAX_HAND_MOVES:
                    raise Stop(Fault(hi, None, "stalled-early", f"this hand says it stalled, but stops after "
                                                                f"{len(hand.moves)} moves, before {MAX_HAND_MOVES}"))
                hand.stall()
            if not hand.finishable:
                if hi < last:
                    raise Stop(Fault(hi, None, "hand-unfinished",
                                     f"this hand stops before its end ({hand.to_act} to {hand.expecting()}), "
                                     "but another hand follows"))
                break
            result = hand.finish()
            _check_claimed_hand(hi, raw.get("result"), result)
            report.hands.append(result)
            session.add_hand(result)
            if not session.finished:
                seating = session.next_seating(seating or Seating(pair, hand.dealer), result)
        except Stop as stop:
            fault = stop.fault
            break
        except PluginFault as exc:
            fault = Fault(hi, None, "plugin-fault", exc.message)
            break
        except Exception as exc:  # a bug: this hand's fault, the hands before it kept
            fault = _internal(exc, hi, mi)
            break
    try:
        report.result = session.result()  # once: a session's result grows with its hands
        if fault is None:
            report.complete = _settled(session, hands, report)
    except PluginFault as exc:  # the session's own answers, after its hands: its fault, said whole
        fault = fault or Fault(None, None, "plugin-fault", exc.message)
    except Exception as exc:
        fault = fault or _internal(exc, None, None)
    if fault is None:
        claimed = doc.get("result")
        if claimed is not None:
            try:
                _check_claimed_session(claimed, report.result)
            except Stop as stop:
                fault = stop.fault
            except Exception as exc:
                fault = _internal(exc, None, None)
    if fault is not None:
        report.valid = False
        report.errors.append(fault)
        if fault.rule != "claimed-session-result":
            try:
                report.complete = _lenient_complete(doc, hands, players, variant, rules, system)
            except PluginFault:
                report.complete = False
            except Exception:  # following past the fault is a guess: a bug there costs only the guess
                if debug_enabled():
                    raise
                report.complete = False
    return report


def _internal(exc: Exception, hand: int | None, move: int | None) -> Fault:
    """The fault where gincli failed unforeseen: at that hand (and move), the
    hands before it kept; with ``GINCLI_DEBUG=1`` the exception goes on."""
    if debug_enabled():
        raise exc
    return Fault(hand, move, "internal-error",
                 unexpected(exc, "replayed", "hand" if hand is not None else "transcript"))


def _first_seating(doc: dict[str, Any], session: CheckedSession, players: tuple[str, ...]) -> Seating | None:
    """The seats of the first hand, from the transcript's cut (required with more
    than two players); None when two players name no cut (the first dealer is free)."""
    raw = doc.get("cut")
    if raw is None:
        if len(players) > 2:
            raise Stop(Fault(None, None, "cut-cards", f"a session of {len(players)} players needs its \"cut\": "
                                                      "the card each player cut, which decides the first seats"))
        return None
    if not isinstance(raw, dict):
        raise Stop(Fault(None, None, "cut-cards", "\"cut\" must be an object: player -> the card cut"))
    cut: dict[str, int] = {}
    for name in session.cutters():
        if name not in raw:
            raise Stop(Fault(None, None, "cut-cards", f"the cut has no card for {name}, who cuts for the deal"))
        try:
            card = parse_card(raw[name])
        except RecordError as exc:
            raise Stop(Fault(None, None, "cut-cards", f"the cut of {name}: {exc.message}")) from None
        if card in cut.values():
            raise Stop(Fault(None, None, "cut-cards", f"{card_str(card)} was cut twice; each player cuts a "
                                                      "different card"))
        cut[name] = card
    for name in raw:
        if name not in players:
            raise Stop(Fault(None, None, "unknown-player", f"the cut names {quote(name)}, who is not a player"))
    return session.first_seating(cut)


def _hand_players(hi: int, raw: Mapping[str, Any], players: tuple[str, ...]) -> tuple[str, str]:
    """The two players of a hand: its ``players`` (required with more than two)."""
    pair = raw.get("players")
    if pair is None:
        if len(players) == 2:
            return players[0], players[1]
        raise Stop(Fault(hi, None, "hand-players", f"this hand does not name its two \"players\" (required "
                                                   f"with {len(players)} players)"))
    if (not isinstance(pair, list) or len(pair) != 2 or pair[0] == pair[1]
            or not all(isinstance(p, str) and p in players for p in pair)):
        raise Stop(Fault(hi, None, "hand-players", "\"players\" must name two different players "
                                                   "of the session"))
    return pair[0], pair[1]


def _check_seats(hi: int, raw: Mapping[str, Any], pair: tuple[str, str], seating: Seating | None,
                 hands: list[Any], from_cut: bool, tables: int) -> None:
    """The hand is played by the pair the session seats, and dealt by its dealer."""
    if seating is None:
        return
    expected = set(seating.players)
    if set(pair) != expected:
        if hi == 0 and from_cut:
            raise Stop(Fault(0, None, "cut-seats", f"the cut gives the first hand to "
                                                   f"{' and '.join(seating.players)}, not {' and '.join(pair)}"))
        following = hands[hi + 1].get("players") if hi + 1 < len(hands) else None
        first_table = tables > 1 and hi % tables == 0
        if first_table and isinstance(following, list) and set(following) == expected:
            raise Stop(Fault(hi, None, "deal-order", f"this hand is played by {' and '.join(pair)}, but "
                                                     f"{' and '.join(seating.players)}'s table comes first"))
        raise Stop(Fault(hi, None, "wrong-players", f"this hand is played by {' and '.join(pair)}, but the "
                                                    f"scoring system seats {' and '.join(seating.players)}"))
    dealer = raw.get("dealer")
    if dealer in pair and dealer != seating.dealer:
        if hi == 0 and from_cut:
            raise Stop(Fault(0, None, "cut-seats", f"the cut makes {seating.dealer} the first dealer, "
                                                   f"not {dealer}"))
        raise Stop(Fault(hi, None, "wrong-dealer", f"this hand was dealt by {dealer}, but {seating.dealer} "
                                                   "deals it (the scoring system's rule; for two players, "
                                                   "next_dealer, and the same dealer after a dead hand)"))


def _settled(session: CheckedSession, hands: list[Any], report: Report) -> bool:
    if session.finished:
        return True
    return (session.settles_each_hand and bool(hands) and len(report.hands) == len(hands)
            and report.hands[-1].outcome != VOID)


def _found_at_table(moves: list[Any], mi: int, move: Move, refused: IllegalMove) -> bool:
    """Whether the move at ``mi``, which the rules refuse, is an irregularity the
    transcript records as found at the table: a knock found illegal by an
    ``illegal-knock`` move of the knocker at once, or after the opponent's spread
    that laid nothing off; a spread where a player holds a wrong number of cards,
    followed by an ``irregular-hand`` move (RULES.md)."""
    if refused.rule == "hand-size":
        after = moves[mi + 1] if mi + 1 < len(moves) else None
        return isinstance(after, dict) and after.get("action") == IRREGULAR_DEAL
    if refused.rule not in ILLEGAL_KNOCK_RULES:
        return False
    knocker = move.player

    def found(i: int) -> bool:
        m = moves[i] if i < len(moves) else None
        return isinstance(m, dict) and m.get("action") == "illegal-knock" and m.get("player") == knocker

    if found(mi + 1):
        return True
    spread = moves[mi + 1] if mi + 1 < len(moves) else None
    return (isinstance(spread, dict) and spread.get("action") == "layoff" and spread.get("player") != knocker
            and not spread.get("cards") and found(mi + 2))


def _late(moves: list[Any], mi: int, fault: IllegalMove) -> str:
    """What a refused knock's sentence adds when the transcript found it illegal
    only after the layoffs, when the rules give no remedy."""
    if fault.rule not in ILLEGAL_KNOCK_RULES:
        return ""
    later = moves[mi + 2:mi + 3]
    if later and isinstance(later[0], dict) and later[0].get("action") == "illegal-knock":
        return "; it was found after the layoffs, and the rules give no remedy then"
    return ""


def _header(doc: Any, registry: Registry,
            defaults: Defaults) -> tuple[tuple[str, ...], Variant, ScoringSystem, Rules, list[Any]]:
    def bad(rule: str, message: str) -> Stop:
        return Stop(Fault(None, None, rule, message))

    if not isinstance(doc, dict):
        raise bad("transcript-format", "a transcript must be a JSON object")
    if doc.get("format") != TRANSCRIPT_FORMAT:
        hint = ("; this looks like a hand record (an end position): score it with gin score"
                if "format" not in doc and isinstance(doc.get("hands"), dict) else "")
        raise bad("transcript-format", f"\"format\" must be \"{TRANSCRIPT_FORMAT}\", not {quote(doc.get('format'))}"
                  + hint)
    players = doc.get("players")
    if (not isinstance(players, list) or not all(isinstance(p, str) for p in players)
            or len(set(players)) != len(players) or len(players) < 2):
        raise bad("transcript-format", "\"players\" must list different names")
    hands = doc.get("hands")
    if not isinstance(hands, list) or not all(isinstance(h, dict) for h in hands):
        raise bad("transcript-format", "\"hands\" must be a list of hands (objects)")
    vname = doc.get("variant", defaults.variant or "standard")
    sname = doc.get("scoring", defaults.scoring or "game")
    options = doc.get("options", {})
    if not isinstance(vname, str) or not isinstance(sname, str) or not isinstance(options, dict):
        raise bad("transcript-options", "\"variant\" and \"scoring\" must be names and \"options\" an object")
    missing = missing_plugin(doc.get("plugins"), registry, vname, sname, options)
    if missing:
        raise bad("plugin-missing", missing)
    try:
        variant = _variant(registry, vname, options)
        system = registry.scoring(sname)
        rules = registry.rules(variant, system, {**defaults.options, **options}, where="options")
    except PluginFault as exc:  # a plugin's, not the transcript's: its sentence whole
        raise bad("plugin-fault", exc.message) from None
    except (GinError, ValueError) as exc:
        raise bad("transcript-options", str(exc)) from None
    if len(players) not in system.players:
        takes = " or ".join(str(n) for n in system.players)
        raise bad("transcript-format", f"the scoring system {system.name} takes {takes} players, not "
                                       f"{len(players)}")
    return tuple(players), variant, system, rules, hands


def missing_plugin(plugins: Any, registry: Registry, variant: str, scoring: str, options: Mapping[str, Any]) -> str:
    """What a transcript's ``plugins`` field (docs/formats.md) says is missing
    here, in one sentence: every plugin named there whose variant, scoring
    system, move set, meld rules or option this machine does not have; ``""``
    when nothing is missing. A ``plugins`` field that is not an object of
    objects says so."""
    if plugins is None:
        return ""
    if not isinstance(plugins, dict) or not all(isinstance(e, dict) for e in plugins.values()):
        return "\"plugins\" must be an object: for each plugin the transcript needs, what it provides"
    known = set(registry.all_option_specs(registry.variants.get(variant) or Variant("?")))
    system = registry.scoring_systems.get(scoring)
    if system is not None:
        known |= {o.name for o in system.options}
    loaded = {info.name for info in registry.plugins}
    needs = []
    for name, entry in plugins.items():
        lacking = []
        if entry.get("variant") == variant and variant not in registry.variants:
            lacking.append(f"variant {quote(variant)}")
        if entry.get("scoring") == scoring and scoring not in registry.scoring_systems:
            lacking.append(f"scoring system {quote(scoring)}")
        sets = entry.get("movesets")
        sets = [ms for ms in (sets if isinstance(sets, list) else []) if isinstance(ms, str)
                and ms not in registry.movesets]
        if sets:
            lacking.append(f"move set{'s' if len(sets) > 1 else ''} {_and(sets)}")
        meld = entry.get("meld_rules")
        meld = [m for m in (meld if isinstance(meld, list) else []) if isinstance(m, str)
                and m not in registry.meld_rules]
        if meld:
            lacking.append(f"meld rules {_and(meld)}")
        opts = entry.get("options")
        opts = [o for o in (opts if isinstance(opts, list) else []) if isinstance(o, str) and o in options
                and o not in known]
        if opts:
            lacking.append(f"option{'s' if len(opts) > 1 else ''} {_and(opts)}")
        if not lacking:
            continue
        version = entry.get("version")
        who = f"the plugin {quote(name)}" + (f" {version}" if isinstance(version, str) and version else "")
        package = entry.get("package")
        if isinstance(package, str) and package and package != name:
            who += f" (package {package})"
        if name in loaded:
            needs.append(f"{who} ({', '.join(lacking)}), but the plugin {quote(name)} installed here does not "
                         "provide that (another version?)")
        else:
            needs.append(f"{who} ({', '.join(lacking)}), which is not installed")
    return f"this transcript needs {', and '.join(needs)}" if needs else ""


def _and(names: list[str]) -> str:
    quoted = [quote(n) for n in names]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " and " + quoted[-1]


def read_header(doc: Any, registry: Registry,
                defaults: Defaults) -> tuple[tuple[str, ...], Variant, ScoringSystem, Rules, list[Any]]:
    """A transcript's players, variant, scoring system, rules and hands, as
    :func:`validate` reads them; :class:`ValueError` in one sentence when they
    cannot be read."""
    try:
        return _header(doc, registry, defaults)
    except Stop as stop:
        raise ValueError(stop.fault.message) from None


def _variant(registry: Registry, name: str, options: Mapping[str, Any]) -> Variant:
    """A transcript's variant: one known here by name, or, for one this machine
    never had (a variant file's), the rules the transcript carries in full:
    gincli writes every option's value, so its transcripts stand alone."""
    try:
        return registry.variant(name, files=False)
    except UsageError:
        if all(o.name in options or o.name in GINCLI_OPTIONS for o in PLAY_OPTIONS):  # gincli's own: their defaults
            return Variant(name, "known from the transcript's options", {}, source="the transcript")
        raise


def _cards(value: Any, what: str, hi: int) -> list[int]:
    if not isinstance(value, list):
        raise Stop(Fault(hi, None, "deal-cards", f"{what} must be a list of cards"))
    try:  # the common case at once; anything else card by card, for the error
        return [CARD_TABLE[token] for token in value]
    except (KeyError, TypeError):
        pass
    out = []
    for token in value:
        try:
            out.append(parse_card(token))
        except RecordError as exc:
            raise Stop(Fault(hi, None, "unknown-card", f"{what}: {exc.message}")) from None
    return out


def _deal(hi: int, raw: Mapping[str, Any], players: tuple[str, str], variant: Variant, rules: Rules) -> Hand:
    """Build a hand between ``players`` from its deck and/or deal, checking them
    (move index null)."""
    def bad(rule: str, message: str) -> Stop:
        return Stop(Fault(hi, None, rule, message))

    dealer = raw.get("dealer")
    if dealer not in players:
        raise bad("unknown-player", f"the dealer {quote(dealer)} is not a player of the hand")
    deck = None
    if raw.get("deck") is not None:
        deck = _cards(raw["deck"], "the deck", hi)
        if len(deck) != 52 or len(set(deck)) != 52:
            what = plural(len(deck), "card") if len(deck) != 52 else "a card twice"
            raise bad("deck-cards", f"the deck has {what}; it must be the 52 cards")
    deal = None
    if raw.get("deal") is not None:
        d = raw["deal"]
        if not isinstance(d, dict):
            raise bad("deal-cards", "\"deal\" must be an object")
        for key in d:
            if key not in players and key != "upcard":
                raise bad("unknown-player", f"the deal names {quote(key)}, who is not a player")
        deal = {}
        seen: set[int] = set()
        for p in players:
            cards = _cards(d.get(p), f"{p}'s dealt cards", hi)
            if len(cards) != 10 and not (deck is None and _records_wrong_count(raw)):
                raise bad("deal-cards", f"{p} was dealt {plural(len(cards), 'card')}, not 10 (a hand dealt wrong at "
                                        "the table gives its \"deal\" alone and records an irregular-hand move)")
            for c in cards:
                if c in seen:
                    raise bad("deal-cards", f"{card_str(c)} was dealt twice")
                seen.add(c)
            deal[p] = sum(1 << c for c in cards)
        if d.get("upcard") is None:
            raise bad("deal-cards", "the deal has no upcard")
        up = _cards([d["upcard"]], "the upcard", hi)[0]
        if up in seen:
            raise bad("deal-cards", f"the upcard {card_str(up)} was also dealt to a player")
        deal["upcard"] = up
    if deck is None and deal is None:
        raise bad("missing-deal", "this hand has neither \"deck\" nor \"deal\"")
    hand = Hand(players, dealer, variant, rules, deck=deck, deal=deal)
    if deck is not None and deal is not None:
        for p in players:
            if hand.hands[p] != deal[p]:
                raise bad("deal-deck-mismatch", f"dealing the deck gives {p} other cards than the deal")
        if hand.upcard != deal["upcard"]:
            raise bad("deal-deck-mismatch", f"the deck's upcard is {card_str(hand.upcard)}, the "
                                            f"deal's {card_str(deal['upcard'])}")
    return hand


def _records_wrong_count(raw: Mapping[str, Any]) -> bool:
    """Whether a hand records a wrong number of cards found at the table, so that
    its deal (given, with no deck) may hold one."""
    moves = raw.get("moves")
    return isinstance(moves, list) and any(isinstance(m, dict) and m.get("action") == IRREGULAR_DEAL for m in moves)


def _snapshot(hand: Hand) -> dict[str, Any]:
    """The state of a hand, for showing a fault in context."""
    from ..rulebook.cards import cards_of

    return {
        "hands": {p: [CARD_NAMES[c] for c in cards_of(m)] for p, m in hand.hands.items()},
        "discard_top": CARD_NAMES[hand.pile[-1]] if hand.pile else None,
        "stock": hand.stock_count, "to_act": hand.to_act, "expecting": hand.expecting(),
    }


def _check_claimed_hand(hi: int, claim: Any, result: HandResult) -> None:
    if claim is None:
        return
    if not isinstance(claim, dict):
        raise Stop(Fault(hi, None, "claimed-hand-result", "\"result\" must be an object"))
    actual = result.claim()  # outcome, winner, points, and what move sets add (doubling's multiplier)
    for key in actual:
        if key in claim and claim[key] != actual[key]:
            raise Stop(Fault(hi, None, "claimed-hand-result",
                             f"this hand claims {key} {quote(claim[key])}, but the moves give {_show(actual[key])}"))


def _check_claimed_session(claim: Any, actual: dict[str, Any]) -> None:
    def bad(message: str) -> Stop:
        return Stop(Fault(None, None, "claimed-session-result", message))

    if not isinstance(claim, dict):
        raise bad("the session's \"result\" must be an object")
    for key in ("box", "teams", "totals", "scores", "winner"):
        if key in claim and claim[key] != actual.get(key):
            raise bad(f"the session's result claims {key} {quote(claim[key])}, but the moves give "
                      f"{_show(actual.get(key))}")
    if "games" in claim:
        games = actual.get("games", [])
        if not isinstance(claim["games"], list) or len(claim["games"]) != len(games):
            raise bad(f"the session's result claims {len(claim['games']) if isinstance(claim['games'], list) else '?'} "
                      f"game results, but the moves give {len(games)}")
        for gi, (c, a) in enumerate(zip(claim["games"], games, strict=True)):
            for key in ("scores", "winner"):
                if isinstance(c, dict) and key in c and c[key] != a.get(key):
                    raise bad(f"game {gi + 1} claims {key} {quote(c[key])}, but the moves give {_show(a.get(key))}")


def _show(value: Any) -> str:
    return dumps(value)


def _lenient_complete(doc: dict[str, Any], hands: list[Any], players: tuple[str, ...], variant: Variant,
                      rules: Rules, system: ScoringSystem) -> bool:
    """Whether the transcript, followed past its first fault as if each faulty
    move (and seat) had been allowed, reaches the end of its session."""
    session = open_session(system, players, rules)
    try:
        seating = _first_seating(doc, session, players)
    except Stop:
        return False
    for hi, raw in enumerate(hands):
        if session.finished:
            return False
        try:
            pair = _hand_players(hi, raw, players)
            hand = _deal(hi, raw, pair, variant, rules)
        except Stop:
            return False
        for m in raw.get("moves", []) if isinstance(raw.get("moves"), list) else []:
            try:
                move = Move.from_dict(m)
            except IllegalMove:
                return False
            try:
                hand.apply(move)
            except IllegalMove:
                if not hand.force(move):
                    return False
        if hand.phase == SPREAD or hand.result is not None:
            try:
                result = hand.finish()
            except GinError:
                return False
            session.add_hand(result)
            if not session.finished:
                seating = session.next_seating(seating or Seating(pair, hand.dealer), result)
        else:
            return False
    return session.finished or (session.settles_each_hand and bool(hands))
