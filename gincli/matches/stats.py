"""Match statistics a researcher can trust: win rate with its 95% interval,
Elo difference with its error bar, and the sequential probability ratio test
(SPRT) chess engine testers use to stop a match once it has decided.

Scores are per unit (a game, or a hand when a match counts hands): 1 for a
win, 0 for a loss, 1/2 for a draw (a dead hand, a tied session). With
duplicate deals the two sessions of a deal are averaged into one sample, so
that the interval accounts for the deals' shared luck.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
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
        n_eff = n * binomial / var if var > 0 and binomial > 0 else float(n)
        z2 = Z95 * Z95
        centre = (mean + z2 / (2 * n_eff)) / (1 + z2 / n_eff)
        half = Z95 * math.sqrt(binomial / n_eff + z2 / (4 * n_eff * n_eff)) / (1 + z2 / n_eff)
        return cls(n, mean, max(0.0, centre - half), min(1.0, centre + half), var)

    def elo(self) -> dict[str, float | None]:
        """Elo difference with its 95% interval and error bar (half its width).
        Where a score is 0 or 1 the Elo is infinite: that value is ``None``
        (unbounded), so an estimate always lies inside its own interval: all
        wins give ``diff`` and ``high`` ``None`` and a finite ``low``."""
        d, lo, hi = _elo_or_none(self.mean), _elo_or_none(self.low), _elo_or_none(self.high)
        error = round((hi - lo) / 2, 1) + 0.0 if hi is not None and lo is not None else None
        return {"diff": d, "low": lo, "high": hi, "error": error}


def _elo_or_none(score: float) -> float | None:
    """The Elo of a score to 0.1 (never -0.0); ``None`` where it is infinite."""
    if not 1e-9 < score < 1.0 - 1e-9:  # (a Wilson bound at 0 or 1 may miss it by a rounding error)
        return None
    value = elo_from_score(score)
    return round(value, 1) + 0.0 if math.isfinite(value) else None


@dataclass
class Running:
    """Samples added one at a time: their count, sum and squared deviations from
    the mean (Welford's update), so that the statistics after every sample of a
    match take linear time in all."""

    n: int = 0
    total: float = 0.0
    _mean: float = 0.0
    m2: float = 0.0  # the sum of squared deviations from the mean

    def add(self, x: float) -> None:
        self.n += 1
        self.total += x
        delta = x - self._mean
        self._mean += delta / self.n
        self.m2 += delta * (x - self._mean)

    def estimate(self) -> Estimate:
        """:meth:`Estimate.of` the samples so far (equal up to rounding)."""
        if self.n == 0:
            return Estimate.of(())
        return Estimate.wilson(self.n, self.total / self.n, self.m2 / (self.n - 1) if self.n > 1 else 0.0)


@dataclass
class Sprt:
    """Generalized SPRT on the mean score (normal approximation, as used by chess
    engine testing frameworks): H0 elo = elo0 against H1 elo = elo1, with
    alpha = beta = 0.05 by default."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    @property
    def bounds(self) -> tuple[float, float]:
        return math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha)

    def llr(self, samples: Sequence[float]) -> float:
        """The log-likelihood ratio of H1 to H0. The mean and variance are taken
        with one win and one loss added (a weak prior), so that a few identical
        results cannot end the test on a variance of zero."""
        n = len(samples)
        if n < 2:
            return 0.0
        total = sum(samples) + 1.0
        mean = total / (n + 2)
        var = (sum((x - mean) ** 2 for x in samples) + (1 - mean) ** 2 + mean ** 2) / (n + 2)
        return self._ratio(n, mean, var)

    def llr_running(self, r: Running) -> float:
        """:meth:`llr` of the samples added to ``r`` (equal up to rounding), in constant time."""
        n = r.n
        if n < 2:
            return 0.0
        mean = (r.total + 1.0) / (n + 2)
        spread = r.m2 + n * (r.total / n - mean) ** 2  # the squared deviations from the prior's mean
        return self._ratio(n, mean, (spread + (1 - mean) ** 2 + mean ** 2) / (n + 2))

    def _ratio(self, n: int, mean: float, var: float) -> float:
        s0, s1 = score_from_elo(self.elo0), score_from_elo(self.elo1)
        return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)

    def status(self, samples: Sequence[float]) -> dict[str, Any]:
        llr = self.llr(samples)
        lower, upper = self.bounds
        result = "H1" if llr >= upper else "H0" if llr <= lower else "continue"
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "llr": round(llr, 3), "lower": round(lower, 3), "upper": round(upper, 3), "result": result}

    def decided(self, samples: Sequence[float]) -> bool:
        return self.status(samples)["result"] != "continue"


def parse_sprt(text: str) -> Sprt:
    """``elo0,elo1`` from ``--sprt``; ``ValueError`` when malformed."""
    parts = text.split(",")
    if len(parts) != 2:
        raise ValueError(f"--sprt takes elo0,elo1 (for example 0,20), not {quote(text)}")
    try:
        e0, e1 = float(parts[0]), float(parts[1])
    except ValueError:
        raise ValueError(f"--sprt takes two numbers elo0,elo1, not {quote(text)}") from None
    for e in (e0, e1):
        if not -MAX_SPRT_ELO <= e <= MAX_SPRT_ELO:  # NaN too
            raise ValueError(f"--sprt takes Elo differences from -{MAX_SPRT_ELO:g} to {MAX_SPRT_ELO:g}, not "
                             f"{quote(text)}")
    if e0 >= e1:
        raise ValueError("--sprt needs elo0 < elo1")
    return Sprt(e0, e1)


#: The largest Elo difference an SPRT bound may be: past it a score is within a
#: few thousandths of 0 or 1, and the test's arithmetic loses its meaning.
MAX_SPRT_ELO = 1000.0
