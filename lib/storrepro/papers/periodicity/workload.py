"""The scheduling study's input: a surrogate of the paper's private Alibaba block-storage traces,
or a real block trace converted to per-segment traffic (:func:`from_trace`).

``segments`` segments are hashed onto ``ssds`` SSDs. Traffic is in bytes per 1-minute bin, read
and write separately, over ``history_days`` of history plus ``intervals`` evaluation intervals of
6 h. Segment volumes are lognormal (sigma 1.8: the top 20 % carry about 80 % of the traffic),
scaled so that the mean per-SSD traffic is 2.5 GB/s / 96 SSDs ≈ 26 MB/s, as in the paper.

* ``periodic_share`` (30 %) of the segments run burst trains (backups, analytics): a period from
  {30 min, 1 h, 2 h, 6 h, 12 h, 24 h}, bursts of 5–20 min at 5–50× the segment's mean, in the
  read series, the write series or both. Half start at a common phase (top-of-the-hour cron
  jobs), so hash placement stacks their peaks on some SSDs. ``switch_share`` (10 %) of them
  switch from 1 h to 2 h halfway through the history.
* The rest carry AR(1) noise with Poisson random bursts and a slow drift.
* Capture artefacts: single-bin dropouts to 0 with probability 0.002.

Every part of a segment's traffic is proportional to its volume, so :func:`volume_skew` can
regenerate the same workload with the volumes' sigma changed (and the total traffic kept) by
rescaling each segment's rows: how the notebook's primary load regime makes SSDs differ as the
paper's do (:func:`storrepro.papers.periodicity.experiment.calibration.fit_sigma`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import numba
import numpy as np
import pandas as pd

from storrepro.suite.traces import samples
from storrepro.suite.traces.convert import Conversion, rate_series, save_table
from storrepro.suite.traces.needs import TraceNeeds

MINUTES_PER_INTERVAL = 360
#: The size of every request of the SSD model (64 sectors of 512 B): the bytes a trace's
#: request counts stand for.
REQUEST_BYTES = 64 * 512
PERIODS_MIN = (30, 60, 120, 360, 720, 1440)
SSD_MEAN_BYTES_PER_S = 2.5e9 / 96
#: The lognormal sigma of the generated segment volumes.
VOLUME_SIGMA = 1.8


@dataclass(frozen=True)
class SurrogateSpec:
    ssds: int = 16
    segments: int = 4000
    history_days: int = 3
    intervals: int = 4
    periodic_share: float = 0.3
    switch_share: float = 0.1
    aligned_share: float = 0.5
    dropout_prob: float = 0.002

    def __post_init__(self):
        checks = [
            ("ssds", self.ssds >= 2, ">= 2"),
            ("segments", self.segments >= self.ssds, ">= ssds"),
            ("history_days", self.history_days >= 1, ">= 1"),
            ("intervals", self.intervals >= 1, ">= 1"),
            ("periodic_share", 0 <= self.periodic_share <= 1, "in [0, 1]"),
            ("switch_share", 0 <= self.switch_share <= 1, "in [0, 1]"),
            ("aligned_share", 0 <= self.aligned_share <= 1, "in [0, 1]"),
            ("dropout_prob", 0 <= self.dropout_prob < 1, "in [0, 1)"),
        ]
        for name, ok, allowed in checks:
            if not ok:
                raise ValueError(f"{name} = {getattr(self, name)!r}: expected {allowed}")

    @property
    def history_minutes(self) -> int:
        return self.history_days * 1440

    @property
    def minutes(self) -> int:
        return self.history_minutes + self.intervals * MINUTES_PER_INTERVAL


@dataclass
class Workload:
    """Per-segment traffic (bytes per minute) and what was planted."""

    read: np.ndarray  # (segments, minutes), float32
    write: np.ndarray
    period_min: np.ndarray  # planted period in minutes (0 = aperiodic); the final one if switched
    switched: np.ndarray  # bool: period switched 60 -> 120 min mid-history
    placement: np.ndarray  # hash placement: segment -> SSD
    spec: SurrogateSpec
    #: each segment's volume is exp(VOLUME_SIGMA · z): its z (None for a real trace)
    volume_z: np.ndarray | None = None


def hash_placement(segments: int, ssds: int) -> np.ndarray:
    """Initial placement of every method: segment id mod number of SSDs."""
    return np.arange(segments) % ssds


def burst_trains(t, period, start, length, height) -> np.ndarray:
    """Burst trains, one row per segment: ``height`` while ``(t - start) mod period < length``."""
    on = (t[None, :] - start[:, None]) % period[:, None] < length[:, None]
    return on * height[:, None]


def generate(rng: np.random.Generator, spec: SurrogateSpec = SurrogateSpec()) -> Workload:
    n, m = spec.segments, spec.minutes
    t = np.arange(m)
    z = rng.standard_normal(n)
    volume = np.exp(0.0 + VOLUME_SIGMA * z)  # rng.lognormal(0, 1.8, n), its z kept
    periodic = rng.random(n) < spec.periodic_share
    idx = np.flatnonzero(periodic)
    k = idx.size
    period = rng.choice(PERIODS_MIN, size=k)
    length = rng.integers(5, 21, size=k)
    height = volume[idx] * rng.uniform(5, 50, size=k)
    aligned = rng.random(k) < spec.aligned_share
    start = np.where(aligned, 0, rng.integers(0, 1 << 30, size=k) % period)
    switched_p = rng.random(k) < spec.switch_share
    where = rng.integers(0, 3, size=k)  # 0 read, 1 write, 2 both
    period = np.where(switched_p, 120, period)  # 2 h after the middle of the history (1 h before)
    # the same operations in the same order as the plain expressions in the comments
    # (plain.generate_surrogate), on two reused (segments × minutes) arrays, the elementwise
    # steps fused into one pass each (ar1, scale_drift, add_trains, add_bursts, dropouts),
    # without a dozen fresh 200 MB temporaries per side (their page faults cost more than the
    # arithmetic)
    phase_base = 2 * np.pi * t[None, :] / m
    x, other = np.empty((n, m)), np.empty((n, m))
    out = []
    for side in (0, 1):  # read, write
        rng.standard_normal(out=x)
        ar1(x, 0.9, 0.3, 0.25)  # 0.25 · AR(1) of x = rng.normal(0, 0.3, (n, m)), in place
        np.add(phase_base, rng.uniform(0, 2 * np.pi, (n, 1)), out=other)
        np.sin(other, out=other)  # drift = 1 + 0.3 sin(2 pi t / m + phase): a slow drift
        share = rng.uniform(0.3, 0.7, size=(n, 1))
        np.exp(x, out=x)
        scale_drift(x, (volume[:, None] * share)[:, 0], other)  # x = volume · share · exp · drift
        mine = (where == side) | (where == 2)
        add_trains(x, idx[mine], period[mine], start[mine], length[mine], height[mine],
                   switched_p[mine], spec.history_minutes // 2)  # x[...] += burst_trains(...)
        rng.random(out=other)
        # 10-minute random bursts of 5 × the volume on aperiodic segments
        add_bursts(x, other, 1 / 600, periodic, 10, volume, 5.0)
        rng.random(out=other)
        out.append(dropouts(x, other, spec.dropout_prob))  # x[u < p] = 0, as float32
    del x, other
    read, write = out
    # scale to the paper's mean per-SSD traffic (2.5 GB/s over 96 SSDs)
    factor = SSD_MEAN_BYTES_PER_S * 60 * spec.ssds / float((read.sum() + write.sum()) / m)
    read *= factor
    write *= factor
    period_min = np.zeros(n, dtype=int)
    period_min[idx] = period
    switched = np.zeros(n, dtype=bool)
    switched[idx] = switched_p
    return Workload(read, write, period_min, switched, hash_placement(n, spec.ssds), spec, z)


def on_ssds(w: Workload, ssds: int) -> Workload:
    """The same segments on ``ssds`` SSDs at the same mean traffic per SSD (a generated
    workload's is the paper's): every series scaled by ``ssds / w.spec.ssds``, hash placement;
    new arrays, ``w`` unchanged."""
    scale = np.float32(ssds / w.spec.ssds)
    spec = replace(w.spec, ssds=ssds)
    return replace(w, read=w.read * scale, write=w.write * scale,
                   placement=hash_placement(w.spec.segments, ssds), spec=spec)


def segment_totals(w: Workload) -> np.ndarray:
    """Each segment's total traffic (bytes, read and write, over the whole span)."""
    return w.read.sum(axis=1, dtype=float) + w.write.sum(axis=1, dtype=float)


def volume_skew(w: Workload, sigma: float, totals: np.ndarray | None = None) -> np.ndarray:
    """Per-segment factors that turn the workload's volumes from ``exp(VOLUME_SIGMA · z)`` into
    ``exp(sigma · z)`` and keep its total traffic (``totals``: each segment's total traffic,
    computed when not given): multiplying each segment's rows by its factor is generating the
    workload with ``sigma``, since all of a segment's traffic is proportional to its volume."""
    if w.volume_z is None:
        raise ValueError("the workload has no segment volumes to skew (a real trace): expected "
                         "a surrogate from generate()")
    if not (np.isfinite(sigma) and sigma >= 0):
        raise ValueError(f"sigma = {sigma!r}: expected a finite number >= 0")
    if totals is None:
        totals = segment_totals(w)
    factor = np.exp((sigma - VOLUME_SIGMA) * w.volume_z)
    return factor * (totals.sum() / (factor * totals).sum())


@numba.njit(cache=True)
def ar1(noise: np.ndarray, phi: float, sd: float = 1.0,
        gain: float = 1.0) -> np.ndarray:  # pragma: no cover (numba)
    """AR(1) along each row of ``e = sd·noise + 0.0``, ``y_t = phi·y_{t-1} + e_t`` from
    ``y_0 = e_0``, times ``gain``, written over ``noise`` and returned: the arithmetic of
    ``gain * scipy.signal.lfilter([1], [1, -phi], sd * noise + 0.0, axis=1)`` (direct form II
    transposed), without its copies."""
    for row in range(noise.shape[0]):
        state = 0.0
        for t in range(noise.shape[1]):
            e = noise[row, t] * sd + 0.0
            y = state + e
            noise[row, t] = y * gain
            state = 0.0 * e - y * -phi
    return noise


@numba.njit(cache=True)
def add_trains(x, rows, period, start, length, height, switched,
               half):  # pragma: no cover (numba)
    """``x[rows] += burst_trains(t, period, start, length, height)`` (``on * height``: the
    height or 0.0 added), a switched row's period 60 minutes before ``half``."""
    for r in range(rows.size):
        for t in range(x.shape[1]):
            p = 60 if switched[r] and t < half else period[r]
            on = (t - start[r]) % p < length[r]
            x[rows[r], t] += height[r] if on else 0.0


@numba.njit(cache=True)
def scale_drift(x, scale, sine):  # pragma: no cover (numba)
    """``x *= scale[:, None]; x *= 0.3 * sine + 1`` in one pass (``sine`` left as it is)."""
    for row in range(x.shape[0]):
        for t in range(x.shape[1]):
            x[row, t] = x[row, t] * scale[row] * (sine[row, t] * 0.3 + 1)


@numba.njit(cache=True)
def add_bursts(x, uniform, rate, excluded, width, volume, height):  # pragma: no cover (numba)
    """``x += lfilter(np.ones(width), [1], hits, axis=1) * volume[:, None] * height`` with
    ``hits = (uniform < rate) & ~excluded[:, None]``: per row, how many of the last ``width``
    minutes (this one included) start a burst (exact: sums of ones), times the row's volume,
    times ``height``, added to ``x``."""
    for row in range(x.shape[0]):
        count = 0
        for t in range(x.shape[1]):
            count += uniform[row, t] < rate and not excluded[row]
            if t >= width:
                count -= uniform[row, t - width] < rate and not excluded[row]
            x[row, t] += float(count) * volume[row] * height


def dropouts(x: np.ndarray, uniform: np.ndarray, prob: float) -> np.ndarray:
    """``x[uniform < prob] = 0.0; x.astype(np.float32)``, without changing ``x``."""
    out = np.empty(x.shape, dtype=np.float32)  # by numpy: huge pages, far fewer page faults
    _dropouts(x, uniform, prob, out)
    return out


@numba.njit(cache=True)
def _dropouts(x, uniform, prob, out):  # pragma: no cover (numba)
    for row in range(x.shape[0]):
        for t in range(x.shape[1]):
            out[row, t] = 0.0 if uniform[row, t] < prob else x[row, t]


def bin_sum(x: np.ndarray, width: int) -> np.ndarray:
    """Sum consecutive ``width``-minute bins along the last axis (trailing minutes dropped), in
    ``x``'s dtype: ``x[..., :k * width].reshape(..., k, width).sum(axis=-1)``, bins of up to
    128 minutes by :func:`_bin_sums` (numpy's own association, without its per-bin loop)."""
    k = x.shape[-1] // width
    if width > 128 or x.ndim == 0 or x.dtype not in (np.float32, np.float64):
        return x[..., : k * width].reshape(*x.shape[:-1], k, width).sum(axis=-1)
    rows = x.reshape(-1, x.shape[-1]) if x.ndim != 2 else x
    out = np.empty((rows.shape[0], k), dtype=x.dtype)  # by numpy: huge pages (see dropouts)
    _bin_sums(rows, width, out)
    return out.reshape(*x.shape[:-1], k)


@numba.njit(cache=True)
def _bin_sums(x, width, out):  # pragma: no cover (numba)
    """Each row's sums of ``width`` (<= 128) consecutive values into ``out``, in ``x``'s dtype,
    as numpy's pairwise summation adds a block of at most 128: in order below 8 values, else
    eight accumulators, summed as a tree, then the remainder in order."""
    rows, k = x.shape[0], x.shape[1] // width
    for row in range(rows):
        for b in range(k):
            lo = b * width
            if width < 8:
                res = x[row, lo]
                for i in range(lo + 1, lo + width):
                    res += x[row, i]
            else:
                r0, r1, r2, r3 = x[row, lo], x[row, lo + 1], x[row, lo + 2], x[row, lo + 3]
                r4, r5, r6, r7 = x[row, lo + 4], x[row, lo + 5], x[row, lo + 6], x[row, lo + 7]
                i = 8
                while i < width - (width % 8):
                    j = lo + i
                    r0 += x[row, j]
                    r1 += x[row, j + 1]
                    r2 += x[row, j + 2]
                    r3 += x[row, j + 3]
                    r4 += x[row, j + 4]
                    r5 += x[row, j + 5]
                    r6 += x[row, j + 6]
                    r7 += x[row, j + 7]
                    i += 8
                res = ((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))
                while i < width:
                    res += x[row, lo + i]
                    i += 1
            out[row, b] = res


def precise_period_segments(path: str | Path, *, format: str | None = None,
                            bin_s: float = 300.0, progress: bool = True) -> pd.DataFrame:
    """Requests per ``bin_s`` interval of each segment (volume): the traffic series the
    periodicity-aware scheduler forecasts."""
    rates = rate_series(path, bin_s, format=format, progress=progress)
    return (rates * bin_s).round().astype(np.int64)


#: ``trace convert --to precise-period``
TRACE_CONVERSION = Conversion(
    name="precise-period",
    writes="each volume's requests per 5 minutes (.csv)",
    convert=precise_period_segments,
    save=save_table,
)


def from_trace(path: str | Path, spec: SurrogateSpec, format: str = "") -> Workload:
    """The study's input from a real block trace: each volume (or disk) is a segment, its
    requests per minute (:func:`precise_period_segments`) times
    :data:`REQUEST_BYTES` its traffic in bytes per minute, hashed onto ``spec.ssds`` SSDs.

    The converter counts requests without telling reads from writes, so all traffic is read
    traffic and the write side is empty (PreciseScheduling then forecasts the write side with
    the read side's period, adding zero). The first ``spec.history_days`` days are the history,
    then ``spec.intervals`` 6-h intervals; later minutes are not used. Nothing is planted, so
    ``period_min`` is 0 for every segment.
    """
    counts = precise_period_segments(path, format=format or None, bin_s=60.0, progress=False)
    minutes = spec.history_minutes + spec.intervals * MINUTES_PER_INTERVAL
    volumes, span = counts.shape[1], counts.shape[0]
    if volumes < spec.ssds:
        raise ValueError(
            f"trace {path}: {volumes} volumes, expected at least sched_ssds = {spec.ssds} (one "
            "segment per volume); choose fewer SSDs"
        )
    if span < minutes:
        raise ValueError(
            f"trace {path}: spans {span} minutes, expected at least {minutes} (sched_history_days"
            f" = {spec.history_days} days of history and sched_intervals = {spec.intervals} "
            "6-h intervals); choose fewer days or intervals"
        )
    read = counts.to_numpy()[:minutes].T.astype(np.float32) * np.float32(REQUEST_BYTES)
    spec = SurrogateSpec(ssds=spec.ssds, segments=volumes, history_days=spec.history_days,
                         intervals=spec.intervals)
    none = np.zeros(volumes, dtype=int)
    return Workload(read, np.zeros_like(read), none, none.astype(bool),
                    hash_placement(volumes, spec.ssds), spec)


def _sample(path: Path, rng: np.random.Generator) -> Path:
    """Six volumes over 31 h: a day of history and 6-h intervals."""
    return samples.write_msr(path, *samples.daily_arrivals(rng, 6, 31, 6), rng)


#: The small trace the tests run the notebook on.
TRACE_SAMPLE = samples.TraceSample(_sample)


def trace_needs(cfg) -> TraceNeeds:
    """A volume per SSD and the history plus the intervals, in minutes (as :func:`from_trace`
    reads them)."""
    minutes = cfg.sched_history_days * 1440 + cfg.sched_intervals * MINUTES_PER_INTERVAL
    return TraceNeeds(
        volumes=cfg.sched_ssds,
        volumes_why=f"sched_ssds = {cfg.sched_ssds}: each volume is one segment, at least one "
        "on each SSD",
        seconds=(minutes - 1) * 60.0,  # the last minute's bin starts at its first second
        seconds_why=f"sched_history_days = {cfg.sched_history_days} days of history and "
        f"sched_intervals = {cfg.sched_intervals} 6-h intervals",
    )
