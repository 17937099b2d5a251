"""The storage node: the simpy model (``reference``) against its fast path (``kernel``) request
by request (S1), a constant-rate burst against its closed form (S2), and the simpy model against
the same node written plainly with a simpy Store and Resource."""

import numpy as np
import pytest

from accgecko_samples import bursty
from storrepro.papers.accgecko.kernel import node_latencies
from storrepro.papers.accgecko.reference import simulate_node


def test_s1_fast_path_equals_the_simpy_node_per_request():
    rng = np.random.default_rng(1)
    traces = [bursty(rng, 4000), bursty(rng, 3000)]
    dispatch = [rng.uniform(0, 16, t.size) for t in traces]
    rates = [3000.0, 4500.0]
    simpy_lat = simulate_node(list(zip(traces, rates, strict=True)), dispatch)
    fast_lat = node_latencies(list(zip(traces, rates, strict=True)), dispatch)
    for fast, s in zip(fast_lat, simpy_lat, strict=True):
        assert np.max(np.abs(fast - s)) < 1e-3  # µs
        assert abs(np.quantile(fast, 0.999) - np.quantile(s, 0.999)) <= 1.0


def test_a_saturated_pool_adds_waits_the_fast_path_does_not_model():
    a = np.arange(50) * 1e-6  # 50 requests in 50 µs, paced at 1 M IOPS, one thread of 17 µs
    lat = simulate_node([(a, 1e6)], [np.zeros(50)], threads=1)[0]
    fast = node_latencies([(a, 1e6)], [np.zeros(50)])[0]
    assert lat[-1] > fast[-1] + 100


def test_s2_constant_rate_burst():
    lam, sr = 8000.0, 3000.0
    a = np.arange(100) / lam
    lat = simulate_node([(a, sr)], [np.zeros(100)], processing_us=0.0)[0]
    assert lat == pytest.approx(np.arange(100) * (1 / sr - 1 / lam) * 1e6, rel=1e-9, abs=1e-6)


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


def test_kernel_rejects_mismatched_inputs():
    with pytest.raises(ValueError, match="dispatch_us"):
        node_latencies([(np.arange(3) * 1e-3, 1000.0)], [])
    with pytest.raises(ValueError, match="processing_us"):
        node_latencies([(np.arange(3) * 1e-3, 1000.0)], [np.zeros(3)], processing_us=-1.0)
