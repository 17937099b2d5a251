"""The sweeps the notebook calls: the replicates' mean response times, and the kernel against
the simpy model on the same requests."""

from __future__ import annotations

import numpy as np

from storrepro.papers.paper_template import kernel, reference
from storrepro.papers.paper_template.workload import requests


def replicate_means(cfg) -> np.ndarray:
    """The mean response time of each replicate (its own random stream from the seed)."""
    means = []
    for r in range(cfg.replicates):
        arrivals, service = requests(np.random.default_rng([cfg.seed, r]), cfg.requests,
                                     cfg.load)
        means.append(float(kernel.response_times(arrivals, service).mean()))
    return np.array(means)


def kernel_gap(cfg, n: int = 2_000) -> float:
    """The largest difference of any request's response time, kernel against simpy model."""
    arrivals, service = requests(np.random.default_rng([cfg.seed, 999]), n, cfg.load)
    fast = kernel.response_times(arrivals, service)
    return float(np.abs(fast - reference.response_times(arrivals, service)).max())


def sample_responses(cfg) -> np.ndarray:
    """The response times of the first replicate, for the figure."""
    arrivals, service = requests(np.random.default_rng([cfg.seed, 0]), cfg.requests, cfg.load)
    return kernel.response_times(arrivals, service)
