"""The storage node's fast path: each tenant's fixed-rate pacer, then an IO thread.

A request paced out at ``s_j`` waits ``W ~ U(0, 16 µs)`` to be dispatched and is processed for
``X = 17 µs`` (E[W + X] = 25 µs = the paper's c), so its server-side latency is
``s_j − a_j + W + X``. With the node's IO-thread pool never full (10 threads of 17 µs serve
about 590k IOPS, far above any node capacity the notebook admits), tenants do not interact and
each is one :class:`~storrepro.papers.accgecko.pacer.Replayer` with its overheads: the same latency,
to rounding, as the simpy node (``reference.simulate_node``) for every request (check S1).
"""

from __future__ import annotations

import numpy as np

from storrepro.papers.accgecko.pacer import Replayer

PROCESSING_US = 17.0  # IO-thread processing time X, measured in the paper
DISPATCH_MAX_US = 16.0  # dispatch wait W ~ U(0, 16 µs), so E[W + X] = 25 µs


def dispatch_overhead_us(rng: np.random.Generator, count: int) -> np.ndarray:
    """``W + X`` in µs for ``count`` requests."""
    return PROCESSING_US + rng.uniform(0.0, DISPATCH_MAX_US, count)


def node_latencies(
    tenants: list[tuple[np.ndarray, float]],
    dispatch_us: list[np.ndarray],
    processing_us: float = PROCESSING_US,
) -> list[np.ndarray]:
    """Latency (µs) of every request of every tenant, in arrival order: the fast twin of
    ``reference.simulate_node`` for a pool that is never full.

    ``tenants``: ``(arrivals in s, fixed rate in IOPS)`` each; ``dispatch_us``: the dispatch wait
    of each request; ``processing_us``: the processing time of every request.
    """
    if len(dispatch_us) != len(tenants):
        raise ValueError(
            f"dispatch_us: expected one array per tenant ({len(tenants)}), got {len(dispatch_us)}"
        )
    if not processing_us >= 0:
        raise ValueError(f"processing_us = {processing_us!r}: expected >= 0 µs")
    return [
        Replayer(arrivals, np.asarray(wait, dtype=float) + processing_us).latencies_us(rate)
        for (arrivals, rate), wait in zip(tenants, dispatch_us, strict=True)
    ]
