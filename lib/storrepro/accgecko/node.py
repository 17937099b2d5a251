"""The storage node in simpy: per-tenant fixed-rate pacers feeding a shared IO-thread pool.

This is the reference for ``replay.Replayer`` (spec §4.3; check S1). Each tenant has its own FIFO
queue and a pacer that releases the head request no sooner than ``1/sr`` after the previous
release; a released request waits ``W`` to be dispatched, takes one of ``threads`` IO threads
(Ceph Jewel's default 5 shards × 2) for ``X``, and completes. With the pool never full, latency is
``s_j − a_j + W + X`` exactly as in the fast path; a saturated pool adds thread waits.
"""

from __future__ import annotations

import numpy as np
import simpy

from storrepro.accgecko.acctail import check_rate
from storrepro.accgecko.features import check_arrivals

IO_THREADS = 10


def simulate_node(
    tenants: list[tuple[np.ndarray, float]],
    dispatch_us: list[np.ndarray],
    processing_us: float | list[np.ndarray] = 17.0,
    threads: int = IO_THREADS,
) -> list[np.ndarray]:
    """Latency (µs) of every request of every tenant, in arrival order.

    ``tenants``: ``(arrivals in s, fixed rate in IOPS)`` each; ``dispatch_us``: the dispatch wait
    of each request; ``processing_us``: a constant or per-request processing times.
    """
    if threads < 1:
        raise ValueError(f"threads = {threads!r}: expected >= 1")
    if len(dispatch_us) != len(tenants):
        raise ValueError("dispatch_us: expected one array per tenant")
    env = simpy.Environment()
    pool = simpy.Resource(env, capacity=threads)
    results = []
    for t, (arrivals, sr) in enumerate(tenants):
        arrivals = check_arrivals(arrivals)
        sr = check_rate(sr)
        process = (
            np.full(arrivals.size, float(processing_us))
            if np.isscalar(processing_us)
            else np.asarray(processing_us[t], dtype=float)
        )
        latency = np.full(arrivals.size, np.nan)
        queue = simpy.Store(env)
        env.process(_arrive(env, queue, arrivals))
        env.process(_pace(env, queue, 1.0 / sr, pool, arrivals, dispatch_us[t], process, latency))
        results.append(latency)
    env.run()
    return results


def _arrive(env, queue, arrivals):
    for j, a in enumerate(arrivals):
        yield env.timeout(a - env.now)
        queue.put(j)


def _pace(env, queue, spacing, pool, arrivals, dispatch, process, latency):
    last = -np.inf
    while True:
        j = yield queue.get()
        gap = last + spacing - env.now
        if gap > 0:
            yield env.timeout(gap)
        last = env.now
        env.process(_serve(env, pool, arrivals[j], dispatch[j], process[j], j, latency))


def _serve(env, pool, arrival, dispatch, process, j, latency):
    yield env.timeout(dispatch * 1e-6)
    with pool.request() as thread:
        yield thread
        yield env.timeout(process * 1e-6)
    latency[j] = (env.now - arrival) * 1e6
