"""Match statistics a researcher can publish: the win rate with its 95%
interval, the Elo difference with its error bar, normalised Elo, the
likelihood of superiority, the generalized sequential probability ratio test
(GSPRT) chess engine testers use to stop a match once it has decided, and
Bradley-Terry ratings of a tournament's players.

Scores are per unit (a game, or a hand when a match counts hands): 1 for a
win, 0 for a loss, 1/2 for a draw (a dead hand, a tied session). With
duplicate deals the two sessions of a deal are averaged into one sample, so
that the interval accounts for the deals' shared luck.

Every formula, its assumptions, a worked example and its counterpart in
fishtest, fastchess, cutechess and Ordo are in docs/statistics.md. Pure Python
(``math`` only): the module imports without numpy or scipy.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..base.errors import quote

Z95 = 1.959963984540054


def elo_from_score(score: float) -> float:
    """The Elo difference that gives this expected score (logistic, 400 points)."""
    score = min(max(score, 1e-9), 1 - 1e-9)
    return -400.0 * math.log10(1.0 / score - 1.0)


def score_from_elo(elo: float) -> float:
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


@dataclass
class Estimate:
    """Mean score of a player over samples, with its 95% interval."""

    n: int
    mean: float
    low: float
    high: float
    variance: float

    @classmethod
    def of(cls, samples: Sequence[float]) -> Estimate:
        """The Wilson score interval, on an effective sample size that accounts for
        draws and paired deals: ``n * p(1 - p) / variance`` (``n`` when the
        samples do not vary), so it stays sensible at 0% and 100%."""
        n = len(samples)
        if n == 0:
            return cls(0, 0.5, 0.0, 1.0, 0.25)
        mean = sum(samples) / n
        var = sum((x - mean) ** 2 for x in samples) / (n - 1) if n > 1 else 0.0
        return cls.wilson(n, mean, var)

    @classmethod
    def wilson(cls, n: int, mean: float, var: float) -> Estimate:
        """The estimate of :meth:`of` from ``n`` samples' mean and variance (``n >= 1``)."""
        binomial = mean * (1 - mean)
        n_eff = effective_size(n, mean, var)
        z2 = Z95 * Z95
        centre = (mean + z2 / (2 * n_eff)) / (1 + z2 / n_eff)
        half = Z95 * math.sqrt(binomial / n_eff + z2 / (4 * n_eff * n_eff)) / (1 + z2 / n_eff)
        return cls(n, mean, max(0.0, centre - half), min(1.0, centre + half), var)

    @property
    def effective(self) -> float:
        """The effective sample size the interval is drawn on (:func:`effective_size`)."""
        return effective_size(self.n, self.mean, self.variance)

    def elo(self) -> dict[str, float | None]:
        """Elo difference with its 95% interval and error bar (half its width).
        Where a score is 0 or 1 the Elo is infinite: that value is ``None``
        (unbounded), so an estimate always lies inside its own interval: all
        wins give ``diff`` and ``high`` ``None`` and a finite ``low``."""
        d, lo, hi = _elo_or_none(self.mean), _elo_or_none(self.low), _elo_or_none(self.high)
        error = round((hi - lo) / 2, 1) + 0.0 if hi is not None and lo is not None else None
        return {"diff": d, "low": lo, "high": hi, "error": error}


def rounded(value: float | None, digits: int = 1) -> float | None:
    """``value`` to ``digits`` decimals, never -0.0 (JSON and the text say 0); None stays None."""
    return None if value is None else round(value, digits) + 0.0


def effective_size(n: int, mean: float, var: float) -> float:
    """How many independent games (wins and losses) ``n`` samples of this
    mean and variance are worth: ``n * mean (1 - mean) / var``, ``n`` where
    either is 0. Draws and duplicate pairs vary less than a game: they are
    worth more; pairs whose two games go the same way, less."""
    binomial = mean * (1 - mean)
    return n * binomial / var if var > 0 and binomial > 0 else float(n)


def _elo_or_none(score: float) -> float | None:
    """The Elo of a score to 0.1 (never -0.0); ``None`` where it is infinite."""
    if not 1e-9 < score < 1.0 - 1e-9:  # (a Wilson bound at 0 or 1 may miss it by a rounding error)
        return None
    value = elo_from_score(score)
    return round(value, 1) + 0.0 if math.isfinite(value) else None


@dataclass
class Running:
    """Samples added one at a time: their count, sum and squared deviations from
    the mean (Welford's update), and how many samples had each score value, so
    that the statistics after every sample of a match take linear time in all
    (the SPRT's exact likelihood ratio needs only the counts: a few distinct
    values, whatever the number of samples)."""

    n: int = 0
    total: float = 0.0
    _mean: float = 0.0
    m2: float = 0.0  # the sum of squared deviations from the mean
    #: How many samples had each score value, in the order the values first came.
    counts: dict[float, int] = field(default_factory=dict)

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        delta = x - self._mean
        self._mean += delta / self.n
        self.m2 += delta * (x - self._mean)
        self.counts[x] = self.counts.get(x, 0) + 1

    def estimate(self) -> Estimate:
        """:meth:`Estimate.of` the samples so far (equal up to rounding)."""
        if self.n == 0:
            return Estimate.of(())
        return Estimate.wilson(self.n, self.total / self.n, self.m2 / (self.n - 1) if self.n > 1 else 0.0)


#: Samples: the scores themselves, or a :class:`Running` that has counted them.
Samples = Sequence[float] | Running


def score_counts(samples: Samples) -> dict[float, int]:
    """How many samples had each score value, in the order the values first came."""
    if isinstance(samples, Running):
        return dict(samples.counts)
    return dict(Counter(samples))  # (counted in C, in the order of first appearance)


def _counts(samples: Samples) -> Mapping[float, int]:
    return samples.counts if isinstance(samples, Running) else Counter(samples)


# The generalized SPRT ------------------------------------------------------------------------------------------


def _multiplier(counts: Mapping[float, float], s: float) -> tuple[float, list[tuple[float, float]]]:
    """The Lagrange multiplier ``x`` of the most likely distribution on [0, 1]
    with mean ``s`` (``0 < s < 1``), given the counts of the observed values,
    and the terms ``(value - s, count)`` of the counts that are not zero.

    The most likely distribution gives an observed value ``a`` (a share ``q``
    of the samples) the probability ``q / (1 + x (a - s))`` (Van den Bergh,
    Proposition 1.1), where ``x`` maximises the concave
    ``h(x) = sum q log(1 + x (a - s))`` over the ``x`` that keep every value of
    [0, 1] at a probability of at least zero: ``-1/(1-s) <= x <= 1/s``. Inside
    that range ``x`` solves ``h'(x) = sum q (a - s) / (1 + x (a - s)) = 0``
    (found by Newton's method, kept inside a shrinking bracket by bisection);
    where ``h`` still rises at an end of the range (possible only where 0 or 1
    was never observed) ``x`` is that end, and the mass the observed values
    leave goes to the unobserved score 0 (``x = 1/s``) or 1 (``x = -1/(1-s)``).
    """
    terms = []
    has_zero = has_one = False
    for a, n in counts.items():
        if not 0.0 <= a <= 1.0:  # NaN too
            raise ValueError(f"a score is a number from 0 to 1, not {a!r}")
        if not 0.0 <= n < math.inf:
            raise ValueError(f"a count is a number of samples, at least 0, not {n!r}")
        if n > 0:
            terms.append((a - s, n))
            has_zero = has_zero or a == 0.0
            has_one = has_one or a == 1.0
    if not terms:
        return 0.0, terms
    lo, hi = -1.0 / (1.0 - s), 1.0 / s
    # h'(hi) = s * sum n (a - s) / a is finite where no score 0 was seen; h'(lo) likewise without a 1.
    if not has_zero and sum(n * u / (u + s) for u, n in terms) >= 0.0:
        return hi, terms
    if not has_one and sum(n * u / (1.0 - s - u) for u, n in terms) <= 0.0:
        return lo, terms
    left, right, x = lo, hi, 0.0
    for _ in range(200):
        g = dg = 0.0
        for u, n in terms:
            t = u / (1.0 + x * u)
            g += n * t
            dg -= n * t * t
        if g == 0.0 or dg == 0.0:  # the root itself (dg is 0 only where every value is s)
            break
        if g > 0.0:
            left = x
        else:
            right = x
        new = x - g / dg
        if not left < new < right:
            new = 0.5 * (left + right)
        step, x = new - x, new
        if abs(step) <= 1e-15 * max(1.0, abs(x)):
            break
    return x, terms


def _deficit(counts: Mapping[float, float], s: float) -> float:
    """How much more log-likelihood the observed distribution of the samples
    has than the most likely distribution on [0, 1] with mean ``s``:
    ``sum n log(1 + x (a - s))`` at :func:`_multiplier`'s ``x``."""
    x, terms = _multiplier(counts, s)
    return sum(n * math.log1p(x * u) for u, n in terms) if x else 0.0


def constrained_mle(counts: Mapping[float, float], s: float) -> dict[float, float]:
    """The maximum-likelihood distribution over [0, 1] with mean ``s``
    (``0 < s < 1``), given how many samples had each value: the probability of
    each observed value, and of 0 or 1 when it was not observed but the most
    likely distribution gives it some (see :func:`_multiplier`)."""
    if not 0.0 < s < 1.0:
        raise ValueError(f"the expected score is a number between 0 and 1, not {s!r}")
    x, _ = _multiplier(counts, s)
    total = sum(n for n in counts.values() if n > 0)
    probs = {a: n / total / (1.0 + x * (a - s)) for a, n in counts.items() if n > 0}
    rest = 1.0 - sum(probs.values())
    if x == 1.0 / s and 0.0 not in probs and rest > 0.0:
        probs[0.0] = rest
    elif x == -1.0 / (1.0 - s) and 1.0 not in probs and rest > 0.0:
        probs[1.0] = rest
    return probs


@dataclass
class Sprt:
    """The generalized sequential probability ratio test (GSPRT) of the first
    player's expected score, as fishtest's ``LLR_logistic`` computes it: H0 says
    the first player is ``elo0`` stronger, H1 ``elo1`` (logistic Elo), with
    false-positive rate ``alpha`` and false-negative rate ``beta``.

    Each sample is a score in [0, 1] (0/1 a game, 1/2 a draw or a dead hand;
    a duplicate pair's mean: 0, 1/4, 1/2, ...). For each hypothesis, with
    expected score ``s = 1 / (1 + 10**(-elo / 400))``, the likelihood is that
    of the most likely distribution of scores with mean ``s`` (exact, no normal
    approximation: :func:`constrained_mle`); the log-likelihood ratio (LLR) is
    the sum over the samples of ``log(p1 / p0)``. The test accepts H1 once the
    LLR reaches ``log((1 - beta) / alpha)`` and H0 once it falls to
    ``log(beta / (1 - alpha))``.

    No prior, no pseudo-counts: the distributions are over every score from 0
    to 1, of which the samples show some. Where they show both 0 and 1 (or the
    hypotheses' scores lie between their lowest and highest value), the most
    likely distributions are those over the observed values, fishtest's; where
    a hypothesis' score lies beyond what was observed (all wins, all draws, no
    losses yet), the most likely distribution puts the missing mass on the
    unobserved extreme, 0 or 1. So a run of ``N`` wins gives exactly
    ``N log(s1 / s0)``, and ``N`` draws ``N log((1 - s1) / (1 - s0))`` when
    ``1/2 <= s0 < s1``: evidence that accrues, never a division by zero or an
    infinite ratio. No samples give 0. (fishtest and fastchess instead give a
    zero count of their three or five result kinds 0.001 games; with every kind
    observed the two agree exactly, and otherwise differ by about that much.)
    """

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        for name, value in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < value < 1.0:  # NaN too
                raise ValueError(f"the SPRT's {name} is a probability between 0 and 1, not {value!r}")
        for elo in (self.elo0, self.elo1):
            if not 0.0 < score_from_elo(elo) < 1.0:
                raise ValueError(f"the SPRT's Elo differences give scores strictly between 0 and 1, not {elo!r}")

    @property
    def scores(self) -> tuple[float, float]:
        """The expected scores of H0 and H1."""
        return score_from_elo(self.elo0), score_from_elo(self.elo1)

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr_counts(self, counts: Mapping[float, float]) -> float:
        """The log-likelihood ratio of H1 to H0 of samples given by how many had
        each score value (``{0.0: losses, 0.5: draws, 1.0: wins}``, a
        pentanomial ``{0.0: LL, 0.25: LD, 0.5: WL + DD, 0.75: WD, 1.0: WW}``);
        O(number of values)."""
        s0, s1 = self.scores
        return _deficit(counts, s0) - _deficit(counts, s1) + 0.0

    def llr(self, samples: Samples) -> float:
        """The log-likelihood ratio of H1 to H0 of the samples."""
        return self.llr_counts(_counts(samples))

    def llr_running(self, r: Running) -> float:
        """:meth:`llr` of the samples added to ``r`` (the very same number), in
        time proportional to the number of distinct score values."""
        return self.llr_counts(r.counts)

    def status(self, samples: Samples) -> dict[str, Any]:
        llr = self.llr(samples)
        lower, upper = self.bounds
        result = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "llr": round(llr, 3) + 0.0, "lower": round(lower, 3), "upper": round(upper, 3), "result": result}

    def decided(self, samples: Samples) -> bool:
        return self.status(samples)["result"] != "continue"


def parse_sprt(value: str | Sequence[float], name: str = "--sprt") -> Sprt:
    """``elo0,elo1[,alpha,beta]`` from ``--sprt``, or the same numbers in a
    list or tuple (the Python API's ``sprt=(0, 20)``), alpha and beta 0.05
    unless given; ``ValueError`` when malformed, its sentence naming the
    argument as ``name``."""
    if isinstance(value, str):
        parts: list[Any] = value.split(",")
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    else:
        parts = []
    if len(parts) not in (2, 4):
        raise ValueError(f"{name} takes elo0,elo1 or elo0,elo1,alpha,beta (for example 0,20 or 0,50,0.01,0.01), "
                         f"not {quote(value)}")
    try:
        numbers = [_sprt_number(p) for p in parts]
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{name} takes numbers, elo0,elo1 or elo0,elo1,alpha,beta, not {quote(value)}") from None
    e0, e1 = numbers[:2]
    for e in (e0, e1):
        if not -MAX_SPRT_ELO <= e <= MAX_SPRT_ELO:  # NaN too
            raise ValueError(f"{name} takes Elo differences from -{MAX_SPRT_ELO:g} to {MAX_SPRT_ELO:g}, not "
                             f"{quote(value)}")
    if e0 >= e1:
        raise ValueError(f"{name} needs elo0 < elo1")
    alpha, beta = numbers[2:] or (0.05, 0.05)
    for p in (alpha, beta):
        if not 0.0 < p < 0.5:  # NaN too
            raise ValueError(f"{name} takes alpha and beta between 0 and 0.5 (for example 0.05), not {quote(value)}")
    return Sprt(e0, e1, alpha, beta)


def _sprt_number(part: Any) -> float:
    """One number of an SPRT: text (``--sprt``'s) or a number, never a bool."""
    if isinstance(part, bool) or not isinstance(part, (str, int, float)):
        raise TypeError(part)
    return float(part)


#: The largest Elo difference an SPRT bound may be: past it a score is within a
#: few thousandths of 0 or 1, and the test's arithmetic loses its meaning.
MAX_SPRT_ELO = 1000.0


# Likelihood of superiority, normalised Elo, counts ------------------------------------------------------------

#: Normalised Elo per unit of t-value (fastchess, fishtest): 800 / ln 10.
NELO_PER_T = 800.0 / math.log(10.0)


def los(wins: float, losses: float) -> float:
    """The likelihood of superiority (cutechess, fastchess): the probability
    that the first player is the stronger, ``0.5 (1 + erf((W - L) / sqrt(2 (W
    + L))))``, from the decisive results alone (draws tell nothing of who is
    stronger); 0.5 without any. Under duplicate deals pass the pairs won
    (scoring over 1/2) and lost (under 1/2)."""
    if wins < 0 or losses < 0:
        raise ValueError(f"wins and losses are counts, at least 0, not {wins!r} and {losses!r}")
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def normalized_elo(samples: Samples, *, pairs: bool = False) -> dict[str, float | None]:
    """Normalised Elo (fastchess's nElo) with its 95% interval: the score's
    distance from 1/2 in standard deviations, ``(mean - 1/2) / sd * 800 / ln
    10``, where ``sd`` is the standard deviation of a game's score (the
    population one, dividing by ``n``); with ``pairs`` each sample is a pair of
    games (a duplicate deal, fastchess's pentanomial) and ``sd`` is
    ``sqrt(2)`` times the pair's, a game's share. The interval is that of the
    mean score, ``mean +- 1.96 sd_pair / sqrt(n)``, so its half width
    (``error``) is ``1.96 * 800 / ln 10 / sqrt(n)`` (``sqrt(2 n)`` for pairs).
    All ``None`` below two samples or when they do not vary (the normalised
    Elo of a constant score is undefined)."""
    counts = _counts(samples)
    n = sum(counts.values())
    none: dict[str, float | None] = {"nelo": None, "low": None, "high": None, "error": None}
    if n < 2:
        return none
    mean = sum(a * k for a, k in counts.items()) / n
    var = sum(k * (a - mean) ** 2 for a, k in counts.items()) / n
    if var <= 0.0:
        return none
    sd = math.sqrt(2.0 * var if pairs else var)
    games = 2 * n if pairs else n
    nelo = (mean - 0.5) / sd * NELO_PER_T
    error = Z95 * NELO_PER_T / math.sqrt(games)
    return {"nelo": nelo, "low": nelo - error, "high": nelo + error, "error": error}


def wdl(samples: Samples) -> dict[str, int]:
    """Games (or hands) won, drawn and lost: the samples of score 1, 1/2 and 0;
    ``other`` counts any other score (a duplicate pair's mean, say)."""
    counts = _counts(samples)
    wins, draws, losses = counts.get(1.0, 0), counts.get(0.5, 0), counts.get(0.0, 0)
    return {"wins": wins, "draws": draws, "losses": losses, "other": sum(counts.values()) - wins - draws - losses}


def pair_counts(samples: Samples) -> dict[str, int]:
    """Duplicate pairs won both (score 1), split (1/2: one won, one lost, or two
    draws) and lost both (0); ``other`` counts any other score (a win and a
    draw: 3/4, a pair of hands' mean)."""
    c = wdl(samples)
    return {"won_both": c["wins"], "split": c["draws"], "lost_both": c["losses"], "other": c["other"]}


def duplicate_gain(pairs: Sequence[tuple[float, float]]) -> dict[str, float | None]:
    """What duplicate deals gained, from the first player's score in each
    session of each pair: the ``correlation`` of the two sessions' scores
    (Pearson's, over the pairs) and the ``effective`` number of games (or
    hands) the pairs are worth, ``pairs * var_unit / var_pair`` (``var_unit``
    the variance of a session's score, ``var_pair`` of a pair's mean, both
    divided by ``n - 1``): the number of independent games whose mean would
    vary as little, ``2 pairs / (1 + correlation)`` where both sessions vary
    alike. Either is ``None`` below two pairs or where what it divides by is 0."""
    n = len(pairs)
    none: dict[str, float | None] = {"correlation": None, "effective": None}
    if n < 2:
        return none
    firsts = [a for a, _ in pairs]
    seconds = [b for _, b in pairs]
    m1, m2 = sum(firsts) / n, sum(seconds) / n
    cov = sum((a - m1) * (b - m2) for a, b in pairs)
    v1 = sum((a - m1) ** 2 for a in firsts)
    v2 = sum((b - m2) ** 2 for b in seconds)
    units = firsts + seconds
    mean = sum(units) / (2 * n)
    var_unit = sum((x - mean) ** 2 for x in units) / (2 * n - 1)
    means = [(a + b) / 2 for a, b in pairs]
    var_pair = sum((x - mean) ** 2 for x in means) / (n - 1)
    return {"correlation": cov / math.sqrt(v1 * v2) if v1 > 0 and v2 > 0 else None,
            "effective": n * var_unit / var_pair if var_pair > 0 else None}


def pentanomial(samples: Samples) -> list[int]:
    """The counts of pair scores 0, 1/4, 1/2, 3/4, 1, in fishtest's order (LL,
    LD, WL + DD, WD, WW); ``ValueError`` for any other score."""
    counts = _counts(samples)
    out = [0] * 5
    for a, k in counts.items():
        i = a * 4
        if not (i == int(i) and 0 <= i <= 4):  # NaN fails too
            raise ValueError(f"a pentanomial has pair scores 0, 1/4, 1/2, 3/4 and 1, not {a!r}")
        out[int(i)] += k
    return out


# Bradley-Terry ratings --------------------------------------------------------------------------------------------

#: Logistic Elo per natural unit of the Bradley-Terry strength: 400 / ln 10.
ELO_PER_NAT = 400.0 / math.log(10.0)


@dataclass
class Rating:
    """A player's Bradley-Terry rating with its 95% interval and error (half the
    interval's width). ``elo`` is ``None`` where the likelihood has no finite
    maximum for the player: ``bound`` then says where it goes, ``math.inf``
    (it is above the players rated: it scored all it could against them, or
    against players who did) or ``-math.inf``, and is ``None`` where not even
    that is determined (it played none of the players rated, or only players
    themselves unbounded)."""

    name: str
    elo: float | None
    low: float | None
    high: float | None
    error: float | None
    bound: float | None
    games: float
    points: float

    def to_json(self) -> dict[str, Any]:
        """The rating as JSON holds it: a bound as ``"+inf"`` or ``"-inf"``."""
        bound = None if self.bound is None else "+inf" if self.bound > 0 else "-inf"
        return {"name": self.name, "elo": self.elo, "low": self.low, "high": self.high, "error": self.error,
                "bound": bound, "games": self.games, "points": self.points}


def _log_sigmoid(d: float) -> float:
    return -math.log1p(math.exp(-d)) if d >= 0 else d - math.log1p(math.exp(d))


def _sigmoid(d: float) -> float:
    if d >= 0:
        return 1.0 / (1.0 + math.exp(-d))
    e = math.exp(d)
    return e / (1.0 + e)


def _solve(matrix: list[list[float]], vector: list[float]) -> list[float]:
    """``matrix⁻¹ vector`` by Gaussian elimination with partial pivoting."""
    k = len(vector)
    a = [row[:] + [vector[i]] for i, row in enumerate(matrix)]
    for col in range(k):
        pivot = max(range(col, k), key=lambda r: abs(a[r][col]))
        a[col], a[pivot] = a[pivot], a[col]
        p = a[col][col]
        for r in range(col + 1, k):
            f = a[r][col] / p
            if f:
                row, top = a[r], a[col]
                for c in range(col, k + 1):
                    row[c] -= f * top[c]
    out = [0.0] * k
    for r in range(k - 1, -1, -1):
        out[r] = (a[r][k] - sum(a[r][c] * out[c] for c in range(r + 1, k))) / a[r][r]
    return out


def _inverse(matrix: list[list[float]]) -> list[list[float]]:
    k = len(matrix)
    columns = [_solve(matrix, [1.0 if i == j else 0.0 for i in range(k)]) for j in range(k)]
    return [[columns[j][i] for j in range(k)] for i in range(k)]


def _games_of(results: Iterable[Sequence[Any]]) -> tuple[list[str], dict[tuple[int, int], list[float]]]:
    """The players in order of first appearance, and for each pair ``(i, j)``
    (``i < j``) the games between them and ``i``'s points."""
    index: dict[str, int] = {}
    names: list[str] = []
    pairs: dict[tuple[int, int], list[float]] = {}
    for row in results:
        row = tuple(row)
        if len(row) == 3:
            a, b, score = row
            games, points = 1.0, score
            if isinstance(score, bool) or not isinstance(score, (int, float)) or not 0.0 <= score <= 1.0:
                raise ValueError(f"a game's score is a number from 0 to 1, not {score!r}")
        elif len(row) == 5:
            a, b, wins, losses, draws = row
            for v in (wins, losses, draws):
                if isinstance(v, bool) or not isinstance(v, (int, float)) or not 0.0 <= v < math.inf:
                    raise ValueError(f"wins, losses and draws are counts, at least 0, not {v!r}")
            games, points = float(wins + losses + draws), wins + draws / 2.0
        else:
            raise ValueError(f"a result is (a, b, score_of_a) or (a, b, wins_a, wins_b, draws), not {row!r}")
        if a == b:
            raise ValueError(f"a game is between two players, not {a!r} against itself")
        for name in (a, b):
            if name not in index:
                index[name] = len(names)
                names.append(name)
        i, j = index[a], index[b]
        key, mine = ((i, j), points) if i < j else ((j, i), games - points)
        entry = pairs.setdefault(key, [0.0, 0.0])
        entry[0] += games
        entry[1] += mine
    return names, pairs


def _reach(k: int, edges: list[list[int]]) -> list[set[int]]:
    out = []
    for start in range(k):
        seen, todo = {start}, [start]
        while todo:
            for nxt in edges[todo.pop()]:
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        out.append(seen)
    return out


def _fit(members: list[int], pairs: dict[tuple[int, int], list[float]], fixed: int,
         worth: Mapping[tuple[int, int], float]) -> tuple[list[float], list[list[float]]]:
    """The maximum-likelihood strengths (natural units) of ``members``, the
    ``fixed``-th of them at 0, from their games among themselves, and the
    Fisher information there (a weighted Laplacian), each pairing's games
    counted as ``worth`` of them (where given: what its games are worth in
    independent ones). Newton's method with a step halved until the
    likelihood rises: the log-likelihood is concave and, the members being
    strongly connected, has one maximum."""
    k = len(members)
    local = {p: i for i, p in enumerate(members)}
    games = [(local[i], local[j], n, s) for (i, j), (n, s) in pairs.items() if i in local and j in local and n > 0]

    def loglik(theta: list[float]) -> float:
        return sum(s * _log_sigmoid(theta[i] - theta[j]) + (n - s) * _log_sigmoid(theta[j] - theta[i])
                   for i, j, n, s in games)

    def info(theta: list[float], counted: Mapping[tuple[int, int], float] | None = None
             ) -> tuple[list[float], list[list[float]]]:
        grad = [0.0] * k
        lap = [[0.0] * k for _ in range(k)]
        for i, j, n, s in games:
            p = _sigmoid(theta[i] - theta[j])
            g = s - n * p
            grad[i] += g
            grad[j] -= g
            w = (counted or {}).get((members[i], members[j]), n) * p * (1.0 - p)
            lap[i][i] += w
            lap[j][j] += w
            lap[i][j] -= w
            lap[j][i] -= w
        return grad, lap

    theta = [0.0] * k
    free = [i for i in range(k) if i != fixed]
    current = loglik(theta)
    for _ in range(500):
        if not free:
            break
        grad, lap = info(theta)
        step = _solve([[lap[r][c] for c in free] for r in free], [grad[r] for r in free])
        t = 1.0
        while True:
            trial = theta[:]
            for r, d in zip(free, step, strict=True):
                trial[r] += t * d
            value = loglik(trial)
            if value >= current or t < 1e-12:
                break
            t /= 2.0
        theta, current = trial, value
        if max(abs(t * d) for d in step) < 1e-12:
            break
    return theta, info(theta, worth)[1]


def bradley_terry(results: Iterable[Sequence[Any]], *, anchor: str | None = None, anchor_elo: float = 0.0,
                  effective: Mapping[tuple[str, str], float] | None = None) -> dict[str, Rating]:
    """Each player's maximum-likelihood Bradley-Terry rating (logistic Elo,
    400 log10 scale: a player ``D`` stronger scores ``1 / (1 + 10**(-D/400))``
    on average) with its 95% interval, from ``results``: ``(a, b, score_of_a)``
    a game (score 1, 1/2, 0, or any number between), or ``(a, b, wins_a,
    wins_b, draws)`` a pairing's totals. A draw counts half a win for each side
    (the likelihood is ``p**score (1 - p)**(1 - score)`` a game, as Ordo's).

    The ratings have mean 0 over the players rated, or with ``anchor`` that
    player is fixed at ``anchor_elo`` (its interval then has width 0, the
    others' are relative to it). The intervals are ``elo +- 1.96 sd``, with
    ``sd`` from the inverse of the Fisher information at the maximum (its
    pseudo-inverse, for the mean-0 constraint). Each game counts as an
    independent one, unless ``effective`` says what a pairing's games are
    worth, ``{(a, b): games}``: under duplicate deals the pairs, not the
    games, are independent, and a pairing's games are worth the effective
    number of games of its pair scores (:func:`effective_size`, as a match's
    interval counts them). The ratings themselves do not change.

    Where a set of players scored all it could against the others (or nothing),
    the likelihood grows without bound as the gap widens: such players are
    unbounded, ``elo`` ``None`` and ``bound`` ``+inf`` or ``-inf``, never a
    number an iteration stopped at. Precisely: the players rated are a strongly
    connected component of the graph "scored at least something against"
    (there the maximum is finite and unique): the anchor's, else the largest of
    two or more players (the earliest player's on a tie); the others are above
    (+inf: they reach it through wins), below (-inf) or undetermined (``bound``
    ``None``). Where no component has two players and no anchor is given,
    nobody is rated: a player who won every game has bound +inf, one who lost
    every game -inf. Games between a rated and an unrated player do not change
    the ratings (in the limit they are certain). Deterministic.

    Returned in order of first appearance; ``ValueError`` for a malformed
    result or an anchor who played no game."""
    names, pairs = _games_of(results)
    k = len(names)
    if anchor is not None and anchor not in names:
        raise ValueError(f"the anchor {anchor!r} played no game")
    if not math.isfinite(anchor_elo):
        raise ValueError(f"the anchor's rating is a finite number, not {anchor_elo!r}")
    games = [0.0] * k
    points = [0.0] * k
    scored: list[list[int]] = [[] for _ in range(k)]  # i -> j: i scored something against j
    for (i, j), (n, s) in pairs.items():
        games[i] += n
        games[j] += n
        points[i] += s
        points[j] += n - s
        if n > 0 and s > 0:
            scored[i].append(j)
        if n > 0 and n - s > 0:
            scored[j].append(i)
    reach = _reach(k, scored)
    component = [sorted(p for p in reach[i] if i in reach[p]) for i in range(k)]
    if anchor is not None:
        rated = component[names.index(anchor)]
    else:
        candidates = [c for i, c in enumerate(component) if c[0] == i and len(c) >= 2]
        rated = max(candidates, key=len) if candidates else []  # max keeps the first of the largest
    out: dict[str, Rating] = {}
    if not rated:
        for i, name in enumerate(names):
            bound = (math.inf if games[i] and points[i] == games[i]
                     else -math.inf if games[i] and not points[i] else None)
            out[name] = Rating(name, None, None, None, None, bound, games[i], points[i])
        return out
    fixed = rated.index(names.index(anchor)) if anchor is not None else 0
    where = {name: i for i, name in enumerate(names)}
    worth = {}
    for (one, other), value in (effective or {}).items():
        if one in where and other in where and one != other:
            i, j = where[one], where[other]
            worth[(i, j) if i < j else (j, i)] = float(value)
    theta, lap = _fit(rated, pairs, fixed, worth)
    m = len(rated)
    if anchor is not None:
        free = [r for r in range(m) if r != fixed]
        inv = _inverse([[lap[r][c] for c in free] for r in free]) if free else []
        var = [0.0] * m
        for a, r in enumerate(free):
            var[r] = inv[a][a]
        elo = [anchor_elo + (t - theta[fixed]) * ELO_PER_NAT for t in theta]
    else:
        shifted = [[lap[r][c] + 1.0 / m for c in range(m)] for r in range(m)]
        inv = _inverse(shifted)
        var = [inv[r][r] - 1.0 / m for r in range(m)]
        mean = sum(theta) / m
        elo = [(t - mean) * ELO_PER_NAT for t in theta]
    values = {p: r for r, p in enumerate(rated)}
    member = set(rated)
    for i, name in enumerate(names):
        if i in values:
            r = values[i]
            error = Z95 * math.sqrt(max(var[r], 0.0)) * ELO_PER_NAT
            out[name] = Rating(name, elo[r] + 0.0, elo[r] - error, elo[r] + error, error, None, games[i], points[i])
            continue
        above = bool(reach[i] & member)
        below = any(i in reach[p] for p in rated)
        bound = math.inf if above else -math.inf if below else None
        out[name] = Rating(name, None, None, None, None, bound, games[i], points[i])
    return out
