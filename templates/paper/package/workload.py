"""The stand-in workload: Poisson arrivals at rate ``load`` and service times of mean 1 (the
paper's disk, in units of its mean service time), exponential or all equal (the ``service``
reading)."""

from __future__ import annotations

import numpy as np

SERVICES = ("exponential", "deterministic")


def requests(rng: np.random.Generator, n: int, load: float,
             service: str = "exponential") -> tuple[np.ndarray, np.ndarray]:
    """Arrival times and service times of ``n`` requests."""
    if not 0 < load < 1:
        raise ValueError(f"load = {load!r}: expected a utilisation in (0, 1)")
    if service not in SERVICES:
        raise ValueError(f"service = {service!r}: expected one of {SERVICES}")
    arrivals = np.cumsum(rng.exponential(1 / load, n))
    times = rng.exponential(1.0, n) if service == "exponential" else np.ones(n)
    return arrivals, times
