"""Per-period states of a trace and the three burst dimensions of AccGecko §2.1.

A trace is a sorted array of arrival times in seconds. It is cut into periods of ``delta`` seconds
(1 ms in the paper); each period's request count ``n_t`` is one *state*. With ``N`` the mean count
per period, a state is a *burst state* when ``n_t > M_b * N`` (strict: our reading).
"""

from __future__ import annotations

import numba
import numpy as np

from storrepro.papers.accgecko.bursts import continuous_bursts

DELTA = 1e-3  # seconds per state (1 ms in every experiment of the paper)


def check_arrivals(arrivals) -> np.ndarray:
    """Arrival times as a float array: non-empty, finite, >= 0 and sorted, else ``ValueError``."""
    arrivals = np.asarray(arrivals, dtype=float)
    if arrivals.ndim != 1 or arrivals.size == 0:
        raise ValueError(f"arrivals: expected a non-empty 1-D array of times, got {arrivals.shape}")
    if not np.all(np.isfinite(arrivals)):
        raise ValueError("arrivals: every arrival time must be finite")
    if arrivals[0] < 0:
        raise ValueError(f"arrivals: times must be >= 0, got {arrivals.min()!r}")
    if not np.all(arrivals[1:] >= arrivals[:-1]):
        i = int(np.argmax(arrivals[1:] < arrivals[:-1]))
        raise ValueError(
            f"arrivals: times must be sorted, got {arrivals[i]!r} before {arrivals[i + 1]!r}"
        )
    return arrivals


def period_counts(arrivals, duration: float | None = None, delta: float = DELTA) -> np.ndarray:
    """E1: requests per period ``[t*delta, (t+1)*delta)``, over ``duration`` seconds if given."""
    arrivals = check_arrivals(arrivals)
    if not delta > 0:
        raise ValueError(f"delta = {delta!r}: expected a period length > 0 seconds")
    periods = int(np.floor(arrivals[-1] / delta)) + 1
    if duration is not None:
        if not duration > 0:
            raise ValueError(f"duration = {duration!r}: expected > 0 seconds")
        periods = max(periods, int(round(duration / delta)))
    return _bin(arrivals, delta, periods)


@numba.njit(cache=True)
def _bin(arrivals, delta, periods):
    """``np.bincount((arrivals / delta).astype(np.int64), minlength=periods)`` in one pass, with
    no index array (the same division and truncation)."""
    counts = np.zeros(periods, np.int64)
    for a in arrivals:
        counts[int(a / delta)] += 1
    return counts


def burst_features(
    counts,
    core_m: float = 2.0,
    eps_m: float = 2.0,
    mean_count: float | None = None,
    spans: np.ndarray | None = None,
) -> dict[str, float]:
    """The three burst dimensions of one trace segment (E4–E6), from its per-period counts.

    ``core_m``: burst threshold M_b (a burst state has ``n_t > core_m * N``); ``eps_m``: the
    service-rate multiple behind the DBSCAN neighbourhood ε = 1/(eps_m * N) (see ``bursts``);
    ``mean_count``: N, by default the mean of ``counts``; ``spans``: the continuous bursts for
    these settings if already found.
    Returns intensity (mean rate of burst states / mean rate), total burst time (ms), the mean and
    maximum continuous-burst duration (ms; 0 if there is none) and the number of continuous bursts.
    """
    counts = np.asarray(counts)
    if mean_count is None:
        mean_count = float(counts.mean()) if counts.size else 0.0
    mean = mean_count
    if not mean > 0:
        raise ValueError(f"mean count N = {mean!r}: expected a segment with requests (N > 0)")
    burst = counts > core_m * mean
    if spans is None:
        spans = continuous_bursts(counts, eps_m, core_m=core_m, mean_count=mean)
    durations = spans[:, 1] - spans[:, 0] + 1
    return {
        "intensity": float(counts[burst].mean() / mean) if burst.any() else 0.0,
        "total_burst_ms": float(burst.sum() * DELTA * 1e3),
        "mean_duration_ms": float(durations.mean()) if durations.size else 0.0,
        "max_duration_ms": float(durations.max()) if durations.size else 0.0,
        "continuous_bursts": int(durations.size),
    }
