"""Bench cases of notebook 02: the storage node in simpy and on its fast path; the tenant pool."""

from __future__ import annotations

import numpy as np

from storrepro.suite.bench_cases import Simulator, Sweep, digest


def _tenant(n, rng, rate=2000.0):
    """One tenant: Poisson arrivals (s) and each request's dispatch overhead (µs)."""
    from storrepro.papers.accgecko.kernel import dispatch_overhead_us

    return np.cumsum(rng.exponential(1 / rate, n)), dispatch_overhead_us(rng, n)


def _node_simpy(n, rng, rate=3000.0):
    from storrepro.papers.accgecko.kernel import PROCESSING_US
    from storrepro.papers.accgecko.reference import simulate_node

    arrivals, overhead = _tenant(n, rng)
    simulate_node([(arrivals, rate)], [overhead - PROCESSING_US])


def _node_fast(n, rng, rate=3000.0):
    from storrepro.papers.accgecko.kernel import PROCESSING_US, node_latencies

    arrivals, overhead = _tenant(n, rng)
    node_latencies([(arrivals, rate)], [overhead - PROCESSING_US])


SIMULATORS = [
    Simulator("AccGecko node (one tenant, load 0.67)", "simpy", _node_simpy, 20_000, False),
    Simulator("AccGecko node (one tenant, load 0.67)", "fast", _node_fast, 1_000_000, False),
]


def largest_sweep() -> Sweep:
    from storrepro.papers.accgecko.config import AccGeckoConfig
    from storrepro.papers.accgecko.experiment import sweeps

    cfg = AccGeckoConfig(profile="full")
    tasks = sweeps.tenant_tasks(cfg)
    return Sweep(
        "tenant pool: replay, predictors, rate search",
        sweeps.evaluate_tenant,
        tasks,
        cfg.seed,
        digest,
    )
