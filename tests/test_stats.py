"""Match statistics: win rate interval, Elo, the exact GSPRT, LOS, normalised Elo, Bradley-Terry ratings."""

from __future__ import annotations

import math

import pytest
from hypothesis import assume, given, settings, strategies as st

from gincli.matches.stats import (
    NELO_PER_T,
    Z95,
    Estimate,
    Running,
    Sprt,
    bradley_terry,
    constrained_mle,
    duplicate_gain,
    elo_from_score,
    los,
    normalized_elo,
    pair_counts,
    parse_sprt,
    pentanomial,
    score_counts,
    score_from_elo,
    wdl,
)


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
        previous = None
        for i in range(4_000):
            x = rng.choice((0.0, 0.5, 1.0)) if rng.random() < 0.1 else float(rng.random() < p)
            tally.samples.append(x)
            tally.sums.add(x)
            answer = tally.decided()
            # the reference costs a pass over the samples: every step of the first 400, then where the answer
            # changes and every 13th step (4 x 4,000 full passes took 9 s)
            if i < 400 or i % 13 == 0 or answer != previous:
                assert answer == tally.sprt.decided(tally.samples), i
            previous = answer


# The exact GSPRT ------------------------------------------------------------------------------------------------
#
# The references below are separate, straightforward implementations of the published formulas (Van den Bergh,
# "Comments on normalized Elo", Proposition 1.1, as fishtest's LLRcalc and fastchess's SPRT use them), computed
# another way than gincli does: a brute-force search over a grid of the Lagrange multiplier, or over the
# distributions themselves, never Newton's method.

def zoom_max(f, lo, hi, points=401, rounds=40):
    """The maximum of a concave ``f`` on the open interval (lo, hi): a grid, then a finer grid around its best
    point, and so on."""
    best = None
    for _ in range(rounds):
        step = (hi - lo) / (points + 1)
        grid = [lo + step * (i + 1) for i in range(points)]
        best = max(grid, key=f)
        lo, hi = max(lo, best - 2 * step), min(hi, best + 2 * step)
    return best


def fishtest_llr(elo0, elo1, results):
    """fishtest's LLR_logistic from its formulas: ``results`` are the counts of the 3 (L, D, W) or 5 (LL ... WW)
    result kinds, a zero count given 0.001 games; for each hypothesis' score ``s`` the multiplier ``x``
    maximises sum q log(1 + x (a - s)) over (-1/(1 - s), 1/s) (found on a grid), p = q / (1 + x (a - s)), and
    the LLR is N sum q log(p1 / p0)."""
    results = [r if r else 1e-3 for r in results]
    n = sum(results)
    values = [i / (len(results) - 1) for i in range(len(results))]
    q = [r / n for r in results]

    def mle(s):
        def h(x):
            return sum(qi * math.log(1 + x * (a - s)) for a, qi in zip(values, q, strict=True))

        x = zoom_max(h, -1 / (1 - s), 1 / s)
        return [qi / (1 + x * (a - s)) for a, qi in zip(values, q, strict=True)]

    p0, p1 = mle(score_from_elo(elo0)), mle(score_from_elo(elo1))
    return n * sum(qi * math.log(b / a) for qi, a, b in zip(q, p0, p1, strict=True))


def trinomial_llr_by_brute_force(elo0, elo1, losses, draws, wins):
    """The GSPRT's LLR from the distributions themselves: every distribution on {0, 1/2, 1} with mean s is
    (1 - s - d/2, d, s - d/2) for a share of draws d in [0, min(2s, 2 - 2s)]; the likelihood's maximum over d is
    found on a grid (zero counts contribute nothing: 0 log 0 = 0)."""
    def best(s):
        def loglik(d):
            total = 0.0
            for count, p in ((losses, 1 - s - d / 2), (draws, d), (wins, s - d / 2)):
                if count:
                    total += count * math.log(p) if p > 0 else -math.inf
            return total

        top = min(2 * s, 2 - 2 * s)
        d = 0.0 if not draws else zoom_max(loglik, 0.0, top)
        return max(loglik(d), loglik(0.0) if not draws else -math.inf)

    return best(score_from_elo(elo1)) - best(score_from_elo(elo0))


def test_a_worked_example_of_the_llr_derived_by_hand():
    """W = 30, D = 40, L = 20 (N = 90), H0 elo 0, H1 elo 50.

    H0, s0 = 1/2: the multiplier's equation sum q (a - s) / (1 + x (a - s)) = 0 has no draw term (a - s = 0),
    so q_L (-1/2) / (1 - x/2) + q_W (1/2) / (1 + x/2) = 0, x0 = 2 (q_W - q_L) / (q_W + q_L) = 2 (10/90) / (50/90)
    = 0.4, and p0 = q / (1 + x0 (a - 1/2)) = (20/90 / 0.8, 40/90, 30/90 / 1.2) = (25/90, 40/90, 25/90): the draws
    kept, the decisive games split evenly.

    H1, s1 = 1 / (1 + 10^(-50/400)) = 0.5714631: with u = a - s1 = (-0.5714631, -0.0714631, 0.4285369), clearing
    the denominators turns the equation into A x^2 + B x + C = 0 with A = u_L u_D u_W = 0.0175008,
    B = (u_L + u_D + u_W) m1 - m2 = -0.1326451, C = m1 = sum q u = -0.0159076 (m2 = sum q u^2 = 0.1360555); of
    its roots 7.6975 and -0.1180860 only the second lies in (-1/(1 - s1), 1/s1) = (-2.3335, 1.7499), so
    x1 = -0.1180860 and p1 = q / (1 + x1 u) = (0.2081743, 0.4407253, 0.3511005).

    LLR = 20 ln(0.2081743 / (25/90)) + 40 ln(0.4407253 / (40/90)) + 30 ln(0.3511005 / (25/90))
        = -5.768919 - 0.336135 + 7.027531 = 0.922477."""
    test = Sprt(0, 50)
    samples = [1.0] * 30 + [0.5] * 40 + [0.0] * 20
    assert test.llr(samples) == pytest.approx(0.922477, abs=1e-6)
    p0 = constrained_mle(score_counts(samples), 0.5)
    assert p0[0.0] == pytest.approx(25 / 90) and p0[0.5] == pytest.approx(40 / 90) and p0[1.0] == pytest.approx(25 / 90)
    p1 = constrained_mle(score_counts(samples), score_from_elo(50))
    assert [p1[0.0], p1[0.5], p1[1.0]] == pytest.approx([0.2081743, 0.4407253, 0.3511005], abs=1e-7)
    assert fishtest_llr(0, 50, [20, 40, 30]) == pytest.approx(0.922477, abs=1e-6)


def test_a_run_of_wins_is_evidence_of_its_closed_form():
    """N wins and nothing else: under a hypothesis of score s the most likely distribution on [0, 1] puts s on
    1 and the rest on 0 (the only way to keep every win at the highest probability with mean s), so the LLR is
    N ln(s1 / s0). At [0, 100]: s1 = 0.6400650, ln(s1 / 0.5) = 0.2469616 a win; 11 wins give 2.7166 (go on),
    the 12th 2.9635 >= ln(0.95 / 0.05) = 2.9444 (H1). N draws with s0 = 1/2 < s1: the most likely distribution
    puts 2 (1 - s1) on 1/2 and the rest on 1, LLR = N ln(2 (1 - s1)): all draws, and H0 comes."""
    test = Sprt(0, 100)
    s0, s1 = test.scores
    assert math.log(s1 / s0) == pytest.approx(0.2469616, abs=1e-7)
    assert test.llr([1.0] * 11) == pytest.approx(2.7165780, abs=1e-6)
    assert test.status([1.0] * 11)["result"] == "continue"
    assert test.llr([1.0] * 12) == pytest.approx(12 * math.log(s1 / s0), rel=1e-12)
    assert test.status([1.0] * 12)["result"] == "H1"
    assert test.llr([0.0] * 9) == pytest.approx(9 * math.log((1 - s1) / (1 - s0)), rel=1e-12)
    assert test.llr([0.5] * 20) == pytest.approx(20 * math.log(2 * (1 - s1)), rel=1e-12)
    assert test.status([0.5] * 20)["result"] == "H0"
    assert test.llr([]) == 0.0 and Sprt(0, 50).llr([0.5]) < 0 < Sprt(-50, 0).llr([0.5]) + 1e-300


@pytest.mark.parametrize("wins,losses", [(1, 1), (7, 3), (300, 280), (5, 40), (1, 1000)])
@pytest.mark.parametrize("elo0,elo1", [(0, 5), (0, 50), (-20, 10), (-400, -300)])
def test_wins_and_losses_alone_give_the_binomial_ratio(wins, losses, elo0, elo1):
    """Two values, both seen: the only distribution on {0, 1} with mean s is (1 - s, s), so the LLR is
    W ln(s1 / s0) + L ln((1 - s1) / (1 - s0)) whatever the counts, and mass on a third value never helps."""
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    want = wins * math.log(s1 / s0) + losses * math.log((1 - s1) / (1 - s0))
    assert Sprt(elo0, elo1).llr([1.0] * wins + [0.0] * losses) == pytest.approx(want, rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("results", [[20, 40, 30], [1, 1, 1], [100, 400, 130], [3, 0, 9], [0, 5, 2], [0, 0, 12],
                                     [12, 0, 0], [0, 17, 0], [7, 2, 0]])
@pytest.mark.parametrize("elo0,elo1", [(0, 50), (-10, 10), (0, 5), (100, 300)])
def test_the_trinomial_llr_is_the_likelihoods_own_maximum(results, elo0, elo1):
    """Against the distributions themselves (a grid over the share of draws), with zero counts too."""
    losses, draws, wins = results
    got = Sprt(elo0, elo1).llr_counts({0.0: losses, 0.5: draws, 1.0: wins})
    assert got == pytest.approx(trinomial_llr_by_brute_force(elo0, elo1, losses, draws, wins), abs=1e-7)


@pytest.mark.parametrize("results", [[20, 40, 30], [1, 1, 1], [100, 400, 130], [3, 0, 9], [0, 5, 2], [0, 0, 12],
                                     [5, 10, 20, 10, 15], [1, 30, 90, 35, 2], [0, 3, 10, 4, 0], [0, 0, 0, 0, 8],
                                     [40, 60, 200, 61, 41]])
@pytest.mark.parametrize("elo0,elo1", [(0, 50), (-10, 10), (0, 2)])
def test_the_llr_is_fishtests(results, elo0, elo1):
    """With every result kind observed gincli's LLR is fishtest's; fishtest gives a zero count 0.001 games,
    which gincli matches when given those counts, and otherwise differs from by little."""
    values = [i / (len(results) - 1) for i in range(len(results))]
    test = Sprt(elo0, elo1)
    want = fishtest_llr(elo0, elo1, results)
    regularised = {a: r if r else 1e-3 for a, r in zip(values, results, strict=True)}
    assert test.llr_counts(regularised) == pytest.approx(want, abs=1e-7)
    raw = test.llr_counts(dict(zip(values, results, strict=True)))
    if all(results):
        assert raw == pytest.approx(want, abs=1e-7)
    else:
        assert raw == pytest.approx(want, abs=0.01)


@pytest.mark.parametrize("elo0,elo1", [(0, 50), (-10, 10)])
def test_a_pentanomial_worked_example(elo0, elo1):
    """Pairs LL 5, LD 10, WL+DD 20, WD 10, WW 15 (60 pairs, mean 7/12): both hypotheses' multipliers found on
    a grid give LLR 2.043026 at [0, 50]."""
    counts = {0.0: 5, 0.25: 10, 0.5: 20, 0.75: 10, 1.0: 15}
    got = Sprt(elo0, elo1).llr_counts(counts)
    assert got == pytest.approx(fishtest_llr(elo0, elo1, [5, 10, 20, 10, 15]), abs=1e-7)
    if (elo0, elo1) == (0, 50):
        assert got == pytest.approx(2.043026, abs=1e-6)


def loglik(counts, probs):
    return sum(n * math.log(probs[a]) for a, n in counts.items() if n > 0)


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from([0.0, 0.125, 0.25, 0.3, 0.5, 0.6, 0.75, 0.9, 1.0]), st.integers(0, 50),
                       min_size=1, max_size=6),
       st.floats(0.01, 0.99), st.lists(st.floats(0.0, 1.0), min_size=2, max_size=8),
       st.floats(0.0, 1.0))
def test_the_constrained_mle_beats_every_other_distribution_with_that_mean(counts, s, weights, extra):
    """The distribution gincli maximises is one over [0, 1] with mean s, and no other distribution with mean s
    (on the observed values, 0, 1, and another value besides) is more likely."""
    assume(sum(counts.values()) > 0)
    best = constrained_mle(counts, s)
    assert sum(best.values()) == pytest.approx(1.0, abs=1e-9) and all(p >= -1e-12 for p in best.values())
    assert sum(a * p for a, p in best.items()) == pytest.approx(s, abs=1e-9)
    top = loglik(counts, best)
    support = sorted(set(counts) | {0.0, 1.0, extra})
    raw = [weights[i % len(weights)] + 1e-3 for i in range(len(support))]
    total = sum(raw)
    other = {a: w / total for a, w in zip(support, raw, strict=True)}
    m = sum(a * p for a, p in other.items())
    end, t = (0.0, (m - s) / m) if m > s else (1.0, (s - m) / (1 - m))
    other = {a: (1 - t) * p for a, p in other.items()}
    other[end] += t
    assert sum(a * p for a, p in other.items()) == pytest.approx(s, abs=1e-9)
    if all(other.get(a, 0) > 0 for a, n in counts.items() if n > 0):
        assert loglik(counts, other) <= top + 1e-9 * max(1.0, abs(top))
    # and the LLR is the difference of the two hypotheses' maxima
    test = Sprt(0, 30)
    s0, s1 = test.scores
    assert test.llr_counts(counts) == pytest.approx(
        loglik(counts, constrained_mle(counts, s1)) - loglik(counts, constrained_mle(counts, s0)), abs=1e-8)


@pytest.mark.parametrize("alpha,beta,lower,upper", [(0.05, 0.05, -2.944439, 2.944439),
                                                    (0.01, 0.01, -4.595120, 4.595120),
                                                    (0.05, 0.1, -2.251292, 2.890372),
                                                    (0.2, 0.01, -4.382027, 1.599388)])
def test_the_bounds_follow_alpha_and_beta(alpha, beta, lower, upper):
    """lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha): ln(0.05/0.95) = -2.944439,
    ln(0.01/0.99) = -4.595120, ln(0.1/0.95) = -2.251292 with ln(0.9/0.05) = 2.890372, ln(0.01/0.8) = -4.382027
    with ln(0.99/0.2) = 1.599388."""
    test = Sprt(0, 50, alpha, beta)
    assert test.bounds == pytest.approx((lower, upper), abs=1e-6)
    assert (test.bounds[0], test.bounds[1]) == (math.log(beta / (1 - alpha)), math.log((1 - beta) / alpha))


def test_parse_sprt_takes_alpha_and_beta():
    test = parse_sprt("0,50,0.01,0.01")
    assert (test.elo0, test.elo1, test.alpha, test.beta) == (0, 50, 0.01, 0.01)
    assert parse_sprt("-5,5").alpha == parse_sprt("-5,5").beta == 0.05
    assert parse_sprt("0,5,0.05,0.2").bounds == pytest.approx((math.log(0.2 / 0.95), math.log(0.8 / 0.05)))
    status = parse_sprt("0,50,0.01,0.01").status([1.0] * 30)
    assert set(status) == {"elo0", "elo1", "alpha", "beta", "llr", "lower", "upper", "result"}
    assert status["result"] == "continue" and status["upper"] == 4.595  # 4.008 of 30 wins: enough at 5%, not 1%


@pytest.mark.parametrize("text,message", [
    ("5", "--sprt takes elo0,elo1"), ("0,50,0.05", "--sprt takes elo0,elo1"), ("1,2,3,4,5", "--sprt takes elo0,elo1"),
    ("a,b", "--sprt takes numbers"), ("0,50,x,0.05", "--sprt takes numbers"), ("10,0", "--sprt needs elo0 < elo1"),
    ("0,inf", "--sprt takes Elo differences"), ("nan,0", "--sprt takes Elo differences"),
    ("0,50,0,0.05", "between 0 and 0.5"), ("0,50,0.5,0.05", "between 0 and 0.5"), ("0,50,0.05,-1", "between 0 and 0.5"),
    ("0,50,nan,0.05", "between 0 and 0.5"), ("0,50,0.05,0.7", "between 0 and 0.5"),
])
def test_parse_sprt_refuses_in_one_sentence(text, message):
    with pytest.raises(ValueError) as info:
        parse_sprt(text)
    assert message in str(info.value) and "\n" not in str(info.value)


def test_a_test_of_no_probabilities_is_refused():
    for alpha, beta in ((0, 0.05), (0.05, 1), (math.nan, 0.05)):
        with pytest.raises(ValueError):
            Sprt(0, 5, alpha, beta)
    with pytest.raises(ValueError):
        Sprt(0, 1e6)
    with pytest.raises(ValueError):
        Sprt(0, 5).llr([1.5])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0, 1 / 3]), max_size=300),
       st.sampled_from([(0, 5), (0, 50), (-10, 10), (-300, 200)]))
def test_the_running_llr_is_the_batch_llr_exactly(samples, elos):
    test = Sprt(*elos)
    running = Running()
    for i, x in enumerate(samples, 1):
        running.add(x)
        assert test.llr_running(running) == test.llr(samples[:i])
    assert test.status(running) == test.status(samples)
    assert score_counts(running) == score_counts(samples)
    assert normalized_elo(running) == normalized_elo(samples) and wdl(running) == wdl(samples)


def test_deciding_after_every_session_stays_cheap():
    """The exact LLR from a Running costs the number of distinct values, not of samples."""
    import time

    running = Running()
    for i in range(200_000):
        running.add((0.0, 0.5, 1.0, 1.0, 0.25)[i % 5])
    test = Sprt(0, 5)
    start = time.perf_counter()
    for _ in range(1000):
        test.llr_running(running)
    assert (time.perf_counter() - start) / 1000 < 0.002  # a couple of microseconds of arithmetic, generously


# LOS, normalised Elo, counts -----------------------------------------------------------------------------------


def test_los_by_hand():
    """LOS = 0.5 (1 + erf((W - L) / sqrt(2 (W + L)))) = Phi((W - L) / sqrt(W + L)): 60 wins and 40 losses are
    20 / sqrt(100) = 2 standard deviations up, Phi(2) = 0.9772499; even results 0.5; 10-0 Phi(3.1623) = 0.9992173."""
    assert los(60, 40) == pytest.approx(0.9772499, abs=1e-7)
    assert los(40, 60) == pytest.approx(1 - 0.9772499, abs=1e-7)
    assert los(7, 7) == 0.5 and los(0, 0) == 0.5
    assert los(10, 0) == pytest.approx(0.9992173, abs=1e-7)
    with pytest.raises(ValueError):
        los(-1, 3)


def test_normalised_elo_of_games_by_hand():
    """30 wins, 40 draws, 20 losses: mean 5/9, per-game variance (population) 30/90 (4/9)^2 + 40/90 (1/18)^2 +
    20/90 (5/9)^2 = 396/2916 = 0.1358025, sd 0.3685139; nElo = (1/18) / 0.3685139 * 800 / ln 10 = 52.37789; its
    error 1.959964 * 347.4356 / sqrt(90) = 71.77962 (fastchess's halfwidth of the score interval, in nElo)."""
    got = normalized_elo([1.0] * 30 + [0.5] * 40 + [0.0] * 20)
    assert got["nelo"] == pytest.approx(52.37789, abs=1e-5) and got["error"] == pytest.approx(71.77962, abs=1e-5)
    assert got["low"] == pytest.approx(52.37789 - 71.77962, abs=1e-5)
    assert got["high"] == pytest.approx(52.37789 + 71.77962, abs=1e-5)
    assert pytest.approx(347.4355855, abs=1e-7) == NELO_PER_T


def test_normalised_elo_of_pairs_by_hand():
    """Pairs LL 5, LD 10, WL+DD 20, WD 10, WW 15: mean 35/60 = 7/12, pair variance 840 / 144 / 60 = 7/72,
    sd a game sqrt(2 * 7/72) = sqrt(7)/6; nElo = (1/12) / (sqrt(7)/6) * 347.4356 = 347.4356 / (2 sqrt 7) =
    65.65915; error 1.959964 * 347.4356 / sqrt(120) = 62.16297 (fastchess's pentanomial nElo)."""
    samples = [0.0] * 5 + [0.25] * 10 + [0.5] * 20 + [0.75] * 10 + [1.0] * 15
    got = normalized_elo(samples, pairs=True)
    assert got["nelo"] == pytest.approx(NELO_PER_T / (2 * math.sqrt(7)), rel=1e-12)
    assert got["nelo"] == pytest.approx(65.65915, abs=1e-5) and got["error"] == pytest.approx(62.16297, abs=1e-5)
    assert pentanomial(samples) == [5, 10, 20, 10, 15]


def test_normalised_elo_needs_variation():
    none = {"nelo": None, "low": None, "high": None, "error": None}
    assert normalized_elo([]) == none and normalized_elo([1.0]) == none and normalized_elo([0.5] * 9) == none


def test_what_duplicate_deals_gained_against_the_statistics_module():
    """The correlation is Pearson's (statistics.correlation); the effective games are the pairs times a game's
    variance over a pair mean's (statistics.variance, n - 1), which is 2 n / (1 + r) where both sessions vary
    alike: pairs that split (a deal won by whoever held it) are worth more games than they hold, pairs that
    repeat fewer."""
    import statistics

    pairs = [(1.0, 0.0)] * 6 + [(0.0, 1.0)] * 6 + [(1.0, 1.0)] * 3 + [(0.0, 0.0)] * 3 + [(0.5, 1.0), (1.0, 0.5)]
    got = duplicate_gain(pairs)
    firsts, seconds = [a for a, _ in pairs], [b for _, b in pairs]
    r = statistics.correlation(firsts, seconds)
    assert got["correlation"] == pytest.approx(r, rel=1e-12) and r < 0
    want = len(pairs) * statistics.variance(firsts + seconds) / statistics.variance([(a + b) / 2 for a, b in pairs])
    assert got["effective"] == pytest.approx(want, rel=1e-12)
    assert got["effective"] == pytest.approx(2 * len(pairs) / (1 + r), rel=0.03)  # the sessions vary alike here
    assert got["effective"] > 2 * len(pairs)
    repeat = duplicate_gain([(1.0, 1.0)] * 5 + [(0.0, 0.0)] * 4 + [(1.0, 0.0)])
    assert repeat["correlation"] > 0 and repeat["effective"] < 20
    assert duplicate_gain([(1.0, 0.0)]) == {"correlation": None, "effective": None}
    assert duplicate_gain([(1.0, 0.0), (1.0, 1.0)])["correlation"] is None  # the first sessions do not vary


def test_the_counts_a_summary_shows():
    samples = [1.0, 1.0, 0.5, 0.0, 0.75, 1.0]
    assert wdl(samples) == {"wins": 3, "draws": 1, "losses": 1, "other": 1}
    assert pair_counts(samples) == {"won_both": 3, "split": 1, "lost_both": 1, "other": 1}
    assert pentanomial(samples) == [1, 0, 1, 1, 3]
    with pytest.raises(ValueError):
        pentanomial([0.3])


# Bradley-Terry --------------------------------------------------------------------------------------------------


def bt_loglik(ratings, games):
    """The log-likelihood of Elo ratings: sum over games of s ln p + (1 - s) ln(1 - p), p = 1 / (1 + 10^(-D/400))."""
    total = 0.0
    for a, b, n, s in games:
        p = 1 / (1 + 10 ** (-(ratings[a] - ratings[b]) / 400))
        total += s * math.log(p) + (n - s) * math.log(1 - p)
    return total


def brute_force_three(games):
    """The maximum of the likelihood of three players a, b, c with a at 0: a 2-D grid, zoomed in 30 times."""
    lo_b, hi_b, lo_c, hi_c = -1000.0, 1000.0, -1000.0, 1000.0
    best = (0.0, 0.0)
    for _ in range(30):
        sb, sc = (hi_b - lo_b) / 40, (hi_c - lo_c) / 40
        cands = [(lo_b + i * sb, lo_c + j * sc) for i in range(41) for j in range(41)]
        best = max(cands, key=lambda bc: bt_loglik({"a": 0.0, "b": bc[0], "c": bc[1]}, games))
        lo_b, hi_b, lo_c, hi_c = best[0] - 2 * sb, best[0] + 2 * sb, best[1] - 2 * sc, best[1] + 2 * sc
    return {"a": 0.0, "b": best[0], "c": best[1]}


THREE = [("a", "b", 6, 4, 2), ("b", "c", 5, 5, 0), ("a", "c", 7, 2, 1)]  # (a, b, wins_a, wins_b, draws)
THREE_GAMES = [("a", "b", 12, 7), ("b", "c", 10, 5), ("a", "c", 10, 7.5)]  # (a, b, games, points of a)


def numeric_covariance(ratings, games, free):
    """The inverse of minus the log-likelihood's Hessian over the ``free`` players, by finite differences."""
    h = 1e-2
    k = len(free)
    hess = [[0.0] * k for _ in range(k)]
    for i, p in enumerate(free):
        for j, q in enumerate(free):
            def f(dp, dq, p=p, q=q):
                r = dict(ratings)
                r[p] += dp
                r[q] += dq
                return bt_loglik(r, games)
            hess[i][j] = -(f(h, h) - f(h, -h) - f(-h, h) + f(-h, -h)) / (4 * h * h)
    det = hess[0][0] * hess[1][1] - hess[0][1] * hess[1][0]
    return [[hess[1][1] / det, -hess[0][1] / det], [-hess[1][0] / det, hess[0][0] / det]]


def test_bradley_terry_is_the_maximum_likelihood_of_three_players():
    want = brute_force_three(THREE_GAMES)
    mean = sum(want.values()) / 3
    got = bradley_terry(THREE)
    assert list(got) == ["a", "b", "c"]
    for name in "abc":
        assert got[name].elo == pytest.approx(want[name] - mean, abs=1e-3)
        assert got[name].bound is None
    assert sum(r.elo for r in got.values()) == pytest.approx(0.0, abs=1e-9)
    assert (got["a"].games, got["a"].points, got["c"].games, got["c"].points) == (22, 14.5, 20, 7.5)
    # The intervals: +-1.96 sd, the covariance of the mean-0 ratings that of the ratings with a fixed (the
    # inverse of the information, here by finite differences), centred: M C M^T with M = I - J/3.
    cov = numeric_covariance(want, THREE_GAMES, ["b", "c"])
    full = [[0.0, 0.0, 0.0], [0.0, cov[0][0], cov[0][1]], [0.0, cov[1][0], cov[1][1]]]
    centre = [[(1.0 if i == j else 0.0) - 1 / 3 for j in range(3)] for i in range(3)]
    for i, name in enumerate("abc"):
        var = sum(centre[i][p] * full[p][q] * centre[i][q] for p in range(3) for q in range(3))
        assert got[name].error == pytest.approx(Z95 * math.sqrt(var), rel=1e-3)
        assert got[name].high - got[name].low == pytest.approx(2 * got[name].error)


def test_bradley_terry_counts_a_pairings_games_for_what_they_are_worth():
    """Under duplicate deals a pairing's games are worth the effective games of its pairs: the ratings are the
    same, the information of a pairing is that of its effective games (the log-likelihood's Hessian with each
    pairing's games and points scaled to them, by finite differences), the intervals from its inverse."""
    worth = {("b", "a"): 20.0, ("b", "c"): 4.0, ("a", "c"): 13.5}  # either order of a pairing's players
    got = bradley_terry(THREE, effective=worth)
    plain = bradley_terry(THREE)
    want = brute_force_three(THREE_GAMES)
    scale = {("a", "b"): 20.0 / 12, ("b", "c"): 4.0 / 10, ("a", "c"): 13.5 / 10}
    scaled = [(a, b, n * scale[(a, b)], s * scale[(a, b)]) for a, b, n, s in THREE_GAMES]
    cov = numeric_covariance(want, scaled, ["b", "c"])
    full = [[0.0, 0.0, 0.0], [0.0, cov[0][0], cov[0][1]], [0.0, cov[1][0], cov[1][1]]]
    centre = [[(1.0 if i == j else 0.0) - 1 / 3 for j in range(3)] for i in range(3)]
    for i, name in enumerate("abc"):
        assert got[name].elo == plain[name].elo
        var = sum(centre[i][p] * full[p][q] * centre[i][q] for p in range(3) for q in range(3))
        assert got[name].error == pytest.approx(Z95 * math.sqrt(var), rel=1e-3)
    assert got["c"].error > plain["c"].error  # b-c's 10 games were worth 4
    assert [round(got[n].error, 1) for n in "abc"] == [84.2, 103.1, 117.8]  # docs/statistics.md's example
    # two players: the difference's error is that of the Elo of a score over the effective games
    two = bradley_terry([("x", "y", 7, 3, 2)], effective={("x", "y"): 30.0})
    p = 8 / 12
    assert two["x"].error == pytest.approx(Z95 * 400 / math.log(10) / math.sqrt(30 * p * (1 - p)) / 2, rel=1e-9)


def test_bradley_terry_anchored():
    want = brute_force_three(THREE_GAMES)
    got = bradley_terry(THREE, anchor="c", anchor_elo=1500)
    for name in "abc":
        assert got[name].elo == pytest.approx(1500 + want[name] - want["c"], abs=1e-3)
    assert (got["c"].elo, got["c"].low, got["c"].high, got["c"].error) == (1500, 1500, 1500, 0)
    # relative to c the sds are those of the information with c fixed
    shifted = {k: v - want["c"] for k, v in want.items()}
    cov = numeric_covariance(shifted, THREE_GAMES, ["a", "b"])
    assert got["a"].error == pytest.approx(Z95 * math.sqrt(cov[0][0]), rel=1e-3)
    assert got["b"].error == pytest.approx(Z95 * math.sqrt(cov[1][1]), rel=1e-3)


def test_bradley_terry_of_two_players_is_the_elo_of_their_score():
    """Two players: the MLE difference is the Elo of the score, 400 log10(s / (1 - s)), half each side."""
    got = bradley_terry([("x", "y", 1.0)] * 7 + [("x", "y", 0.0)] * 3 + [("y", "x", 0.5)] * 2)
    diff = elo_from_score(8 / 12)
    assert got["x"].elo == pytest.approx(diff / 2, abs=1e-9) and got["y"].elo == pytest.approx(-diff / 2, abs=1e-9)
    # the information of n games at p: n p (1 - p) (ln 10 / 400)^2 on the difference; each rating is half of it
    p = 8 / 12
    sd_diff = 400 / math.log(10) / math.sqrt(12 * p * (1 - p))
    assert got["x"].error == pytest.approx(Z95 * sd_diff / 2, rel=1e-9)


def test_a_player_who_won_everything_is_unbounded_and_the_rest_are_fitted_without_it():
    games = THREE + [("d", "a", 3, 0, 0), ("d", "b", 2, 0, 0), ("e", "c", 0, 4, 0)]
    got = bradley_terry(games)
    alone = bradley_terry(THREE)
    for name in "abc":
        assert got[name].elo == pytest.approx(alone[name].elo, abs=1e-9)
        assert got[name].error == pytest.approx(alone[name].error, abs=1e-9)
    assert got["d"].elo is None and got["d"].bound == math.inf and got["d"].to_json()["bound"] == "+inf"
    assert got["e"].elo is None and got["e"].bound == -math.inf and got["e"].to_json()["bound"] == "-inf"
    assert got["d"].low is None and got["d"].error is None and got["d"].points == 5


def test_players_of_no_common_component_are_undetermined_and_one_sided_results_rate_nobody():
    got = bradley_terry(THREE + [("e", "f", 1, 1, 0)])
    assert got["e"].elo is None and got["e"].bound is None and got["a"].elo is not None
    two = bradley_terry([("x", "y", 1.0), ("x", "y", 1.0)])
    assert (two["x"].elo, two["x"].bound, two["y"].elo, two["y"].bound) == (None, math.inf, None, -math.inf)
    chain = bradley_terry([("p", "q", 1.0), ("q", "r", 1.0)])
    assert [chain[n].bound for n in "pqr"] == [math.inf, None, -math.inf]
    anchored = bradley_terry([("p", "q", 1.0), ("q", "r", 1.0)], anchor="q", anchor_elo=100)
    assert anchored["q"].elo == 100 and anchored["p"].bound == math.inf and anchored["r"].bound == -math.inf


def test_a_group_that_beat_another_group_is_above_it():
    """Two groups, each with mixed results inside; the first won every game against the second: the larger
    (first on a tie) group is rated, the other unbounded below, and within each the games alone count."""
    top = [("a", "b", 3, 2, 1)]
    bottom = [("c", "d", 1, 4, 0), ("c", "e", 2, 2, 2), ("d", "e", 3, 3, 0)]
    between = [("a", "c", 2, 0, 0), ("e", "b", 0, 5, 0)]
    got = bradley_terry(top + bottom + between)
    assert [got[n].bound for n in "ab"] == [math.inf, math.inf]
    assert [got[n].elo is not None for n in "cde"] == [True] * 3
    assert got["c"].elo == pytest.approx(bradley_terry(bottom)["c"].elo, abs=1e-9)
    anchored = bradley_terry(top + bottom + between, anchor="a")
    assert anchored["a"].elo == 0 and anchored["b"].elo == pytest.approx(-elo_from_score(3.5 / 6), abs=1e-6)
    assert [anchored[n].bound for n in "cde"] == [-math.inf] * 3


def test_bradley_terry_is_deterministic_and_refuses_malformed_results():
    games = THREE + [("a", "b", 0.25), ("c", "a", 1.0)]
    assert bradley_terry(games) == bradley_terry(list(games))
    for bad in ([("a", "a", 1.0)], [("a", "b", 1.5)], [("a", "b", 1, -1, 0)], [("a", "b")], [("a", "b", "1")]):
        with pytest.raises(ValueError):
            bradley_terry(bad)
    with pytest.raises(ValueError):
        bradley_terry(THREE, anchor="z")


def test_the_statistics_import_without_numpy_or_scipy(tmp_path):
    import subprocess
    import sys

    code = ("import sys\n"
            "class Block:\n"
            "    def find_spec(self, name, path=None, target=None):\n"
            "        if name.split('.')[0] in ('numpy', 'scipy'):\n"
            "            raise ImportError(name)\n"
            "sys.meta_path.insert(0, Block())\n"
            "from gincli.matches import stats\n"
            "print(round(stats.Sprt(0, 50).llr([1.0] * 30 + [0.5] * 40 + [0.0] * 20), 6))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False,
                         cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "0.922477"
