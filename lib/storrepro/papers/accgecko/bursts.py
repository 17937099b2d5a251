"""Continuous bursts: the one-directional, truncated DBSCAN of AccGecko §3.2.

Distance between states a < b is ``d(a, b) = 1 / mean(n_a..n_b)`` (both ends included); the
neighbourhood threshold is ε = 1/(M·N), so ``d(a, x) < ε`` exactly when ``mean(n_a..n_x) > M·N``:
a queue that starts empty at ``a`` and drains ``M·N`` requests per period is still busy at ``x``.
Unlike standard DBSCAN the neighbourhood only looks forward from its core (the first burst
state) — queueing never delays earlier requests — and it is truncated: the trailing states whose
distance to the core rises monotonically (a decaying tail) are dropped. A cluster needs
MinPts = 2 states; a single burst state alone is *isolated* and is not modelled.

The procedure runs as described, in one numba-compiled forward scan: growth and truncation
use exact integer prefix sums, so a mean equal to the level (up to rounding) is a tie, not a
neighbour.
"""

from __future__ import annotations

import numba
import numpy as np

from storrepro.suite.checks import finite, finite_array

MIN_PTS = 2
TIE_TOLERANCE = 1e-9  # requests: a mean equal to the level (up to rounding) is not above it


def continuous_bursts(
    counts,
    m: float,
    core_m: float | None = None,
    min_pts: int = MIN_PTS,
    mean_count: float | None = None,
) -> np.ndarray:
    """Continuous bursts ``[a, e]`` (inclusive state indices), shape ``(B, 2)``, in time order.

    ``m`` sets ε = 1/(m·N); cores are states with ``n_t > core_m·N`` (``core_m`` defaults to
    ``m``, our single-M reading of §3.2; ``core_m`` must be >= ``m`` so a core is its own
    neighbour). ``N`` is ``mean_count``, by default the mean of ``counts``.
    """
    counts = integer_counts(counts)
    if counts.ndim != 1 or counts.size == 0:
        raise ValueError(f"counts: expected a non-empty 1-D array, got shape {counts.shape}")
    core_m = m if core_m is None else core_m
    if not m > 0 or core_m < m:
        raise ValueError(f"m = {m!r}, core_m = {core_m!r}: expected 0 < m <= core_m")
    if min_pts < 1:
        raise ValueError(f"min_pts = {min_pts!r}: expected >= 1")
    mean = counts.mean() if mean_count is None else mean_count
    finite("mean_count", mean, strict=True, unit="requests per period")
    return _scan(counts, prefix_sums(counts), core_states(counts, core_m * mean), m * mean,
                 min_pts)  # fmt: skip


def prefix_sums(counts: np.ndarray) -> np.ndarray:
    """``[0, n_0, n_0 + n_1, …]`` of int64 ``counts``: the requests before each period."""
    return np.concatenate(([0], np.cumsum(counts, dtype=np.int64)))


def core_states(counts: np.ndarray, core_level: float) -> np.ndarray:
    """The periods whose count is above ``core_level``: the burst states a cluster starts at."""
    return np.flatnonzero(counts > core_level)


def bursts_at_level(counts: np.ndarray, prefix: np.ndarray, cores: np.ndarray,
                    level: float) -> np.ndarray:  # fmt: skip
    """Continuous bursts of int64 ``counts`` (with their :func:`prefix_sums`) from the ``cores``
    of :func:`core_states`, growing while the mean from the core stays above ``level`` — which
    may exceed the cores' level: with ε following the service rate being evaluated (reading
    ``epsilon=rate``) the neighbourhood is that rate's while the cores stay M·N's, and a core
    that the rate drains at once grows no burst."""
    return _scan(counts, prefix, cores, level, MIN_PTS)


def burst_sizes(counts, spans: np.ndarray, prefix: np.ndarray | None = None) -> np.ndarray:
    """The requests in each span ``[a, e]`` of per-period ``counts`` (their
    :func:`prefix_sums`, when known, save the sum)."""
    cumulative = prefix_sums(counts) if prefix is None else prefix
    return cumulative[spans[:, 1] + 1] - cumulative[spans[:, 0]]


def burst_peaks(counts, spans: np.ndarray) -> np.ndarray:
    """The largest count in each span ``[a, e]`` (spans in order, as found)."""
    if not spans.size:
        return np.empty(0, np.int64)
    bounds = np.column_stack((spans[:, 0], spans[:, 1] + 1)).ravel()
    return np.maximum.reduceat(np.append(counts, 0), bounds)[::2]  # [a, e + 1) of each


def in_bursts(size: int, spans: np.ndarray) -> np.ndarray:
    """A mask of ``size`` periods: True inside any span ``[a, e]`` (spans do not overlap)."""
    edges = np.zeros(size + 1, np.int64)
    edges[spans[:, 0]] += 1
    edges[spans[:, 1] + 1] -= 1
    return np.cumsum(edges[:size]) > 0


def integer_counts(counts) -> np.ndarray:
    """``counts`` as whole int64 request counts (a float count is truncated), or the
    ``finite_array`` error. Integer arrays, as ``period_counts`` makes, are only checked."""
    array = np.asarray(counts)
    if array.dtype.kind not in "iu" or array.size == 0:
        return finite_array("counts", array).astype(np.int64)
    if array.min() < 0:
        finite_array("counts", array)  # raises, naming the first negative entry
    return array.astype(np.int64, copy=False)


@numba.njit(cache=True)
def _scan(counts, prefix, cores, level, min_pts):
    """The scan: from each core ``a`` (in order, past the last burst) grow while
    ``mean(n_a..n_x) > level``, drop the tail while ``n_e < mean(n_a..n_{e-1})``, keep spans of
    >= ``min_pts`` states."""
    size = counts.size
    spans = np.empty((cores.size + 1, 2), dtype=np.int64)
    found = 0
    t = 0
    for a in cores:
        if a < t:
            continue
        base = prefix[a] - level * a + TIE_TOLERANCE
        x = a + 1
        while x < size and prefix[x + 1] - level * (x + 1) > base:
            x += 1
        e = x - 1
        while e > a and counts[e] * (e - a) < prefix[e] - prefix[a]:
            e -= 1
        if e - a + 1 >= min_pts:
            spans[found, 0], spans[found, 1] = a, e
            found += 1
            t = e + 1
        else:
            t = a + 1
    return spans[:found].copy()
