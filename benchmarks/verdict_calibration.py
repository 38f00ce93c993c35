"""Whether the play-outs' verdict, corrected for its bias, keeps buying more with more worlds.

    python benchmarks/verdict_calibration.py --load F [--worlds 192,768,3072] [--seed 9402]
                                             [--workers 2] [--format text|json]

F holds the positions ``search_oracle.py --save F`` kept: each discard master searched in
hands against ``expert``, with every discard it weighed played on from the true position
(the opponent's real hand, the stock reshuffled) several times, its worth the points the
hand ended with. Here each position's discards are played out again in W worlds, every
discard in the same worlds (master's play-outs, its settings; no halving), giving each
discard's verdict: its mean points over master-knock's discard (the first) and the
standard error of that difference. Then, for each W, two ways of choosing are scored by
the worth of the discard chosen over the first's (as search_oracle.py scores its rows):

* ``raw``: master's rule, the best verdict if it beats the first by a standard error;
* ``calibrated``: the verdict corrected by a least-squares fit of the true gain (the
  worths' difference) on the verdict, its standard error, and the verdict times the
  stock's share still undrawn, fitted on the other half of the positions (two folds,
  split by position), the best corrected gain if above 0.

If the corrected verdict's worth grows with W where the raw one stays flat, the bias of
the play-outs (what more worlds cannot remove) is what held the curve; if not, it is not.
Reproducible by seed; progress on stderr.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from multiprocessing import Pool
from typing import Any

from search_oracle import DEFAULTS, load_kept, mean_error, position_of

from gincli.hand import playout
from gincli.rulebook.rng import SplitMix64
from gincli_builtin.expert import feature
from gincli_builtin.expert_fit import fit_linear

STOCK = 31  # cards in the stock once the hands and the upcard are dealt


def verdicts(job: tuple[list[dict[str, Any]], int, int, int]) -> list[list[tuple[float, float]]]:
    """For each position of the part: each discard's mean points over the
    first's in ``worlds`` worlds, and the standard error of that difference
    (the first's own: 0, 0)."""
    found, worlds, seed, first = job
    out = []
    for number, p in enumerate(found, first):
        at = SplitMix64(seed).derive(number).derive(worlds).next64()
        totals, squares = playout.search(*position_of(p, DEFAULTS), list(p["ids"]), worlds, at,
                                         int(DEFAULTS["draws"]))
        row = [(0.0, 0.0)]
        for i in range(1, len(p["ids"])):
            diff = (totals[i] - totals[0]) / worlds
            spread = max(squares[i] / worlds - diff * diff, 0.0) ** 0.5
            row.append((diff, spread / math.sqrt(worlds)))
        out.append(row)
    return out


#: The fit's features of a discard's verdict (gincli_builtin.expert's ``feature`` names: a product with ``*``).
NAMES = ("verdict", "error", "verdict*late")


def corrected(model: dict[str, float], row: dict[str, float]) -> float:
    """The true gain ``model`` (:func:`~gincli_builtin.expert_fit.fit_linear`'s) predicts for ``row``."""
    return model["1"] + sum(model[name] * feature(row, name) for name in NAMES)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--load", required=True, help="the positions search_oracle.py --save kept")
    ap.add_argument("--worlds", type=lambda t: [int(x) for x in t.split(",")], default=[192, 768, 3072])
    ap.add_argument("--seed", type=int, default=9402)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--format", choices=("text", "json"), default="text")
    a = ap.parse_args(argv)
    if not a.worlds or min(a.worlds) < 2 or a.workers < 1:
        ap.error("--worlds are 2 or more each, --workers 1 or more")
    try:
        found = load_kept(a.load)
    except ValueError as exc:
        ap.error(str(exc))
    if len(found) < 2:
        ap.error(f"{a.load} holds one position: the fit needs two or more (fitted on one half, scored on the other)")
    worth = [[sum(w) / len(w) for w in p["worths"]] for p in found]
    true = [[w[i] - w[0] for i in range(len(w))] for w in worth]
    fold = [number % 2 for number in range(len(found))]
    rows = []
    with Pool(a.workers) as pool:
        for worlds in a.worlds:
            size = max(1, math.ceil(len(found) / max(a.workers * 8, len(found) // 50)))
            jobs = [(found[i:i + size], worlds, a.seed, i) for i in range(0, len(found), size)]
            got: list[list[tuple[float, float]]] = []
            for part in pool.imap(verdicts, jobs):
                got += part
                print(f"\r{worlds} worlds: {len(got)}/{len(found)} positions", end="", file=sys.stderr, flush=True)
            print(file=sys.stderr)
            raw = []
            for v, t in zip(got, true, strict=True):
                best, gain = 0, 0.0
                for i, (diff, error) in enumerate(v[1:], 1):  # master's rule (search_choice), without halving
                    if diff > max(DEFAULTS["z"] * error, DEFAULTS["min_gain"]) and diff > gain:
                        best, gain = i, diff
                raw.append(t[best])
            # each discard's verdict (not the first's), with its true gain
            rows_of = [[{"verdict": d, "error": e, "late": p["stock"] / STOCK, "gain": t[i]}
                        for i, (d, e) in enumerate(v) if i] for v, t, p in zip(got, true, found, strict=True)]
            calibrated = [0.0] * len(found)
            fits = []
            for held in (0, 1):
                model = fit_linear([r for k, rs in enumerate(rows_of) if fold[k] != held for r in rs], NAMES,
                                   lambda r: r["gain"])
                fits.append([model["1"], *(model[name] for name in NAMES)])
                for k, (rs, t) in enumerate(zip(rows_of, true, strict=True)):
                    if fold[k] == held:
                        guesses = [corrected(model, r) for r in rs]
                        best = max(range(len(guesses)), key=guesses.__getitem__, default=-1)
                        calibrated[k] = t[best + 1] if best >= 0 and guesses[best] > 0 else 0.0
            r_gain, r_err = mean_error(raw)
            c_gain, c_err = mean_error(calibrated)
            d_gain, d_err = mean_error([c - r for c, r in zip(calibrated, raw, strict=True)])
            rows.append({"worlds": worlds, "raw": r_gain, "raw_error": r_err, "calibrated": c_gain,
                         "calibrated_error": c_err, "difference": d_gain, "difference_error": d_err,
                         "fits": [[round(c, 4) for c in coef] for coef in fits]})
    if a.format == "json":
        print(json.dumps({"positions": len(found), "seed": a.seed, "rows": rows}, indent=2))
        return 0
    print(f"{len(found)} positions; each discard's worth over master-knock's, points a decision")
    print(f"{'worlds':>7} {'raw verdict':>16} {'calibrated':>16} {'difference':>16}  "
          "fit (1, verdict, error, verdict x stock)")
    for r in rows:
        print(f"{r['worlds']:>7} {r['raw']:>+9.2f} ± {r['raw_error']:.2f} {r['calibrated']:>+9.2f} ± "
              f"{r['calibrated_error']:.2f} {r['difference']:>+9.2f} ± {r['difference_error']:.2f}  {r['fits'][0]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
