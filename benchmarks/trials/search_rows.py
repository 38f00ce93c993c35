"""Trials of master's search not kept, scored on the positions search_oracle.py
kept (docs/benchmarks.md, "The hand known as it is, play-outs of several kinds,
and a time budget", and "Worlds drawn by the opponent's discards").

    python benchmarks/trials/search_rows.py --load F [--rows base:768,mixed:768,fit:192:768]
                                            [--seed 9402] [--known] [--workers 2] [--format text|json]

F: positions kept by ``python benchmarks/search_oracle.py --save F``. At each
position, each row chooses among the discards master weighed by master's rule
(another discard than master-knock's when its play-outs gain a standard error)
and is scored as search_oracle.py scores its rows: the worth of the discard
chosen less master-knock's, with the difference from the first row position by
position.

*Play-outs of several kinds* (``KIND:W``): each discard is played out in W
worlds in all, split alike among the kind's settings of the play-outs (each in
its own worlds, the same for every discard), and the differences from
master-knock's discard are summed over them. The kinds:

* ``base``: master's own play-outs alone (the same choices as search_oracle.py's
  row ``W:halving=0``, position for position: tests/test_search_oracle.py);
* ``mixed``: master's; the opponent's hand held as drawn (``draws=0``); our seat
  knocking with up to 5 and the opponent with up to 8; danger 2, three draws;
* ``draws``: the opponent's hand made better by 0, 1, 2 and 3 of the stock's cards;
* ``knocks``: master's; ours knocking with up to 4; theirs with up to 6; ours
  with up to 10 and theirs with up to 3.

*Worlds drawn by the opponent's discards* (``fit:W:M[:T]``): M hands drawn as
master's worlds draw them (its weights, then two of the stock's cards), each
counted by how well the opponent's last six discards fit it (e^(-x/T), x the
deadwood each left above the least it could leave, as if thrown from that hand:
hand_guess.py's ``discards:T:6``; T 4 unless given), W of them drawn again by
those counts, and each discard played out once against each of those W hands
(the hand weighed 255 to 1, the stock shuffled). ``drawn:W`` is the same
without the counting: W hands as master draws them.

``--known``: the opponent's true hand weighed 255 to 1 (search_oracle.py's
``known=1``), for the kinds of play-out.
"""

from __future__ import annotations

import argparse
import json
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hand_guess import fit  # noqa: E402
from search_oracle import chunks, decided, load_kept, mean_error, position_of, row_spec  # noqa: E402

from gincli.hand import playout  # noqa: E402
from gincli.hand.playout import draw_world  # noqa: E402
from gincli.rulebook.rng import SplitMix64  # noqa: E402
from gincli_builtin.master import MasterBot, chosen  # noqa: E402

#: Each kind's settings of the play-outs (search_oracle.py's row keys), master's for those not given.
KINDS: dict[str, list[dict[str, int]]] = {
    "base": [{}],
    "mixed": [{}, {"draws": 0}, {"knock_at": 5, "their_knock_at": 8}, {"danger": 2, "draws": 3}],
    "draws": [{"draws": 0}, {"draws": 1}, {"draws": 2}, {"draws": 3}],
    "knocks": [{}, {"knock_at": 4}, {"their_knock_at": 6}, {"knock_at": 10, "their_knock_at": 3}],
}


#: A row: its kind, its worlds, and for ``fit`` and ``drawn`` the hands drawn and T.
Row = tuple[str, int, int, float]


def choices(job: tuple[Row, list[dict[str, Any]], int, int, bool]) -> list[int]:
    """The row's choice at each position of ``part`` (numbered from ``first``, each by its own seed)."""
    (kind, worlds, hands, t), part, seed, first, known = job
    out = []
    for number, p in enumerate(part, first):
        rng = SplitMix64(seed).derive(number)
        ids = p["ids"]
        played = []  # each call's totals and squares
        if kind in KINDS:
            settings = KINDS[kind]
            n = max(1, worlds // len(settings))
            for setting in settings:
                spec = {**row_spec("1"), **setting, "known": int(known)}
                played.append(playout.search(*position_of(p, spec), ids, n, rng.next64(), int(spec["draws"])))
            seen = n * len(settings)
        else:
            position = position_of(p, row_spec("1"))
            for hand in resampled(p, rng, worlds, hands, t if kind == "fit" else 0.0):
                weights = bytes((255 if hand >> c & 1 else 1) if w else 0 for c, w in enumerate(p["weights"]))
                played.append(playout.search(*position[:6], weights, *position[7:], ids, 1, rng.next64(), 0))
            seen = worlds
        gained = [sum(totals[i] - totals[0] for totals, _ in played) for i in range(len(ids))]
        squared = [sum(squares[i] for _, squares in played) for i in range(len(ids))]
        out.append(chosen(gained, squared, [seen] * len(ids), range(1, len(ids)), MasterBot.Z, MasterBot.MIN_GAIN))
    return out


def resampled(p: dict[str, Any], rng: SplitMix64, worlds: int, hands: int, t: float) -> list[int]:
    """``worlds`` opponent hands: ``hands`` drawn as master's worlds draw them, each
    counted by the fit of the opponent's last six discards (e^(-x/t); t 0: all
    alike), drawn again by those counts (systematic resampling)."""
    weights = bytes(p["weights"])
    unknown = [c for c in range(52) if weights[c]]
    need = 10 - p["known"].bit_count()
    discards = [card for seat, action, _, card in p["history"] if seat == 1 and action == "discard"][-6:]
    drawn = [draw_world(rng, unknown, weights, p["known"], need, MasterBot.THEIR_DRAWS)[0] for _ in range(hands)]
    counts = [fit(h, discards, t) if t else 1.0 for h in drawn]
    step = sum(counts) / worlds
    at = rng.next64() / 2 ** 64 * step
    out, reached, j = [], counts[0], 0
    for i in range(worlds):
        while reached < at + i * step and j < hands - 1:
            j += 1
            reached += counts[j]
        out.append(drawn[j])
    return out


def row(text: str) -> Row:
    kind, *rest = text.split(":")
    try:
        numbers = [float(x) if i == 2 else int(x) for i, x in enumerate(rest)]
    except ValueError:
        numbers = []
    if numbers and min(numbers[:2]) >= 1:
        if kind in KINDS and len(numbers) == 1:
            return kind, int(numbers[0]), 0, 0.0
        if kind == "drawn" and len(numbers) == 1:
            return kind, int(numbers[0]), int(numbers[0]), 0.0
        if kind == "fit" and len(numbers) in (2, 3) and numbers[-1] > 0:
            return kind, int(numbers[0]), int(numbers[1]), numbers[2] if len(numbers) == 3 else 4.0
    raise argparse.ArgumentTypeError(f"{text!r} is not a row (KIND:WORLDS, the kinds {', '.join(KINDS)}; "
                                     "drawn:WORLDS; fit:WORLDS:HANDS[:T])")


def label(r: Row) -> str:
    kind, worlds, hands, t = r
    return f"{kind}:{worlds}:{hands}:{t:g}" if kind == "fit" else f"{kind}:{worlds}"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--load", required=True, help="positions kept by search_oracle.py --save")
    ap.add_argument("--rows", type=lambda t: [row(x) for x in t.split(",")],
                    default=[row("base:768"), row("mixed:768")])
    ap.add_argument("--seed", type=int, default=9402)
    ap.add_argument("--known", action="store_true", help="the opponent's true hand weighed 255 to 1")
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--format", choices=("text", "json"), default="text")
    a = ap.parse_args(argv)
    if a.workers < 1:
        ap.error("--workers is 1 or more")
    try:
        found = load_kept(a.load)
    except ValueError as exc:
        ap.error(str(exc))
    worth = [[sum(w) / len(w) for w in p["worths"]] for p in found]
    rows: list[dict[str, Any]] = []
    base: list[float] | None = None
    with Pool(a.workers) as pool:
        for spec in a.rows:
            jobs = [(spec, part, a.seed, first, a.known)
                    for first, part in chunks(found, max(a.workers, len(found) // 50))]
            picked = decided(pool, choices, jobs, label(spec), len(found))
            gains = [w[c] - w[0] for w, c in zip(worth, picked, strict=True)]
            gain, error = mean_error(gains)
            r: dict[str, Any] = {"row": label(spec), "gain": gain, "error": error,
                                 "switched": sum(c != 0 for c in picked) / len(picked), "choices": picked}
            if base is None:
                base = gains
            else:
                r["vs_first"], r["vs_first_error"] = mean_error([g - b for g, b in zip(gains, base, strict=True)])
            rows.append(r)
    if a.format == "json":
        print(json.dumps({"positions": len(found), "seed": a.seed, "known": a.known, "rows": rows}))
        return 0
    print(f"{len(found)} positions, seed {a.seed}{', the hand known' if a.known else ''}: points a decision over "
          "master-knock's discard")
    for r in rows:
        vs = f"{r['vs_first']:+.3f} ± {r['vs_first_error']:.3f}" if "vs_first" in r else ""
        print(f"{r['row']:>16} {r['gain']:+8.3f} ± {r['error']:.3f} {r['switched']:>7.1%} {vs:>18}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
