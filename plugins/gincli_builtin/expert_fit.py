"""How the ``expert`` bot's fitted constants were made: simulated play, and
small least-squares and logistic fits in pure Python (no numpy).

Two models, both stored as constants in :mod:`gincli_builtin.expert`:

* ``KNOCK_MODEL``: at each of expert's decisions where it may knock (not gin),
  the exact points of knocking now (the engine knows the opponent's hand) and
  the points of one playout of the hand after the best discard instead, on the
  real deck; the model is a least-squares line through (waiting - knocking)
  over :meth:`ExpertBot.knock_features`. Expert then waits when the line says
  waiting pays. Refitting on play with the new model (a few rounds) settles it.
* ``STAKE_WIN`` and ``STAKE_POINTS`` (doubling): at the start of every turn, the
  features of :meth:`ExpertBot.stake_features` of expert's seat (its turn or
  the opponent's), labelled with how the hand ended for it: won or not
  (logistic fit) and the points it won or lost (least squares).

Run ``python -m gincli_builtin.expert_fit knock --hands 12000 --seed 41`` or
``python -m gincli_builtin.expert_fit stake --hands 8000 --seed 5``; they print
the coefficients to paste into expert.py. Play is reproducible by seed.
``master``'s knock model is fitted by the same ``knock`` command with its own
settings and features (``--features master``; the command is in master.py's
docstring), in chunks that give the same rows on any number of workers.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Callable, Sequence
from typing import Any

from gincli.hand.bots import Bot
from gincli.hand.engine import Hand, Move
from gincli.matches.runner import session_seed
from gincli.plugin.registry import load_registry
from gincli.rulebook.cards import cards_of
from gincli.rulebook.rng import SplitMix64
from gincli.sessions.table import play_hand, play_session

from .expert import ExpertBot, _Knowledge, feature

KNOCK_FEATURES = ("k", "stock", "ev", "outs", "e_kept", "nd", "last", "pu", "md")
#: master's knock model reads more: what the opponent took, and products of two
#: features ("a*b"), so that a feature's weight can change with the stock and the count.
MASTER_KNOCK_FEATURES = KNOCK_FEATURES + ("opp_took", "opp_held", "k*stock", "pu*stock", "k*pu", "outs*stock", "k*k",
                                          "ev*stock", "md*stock")
STAKE_FEATURES = ("dw", "e1", "stock", "to_act", "opp_took", "opp_held", "last", "le10", "le5",
                  "e1*stock")


def _value(hand: Hand, me: str) -> int:
    r = hand.result
    if r is None or r.winner is None:
        return 0
    return r.points if r.winner == me else -r.points


def play(hands: int, seed: int, opponent: str, watch: Callable[[Hand, dict[str, Bot]], None],
         bot: type[Bot] = ExpertBot) -> None:
    """Play ``hands`` hands of expert (seat "A") against ``opponent`` (seat "B"),
    seats alternating, calling ``watch(hand, bots)`` before every move."""
    registry = load_registry()
    variant = registry.variant("standard")
    system = registry.scoring("hand")
    rules = registry.rules(variant, system, {})
    for i in range(hands):
        s = session_seed(seed, i)
        seats = ("A", "B") if i % 2 == 0 else ("B", "A")
        bots = {"A": bot(SplitMix64(s).derive(1), "A"), "B": registry.bot(opponent)(SplitMix64(s).derive(2), "B")}

        def choose(hand: Hand, bots: dict[str, Bot] = bots) -> Move:
            watch(hand, bots)
            p = hand.to_act
            return bots[p].choose(hand.view(p))

        play_session(seats, variant, rules, system, choose, s, record=False)


def knock_rows(hands: int, seed: int, opponent: str = "simple",
               bot: type[ExpertBot] = ExpertBot) -> list[dict[str, float]]:
    """At each of expert's knock-able decisions (not gin): its knock features,
    ``vk`` (the points of knocking now) and ``vw`` (one playout of waiting);
    ``bot``, expert or a variant of it, plays the seat and the playouts."""
    rows: list[dict[str, float]] = []
    registry = load_registry()

    def watch(hand: Hand, bots: dict[str, Bot]) -> None:
        if hand.to_act != "A" or hand.phase != "discard":
            return
        view = hand.view("A")
        me = bots["A"]
        assert isinstance(me, ExpertBot)
        held = view.hand
        deadwood = view.melds.deadwood
        options = [(deadwood(held & ~(1 << c)), c, held & ~(1 << c)) for c in cards_of(held) if c != view.taken]
        least = min(o[0] for o in options)
        if not 0 < least <= view.knock_limit:
            return
        k = _Knowledge(view, me)
        card = me.knock_card(options, least, k)
        f = me.knock_features(view, held & ~(1 << card), least, k)
        if f is None:
            return
        knock = hand.rewound(len(hand.moves))
        knock.apply(Move("A", "knock", card=card))
        knock.record_spread()
        wait = hand.rewound(len(hand.moves))
        wait.apply(Move("A", "discard", card=me.discard_card(options, least, k)))
        n = len(hand.moves)
        rollout = {"A": bot(SplitMix64(seed ^ n).derive(len(rows) + 1), "A"),
                   "B": registry.bot(opponent)(SplitMix64(seed ^ n).derive(len(rows) + 2), "B")}
        play_hand(wait, lambda h: rollout[h.to_act].choose(h.view(h.to_act)))
        rows.append({**f, "vk": _value(knock, "A"), "vw": _value(wait, "A")})

    play(hands, seed, opponent, watch, bot)
    return rows


def _fitted_bot(settings: dict[str, float]) -> type[ExpertBot]:
    return type("Fitted", (ExpertBot,), dict(settings)) if settings else ExpertBot


def _knock_chunk(job: tuple[int, int, str, dict[str, float]]) -> list[dict[str, float]]:
    hands, seed, opponent, settings = job
    return knock_rows(hands, seed, opponent, _fitted_bot(settings))


def knock_rows_chunked(hands: int, seed: int, opponent: str, settings: dict[str, float], workers: int = 1,
                       chunk: int = 1000, progress: bool = False) -> list[dict[str, float]]:
    """:func:`knock_rows` in chunks of ``chunk`` hands, chunk ``i`` played with
    seed ``seed * 1000 + i`` (the rows are the same on any number of
    ``workers``); ``settings``, class constants of the fitted expert;
    ``progress``: a line on stderr as each chunk is done."""
    jobs = [(min(chunk, hands - i * chunk), seed * 1000 + i, opponent, settings)
            for i in range((hands + chunk - 1) // chunk)]
    rows: list[dict[str, float]] = []

    def done(i: int, chunk_rows: list[dict[str, float]]) -> None:
        rows.extend(chunk_rows)
        if progress:
            print(f"chunk {i + 1}/{len(jobs)}: {len(rows)} decisions", file=sys.stderr, flush=True)

    if workers <= 1:
        for i, job in enumerate(jobs):
            done(i, _knock_chunk(job))
        return rows
    from multiprocessing import get_context

    with get_context("spawn").Pool(workers) as pool:
        for i, chunk_rows in enumerate(pool.imap(_knock_chunk, jobs)):
            done(i, chunk_rows)
    return rows


def stake_rows(hands: int, seed: int, opponent: str = "simple") -> list[dict[str, float]]:
    """At the start of every turn, expert's stake features (its turn or the
    opponent's), with ``win`` (1 if expert won the hand) and ``points`` (what it
    won, negative when it lost; 0 for a dead hand)."""
    rows: list[dict[str, float]] = []
    pending: list[dict[str, float]] = []
    seen = [-1]

    def watch(hand: Hand, bots: dict[str, Bot]) -> None:
        if id(hand) != seen[0]:
            flush()
            seen[0] = id(hand)
            current[0] = hand
        if hand.phase not in ("offer", "draw"):
            return
        view = hand.view("A")
        me = bots["A"]
        assert isinstance(me, ExpertBot)
        pending.append(me.stake_features(view, _Knowledge(view, me), hand.to_act == "A"))

    current: list[Any] = [None]

    def flush() -> None:
        h = current[0]
        if h is not None and pending:
            v = _value(h, "A")
            for f in pending:
                rows.append({**f, "win": 1.0 if v > 0 else 0.0, "points": float(v)})
        pending.clear()

    play(hands, seed, opponent, watch)
    flush()
    return rows


# -- fits, in pure Python ----------------------------------------------------------------------------


def _solve(a: list[list[float]], b: list[float], tol: float = 1e-12) -> list[float]:
    """Solve ``a x = b`` (Gaussian elimination with partial pivoting); an
    unknown whose pivot is below ``tol`` depends on the others and is 0."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for col in range(n):
        piv = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[piv] = m[piv], m[col]
        p = m[col][col]
        if abs(p) < tol:
            continue
        for r in range(n):
            if r != col:
                f = m[r][col] / p
                if f:
                    for c in range(col, n + 1):
                        m[r][c] -= f * m[col][c]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= tol else 0.0 for i in range(n)]


def _design(rows: Sequence[dict[str, float]], names: Sequence[str]) -> list[list[float]]:
    return [[1.0] + [float(feature(r, n)) for n in names] for r in rows]


def fit_linear(rows: Sequence[dict[str, float]], names: Sequence[str], target: Callable[[dict[str, float]], float],
               ridge: float = 0.0) -> dict[str, float]:
    """Least squares: the coefficients (``"1"`` the intercept) of ``target``.

    The same coefficients, to the last bit, whatever the order of ``rows``:
    every sum is :func:`math.fsum`'s (correctly rounded, so independent of the
    order its terms come in), and the normal equations are those of the
    features standardised (centred on their means, scaled to unit variance), so
    that products of features, whose raw normal equations are ill-conditioned,
    leave the solve accurate (no digit printed depends on rounding).
    A feature that the others make exactly (a sum of them, or one that never
    varies) gets weight 0, the same predictions. ``ridge`` is added to the
    standardised equations' diagonal (none by default)."""
    x = [[float(feature(r, n)) for n in names] for r in rows]
    y = [float(target(r)) for r in rows]
    count = len(rows)
    columns = list(zip(*x, strict=True)) if x else [() for _ in names]
    means = [math.fsum(col) / count for col in columns]
    scales = [math.sqrt(math.fsum((v - m) ** 2 for v in col) / count) or 1.0
              for col, m in zip(columns, means, strict=True)]
    z = [[(v - m) / s for v in col] for col, m, s in zip(columns, means, scales, strict=True)]
    y_mean = math.fsum(y) / count
    yc = [t - y_mean for t in y]
    k = len(names)
    ztz = [[0.0] * k for _ in range(k)]
    for i in range(k):
        for j in range(i, k):
            ztz[i][j] = ztz[j][i] = math.fsum(a * b for a, b in zip(z[i], z[j], strict=True)) + (
                ridge if i == j else 0.0)
    zty = [math.fsum(a * t for a, t in zip(col, yc, strict=True)) for col in z]
    # a standardised column's own sum of squares is the count: a pivot a billionth of it is a feature that
    # the others make (master's ev is md - k - 25 pu, row for row), weighted 0
    beta = _solve(ztz, zty, 1e-9 * count)
    weights = [b / s for b, s in zip(beta, scales, strict=True)]
    intercept = y_mean - math.fsum(w * m for w, m in zip(weights, means, strict=True))
    return dict(zip(("1",) + tuple(names), [intercept, *weights], strict=True))


def fit_logistic(rows: Sequence[dict[str, float]], names: Sequence[str], target: Callable[[dict[str, float]], float],
                 iterations: int = 12, ridge: float = 1e-4) -> dict[str, float]:
    """Logistic regression by Newton's method: P(target = 1) = 1 / (1 + e^-(w.x))."""
    x = _design(rows, names)
    y = [target(r) for r in rows]
    n = len(names) + 1
    w = [0.0] * n
    for _ in range(iterations):
        h = [[ridge if i == j else 0.0 for j in range(n)] for i in range(n)]
        g = [-ridge * w[i] for i in range(n)]
        for row, t in zip(x, y, strict=True):
            z = sum(wi * xi for wi, xi in zip(w, row, strict=True))
            p = 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))
            d = t - p
            s = p * (1.0 - p)
            for i in range(n):
                g[i] += d * row[i]
                ri = s * row[i]
                hi = h[i]
                for j in range(i, n):
                    hi[j] += ri * row[j]
        for i in range(n):
            for j in range(i):
                h[i][j] = h[j][i]
        step = _solve(h, g)
        w = [wi + si for wi, si in zip(w, step, strict=True)]
        if max(abs(si) for si in step) < 1e-6:
            break
    return dict(zip(("1",) + tuple(names), w, strict=True))


def _rounded(model: dict[str, float]) -> str:
    return "{" + ", ".join(f'"{k}": {v:.4g}' for k, v in model.items()) + "}"


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("model", choices=("knock", "stake"))
    ap.add_argument("--hands", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--opponent", action="append", help="opponent bots (default: simple, and expert for stake)")
    ap.add_argument("--no-knock", type=int, default=None,
                    help="knock: the tries of the fitted seat's opponent-hand draws to find one that could not have "
                         "knocked (expert's NO_KNOCK; 1: the hands as drawn, as master reads them)")
    ap.add_argument("--danger", type=float, default=None, help="knock: the fitted seat's DANGER (master: 0.5)")
    ap.add_argument("--take-margin", type=float, default=None,
                    help="knock: the fitted seat's TAKE_MARGIN (master: 1)")
    ap.add_argument("--features", choices=("expert", "master"), default="expert",
                    help="knock: the features of the model (master: more, with products)")
    ap.add_argument("--chunk", type=int, default=None,
                    help="knock: play in chunks of this many hands, chunk i seeded seed*1000+i (the same rows on any "
                         "number of workers); default: one run of --hands seeded --seed")
    ap.add_argument("--workers", type=int, default=1, help="knock, with --chunk: processes")
    ap.add_argument("--save-rows", metavar="PATH", help="knock: write the decisions played to PATH (JSON lines)")
    ap.add_argument("--rows", metavar="PATH",
                    help="knock: fit the decisions of PATH (as --save-rows wrote them) instead of playing")
    a = ap.parse_args(argv)
    if a.hands < 1 or (a.chunk is not None and a.chunk < 1) or a.workers < 1:
        ap.error("--hands, --chunk and --workers must be at least 1")
    if a.workers > 1 and not a.chunk:
        ap.error("--workers needs --chunk (the hands are shared among the workers in chunks)")
    if a.model == "knock":
        opponents = a.opponent or ["simple"]
        settings = {name: value for name, value in (("NO_KNOCK", a.no_knock), ("DANGER", a.danger),
                                                    ("TAKE_MARGIN", a.take_margin)) if value is not None}
        if a.rows:
            with open(a.rows, encoding="utf-8") as f:
                rows = [json.loads(line) for line in f]
        elif a.chunk:
            rows = [r for o in opponents
                    for r in knock_rows_chunked(a.hands, a.seed, o, settings, a.workers, a.chunk, progress=True)]
        else:
            rows = [r for o in opponents for r in knock_rows(a.hands, a.seed, o, _fitted_bot(settings))]
        if a.save_rows:
            with open(a.save_rows, "w", encoding="utf-8") as f:
                f.writelines(json.dumps(r, sort_keys=True) + "\n" for r in rows)
        names = MASTER_KNOCK_FEATURES if a.features == "master" else KNOCK_FEATURES
        model = fit_linear(rows, names, lambda r: r["vw"] - r["vk"])
        print(f"{len(rows)} knock-able decisions; KNOCK_MODEL = {_rounded(model)}")
    else:
        opponents = a.opponent or ["simple", "expert"]
        rows = [r for o in opponents for r in stake_rows(a.hands, a.seed, o)]
        win = fit_logistic(rows, STAKE_FEATURES, lambda r: r["win"])
        points = fit_linear(rows, STAKE_FEATURES, lambda r: r["points"])
        print(f"{len(rows)} turn starts; STAKE_WIN = {_rounded(win)}")
        print(f"STAKE_POINTS = {_rounded(points)}")


if __name__ == "__main__":
    main(sys.argv[1:])
