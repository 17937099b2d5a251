"""Synthetic tenants: the SNIA Microsoft traces the paper used are not available here.

- **G1** (default): a low-variability Gamma renewal base plus clusters of micro-bursts, with
  separate knobs for intensity (micro-burst rate), probability (cluster rate) and density
  (micro-bursts per cluster and the gaps between them). Cluster rate and size vary per 5-min
  segment (lognormal factor, ±1), so a trace's burstiest segment is burstier than the trace.
- **G2** (control): a two-state Markov-modulated process with exponential sojourns and no
  clustering; Gamma renewal arrivals within the states (no within-ms Poisson noise).
- **Table 1 replicas T1–T3**: equal total burst time and intensity, different density — bursts
  are blocks of consecutive 1 ms burst periods whose longest block is 15, 11 and 27 ms.

Every trace is a sorted array of arrival times in seconds with mean rate ``mean_rate`` over its
duration (the base rate is set so the total matches, the paper's "rescale to 2000 IOPS").

A real block trace replaces the pool with its own volumes or disks (:func:`trace_tenants`): each
one's inter-arrival times are stretched so its mean is 2000 IOPS, as the paper rescaled its
traces, its requests are counted per 1 ms, and it is cut into whole segments. The replay needs
arrival times, so each ms's requests are placed uniformly at random inside it
(:func:`uniform_in_periods`): the trace's own sub-ms timing is not kept.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numba
import numpy as np
from scipy.stats import qmc

from storrepro.suite.traces import samples
from storrepro.suite.traces.convert import Conversion, binned_counts, requests_only, write_npz
from storrepro.suite.traces.needs import TraceNeeds
from storrepro.suite.traces.reader import TraceFormatError
from storrepro.suite.traces.summary import trace_info

MEAN_RATE = 2000.0  # IOPS, every trace of the paper's motivation study
SEGMENT_S = 300.0  # the paper's 5-min segments
PERIOD_S = 1e-3  # a real trace's counts are per 1 ms
SEGMENT_SIGMA = 0.5  # lognormal spread of the cluster rate between segments
G2_KAPPA = 3.0  # Gamma shape of G2's arrivals within its states (G1's base: κ in [1.5, 4])


@dataclass(frozen=True)
class G1:
    """Clustered ON/OFF bursts over a Gamma renewal base (all rates relative to the mean)."""

    kappa: float  # Gamma shape of the base inter-arrival times (>1: less Poisson noise)
    clusters_per_s: float  # probability knob ν
    bursts_per_cluster: float  # density knob: mean micro-bursts per cluster (1/q)
    max_len_ms: int  # micro-burst length ~ U{1..max_len_ms}
    intensity_lo: float  # micro-burst rate / mean rate ~ U[lo, hi]
    intensity_hi: float
    gap_ms: float  # density knob: mean gap between micro-bursts in a cluster (>= 1 ms)


@dataclass(frozen=True)
class G2:
    """Two-state MMPP: base state and burst state at ``intensity`` x mean, exponential sojourns."""

    intensity: float
    burst_share: float  # long-run fraction of time in the burst state
    burst_ms: float  # mean sojourn in the burst state


def _check_duration(duration: float, segment_s: float) -> int:
    if not duration > 0 or not segment_s > 0:
        raise ValueError(
            f"duration = {duration!r}, segment_s = {segment_s!r}: expected > 0 seconds")
    segments = duration / segment_s
    if abs(segments - round(segments)) > 1e-9:
        raise ValueError(f"duration = {duration!r}: expected a whole number of {segment_s:g} s")
    return int(round(segments))


def merge_sorted(base: np.ndarray, extra: np.ndarray) -> np.ndarray:
    """Merge two sorted arrays in O(n) (no full sort of the large base)."""
    slots = np.searchsorted(base, extra, side="right") + np.arange(extra.size)
    out = np.empty(base.size + extra.size)
    taken = np.zeros(out.size, dtype=bool)
    taken[slots] = True
    out[slots] = extra
    out[~taken] = base
    return out


def gamma_renewal(rng: np.random.Generator, kappa: float, count: float, duration: float):
    """A Gamma(kappa) renewal process with ``count`` expected arrivals in ``[0, duration)``."""
    mean_gap = duration / count
    draws = int(count + 6 * np.sqrt(count) + 10)
    times = rng.uniform(0, mean_gap) + np.cumsum(rng.gamma(kappa, mean_gap / kappa, draws))
    while times[-1] < duration:  # rare: top up
        more = times[-1] + np.cumsum(rng.gamma(kappa, mean_gap / kappa, draws // 10 + 10))
        times = np.concatenate((times, more))
    return times[times < duration]


def generate_g1(
    params: G1,
    duration: float,
    rng: np.random.Generator,
    mean_rate: float = MEAN_RATE,
    segment_s: float = SEGMENT_S,
) -> np.ndarray:
    """A G1 trace of ``duration`` seconds (a whole number of segments)."""
    n_seg = _check_duration(duration, segment_s)
    per_ms = mean_rate * 1e-3
    starts, lengths, rates = [], [], []
    for s in range(n_seg):
        nu = params.clusters_per_s * np.exp(SEGMENT_SIGMA * rng.standard_normal())
        shift = int(rng.integers(-1, 2))
        n_clusters = rng.poisson(nu * segment_s)
        t0 = np.sort(rng.uniform(s * segment_s, (s + 1) * segment_s, n_clusters)) * 1e3  # ms
        size = np.maximum(1, rng.geometric(1 / params.bursts_per_cluster, n_clusters) + shift)
        n_bursts = int(size.sum())
        length = rng.integers(1, params.max_len_ms + 1, n_bursts)
        gap = rng.geometric(1 / params.gap_ms, n_bursts)
        cluster = np.repeat(np.arange(n_clusters), size)
        step = length + gap
        first = np.cumsum(size) - size
        offset = np.cumsum(step) - step
        offset = offset - np.repeat(offset[first], size)  # restart at every cluster
        starts.append(t0[cluster] + offset)
        lengths.append(length)
        rates.append(rng.uniform(params.intensity_lo, params.intensity_hi, n_bursts))
    start_ms, length, intensity = map(np.concatenate, (starts, lengths, rates))
    extra_counts = rng.poisson((intensity - 1) * per_ms * length)
    owner = np.repeat(np.arange(start_ms.size), extra_counts)
    extra = (start_ms[owner] + rng.random(owner.size) * length[owner]) * 1e-3
    extra = np.sort(extra[extra < duration])
    base = gamma_renewal(rng, params.kappa, mean_rate * duration - extra.size, duration)
    return merge_sorted(base, extra)


def generate_g2(
    params: G2, duration: float, rng: np.random.Generator, mean_rate: float = MEAN_RATE
) -> np.ndarray:
    """A G2 trace: a two-state Markov-modulated process with exponential sojourns. Within the
    states arrivals are a Gamma(``G2_KAPPA``) renewal process in the modulated time (the
    expected count ``Λ(t)``, mapped back to real time), not Poisson counts per ms: Poisson at
    2 per ms alone puts ~5 % of periods above 2× the mean, the noise G1's κ > 1 avoids too."""
    periods = int(round(duration * 1e3))
    per_ms = mean_rate * 1e-3
    base_ms = params.burst_ms * (1 - params.burst_share) / params.burst_share
    state = burst_states(rng, periods, params.burst_ms, base_ms)
    share = state.mean()
    base_rate = (per_ms - share * params.intensity * per_ms) / (1 - share)
    rate = np.where(state, params.intensity * per_ms, max(base_rate, 0.0))  # per ms
    expected = np.concatenate(([0.0], np.cumsum(rate)))  # Λ at each ms boundary
    points = gamma_renewal(rng, G2_KAPPA, expected[-1], expected[-1])  # unit mean gaps
    return np.interp(points, expected, np.arange(periods + 1)) * 1e-3


def burst_states(rng: np.random.Generator, periods: int, burst_ms: float, base_ms: float,
                 guess: int | None = None) -> np.ndarray:  # fmt: skip
    """G2's state per ms: True in the burst state. The base state first, for
    ``int(Exp(base_ms))`` ms, then alternating sojourns of ``max(1, round(Exp(mean)))`` ms,
    the burst state's first, until ``periods`` are covered: one exponential draw per sojourn,
    the draws a loop of single draws takes. They are drawn at once (``guess`` of them, by
    default a quarter more than expected, twice as many while too few), then again from the
    same state, exactly as many as the sojourns use, so that ``rng`` moves on as far as the
    loop moved it."""
    start = rng.bit_generator.state
    needed = int(2.5 * periods / (burst_ms + base_ms)) + 64 if guess is None else max(guess, 2)
    while True:
        rng.bit_generator.state = start
        draws = rng.standard_exponential(needed)
        first = int(base_ms * draws[0])
        means = np.where(np.arange(needed - 1) % 2 == 0, burst_ms, base_ms)
        spans = np.maximum(1, np.rint(means * draws[1:]).astype(np.int64))
        ends = first + np.cumsum(spans)
        if first >= periods or ends[-1] >= periods:
            break
        needed *= 2
    used = 0 if first >= periods else int(np.searchsorted(ends, periods)) + 1  # sojourns
    rng.bit_generator.state = start
    rng.standard_exponential(1 + used)  # as far as the loop's draws
    edges = np.minimum(np.append(first, ends[:used]), periods)
    marks = np.zeros(periods + 1, np.int64)
    np.add.at(marks, edges[:-1][::2], 1)  # a burst from each odd sojourn's start ...
    np.add.at(marks, edges[1:][::2], -1)  # ... to its end
    return np.cumsum(marks[:-1]) > 0


def uniform_in_periods(counts, rng: np.random.Generator, delta: float) -> np.ndarray:
    """Sorted arrival times (s) with ``counts[t]`` requests uniform in period ``t`` of ``delta``
    seconds (``np.sort(t + U) * delta``; sorted within each period, where only order can
    change)."""
    periods = np.repeat(np.arange(len(counts)), counts)
    return _sort_nearly_sorted(periods + rng.random(periods.size)) * delta


@numba.njit(cache=True)
def _sort_nearly_sorted(values):
    """Insertion sort in place: O(n + inversions), for values out of order only locally."""
    for i in range(1, values.size):
        v = values[i]
        j = i - 1
        while j >= 0 and values[j] > v:
            values[j + 1] = values[j]
            j -= 1
        values[j + 1] = v
    return values


#: Table 1 of the paper: (total burst time ms, mean intensity, max burst duration ms)
TABLE1 = {"T1": (2812, 2.7, 15), "T2": (2884, 2.8, 11), "T3": (2697, 2.6, 27)}


def table1_trace(
    longest_ms: int,
    rng: np.random.Generator,
    burst_ms: int = 2800,
    intensity: float = 2.7,
    duration: float = SEGMENT_S,
    mean_rate: float = MEAN_RATE,
) -> np.ndarray:
    """A T1–T3 replica: blocks of ``2..longest_ms`` consecutive burst periods (cycling, so the
    longest is present) totalling ``burst_ms``, at ``intensity`` x the mean rate with evenly
    spaced extra requests, placed at random over a Gamma(4) base."""
    cycle = np.arange(2, longest_ms + 1)
    lengths = np.resize(cycle, int(np.ceil(burst_ms / cycle.mean())) + cycle.size)
    lengths = lengths[np.cumsum(lengths) <= burst_ms]
    lengths = rng.permutation(np.append(lengths, burst_ms - lengths.sum()))
    lengths = lengths[lengths > 0]
    slot = duration * 1e3 / lengths.size  # one block per slot: blocks never touch
    starts = np.floor(np.arange(lengths.size) * slot + rng.uniform(0, slot - lengths - 1))
    extra_per_ms = (intensity - 1) * mean_rate * 1e-3
    n_extra = np.round(extra_per_ms * lengths).astype(np.int64)
    owner = np.repeat(np.arange(lengths.size), n_extra)
    rank = np.arange(owner.size) - np.repeat(np.cumsum(n_extra) - n_extra, n_extra)
    extra = (starts[owner] + (rank + 0.5) / n_extra[owner] * lengths[owner]) * 1e-3
    base = gamma_renewal(rng, 4.0, mean_rate * duration - extra.size, duration)
    return merge_sorted(base, np.sort(extra))


# --- the tenant pool ----------------------------------------------------------------------------

#: Latin-hypercube ranges of the G1 knobs; kappa starts at 1.5, not 1 (deviation): a Poisson
#: base at 2 req/ms already puts 5 % of periods above 2x the mean. Calibrated on the burst
#: statistics (in 26993ec, after the first pool's results, latencies included, were committed
#: in 3831bc6) so that >= 90 % of segments fall inside the target ranges (claims.POOL_TARGETS):
#: the earlier ranges (cluster rate 0.1–1.5 per s, 1–5 micro-bursts of 1–6 ms per cluster at
#: 2–8x) merged micro-bursts into continuous bursts of a median 69 ms, and only 27 % of segments
#: were inside every range.
G1_RANGES = {
    "kappa": (1.5, 4.0),
    "clusters_per_s": (0.35, 1.5),
    "bursts_per_cluster": (1.0, 2.0),
    "max_len_ms": (2, 4),
    "intensity_lo": (2.0, 3.5),
    "intensity_span": (0.0, 1.5),
    "gap_ms": (1.0, 6.0),
}
#: G2 ranges, calibrated the same way (intensity up to 6x and sojourns up to 4 ms gave longest
#: continuous bursts beyond 40 ms in half the segments).
G2_RANGES = {"intensity": (2.5, 4.5), "burst_share": (0.003, 0.02), "burst_ms": (1.0, 2.0)}


def _scale(unit: np.ndarray, ranges: dict) -> list[dict]:
    low = np.array([r[0] for r in ranges.values()], dtype=float)
    high = np.array([r[1] for r in ranges.values()], dtype=float)
    values = low + unit * (high - low)
    return [dict(zip(ranges, row, strict=True)) for row in values]


def tenant_pool(count: int, g2_share: float, rng: np.random.Generator) -> list[G1 | G2]:
    """``count`` generator settings: G1 on a Latin hypercube, ``g2_share`` of them G2."""
    if count < 1 or not 0 <= g2_share <= 1:
        raise ValueError(f"count = {count!r}, g2_share = {g2_share!r}: expected >= 1 and [0, 1]")
    n_g2 = int(round(count * g2_share))
    n_g1 = count - n_g2
    pool: list[G1 | G2] = []
    if n_g1:
        for v in _scale(qmc.LatinHypercube(d=len(G1_RANGES), seed=rng).random(n_g1), G1_RANGES):
            lo = round(float(v["intensity_lo"]), 3)
            pool.append(
                G1(
                    kappa=round(float(v["kappa"]), 3),
                    clusters_per_s=round(float(v["clusters_per_s"]), 3),
                    bursts_per_cluster=round(float(v["bursts_per_cluster"]), 3),
                    max_len_ms=int(round(v["max_len_ms"])),
                    intensity_lo=lo,
                    intensity_hi=round(float(min(10.0, lo + v["intensity_span"])), 3),
                    gap_ms=round(float(v["gap_ms"]), 3),
                )
            )
    if n_g2:
        for v in _scale(qmc.LatinHypercube(d=len(G2_RANGES), seed=rng).random(n_g2), G2_RANGES):
            pool.append(G2(**{k: round(float(x), 4) for k, x in v.items()}))
    return pool


@dataclass(frozen=True, eq=False)
class TraceTenant:
    """A real trace's volume or disk: its requests per 1 ms, rescaled to the mean rate, over
    whole segments."""

    name: str
    counts: np.ndarray

    @property
    def duration(self) -> float:
        return self.counts.size * PERIOD_S


def accgecko_tenants(
    path: str | Path,
    *,
    format: str | None = None,
    volumes: list[str] | None = None,
    mean_iops: float = MEAN_RATE,
    segment_s: float = SEGMENT_S,
    bin_s: float = PERIOD_S,
    progress: bool = True,
) -> dict[str, np.ndarray]:
    """``{tenant: (segments x bins) requests per ms}``: each tenant's trace rescaled to
    ``mean_iops`` and cut into whole ``segment_s`` segments (a partial last one is dropped)."""
    info = trace_info(path, format, progress=progress)
    requests_only(path, info.format, "AccGecko's per-ms counts")
    if info.duration_s <= 0:
        raise TraceFormatError(f"{path}: the trace spans no time")
    chosen = volumes if volumes is not None else sorted(info.volumes)
    scale = {v: (info.volumes.get(v, 0) / info.duration_s) / mean_iops for v in chosen}
    _, counts = binned_counts(
        path, bin_s, format=info.format, volumes=chosen, time_scale=scale, progress=progress
    )
    per_segment = int(round(segment_s / bin_s))
    tenants = {}
    for volume, series in counts.items():
        whole = series.size // per_segment
        if whole:
            tenants[volume] = series[: whole * per_segment].reshape(whole, per_segment)
    if not tenants:
        raise TraceFormatError(
            f"{path}: no tenant spans a whole {segment_s:g} s segment after rescaling to "
            f"{mean_iops:g} IOPS"
        )
    return tenants


def save_tenants(tenants: dict[str, np.ndarray], path: Path) -> str:
    """:func:`accgecko_tenants`'s tenants as one ``.npz``, an array per tenant."""
    write_npz(tenants, path)
    return f"{len(tenants)} tenants, {sum(t.shape[0] for t in tenants.values())} segments"


#: ``trace convert --to accgecko``
TRACE_CONVERSION = Conversion(
    name="accgecko",
    writes="per-tenant requests per ms in 5-min segments, rescaled to 2000 IOPS (.npz)",
    convert=accgecko_tenants,
    save=save_tenants,
)


def trace_tenants(
    path: str, format: str, segment_s: float, limit: int, segments: int
) -> list[TraceTenant]:
    """The first ``limit`` volumes of a block trace (by name), each its first ``segments`` whole
    segments of ``segment_s`` seconds after rescaling to 2000 IOPS (``format`` '' detects it)."""
    found = accgecko_tenants(
        path, format=format or None, mean_iops=MEAN_RATE, segment_s=segment_s, progress=False
    )
    return [
        TraceTenant(str(name), found[name][:segments].reshape(-1).astype(np.int64))
        for name in sorted(found)[:limit]
    ]


def generate(
    params: G1 | G2 | TraceTenant,
    duration: float,
    rng: np.random.Generator,
    segment_s: float = SEGMENT_S,
) -> np.ndarray:
    """A trace of ``duration`` seconds from either generator (G1 varies per ``segment_s``), or the
    first ``duration`` seconds of a real trace's tenant."""
    if isinstance(params, TraceTenant):
        periods = int(round(duration / PERIOD_S))
        if periods > params.counts.size:
            raise ValueError(
                f"duration = {duration!r} s: tenant {params.name!r} of the trace spans only "
                f"{params.duration:g} s"
            )
        return uniform_in_periods(params.counts[:periods], rng, PERIOD_S)
    if isinstance(params, G1):
        return generate_g1(params, duration, rng, segment_s=segment_s)
    if isinstance(params, G2):
        return generate_g2(params, duration, rng)
    raise ValueError(f"params = {params!r}: expected a G1 or G2 setting or a TraceTenant")


def _sample(path: Path, rng: np.random.Generator) -> Path:
    """Two tenants, each two 10-s segments once rescaled to 2000 IOPS."""
    return samples.write_msr(path, *samples.bursty_arrivals(rng, 2, 45, 1000), rng)


#: The small trace the tests run the notebook on, and the segments that fit it.
TRACE_SAMPLE = samples.TraceSample(_sample, ("segment_seconds=10", "segments=2"))


def trace_needs(cfg) -> TraceNeeds:
    """Requests timed to 1 ms or finer, and two volumes (the claims' intervals are over the
    tenants) each with a whole ``segment_seconds`` segment once rescaled to 2000 IOPS
    (:func:`accgecko_tenants`)."""
    return TraceNeeds(
        requests=True,
        fine_time="per-ms counts",
        volumes=2,
        # a segment's worth at 2000 IOPS; the conversion's floating-point binning may leave a
        # tenant of one or two fewer short of its last 1 ms bin
        volume_requests=math.ceil(MEAN_RATE * cfg.segment_seconds),
        volumes_why=f"each volume is a tenant, and the claims' intervals are over at least 2; "
        f"segment_seconds = {cfg.segment_seconds:g}: each tenant rescaled to {MEAN_RATE:g} IOPS "
        "must span a whole segment",
    )
