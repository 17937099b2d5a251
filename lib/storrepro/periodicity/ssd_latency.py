"""Per-SSD latency of the scheduling surrogate (spec §6.3, R17): the MQSim replacement.

Requests are 32 KB (64 sectors of 512 B). In each 1-s sub-bin an SSD receives a Poisson number
of requests at rate ``λ = traffic / 32 KB``. A fluid backlog carries over between sub-bins
(``Q_k = max(0, Q_{k-1} + N_k - S)``, Eq. (1)'s overload regime) and a request arriving in
sub-bin k waits ``Q_{k-1}/S`` for it, then an M/M/1 sojourn of rate ``S - λ_k`` (floored at
5 % of S when λ_k >= S), plus a constant base latency. The SSD's latency distribution is the
arrival-weighted mixture over its sub-bins; the mean and the 99.99 % quantile are read from it.

``S_OPS`` puts the Fig. 2 knee at 12 000 ops/s (there the M/M/1 99.99 % latency is ten times its
no-load value: ``S = 12000 / 0.9``). ``BASE_S`` makes the mean latency 127 µs at the paper's mean
per-SSD load (2.5 GB/s over 96 SSDs).
"""

from __future__ import annotations

import numba
import numpy as np

from storrepro.periodicity._kernels import pairwise_sum

REQUEST_BYTES = 64 * 512
S_OPS = 12_000 / 0.9
MEAN_OPS = 2.5e9 / 96 / REQUEST_BYTES
BASE_S = 127e-6 - 1 / (S_OPS - MEAN_OPS)


def eq1_delay(arrival_rate, service_rate: float = S_OPS) -> np.ndarray:
    """Eq. (1): D = 1/(S - A), infinite at and beyond saturation."""
    a = np.asarray(arrival_rate, dtype=float)
    with np.errstate(divide="ignore"):
        return np.where(a < service_rate, 1.0 / (service_rate - a), np.inf)


def sub_bin_arrivals(bytes_per_minute: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """Poisson request counts per 1-s sub-bin, shape (..., minutes * 60)."""
    rate = np.repeat(np.asarray(bytes_per_minute, dtype=float) / 60 / REQUEST_BYTES, 60, axis=-1)
    return rng.poisson(rate).astype(float), rate


def backlog(counts: np.ndarray, service: float = S_OPS) -> np.ndarray:
    """Fluid backlog at the end of each 1-s sub-bin (Lindley recursion in closed form)."""
    c = np.cumsum(counts - service, axis=-1)
    floor = np.minimum.accumulate(np.minimum(c, 0.0), axis=-1)
    return c - floor


def latency_stats(
    bytes_per_minute: np.ndarray,
    rng: np.random.Generator,
    quantile: float = 0.9999,
    service: float = S_OPS,
    base: float = BASE_S,
):
    """Mean and ``quantile`` latency (seconds) per SSD; input shape (ssds, minutes)."""
    x = np.atleast_2d(bytes_per_minute)
    counts, rate = sub_bin_arrivals(x, rng)
    q = backlog(counts, service)
    wait = np.concatenate([np.zeros((x.shape[0], 1)), q[:, :-1]], axis=1) / service
    mu = np.maximum(service - rate, 0.05 * service)
    weight = counts
    total = weight.sum(axis=1)
    mean = base + (weight * (wait + 1 / mu)).sum(axis=1) / np.maximum(total, 1)
    lo = np.zeros(x.shape[0])
    hi = wait.max(axis=1) + 50 / mu.min(axis=1)
    target = quantile * np.maximum(total, 1)
    runs = _Runs(weight, mu, wait)
    work = None
    for _ in range(40):  # bisection on the mixture's CDF
        mid = (lo + hi) / 2
        cdf = runs.cdf(mid)
        unsure = np.flatnonzero(np.abs(cdf - target) <= runs.error_bound)
        if unsure.size:  # too close to call: numpy's own rounding decides, as it always did
            work = work or _Workspace(weight.shape)
            cdf[unsure] = mixture_cdf(weight, mu, wait, mid, unsure, work)
        below = cdf < target
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    return mean, base + hi


class _Runs:
    """The mixture collapsed onto runs of sub-bins with equal ``mu`` and ``wait``, whose
    Poisson weights (integers) add up exactly: one term per minute without backlog.

    Its CDF differs from the sub-bin sum by rounding only: each term carries at most about 5
    units of roundoff u = 2^-53 of its weight (products, ``1 - exp``, exp within a few ulp),
    and a sum of n terms adds at most n·u of the total weight. ``error_bound`` allows 8·u per
    run plus a fixed 512·u, for both sums together, times the total weight. Where the grouped
    CDF is further than that from the target, it sides with the sub-bin sum (with numpy's exact
    rounding) in the bisection's comparison; elsewhere :func:`mixture_cdf` computes the latter.
    """

    def __init__(self, weight, mu, wait):
        self.weight, self.mu, self.wait, self.row, counts = _collapse(weight, mu, wait)
        total = np.maximum(weight.sum(axis=1), 1)
        self.error_bound = (8 * counts + 512) * (np.finfo(float).eps / 2) * total

    def cdf(self, at: np.ndarray) -> np.ndarray:
        return _run_cdf(self.weight, self.mu, self.wait, self.row, at)


@numba.njit(cache=True)
def _collapse(weight, mu, wait):  # pragma: no cover (numba)
    rows, cols = weight.shape
    w = np.empty(rows * cols)
    m = np.empty(rows * cols)
    q = np.empty(rows * cols)
    row_of = np.empty(rows * cols, dtype=np.int64)
    counts = np.zeros(rows)
    k = -1
    for row in range(rows):
        for i in range(cols):
            new = i == 0 or mu[row, i] != mu[row, i - 1] or wait[row, i] != wait[row, i - 1]
            if new:
                k += 1
                w[k], m[k], q[k], row_of[k] = 0.0, mu[row, i], wait[row, i], row
                counts[row] += 1
            w[k] += weight[row, i]
    return w[: k + 1], m[: k + 1], q[: k + 1], row_of[: k + 1], counts


@numba.njit(cache=True)
def _run_cdf(weight, mu, wait, row_of, at):  # pragma: no cover (numba)
    out = np.zeros(at.size)
    for k in range(weight.size):
        out[row_of[k]] += weight[k] * (1 - np.exp(-mu[k] * max(at[row_of[k]] - wait[k], 0.0)))
    return out


class _Workspace:
    """Scratch arrays of :func:`mixture_cdf`, reused across the bisection's steps (fresh
    multi-megabyte arrays each step cost more in page faults than in arithmetic)."""

    def __init__(self, shape: tuple[int, int]):
        self.args = np.empty(shape[0] * shape[1])
        self.index = np.empty(shape, dtype=np.int64)
        self.terms = np.empty(shape[1])


def mixture_cdf(weight, mu, wait, at, rows=None, work: _Workspace | None = None) -> np.ndarray:
    """Per row (of ``rows``, default all): ``sum_i weight_i (1 - exp(-mu_i max(at - wait_i,
    0)))``, the arrival-weighted latency CDF at ``at`` (minus the base latency), with numpy's
    arithmetic of

        (weight * (1 - np.exp(-mu * np.maximum(at[:, None] - wait, 0)))).sum(axis=1)

    ``mu`` is constant within a minute and ``wait`` is 0 without backlog, so runs of sub-bins
    share their exponent: numpy's ``exp`` runs once per run, not once per sub-bin.
    """
    rows = np.arange(weight.shape[0]) if rows is None else np.asarray(rows, dtype=np.int64)
    work = work or _Workspace(weight.shape)
    count = _exponents(mu, wait, at, rows, work.args, work.index)
    return _weighted_sums(weight, rows, np.exp(work.args[:count]), work.index, work.terms)


@numba.njit(cache=True)
def _exponents(mu, wait, at, rows, args, index):  # pragma: no cover (numba)
    """The distinct consecutive exponents ``-mu * max(at - wait, 0)`` of ``rows`` into ``args``
    and each sub-bin's position in it into ``index``; returns how many there are."""
    count = 0
    for row in rows:
        for i in range(mu.shape[1]):
            a = -mu[row, i] * max(at[row] - wait[row, i], 0.0)
            if count == 0 or a != args[count - 1]:
                args[count] = a
                count += 1
            index[row, i] = count - 1
    return count


@numba.njit(cache=True)
def _weighted_sums(weight, rows, exps, index, terms):  # pragma: no cover (numba)
    cols = weight.shape[1]
    out = np.empty(rows.size)
    for k, row in enumerate(rows):
        for i in range(cols):
            terms[i] = weight[row, i] * (1 - exps[index[row, i]])
        out[k] = pairwise_sum(terms, 0, cols)  # numpy's sum(axis=1), same association
    return out


def knee_curve(
    rates,
    rng: np.random.Generator,
    requests: int = 200_000,
    service: float = S_OPS,
    quantile: float = 0.9999,
) -> np.ndarray:
    """Fig. 2 analogue: the ``quantile`` latency (s) of one SSD queue at each arrival rate,
    simulated with the shared FIFO kernel (Poisson arrivals, exponential service at ``service``).
    """
    from storrepro.sim.fifo import fifo_departures, poisson_arrivals

    out = []
    for rate in rates:
        if not 0 < rate < service:
            raise ValueError(f"rate = {rate!r}: expected 0 < rate < service ({service:g})")
        a = poisson_arrivals(rng, rate, requests)
        d = fifo_departures(a, rng.exponential(1 / service, requests))
        out.append(float(np.quantile(d - a, quantile)))
    return np.array(out)
