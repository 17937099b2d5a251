"""Synthetic tenants: rates, sortedness, reproducibility, the Table 1 replicas."""

import numpy as np
import pytest

from storrepro.papers.accgecko.features import burst_features, period_counts
from storrepro.papers.accgecko.workload import (
    G1,
    G2,
    generate,
    merge_sorted,
    table1_trace,
    tenant_pool,
)

PARAMS = G1(2.0, 1.0, 3.0, 4, 3.0, 5.0, 2.0)


def test_merge_sorted():
    assert merge_sorted(np.array([1.0, 3.0, 5.0]), np.array([0.5, 3.0, 9.0])).tolist() == [
        0.5,
        1.0,
        3.0,
        3.0,
        5.0,
        9.0,
    ]


@pytest.mark.parametrize("params", [PARAMS, G2(4.0, 0.01, 2.0)])
def test_traces_are_sorted_at_the_mean_rate_and_reproducible(params):
    a = generate(params, 60.0, np.random.default_rng(5), segment_s=30.0)
    b = generate(params, 60.0, np.random.default_rng(5), segment_s=30.0)
    assert np.array_equal(a, b)
    assert np.all(np.diff(a) >= 0) and a[0] >= 0 and a[-1] < 60.0
    assert abs(a.size / 60.0 - 2000) < 2000 * 0.03


def test_g1_knobs_move_the_features_they_control():
    rng = np.random.default_rng(0)
    dense = G1(3.0, 0.5, 5.0, 3, 3.0, 3.5, 1.0)
    sparse = G1(3.0, 0.5, 1.0, 3, 3.0, 3.5, 1.0)
    f = {
        name: burst_features(period_counts(generate(p, 300.0, rng), 300.0), mean_count=2.0)
        for name, p in (("dense", dense), ("sparse", sparse))
    }
    assert f["dense"]["max_duration_ms"] > f["sparse"]["max_duration_ms"]
    assert f["dense"]["total_burst_ms"] > f["sparse"]["total_burst_ms"]


def test_table1_replicas_differ_only_in_density():
    f = {
        L: burst_features(
            period_counts(table1_trace(L, np.random.default_rng(0)), 300.0), mean_count=2.0
        )
        for L in (11, 27)
    }
    for feats in f.values():
        assert abs(feats["total_burst_ms"] - 2800) / 2800 < 0.07
        assert 2.5 < feats["intensity"] < 2.9
    assert f[11]["max_duration_ms"] >= 9 and f[27]["max_duration_ms"] >= 2 * 11


def test_pool_mixes_generators_deterministically():
    pool = tenant_pool(10, 0.2, np.random.default_rng(0))
    assert sum(isinstance(p, G2) for p in pool) == 2
    assert pool == tenant_pool(10, 0.2, np.random.default_rng(0))


@pytest.mark.parametrize("duration", [0.0, 45.0])
def test_bad_duration(duration):
    with pytest.raises(ValueError, match="duration"):
        generate(PARAMS, duration, np.random.default_rng(0), segment_s=30.0)


def test_g2_has_no_within_ms_poisson_noise():
    """G2's arrivals are a Gamma(3) renewal in modulated time: per-ms counts in its base state
    vary far less than Poisson counts (variance = mean) would."""
    from storrepro.papers.accgecko.features import period_counts
    from storrepro.papers.accgecko.workload import generate_g2

    arrivals = generate_g2(G2(3.0, 0.003, 1.0), 60.0, np.random.default_rng(1))
    counts = period_counts(arrivals, 60.0)
    assert abs(arrivals.size / 60.0 - 2000.0) < 100.0
    assert counts.var() / counts.mean() < 0.7
    assert np.mean(counts > 4) < 0.02  # Poisson(2): 5.3 % of periods above 2x the mean


def burst_states_loop(rng, periods, burst_ms, base_ms):
    """G2's states by the loop :func:`burst_states` replaces: one draw per sojourn."""
    state = np.zeros(periods, dtype=bool)
    t, burst = int(rng.exponential(base_ms)), True
    while t < periods:
        span = max(1, int(round(rng.exponential(burst_ms if burst else base_ms))))
        state[t : t + span] = burst
        t, burst = t + span, not burst
    return state


@pytest.mark.parametrize("periods, burst_ms, base_ms", [
    (1_800_000, 1.5, 150.0), (60_000, 1.0, 332.0), (5_000, 2.0, 98.0), (200, 2.0, 5e4),
    (3, 1.0, 0.2), (10_000, 40.0, 0.5)])  # fmt: skip
def test_burst_states_are_the_loops_and_leave_the_stream_where_it_did(periods, burst_ms, base_ms):
    """The same states as one draw per sojourn, and the generator left where that loop left it
    (a base state longer than the trace; a first guess of 3 draws, too few)."""
    from storrepro.papers.accgecko.workload import burst_states

    for seed, guess in ((0, None), (1, None), (2, 3)):  # 3 draws first: too few, drawn again
        loop_rng, rng = np.random.default_rng(seed), np.random.default_rng(seed)
        want = burst_states_loop(loop_rng, periods, burst_ms, base_ms)
        assert np.array_equal(burst_states(rng, periods, burst_ms, base_ms, guess), want)
        assert rng.random(4).tolist() == loop_rng.random(4).tolist()
