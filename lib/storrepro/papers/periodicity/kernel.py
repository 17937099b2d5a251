"""The fast path of the scheduling study's SSD latency model: numba, bit-identical to
:func:`storrepro.papers.periodicity.plain.latency_stats` (the plain bisection on the numpy mixture
CDF; ``tests/test_periodicity_kernels.py`` checks them equal).

A request arriving in 1-s sub-bin k of an SSD waits for the backlog ``Q_{k-1}/S``, then an M/M/1
sojourn of rate ``S - λ_k`` (see :mod:`.ssd_latency`); the SSD's latency distribution is the
arrival-weighted mixture over its sub-bins, and its 99.99 % quantile is found by bisection on
that mixture's CDF. Here the mixture is collapsed onto runs of sub-bins that share their
exponent, and numpy's exact arithmetic is used only where the collapsed sum is too close to call.
"""

from __future__ import annotations

import numba
import numpy as np

from storrepro.papers.periodicity._fast_steps import pairwise_sum
from storrepro.papers.periodicity.ssd_latency import (
    S_OPS,
    SMOOTH,
    Normals,
    base_latency,
    check_arrival_seconds,
    sub_bin_lengths,
    sub_bins_per_minute,
)
from storrepro.papers.periodicity.workload import REQUEST_BYTES


def latency_stats(
    bytes_per_minute: np.ndarray,
    rng: np.random.Generator | np.ndarray,
    quantile: float = 0.9999,
    service: float = S_OPS,
    base: float | None = None,
    arrival_seconds: int = SMOOTH,
):
    """Mean and ``quantile`` latency (seconds) per SSD; input shape (ssds, minutes); each
    minute's requests arrive in its first ``arrival_seconds`` seconds; ``base``: the base
    latency (default :func:`~.ssd_latency.base_latency` of ``arrival_seconds``); ``rng``: the
    generator of the arrivals' normals, or those normals (:class:`~.ssd_latency.Normals`)."""
    x = np.atleast_2d(bytes_per_minute)
    base = _base(base, arrival_seconds)
    weight, total, weighted, wait_max, mu_min, runs = mixture(x, rng, arrival_seconds, service)
    mean = base + weighted / np.maximum(total, 1)
    lo = np.zeros(x.shape[0])
    hi = wait_max + 50 / mu_min
    target = quantile * np.maximum(total, 1)
    work = None
    steps = 40  # bisection on the mixture's CDF
    while steps:  # the steps where the collapsed CDF decides every SSD, in one call
        done, mid, cdf = _bisect(runs.weight, runs.mu, runs.wait, runs.start, lo, hi, target,
                                 runs.error_bound, steps)
        steps -= done
        if not steps:
            break
        # a step with an SSD too close to call: numpy's own rounding decides, as it always did
        unsure = np.flatnonzero(np.abs(cdf - target) <= runs.error_bound)
        work = work or _Workspace(weight.shape)
        cdf[unsure] = mixture_cdf(weight, None, None, mid, unsure, work, runs)
        below = cdf < target
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
        steps -= 1
    return mean, base + hi


def tail_below(
    bytes_per_minute: np.ndarray,
    rng: np.random.Generator | np.ndarray,
    limit_ms: float,
    quantile: float = 0.9999,
    service: float = S_OPS,
    base: float | None = None,
    arrival_seconds: int = SMOOTH,
) -> bool:
    """``1e3 * latency_stats(...)[1].max() < limit_ms``, each SSD's bisection stopped as soon as
    its bracket decides it: ``hi`` only falls and ``lo`` only rises (and ``lo <= hi``), so once
    ``1e3 * (base + hi) < limit_ms`` the SSD's final tail is below the limit, and once
    ``1e3 * (base + lo) >= limit_ms`` it is not (then no SSD further is needed). The same
    comparisons as :func:`latency_stats` on the SSDs still open: the same answer.

    The SSDs go in blocks of doubling size (1/16 of them, then as many as done so far), each
    drawing the next rows of ``rng``'s Poisson stream (drawn row after row, the same counts as
    one draw of all rows): once an SSD is over the limit, the later SSDs are never drawn (the
    draws are the bulk of the work). ``rng`` is then left where the last block ended. Given
    the normals already drawn (:attr:`.ssd_latency.Normals.z`), no stream fixes the order:
    each block takes its SSDs' rows, the SSDs with the highest peak minute first (the likeliest
    over the limit, so that an answer "over" comes from the first block, not the last), and an
    SSD whose first bracket is already below the limit (:func:`quiet_bound`: most SSDs of the
    calibrations' loads) is not drawn at all."""
    x = np.atleast_2d(bytes_per_minute)
    base = _base(base, arrival_seconds)
    done = 0
    drawn = not isinstance(rng, np.random.Generator)  # the normals themselves (Normals.z)
    order = np.argsort(-x.max(axis=1), kind="stable") if drawn else np.arange(x.shape[0])
    if drawn:  # the SSDs whose first bracket already puts them below the limit: not drawn
        first = 1e3 * (base + quiet_bound(x, rng, arrival_seconds, service))
        order = order[~(first < limit_ms)[order]]
    while done < order.size:
        block = max(1, x.shape[0] // 16, done)
        rows = order[done : done + block]
        if not _block_below(x[rows], rng[rows] if drawn else rng, limit_ms, quantile, service,
                            base, arrival_seconds):
            return False
        done += block
    return True


class SsdLatencies:
    """:func:`latency_stats` of the per-SSD loads of one interval, all drawn with the same
    :class:`~.ssd_latency.Normals`, remembered per SSD: an SSD's mean and tail depend only on
    its own load row and its own normals (every step of the bisection is per row), so the
    placements of an interval that leave an SSD's load as it was (the SSDs no move touches,
    hash placement as the calibration drew it) reuse its numbers, bit for bit."""

    def __init__(self, normals: Normals):
        self.normals, self.done = normals, {}

    def __call__(self, load: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        load = self._checked(load)
        numbers = self._numbers(load, range(load.shape[0]))
        return numbers[:, 0], numbers[:, 1]

    def _checked(self, load: np.ndarray) -> np.ndarray:
        load = np.ascontiguousarray(load, dtype=float)
        if load.shape[0] != self.normals.shape[0]:
            raise ValueError(f"load: {load.shape[0]} SSDs, expected {self.normals.shape[0]}")
        return load

    def _numbers(self, load: np.ndarray, rows) -> np.ndarray:
        """The (mean, tail) of each SSD of ``rows``, computed for those not yet done."""
        keys = [(i, load[i].tobytes()) for i in rows]
        todo = [j for j, key in enumerate(keys) if key not in self.done]
        if todo:
            at = [keys[j][0] for j in todo]
            mean, tail = latency_stats(load[at], self.normals.z[at],
                                       arrival_seconds=self.normals.arrival_seconds)
            self.done.update({keys[j]: (mean[k], tail[k]) for k, j in enumerate(todo)})
        return np.array([self.done[key] for key in keys]).reshape(-1, 2)

    def worst(self, load: np.ndarray) -> float:
        """``self(load)[1].max()``, computing only the SSDs that can hold it: the sixteenth
        with the highest peak minutes first, then those of the rest whose first bracket
        (:func:`quiet_bound`) reaches as high as the worst of those (an SSD's tail is at most
        ``base`` plus its bracket's upper end)."""
        load = self._checked(load)
        seconds = self.normals.arrival_seconds
        order = np.argsort(-load.max(axis=1), kind="stable")
        first = order[: max(1, load.shape[0] // 16)]
        worst = self._numbers(load, first)[:, 1].max()
        bound = base_latency(seconds) + quiet_bound(load, self.normals.z, seconds)
        rest = [i for i in order[first.size:] if not bound[i] < worst]
        return max(worst, self._numbers(load, rest)[:, 1].max(initial=worst))

    def below(self, load: np.ndarray, limit_ms: float) -> bool:
        """:func:`tail_below` with these normals."""
        return tail_below(load, self.normals.z, limit_ms,
                          arrival_seconds=self.normals.arrival_seconds)


class IntervalDraws:
    """The :class:`SsdLatencies` of each evaluation interval k (its latency seed ``seeds[k]``)
    and arrival seconds, made on first use and kept for the replicate: the calibration's fits
    and the evaluation of every method share one draw of normals per interval."""

    def __init__(self, seeds: list[int], ssds: int, minutes: int):
        self.seeds, self.ssds, self.minutes, self.made = list(seeds), ssds, minutes, {}

    def __call__(self, k: int, arrival_seconds: int = SMOOTH) -> SsdLatencies:
        if (k, arrival_seconds) not in self.made:
            normals = Normals(self.seeds[k], self.ssds, self.minutes, arrival_seconds)
            self.made[k, arrival_seconds] = SsdLatencies(normals)
        return self.made[k, arrival_seconds]


def _base(base: float | None, arrival_seconds: int) -> float:
    check_arrival_seconds(arrival_seconds)
    return base_latency(arrival_seconds) if base is None else base


def _block_below(x, rng, limit_ms, quantile, service, base, arrival_seconds) -> bool:
    """:func:`tail_below` of the SSDs (rows) of ``x``, all drawn at once."""
    weight, total, _, wait_max, mu_min, runs = mixture(x, rng, arrival_seconds, service)
    lo = np.zeros(x.shape[0])
    hi = wait_max + 50 / mu_min
    target = quantile * np.maximum(total, 1)
    work = None
    for _ in range(40):
        open_ = ~(1e3 * (base + hi) < limit_ms)
        if (1e3 * (base + lo) >= limit_ms).any():
            return False
        if not open_.any():
            return True
        mid = (lo + hi) / 2
        cdf = runs.cdf(mid)
        unsure = np.flatnonzero(open_ & (np.abs(cdf - target) <= runs.error_bound))
        if unsure.size:
            work = work or _Workspace(weight.shape)
            cdf[unsure] = mixture_cdf(weight, None, None, mid, unsure, work, runs)
        below = cdf < target
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    return bool(1e3 * (base + hi).max() < limit_ms)


def mixture(x: np.ndarray, rng: np.random.Generator | np.ndarray, arrival_seconds: int,
            service: float = S_OPS):
    """The latency mixture of the rows of ``x`` (SSDs × minutes): ``(weight, total, weighted,
    wait_max, mu_min, runs)`` in one pass, with the arithmetic of ::

        weight, rate = sub_bin_arrivals(x, rng, arrival_seconds)
        wait = backlog_wait(weight, service, sub_bin_lengths(minutes, arrival_seconds))
        mu, total, weighted, wait_max, mu_min = moments(weight, rate, wait, service)
        runs = _Runs(weight, mu, wait, total)

    without the rates', waits' and mus' (SSDs × sub-bins) arrays."""
    x = np.ascontiguousarray(x, dtype=float)
    shape = (x.shape[0], x.shape[1] * sub_bins_per_minute(arrival_seconds))
    z = rng.standard_normal(shape) if isinstance(rng, np.random.Generator) else rng
    if z.shape != shape:
        raise ValueError(f"rng: normals of shape {z.shape}, expected the rates' {shape}")
    served = service * np.asarray(sub_bin_lengths(x.shape[1], arrival_seconds), dtype=float)
    weight = np.empty(shape)  # numpy allocates it: huge pages, far fewer page faults
    runs = [np.empty(shape[0] * shape[1]) for _ in range(3)]
    first = np.empty(shape[0] * shape[1], dtype=np.int64)
    *numbers, counts, k = _mixture(x, np.ascontiguousarray(z, dtype=float), arrival_seconds,
                                   SMOOTH / arrival_seconds, float(service), served,
                                   float(0.05 * service), weight, *runs, first)
    total = numbers[0]
    collapsed = (*(a[:k] for a in runs), counts, first[:k])
    return weight, *numbers, _Runs(weight, None, None, total, collapsed)


@numba.njit(cache=True)
def _mixture(x, z, seconds, speedup, service, served, floor, weight, run_weight, run_mu,
             run_wait, first):  # pragma: no cover (numba)
    """:func:`~.ssd_latency.sub_bin_arrivals`, :func:`_backlog_wait`, :func:`_moments` and
    :func:`_collapse` in one pass per row: the same operations on each sub-bin, in order."""
    rows, minutes = x.shape
    cols = z.shape[1]
    per = cols // minutes
    terms = np.empty(cols)
    total, weighted = np.empty(rows), np.empty(rows)
    wait_max, mu_min = np.empty(rows), np.empty(rows)
    counts = np.zeros(rows)
    k = -1
    for row in range(rows):
        c, low, top, least = 0.0, 0.0, 0.0, 0.0
        last, inverse, run_m, run_q = np.nan, np.nan, np.nan, np.nan
        for m in range(minutes):
            r = x[row, m] / 60 / REQUEST_BYTES * speedup  # burst_rate of the minute's ops/s
            root = np.sqrt(r)
            for s in range(per):
                i = m * per + s
                rate, count = 0.0, 0.0
                if s < seconds:
                    rate = r
                    count = np.rint(root * z[row, i] + r)
                    count = count if count > 0.0 else 0.0  # -0.0 too, as np.maximum
                weight[row, i] = count
                wait = 0.0 / service if i == 0 else (c - low) / service  # the backlog before
                d = count - served[i]
                c = d if i == 0 else c + d
                below = np.minimum(c, 0.0)
                low = below if i == 0 else np.minimum(low, below)
                mu = np.maximum(service - rate, floor)
                if mu != last:
                    last, inverse = mu, 1 / mu
                terms[i] = count * (wait + inverse)
                top = wait if i == 0 else max(top, wait)
                least = mu if i == 0 else min(least, mu)
                if i == 0 or mu != run_m or wait != run_q:  # a new run
                    k += 1
                    run_weight[k], run_mu[k], run_wait[k], first[k] = 0.0, mu, wait, i
                    counts[row] += 1
                    run_m, run_q = mu, wait
                run_weight[k] += count
        weighted[row] = pairwise_sum(terms, 0, cols)
        total[row] = pairwise_sum(weight[row], 0, cols)
        wait_max[row], mu_min[row] = top, least
    return total, weighted, wait_max, mu_min, counts, k + 1


def quiet_bound(x: np.ndarray, z: np.ndarray, arrival_seconds: int,
                service: float = S_OPS) -> np.ndarray:
    """Per row of ``x`` (SSDs × minutes, with its normals ``z``): the upper end ``hi`` of the
    first bracket of :func:`latency_stats`'s bisection, ``wait_max + 50 / mu_min``, where the
    SSD can build no backlog, else inf; the bisection's ``hi`` only falls, so the SSD's tail
    is at most ``base`` plus this. Without drawing the arrivals: a count is at most what the
    largest normal of its minute gives (``rint(sqrt(r) z + r)`` rises with ``z``), and while
    no count exceeds the requests served in its sub-bin, the backlog and so ``wait_max`` stay
    0.0 exactly; ``mu_min`` is that of the minute with the highest rate, as :func:`moments`
    finds it (the same arithmetic, which rises with the load)."""
    x = np.ascontiguousarray(x, dtype=float)
    z = np.ascontiguousarray(z, dtype=float)
    if z.shape != (x.shape[0], x.shape[1] * sub_bins_per_minute(arrival_seconds)):
        raise ValueError(f"z: normals of shape {z.shape}, expected the rates' of {x.shape}")
    return _quiet_bound(x, z, arrival_seconds, SMOOTH / arrival_seconds, float(service),
                        float(0.05 * service))


@numba.njit(cache=True)
def _quiet_bound(x, z, seconds, speedup, service, floor):  # pragma: no cover (numba)
    rows, minutes = x.shape
    per = z.shape[1] // minutes
    out = np.empty(rows)
    for row in range(rows):
        peak = 0.0  # the highest rate (a quiet sub-bin's is 0)
        for m in range(minutes):
            r = x[row, m] / 60 / REQUEST_BYTES * speedup  # as _mixture
            top = z[row, m * per]
            for s in range(1, seconds):
                top = max(top, z[row, m * per + s])
            if np.rint(np.sqrt(r) * top + r) > service:  # a busy sub-bin serves service · 1 s
                peak = np.inf
                break
            peak = max(peak, r)
        out[row] = np.inf if peak == np.inf else 0.0 + 50 / np.maximum(service - peak, floor)
    return out


def backlog_wait(counts: np.ndarray, service: float = S_OPS,
                 lengths: np.ndarray | None = None) -> np.ndarray:
    """The wait of a request arriving in each sub-bin: the backlog left by the sub-bins
    before it over ``service``, with numpy's arithmetic of ::

        q = ssd_latency.backlog(counts, service, lengths)
        np.concatenate([np.zeros((rows, 1)), q[:, :-1]], axis=1) / service

    in one pass (``cumsum`` and ``minimum.accumulate`` add and compare in order)."""
    counts = np.ascontiguousarray(counts, dtype=float)
    served = (np.full(counts.shape[1], float(service)) if lengths is None
              else service * np.asarray(lengths, dtype=float))
    wait = np.empty(counts.shape)  # numpy allocates it: huge pages
    _backlog_wait(counts, float(service), served, wait)
    return wait


@numba.njit(cache=True)
def _backlog_wait(counts, service, served, wait):  # pragma: no cover (numba)
    rows, cols = counts.shape
    for row in range(rows):
        c = 0.0
        floor = 0.0
        for i in range(cols):
            d = counts[row, i] - served[i]
            c = d if i == 0 else c + d
            m = np.minimum(c, 0.0)
            floor = m if i == 0 else np.minimum(floor, m)
            if i + 1 < cols:
                wait[row, i + 1] = (c - floor) / service
        if cols:
            wait[row, 0] = 0.0 / service


def moments(weight: np.ndarray, rate: np.ndarray, wait: np.ndarray, service: float = S_OPS):
    """``(mu, total, weighted, wait_max, mu_min)`` in one pass per row, with numpy's arithmetic
    of ::

        mu = np.maximum(service - rate, 0.05 * service)
        total = weight.sum(axis=1)
        weighted = (weight * (wait + 1 / mu)).sum(axis=1)
        wait.max(axis=1), mu.min(axis=1)

    (the sums in numpy's pairwise order, :func:`pairwise_sum`)."""
    f = np.ascontiguousarray
    mu = np.empty(np.shape(weight))  # numpy allocates it: huge pages
    return (mu, *_moments(f(weight, dtype=float), f(rate, dtype=float), f(wait, dtype=float),
                          float(service), float(0.05 * service), mu))


@numba.njit(cache=True)
def _moments(weight, rate, wait, service, floor, mu):  # pragma: no cover (numba)
    rows, cols = weight.shape
    terms = np.empty(cols)
    total, weighted = np.empty(rows), np.empty(rows)
    wait_max, mu_min = np.empty(rows), np.empty(rows)
    for row in range(rows):
        last, inverse = np.nan, np.nan
        for i in range(cols):
            m = np.maximum(service - rate[row, i], floor)
            mu[row, i] = m
            if m != last:  # mu is constant within a minute's arrivals: 1 / m once per value
                last, inverse = m, 1 / m
            terms[i] = weight[row, i] * (wait[row, i] + inverse)
        weighted[row] = pairwise_sum(terms, 0, cols)
        total[row] = pairwise_sum(weight[row], 0, cols)
        wait_max[row] = wait[row].max()
        mu_min[row] = mu[row].min()
    return total, weighted, wait_max, mu_min


class _Runs:
    """The mixture collapsed onto runs of sub-bins with equal ``mu`` and ``wait``, whose
    Poisson weights (integers) add up exactly: one term per minute without backlog.

    Its CDF differs from the sub-bin sum by rounding only. Both share each run's ``1 - exp``
    (the same exponent; ``exp`` the C library's in both), each product of it with a weight
    rounds once (u = 2^-53 of the term), and both sums are pairwise (:func:`pairwise_sum`):
    a value passes through at most 25 roundings in a block of up to 128, one more per halving
    above it, so each sum of n <= ``cols`` terms is within (25 + log2(cols / 64))·u of the
    total weight (the terms are at most their weights). ``error_bound`` allows twice that
    plus 16·u, times the total weight. Where the grouped CDF is further than that from the
    target, it sides with the sub-bin sum (with numpy's exact rounding) in the bisection's
    comparison; elsewhere :func:`mixture_cdf` computes the latter.
    """

    def __init__(self, weight, mu, wait, total=None, collapsed=None):
        """``total``: ``weight.sum(axis=1)`` if known (:func:`moments` sums it);
        ``collapsed``: ``_collapse(weight, mu, wait)`` if known (:func:`mixture` makes it)."""
        collapsed = _collapse(weight, mu, wait) if collapsed is None else collapsed
        self.weight, self.mu, self.wait, counts, self.first = collapsed
        self.start = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        total = np.maximum(weight.sum(axis=1) if total is None else total, 1)
        roundings = 25 + np.ceil(np.log2(max(weight.shape[1], 128) / 64))
        self.error_bound = (2 * roundings + 16) * (np.finfo(float).eps / 2) * total

    def cdf(self, at: np.ndarray) -> np.ndarray:
        return _run_cdf(self.weight, self.mu, self.wait, self.start, at)


@numba.njit(cache=True)
def _collapse(weight, mu, wait):  # pragma: no cover (numba)
    rows, cols = weight.shape
    w = np.empty(rows * cols)
    m = np.empty(rows * cols)
    q = np.empty(rows * cols)
    first = np.empty(rows * cols, dtype=np.int64)  # each run's first sub-bin
    counts = np.zeros(rows)
    k = -1
    for row in range(rows):
        for i in range(cols):
            new = i == 0 or mu[row, i] != mu[row, i - 1] or wait[row, i] != wait[row, i - 1]
            if new:
                k += 1
                w[k], m[k], q[k], first[k] = 0.0, mu[row, i], wait[row, i], i
                counts[row] += 1
            w[k] += weight[row, i]
    return w[: k + 1], m[: k + 1], q[: k + 1], counts, first[: k + 1]


@numba.njit(cache=True)
def _run_cdf(weight, mu, wait, start, at):  # pragma: no cover (numba)
    """Per row, the pairwise sum over its runs (``start``: each row's first run) of ``weight
    (1 - exp(-mu max(at - wait, 0)))``; a run not yet reached (``at <= wait``) adds 0, so it
    is left out, exp and all."""
    out = np.zeros(at.size)
    terms = np.empty(max(1, np.max(start[1:] - start[:-1]) if at.size else 1))
    for row in range(at.size):
        out[row] = _row_cdf(weight, mu, wait, start, row, at[row], terms)
    return out


@numba.njit(cache=True)
def _row_cdf(weight, mu, wait, start, row, at, terms):  # pragma: no cover (numba)
    """:func:`_run_cdf` of one row at ``at`` (``terms``: scratch for its runs)."""
    n = 0
    for k in range(start[row], start[row + 1]):
        if at > wait[k]:
            terms[n] = weight[k] * (1 - np.exp(-mu[k] * (at - wait[k])))
            n += 1
    return pairwise_sum(terms, 0, n) if n else 0.0


@numba.njit(cache=True)
def _bisect(weight, mu, wait, start, lo, hi, target, bound, steps):  # pragma: no cover (numba)
    """Up to ``steps`` steps of :func:`latency_stats`'s bisection on the collapsed CDF
    (:func:`_run_cdf`), ``lo`` and ``hi`` updated in place, as its numpy lines update them;
    stops before a step in which some row's CDF is within ``bound`` of its target: returns
    the steps done, and that step's mids and CDFs."""
    rows = lo.size
    mid, cdf = np.empty(rows), np.empty(rows)
    terms = np.empty(max(1, np.max(start[1:] - start[:-1]) if rows else 1))
    for step in range(steps):
        unsure = False
        for row in range(rows):
            mid[row] = (lo[row] + hi[row]) / 2
            cdf[row] = _row_cdf(weight, mu, wait, start, row, mid[row], terms)
            unsure = unsure or np.abs(cdf[row] - target[row]) <= bound[row]
        if unsure:
            return step, mid, cdf
        for row in range(rows):
            if cdf[row] < target[row]:
                lo[row] = mid[row]
            else:
                hi[row] = mid[row]
    return steps, mid, cdf


class _Workspace:
    """Scratch arrays of :func:`mixture_cdf`, reused across the bisection's steps (fresh
    multi-megabyte arrays each step cost more in page faults than in arithmetic)."""

    def __init__(self, shape: tuple[int, int]):
        self.args = np.empty(shape[0] * shape[1])
        self.index = np.empty(shape, dtype=np.int64)
        self.terms = np.empty(shape[1])
        self.run_arg = np.empty(shape[0] * shape[1], dtype=np.int64)


def mixture_cdf(weight, mu, wait, at, rows=None, work: _Workspace | None = None,
                runs: _Runs | None = None) -> np.ndarray:
    """Per row (of ``rows``, default all): ``sum_i weight_i (1 - exp(-mu_i max(at - wait_i,
    0)))``, the arrival-weighted latency CDF at ``at`` (minus the base latency), with numpy's
    arithmetic of

        (weight * (1 - np.exp(-mu * np.maximum(at[:, None] - wait, 0)))).sum(axis=1)

    ``mu`` is constant within a minute and ``wait`` is 0 without backlog, so runs of sub-bins
    share their exponent: numpy's ``exp`` runs once per run, not once per sub-bin.
    """
    rows = np.arange(weight.shape[0]) if rows is None else np.asarray(rows, dtype=np.int64)
    work = work or _Workspace(weight.shape)
    if runs is not None:  # the exponents once per run of equal (mu, wait), not per sub-bin
        count = _run_exponents(runs.mu, runs.wait, runs.start, at, rows, work.args,
                               work.run_arg)
        return _run_weighted_sums(weight, rows, np.exp(work.args[:count]), work.run_arg,
                                  runs.start, runs.first, work.terms)
    count = _exponents(mu, wait, at, rows, work.args, work.index)
    return _weighted_sums(weight, rows, np.exp(work.args[:count]), work.index, work.terms)


@numba.njit(cache=True)
def _run_exponents(mu, wait, start, at, rows, args, run_arg):  # pragma: no cover (numba)
    """:func:`_exponents` on the runs of :class:`_Runs` (``mu``, ``wait`` per run, ``start``:
    each row's first run): every sub-bin of a run has the run's exponent, so the distinct
    consecutive exponents are the same; ``run_arg``: each run's position in ``args``."""
    count = 0
    for row in rows:
        for j in range(start[row], start[row + 1]):
            a = -mu[j] * max(at[row] - wait[j], 0.0)
            if count == 0 or a != args[count - 1]:
                args[count] = a
                count += 1
            run_arg[j] = count - 1
    return count


@numba.njit(cache=True)
def _run_weighted_sums(weight, rows, exps, run_arg, start, first,
                       terms):  # pragma: no cover (numba)
    """:func:`_weighted_sums` on the runs of :class:`_Runs` (``start``: each row's first run,
    ``first``: each run's first sub-bin): each run's ``1 - exp`` once, for its sub-bins."""
    cols = weight.shape[1]
    out = np.empty(rows.size)
    for k, row in enumerate(rows):
        for j in range(start[row], start[row + 1]):
            done = 1 - exps[run_arg[j]]
            stop = first[j + 1] if j + 1 < start[row + 1] else cols
            for i in range(first[j], stop):
                terms[i] = weight[row, i] * done
        out[k] = pairwise_sum(terms, 0, cols)  # numpy's sum(axis=1), same association
    return out


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
