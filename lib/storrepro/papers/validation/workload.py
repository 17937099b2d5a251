"""The random inputs of notebook 00's checks: Poisson arrivals and service times of mean 1 for
the queues, and the random reads of the speed measurement.

Plain numpy (no simpy): the simulators that consume these draws live in ``experiment``. Every
draw comes from the generator passed in, in a fixed order, so a task's inputs depend on its seed
only.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from storrepro.suite.checks import MAX_COUNT, whole

QUEUES = ("M/M/1", "M/D/1", "M/G/1")
GAMMA_SHAPE = 4.0  # M/G/1 service: gamma with mean 1 and squared coefficient of variation 1/4
#: Sectors of the HDD model's disk the random reads of the speed measurement fall in.
DISK_SECTORS = 488_000_000


@dataclass(frozen=True)
class QueueTask:
    """One simulated FIFO queue: its type, load, size and replication index (its random stream)."""

    STREAM = ("queue", "load", "customers", "replication")  # what keys its random stream
    queue: str
    load: float
    customers: int
    replication: int = 0

    def __post_init__(self):
        if self.queue not in QUEUES:
            raise ValueError(f"queue = {self.queue!r}: expected one of {', '.join(QUEUES)}")
        if not 0 < self.load < 1:
            raise ValueError(f"load = {self.load!r}: expected a utilisation in (0, 1)")
        if self.customers < 0:
            raise ValueError(f"customers = {self.customers!r}: expected a count >= 0")


def service_times(queue: str, rng: np.random.Generator, count: int) -> np.ndarray:
    """Service times with mean 1 for each queue type."""
    count = whole("count", count, maximum=MAX_COUNT)
    if queue == "M/M/1":
        return rng.exponential(1.0, count)
    if queue == "M/D/1":
        return np.ones(count)
    if queue == "M/G/1":
        return rng.gamma(GAMMA_SHAPE, 1.0 / GAMMA_SHAPE, count)
    raise ValueError(f"queue = {queue!r}: expected one of {', '.join(QUEUES)}")


def queue_inputs(task: QueueTask, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Arrival times (a Poisson process of rate ``task.load``: the mean service is 1) and
    service times of one queue run, drawn in that order."""
    arrivals = np.cumsum(rng.exponential(1.0 / task.load, size=task.customers))
    return arrivals, service_times(task.queue, rng, task.customers)


def random_reads(rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray]:
    """Start sectors of ``count`` reads spread over the whole disk, and the gaps between them
    (ms, mean 25: about 60 % utilisation of the HDD model)."""
    count = whole("count", count, maximum=MAX_COUNT)
    return rng.integers(0, DISK_SECTORS, count), rng.exponential(25.0, count)
