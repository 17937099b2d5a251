"""The original PriorityMeister (Zhu et al., SoCC 2014), as the paper's baseline can also be read:
several (r, b) token-bucket pairs per tenant, per-tenant priorities on a node's shared queue, and
greedy priority assignment, all by deterministic network calculus.

- **Envelope.** A tenant's trace segment gives ``PAIRS`` rates ``r_i`` spread geometrically from
  its mean rate to its peak 1 ms rate; ``b_i`` is the exact depth of a token bucket of rate
  ``r_i`` that delays no request: ``1 + r_i · (largest wait of the segment paced at r_i)``. The
  arrival curve is ``α(t) = min_i (b_i + r_i t)`` requests, a concave piecewise-linear function.
- **Shared queue.** A node of capacity ``C`` IOPS serves its tenants by strict priority, one
  request at a time without preemption. A tenant's leftover service is ``[C t − Σ_higher α_j(t)
  − 1]^+`` (the higher-priority tenants' arrival curves and one lower-priority request already in
  service), and its latency bound is the horizontal deviation between its own ``α`` and that
  service, plus ``c``. It meets a delay ``D`` exactly when
  ``α_k(t) + Σ_higher α_j(t + D) + 1 ≤ C (t + D)`` for every ``t ≥ 0``; the left side minus the
  right is concave in ``t``, so it is checked at the one point where its slope turns negative.
- **Greedy priority assignment.** The lowest priority goes to the first tenant (in admission
  order) that meets its SLO below all the others, then the next lowest, and so on; the set is
  admissible when every tenant gets a priority. The bound of a tenant depends only on *which*
  tenants are above it, not on their order, so this greedy assignment finds a feasible order
  whenever one exists.
- **Fixed-rate form.** At a fixed rate ``sr`` alone (the paper's error evaluation allocates every
  method a fixed rate), the bound is ``max_t (α(t) − 1 − sr t) / sr + c``: never below the
  simplified PriorityMeister's exact maximum wait, equal to it when ``sr`` is one of the ``r_i``.

A request's latency also includes its wait at the client's rate limiters, which hold back the
requests that do not fit the envelope (:func:`shaper_waits`): on the segment the envelope was
fitted to that wait is zero; on the rest of the trace it is what the guarantee does not cover.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from storrepro.papers.accgecko.acctail import check_percentile, check_rate
from storrepro.papers.accgecko.features import DELTA, check_arrivals

PAIRS = 8  # (r, b) pairs per tenant


@dataclass(frozen=True)
class Envelope:
    """``α(t) = min_i (bursts[i] + rates[i] t)`` requests, rates in IOPS (descending)."""

    rates: np.ndarray
    bursts: np.ndarray

    def __post_init__(self):
        if self.rates.shape != self.bursts.shape or self.rates.size == 0:
            raise ValueError("envelope: expected as many rates as bursts, at least one")
        if np.any(~(self.rates > 0)) or np.any(~(self.bursts >= 1)):
            raise ValueError("envelope: rates must be > 0 IOPS and bursts >= 1 request")

    def __call__(self, t) -> np.ndarray:
        t = np.asarray(t, dtype=float)
        return np.min(self.bursts + self.rates * t[..., None], axis=-1)

    @property
    def corners(self) -> np.ndarray:
        """``t >= 0`` where two of the lines cross (and 0): every corner of ``α``."""
        r, b = self.rates, self.bursts
        with np.errstate(divide="ignore", invalid="ignore"):
            cross = (b[None, :] - b[:, None]) / (r[:, None] - r[None, :])
        return np.concatenate(([0.0], cross[np.isfinite(cross) & (cross > 0)]))

    def fixed_rate_delay_us(self, sr: float) -> float:
        """``max_t (α(t) − 1 − sr t) / sr`` in µs: the longest wait at a fixed rate alone,
        without c (inf when the long-run rate exceeds ``sr``)."""
        sr = check_rate(sr)
        if self.rates.min() > sr:
            return math.inf
        t = self.corners
        return float(np.max(self(t) - 1.0 - sr * t) / sr * 1e6)


def fit_envelope(arrivals, segment_s: float, pairs: int = PAIRS) -> Envelope:
    """The ``pairs`` (r, b) pairs of a segment of ``segment_s`` seconds (see the module)."""
    arrivals = check_arrivals(arrivals)
    if not pairs >= 1:
        raise ValueError(f"pairs = {pairs!r}: expected >= 1")
    if not segment_s > 0:
        raise ValueError(f"segment_s = {segment_s!r}: expected > 0 seconds")
    mean = arrivals.size / segment_s
    peak = np.bincount((arrivals / DELTA).astype(np.int64)).max() / DELTA
    rates = np.geomspace(max(peak, mean), mean, pairs)
    return Envelope(rates, 1.0 + rates * _max_waits(arrivals, 1.0 / rates))


@numba.njit(cache=True)
def _max_waits(arrivals, spacings):
    """The largest pacer wait (s) at each spacing, in one pass: the closed form of ``pacer``,
    ``max_{i<=j}(a_i − i/sr) − (a_j − j/sr)``, with the same arithmetic."""
    best = np.full(spacings.size, -np.inf)
    longest = np.zeros(spacings.size)
    for j in range(arrivals.size):
        for r in range(spacings.size):
            shifted = arrivals[j] - j * spacings[r]
            best[r] = max(best[r], shifted)
            longest[r] = max(longest[r], best[r] - shifted)
    return longest


class PriorityMeisterOriginal:
    """``PriorityMeisterOriginal(c_us).fit(arrivals, duration_s).predict(p, sr)``: the fixed-rate
    form of the bound (µs), whatever the percentile."""

    def __init__(self, c_us: float = 25.0, pairs: int = PAIRS):
        if not c_us >= 0:
            raise ValueError(f"c_us = {c_us!r}: expected a constant >= 0 µs")
        self.c_us, self.pairs = c_us, pairs

    def fit(self, arrivals, segment_s: float) -> PriorityMeisterOriginal:
        self.envelope = fit_envelope(arrivals, segment_s, self.pairs)
        return self

    def predict(self, p: float, sr: float) -> float:
        check_percentile(p)  # accepted and ignored: network calculus bounds the maximum
        return self.envelope.fixed_rate_delay_us(sr) + self.c_us


# --- the shared queue: priorities and admission -------------------------------------------------


def stack_envelopes(envelopes: list[Envelope]) -> tuple[np.ndarray, np.ndarray]:
    """``(rates, bursts)`` arrays of shape ``(tenants, pairs)``."""
    return np.stack([e.rates for e in envelopes]), np.stack([e.bursts for e in envelopes])


@numba.njit(cache=True)
def _alpha(rates, bursts, j, t):
    best = np.inf
    for i in range(rates.shape[1]):
        best = min(best, bursts[j, i] + rates[j, i] * t)
    return best


@numba.njit(cache=True)
def _slope(rates, bursts, j, t):
    """Right derivative of ``α_j`` at ``t``: the rate of the lowest line there (the smaller
    rate on a tie)."""
    best, slope = np.inf, 0.0
    for i in range(rates.shape[1]):
        v = bursts[j, i] + rates[j, i] * t
        if v < best - 1e-12 or (abs(v - best) <= 1e-12 and rates[j, i] < slope):
            best, slope = v, rates[j, i]
    return slope


@numba.njit(cache=True)
def _f_slope(rates, bursts, k, higher, t, delay, capacity):
    slope = _slope(rates, bursts, k, t) - capacity
    for j in higher:
        slope += _slope(rates, bursts, j, t + delay)
    return slope


@numba.njit(cache=True)
def _meets(rates, bursts, k, higher, delay, capacity):
    """Whether tenant ``k`` below the tenants ``higher`` starts within ``delay`` (s): the concave
    ``f(t) = α_k(t) − 1 + Σ α_j(t + delay) + 1 − C (t + delay)`` stays <= 0 for every t >= 0."""
    # f is concave: its slope falls at each corner; find the first point where it is <= 0
    if _f_slope(rates, bursts, k, higher, 0.0, delay, capacity) <= 0:
        return _f_at(rates, bursts, k, higher, 0.0, delay, capacity) <= 1e-9  # no corner needed
    pairs = rates.shape[1]
    events = np.empty((higher.size + 1) * pairs * pairs)
    n = 0
    for i in range(pairs):  # corners of α_k, and of each α_j shifted by the delay
        for m in range(i + 1, pairs):
            dr = rates[k, i] - rates[k, m]
            if dr != 0:
                t = (bursts[k, m] - bursts[k, i]) / dr
                if t > 0:
                    events[n] = t
                    n += 1
            for j in higher:
                dr = rates[j, i] - rates[j, m]
                if dr != 0:
                    t = (bursts[j, m] - bursts[j, i]) / dr - delay
                    if t > 0:
                        events[n] = t
                        n += 1
    if n == 0 or _f_slope(rates, bursts, k, higher, events[:n].max(), delay, capacity) > 0:
        return False  # the long-run rates exceed the capacity
    events = np.sort(events[:n])
    lo, hi = -1, n - 1  # the slope is positive at lo (-1: t = 0), <= 0 at hi
    while hi - lo > 1:  # bisect the sorted corners
        mid = (lo + hi) // 2
        if _f_slope(rates, bursts, k, higher, events[mid], delay, capacity) > 0:
            lo = mid
        else:
            hi = mid
    return _f_at(rates, bursts, k, higher, events[hi], delay, capacity) <= 1e-9


@numba.njit(cache=True)
def _f_at(rates, bursts, k, higher, t_star, delay, capacity):
    """``f(t*)`` of :func:`_meets` (its −1 + 1 cancel)."""
    total = _alpha(rates, bursts, k, t_star) - capacity * (t_star + delay)
    for j in higher:
        total += _alpha(rates, bursts, j, t_star + delay)
    return total


@numba.njit(cache=True)
def _assign(rates, bursts, members, delays, capacity, order):
    """Greedy priority assignment of ``members`` (their ``delays``, s): ``order`` gets them from
    the lowest priority up; returns False if some level has no tenant that meets its delay."""
    left = members.copy()
    count = left.size
    for level in range(members.size):
        chosen = -1
        for c in range(count):
            higher = np.empty(count - 1, np.int64)
            h = 0
            for o in range(count):
                if o != c:
                    higher[h] = left[o]
                    h += 1
            if _meets(rates, bursts, left[c], higher, delays[left[c]], capacity):
                chosen = c
                break
        if chosen < 0:
            return False
        order[level] = left[chosen]
        for o in range(chosen, count - 1):
            left[o] = left[o + 1]
        count -= 1
    return True


def assign_priorities(envelopes, slos_us, capacity: float, c_us: float = 25.0):
    """The tenants from the lowest priority up, or None when no order meets every SLO (µs)."""
    rates, bursts = stack_envelopes(envelopes)
    delays = (np.asarray(slos_us, dtype=float) - c_us) * 1e-6
    order = np.empty(len(envelopes), np.int64)
    members = np.arange(len(envelopes))
    if np.any(delays < 0) or not _assign(rates, bursts, members, delays, check_rate(capacity),
                                         order):  # fmt: skip
        return None
    return order.tolist()


@numba.njit(cache=True)
def _admit(rates, bursts, arrivals, delays, capacity):
    """Admit the tenants ``arrivals`` in order while the admitted set keeps a priority order
    meeting every delay; returns the admission mask (by position in ``arrivals``)."""
    admitted = np.zeros(arrivals.size, np.bool_)
    members = np.empty(arrivals.size, np.int64)
    order = np.empty(arrivals.size, np.int64)
    count, load = 0, 0.0
    for q in range(arrivals.size):
        k = arrivals[q]
        long_run = rates[k].min()
        if delays[k] < 0 or load + long_run > capacity:
            continue
        members[count] = k
        if _assign(rates, bursts, members[: count + 1], delays, capacity, order):
            admitted[q] = True
            count += 1
            load += long_run
    return admitted


def admit_by_priority(rates, bursts, order, slos_us, capacity: float, c_us: float = 25.0):
    """Admission on a shared priority queue: tenants arrive in ``order``; each is admitted if
    the admitted ones and it still have a priority order meeting every SLO. Returns a mask over
    ``order``. ``rates``, ``bursts``: :func:`stack_envelopes` of every tenant; ``slos_us``: each
    tenant's SLO."""
    delays = (np.asarray(slos_us, dtype=float) - c_us) * 1e-6
    return _admit(rates, bursts, np.asarray(order, np.int64), delays, check_rate(capacity))


# --- the client-side rate limiters ---------------------------------------------------------------


@numba.njit(cache=True)
def _shape(arrivals, rates, bursts):
    """Greedy token-bucket shapers (rate, depth) in tandem, in one pass: at each, request j
    leaves at ``max(t_j, max_{i<=j} t_i + (j + 1 − i − depth) / rate)``, ``t`` the times it
    reaches that shaper. Returns each request's wait (s)."""
    best = np.full(rates.size, -np.inf)
    waits = np.empty(arrivals.size)
    for j in range(arrivals.size):
        t = arrivals[j]
        for r in range(rates.size):
            best[r] = max(best[r], t - j / rates[r])
            t = max(t, best[r] + (j + 1 - bursts[r]) / rates[r])
        waits[j] = t - arrivals[j]
    return waits


def shaper_waits(arrivals, envelope: Envelope) -> np.ndarray:
    """Each request's wait (s) at the client's rate limiters: the token buckets of every pair in
    tandem (a tandem of greedy shapers shapes to the minimum of their curves)."""
    return _shape(check_arrivals(arrivals), envelope.rates, envelope.bursts)
