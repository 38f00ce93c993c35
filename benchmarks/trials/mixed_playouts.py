"""A trial of master's search not kept: the play-outs' verdict averaged over
several ways of playing them out, so that more worlds also buy more kinds of
play-out (docs/benchmarks.md, "Play-outs of several kinds, and a time budget").

    python benchmarks/trials/mixed_playouts.py --load F [--rows base:768,mixed:768] [--seed 9402]
                                               [--known] [--workers 2] [--format text|json]

F: positions kept by ``python benchmarks/search_oracle.py --save F``. A row is
``KIND:W``: each discard master weighed is played out in W worlds in all, split
alike among the kind's settings of the play-outs (each in its own worlds, the
same for every discard), the differences from master-knock's discard summed
over them, and master's rule chooses (another discard when it gains a standard
error). The kinds:

* ``base``: master's own play-outs alone (the same choices as search_oracle.py's
  row ``W:halving=0``, position for position: tests/test_search_oracle.py);
* ``mixed``: master's; the opponent's hand held as drawn (``draws=0``); our seat
  knocking with up to 5 and the opponent with up to 8; danger 2, three draws;
* ``draws``: the opponent's hand made better by 0, 1, 2 and 3 of the stock's cards;
* ``knocks``: master's; ours knocking with up to 4; theirs with up to 6; ours
  with up to 10 and theirs with up to 3.

``--known``: the opponent's true hand weighed 255 to 1 (search_oracle.py's
``known=1``). Scored as search_oracle.py scores its rows: the worth of the discard
chosen less master-knock's, with the difference from the first row position by
position.
"""

from __future__ import annotations

import argparse
import json
import sys
from multiprocessing import Pool
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from search_oracle import chunks, load_kept, mean_error, position_of, row_spec  # noqa: E402

from gincli.hand import playout  # noqa: E402
from gincli.rulebook.rng import SplitMix64  # noqa: E402
from gincli_builtin.master import MasterBot, chosen  # noqa: E402

#: Each kind's settings of the play-outs (search_oracle.py's row keys), master's for those not given.
KINDS: dict[str, list[dict[str, int]]] = {
    "base": [{}],
    "mixed": [{}, {"draws": 0}, {"knock_at": 5, "their_knock_at": 8}, {"danger": 2, "draws": 3}],
    "draws": [{"draws": 0}, {"draws": 1}, {"draws": 2}, {"draws": 3}],
    "knocks": [{}, {"knock_at": 4}, {"their_knock_at": 6}, {"knock_at": 10, "their_knock_at": 3}],
}


def choices(job: tuple[str, int, list[dict[str, Any]], int, int, bool]) -> list[int]:
    """The row's choice at each position of ``part`` (numbered from ``first``, each by its own seed)."""
    kind, worlds, part, seed, first, known = job
    settings = KINDS[kind]
    n = max(1, worlds // len(settings))
    out = []
    for number, p in enumerate(part, first):
        rng = SplitMix64(seed).derive(number)
        ids = p["ids"]
        gained, squared = [0] * len(ids), [0] * len(ids)
        for setting in settings:
            spec = {**row_spec("1"), **setting, "known": int(known)}
            totals, squares = playout.search(*position_of(p, spec), ids, n, rng.next64(), int(spec["draws"]))
            for i in range(len(ids)):
                gained[i] += totals[i] - totals[0]
                squared[i] += squares[i]
        seen = [n * len(settings)] * len(ids)
        out.append(chosen(gained, squared, seen, range(1, len(ids)), MasterBot.Z, MasterBot.MIN_GAIN))
    return out


def row(text: str) -> tuple[str, int]:
    kind, _, worlds = text.partition(":")
    if kind not in KINDS or not worlds.isdigit() or int(worlds) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not KIND:WORLDS (kinds: {', '.join(KINDS)})")
    return kind, int(worlds)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--load", required=True, help="positions kept by search_oracle.py --save")
    ap.add_argument("--rows", type=lambda t: [row(x) for x in t.split(",")],
                    default=[("base", 768), ("mixed", 768)])
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
    if not found:
        ap.error(f"{a.load} holds no positions search_oracle.py kept (--save)")
    worth = [[sum(w) / len(w) for w in p["worths"]] for p in found]
    rows: list[dict[str, Any]] = []
    base: list[float] | None = None
    with Pool(a.workers) as pool:
        for kind, worlds in a.rows:
            jobs = [(kind, worlds, part, a.seed, first, a.known)
                    for first, part in chunks(found, max(a.workers, len(found) // 50))]
            chosen = [c for part in pool.imap(choices, jobs) for c in part]
            gains = [w[c] - w[0] for w, c in zip(worth, chosen, strict=True)]
            gain, error = mean_error(gains)
            r: dict[str, Any] = {"row": f"{kind}:{worlds}", "gain": gain, "error": error,
                                 "switched": sum(c != 0 for c in chosen) / len(chosen), "choices": chosen}
            if base is None:
                base = gains
            else:
                r["vs_first"], r["vs_first_error"] = mean_error([g - b for g, b in zip(gains, base, strict=True)])
            rows.append(r)
            print(f"row {r['row']} done", file=sys.stderr, flush=True)
    if a.format == "json":
        print(json.dumps({"positions": len(found), "seed": a.seed, "known": a.known, "rows": rows}))
        return 0
    print(f"{len(found)} positions, seed {a.seed}{', the hand known' if a.known else ''}: points a decision over "
          "master-knock's discard")
    for r in rows:
        vs = f"{r['vs_first']:+.3f} ± {r['vs_first_error']:.3f}" if "vs_first" in r else ""
        print(f"{r['row']:>14} {r['gain']:+8.3f} ± {r['error']:.3f} {r['switched']:>7.1%} {vs:>18}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
