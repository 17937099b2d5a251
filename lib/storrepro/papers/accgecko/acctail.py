"""AccTail, Algorithm 1 of AccGecko (§3.3), and the controller's smallest-rate search.

A model is fitted once on a trace segment's per-period counts: its continuous bursts (``bursts``)
are grouped into ``k`` equal-width stages of average rate ``λ_b = n_b / L_b``; stage ``i`` has the
mean inter-arrival time ``τ_i = Σ L_b / Σ n_b``. At a fixed service rate ``sr`` request ``j``
(from 0) of a continuous burst in stage ``i`` is predicted to wait ``max(0, j (1/sr − τ_i))`` and
to take ``c`` more (IO-thread hand-off and processing): line 9, with its dimension typo fixed
(our reading of line 7's interval). The latencies fill 1 µs buckets; the p-th percentile is the
bucket where the count from the top first reaches ``trn (1 − p/100)``, ``trn`` being every
request of the segment (lines 12–20). When the continuous bursts hold fewer requests than that,
the percentile falls among unmodelled requests and the prediction is ``c`` (our reading).

Line 9's ``1/bs_i.avg_interval`` has two readings (``interval``): ``"stage_ratio"`` takes line 7
as printed, ``τ_i = Σ L_b / Σ n_b`` (the stage's total burst time over its requests);
``"mean_of_rates"`` follows the text, which calls the quantity the stage's "average sending rate"
(请求平均发送速率), the mean of its bursts' line-2 rates ``λ_b``: ``τ_i = 1 / mean(λ_b)``.

Two more choices the paper leaves open (the readings ``trn`` and ``epsilon`` of the notebook):
``trn="segment"`` counts every request of the segment in line 12's ``trn``;
``trn="burst"`` counts the requests of the continuous bursts, the population whose latency
AccTail predicts ("the probability that a request's latency exceeds the limit during continuous
bursts"). ``epsilon="fixed"`` finds the continuous bursts once, with ε = 1/(M·N);
``epsilon="rate"`` finds them again for each rate ``sr`` evaluated, with the neighbourhood of
that rate, ε = 1/(sr·Δ) (cores stay above M·N): §3.2 derives ε from "the preset request service
rate", which the rate search varies.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numba
import numpy as np

from storrepro.papers.accgecko.bursts import (
    burst_sizes,
    bursts_at_level,
    continuous_bursts,
    core_states,
    integer_counts,
    prefix_sums,
)
from storrepro.papers.accgecko.features import DELTA
from storrepro.suite.checks import finite, whole

INTERVALS = ("stage_ratio", "mean_of_rates")
TRNS = ("segment", "burst")
EPSILONS = ("fixed", "rate")


def check_percentile(p: float) -> float:
    if not (isinstance(p, int | float) and 0 < p < 100):
        raise ValueError(f"percentile p = {p!r}: expected a number strictly between 0 and 100")
    return float(p)


def check_rate(sr: float) -> float:
    if not (isinstance(sr, int | float) and math.isfinite(sr) and sr > 0):
        raise ValueError(f"service rate sr = {sr!r}: expected a finite rate > 0 IOPS")
    return float(sr)


def needed_from_top(total: int, p: float) -> int:
    """Line 12 of Algorithm 1: how many requests lie at or above the p-th percentile."""
    return math.ceil(total * (1 - p / 100) - 1e-9)


def percentile_from_top(latencies_us: np.ndarray, total: int, p: float, floor_us: float) -> float:
    """Lines 12–20 of Algorithm 1 on 1 µs buckets: the bucket where the count of latencies from
    the largest down first reaches ``total (1 − p/100)``; ``floor_us`` if it never does."""
    needed = needed_from_top(total, p)
    if latencies_us.size < needed or needed <= 0:
        return float(floor_us)
    buckets = np.floor(latencies_us)
    return float(np.partition(buckets, buckets.size - needed)[buckets.size - needed])


@numba.njit(cache=True)
def _largest_bucket(sizes, stage_starts, slopes, c_us, needed):
    """The ``needed``-th largest bucket ``⌊slopes[i]·j + c⌋`` over every burst request: burst
    ``b`` of stage ``i`` holds positions ``j = 0..sizes[b] − 1``, its sizes sorted from the
    largest within each stage (``stage_starts[i]`` to ``stage_starts[i + 1]``). A stage's
    buckets never fall as ``j`` grows, so the stages are merged from their top position down,
    each position counted once per burst that reaches it: :func:`percentile_from_top` of every
    burst request's latency, without listing them. Needs at least ``needed`` positions."""
    k = slopes.size
    position = np.full(k, -1, np.int64)  # each stage's next position down
    reached = np.zeros(k, np.int64)  # how many of its bursts reach that position
    for i in range(k):
        if stage_starts[i + 1] > stage_starts[i]:
            position[i] = sizes[stage_starts[i]] - 1
    left = needed
    while True:
        best, value = -1, -np.inf
        for i in range(k):
            if position[i] >= 0:
                bucket = np.floor(slopes[i] * position[i] + c_us)
                if best < 0 or bucket > value:
                    best, value = i, bucket
        i = best
        while stage_starts[i] + reached[i] < stage_starts[i + 1] and (
            sizes[stage_starts[i] + reached[i]] > position[i]
        ):
            reached[i] += 1
        left -= reached[i]
        if left <= 0:
            return value
        position[i] -= 1


class AccTail:
    """AccTail fitted to one segment: ``AccTail(m, k, c_us).fit(counts).predict(p, sr)`` (µs).

    ``m``: service-rate multiple of the mean behind both the burst threshold and ε;
    ``k``: number of intensity stages; ``c_us``: the constant c in µs (25 in the paper);
    ``interval``, ``trn``, ``epsilon``: the readings of line 9's stage interval, line 12's trn
    and ε (see the module docstring).
    """

    def __init__(
        self, m: float = 1.5, k: int = 1, c_us: float = 25.0, interval: str = "stage_ratio",
        trn: str = "segment", epsilon: str = "fixed",
    ):  # fmt: skip
        for name, value, allowed in (("interval", interval, INTERVALS), ("trn", trn, TRNS),
                                     ("epsilon", epsilon, EPSILONS)):  # fmt: skip
            if value not in allowed:
                raise ValueError(f"{name} = {value!r}: expected one of {allowed}")
        self.interval, self.trn, self.epsilon = interval, trn, epsilon
        finite("m (multiple of the mean rate)", m, minimum=0.0, strict=True)
        k = whole("k (intensity stages)", k, minimum=1)
        finite("c_us", c_us, minimum=0.0, unit="µs")
        self.m, self.k, self.c_us = m, k, c_us

    def __repr__(self) -> str:
        return (f"AccTail(m={self.m!r}, k={self.k!r}, c_us={self.c_us!r}, "
                f"trn={self.trn!r}, epsilon={self.epsilon!r})")  # fmt: skip

    def fit(self, counts, mean_count: float | None = None,
            bursts: RateBursts | None = None) -> AccTail:  # fmt: skip
        """Model the segment with per-period ``counts``; N is ``mean_count`` (default: their
        mean). With ``epsilon="rate"`` the bursts are found per rate, when one is evaluated.
        ``bursts``, the :class:`RateBursts` of the same counts from the cores above M·N, shares
        the bursts found (and the counts' prefix sums) with the other models of the segment."""
        counts = np.asarray(counts)
        core = self.m * (counts.mean() if mean_count is None else mean_count)
        shared = bursts is not None
        if not shared:
            spans = continuous_bursts(counts, self.m, mean_count=mean_count)  # checks the input
            bursts = RateBursts(counts, core) if self.epsilon == "rate" else None
        elif bursts.core != core or bursts.counts.size != counts.size:
            raise ValueError(
                f"bursts: found at core level {bursts.core!r} on {bursts.counts.size} periods; "
                f"this model needs {core!r} on {counts.size}"
            )
        else:
            spans = bursts.at(core)  # ε = 1/(M·N): the cores' own level
        if self.epsilon == "rate":
            self._bursts = bursts
            self._at: dict[float, AccTail] = {}
            self._of_spans: dict[bytes, AccTail] = {}
            self._predicted: dict[tuple[float, float], float] = {}
        if shared:
            return self._from_spans(bursts.counts, spans, bursts.prefix)
        return self._from_spans(counts, spans)

    def _at_rate(self, sr: float) -> AccTail:
        """``epsilon="rate"``: the model on the continuous bursts whose neighbourhood is the
        rate ``sr`` (``sr·Δ`` requests per period), memoised per rate, and built once per set of
        bursts (nearby rates of a search mostly find the same ones)."""
        if sr not in self._at:
            bursts = self._bursts
            spans = bursts.at(max(sr * DELTA, bursts.core))
            key = spans.tobytes()
            if key not in self._of_spans:
                fixed = AccTail(self.m, self.k, self.c_us, self.interval, self.trn)
                self._of_spans[key] = fixed._from_spans(bursts.counts, spans, bursts.prefix)
            self._at[sr] = self._of_spans[key]
        return self._at[sr]

    def _from_spans(self, counts: np.ndarray, spans: np.ndarray, prefix=None) -> AccTail:
        """Algorithm 1's histogram inputs from the continuous bursts ``spans`` (``prefix``: the
        counts' prefix sums, when known)."""
        self.sizes = burst_sizes(counts, spans, prefix)
        # line 12's trn: every request of the segment, or those of its continuous bursts
        whole = int(counts.sum()) if prefix is None else int(prefix[-1])
        self.total_requests = whole if self.trn == "segment" else int(self.sizes.sum())
        durations_us = (spans[:, 1] - spans[:, 0] + 1) * DELTA * 1e6
        self.stage_of, self.stage_tau_us = stages(
            self.sizes, durations_us, self.k, self.interval
        )
        self.positions = int(self.sizes.sum())  # burst requests
        # the read-out's input: sizes by stage, largest first within each
        order = np.lexsort((-self.sizes, self.stage_of))
        self._sorted_sizes = self.sizes[order]
        self._stage_starts = np.searchsorted(self.stage_of[order], np.arange(self.k + 1))
        self._listed = None  # every burst request's position and stage, listed when needed
        return self

    def _requests(self) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """Every burst request's position j and stage, and each stage's positions largest first
        (the top of the histogram for any rate)."""
        if self._listed is None:
            starts = np.cumsum(self.sizes) - self.sizes
            position = np.arange(self.positions) - np.repeat(starts, self.sizes)  # j
            stage = np.repeat(self.stage_of, self.sizes)
            tops = [np.sort(position[stage == i])[::-1] for i in range(self.k)]
            self._listed = (position, stage, tops)
        return self._listed

    def latencies_us(self, sr: float) -> np.ndarray:
        """E14 for every request of every continuous burst, in µs."""
        sr = check_rate(sr)
        if self.epsilon == "rate":
            return self._at_rate(sr).latencies_us(sr)
        if self.sizes.size == 0:
            return np.empty(0)
        position, stage, _ = self._requests()
        return self._slopes(sr)[stage] * position + self.c_us

    def _slopes(self, sr: float) -> np.ndarray:
        return np.maximum(0.0, 1e6 / sr - self.stage_tau_us)  # µs per position, per stage

    def predict(self, p: float, sr: float) -> float:
        """Predicted p-th percentile latency (µs) at fixed service rate ``sr`` (IOPS).

        Latency grows with the position j within a stage, so the stages' positions are merged
        from the top (:func:`_largest_bucket`): the same bucket as ranking every burst request
        (``percentile_from_top`` of ``latencies_us``)."""
        p = check_percentile(p)
        if self.epsilon == "rate":
            sr = check_rate(sr)
            if (p, sr) not in self._predicted:
                self._predicted[p, sr] = self._at_rate(sr).predict(p, sr)
            return self._predicted[p, sr]
        slopes = self._slopes(check_rate(sr))
        needed = needed_from_top(self.total_requests, p)
        if self.positions < needed or needed <= 0:
            return float(self.c_us)
        return float(_largest_bucket(self._sorted_sizes, self._stage_starts, slopes,
                                     float(self.c_us), needed))  # fmt: skip

    def smallest_rate(self, p: float, slo_us: float, low: float, high: float) -> float:
        """:func:`smallest_rate` of :meth:`predict`, from the rates themselves: a burst request
        at position j > 0 of stage i reaches bucket ``S = ⌊slo⌋ + 1`` exactly while
        ``sr <= 1e6 / (τ_i + (S − c)/j)``, so the answer is just above the ``needed``-th largest
        of those rates; a step either way against :meth:`predict` settles the rounding."""
        p = check_percentile(p)
        if self.epsilon == "rate":  # the bursts move with the rate: search on the predictions
            return smallest_rate(lambda r: self.predict(p, r), slo_us, low, high)
        lo, hi = search_range(slo_us, low, high)
        reach = math.floor(slo_us) + 1 - self.c_us  # what the queueing part must reach
        needed = needed_from_top(self.total_requests, p)
        rate = lo + 1  # where fewer than ``needed`` requests can reach the bucket (or all miss)
        if self.positions >= needed > 0 and reach > 0:
            tops = [top[:needed] for top in self._requests()[2]]
            limits = np.concatenate([1e6 / (tau + reach / top[top > 0])
                                     for tau, top in zip(self.stage_tau_us, tops, strict=True)])
            if limits.size >= needed:
                worst = np.partition(limits, limits.size - needed)[-needed]
                rate = min(max(rate, math.floor(min(worst, hi)) + 1), hi)
        if self.predict(p, hi) > slo_us:
            return math.inf
        while self.predict(p, rate) > slo_us:
            rate += 1
        while rate - 1 > lo and self.predict(p, rate - 1) <= slo_us:
            rate -= 1
        return float(rate)

    def overrun_probability(self, slo_us: float, sr: float) -> float:
        """E19: the share of line 12's trn requests predicted to exceed ``slo_us``."""
        finite("slo_us", slo_us, minimum=0.0, strict=True, unit="µs")
        if self.epsilon == "rate":
            return self._at_rate(check_rate(sr)).overrun_probability(slo_us, sr)
        return float(np.count_nonzero(self.latencies_us(sr) > slo_us) / self.total_requests)


class RateBursts:
    """The continuous bursts of one segment's ``counts`` from the cores above ``core`` (M·N)
    requests per period, at any neighbourhood level — the cores' own (ε = 1/(M·N)), or a rate's
    (reading ``epsilon=rate``) —, each level's found once: the models fitted to the segment with
    the same M and N share them, and the counts' prefix sums."""

    def __init__(self, counts, core: float):
        finite("core (M·N)", core, minimum=0.0, strict=True, unit="requests per period")
        self.counts = integer_counts(counts)
        self.prefix = prefix_sums(self.counts)
        self.core = core
        self.cores = core_states(self.counts, core)
        self._spans: dict[float, np.ndarray] = {}

    def at(self, level: float) -> np.ndarray:
        """The continuous bursts whose mean from the core stays above ``level``."""
        if level not in self._spans:
            self._spans[level] = bursts_at_level(self.counts, self.prefix, self.cores, level)
        return self._spans[level]


def stages(
    sizes: np.ndarray, durations_us: np.ndarray, k: int, interval: str = "stage_ratio"
) -> tuple[np.ndarray, np.ndarray]:
    """E12–E13: each burst's stage (k equal-width bins of its average rate over [min, max], top
    edge inclusive) and each stage's mean inter-arrival time in µs (NaN for an empty stage):
    ``Σ L_b / Σ n_b`` (``interval="stage_ratio"``) or ``1 / mean(λ_b)`` (``"mean_of_rates"``)."""
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
    with np.errstate(invalid="ignore", divide="ignore"):
        if interval == "mean_of_rates":
            bursts = np.bincount(stage, minlength=k)
            tau = bursts / np.bincount(stage, weights=rates, minlength=k)
        else:
            time = np.bincount(stage, weights=durations_us, minlength=k)
            tau = time / np.bincount(stage, weights=sizes, minlength=k)
    return stage, tau


def smallest_rate(
    predict: Callable[[float], float], slo_us: float, low: float, high: float
) -> float:
    """E20: the smallest integer rate in ``(low, high]`` (IOPS) with ``predict(sr) <= slo_us``
    (``predict`` must be non-increasing in ``sr``); ``inf`` if even ``high`` misses the SLO.

    A bracket search: ``hi`` always meets the SLO and ``lo`` misses it (or is ``low``, excluded),
    so it ends at the same rate as plain bisection. Each probe is guessed by interpolating
    log(latency) against log(rate) between the bracket's ends once both are known, and is the
    midpoint whenever the previous guess failed to halve the bracket."""
    lo, hi = search_range(slo_us, low, high)
    at_hi, at_lo = predict(hi), math.inf
    if at_hi > slo_us:
        return math.inf
    guided = True
    while hi - lo > 1:
        width, probe = hi - lo, (lo + hi) // 2
        if guided and lo > 0 and math.isfinite(at_lo) and at_lo > at_hi > 0:
            share = math.log(at_lo / slo_us) / math.log(at_lo / at_hi)
            guess = round(math.exp(math.log(lo) + share * math.log(hi / lo)))
            probe = min(hi - 1, max(lo + 1, guess))
        value = predict(probe)
        if value <= slo_us:
            hi, at_hi = probe, value
        else:
            lo, at_lo = probe, value
        guided = not guided or hi - lo <= width / 2
    return float(hi)


def search_range(slo_us: float, low: float, high: float) -> tuple[int, int]:
    """A rate search's checked SLO and its integer rate range ``(lo, hi]``."""
    finite("slo_us", slo_us, minimum=0.0, strict=True, unit="µs")
    finite("low", low, minimum=None)
    finite("high", high, minimum=None)
    lo, hi = int(math.floor(low)), int(math.ceil(high))
    if hi <= lo:
        raise ValueError(f"rate range ({low!r}, {high!r}]: expected low < high")
    return lo, hi
