"""Checks of the simulators (S1, S2) and of the paper's procedures (U1, U2)."""

from __future__ import annotations

import math

import numpy as np

from storrepro.papers.accgecko.baselines import lambda_states
from storrepro.papers.accgecko.bursts import continuous_bursts
from storrepro.papers.accgecko.kernel import node_latencies
from storrepro.papers.accgecko.reference import simulate_node
from storrepro.papers.accgecko.workload import G1, MEAN_RATE, generate


def simulator_check(
    params: G1, requests: int, rate: float, rng: np.random.Generator
) -> dict[str, float]:
    """S1: two co-located tenants on the simpy node vs the fast path, request by request."""
    duration = math.ceil(requests / MEAN_RATE / 60) * 60.0
    traces = [generate(params, duration, rng, 60.0)[:requests] for _ in range(2)]
    dispatch = [rng.uniform(0, 16, t.size) for t in traces]
    tenants = [(t, rate) for t in traces]
    simpy_lat = simulate_node(tenants, dispatch)
    fast = node_latencies(tenants, dispatch)
    diff = max(float(np.max(np.abs(s - f))) for s, f in zip(simpy_lat, fast, strict=True))
    p999 = max(
        abs(np.quantile(s, 0.999) - np.quantile(f, 0.999))
        for s, f in zip(simpy_lat, fast, strict=True)
    )
    return {"requests": sum(t.size for t in traces), "max_abs_diff_us": diff, "p999_diff_us": p999}


def constant_burst_check(burst_rate: float, sr: float, size: int) -> dict[str, float]:
    """S2: a burst at constant spacing 1/burst_rate > sr on the simpy node; waits vs
    ``j (1/sr − 1/burst_rate)``."""
    arrivals = np.arange(size) / burst_rate
    latency = simulate_node([(arrivals, sr)], [np.zeros(size)], processing_us=0.0)[0]
    expected = np.arange(size) * (1 / sr - 1 / burst_rate) * 1e6
    rel = np.abs(latency[1:] - expected[1:]) / expected[1:]
    return {"max_rel_error": float(rel.max()), "last_wait_us": float(latency[-1])}


def procedure_checks(cases) -> dict:
    """U1 and U2's inputs: LAMBDA on the paper's Fig. 5 example (its rates, edges and which
    counts 1..14 fall in the top state or below), and the DBSCAN scan (N = 2, M = 2) on each of
    the hand-made ``cases``."""
    rates, edges, _ = lambda_states(np.array([14, 2, 1, 3, 5, 1]))
    covers = [sorted({n for n in range(1, 15) if (n > edges[0]) == top}) for top in (True, False)]
    found = {c: continuous_bursts(np.array(c), 2.0, mean_count=2.0).tolist() for c in cases}
    return {"rates": rates, "edges": edges, "covers": covers, "found": found}
