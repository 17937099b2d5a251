"""TOFEC delay model: stream layout, closed-form means, the paper's fit procedure, bad input."""

import math

import numpy as np
import pytest

from storrepro.papers.tofec.delay import (
    PURE,
    SUR,
    ModelParams,
    TaskDelayModel,
    chunk_statistics,
    copula_rho_for,
    delay_table,
    fit_params,
    sample_chunks,
    task_delay,
)


def test_one_block_per_call_whatever_n():
    # Successive sampler calls consume exactly the rows of one vectorized draw (CRN across n).
    rng_calls, rng_draw = np.random.default_rng(5), np.random.default_rng(5)
    calls = [SUR(rng_calls, 3.0 / k, n) for n, k in [(1, 1), (12, 6), (3, 2)]]
    blocks = SUR.draw(rng_draw, 3)
    for (n, k), row, got in zip([(1, 1), (12, 6), (3, 2)], blocks, calls, strict=True):
        np.testing.assert_array_equal(got, SUR.delays(row, 3.0 / k, n))


def test_hand_computed_delay():
    model = TaskDelayModel(
        "t",
        shift=10.0,
        shift_per_mb=2.0,
        tail=4.0,
        tail_per_mb=1.0,
        slow_prob=0.5,
        slow_per_mb=100.0,
        n_max=2,
    )
    # Block rows: X = (1, 2), Y = (3, 4), slow draws (0.1, 5.0); threshold ln 2 = 0.69.
    block = np.array([1.0, 2.0, 3.0, 4.0, 0.1, 5.0])
    # B = 1: Δ = 12, E = 5, M = 100: task 0 = 12 + 5; task 1 = 12 + 10 + 400 (slow).
    np.testing.assert_allclose(model.delays(block, 1.0, 2), [17.0, 422.0])


@pytest.mark.parametrize("chunk", [0.5, 1.0, 3.0])
def test_monte_carlo_mean_matches_closed_form(chunk):
    values = SUR.sample(np.random.default_rng(1), chunk, 400_000)
    assert abs(values.mean() / SUR.mean(chunk) - 1) < 0.01
    # Slow tasks occur with probability 0.1 (standard error of the share ~ 5e-4).
    fast = SUR.shift + SUR.shift_per_mb * chunk + (SUR.tail + SUR.tail_per_mb * chunk) * 12
    assert SUR.mean(3.0) == pytest.approx(46.4 + 25.2 * 3 + 15.2 + 9.6 * 3 + 0.1 * 132 * 3)
    assert np.mean(values > fast) < 0.11


def test_fit_recovers_a_pure_shifted_exponential_without_filtering():
    samples = sample_chunks(PURE, np.random.default_rng(2), 300_000)
    fit = fit_params(samples, drop_worst=0.0)
    true = PURE.true_params()
    for name in ("a_shift", "b_shift", "a_tail", "b_tail"):
        assert getattr(fit, name) == pytest.approx(getattr(true, name), rel=0.03)


def test_fit_on_exact_lines():
    # Deterministic "samples" whose mean and std are exactly linear in B: two values m ± s.
    samples = {
        b: np.array([60 + 50 * b - (10 + 8 * b), 60 + 50 * b + (10 + 8 * b)])
        for b in (0.5, 1.0, 3.0)
    }
    fit = fit_params(samples, drop_worst=0.0)
    assert (fit.a_tail, fit.b_tail) == pytest.approx((8.0, 10.0))
    assert (fit.a_shift, fit.b_shift) == pytest.approx((42.0, 50.0))


def test_drop_worst_removes_the_top_decile():
    chunks, means, _ = chunk_statistics({1.0: np.arange(1.0, 11.0)}, drop_worst=0.1)
    assert means[0] == pytest.approx(5.0)  # 1..9


def test_fitted_sur_parameters_match_the_pilot_fit():
    fit = fit_params(sample_chunks(SUR, np.random.default_rng(3), 200_000))
    # The pilot's fit: α_Δ ≈ 26.0, β_Δ ≈ 48.9, α_E ≈ 8.44, β_E ≈ 10.7 (±2 % with the MC seed).
    assert fit.a_shift == pytest.approx(26.0, rel=0.03)
    assert fit.b_shift == pytest.approx(48.9, rel=0.03)
    assert fit.a_tail == pytest.approx(8.44, rel=0.03)
    assert fit.b_tail == pytest.approx(10.7, rel=0.03)


def test_bad_input():
    with pytest.raises(ValueError, match="slow_prob"):
        TaskDelayModel("x", 1, 1, 1, 1, slow_prob=1.0)
    with pytest.raises(ValueError, match="shift"):
        TaskDelayModel("x", -1, 1, 1, 1)
    with pytest.raises(ValueError, match="n must be"):
        SUR(np.random.default_rng(0), 1.0, 13)
    with pytest.raises(ValueError, match="b_tail"):
        ModelParams(1, 1, 1, math.nan)
    with pytest.raises(ValueError, match="not a pure"):
        SUR.true_params()
    with pytest.raises(ValueError, match="drop_worst"):
        chunk_statistics({1.0: np.ones(3)}, drop_worst=1.0)
    with pytest.raises(ValueError, match="2 chunk sizes"):
        fit_params({1.0: np.ones(3)})


def test_copula_keeps_the_marginal_and_correlates_the_tasks():
    from storrepro.papers.tofec.delay import correlated_delays, mean_pairwise_correlation

    rng = np.random.default_rng(7)
    delays = correlated_delays(SUR, rng, 1.0, 4, 200_000, rho=0.15, table_size=200_000)
    assert delays.shape == (200_000, 4)
    # Marginal: each column's mean is the model's closed-form mean (heavy tail: 2 % slack).
    np.testing.assert_allclose(delays.mean(axis=0), SUR.mean(1.0), rtol=0.02)
    # A Gaussian copula weakens a normal correlation of 0.15 on skewed margins, never raises it.
    corr = mean_pairwise_correlation(delays)
    assert 0.08 < corr < 0.15
    independent = correlated_delays(SUR, rng, 1.0, 4, 200_000, rho=0.0, table_size=200_000)
    assert abs(mean_pairwise_correlation(independent)) < 0.01


@pytest.mark.parametrize("n, count", [(4, 5000), (1, 1)])
def test_copula_draws_made_once_serve_every_rho(n, count):
    from scipy.special import ndtr

    from storrepro.papers.tofec.delay import copula_delays, copula_draws, correlated_delays

    draws = copula_draws(SUR, np.random.default_rng(5), 1.0, n, count, table_size=3000)
    for rho in (0.0, 0.15, 0.5):
        # by hand, from a fresh stream: the table, the common normal, the own normals
        rng = np.random.default_rng(5)
        table = np.sort(SUR.sample(rng, 1.0, 3000))
        z = math.sqrt(rho) * rng.standard_normal((count, 1))
        z = z + math.sqrt(1 - rho) * rng.standard_normal((count, n))
        expected = table[np.minimum((ndtr(z) * 3000).astype(np.int64), 2999)]
        np.testing.assert_array_equal(copula_delays(draws, rho), expected)
        fresh = correlated_delays(SUR, np.random.default_rng(5), 1.0, n, count, rho, 3000)
        np.testing.assert_array_equal(fresh, expected)
    with pytest.raises(ValueError, match="rho must be a copula correlation in \\[0, 1\\), got 1"):
        copula_delays(draws, 1)


def test_mean_pairwise_correlation_by_hand():
    from storrepro.papers.tofec.delay import mean_pairwise_correlation

    x = np.arange(10.0)
    # Columns x, x, -x: pairs (+1, -1, -1) -> mean -1/3.
    assert mean_pairwise_correlation(np.column_stack([x, x, -x])) == pytest.approx(-1 / 3)


def test_copula_rejects_bad_rho():
    from storrepro.papers.tofec.delay import correlated_delays

    with pytest.raises(ValueError, match="rho must be a copula correlation in \\[0, 1\\), got 1.2"):
        correlated_delays(SUR, np.random.default_rng(0), 1.0, 3, 10, rho=1.2)


def normal_copula(rho, count=200_000, n=4):
    """Rows of n standard normals with pairwise correlation exactly ``rho`` in distribution."""
    rng = np.random.default_rng(7)
    common = rng.standard_normal((count, 1))
    return math.sqrt(rho) * common + math.sqrt(1 - rho) * rng.standard_normal((count, n))


def test_copula_rho_for_inverts_the_correlation():
    # Normal rows (no marginal transform): the pairwise correlation is ρ itself.
    assert copula_rho_for(normal_copula, 0.30) == pytest.approx(0.30, abs=0.01)
    with pytest.raises(ValueError, match="target correlation 0.9 is not reached"):
        copula_rho_for(normal_copula, 0.9)


def test_task_delay_is_the_models_delay():
    # One hand-made block of n_max = 2 tasks: task 0 slow (s = 3 > ln 10), task 1 not (s = 1).
    model = TaskDelayModel("hand", 40.0, 20.0, 10.0, 5.0, slow_prob=0.1, slow_per_mb=100.0, n_max=2)
    block = np.array([0.5, 2.0, 1.5, 0.25, 3.0, 1.0])
    coef = tuple(model.kernel_params())
    fast = [task_delay(block[j], block[2 + j], block[4 + j], 1.5, coef) for j in range(2)]
    np.testing.assert_array_equal(fast, model.delays(block, 1.5, 2))


@pytest.mark.parametrize("model", [SUR, PURE])
def test_delay_table_is_the_models_delays(model):
    blocks = model.draw(np.random.default_rng(5), 2000)
    blocks[0, :3] = [0.0, 1.0, 1.0]  # hand-set variates: a zero and a tie
    for chunk, n in ((3.0, 1), (0.5, 12), (0.75, 7)):
        np.testing.assert_array_equal(
            delay_table(model, blocks, chunk, n), model.delays(blocks, chunk, n)
        )
    with pytest.raises(ValueError, match="n in"):
        delay_table(model, blocks, 1.0, 13)
