"""The storage node in simpy: per-tenant fixed-rate pacers feeding a shared IO-thread pool.

This is the reference of the fast path ``kernel.node_latencies`` (check S1). Each tenant has its
own FIFO queue and a pacer that releases the head request no sooner than ``1/sr`` after the
previous release; a released request waits ``W`` to be dispatched, takes one of ``threads`` IO
threads (Ceph Jewel's default 5 shards × 2) for ``X``, and completes. With the pool never full,
latency is ``s_j − a_j + W + X`` exactly as in the fast path; a saturated pool adds thread waits.

Arrivals and pacers are simpy processes; a tenant's queue is the shared
:class:`~storrepro.sim.wakeup_queue.WakeupQueue`, the dispatch and processing steps are timeouts
with callbacks, and the pool a FIFO of requests waiting for a thread — the same event times as a
``simpy.Store`` and a ``simpy.Resource``, with fewer events per request (the S1 check replays
120 000 requests).
"""

from __future__ import annotations

from collections import deque

import numpy as np
import simpy

from storrepro.papers.accgecko.acctail import check_rate
from storrepro.papers.accgecko.features import check_arrivals
from storrepro.sim.wakeup_queue import WakeupQueue

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
    pool = ThreadPool(env, threads)
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
        queue = WakeupQueue(env)
        env.process(_arrive(env, queue, arrivals))
        served = Served(arrivals.tolist(), process.tolist(), latency)
        env.process(_pace(env, queue, 1.0 / sr, pool, dispatch_us[t].tolist(), served))
        results.append(latency)
    env.run()
    return results


class Served:
    """One tenant's requests as the pool sees them: arrival times, processing times, and where
    each completed request's latency goes."""

    def __init__(self, arrivals: list, process_us: list, latency: np.ndarray):
        self.arrivals, self.process_us, self.latency = arrivals, process_us, latency


class ThreadPool:
    """``threads`` IO threads taking dispatched requests first come, first served."""

    def __init__(self, env: simpy.Environment, threads: int):
        self.env, self.free, self.waiting = env, threads, deque()

    def enter(self, served: Served, j: int) -> None:
        if self.free:
            self.free -= 1
            self._start(served, j)
        else:
            self.waiting.append((served, j))

    def _start(self, served: Served, j: int) -> None:
        done = self.env.timeout(served.process_us[j] * 1e-6)
        done.callbacks.append(lambda _: self._finish(served, j))

    def _finish(self, served: Served, j: int) -> None:
        served.latency[j] = (self.env.now - served.arrivals[j]) * 1e6
        if self.waiting:
            self._start(*self.waiting.popleft())  # the thread goes to the next in line
        else:
            self.free += 1


def _arrive(env, queue, arrivals):
    for j, a in enumerate(arrivals.tolist()):
        yield env.timeout(a - env.now)
        queue.put(j)


def _pace(env, queue, spacing, pool, dispatch, served):
    last = -np.inf
    while True:
        j = yield from queue.get()
        gap = last + spacing - env.now
        if gap > 0:
            yield env.timeout(gap)
        last = env.now
        dispatched = env.timeout(dispatch[j] * 1e-6)
        dispatched.callbacks.append(lambda _, j=j: pool.enter(served, j))
