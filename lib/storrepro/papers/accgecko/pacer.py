"""The fixed-rate pacer of one tenant, replayed at any rate: the queueing at the heart of the
ground truth and of the predictors that replay arrivals (PriorityMeister, MMP, the burst-queue
reference predictor).

The pacer starts request ``j`` at ``s_j = max(a_j, s_{j-1} + 1/sr)`` (one FIFO per tenant, minimum
spacing ``1/sr``, no slot alignment), so request ``j`` waits ``s_j − a_j``, plus the per-request
overhead when one is given (``kernel`` adds the node's dispatch wait and processing time).
:class:`Replayer` is a numba loop over the closed form
``s_j − a_j = max_{i<=j}(a_i − i/sr) − (a_j − j/sr)``; a test shows it equals the recursion and
the simpy FIFO server, and the node it is part of equals the simpy node (``reference``).

Three devices make the many replays of a rate search, or of a sweep over allocated rates, cheap
without changing any result:
- **Selection.** A percentile is an exact order statistic: a histogram of the latencies' leading
  bits finds the bucket holding each rank, and only that bucket is partitioned.
- **Snapshots.** Start times only fall as the rate rises, so no latency grows, and the pacer
  restarts at each busy period's opener. A percentile is never below a *floor*: the same rank of
  the overheads alone (0 without overheads), or the percentile at a higher rate. A replay at
  rate ``r`` can therefore leave a snapshot of just the busy periods whose peak latency exceeds
  the floor, at their original positions (their latencies stay exactly the full replay's), with
  each period's peak; later replays at rates ``>= r`` run on the smallest such snapshot and skip
  the periods that peak at or below their own floor. The requests left out stay at or below the
  floor, so a percentile is the replayed requests' own, raised to the floor (exact: a rank can
  only be missed among them if the answer is the floor itself); a replay that leaves no
  snapshot ranks only the latencies above its floor.
- **Blocks.** A sweep over many rates goes up in blocks: each block's top rate first (it leaves
  the snapshot for the blocks above), then the block's other rates downwards, each with the
  percentiles just found as its floor, which lets it skip most busy periods; each rate is
  replayed for the percentiles asked of it, so a rate asked only for a high one skips more.
"""

from __future__ import annotations

import bisect
import math
from typing import NamedTuple

import numba
import numpy as np

from storrepro.papers.accgecko.acctail import check_percentile, check_rate
from storrepro.papers.accgecko.features import check_arrivals

# a non-negative float's bit pattern grows with its value: its top 19 bits (exponent and 7
# mantissa bits, buckets under 1 % wide) index the selection histogram
BUCKET_SHIFT = 45
BUCKETS = (0x7FF << 52 >> BUCKET_SHIFT) + 1  # up to +inf
# a rate search takes a snapshot when less than this share of the replayed requests still matter
# (and keeps them all: its rates go up and down); a sweep takes one at the top of each block
SEARCH_SNAPSHOT_SHARE = 0.5
SWEEP_BLOCK = 1.25  # a sweep's rates within this factor of each other form one block (1.5: 8 %
# slower on four tenants of the pool, its rates replaying busy periods of a rate further below)
NARROW_SHARE = 0.5  # a sweep narrows its snapshot once a replay reads less than this share of it
BOUND_MARGIN = 1e-9  # relative slack on a lower bound taken from another rate's percentile


def pacer_waits(arrivals, sr: float) -> np.ndarray:
    """Queueing delay ``s_j − a_j`` (seconds) of every request at fixed rate ``sr`` (IOPS)."""
    return Replayer(arrivals).latencies_us(sr) / 1e6


def rank_from_top(total: int, p: float) -> int:
    """How many requests lie at or above the p-th percentile: ``ceil(total (1 − p/100))``."""
    return max(1, math.ceil(total * (1 - p / 100) - 1e-9))


@numba.njit(cache=True)
def _replay(snapshot, spacing, floor, latency, counts, every, kept):
    """Replay a snapshot's busy periods whose peak exceeds ``floor`` at the fixed ``spacing``
    (s); the others cannot rise above it (see :class:`Snapshot`).

    The replayed latencies (µs) above ``floor`` go into ``latency`` (packed from 0), the only
    ones a rank above the floor can fall on, or with ``every`` all of them; the histogram of the
    packed latencies' buckets goes into ``counts`` (if not empty). With ``kept`` (the arrays of
    a snapshot, room for every replayed request) the busy periods at this rate (within the
    snapshot's) whose peak exceeds ``floor`` are copied there: the next snapshot. Returns how
    many latencies were packed, the highest bucket, the longest wait (µs), how many requests
    are in busy periods (at this rate) whose largest latency exceeds ``floor``, how many were
    replayed, and how many periods and requests were kept.

    The loop has no branch on the data (a busy period's start, or a latency above the floor,
    comes about as often as not at the rates searched, and a mispredicted branch costs more
    than the rest of the request): every request is written and counted only when it should."""
    firsts, arrivals, overhead, starts, peaks = snapshot
    kept_firsts, kept_arrivals, kept_overhead, kept_starts, kept_peaks = kept
    keep = kept_starts.size > 0
    if keep:
        kept_starts[0] = 0
    with_overhead = overhead.size > 0
    best, longest = -np.inf, 0.0
    done, packed, matter, start, largest = 0, 0, 0, 0, -np.inf  # busy period: opener, peak
    periods, j, begun, first, peak = 0, 0, 0, 0, -np.inf  # kept: period's start, trace index
    for q in range(peaks.size):
        if peaks[q] <= floor:
            continue
        offset = firsts[q] - starts[q]  # request k of the snapshot is request k + offset
        for k in range(starts[q], starts[q + 1]):
            shifted = arrivals[k] - (k + offset) * spacing  # a_i − i/sr
            opener = shifted >= best  # it waits 0: it closes the previous busy period
            best = max(best, shifted)
            wait = best - shifted
            matter += (done - start) * (opener & (largest > floor))
            start = done if opener else start
            largest = -np.inf if opener else largest
            wait_us = wait * 1e6
            longest = max(longest, wait_us)
            value = wait_us + overhead[k] if with_overhead else wait_us
            largest = max(largest, value)
            done += 1
            latency[packed] = value
            packed += every | (value > floor)
            if keep:  # a kept period also starts with each of the snapshot's
                closing = opener | (k == starts[q])
                kept_firsts[periods], kept_peaks[periods] = first, peak
                kept_starts[periods + 1] = j
                periods += closing & (peak > floor)
                j = begun if closing & (peak <= floor) else j  # a period under the floor: undone
                begun = j if closing else begun
                first = k + offset if closing else first
                peak = -np.inf if closing else peak
                kept_arrivals[j] = arrivals[k]
                if with_overhead:
                    kept_overhead[j] = overhead[k]
                j += 1
                peak = max(peak, value)
    matter += done - start if largest > floor else 0
    if keep:
        kept_firsts[periods], kept_peaks[periods] = first, peak
        kept_starts[periods + 1] = j
        commit = peak > floor
        periods += 1 if commit else 0
        j = j if commit else begun
    top = 0
    if counts.size:
        counts[:] = 0
        bits = latency.view(np.int64)
        for i in range(packed):
            bucket = bits[i] >> BUCKET_SHIFT
            counts[bucket] += 1
            top = max(top, bucket)
    return packed, top, longest, matter, done, periods, j


@numba.njit(cache=True)
def _select(latency, counts, top, ranks, out):
    """``out[r]``: the ``ranks[r]``-th largest of ``latency`` (all >= 0; histogram ``counts``,
    highest bucket ``top``), or NaN if there are fewer. Walks the histogram down to each rank's
    bucket and selects only among that bucket's non-zero values: zeros, the smallest values, can
    fill bucket 0 with nearly every request (a rate limiter that never waits), and a rank past
    the non-zero ones is 0. The buckets' values share one buffer, and the selection is a plain
    quickselect (not ``np.partition``, whose compilation alone took longer than the notebook's
    replays)."""
    buckets = np.empty(ranks.size, np.int64)
    above = np.zeros(ranks.size, np.int64)
    start = np.zeros(ranks.size + 1, np.int64)
    for r in range(ranks.size):
        bucket = top
        while bucket >= 0 and above[r] + counts[bucket] < ranks[r]:
            above[r] += counts[bucket]
            bucket -= 1
        buckets[r] = bucket
        start[r + 1] = start[r] + (counts[bucket] if bucket >= 0 else 0)
    inside = np.empty(start[-1])
    filled = start[:-1].copy()
    lowest = top
    for r in range(ranks.size):  # a loop, not buckets.min(): numba compiles that for a second
        lowest = min(lowest, buckets[r])
    bits = latency.view(np.int64)
    for k in range(latency.size):
        bucket = bits[k] >> BUCKET_SHIFT
        if bucket < lowest or latency[k] == 0.0:  # most requests: below every rank's bucket
            continue
        for r in range(ranks.size):
            if bucket == buckets[r]:
                inside[filled[r]] = latency[k]
                filled[r] += 1
    for r in range(ranks.size):
        kth = filled[r] - start[r] - (ranks[r] - above[r])
        if buckets[r] < 0:
            out[r] = np.nan
        elif kth < 0:
            out[r] = 0.0
        else:
            out[r] = _kth_smallest(inside[start[r] : filled[r]], kth)


@numba.njit(cache=True)
def _kth_smallest(values, k):
    """The ``k``-th smallest (from 0) of ``values``, which it reorders (quickselect: Hoare's
    partition around the middle element, then the side that holds ``k``)."""
    lo, hi = 0, values.size - 1
    while lo < hi:
        pivot = values[(lo + hi) // 2]
        i, j = lo, hi
        while i <= j:
            while values[i] < pivot:
                i += 1
            while values[j] > pivot:
                j -= 1
            if i <= j:
                values[i], values[j] = values[j], values[i]
                i += 1
                j -= 1
        if k <= j:
            hi = j
        elif k >= i:
            lo = i
        else:
            return values[k]
    return values[k]


@numba.njit(cache=True)
def _histogram(values, counts):
    """The selection histogram of ``values`` (all >= 0; -0.0 counts as 0.0) into ``counts``;
    returns the top bucket."""
    bits = values.view(np.int64)
    counts[:] = 0
    top = 0
    for k in range(values.size):
        bucket = max(bits[k] >> BUCKET_SHIFT, 0)  # -0.0's sign bit: bucket 0, as 0.0
        counts[bucket] += 1
        top = max(top, bucket)
    return top


def largest(values, ranks) -> np.ndarray:
    """The ``ranks``-th largest of ``values`` (all >= 0; rank 1: the largest), by the selection
    a replay's percentiles use: no sort, no copy of ``values``."""
    values = np.ascontiguousarray(values, dtype=float)
    ranks = np.asarray(ranks, dtype=np.int64)
    if values.size == 0 or not np.all(values >= 0):
        raise ValueError("values: expected a non-empty array of numbers >= 0")
    if np.any((ranks < 1) | (ranks > values.size)):
        raise ValueError(f"ranks = {ranks.tolist()}: expected ranks in 1..{values.size}")
    if np.signbit(values).any():
        values = values + 0.0  # -0.0 to 0.0: the buckets read the sign bit
    counts = np.zeros(BUCKETS, np.int64)
    out = np.empty(ranks.size)
    _select(values, counts, _histogram(values, counts), ranks, out)
    return out


@numba.njit(cache=True)
def _narrowed(snapshot, floor):
    """The snapshot's busy periods whose peak exceeds ``floor``, copied in order: the same
    replays for any floor at least this, on fewer requests, side by side in memory."""
    firsts, arrivals, overhead, starts, peaks = snapshot
    periods, requests = 0, 0
    for q in range(peaks.size):
        if peaks[q] > floor:
            periods += 1
            requests += starts[q + 1] - starts[q]
    kept_firsts, kept_peaks = np.empty(periods, np.int64), np.empty(periods)
    kept_starts = np.empty(periods + 1, np.int64)
    kept_arrivals = np.empty(requests)
    kept_overhead = np.empty(requests if overhead.size else 0)
    kept_starts[0] = j = p = 0
    for q in range(peaks.size):
        if peaks[q] <= floor:
            continue
        for k in range(starts[q], starts[q + 1]):
            kept_arrivals[j] = arrivals[k]
            if overhead.size:
                kept_overhead[j] = overhead[k]
            j += 1
        kept_firsts[p], kept_peaks[p] = firsts[q], peaks[q]
        p += 1
        kept_starts[p] = j
    return kept_firsts, kept_arrivals, kept_overhead, kept_starts, kept_peaks


def snapshot_room(requests: int, with_overhead: bool) -> tuple[np.ndarray, ...]:
    """Empty arrays for a snapshot of up to ``requests`` requests (none: no snapshot taken), as
    :func:`_replay` fills them."""
    firsts, peaks = np.empty(requests + 1, np.int64), np.empty(requests + 1)
    starts = np.empty(requests + 2 if requests else 0, np.int64)
    return firsts, np.empty(requests), np.empty(requests if with_overhead else 0), starts, peaks


class Snapshot(NamedTuple):
    """What replays at ``rate`` or above need for percentiles of at least ``floor`` (µs): some
    of the trace's requests, their arrivals and overheads, in busy periods at ``rate`` (from
    ``starts[q]`` to ``starts[q + 1]``, trace requests ``firsts[q]`` onwards: a busy period is
    a run of consecutive requests) and each period's largest latency there (its ``peak``, an
    upper bound at any higher rate)."""

    rate: float
    floor: float
    firsts: np.ndarray
    arrivals: np.ndarray
    overhead: np.ndarray
    starts: np.ndarray
    peaks: np.ndarray

    @property
    def requests(self):
        return (self.firsts, self.arrivals, self.overhead, self.starts, self.peaks)


class Replayer:
    """One tenant's trace, replayed at any fixed rate (see the module docstring)."""

    def __init__(self, arrivals, overhead_us: np.ndarray | None = None, checked: bool = False):
        self.arrivals = arrivals if checked else check_arrivals(arrivals)  # checked by the caller
        n = self.arrivals.size
        if overhead_us is not None and np.shape(overhead_us) != (n,):
            raise ValueError(f"overhead_us: expected {n} values, got shape {np.shape(overhead_us)}")
        self.overhead_us = np.empty(0) if overhead_us is None else np.asarray(overhead_us, float)
        if np.any(self.overhead_us < 0):
            raise ValueError("overhead_us: every overhead must be >= 0 µs")
        self.total = n
        everything = Snapshot(
            0.0, -np.inf, np.array([0]), self.arrivals, self.overhead_us,
            np.array([0, n]), np.array([np.inf]),
        )  # fmt: skip
        self._snapshots = [everything]
        self._floors: dict[int, float] = {}
        self._seen: np.ndarray | None = None
        self._found: dict[int, dict[float, float]] = {}  # rank -> {rate: its latency there}
        self._longest: dict[float, float] = {}  # rate -> the longest wait there (µs)
        self._latency = np.empty(n)
        self._counts = np.zeros(BUCKETS, np.int64)
        self._room: tuple[np.ndarray, ...] | None = None  # every replay's room for a snapshot

    def latencies_us(self, sr: float) -> np.ndarray:
        """Server-side latency of every request in µs."""
        latency = np.empty(self.total)
        _replay(self._snapshots[0].requests, 1.0 / check_rate(sr), 0.0, latency,
                np.empty(0, np.int64), True, snapshot_room(0, False))  # fmt: skip
        return latency

    def _floor(self, ranks) -> float:
        """A value no ``rank``-th largest latency can fall below, at any rate: the lower edge of
        the bucket holding that rank of the overheads alone (0 without overheads)."""
        if not self.overhead_us.size or not ranks:
            return 0.0
        for rank in set(ranks) - set(self._floors):
            if self._seen is None:  # the overheads' histogram, read once (a replay's scratch)
                top = _histogram(self.overhead_us, self._counts)
                self._seen = np.cumsum(self._counts[top::-1])  # requests in this bucket or above
            bucket = self._seen.size - 1 - int(np.searchsorted(self._seen, rank))
            self._floors[rank] = float(np.array([bucket << BUCKET_SHIFT]).view(float)[0])
        return min(self._floors[rank] for rank in ranks)

    def _lower_bound(self, sr: float, ranks) -> float:
        """A value none of the ``ranks``-th largest latencies at ``sr`` can fall below: for each
        rank the overheads' floor or a percentile already found at a higher rate (none falls as
        the rate falls), whichever is larger; less a relative margin far above rounding (a rate
        1 IOPS apart moves a waiting request's latency by orders more)."""
        bounds = []
        for rank in ranks:
            higher = [v for rate, v in self._found.get(rank, {}).items() if rate > sr]
            bounds.append(max([self._floor([rank]), *higher]))
        bound = min(bounds, default=0.0)
        return bound * (1 - BOUND_MARGIN) if bound > 0 else bound

    def _wait_bound(self, sr: float) -> float:
        """A value the longest wait at ``sr`` cannot fall below: the longest wait found at a
        higher rate (none falls as the rate falls), less the margin of :meth:`_lower_bound`."""
        bound = max([v for rate, v in self._longest.items() if rate > sr], default=0.0)
        return bound * (1 - BOUND_MARGIN) if bound > 0 else bound

    def _replay_at(self, sr: float, ranks=(), use: str = "once") -> tuple[np.ndarray, float]:
        """The ``ranks``-th largest latencies and the longest wait (µs) at ``sr``, replayed on the
        smallest usable snapshot, skipping the busy periods that peak below the lower bound.
        ``use``: "once" takes no new snapshot, "search" takes one when less than
        SEARCH_SNAPSHOT_SHARE of the replayed requests still matter, "sweep" always. Without
        ``ranks`` the longest wait is exact: a search's replay skips only the busy periods
        that peak below the longest wait found at a higher rate (a period's peak is at least
        its longest wait, and the longest wait lies in a period above the bound)."""
        sr = check_rate(sr)
        ranks = [int(k) for k in ranks]
        if ranks:
            floor = self._lower_bound(sr, ranks) if use != "once" or self._found else 0.0
        else:
            floor = self._wait_bound(sr) if use == "search" else 0.0
        usable = [s for s in self._snapshots if s.rate <= sr and s.floor <= floor]
        snap = min(usable, key=lambda s: s.arrivals.size)
        counts = self._counts if ranks else np.empty(0, np.int64)
        kept = snapshot_room(0, False) if use == "once" else self._snapshot_room(snap)
        packed, top, longest, matter, done, periods, requests = _replay(
            snap.requests, 1.0 / sr, floor, self._latency, counts, False, kept
        )
        values = np.empty(len(ranks))
        if ranks:
            _select(self._latency[:packed], counts, top, np.array(ranks, dtype=np.int64), values)
            values = np.where(np.isnan(values), floor, np.maximum(values, floor))
            for rank, value in zip(ranks, values, strict=True):
                self._found.setdefault(rank, {})[sr] = float(value)
        if use == "sweep" or use == "search" and matter < SEARCH_SNAPSHOT_SHARE * done:
            firsts, arrivals, overhead, starts, peaks = kept
            self._snapshots.append(Snapshot(
                sr, floor, firsts[:periods], arrivals[:requests], overhead[:requests],
                starts[: periods + 1], peaks[:periods],
            ))  # fmt: skip
            self._room = None  # the snapshot's now
        self._replayed, self._replayed_requests = snap, done
        if not ranks:
            self._longest[sr] = longest
        return values, longest

    def _snapshot_room(self, snap: Snapshot) -> tuple[np.ndarray, ...]:
        """Room for a snapshot of every request of ``snap``, lent to each replay that may take
        one until one does: most replays of a search take none, and each would otherwise
        allocate five arrays the size of ``snap`` for nothing."""
        if self._room is None or self._room[1].size < snap.arrivals.size:
            self._room = snapshot_room(snap.arrivals.size, snap.overhead.size > 0)
        return self._room

    def _narrow(self, floor: float) -> None:
        """Keep, beside the snapshot just replayed, a copy of its busy periods that peak above
        ``floor`` (less the margin of a lower bound): the replays at its rate or above whose
        lower bound is at least that need no other (see :func:`_narrowed`)."""
        snap = self._replayed
        floor = floor * (1 - BOUND_MARGIN) if floor > 0 else floor
        if floor > snap.floor and self._replayed_requests < NARROW_SHARE * snap.arrivals.size:
            self._snapshots.append(Snapshot(snap.rate, floor, *_narrowed(snap.requests, floor)))

    def max_wait_us(self, sr: float, use: str = "once") -> float:
        return self._replay_at(sr, (), use)[1]

    def percentiles_us(self, ps, sr: float, use: str = "once") -> np.ndarray:
        """The p-th percentile latencies (µs) at ``sr``: for each p the ``rank_from_top``-th
        largest of all requests. ``use``: "once", or "search" / "sweep" to keep snapshots for
        later rates (see ``_replay_at``)."""
        ranks = [rank_from_top(self.total, check_percentile(p)) for p in ps]
        return self._replay_at(sr, ranks, use)[0]

    def largest_us(self, rank: int, sr: float, use: str = "once") -> float:
        """The ``rank``-th largest latency (µs) at ``sr`` (rank 1: the largest)."""
        if not 1 <= rank <= self.total:
            raise ValueError(f"rank = {rank!r}: expected 1..{self.total}")
        return float(self._replay_at(sr, [rank], use)[0][0])

    def percentile_us(self, p: float, sr: float, use: str = "once") -> float:
        return float(self.percentiles_us([p], sr, use)[0])

    def percentiles_at(self, rates, ps) -> dict[tuple[float, float], float]:
        """``{(rate, p): percentile}`` for every rate and p (see :meth:`percentiles_of`)."""
        return self.percentiles_of({rate: ps for rate in rates})

    def percentiles_of(self, needed) -> dict[tuple[float, float], float]:
        """``{(rate, p): percentile}`` for each rate of ``needed`` and each p it maps to.

        The rates go up in blocks of up to SWEEP_BLOCK x the block's lowest: each block's top
        rate first, at every p of ``needed``, on the snapshot left by the blocks below (and
        leaving one for those above), then the block's other rates downwards at their own ps,
        each bounded below by the rates above it. Going down, the bound only rises, so after
        each rate the snapshot in use is narrowed to the busy periods that peak above it; a rate
        that needs only the higher percentile replays only the busy periods above its bound."""
        needed = {check_rate(rate): sorted(set(ps)) for rate, ps in needed.items()}
        every = sorted({p for ps in needed.values() for p in ps})
        rates = sorted(needed)
        out = {}
        while rates:
            size = 1 if len(self._snapshots) == 1 else bisect.bisect_right(
                rates, SWEEP_BLOCK * rates[0]
            )  # fmt: skip
            block, rates = rates[:size], rates[size:]
            for rate in reversed(block):
                top = rate == block[-1]
                ps = every if top else needed[rate]
                values = self.percentiles_us(ps, rate, "sweep" if top else "once")
                if top:
                    ahead = self._snapshots[-1]  # left for the blocks above
                self._narrow(float(values.min()))
                out.update({(rate, p): float(v) for p, v in zip(ps, values, strict=True)
                            if p in needed[rate]})  # fmt: skip
            self._snapshots = [self._snapshots[0], ahead]
        return out
