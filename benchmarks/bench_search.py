"""What master's search buys as it is given more worlds (or more time), and what a decision costs.

    python benchmarks/bench_search.py [--worlds 0,48,192,768 | --ms 0,1,4,16] [--params width=4:margin=5]
                                      [--against expert|half]
                                      [--games 400] [--seed 1] [--scoring game] [--workers 1]
                                      [--timing-hands 300] [--playout-positions 0] [--format text|json]

For each number of worlds W (0: ``master-knock``, master without its search), ``gin match --bots
master:worlds=W[:PARAMS],AGAINST --games N --duplicate --seed S --scoring SCORING`` (``--params``: master's
other parameters, ``width=10:margin=20`` say, for every W but 0; ``--against half``: master with W/2
worlds and the same parameters, what each doubling buys): master's share of games
won with its 95% interval, the Elo difference, both sides' points per hand. Then the cost of a
decision: ``--timing-hands`` hands of ``master:worlds=W`` against ``expert`` played in this process
(seed S), each of master's decisions timed on its own: the mean, median, 99th percentile and most,
in milliseconds of CPU time (the process's own: a busy machine does not inflate them), and the
share of its discards that it searched and that the search switched to another discard than
master-knock's. ``--playout-positions N``: the CPU time of a play-out, over N early-hand positions drawn
by the seed (ten discards each, in 192 worlds, one ``playout.search`` call), compiled and in Python
(on a tenth of them); with ``--format json`` the output is then ``{"rows": [...], "playouts": {...}}``
rather than the rows alone. The strength is reproducible by seed; the times are this machine's.

``--ms`` gives the curve in time instead: for each budget M, ``master:ms=M[:PARAMS]`` (M milliseconds of
CPU time a searched discard, spent on worlds until it is used; 0: ``master-knock``; ``--against half``:
half the budget), each row then named by its budget (``"ms"`` in JSON) where it is otherwise named by its
worlds. Such a match depends on the machine's speed and load as well as the seed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time

from common import HERE, gin_command, table

from gincli.hand.moves import Move
from gincli.hand.view import PlayerView
from gincli.rulebook.rules import parse_value


def strength(bot: str, against: str, games: int, seed: int, scoring: str, workers: int) -> dict:
    out = subprocess.run(gin_command() + ["--plugins-dir", str(HERE / "plugins"), "match", "--bots",
                                          f"{bot},{against}", "--games", str(games), "--duplicate", "--seed",
                                          str(seed), "--scoring", scoring, "--workers", str(workers), "-q", "-f",
                                          "json"], capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def decision_times(amount: int, hands: int, seed: int, counts: dict[str, int] | None = None,
                   extra: dict[str, object] | None = None, axis: str = "worlds") -> list[float]:
    """Each of master's decisions in ``hands`` hands against expert, in
    milliseconds, ``amount`` its worlds (or with ``axis="ms"``, its budget in
    ms; 0: master-knock); into ``counts``, given: its ``discards``, how many
    of them it ``searched``, and in how many the search ``switched`` from
    master-knock's discard to another."""
    import gincli
    from gincli.rulebook.rng import SplitMix64
    from gincli_builtin.master import MasterBot, MasterKnockBot

    times: list[float] = []
    base = MasterBot if amount else MasterKnockBot
    seen = {"discards": 0, "searched": 0, "switched": 0} if counts is None else counts
    seen.update(discards=0, searched=0, switched=0)

    class Timed(base):  # type: ignore[valid-type, misc]
        params = {**base.params, **({axis: amount, **(extra or {})} if amount else {})}

        def choose(self, view: PlayerView) -> Move:
            start = time.process_time()
            move = super().choose(view)
            times.append((time.process_time() - start) * 1000)
            seen["discards"] += move.action == "discard"
            return move

        def _searched(self, view: PlayerView, k: object, moves: list[Move]) -> Move:
            move = super()._searched(view, k, moves)  # type: ignore[misc]
            seen["searched"] += 1
            seen["switched"] += move is not moves[0]
            return move

    gincli.play_match([Timed(SplitMix64(seed)), "expert"], hands=hands, seed=seed, workers=1, transcripts=False)
    return times


def playout_cost(positions: int, seed: int, worlds: int = 192, compiled: bool = True) -> float:
    """Microseconds of CPU a play-out, over ``positions`` early-hand positions
    drawn by ``seed`` (eleven cards held, one on the pile, ten unknown in the
    opponent's hand and thirty in the stock), each of the ten discards of all
    but one card played out in ``worlds`` worlds by one
    :func:`gincli.hand.playout.search` call: the compiled module's, or
    (``compiled=False``) the Python reference's."""
    from gincli.hand import playout
    from gincli.rulebook.rng import SplitMix64

    saved = playout.PLAYOUT
    if not compiled:
        playout.PLAYOUT = None
    try:
        rng = SplitMix64(seed)
        spent, played = 0.0, 0
        for _ in range(positions):
            deck = list(range(52))
            rng.shuffle(deck)
            mine, top, unknown = deck[:11], deck[11], deck[12:]
            weights = bytes(16 if c in unknown else 0 for c in range(52))
            ids = [playout.DISCARD_ID + c for c in mine[:10]]
            start = time.process_time()
            playout.search(sum(1 << c for c in mine), [top], playout.DISCARD, -1, 0, 0, weights, len(unknown) - 10,
                           (10, 25, 25, 31, 8, 0, 5), ids, worlds, rng.next64())
            spent += time.process_time() - start
            played += len(ids) * worlds
        return spent / played * 1e6
    finally:
        playout.PLAYOUT = saved


def forfeit_lines(row: dict) -> list[str]:
    """A line for each player that forfeited hands in ``row``'s match: a
    forfeit is a hand lost to an illegal move, a fault in a bot, and the games
    won count it."""
    faults: dict[str, list] = {}  # player -> [hands forfeited, the first reason]
    for fault in row.get("forfeit_reasons", []):
        faults.setdefault(fault["player"], [0, fault["reason"]])[0] += fault["count"]
    return [f"{label(row)}: {player} forfeited {n} hand{'s' * (n != 1)} (the first: {first}), and the "
            f"games won count them" for player, (n, first) in faults.items()]


def label(row: dict) -> str:
    """A row's name for people: its worlds, or its budget."""
    return f"ms {row['ms']}" if "ms" in row else f"worlds {row['worlds']}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--worlds", default="0,48,192,768", help="the numbers of worlds, comma-separated (0: no search)")
    ap.add_argument("--ms", help="budgets in CPU milliseconds a searched discard, comma-separated, in place of "
                                 "--worlds (0: no search)")
    ap.add_argument("--params", default="", help="master's other parameters, key=value joined by ':'")
    ap.add_argument("--against", default="expert",
                    help="the opponent's bot; half: master with half the worlds (or budget), the same parameters "
                         "(each doubling, played against the one before)")
    ap.add_argument("--games", type=int, default=400)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--scoring", default="game")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--timing-hands", type=int, default=300)
    ap.add_argument("--format", choices=("text", "json"), default="text")
    ap.add_argument("--playout-positions", type=int, default=0,
                    help="also time the play-outs: this many early-hand positions, ten discards each in 192 "
                         "worlds, compiled and in Python (0: not)")
    a = ap.parse_args()
    if a.playout_positions:
        from gincli.hand import playout

        cost = {"positions": a.playout_positions, "seed": a.seed,
                "compiled_us": playout_cost(a.playout_positions, a.seed) if playout.PLAYOUT is not None else None,
                "python_us": playout_cost(max(1, a.playout_positions // 10), a.seed, compiled=False)}
        print(f"play-outs timed ({a.playout_positions} positions)", file=sys.stderr, flush=True)
    extra, typed = {}, {}
    for item in filter(None, a.params.split(":")):
        key, _, typed[key] = item.partition("=")
        extra[key] = parse_value(typed[key])
    named = "".join(f":{k}={v}" for k, v in typed.items())  # the other parameters, as a bot's name writes them
    axis = "ms" if a.ms is not None else "worlds"
    if extra.keys() & {"ms", "worlds"}:  # a budget takes the place of the worlds: each row sets the one it is named by
        ap.error("--params sets the worlds or a budget, which each row sets: give them as --worlds or --ms")
    given = a.ms if a.ms is not None else a.worlds
    try:
        values = [int(x) for x in given.split(",")]
    except ValueError:
        ap.error(f"--{axis} takes whole numbers joined by commas, not {given!r}")
    if any(v < 0 for v in values):
        ap.error(f"--{axis} takes numbers of 0 or more")
    what = "budget against half as much" if axis == "ms" else "number of worlds against half as many"
    rows = []
    for w in values:
        bot = f"master:{axis}={w}{named}" if w else "master-knock"
        against = a.against
        if against == "half":
            if w < 2:
                ap.error(f"--against half plays each {what}: 2 or more")
            against = f"master:{axis}={w // 2}{named}"
        m = strength(bot, against, a.games, a.seed, a.scoring, a.workers) if a.games else None
        counts: dict[str, int] = {}
        t = decision_times(w, a.timing_hands, a.seed, counts, extra, axis) if a.timing_hands else []
        row: dict = {axis: w, "bot": bot, "against": against, "scoring": a.scoring, "games": a.games,
                     "seed": a.seed}
        if m is not None:
            row.update(win_rate=m["win_rate"], elo=m["elo"], hands=m["hands"],
                       points_per_hand=[p["points_per_hand"] for p in m["players"]],
                       forfeits=[p["forfeits"] for p in m["players"]], forfeit_reasons=m.get("forfeit_reasons", []))
        if t:
            t.sort()
            row.update(decisions=len(t), mean_ms=statistics.fmean(t), median_ms=statistics.median(t),
                       p99_ms=t[int(0.99 * (len(t) - 1))], max_ms=t[-1], **counts)
        rows.append(row)
        print(f"{label(row)} done", file=sys.stderr, flush=True)
        for line in forfeit_lines(row):  # as the row ends, not after every row: rows can take half an hour each
            print(line, file=sys.stderr, flush=True)
    if a.format == "json":
        print(json.dumps({"rows": rows, "playouts": cost} if a.playout_positions else rows, indent=2))
        return
    header = ("ms a searched discard" if axis == "ms" else "worlds", "games won, 95% interval", "Elo",
              "points a hand", "ms a decision: mean / median / p99 / max", "discards searched / switched")
    out = []
    for r in rows:
        wr = r.get("win_rate")
        won = f"{wr['value']:.1%} ({wr['low']:.1%}–{wr['high']:.1%})" if wr else "—"
        e = r.get("elo") or {}
        elo = ("—" if e.get("diff") is None  # every game won or lost: no finite difference
               else f"{e['diff']:+.0f}" + (f" ± {e['error']:.0f}" if e.get("error") is not None else ""))
        pph = " vs ".join(f"{x:.2f}" for x in r["points_per_hand"]) if wr else "—"
        ms = (f"{r['mean_ms']:.2f} / {r['median_ms']:.2f} / {r['p99_ms']:.1f} / {r['max_ms']:.1f}"
              if "mean_ms" in r else "—")
        share = (f"{r['searched'] / r['discards']:.0%} / {r['switched'] / r['discards']:.1%}"
                 if r.get("discards") else "—")
        out.append((str(r[axis]), won, elo, pph, ms, share))
    unit = "M" if axis == "ms" else "W"
    against = f"master:{axis}={unit}/2{named}" if a.against == "half" else a.against
    print(f"master:{axis}={unit}{named} against {against}, {a.games} duplicate games under {a.scoring}, seed {a.seed}")
    print(table(out, header))
    if a.playout_positions:
        fast = f"{cost['compiled_us']:.1f} µs compiled" if cost["compiled_us"] is not None else "not compiled here"
        print(f"a play-out, CPU time ({a.playout_positions} early-hand positions, ten discards in 192 worlds each, "
              f"seed {a.seed}): {fast}, {cost['python_us']:.0f} µs in Python "
              f"({max(1, a.playout_positions // 10)} positions)")


if __name__ == "__main__":
    main()
