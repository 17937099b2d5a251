"""The simpy-free side of the cloud store (:mod:`storrepro.sim.cloud_store`): the state a coding
policy observes, when it is asked, and the Poisson arrival process the store is replayed with.

Policies and fast kernels import these without loading simpy.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from storrepro.suite.checks import finite

DECISION_POINTS = ("arrival", "admission")


@dataclass(frozen=True)
class StoreState:
    """What a coding policy may observe when it picks a request's code."""

    now: float
    queue_length: int  # requests waiting in the request queue, excluding the one being coded
    idle_threads: int
    task_queue_length: int
    in_service: int  # admitted requests not yet complete
    n_threads: int


#: ``policy(state) -> (n, k)``.
Policy = Callable[[StoreState], tuple[int, int]]
#: ``sampler(rng, chunk_size, n) -> array of n task delays (ms)``.
TaskSampler = Callable[[np.random.Generator, float, int], np.ndarray]


def poisson_arrival_times(
    rng: np.random.Generator, rate_per_s: float, duration_ms: float
) -> np.ndarray:
    """Arrival times (ms) in [0, duration_ms) of a Poisson process of ``rate_per_s`` req/s."""
    finite("rate_per_s", rate_per_s, strict=True, unit="req/s")
    finite("duration_ms", duration_ms)
    mean_gap = 1000.0 / rate_per_s
    expected = duration_ms / mean_gap
    times = np.cumsum(rng.exponential(mean_gap, int(expected + 6 * math.sqrt(expected) + 10)))
    while times[-1] < duration_ms:  # rare: the first draw fell short
        extra = np.cumsum(rng.exponential(mean_gap, len(times))) + times[-1]
        times = np.concatenate([times, extra])
    return times[times < duration_ms]
