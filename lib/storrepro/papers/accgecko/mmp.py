"""MMP, the ablation baseline of Fig. 8, computed exactly on its joint (state, backlog) law.

The model: a first-order Markov chain whose states are the per-1 ms counts themselves (no Poisson
lumping, no SNC), its transitions counted from consecutive periods of the modelled segment. A
period in state ``s`` brings ``n_s`` requests, spread evenly through it (the paper's MMP "assumes
bursts are uniformly distributed"): request ``i`` (from 0) arrives at ``(i + ½)/n_s`` of the
period. They go through the tenant's fixed-rate pacer (spacing ``1/sr``).

In units of requests of work (one request: ``1/sr`` of time; a period drains ``c = sr·Δ``), a
period that starts with backlog ``V`` (the wait of a request arriving at its start) gives request
``i`` the wait ``w_i(V) = max(V + i − x_i, w_i(0))``, with ``x_i = (i + ½) c/n`` and
``w_i(0) = i·max(0, 1 − c/n)``, and hands the next period ``V' = max(V + n − c, b_n)``, where
``b_n`` is what the period leaves from an empty start: the Lindley recursion of the backlog per
period, ``Q' = max(0, Q + n − c)``, taken down to single requests. The joint law ``π(s, V)`` of a
period's state and starting backlog therefore obeys ``π'(s', ·) = Σ_s P[s, s'] T_s π(s, ·)``. It
is computed on a grid of ``1/GRID`` request, each shift split between the two nearest grid
points, from an empty queue with the chain in its stationary law; the backlog then grows
stochastically towards its stationary law (Loynes), and the iteration stops when it has settled.
A prediction is the p-th percentile of the request-weighted wait, plus ``c``. The split smears
the backlog by a fraction of a grid step: a grid four times finer moved the allocated rates of
the pool's first three fits by at most 0.12 %.

The segment is read as a cycle (its last period followed by its first), so every state is left
and the chain's stationary law is the segment's own share of periods in each state. A prediction
above ``ceiling_us`` is returned as ``inf``: near the mean rate the exact percentile takes longest
to settle, and a rate search against SLOs far below the ceiling only needs to know it misses.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from storrepro.papers.accgecko.acctail import check_percentile, check_rate
from storrepro.papers.accgecko.baselines import transitions
from storrepro.papers.accgecko.features import DELTA
from storrepro.suite.checks import finite_array

GRID = 20  # grid points per request of backlog
CEILING_US = 20_000.0
SETTLED = 1e-11  # the iteration stops when less probability than this moves in total
NEGLIGIBLE = 1e-15  # probability below this is dropped (it keeps the grid short)
CHECK_EVERY = 32  # iterations between checks of the growing percentile against the ceiling


@numba.njit(cache=True)
def _step(pi, values, c, top, out):
    """``out = T_s π`` per state (columns): backlog ``max(V + n_s − c, b_s)`` on the grid, each
    value split between its two neighbouring grid points; the grid's last point keeps what would
    pass it. ``top``: the highest grid point holding probability. Returns the new ``top``."""
    size, k = pi.shape
    most = 0
    for s in range(k):  # a loop, not values.max(): numba compiles that for a second
        most = max(most, values[s])
    out[: min(size, top + 2 + int(most * GRID)), :] = 0.0
    new_top = 0
    for s in range(k):
        n = values[s]
        g = c / n if n > 0 else 0.0
        b = max(0.0, (n - 1) * max(0.0, 1.0 - g) + 1.0 - g / 2.0) if n > 0 else 0.0
        shift, floor = (n - c) * GRID, b * GRID
        for j in range(top + 1):
            m = pi[j, s]
            if m < NEGLIGIBLE:
                continue
            y = max(j + shift, floor)
            if y >= size - 1:
                out[size - 1, s] += m
                new_top = size - 1
                continue
            lo = int(y)
            f = y - lo
            out[lo, s] += m * (1.0 - f)
            out[lo + 1, s] += m * f
            new_top = max(new_top, lo + 1)
    return new_top


@numba.njit(cache=True)
def _tail(tails, values, c, mean_n, y):
    """``P(W > y)``: the share of requests waiting longer than ``y`` requests of work, from the
    per-state tails ``tails[j, s] = P(state s, V >= j / GRID)``."""
    size, k = tails.shape
    total = 0.0
    for s in range(k):
        n = values[s]
        g = c / n if n > 0 else 0.0
        for i in range(n):
            if i * max(0.0, 1.0 - g) > y:  # waits longer even from an empty queue
                total += tails[0, s]
                continue
            j = int(math.floor((y - i + (i + 0.5) * g) * GRID)) + 1  # V > y − i + x_i
            if j <= 0:
                total += tails[0, s]
            elif j < size:
                total += tails[j, s]
    return total / mean_n


@numba.njit(cache=True)
def _percentile(pi, values, c, mean_n, share, high):
    """The p-th percentile wait (requests) with ``share = 1 − p/100``: the smallest ``y`` with
    ``P(W > y) < share``, by bisection to float precision over ``[0, high]``."""
    tails = np.empty_like(pi)
    for s in range(pi.shape[1]):  # element by element: numba compiles a row copy for seconds
        above = 0.0
        for j in range(pi.shape[0] - 1, -1, -1):
            above += pi[j, s]
            tails[j, s] = above
    if _tail(tails, values, c, mean_n, 0.0) < share:
        return 0.0
    lo, hi = 0.0, high
    if _tail(tails, values, c, mean_n, hi) >= share:
        return math.inf
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        if _tail(tails, values, c, mean_n, mid) < share:
            hi = mid
        else:
            lo = mid
    return hi


@numba.njit(cache=True)
def _stationary(chain, start, values, c, size, mean_n, share, ceiling):
    """The joint law of (state, backlog) at rate ``c`` per period, iterated from an empty queue
    (``start``: the chain's stationary law) until it settles. Returns its rows up to the highest
    holding probability, and ``inf`` if the percentile at ``share`` passed ``ceiling`` (requests)
    on the way (it only grows), else 0."""
    k = values.size
    pi = np.zeros((size, k))
    for s in range(k):
        pi[0, s] = start[s]
    moved = np.zeros((size, k))
    top = rows = it = 0
    while True:
        top = _step(pi, values, c, top, moved)
        held, rows = rows, top + 1
        new = np.dot(moved[:rows], chain)
        change = 0.0
        for j in range(max(rows, held)):
            for s in range(k):
                value = new[j, s] if j < rows else 0.0
                change += abs(value - pi[j, s])
                pi[j, s] = value
        it += 1
        if change < SETTLED:
            return pi[:rows], 0.0
        growing = (
            _percentile(pi[:rows], values, c, mean_n, share, ceiling)
            if it % CHECK_EVERY == 0
            else 0.0
        )
        if growing > ceiling:
            return pi[:rows], math.inf  # a lower bound, already beyond the ceiling


class MarkovCounts:
    """MMP: ``MarkovCounts(c_us).fit(counts).predict(p, sr)`` (see the module docstring)."""

    def __init__(self, c_us: float = 25.0, ceiling_us: float = CEILING_US):
        if not c_us >= 0:
            raise ValueError(f"c_us = {c_us!r}: expected a constant >= 0 µs")
        if not ceiling_us > 0:
            raise ValueError(f"ceiling_us = {ceiling_us!r}: expected a bound > 0 µs")
        self.c_us, self.ceiling_us = c_us, ceiling_us

    def fit(self, counts) -> MarkovCounts:
        counts = finite_array("counts", counts).astype(np.int64)
        if counts.size == 0:
            raise ValueError("counts: expected a non-empty array of per-period counts")
        self.values, state = np.unique(counts, return_inverse=True)
        k = self.values.size
        moves = transitions(state, k)
        moves[state[-1], state[0]] += 1  # the segment read as a cycle: every state is left
        self.chain = moves / moves.sum(axis=1, keepdims=True)
        self.start = np.bincount(state, minlength=k) / state.size  # the chain's stationary law
        self.mean_n = float(self.start @ self.values)
        self._memo: dict[tuple[float, float], float] = {}
        return self

    def predict(self, p: float, sr: float) -> float:
        share, sr = 1 - check_percentile(p) / 100, check_rate(sr)
        if (p, sr) not in self._memo:
            self._memo[p, sr] = self._wait_us(share, sr) + self.c_us
        return self._memo[p, sr]

    def _wait_us(self, share: float, sr: float) -> float:
        c = sr * DELTA
        if c <= self.mean_n:
            return math.inf  # no stationary queue: the backlog grows without bound
        ceiling = self.ceiling_us * 1e-6 * sr  # in requests
        size = int(2 * (ceiling + self.values.max()) * GRID) + 2
        pi, beyond = _stationary(self.chain, self.start, self.values, c, size, self.mean_n,
                                 share, ceiling)  # fmt: skip
        if beyond:
            return math.inf
        return _percentile(pi, self.values, c, self.mean_n, share, ceiling) / sr * 1e6
