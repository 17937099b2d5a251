"""Ground truth: the vectorized pacer against the simpy node (S1, S2), and its compression."""

import numpy as np
import pytest

from storrepro.accgecko.node import simulate_node
from storrepro.accgecko.replay import (
    Replayer,
    dispatch_overhead_us,
    pacer_waits,
    rank_from_top,
    ranked_from_top,
)
from storrepro.sim.fifo import simulate_fifo


def bursty(rng, n):
    gaps = rng.exponential(1 / 2000, n)
    gaps[rng.random(n) < 0.05] /= 20  # clumps
    return np.cumsum(gaps)


def test_pacer_closed_form_equals_the_recursion_and_the_fifo_server():
    rng = np.random.default_rng(0)
    a = bursty(rng, 3000)
    sr = 2500.0
    start, expected = -np.inf, []
    for t in a:
        start = max(t, start + 1 / sr)
        expected.append(start - t)
    assert pacer_waits(a, sr) == pytest.approx(np.array(expected), abs=1e-12)
    waits, _ = simulate_fifo(a, np.full(a.size, 1 / sr))  # the shared simpy FIFO
    assert pacer_waits(a, sr) == pytest.approx(waits, abs=1e-9)


def test_s1_fast_path_equals_the_simpy_node_per_request():
    rng = np.random.default_rng(1)
    traces = [bursty(rng, 4000), bursty(rng, 3000)]
    dispatch = [rng.uniform(0, 16, t.size) for t in traces]
    rates = [3000.0, 4500.0]
    simpy_lat = simulate_node(list(zip(traces, rates, strict=True)), dispatch)
    for t, w, r, s in zip(traces, dispatch, rates, simpy_lat, strict=True):
        fast = Replayer(t, w + 17.0).latencies_us(r)
        assert np.max(np.abs(fast - s)) < 1e-3  # µs
        assert abs(np.quantile(fast, 0.999) - np.quantile(s, 0.999)) <= 1.0


def test_a_saturated_pool_adds_waits_the_fast_path_does_not_model():
    a = np.arange(50) * 1e-6  # 50 requests in 50 µs, paced at 1 M IOPS, one thread of 17 µs
    lat = simulate_node([(a, 1e6)], [np.zeros(50)], threads=1)[0]
    fast = Replayer(a, np.full(50, 17.0)).latencies_us(1e6)
    assert lat[-1] > fast[-1] + 100


def test_s2_constant_rate_burst():
    lam, sr = 8000.0, 3000.0
    a = np.arange(100) / lam
    lat = simulate_node([(a, sr)], [np.zeros(100)], processing_us=0.0)[0]
    assert lat == pytest.approx(np.arange(100) * (1 / sr - 1 / lam) * 1e6, rel=1e-9, abs=1e-6)


def test_percentile_is_the_ranked_request():
    a = np.arange(1000) * 1e-3  # never queues at 2000 IOPS
    overhead = np.arange(1000, dtype=float)
    rep = Replayer(a, overhead)
    assert rank_from_top(1000, 99) == 10
    assert rep.percentile_us(99, 2000.0) == 990.0
    assert rep.percentiles_us([99, 99.9], 2000.0).tolist() == [990.0, 999.0]


@pytest.mark.parametrize("seed", range(3))
def test_compression_keeps_results_for_higher_rates(seed):
    rng = np.random.default_rng(seed)
    a = bursty(rng, 20000)
    overhead = dispatch_overhead_us(rng, a.size)
    full = Replayer(a, overhead)
    small = full.compress(2200.0)
    assert small.arrivals.size < a.size
    for sr in (2200.0, 2600.0, 4000.0, 9000.0):
        assert small.max_wait_us(sr) == pytest.approx(full.max_wait_us(sr), abs=1e-6)
        got = small.percentile_us(99.0, sr)
        assert got is None or got == pytest.approx(full.percentile_us(99.0, sr), abs=1e-6)
    with pytest.raises(ValueError, match="compressed"):
        small.max_wait_us(2000.0)


def test_bad_overhead_shape():
    with pytest.raises(ValueError, match="overhead_us"):
        Replayer([0.0, 1.0], np.zeros(3))


@pytest.mark.parametrize("rank", [1, 7, 3600, 20_000, 150_000])
def test_ranked_from_top_is_exact(rank):
    rng = np.random.default_rng(rank)
    values = np.concatenate((np.zeros(200_000), rng.exponential(1.0, 160_000)))
    rng.shuffle(values)
    assert ranked_from_top(values, rank) == np.sort(values)[-rank]
