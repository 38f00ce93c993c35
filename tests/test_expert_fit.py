"""The fits behind expert's and master's constants (gincli_builtin.expert_fit):
the least squares recover a known model, products of features included; the
knock rows are the same on one worker and on two; master's model reads
exactly the features its fit makes."""

from __future__ import annotations

import random

import pytest

from gincli_builtin import expert_fit
from gincli_builtin.expert import feature
from gincli_builtin.expert_fit import MASTER_KNOCK_FEATURES, fit_linear, knock_rows_chunked
from gincli_builtin.master import MasterBot


def test_least_squares_recover_a_model_with_products():
    rng = random.Random(3)
    rows = [{"k": rng.randint(1, 10), "stock": rng.randint(2, 31), "pu": rng.random()} for _ in range(300)]
    truth = {"1": 2.0, "k": 3.0, "stock": -0.25, "pu": 4.0, "k*stock": -0.5}
    model = fit_linear(rows, ("k", "stock", "pu", "k*stock"),
                       lambda r: truth["1"] + sum(w * feature(r, n) for n, w in truth.items() if n != "1"))
    assert {n: round(w, 6) for n, w in model.items()} == truth


def test_knock_rows_are_the_same_on_any_number_of_workers():
    settings = {"NO_KNOCK": 1, "DANGER": 0.5, "TAKE_MARGIN": 1.0}
    one = knock_rows_chunked(12, 5, "expert", settings, workers=1, chunk=6)
    two = knock_rows_chunked(12, 5, "expert", settings, workers=2, chunk=6)
    assert one and one == two
    for row in one:
        assert all(isinstance(feature(row, n), (int, float)) for n in MASTER_KNOCK_FEATURES)
        assert isinstance(row["vk"], int) and isinstance(row["vw"], int)
        assert 0 < row["k"] <= 10 and 0 <= row["pu"] <= 1


def test_masters_model_reads_the_features_its_fit_makes():
    assert tuple(MasterBot.KNOCK_MODEL) == ("1",) + MASTER_KNOCK_FEATURES
    assert set(MasterBot.PRODUCTS) == {n for n in MASTER_KNOCK_FEATURES if "*" in n}


def test_the_command_prints_a_model_to_paste(capsys):
    expert_fit.main(["knock", "--hands", "6", "--seed", "2", "--opponent", "expert", "--no-knock", "1",
                     "--danger", "0.5", "--take-margin", "1", "--features", "master", "--chunk", "3"])
    captured = capsys.readouterr()
    assert "knock-able decisions; KNOCK_MODEL = {" in captured.out and '"k*stock": ' in captured.out
    assert "chunk 2/2: " in captured.err  # progress, on stderr


@pytest.mark.parametrize("args, says", [
    (["--workers", "2"], "--workers needs --chunk"),
    (["--chunk", "0"], "must be at least 1"),
    (["--hands", "0"], "must be at least 1"),
])
def test_bad_options_are_one_sentence_and_exit_2(capsys, args, says):
    with pytest.raises(SystemExit) as exit_:
        expert_fit.main(["knock", *args])
    assert exit_.value.code == 2 and says in capsys.readouterr().err


def test_the_fit_is_the_same_to_the_last_bit_in_any_order_of_rows():
    """master's knock model multiplies features (``k*stock``, ``pu*stock``...):
    its raw normal equations are ill-conditioned, and summed in another order
    (the rows of another number of workers, or chunks joined otherwise) they
    moved some weights in the second digit. Standardised features and sums
    correctly rounded (math.fsum) give the same coefficients, bit for bit,
    whatever the order of the rows; and the solve is accurate: the model is
    recovered to many digits from noisy rows."""
    rng = random.Random(8)
    rows = []
    for _ in range(3000):
        row = {"k": rng.randint(1, 10), "stock": rng.randint(2, 31), "pu": rng.random(), "outs": rng.random() * 0.3}
        rows.append(row)
    names = ("k", "stock", "pu", "outs", "k*stock", "pu*stock", "k*pu", "outs*stock", "k*k")
    truth = {"1": -14.5, "k": 6.2, "stock": 0.002, "pu": -0.47, "outs": 11.4, "k*stock": -0.13, "pu*stock": -1.2,
             "k*pu": -1.1, "outs*stock": 6.1, "k*k": 0.14}
    noise = {id(r): rng.gauss(0, 20) for r in rows}

    def target(r):
        return truth["1"] + sum(w * feature(r, n) for n, w in truth.items() if n != "1") + noise[id(r)]

    fitted = fit_linear(rows, names, target)
    for order in range(3):
        shuffled = rows[:]
        random.Random(order).shuffle(shuffled)
        assert fit_linear(shuffled, names, target) == fitted
    exact = fit_linear(rows, names, lambda r: target(r) - noise[id(r)])
    assert all(abs(exact[n] - truth[n]) < 1e-6 * max(1.0, abs(truth[n])) for n in truth)


def test_a_feature_the_others_make_gets_weight_0():
    """master's ev is md - k - 25 pu, row for row: the raw fit's weights of those
    four wandered along that relation (six weights moved in the second digit when
    refitted). The fit weighs such a feature 0 and predicts as before."""
    rng = random.Random(9)
    rows = []
    for _ in range(500):
        r = {"k": rng.randint(1, 10), "pu": rng.random(), "md": rng.randint(0, 60)}
        r["ev"] = r["md"] - r["k"] - 25 * r["pu"]
        rows.append(r)
    model = fit_linear(rows, ("k", "pu", "md", "ev"), lambda r: 1.0 + 2 * r["k"] - 3 * r["pu"] + 0.5 * r["md"])
    assert [n for n, w in model.items() if w == 0.0] == ["ev"]
    for r in rows:
        assert abs(sum(w * (1.0 if n == "1" else r[n]) for n, w in model.items())
                   - (1.0 + 2 * r["k"] - 3 * r["pu"] + 0.5 * r["md"])) < 1e-9
