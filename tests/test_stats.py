"""Match statistics: win rate interval, Elo, SPRT."""

from __future__ import annotations

import math

import pytest

from gincli.matches.stats import Estimate, Sprt, elo_from_score, parse_sprt, score_from_elo


def test_elo_and_score_are_inverse_and_100_elo_is_64_percent():
    assert score_from_elo(100) == pytest.approx(0.6401, abs=1e-4)
    for elo in (-300, -50, 0, 35, 200):
        assert elo_from_score(score_from_elo(elo)) == pytest.approx(elo)


def test_interval_matches_the_normal_approximation_for_large_samples():
    samples = [1.0] * 690 + [0.0] * 510
    est = Estimate.of(samples)
    half = 1.96 * math.sqrt(0.575 * 0.425 / 1200)
    assert est.mean == pytest.approx(0.575)
    assert est.low == pytest.approx(0.575 - half, abs=2e-3) and est.high == pytest.approx(0.575 + half, abs=2e-3)


def test_interval_stays_honest_at_all_wins():
    est = Estimate.of([1.0] * 4)
    assert est.high == 1.0 and 0.4 < est.low < 0.6
    elo = est.elo()
    assert elo["diff"] is None and elo["high"] is None and elo["error"] is None  # unbounded above
    assert elo["low"] == pytest.approx(elo_from_score(est.low), abs=0.05)


@pytest.mark.parametrize("samples", [[1.0], [0.0], [0.5], [1.0, 0.0], [0.0] * 7, [1.0] * 3 + [0.5],
                                     [0.0, 0.5, 0.5], [1.0] * 99 + [0.0]])
def test_the_elo_estimate_lies_inside_its_own_interval(samples):
    elo = Estimate.of(samples).elo()
    low = -math.inf if elo["low"] is None else elo["low"]
    high = math.inf if elo["high"] is None else elo["high"]
    mean = sum(samples) / len(samples)
    diff = elo["diff"] if elo["diff"] is not None else (math.inf if mean == 1 else -math.inf)
    assert low <= diff <= high
    assert all(math.copysign(1, v) == 1 for v in elo.values() if v == 0)  # no -0.0
    if 0 < mean < 1:
        assert elo["diff"] is not None


def test_draws_narrow_the_interval():
    wins_losses = Estimate.of([1.0, 0.0] * 50)
    with_draws = Estimate.of([1.0, 0.0, 0.5, 0.5] * 25)
    assert with_draws.high - with_draws.low < wins_losses.high - wins_losses.low


def test_sprt_needs_evidence_and_then_decides():
    test = Sprt(0, 50)
    assert test.status([1.0, 1.0])["result"] == "continue"
    assert test.status([1.0] * 30)["result"] == "H1"
    assert test.status([1.0, 0.0] * 400)["result"] == "H0"
    lower, upper = test.bounds
    assert lower == pytest.approx(-2.944, abs=1e-3) and upper == pytest.approx(2.944, abs=1e-3)


@pytest.mark.parametrize("text", ["5", "a,b", "10,0"])
def test_parse_sprt_rejects_bad_text(text):
    with pytest.raises(ValueError):
        parse_sprt(text)


def test_running_statistics_equal_those_of_the_whole_prefix():
    import random

    from gincli.matches.stats import Running

    rng = random.Random(5)
    for values in ((0.0, 0.5, 1.0), (0.0, 0.25, 0.5, 0.75, 1.0), (1.0,)):
        samples = [rng.choice(values) for _ in range(300)]
        running = Running()
        test = Sprt(0, 50)
        for i, x in enumerate(samples, 1):
            running.add(x)
            got, want = running.estimate(), Estimate.of(samples[:i])
            assert got.n == want.n and got.mean == want.mean
            for a, b in ((got.low, want.low), (got.high, want.high), (got.variance, want.variance)):
                assert a == pytest.approx(b, abs=1e-12)
            assert test.llr_running(running) == pytest.approx(test.llr(samples[:i]), abs=1e-9)
    assert Running().estimate() == Estimate.of([])


def test_the_match_asks_the_sprt_in_constant_time_with_the_same_answer():
    """gin match asks after every session whether the SPRT has decided (on Ray too,
    where sessions come fast): from running sums, with the very answer the
    samples themselves give, step by step."""
    import random

    from gincli.matches.runner import MatchSpec, Tally

    spec = MatchSpec(("simple", "random"), ("a", "b"), "hands", 10_000, 1, "standard", "hand")
    for elo0, elo1, p in ((0, 100, 0.6), (0, 20, 0.5), (-10, 10, 0.45), (0, 5, 0.52)):
        tally = Tally(spec, Sprt(elo0, elo1))
        rng = random.Random(elo1)
        for _ in range(4_000):
            x = rng.choice((0.0, 0.5, 1.0)) if rng.random() < 0.1 else float(rng.random() < p)
            tally.samples.append(x)
            tally.sums.add(x)
            assert tally.decided() == tally.sprt.decided(tally.samples)
