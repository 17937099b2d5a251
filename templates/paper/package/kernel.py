"""The fast path of :mod:`.reference`: departures of a FIFO server in closed form,
``d_n = C_n + max_{j<=n}(a_j - C_{j-1})`` with ``C_n`` the cumulative service."""

from __future__ import annotations

import numpy as np


def response_times(arrivals: np.ndarray, service: np.ndarray) -> np.ndarray:
    """Each request's time in the system, as the simpy model gives it."""
    done = np.cumsum(service)
    before = np.concatenate(([0.0], done[:-1]))
    departures = done + np.maximum.accumulate(arrivals - before)
    return departures - arrivals
