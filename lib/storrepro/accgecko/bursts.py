"""Continuous bursts: the one-directional, truncated DBSCAN of AccGecko §3.2 (spec §2.2, E7–E11).

Distance between states a < b is ``d(a, b) = 1 / mean(n_a..n_b)`` (both ends included); the
neighbourhood threshold is ε = 1/(M·N), so ``d(a, x) < ε`` exactly when ``mean(n_a..n_x) > M·N``:
a queue that starts empty at ``a`` and drains ``M·N`` requests per period is still busy at ``x``.
Unlike standard DBSCAN the neighbourhood only looks forward from its core (the first burst
state) — queueing never delays earlier requests — and it is truncated: the trailing states whose
distance to the core rises monotonically (a decaying tail) are dropped. A cluster needs
MinPts = 2 states; a single burst state alone is *isolated* and is not modelled.

The spec's procedure is sequential (after a continuous burst ``[a, e]`` the scan resumes at
``e + 1``); here each candidate core's span is computed for all cores at once — the end of the
growth is the first ``x`` with ``E[x] <= E[a-1]`` for the prefix sums ``E`` of ``n_t - M·N``,
found by binary lifting over a range-minimum table — and only the cheap selection is a loop.
"""

from __future__ import annotations

import numpy as np

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
    ``m``, the spec's single-M reading; ``core_m`` must be >= ``m`` so a core is its own
    neighbour). ``N`` is ``mean_count``, by default the mean of ``counts``.
    """
    counts = np.asarray(counts)
    if counts.ndim != 1 or counts.size == 0:
        raise ValueError(f"counts: expected a non-empty 1-D array, got shape {counts.shape}")
    if np.any(counts < 0):
        raise ValueError("counts: request counts must be >= 0")
    core_m = m if core_m is None else core_m
    if not m > 0 or core_m < m:
        raise ValueError(f"m = {m!r}, core_m = {core_m!r}: expected 0 < m <= core_m")
    if min_pts < 1:
        raise ValueError(f"min_pts = {min_pts!r}: expected >= 1")
    counts = counts.astype(np.int64)
    mean = counts.mean() if mean_count is None else mean_count
    if not mean > 0:
        raise ValueError(f"mean_count = {mean!r}: expected a mean count per period > 0")
    cores = np.flatnonzero(counts > core_m * mean)
    if cores.size == 0:
        return np.empty((0, 2), dtype=np.int64)
    ends = _growth_ends(counts, m * mean, cores)
    ends = _truncate(counts, cores, ends)
    return _select(cores, ends, min_pts)


def _growth_ends(counts: np.ndarray, level: float, cores: np.ndarray) -> np.ndarray:
    """Last state ``e`` with ``mean(n_a..n_x) > level`` for every ``x`` in ``a..e``, per core."""
    size = counts.size
    # prefix[x + 1] = E[x] = S[x+1] - level (x+1), from exact integer sums (no drift), so a
    # mean equal to the level is a tie (not a neighbour) up to TIE_TOLERANCE
    steps = np.arange(size + 1, dtype=float)
    prefix = np.concatenate(([0], np.cumsum(counts))) - level * steps
    # table[j][i] = min(prefix[i + 1 .. i + 2**j]) = min(E[i .. i + 2**j - 1])
    table = [prefix[1:]]
    while (1 << len(table)) <= size:
        prev, half = table[-1], 1 << (len(table) - 1)
        table.append(np.minimum(prev[:-half], prev[half:]))
    base = prefix[cores] + TIE_TOLERANCE  # E[a - 1]
    pos = cores.copy()  # invariant: E[x] > E[a-1] for all x in a..pos
    for j in range(len(table) - 1, -1, -1):
        step = 1 << j
        start = pos + 1
        ok = start + step <= size
        fits = np.zeros(cores.size, dtype=bool)
        fits[ok] = table[j][start[ok]] > base[ok]
        pos = np.where(fits, pos + step, pos)
    return pos


def _truncate(counts: np.ndarray, cores: np.ndarray, ends: np.ndarray) -> np.ndarray:
    """Drop the tail while ``d(a, e) > d(a, e-1)``, i.e. ``n_e < mean(n_a..n_{e-1})``."""
    cumulative = np.concatenate(([0], np.cumsum(counts)))
    ends = ends.copy()
    active = ends > cores
    while active.any():
        idx = np.flatnonzero(active)
        a, e = cores[idx], ends[idx]
        before = cumulative[e] - cumulative[a]  # sum of n_a..n_{e-1}, exact integers
        rising = counts[e] * (e - a) < before
        ends[idx[rising]] -= 1
        active[idx] = rising & (ends[idx] > a)
    return ends


def _select(cores: np.ndarray, ends: np.ndarray, min_pts: int) -> np.ndarray:
    """The sequential scan: skip cores inside a recorded burst; keep spans of >= min_pts states."""
    spans = []
    resume = -1
    for a, e in zip(cores.tolist(), ends.tolist(), strict=True):
        if a < resume:
            continue
        if e - a + 1 >= min_pts:
            spans.append((a, e))
            resume = e + 1
    return np.array(spans, dtype=np.int64).reshape(-1, 2)
