"""What master's searched discards are worth, played on from the true position.

    python benchmarks/search_oracle.py [--hands 200] [--seed 1000] [--replays 8] [--workers 2]
                                       [--rows 48,192,768,3072] [--save F | --load F] [--format text|json]

A match decides a search's worth through everything else in it: the next decisions, the deals,
the scoring. This looks at the discards alone. ``--hands`` hands of master against ``expert`` are
played (seed S); at each discard master searches, every discard it weighed is played on from the
true position, the opponent's real hand and the stock reshuffled (its order is what neither seat
knows), by master-knock for master's seat and expert for the other, ``--replays`` times (the same
stock orders for every discard). A discard's worth is the mean of the points its hand then ended
with, master's side.

Then, for each row of ``--rows`` (``W`` worlds, with master's other settings after it:
``192:draws=0:z=2``; the keys ``draws``, ``z``, ``min_gain``, ``knock_at``, ``their_knock_at``,
``danger`` and ``halving``, which default to master's; ``sharp=s``, each card's weight in the draw
of the opponent's hand taken to the power s, 16 (w/16)^s; and ``known=1``, the opponent's true
hand weighed 255 to 1 against the others in the worlds' draw; ``ms=M``, a budget of M milliseconds of
CPU time a position in place of the worlds, as ``master:ms`` spends it, fractions allowed: such a row
depends on the machine's speed and load, not on the seed alone), master's choice at each position is
made again (:func:`gincli_builtin.master.search_choice`, seed S) and scored by the worth of the
discard it chose less that of master-knock's: the mean a decision, with its standard error, the
share of decisions switched, and the difference from the first row, position by position. A last
line gives what choosing by half the replays, scored on the other half, gains: room the play-outs
leave.

``--save F`` keeps the positions and their worths (JSON lines, with the hand's public moves and the
opponent's true hand, for trying other ways of drawing the worlds); ``--load F`` reads them instead
of playing. Progress goes to stderr; the figures are the seed's on any number of ``--workers``.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Iterator
from multiprocessing import Pool
from typing import Any

from gincli.hand import playout
from gincli.hand.engine import Hand, shuffled_deck
from gincli.hand.moves import Move
from gincli.hand.view import PlayerView
from gincli.rulebook.rng import SplitMix64
from gincli.sessions.table import play_hand
from gincli.work.python import overrides, registry
from gincli_builtin.expert import ExpertBot, _Knowledge
from gincli_builtin.master import HALVING, MasterBot, MasterKnockBot, Position, search_choice

SEATS = ("master", "expert")
#: What a kept position holds (--save, --load).
KEPT = {"mine", "pile", "phase", "taken", "mine_took", "known", "weights", "stock", "rules", "ids", "theirs",
        "history", "worths"}
#: A row's keys, and master's own values for them.
DEFAULTS: dict[str, float] = {"draws": MasterBot.THEIR_DRAWS, "z": MasterBot.Z, "min_gain": MasterBot.MIN_GAIN,
                              "knock_at": MasterBot.KNOCK_AT, "their_knock_at": MasterBot.THEIR_KNOCK_AT,
                              "danger": MasterBot.PLAY_DANGER, "halving": int(HALVING), "known": 0, "sharp": 1.0,
                              "ms": 0}


class Searching(MasterBot):
    """master, keeping the discards it weighs and the search's position."""

    name = "master"
    weighed: tuple[list[Move], Position] | None = None

    def _searched(self, view: PlayerView, k: _Knowledge, moves: list[Move]) -> Move:
        position = self.search_position(view, k, playout.DISCARD, view.taken)
        if position is not None:
            self.weighed = (moves, position)
        return super()._searched(view, k, moves)


def played_on(hand: Hand, seed: int) -> int:
    """The points master's seat ends ``hand`` with (negative: the opponent's),
    master-knock and expert playing on."""
    rng = SplitMix64(seed)
    bots = {SEATS[0]: MasterKnockBot(rng.derive(0), SEATS[0]), SEATS[1]: ExpertBot(rng.derive(1), SEATS[1])}
    result = play_hand(hand, lambda h: bots[h.to_act].choose(h.view(h.to_act)))
    if result.winner is None:
        return 0
    return result.points if result.winner == SEATS[0] else -result.points


def searched(seed: int, index: int) -> Iterator[tuple[Hand, list[Move], Position, SplitMix64]]:
    """Hand ``index`` of master against expert at ``seed``, stopped at each
    discard master searches (before it is played): the hand, the discards
    master weighed (master-knock's first), the search's position and the hand's
    generator."""
    reg = registry()
    variant = reg.variant("standard")
    rules = reg.rules(variant, reg.scoring("game"), overrides(None))
    rng = SplitMix64(seed).derive(index)
    hand = Hand(SEATS, SEATS[index % 2], variant, rules, deck=shuffled_deck(rng))
    master, expert = Searching(rng.derive(1), SEATS[0]), ExpertBot(rng.derive(2), SEATS[1])
    while hand.phase not in ("spread", "over"):
        player = hand.to_act
        master.weighed = None
        move = (master if player == SEATS[0] else expert).choose(hand.view(player))
        if master.weighed is not None:
            yield hand, *master.weighed, rng
        hand.apply(move)


def positions_of_hand(job: tuple[int, int, int]) -> list[dict[str, Any]]:
    """Hand ``index`` of the match at ``seed``: each position master searched,
    with every weighed discard's worths over ``replays`` stock orders."""
    seed, index, replays = job
    found = []
    for hand, moves, position, rng in searched(seed, index):
        orders = [rng.next64() for _ in range(replays)]
        worths = []
        for m in moves:
            row = []
            for order in orders:
                again = hand.rewound(len(hand.moves))
                assert again.stock is not None
                SplitMix64(order).shuffle(again.stock)
                again.apply(m)
                row.append(played_on(again, order))
            worths.append(row)
        mine, pile, phase, taken, mine_took, known, weights, stock, prules = position
        found.append({"hand": index, "mine": mine, "pile": list(pile), "phase": phase, "taken": taken,
                      "mine_took": mine_took, "known": known, "weights": list(weights), "stock": stock,
                      "rules": list(prules), "ids": [playout.DISCARD_ID + (m.card or 0) for m in moves],
                      "theirs": hand.hands[SEATS[1]], "history": public(hand.moves), "worths": worths})
    return found


def public(moves: list[Move]) -> list[list[Any]]:
    """The hand's moves as either seat saw them: ``[seat, action, source,
    card]``, seat 0 master's, the card of a draw from the stock None."""
    return [[SEATS.index(m.player), m.action, m.source, None if m.source == "stock" else m.card] for m in moves]


def row_spec(text: str) -> dict[str, Any]:
    """``W[:key=value...]``: worlds and master's settings for a row."""
    worlds, *items = text.split(":")
    spec: dict[str, Any] = {"row": text, **DEFAULTS}
    try:
        spec["worlds"] = int(worlds)
        for item in items:
            key, value = item.split("=")
            if key not in DEFAULTS:
                raise ValueError
            spec[key] = float(value) if key in ("z", "min_gain", "sharp", "ms") else int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not worlds with settings (192:draws=0:z=2; keys: "
                                         f"{', '.join(DEFAULTS)})") from None
    if any(spec[k] < 0 for k in DEFAULTS):
        raise argparse.ArgumentTypeError(f"{text!r}: the settings are 0 or more")
    if spec["worlds"] < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: the worlds are 1 or more")
    return spec


def choices(job: tuple[dict[str, Any], list[dict[str, Any]], int, int]) -> list[int]:
    """The row's choice (an index into the discards weighed) at each position,
    the positions numbered from ``first``, each searched by its own seed."""
    spec, found, seed, first = job
    out = []
    for number, p in enumerate(found, first):
        rng = SplitMix64(seed).derive(number)
        out.append(search_choice(position_of(p, spec), p["ids"], spec["worlds"], bool(spec["halving"]), rng.next64,
                                 spec["draws"], spec["z"], spec["min_gain"], spec["ms"] / 1000 or None))
    return out


def position_of(p: dict[str, Any], spec: dict[str, Any]) -> Position:
    """A kept position as master's search takes it, under a row's settings
    (its worlds' weights sharpened or the true hand known, the play-outs' knocks and danger)."""
    weights = p["weights"]
    if spec["sharp"] != 1:
        weights = [min(255, max(1, round(16 * (w / 16) ** spec["sharp"]))) if w else 0 for w in weights]
    if spec["known"]:
        weights = [(255 if p["theirs"] >> c & 1 else 1) if w else 0 for c, w in enumerate(weights)]
    rules = (*p["rules"][:4], int(spec["knock_at"]), int(spec["their_knock_at"]), int(spec["danger"]))
    return (p["mine"], bytes(p["pile"]), p["phase"], p["taken"], p["mine_took"], p["known"], bytes(weights),
            p["stock"], rules)


def load_kept(path: str) -> list[dict[str, Any]]:
    """The positions ``--save`` kept in ``path``; ValueError with the sentence
    to say when it cannot be read, holds other lines or holds none."""
    try:
        with open(path) as f:
            found = [json.loads(line) for line in f]
    except (OSError, ValueError) as exc:
        raise ValueError(f"cannot read the positions in {path}: {exc}") from None
    if not all(isinstance(p, dict) and p.keys() >= KEPT for p in found):
        raise ValueError(f"{path} holds lines that are not positions kept by search_oracle.py --save")
    if not found:
        raise ValueError(f"{path} holds no positions search_oracle.py kept (--save)")
    return found


def mean_error(values: list[float]) -> tuple[float, float]:
    mu = sum(values) / len(values)
    if len(values) < 2:
        return mu, float("nan")
    return mu, math.sqrt(sum((v - mu) ** 2 for v in values) / (len(values) - 1) / len(values))


def decided(pool: Any, choose: Callable[[Any], list[int]], jobs: list[Any], row: str, total: int) -> list[int]:
    """The choices ``pool`` makes of ``jobs`` (parts of the positions, in
    order) by ``choose``, each part's as it comes, the count of positions
    decided shown on stderr for the row named ``row``."""
    picked: list[int] = []
    for part in pool.imap(choose, jobs):
        picked += part
        print(f"\rrow {row}: {len(picked)}/{total} positions decided", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    return picked


def chunks(items: list[Any], n: int) -> Iterator[tuple[int, list[Any]]]:
    """``items`` in ``n`` parts or fewer, each with the index of its first."""
    size = max(1, math.ceil(len(items) / n))
    for i in range(0, len(items), size):
        yield i, items[i:i + size]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hands", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--replays", type=int, default=8, help="stock orders each discard is played on in")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--rows", type=lambda t: [row_spec(x) for x in t.split(",")],
                    default=[row_spec(x) for x in "48,192,768,3072".split(",")],
                    help="worlds with settings, comma-separated (192:draws=0)")
    ap.add_argument("--save", help="keep the positions and their worths here (JSON lines)")
    ap.add_argument("--load", help="read the positions from here instead of playing")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    a = ap.parse_args(argv)
    if a.hands < 1 or a.replays < 2 or a.workers < 1:
        ap.error("--hands and --workers are 1 or more, --replays 2 or more")
    with Pool(a.workers) as pool:
        if a.load:
            try:
                found = load_kept(a.load)
            except ValueError as exc:
                ap.error(str(exc))
        else:
            found = []
            jobs = [(a.seed, i, a.replays) for i in range(a.hands)]
            for done, rows in enumerate(pool.imap(positions_of_hand, jobs), 1):
                found += rows
                print(f"\rhands played on: {done}/{a.hands}, {len(found)} positions", end="", file=sys.stderr,
                      flush=True)
            print(file=sys.stderr)
            if a.save:
                with open(a.save, "w") as f:
                    f.writelines(json.dumps(p) + "\n" for p in found)
        if not found:
            ap.error("no position was searched")
        worth = [[sum(w) / len(w) for w in p["worths"]] for p in found]
        replays = len(found[0]["worths"][0])
        half = replays // 2
        room = []
        for p in found:
            first = [sum(w[:half]) for w in p["worths"]]
            rest = [sum(w[half:]) / (replays - half) for w in p["worths"]]
            best = max(range(len(first)), key=first.__getitem__)
            room.append(rest[best] - rest[0])
        rows, base = [], None
        for spec in a.rows:
            # parts of about 50 positions, so that the count moves (each position has its own seed: the
            # same choices however the positions are split)
            jobs = [(spec, part, a.seed, first) for first, part in chunks(found, max(a.workers, len(found) // 50))]
            chosen = decided(pool, choices, jobs, spec["row"], len(found))
            gains = [w[c] - w[0] for w, c in zip(worth, chosen, strict=True)]
            gain, error = mean_error(gains)
            row = {"row": spec["row"], "worlds": spec["worlds"],
                   "settings": {k: spec[k] for k in DEFAULTS}, "gain": gain, "error": error,
                   "switched": sum(c != 0 for c in chosen) / len(chosen)}
            if base is None:
                base = gains
            else:
                row["vs_first"], row["vs_first_error"] = mean_error([g - b for g, b in zip(gains, base, strict=True)])
            rows.append(row)
    out = {"hands": None if a.load else a.hands, "seed": a.seed, "positions": len(found), "replays": replays,
           "rows": rows, "room": dict(zip(("gain", "error"), mean_error(room), strict=True))}
    if a.format == "json":
        print(json.dumps(out, indent=2))
        return 0
    print(f"{len(found)} positions master searched, each weighed discard played on {replays} times "
          f"(master-knock and expert); points a decision over master-knock's discard")
    print(f"{'row':>24} {'gain':>8} {'±':>6} {'switched':>9} {'vs the first row':>18}")
    for r in rows:
        vs = f"{r['vs_first']:+.3f} ± {r['vs_first_error']:.3f}" if "vs_first" in r else ""
        print(f"{r['row']:>24} {r['gain']:+8.3f} {r['error']:6.3f} {r['switched']:>9.1%} {vs:>18}")
    print(f"{'chosen by half the replays':>24} {out['room']['gain']:+8.3f} {out['room']['error']:6.3f}  (scored on the "
          f"other half)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
