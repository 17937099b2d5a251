"""Ground truth: a tenant's trace replayed through its fixed-rate queue (spec §2.4, §4.3).

The pacer starts request ``j`` at ``s_j = max(a_j, s_{j-1} + 1/sr)`` (one FIFO per tenant, minimum
spacing ``1/sr``, no slot alignment); the request is then handed to an IO thread after a dispatch
wait ``W ~ U(0, 16 µs)`` and processed for ``X = 17 µs``, so its server-side latency is
``s_j − a_j + W + X`` (E[W + X] = 25 µs = the paper's c). ``node.simulate_node`` is the simpy
reference of this model; :class:`Replayer` is its vectorized fast path for one uncontended
tenant, from the closed form ``s_j = j/sr + max_{i<=j}(a_i − i/sr)`` — a test shows both give the
same latency for every request.
"""

from __future__ import annotations

import math

import numpy as np

from storrepro.accgecko.acctail import check_percentile, check_rate
from storrepro.accgecko.features import check_arrivals

PROCESSING_US = 17.0  # IO-thread processing time X, measured in the paper
DISPATCH_MAX_US = 16.0  # dispatch wait W ~ U(0, 16 µs), so E[W + X] = 25 µs


def dispatch_overhead_us(rng: np.random.Generator, count: int) -> np.ndarray:
    """``W + X`` in µs for ``count`` requests."""
    return PROCESSING_US + rng.uniform(0.0, DISPATCH_MAX_US, count)


def pacer_waits(arrivals, sr: float) -> np.ndarray:
    """Queueing delay ``s_j − a_j`` (seconds) of every request at fixed rate ``sr`` (IOPS)."""
    return Replayer(arrivals)._waits(check_rate(sr))


def rank_from_top(total: int, p: float) -> int:
    """How many requests lie at or above the p-th percentile: ``ceil(total (1 − p/100))``."""
    return max(1, math.ceil(total * (1 - p / 100) - 1e-9))


def ranked_from_top(values: np.ndarray, rank: int) -> float:
    """The ``rank``-th largest of ``values`` (1-based). Exact; for a small rank it partitions only
    the values above a threshold taken from a strided sample (falling back to a full partition
    when the threshold keeps too few)."""
    n = values.size
    if rank * 20 < n and n > 100_000:
        stride = 16
        sample = values[::stride]
        guess = min(sample.size - 1, 2 * rank // stride + 16)  # about 2x the needed candidates
        threshold = np.partition(sample, sample.size - 1 - guess)[sample.size - 1 - guess]
        candidates = values[values >= threshold]
        if candidates.size >= rank:
            return float(np.partition(candidates, candidates.size - rank)[candidates.size - rank])
    return float(np.partition(values, n - rank)[n - rank])


class Replayer:
    """One tenant's trace, replayed at any fixed rate; reuses its buffers between rates.

    :meth:`compress` keeps only the requests that queue at a rate ``r0`` (and the request opening
    each busy period): at any rate ``>= r0`` the others still find the queue empty, since every
    start time is non-increasing in the rate, and the pacer restarts at each opener, so replays
    at higher rates shrink with the busy periods (a test checks the results are unchanged).
    """

    def __init__(self, arrivals, overhead_us: np.ndarray | None = None):
        self.arrivals = check_arrivals(arrivals)
        n = self.arrivals.size
        if overhead_us is not None and np.shape(overhead_us) != (n,):
            raise ValueError(f"overhead_us: expected {n} values, got shape {np.shape(overhead_us)}")
        self.overhead_us = overhead_us
        self.total = n  # requests of the original trace
        self.floor_rate = 0.0  # results are exact for rates >= floor_rate
        self.dropped_max_us = -np.inf  # largest latency of a dropped (never-waiting) request
        self._index = np.arange(n, dtype=float)
        self._shifted = np.empty(n)
        self._wait = np.empty(n)

    def _waits(self, sr: float) -> np.ndarray:
        np.multiply(self._index, 1.0 / sr, out=self._shifted)
        np.subtract(self.arrivals, self._shifted, out=self._shifted)  # a_i − i/sr
        np.maximum.accumulate(self._shifted, out=self._wait)
        np.subtract(self._wait, self._shifted, out=self._wait)  # s_j − a_j
        return self._wait

    def latencies_us(self, sr: float) -> np.ndarray:
        """Server-side latency of every request in µs (a fresh array)."""
        latency = self._waits(check_rate(sr)) * 1e6
        return latency + self.overhead_us if self.overhead_us is not None else latency.copy()

    def _check_floor(self, sr: float) -> float:
        sr = check_rate(sr)
        if sr < self.floor_rate:
            raise ValueError(f"sr = {sr!r}: this replayer was compressed at {self.floor_rate!r}")
        return sr

    def percentile_us(self, p: float, sr: float) -> float | None:
        """The p-th percentile latency in µs (the ``rank_from_top``-th largest of all
        ``total`` requests); ``None`` if compression dropped the requests that decide it."""
        p = check_percentile(p)
        latency = self._waits(self._check_floor(sr))
        latency *= 1e6
        if self.overhead_us is not None:
            latency += self.overhead_us
        rank = rank_from_top(self.total, p)
        if rank > latency.size:
            return None
        value = ranked_from_top(latency, rank)
        return value if value >= self.dropped_max_us else None

    def percentiles_then_compress(self, ps, sr: float, shrink: float = 0.7):
        """``{p: percentile or None}`` at ``sr``, and a replayer for rates ``>= sr``: compressed
        from the same replay if that keeps under ``shrink`` of the requests, else ``self``."""
        wait = self._waits(self._check_floor(sr))
        latency = wait * 1e6
        if self.overhead_us is not None:
            latency += self.overhead_us
        out = {}
        for p in ps:
            rank = rank_from_top(self.total, check_percentile(p))
            if rank > latency.size:
                out[p] = None
                continue
            value = ranked_from_top(latency, rank)
            out[p] = value if value >= self.dropped_max_us else None
        busy = np.count_nonzero(wait) / max(wait.size, 1)
        return out, (self.compress(sr, wait) if busy < shrink * 0.9 else self)

    def percentiles_us(self, ps, sr: float) -> np.ndarray:
        """Several percentiles from one replay of an uncompressed trace."""
        if self.total != self.arrivals.size:
            raise ValueError("percentiles_us needs an uncompressed replayer")
        ps = [check_percentile(p) for p in ps]
        latency = self.latencies_us(sr)
        return np.array([ranked_from_top(latency, rank_from_top(latency.size, p)) for p in ps])

    def max_wait_us(self, sr: float) -> float:
        return float(self._waits(self._check_floor(sr)).max() * 1e6)

    def compress(self, sr: float, wait: np.ndarray | None = None) -> Replayer:
        """A replayer exact for every rate ``>= sr`` on the requests that queue at ``sr``
        (``wait``: this replayer's waits at ``sr`` if already computed)."""
        if wait is None:
            wait = self._waits(self._check_floor(sr))
        keep = wait > 0
        keep[:-1] |= keep[1:]  # the opener of each busy period
        out = Replayer.__new__(Replayer)
        out.arrivals = self.arrivals[keep]
        out.overhead_us = None if self.overhead_us is None else self.overhead_us[keep]
        out.total, out.floor_rate = self.total, sr
        dropped = 0.0 if self.overhead_us is None else self.overhead_us[~keep]
        out.dropped_max_us = max(
            self.dropped_max_us, float(np.max(dropped, initial=0.0)) if np.size(dropped) else 0.0
        )
        n = out.arrivals.size
        out._index = np.arange(n, dtype=float)
        out._shifted, out._wait = np.empty(n), np.empty(n)
        return out
