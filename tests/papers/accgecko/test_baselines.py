"""PriorityMeister and SNC-Meister in their simplified fixed-rate forms."""

import math

import numpy as np
import pytest
from scipy import stats

from storrepro.papers.accgecko.acctail import smallest_rate
from storrepro.papers.accgecko.baselines import (
    PriorityMeister,
    SncMeister,
    fold_errors,
    lambda_states,
    mmpp_count_pmf,
)
from storrepro.papers.accgecko.pacer import Replayer
from storrepro.sim.fifo import simulate_fifo


def test_u1_lambda_states_of_the_fig5_example():
    counts = np.array([14, 1, 2, 3, 7, 1, 2, 9, 1])
    rates, edges, state = lambda_states(counts)
    assert rates[0] == pytest.approx((math.sqrt(15) - 1) ** 2) and rates[0] == pytest.approx(
        8.254, abs=1e-3
    )
    assert edges[0] == pytest.approx(2.508, abs=1e-3)
    # counts 3..14 in the top state, 1..2 in the residual state at their mean (A4)
    assert state.tolist() == [0, 1, 1, 0, 0, 1, 1, 0, 1]
    assert rates.size == 2 and rates[1] == pytest.approx(np.mean([1, 2, 1, 2, 1]))


def test_lambda_descends_by_the_poisson_confidence():
    counts = np.array([0, 30, 12, 4, 1])
    rates, edges, _ = lambda_states(counts)
    for hi, lo in zip(rates, rates[1:], strict=False):
        assert lo == pytest.approx((math.sqrt(hi) - 2) ** 2)
    assert edges == pytest.approx(rates - 2 * np.sqrt(rates))


def test_mmpp_pmf_is_the_poisson_mixture():
    counts = np.array([14, 1, 2, 3, 7, 1, 2, 9, 1])
    rates, _, state = lambda_states(counts)
    share = np.bincount(state) / state.size
    values = np.arange(0, 15)
    expected = share[0] * stats.poisson.pmf(values, rates[0]) + share[1] * stats.poisson.pmf(
        values, rates[1]
    )
    assert mmpp_count_pmf(counts, values) == pytest.approx(expected)
    assert fold_errors(np.array([0.2, 0.0, 0.5]), np.array([0.1, 0.3, 0.5])).tolist() == [2.0, 1.0]


def test_u5_pm_is_the_max_latency_of_the_replay():
    rng = np.random.default_rng(0)
    a = np.cumsum(rng.exponential(1 / 2000, 5000))
    for r in (2200.0, 3000.0):
        waits, _ = simulate_fifo(a, np.full(a.size, 1 / r))
        assert PriorityMeister(25.0).fit(a).predict(99, r) == pytest.approx(
            waits.max() * 1e6 + 25.0, abs=1e-3
        )
        assert PriorityMeister().fit(a).predict(99.9, r) == PriorityMeister().fit(a).predict(50, r)


def chernoff_reference(p_step, eps, serve, thetas):
    """E23–E24 for a single-state chain, by brute force over a θ grid."""
    best = math.inf
    for th in thetas:
        rho = math.log(p_step * math.exp(th) + 1 - p_step) / th
        if rho < serve:
            best = min(best, -math.log(eps * (1 - math.exp(th * (rho - serve)))) / th / serve)
    return best


def test_snc_bound_matches_the_formula_for_one_state():
    counts = np.full(1000, 2)  # one LAMBDA state at rate (sqrt(3) - 1)^2 per ms
    model = SncMeister(c_us=0.0).fit(counts)
    lam = (math.sqrt(2 + 1) - 1) ** 2
    assert model.step_prob == pytest.approx([lam / 100])
    for p, sr in ((99.0, 3000.0), (99.9, 5000.0)):
        ref = chernoff_reference(lam / 100, 1 - p / 100, sr * 1e-5, np.logspace(-4, 2, 20000))
        assert model.bound_us(p, sr) == pytest.approx(ref * 10.0, rel=1e-3)  # steps of 10 µs


def test_snc_bound_falls_with_rate_and_rises_with_percentile():
    rng = np.random.default_rng(1)
    counts = rng.poisson(2, 20000)
    counts[rng.integers(0, 20000, 200)] += 8
    model = SncMeister().fit(counts)
    rates = [4000.0, 6000.0, 9000.0]
    assert model.predict(99, rates[0]) > model.predict(99, rates[1]) > model.predict(99, rates[2])
    assert model.predict(99.9, 6000.0) > model.predict(99, 6000.0)
    assert model.predict(99, 1000.0) == math.inf  # below the model's mean rate


def test_snc_bounds_of_a_search_are_a_fresh_models(monkeypatch):
    """One model asked for every (p, rate) of a search, its arrival rates at the θ probed kept,
    gives exactly what a fresh model gives for each alone, and it probes θ again."""
    rng = np.random.default_rng(2)
    counts = rng.poisson(2, 20000)
    counts[rng.integers(0, 20000, 300)] += 6
    model = SncMeister().fit(counts)
    computed, probed = [], []
    eigvals, rate_at = np.linalg.eigvals, SncMeister._rate_at
    monkeypatch.setattr(np.linalg, "eigvals", lambda a: computed.append(a) or eigvals(a))
    monkeypatch.setattr(SncMeister, "_rate_at",
                        lambda self, theta: probed.append(theta) or rate_at(self, theta))
    asked = [(p, sr) for p in (99.0, 99.9) for sr in np.linspace(3000.0, 9000.0, 25)]
    kept = [model.bound_us(p, sr) for p, sr in asked]
    assert len(computed) == len(set(probed)) < len(probed)  # each θ computed once
    # the one-θ arrival rate is the grid's arithmetic on one θ, to the bit
    thetas = sorted(set(probed))
    assert [rate_at(model, t) for t in thetas] == [model.arrival_rate(t)[0] for t in thetas]
    fresh = [SncMeister().fit(counts).bound_us(p, sr) for p, sr in asked]
    assert kept == fresh


def test_snc_transition_matrix_rows_are_stochastic():
    counts = np.array([0, 9, 9, 0, 0, 9, 0, 0, 0, 9] * 20)
    model = SncMeister().fit(counts)
    assert model.chain.sum(axis=1) == pytest.approx(np.ones(model.chain.shape[0]))
    assert (model.chain >= 0).all()


def test_bad_snc_rates_option():
    with pytest.raises(ValueError, match="rates"):
        SncMeister(rates="median")


def test_pm_searches_as_plain_replays_do():
    """PM predicts through one reused replayer (snapshots); the rate search gives the rate a
    fresh replay at every step gives."""
    rng = np.random.default_rng(4)
    gaps = rng.exponential(1 / 2000, 30_000)
    gaps[rng.random(gaps.size) < 0.03] /= 30
    arrivals = np.cumsum(gaps)
    pm = PriorityMeister(25.0).fit(arrivals)
    for p in (99.0, 99.9):
        for slo in (200.0, 1000.0):
            reused = smallest_rate(lambda r, p=p: pm.predict(p, r), slo, 2000, 40_000)
            fresh = smallest_rate(lambda r: Replayer(arrivals).max_wait_us(r) + 25.0, slo, 2000,
                                  40_000)  # fmt: skip
            assert reused == fresh
