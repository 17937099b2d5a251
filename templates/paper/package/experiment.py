"""The sweeps the notebook calls: the replicates' mean response times (a pool the claims draw
from until they are decided), the mean at another load, and the kernel against the simpy model
on the same requests."""

from __future__ import annotations

import numpy as np

from storrepro.papers.paper_template import kernel, reference
from storrepro.papers.paper_template.workload import requests
from storrepro.suite.replicates import Pool

#: At most this many replicates per claim: one costs a few milliseconds, and 64 bound the
#: sequential rule's looks (the parameter ``replicates`` is where it starts).
CAP = 64


def mean_response(cfg, replicate: int, load: float | None = None,
                  service: str = "exponential") -> float:
    """The mean response time of one replicate (its own random stream from the seed)."""
    arrivals, times = requests(np.random.default_rng([cfg.seed, replicate]), cfg.requests,
                               cfg.load if load is None else load, service)
    return float(kernel.response_times(arrivals, times).mean())


def replicate_pool(cfg, service: str = "exponential") -> Pool:
    """The replicates' mean response times at the configured load, drawn on demand."""
    return Pool(f"mean response ({service})",
                lambda indices: [mean_response(cfg, r, service=service) for r in indices],
                start=cfg.replicates, cap=max(CAP, cfg.replicates),
                cap_why="a bound on the sequential rule's looks; a replicate costs milliseconds")


def means_at(cfg, load: float, service: str) -> list[float]:
    """The replicates' mean response times at ``load`` (for the consistency record)."""
    return [mean_response(cfg, r, load, service) for r in range(cfg.replicates)]


def kernel_gap(cfg, n: int = 2_000) -> float:
    """The largest difference of any request's response time, kernel against simpy model."""
    arrivals, service = requests(np.random.default_rng([cfg.seed, 999]), n, cfg.load)
    fast = kernel.response_times(arrivals, service)
    return float(np.abs(fast - reference.response_times(arrivals, service)).max())


def sample_responses(cfg) -> np.ndarray:
    """The response times of the first replicate, for the figure."""
    arrivals, service = requests(np.random.default_rng([cfg.seed, 0]), cfg.requests, cfg.load)
    return kernel.response_times(arrivals, service)
