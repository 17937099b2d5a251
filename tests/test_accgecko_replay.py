"""Ground truth: the fast pacer against the simpy node (S1, S2), its exact percentiles, and its
snapshots (replays on fewer requests that change no result)."""

import numpy as np
import pytest

from storrepro.accgecko.node import simulate_node
from storrepro.accgecko.replay import Replayer, dispatch_overhead_us, pacer_waits, rank_from_top
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


def numpy_closed_form(a, overhead, sr):
    """The pacer's closed form with numpy: the arithmetic the kernel must repeat exactly."""
    shifted = a - np.arange(a.size, dtype=float) * (1.0 / sr)
    return (np.maximum.accumulate(shifted) - shifted) * 1e6 + overhead


def test_kernel_repeats_the_closed_form_bit_for_bit():
    rng = np.random.default_rng(5)
    a = bursty(rng, 50_000)
    overhead = dispatch_overhead_us(rng, a.size)
    for sr in (2100.0, 3000.0, 9000.0):
        assert np.array_equal(
            Replayer(a, overhead).latencies_us(sr), numpy_closed_form(a, overhead, sr)
        )


@pytest.mark.parametrize("seed", range(3))
def test_percentiles_are_exact_order_statistics(seed):
    rng = np.random.default_rng(seed)
    a = bursty(rng, 30_000)
    overhead = dispatch_overhead_us(rng, a.size)
    ps = [50.0, 95.0, 99.0, 99.9, 99.99, 99.999]
    for sr in (2000.0, 4000.0, 50_000.0):
        lat = np.sort(numpy_closed_form(a, overhead, sr))[::-1]
        expected = [lat[rank_from_top(a.size, p) - 1] for p in ps]
        assert Replayer(a, overhead).percentiles_us(ps, sr).tolist() == expected
    waits = Replayer(a)  # no overhead: most latencies are exactly 0
    lat = np.sort(numpy_closed_form(a, 0.0, 50_000.0))[::-1]
    assert waits.percentiles_us([50.0, 99.0], 50_000.0).tolist() == [
        lat[rank_from_top(a.size, 50.0) - 1],
        lat[rank_from_top(a.size, 99.0) - 1],
    ]


@pytest.mark.parametrize("seed", range(3))
def test_snapshots_change_no_result(seed):
    """A replayer reused over rates in any order (rate-search order, or a sweep up the rates)
    gives exactly what a fresh replay gives at each rate."""
    rng = np.random.default_rng(seed)
    a = bursty(rng, 40_000)
    overhead = dispatch_overhead_us(rng, a.size)
    rates = [31_000.0, 16_500.0, 9_250.0, 5_625.0, 3_812.0, 4_718.0, 4_265.0, 2_100.0, 60_000.0]
    ps = [99.0, 99.9]
    with_overhead, without = Replayer(a, overhead), Replayer(a)
    for sr in rates:
        fresh = np.sort(numpy_closed_form(a, overhead, sr))[::-1]
        expected = [fresh[rank_from_top(a.size, p) - 1] for p in ps]
        assert with_overhead.percentiles_us(ps, sr, use="search").tolist() == expected
        waits = np.sort(numpy_closed_form(a, 0.0, sr))[::-1]
        assert without.max_wait_us(sr, use="search") == waits[0]
        assert (
            without.percentile_us(99.9, sr, use="search") == waits[rank_from_top(a.size, 99.9) - 1]
        )
    assert len(without._snapshots) > 1 and len(with_overhead._snapshots) > 1  # they took some
    swept = Replayer(a, overhead).percentiles_at(rates, ps)
    for sr in rates:
        assert [swept[sr, p] for p in ps] == Replayer(a, overhead).percentiles_us(ps, sr).tolist()


def test_bad_overhead_shape():
    with pytest.raises(ValueError, match="overhead_us"):
        Replayer([0.0, 1.0], np.zeros(3))


def resource_node(tenants, dispatch_us, processing_us, threads):
    """The node written plainly with a simpy Store per tenant and a simpy Resource pool."""
    import simpy

    env = simpy.Environment()
    pool = simpy.Resource(env, capacity=threads)
    out = []

    def arrive(queue, arrivals):
        for j, a in enumerate(arrivals):
            yield env.timeout(a - env.now)
            queue.put(j)

    def serve(arrival, dispatch, process, j, latency):
        yield env.timeout(dispatch * 1e-6)
        with pool.request() as thread:
            yield thread
            yield env.timeout(process * 1e-6)
        latency[j] = (env.now - arrival) * 1e6

    def pace(queue, spacing, arrivals, dispatch, process, latency):
        last = -np.inf
        while True:
            j = yield queue.get()
            gap = last + spacing - env.now
            if gap > 0:
                yield env.timeout(gap)
            last = env.now
            env.process(serve(arrivals[j], dispatch[j], process[j], j, latency))

    for t, (arrivals, sr) in enumerate(tenants):
        latency = np.full(arrivals.size, np.nan)
        queue = simpy.Store(env)
        env.process(arrive(queue, arrivals))
        env.process(pace(queue, 1 / sr, arrivals, dispatch_us[t], processing_us[t], latency))
        out.append(latency)
    env.run()
    return out


@pytest.mark.parametrize("threads", [1, 2, 10])
def test_node_equals_a_plain_store_and_resource_model(threads):
    rng = np.random.default_rng(threads)
    traces = [bursty(rng, 3000), bursty(rng, 2000)]
    dispatch = [rng.uniform(0, 16, t.size) for t in traces]
    process = [rng.uniform(5, 60, t.size) for t in traces]
    tenants = list(zip(traces, [40_000.0, 60_000.0], strict=True))  # fast: the pool saturates
    ours = simulate_node(tenants, dispatch, process, threads=threads)
    plain = resource_node(tenants, dispatch, process, threads)
    for a, b in zip(ours, plain, strict=True):
        assert np.array_equal(a, b)
