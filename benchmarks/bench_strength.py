"""Playing strength of the strong bots against each other and the strongest opponents we have,
each result with its 95% interval and the rules it was measured under; and each bot's speed.

    python benchmarks/bench_strength.py [--pair A,B[@SCORING[@VARIANT]] ...] [--games 400] [--seed 1]
                                        [--workers 1] [--speed-hands 1000] [--no-speed] [--format text|json]

Each pair ``A,B`` plays ``gin match --bots A,B --games N --duplicate --seed S --scoring SCORING
--variant VARIANT`` (every deal played twice, seats swapped; the scoring system ``game`` by default:
games to 100 with every bonus). Reported: A's share of games won with its 95% interval, the Elo
difference with its error, both sides' points per hand, the hands played. The default pairs are
those of issue 25:

* ``master,expert`` under ``game`` (games to 100, every bonus),
* ``master,hse`` under ``eaai`` (the EAAI 2021 challenge's rules),
* ``expert,hse`` under ``eaai``,
* ``expert,simple`` under ``game``.

``hse`` is the benchmark opponent built from the MARJJ paper (benchmarks/plugins/hse.py; this
script passes ``--plugins-dir benchmarks/plugins``). A pair naming a bot that is not installed
is reported as skipped, in one line, and the others are measured.

Speed: for each bot of the pairs (``--speed-bots`` to choose), ``gin match --bots B,simple --hands H
--workers 1``: hands per second on one worker, start-up excluded (gin's own figure). Everything
but the speed is reproducible by seed.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys

from common import HERE, gin_command, table

SPEED = re.compile(r"\(([\d,.]+) hands/s, 1 worker\)")

#: The pairs measured by default: "A,B@scoring".
PAIRS = ("master,expert@game", "master,hse@eaai", "expert,hse@eaai", "expert,simple@game")


def gin() -> list[str]:
    return gin_command() + ["--plugins-dir", str(HERE / "plugins")]


def installed() -> set[str]:
    """The bots gin knows, the plugins folder's included."""
    out = subprocess.run(gin() + ["bots", "--format", "json"], capture_output=True, text=True, check=True)
    return {b["name"] for b in json.loads(out.stdout)["bots"]}


def missing(bot: str, known: set[str]) -> bool:
    """Whether ``bot`` (a name, ``name:param=value`` or ``exec:COMMAND``) is not installed."""
    if bot.startswith("exec:"):
        return False
    return bot.split(":", 1)[0] not in known


def parse_pair(spec: str) -> dict:
    """``A,B[@SCORING[@VARIANT]]`` as a dict; ValueError when it is not two bots."""
    parts = spec.split("@")
    bots = parts[0].split(",")
    if len(bots) != 2 or not all(bots) or len(parts) > 3:
        raise ValueError(f"a pair is A,B[@SCORING[@VARIANT]], not {spec!r}")
    return {"bots": bots, "scoring": parts[1] if len(parts) > 1 and parts[1] else "game",
            "variant": parts[2] if len(parts) > 2 and parts[2] else "standard"}


def strength(pair: dict, games: int, seed: int, workers: int) -> dict:
    cmd = gin() + ["match", "--bots", ",".join(pair["bots"]), "--games", str(games), "--duplicate",
                   "--scoring", pair["scoring"], "--variant", pair["variant"], "--seed", str(seed),
                   "--workers", str(workers), "-q", "--format", "json"]
    out = subprocess.run(cmd, capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd[-20:])}: exit {out.returncode}: {out.stderr.strip()}")
    s = json.loads(out.stdout)
    a, b = s["players"]
    w, e = s["win_rate"], s["elo"]
    return {"pair": f"{a['name']} vs {b['name']}", "bots": pair["bots"],
            "rules": {"scoring": s["scoring"], "variant": s["variant"], "games": s["games"], "seed": s["seed"],
                      "duplicate": s["duplicate"], "options": s["options"]},
            "hands": s["hands"], "dead_hands": s["dead_hands"],
            "win_rate": {"player": w["player"], "value": w["value"], "low": w["low"], "high": w["high"],
                         "confidence": w["confidence"]},
            "elo": {"diff": e["diff"], "error": e["error"]},
            "points_per_hand": {a["name"]: a["points_per_hand"], b["name"]: b["points_per_hand"]},
            "forfeits": {a["name"]: a["forfeits"], b["name"]: b["forfeits"]}}


def speed(bot: str, hands: int, seed: int) -> float:
    cmd = gin() + ["match", "--bots", f"{bot},simple", "--hands", str(hands), "--workers", "1",
                   "--seed", str(seed), "--format", "json"]  # not -q: the speed line is on stderr
    out = subprocess.run(cmd, capture_output=True, text=True)
    found = SPEED.search(out.stderr)
    if out.returncode != 0 or not found:
        raise RuntimeError(f"no speed line for {bot}: {out.stderr.strip()!r}")
    return float(found.group(1).replace(",", ""))


def elo(e: dict) -> str:
    """The Elo difference and its error; unbounded (null in JSON) when one side won every game."""
    if e["diff"] is None or e["error"] is None:
        return "unbounded (one side won every game)"
    return f"{e['diff']:+.0f} ± {e['error']:.0f}"


def rules(r: dict) -> str:
    dup = "duplicate" if r["duplicate"] else "not duplicate"
    return f"{r['scoring']}, {r['variant']}, {r['games']:,} games, {dup}, seed {r['seed']}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--pair", action="append", dest="pairs", metavar="A,B[@SCORING[@VARIANT]]",
                    help=f"a pair to measure (repeatable; default: {' '.join(PAIRS)})")
    ap.add_argument("--games", type=int, default=400, help="games per pair, an even number (duplicate deals)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workers", type=int, default=1, help="workers for the strength matches")
    ap.add_argument("--speed-hands", type=int, default=1000, help="hands of each bot against simple, one worker")
    ap.add_argument("--speed-bots", help="the bots to time against simple (default: every bot of the pairs)")
    ap.add_argument("--no-speed", action="store_true", help="measure no speed")
    ap.add_argument("--format", choices=("text", "json"), default="text")
    args = ap.parse_args()
    try:
        pairs = [parse_pair(p) for p in (args.pairs or PAIRS)]
    except ValueError as exc:
        ap.error(str(exc))
    games = args.games + args.games % 2
    text = args.format == "text"
    known = installed()
    results, skipped, speeds = [], [], []
    for pair in pairs:
        absent = [b for b in pair["bots"] if missing(b, known)]
        if absent:
            line = f"skipped {','.join(pair['bots'])} under {pair['scoring']}: {', '.join(absent)} not installed"
            skipped.append({"bots": pair["bots"], "scoring": pair["scoring"], "variant": pair["variant"],
                            "missing": absent, "reason": "not installed"})
            print(line, file=sys.stderr)
            continue
        if text:
            print(f"measuring {','.join(pair['bots'])} under {pair['scoring']} ({games:,} games)...",
                  file=sys.stderr)
        results.append(strength(pair, games, args.seed, args.workers))
    if not args.no_speed:
        bots = args.speed_bots.split(",") if args.speed_bots else list(dict.fromkeys(
            b for p in pairs for b in p["bots"]))
        for bot in bots:
            if missing(bot, known):
                if not args.speed_bots and any(s["missing"] and bot in s["missing"] for s in skipped):
                    continue  # said above
                print(f"skipped the speed of {bot}: not installed", file=sys.stderr)
                skipped.append({"bots": [bot], "missing": [bot], "reason": "not installed", "speed": True})
                continue
            speeds.append({"bot": bot, "against": "simple", "hands": args.speed_hands, "workers": 1,
                           "hands_per_second": speed(bot, args.speed_hands, args.seed)})
    if not text:
        json.dump({"results": results, "speed": speeds, "skipped": skipped}, sys.stdout, indent=2)
        print()
        return
    rows = []
    for r in results:
        w = r["win_rate"]
        (na, pa), (nb, pb) = r["points_per_hand"].items()
        rows.append((r["pair"], rules(r["rules"]), f"{r['hands']:,}",
                     f"{w['player']} {100 * w['value']:.1f}% ({100 * w['low']:.1f}-{100 * w['high']:.1f}%)",
                     elo(r["elo"]), f"{pa:.2f} vs {pb:.2f}"))
    if rows:
        print(table(rows, ("match", "rules (scoring, variant, games, deals, seed)", "hands",
                           "games won, 95% interval", "Elo", "points/hand")))
    if speeds:
        if rows:
            print()
        print(table([(s["bot"], f"{s['hands']:,} hands against simple", f"{s['hands_per_second']:,.0f} hands/s")
                     for s in speeds], ("bot", "speed, one worker", "")))


if __name__ == "__main__":
    main()
