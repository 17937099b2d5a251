"""A reference predictor of this reproduction — **not the paper's**: a per-millisecond queue model
on the same continuous-burst counts AccTail sees.

AccTail (Algorithm 1, E13–E14) keeps only each intensity stage's *average* rate: the requests of a
continuous burst are spread evenly over its whole duration. A continuous burst is a busy period
of a queue drained at M × the mean rate, so its average rate is barely above that threshold, and
at any rate a few % above it E14 predicts almost no queueing. :class:`BurstQueue` keeps the
bursts' shape instead: every 1 ms period of every continuous burst keeps its own count ``n_t``,
its requests spread evenly over that period only, and the requests go through the same
fixed-rate pacer as the replay (:class:`~storrepro.papers.accgecko.pacer.Replayer`). The percentile
is read out as in E17–E18 (over every request of the segment, the others assumed faster), plus c.
The gap between the two predictors is what AccTail's averaging discards.
"""

from __future__ import annotations

import math

import numpy as np

from storrepro.papers.accgecko.acctail import check_percentile, check_rate, needed_from_top
from storrepro.papers.accgecko.bursts import continuous_bursts, in_bursts
from storrepro.papers.accgecko.features import DELTA
from storrepro.papers.accgecko.pacer import Replayer


def burst_arrivals(counts: np.ndarray, spans: np.ndarray, delta: float = DELTA) -> np.ndarray:
    """Arrival times (s) of the requests in ``spans`` (inclusive period ranges): the ``n_t``
    requests of period ``t`` at ``(t + (i + 0.5)/n_t) Δ``, ``i = 0..n_t − 1``."""
    counts = np.asarray(counts, dtype=np.int64)
    periods = np.flatnonzero(in_bursts(counts.size, spans) & (counts > 0))
    n = counts[periods]
    starts = np.cumsum(n) - n
    rank = np.arange(n.sum()) - np.repeat(starts, n)
    return (np.repeat(periods, n) + (rank + 0.5) / np.repeat(n, n)) * delta


class BurstQueue:
    """``BurstQueue(m, c_us).fit(counts, mean_count).predict(p, sr)`` (µs); see the module."""

    def __init__(self, m: float = 1.5, c_us: float = 25.0):
        self.m, self.c_us = m, c_us

    def __repr__(self) -> str:
        return f"BurstQueue(m={self.m!r}, c_us={self.c_us!r})"

    def fit(self, counts, mean_count: float | None = None) -> BurstQueue:
        counts = np.asarray(counts)
        self.spans = continuous_bursts(counts, self.m, mean_count=mean_count)
        self.total_requests = int(counts.sum())
        arrivals = burst_arrivals(counts, self.spans)
        self.burst_requests = arrivals.size
        self.replayer = Replayer(arrivals) if arrivals.size else None
        return self

    def latencies_us(self, sr: float) -> np.ndarray:
        sr = check_rate(sr)
        if self.replayer is None:
            return np.empty(0)
        return self.replayer.latencies_us(sr) + self.c_us

    def predict(self, p: float, sr: float) -> float:
        """E17–E18 on the queue model's latencies: the bucket (1 µs) of the
        ``trn (1 − p/100)``-th largest, or c when the bursts hold fewer requests (the same as
        ``percentile_from_top(self.latencies_us(sr), ...)``, without sorting every latency)."""
        needed = needed_from_top(self.total_requests, check_percentile(p))
        if self.burst_requests < needed or needed <= 0:
            return float(self.c_us)
        wait = self.replayer.largest_us(needed, check_rate(sr), use="search")
        return float(math.floor(wait + self.c_us))
