"""AccTail, Algorithm 1 of AccGecko (spec §2.3, E12–E19), and the smallest-rate search (E20).

A model is fitted once on a trace segment's per-period counts: its continuous bursts (``bursts``)
are grouped into ``k`` equal-width stages of average rate ``λ_b = n_b / L_b``; stage ``i`` has the
mean inter-arrival time ``τ_i = Σ L_b / Σ n_b``. At a fixed service rate ``sr`` request ``j``
(from 0) of a continuous burst in stage ``i`` is predicted to wait ``max(0, j (1/sr − τ_i))`` and
to take ``c`` more (IO-thread hand-off and processing): E14, with the dimension typo of the
printed line 9 fixed as spec A1 says. The latencies fill 1 µs buckets; the p-th percentile is the
bucket where the count from the top first reaches ``trn (1 − p/100)``, ``trn`` being every request
of the segment (E17–E18). When the continuous bursts hold fewer requests than that, the
percentile falls among unmodelled requests and the prediction is ``c`` (spec A2).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from storrepro.accgecko.bursts import continuous_bursts
from storrepro.accgecko.features import DELTA


def check_percentile(p: float) -> float:
    if not (isinstance(p, int | float) and 0 < p < 100):
        raise ValueError(f"percentile p = {p!r}: expected a number strictly between 0 and 100")
    return float(p)


def check_rate(sr: float) -> float:
    if not (isinstance(sr, int | float) and math.isfinite(sr) and sr > 0):
        raise ValueError(f"service rate sr = {sr!r}: expected a finite rate > 0 IOPS")
    return float(sr)


def percentile_from_top(latencies_us: np.ndarray, total: int, p: float, floor_us: float) -> float:
    """Lines 12–20 of Algorithm 1 on 1 µs buckets: the bucket where the count of latencies from
    the largest down first reaches ``total (1 − p/100)``; ``floor_us`` if it never does."""
    needed = math.ceil(total * (1 - p / 100) - 1e-9)
    if latencies_us.size < needed or needed <= 0:
        return float(floor_us)
    buckets = np.floor(latencies_us)
    return float(np.partition(buckets, buckets.size - needed)[buckets.size - needed])


class AccTail:
    """AccTail fitted to one segment: ``AccTail(m, k, c_us).fit(counts).predict(p, sr)`` (µs).

    ``m``: service-rate multiple of the mean behind both the burst threshold and ε (spec E8);
    ``k``: number of intensity stages; ``c_us``: the constant c in µs (25 in the paper).
    """

    def __init__(self, m: float = 1.5, k: int = 1, c_us: float = 25.0):
        if not m > 0:
            raise ValueError(f"m = {m!r}: expected a multiple of the mean rate > 0")
        if not (isinstance(k, int) and k >= 1):
            raise ValueError(f"k = {k!r}: expected a whole number of stages >= 1")
        if not c_us >= 0:
            raise ValueError(f"c_us = {c_us!r}: expected a constant >= 0 µs")
        self.m, self.k, self.c_us = m, k, c_us

    def __repr__(self) -> str:
        return f"AccTail(m={self.m!r}, k={self.k!r}, c_us={self.c_us!r})"

    def fit(self, counts, mean_count: float | None = None) -> AccTail:
        """Model the segment with per-period ``counts``; N is ``mean_count`` (default: their
        mean)."""
        counts = np.asarray(counts)
        spans = continuous_bursts(counts, self.m, mean_count=mean_count)
        self.total_requests = int(counts.sum())
        self.sizes = np.array(
            [int(counts[a : e + 1].sum()) for a, e in spans.tolist()], dtype=np.int64
        )
        durations_us = (spans[:, 1] - spans[:, 0] + 1) * DELTA * 1e6
        self.stage_of, self.stage_tau_us = stages(self.sizes, durations_us, self.k)
        starts = np.cumsum(self.sizes) - self.sizes
        self._position = np.arange(self.sizes.sum()) - np.repeat(starts, self.sizes)  # j
        self._stage = np.repeat(self.stage_of, self.sizes)
        return self

    def latencies_us(self, sr: float) -> np.ndarray:
        """E14 for every request of every continuous burst, in µs."""
        sr = check_rate(sr)
        if self.sizes.size == 0:
            return np.empty(0)
        slope = np.maximum(0.0, 1e6 / sr - self.stage_tau_us)  # µs per position, per stage
        return slope[self._stage] * self._position + self.c_us

    def predict(self, p: float, sr: float) -> float:
        """Predicted p-th percentile latency (µs) at fixed service rate ``sr`` (IOPS)."""
        p = check_percentile(p)
        return percentile_from_top(self.latencies_us(sr), self.total_requests, p, self.c_us)

    def overrun_probability(self, slo_us: float, sr: float) -> float:
        """E19: the share of the segment's requests predicted to exceed ``slo_us``."""
        return float(np.count_nonzero(self.latencies_us(sr) > slo_us) / self.total_requests)


def stages(sizes: np.ndarray, durations_us: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """E12–E13: each burst's stage (k equal-width bins of its average rate over [min, max], top
    edge inclusive) and each stage's mean inter-arrival time in µs (NaN for an empty stage)."""
    if sizes.size == 0:
        return np.empty(0, dtype=np.int64), np.full(k, np.nan)
    rates = sizes / durations_us
    low, high = rates.min(), rates.max()
    width = (high - low) / k
    stage = (
        np.zeros(sizes.size, dtype=np.int64)
        if width == 0
        else np.minimum(((rates - low) / width).astype(np.int64), k - 1)
    )
    time = np.bincount(stage, weights=durations_us, minlength=k)
    requests = np.bincount(stage, weights=sizes, minlength=k)
    with np.errstate(invalid="ignore", divide="ignore"):
        tau = time / requests
    return stage, tau


def smallest_rate(
    predict: Callable[[float], float], slo_us: float, low: float, high: float
) -> float:
    """E20: the smallest integer rate in ``(low, high]`` (IOPS) with ``predict(sr) <= slo_us``,
    by binary search (``predict`` must be non-increasing in ``sr``); ``inf`` if even ``high``
    misses the SLO."""
    if not (isinstance(slo_us, int | float) and slo_us > 0):
        raise ValueError(f"SLO = {slo_us!r}: expected a latency bound > 0 µs")
    lo, hi = int(math.floor(low)), int(math.ceil(high))
    if hi <= lo:
        raise ValueError(f"rate range ({low!r}, {high!r}]: expected low < high")
    if predict(hi) > slo_us:
        return math.inf
    while hi - lo > 1:  # predict(hi) meets the SLO; lo is excluded or misses it
        mid = (lo + hi) // 2
        if predict(mid) <= slo_us:
            hi = mid
        else:
            lo = mid
    return float(hi)
