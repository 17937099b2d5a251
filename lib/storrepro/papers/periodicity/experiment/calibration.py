"""The load calibrations of the scheduling study: what is fitted, per replicate, so that hash
placement shows §5.2.1's load numbers. Each fit runs on the evaluation's own draws (the
latency seed of each 6-h interval, the traffic scaled in float32 as the replicate then
scales it: :func:`hash_load`), so the numbers claim F0 reads from the evaluation's
hash-placement rows are the fitted ones, not a second sample of them.

* :func:`calibrate_ssds_differ` (``load_regime = ssds_differ``, the primary): at the paper's
  traffic, the segment volumes' lognormal sigma sets the worst SSD (a few SSDs carry the
  largest segments) and the seconds of each minute in which requests arrive set the typical
  SSD's tail (:mod:`.ssd_latency`): two knobs for the two latency numbers, worst SSD ≈ 10 ms
  and mean per-SSD tail 1.019 ms.
* :func:`calibrate_load` (``load_regime = worst_ssd_10ms``): one factor on all traffic, fitted
  to the worst SSD of the first interval.
"""

from __future__ import annotations

import numpy as np

from storrepro.papers.periodicity import scheduling
from storrepro.papers.periodicity.kernel import IntervalDraws
from storrepro.papers.periodicity.ssd_latency import SMOOTH
from storrepro.papers.periodicity.workload import (
    MINUTES_PER_INTERVAL,
    Workload,
    segment_totals,
    volume_skew,
)

#: The range of volume sigmas :func:`sigma_bracket` searches.
SKEW_RANGE = (0.0, 3.0)
#: The range of arrival seconds (of each minute) :func:`calibrate_ssds_differ` searches.
SECONDS_RANGE = (1, SMOOTH)
#: The search stops at a mean tail this close to its target (as a ratio): far inside the
#: ×/÷ 1.15 of "approx", and closer than neighbouring seconds usually fall (2–3 % apart).
MEAN_TOLERANCE = 0.01
#: Bisection steps on :data:`SKEW_RANGE`: a bracket of 0.0007 in sigma, across which the worst
#: SSD's tail, steep near its knee, still moves by some percent (8 % in the full profile).
SIGMA_STEPS = 12


def hash_load(w: Workload, start: int, factor) -> np.ndarray:
    """Per-SSD traffic under hash placement of the interval at ``start``, the traffic scaled
    by ``factor`` as the replicate scales it (:func:`.scheduling.interval_load`)."""
    return scheduling.interval_load(w, start, w.placement, factor)


def interval_draws(w: Workload, seeds: list[int] | IntervalDraws) -> IntervalDraws:
    """``seeds`` (each interval's latency seed) as the replicate's :class:`~.kernel.
    IntervalDraws`, or those draws themselves: a fit given the replicate's draws leaves them,
    and the SSD numbers it drew, to the evaluation."""
    if isinstance(seeds, IntervalDraws):
        return seeds
    return IntervalDraws(seeds, w.spec.ssds, MINUTES_PER_INTERVAL)


def skew_factor(w: Workload, sigma: float, totals: np.ndarray | None = None) -> np.ndarray:
    """The float32 column of per-segment factors that gives the volumes lognormal ``sigma``
    (:func:`.workload.volume_skew`), as the replicate applies it."""
    return volume_skew(w, sigma, totals)[:, None].astype(np.float32)


def calibrate_load(w: Workload, target_ms: float, seeds: list[int] | IntervalDraws,
                   steps: int = 16) -> tuple[float, dict]:
    """The factor k on all traffic at which hash placement's worst SSD has a 99.99 % latency of
    ``target_ms`` in the first evaluation interval, drawn with that interval's seed
    ``seeds[0]`` (bisection on log k in [1/16, 256])."""
    start = scheduling.interval_starts(w)[0]
    first = interval_draws(w, seeds)(0)

    def below(k):  # the worst SSD's tail below the target (:func:`~.kernel.tail_below`)
        return first.below(hash_load(w, start, np.float32(k)), target_ms)

    lo, hi = np.log(1 / 16), np.log(256.0)
    for _ in range(steps):
        mid = (lo + hi) / 2
        if below(np.exp(mid)):
            lo = mid
        else:
            hi = mid
    k = float(np.exp((lo + hi) / 2))
    return k, {"scale": k, "target_ms": target_ms}


def sigma_bracket(w: Workload, target_ms: float, seeds: list[int] | IntervalDraws,
                  arrival_seconds: int = SMOOTH, steps: int = SIGMA_STEPS,
                  totals: np.ndarray | None = None) -> tuple[float, float]:
    """The bisection's last bracket ``(lo, hi)`` of volume sigmas (in :data:`SKEW_RANGE`):
    hash placement's worst SSD, over every evaluation interval, is below ``target_ms`` at
    ``lo`` and at or over it at ``hi`` (unless ``lo`` or ``hi`` is an end of the range), the
    total traffic unchanged (interval k drawn with ``seeds[k]``). Fitted on the first interval
    alone, a later interval's bursts can push an SSD past saturation (a tail of seconds):
    every interval is held to the target."""
    starts = scheduling.interval_starts(w)
    totals = segment_totals(w) if totals is None else totals
    draws = interval_draws(w, seeds)

    def over(factor, k):
        return not draws(k, arrival_seconds).below(hash_load(w, starts[k], factor), target_ms)

    lo, hi = SKEW_RANGE
    order = list(range(len(starts)))  # the intervals, the last one over the target first
    for _ in range(steps):
        mid = (lo + hi) / 2
        factor = skew_factor(w, mid, totals)
        k = first_over(order, lambda k, factor=factor: over(factor, k))
        if k is None:
            lo = mid
        else:
            hi = mid
            order.insert(0, order.pop(order.index(k)))
    return lo, hi


def fit_sigma(w: Workload, target_ms: float, seeds: list[int] | IntervalDraws,
              arrival_seconds: int = SMOOTH,
              totals: np.ndarray | None = None) -> list[tuple[float, float, float]]:
    """``(sigma, worst, mean)`` at both ends of :func:`sigma_bracket`, the end at which hash
    placement's worst SSD ("may be up to ten milliseconds": the worst interval's worst SSD) is
    nearer ``target_ms`` first (by ratio; the lower on a tie), each with that worst and the
    mean per-SSD tail (:func:`hash_tails`). Both ends were drawn as the evaluation draws; the
    bracket's middle, never drawn, could lie anywhere between their tails, which differ where
    the worst SSD sits on its knee."""
    totals = segment_totals(w) if totals is None else totals
    seeds = interval_draws(w, seeds)
    ends = [(sigma, *hash_tails(w, sigma, seeds, arrival_seconds, totals))
            for sigma in sigma_bracket(w, target_ms, seeds, arrival_seconds, totals=totals)]
    return nearer_first(ends, target_ms)


def nearer_first(ends: list[tuple], target_ms: float) -> list[tuple]:
    """``ends`` (each a sigma and its worst SSD's tail, then anything) sorted by how near that
    tail is to ``target_ms`` (by ratio; on a tie, in their order)."""
    return sorted(ends, key=lambda end: abs(np.log(end[1] / target_ms)))


def fit_sigma_alone(w: Workload, target_ms: float, seeds: list[int] | IntervalDraws,
                    arrival_seconds: int = SMOOTH) -> float:
    """``fit_sigma(...)[0][0]``, the sigma alone: at each end of :func:`sigma_bracket` only
    hash placement's worst SSD (:func:`hash_worst`), not every SSD's mean and tail (those of
    the fitted sigma, the evaluation draws itself)."""
    totals = segment_totals(w)
    seeds = interval_draws(w, seeds)
    ends = [(sigma, hash_worst(w, sigma, seeds, arrival_seconds, totals))
            for sigma in sigma_bracket(w, target_ms, seeds, arrival_seconds, totals=totals)]
    return nearer_first(ends, target_ms)[0][0]


def first_over(order: list, over):
    """The first ``k`` of ``order`` for which ``over(k)`` (hash placement's worst SSD at or over
    the target in interval k; None: none is). The bisection of :func:`sigma_bracket` asks only
    whether the worst interval's tail is below the target: the intervals after the first one
    at or over it need not run (nor, by :func:`~.kernel.tail_below`, the SSDs after the first
    one over it)."""
    for k in order:
        if over(k):
            return k
    return None


def hash_tails(w: Workload, sigma: float, seeds: list[int] | IntervalDraws, arrival_seconds: int,
               totals: np.ndarray | None = None) -> tuple[float, float]:
    """Hash placement's worst SSD's 99.99 % latency in the worst interval and the mean over
    the intervals of its mean per-SSD 99.99 % latency (ms), drawn as the evaluation draws."""
    factor = skew_factor(w, sigma, totals)
    draws = interval_draws(w, seeds)
    tails = [draws(k, arrival_seconds)(hash_load(w, start, factor))[1]
             for k, start in enumerate(scheduling.interval_starts(w))]
    return 1e3 * float(max(t.max() for t in tails)), 1e3 * float(np.mean([t.mean()
                                                                           for t in tails]))


def hash_worst(w: Workload, sigma: float, seeds: list[int] | IntervalDraws,
               arrival_seconds: int, totals: np.ndarray | None = None) -> float:
    """``hash_tails(...)[0]``, hash placement's worst SSD's 99.99 % latency in the worst
    interval (ms), from the SSDs that can hold it (:meth:`~.kernel.SsdLatencies.worst`)."""
    factor = skew_factor(w, sigma, totals)
    draws = interval_draws(w, seeds)
    return 1e3 * float(max(draws(k, arrival_seconds).worst(hash_load(w, start, factor))
                           for k, start in enumerate(scheduling.interval_starts(w))))


def calibrate_ssds_differ(w: Workload, target_ms: float, mean_target_ms: float,
                          seeds: list[int] | IntervalDraws) -> tuple[float, int, dict]:
    """``(sigma, arrival_seconds, info)`` nearest both targets: hash placement's worst SSD at
    ``target_ms`` and its mean per-SSD tail at ``mean_target_ms``.

    For each candidate ``arrival_seconds``, :func:`fit_sigma` brackets the sigma at which the
    worst SSD reaches ``target_ms``; the mean tail at the bracket's end nearer it falls as the
    requests spread over more of each minute, so the seconds are searched on
    :data:`SECONDS_RANGE` (:func:`next_seconds`) until two neighbours straddle
    ``mean_target_ms`` or one comes within :data:`MEAN_TOLERANCE` of it (with the requests
    spread over all 60 already at or above it, 60 alone is tried). Of every (seconds, sigma)
    drawn, the fit is the one whose larger error, as a ratio to either target, is smallest.
    ``info['tried']``: every (seconds, sigma, worst, mean tail) drawn. ``mean_target_ms`` = 0:
    no mean target, requests spread over every minute."""
    totals = segment_totals(w)
    seeds = interval_draws(w, seeds)
    if mean_target_ms <= 0:
        sigma = fit_sigma(w, target_ms, seeds, SMOOTH, totals=totals)[0][0]
        return sigma, SMOOTH, {"volume_sigma": sigma, "arrival_seconds": SMOOTH,
                               "target_ms": target_ms, "mean_target_ms": 0.0, "tried": []}
    tried = {}

    def mean_at(seconds):
        if seconds not in tried:
            tried[seconds] = fit_sigma(w, target_ms, seeds, seconds, totals=totals)
        return tried[seconds][0][2]

    # mean_at(lo) at or above the target (lo = first - 1: none found yet), mean_at(hi) below
    first, hi = SECONDS_RANGE
    lo = first - 1
    order = [hi]  # the seconds tried, in order
    widths = [hi, hi]  # the bracket's width before each of the last two tries
    def near(seconds):
        return abs(np.log(mean_at(seconds) / mean_target_ms)) <= np.log1p(MEAN_TOLERANCE)

    if mean_at(hi) < mean_target_ms and not near(hi):
        while hi - lo > 1 and not near(order[-1]):
            guess = next_seconds(order[-2:], [mean_at(s) for s in order[-2:]], mean_target_ms)
            halved = 2 * (hi - lo) <= widths[-2]  # over the last two tries: else bisect
            seconds = guess if lo < guess < hi and halved else (lo + hi) // 2
            widths.append(hi - lo)
            order.append(seconds)
            if mean_at(seconds) >= mean_target_ms:
                lo = seconds
            else:
                hi = seconds
    drawn = [(s, *end) for s in sorted(tried, reverse=True) for end in tried[s]]
    best = min(drawn, key=lambda d: max(abs(np.log(d[2] / target_ms)),
                                        abs(np.log(d[3] / mean_target_ms))))
    return best[1], best[0], {
        "volume_sigma": best[1],
        "arrival_seconds": best[0],
        "target_ms": target_ms,
        "mean_target_ms": mean_target_ms,
        "tried": drawn,
    }


def next_seconds(tries: list[int], means: list[float], target: float) -> int:
    """The secant step: the seconds at which the line through the last two ``tries`` and their
    mean tails reaches ``target``, drawn against 60 / seconds (the burst's rate grows as
    60 / seconds); 0 when the line does not reach it. With one try, half of it."""
    if len(tries) < 2:
        return tries[0] // 2
    (x0, x1), (y0, y1) = (SMOOTH / s for s in tries), means
    if y1 == y0:
        return 0
    x = x1 + (x1 - x0) * (target - y1) / (y1 - y0)
    return int(round(SMOOTH / x)) if x > 0 else 0
