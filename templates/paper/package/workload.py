"""The stand-in workload: Poisson arrivals at rate ``load`` and exponential service times of
mean 1 (the paper's disk, in units of its mean service time)."""

from __future__ import annotations

import numpy as np


def requests(rng: np.random.Generator, n: int, load: float) -> tuple[np.ndarray, np.ndarray]:
    """Arrival times and service times of ``n`` requests."""
    if not 0 < load < 1:
        raise ValueError(f"load = {load!r}: expected a utilisation in (0, 1)")
    arrivals = np.cumsum(rng.exponential(1 / load, n))
    return arrivals, rng.exponential(1.0, n)
