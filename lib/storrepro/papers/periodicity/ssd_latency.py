"""The SSD of the scheduling study (our stand-in for the paper's MQSim setup): its constants and
the arrival and backlog model shared by the fast latency path (:mod:`.kernel`) and its plain
twin (:mod:`.plain`).

Requests are 32 KB (64 sectors of 512 B). In each 1-s sub-bin an SSD receives a Poisson number
of requests at rate ``λ = traffic / 32 KB``. A fluid backlog carries over between sub-bins
(``Q_k = max(0, Q_{k-1} + N_k - S)``, Eq. (1)'s overload regime) and a request arriving in
sub-bin k waits ``Q_{k-1}/S`` for it, then an M/M/1 sojourn of rate ``S - λ_k`` (floored at
5 % of S when λ_k >= S), plus a constant base latency. The SSD's latency distribution is the
arrival-weighted mixture over its sub-bins; the mean and the 99.99 % quantile are read from it.

``S_OPS`` puts the Fig. 2 knee at 12 000 ops/s (there the M/M/1 99.99 % latency is ten times its
no-load value: ``S = 12000 / 0.9``). ``BASE_S`` makes the mean latency 127 µs at the paper's mean
per-SSD load (2.5 GB/s over 96 SSDs).
"""

from __future__ import annotations

import numpy as np

from storrepro.papers.periodicity.workload import REQUEST_BYTES

S_OPS = 12_000 / 0.9
MEAN_OPS = 2.5e9 / 96 / REQUEST_BYTES
BASE_S = 127e-6 - 1 / (S_OPS - MEAN_OPS)


def eq1_delay(arrival_rate, service_rate: float = S_OPS) -> np.ndarray:
    """Eq. (1): D = 1/(S - A), infinite at and beyond saturation."""
    a = np.asarray(arrival_rate, dtype=float)
    with np.errstate(divide="ignore"):
        return np.where(a < service_rate, 1.0 / (service_rate - a), np.inf)


def sub_bin_arrivals(bytes_per_minute: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Poisson request counts per 1-s sub-bin, shape (..., minutes * 60)."""
    rate = np.repeat(np.asarray(bytes_per_minute, dtype=float) / 60 / REQUEST_BYTES, 60, axis=-1)
    return rng.poisson(rate).astype(float), rate


def backlog(counts: np.ndarray, service: float = S_OPS) -> np.ndarray:
    """Fluid backlog at the end of each 1-s sub-bin (Lindley recursion in closed form)."""
    c = np.cumsum(counts - service, axis=-1)
    floor = np.minimum.accumulate(np.minimum(c, 0.0), axis=-1)
    return c - floor
