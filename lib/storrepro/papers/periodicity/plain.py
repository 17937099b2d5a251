"""The plain models of notebook 01: the straightforward numpy/pywt/scipy formulation each fast
path replaced, and the exact FIFO queue of one SSD.

``tests/test_periodicity_kernels.py`` checks every fast path equal to its twin here, bit for
bit: PrecisePeriod's numba steps (:mod:`._fast_steps`), the SSD latency kernel
(:mod:`.kernel`) and the in-place surrogate generator (:mod:`.workload`). The notebook runs the
fast paths; it uses this module only for :func:`knee_curve` (Fig. 2), the queue the fluid SSD
model of :mod:`.ssd_latency` is calibrated against.
"""

from __future__ import annotations

import numpy as np
import pywt
from scipy import signal

from storrepro.papers.periodicity import workload
from storrepro.papers.periodicity.precise_period import TUKEY_K, Outliers, acf_unbiased
from storrepro.papers.periodicity.ssd_latency import (
    S_OPS,
    SMOOTH,
    backlog,
    base_latency,
    sub_bin_arrivals,
    sub_bin_lengths,
)
from storrepro.sim.fifo import fifo_departures, poisson_arrivals


# ---------------------------------------------------------------- PrecisePeriod's steps 1–3
def tukey_flags(d: np.ndarray, k: float = TUKEY_K) -> np.ndarray:
    q1, q3 = np.percentile(d, [25, 75])
    iqr = q3 - q1
    return np.where(d < q1 - k * iqr, -1, np.where(d > q3 + k * iqr, 1, 0))


def preprocess(x, k=TUKEY_K, dip_max=3, dip_neighbours=2) -> tuple[np.ndarray, Outliers]:
    """Step 1 with numpy slices: dips (type A) to their neighbours' mean, bursts (type B) to a
    uniform rise and fall (see :func:`storrepro.papers.periodicity.precise_period.preprocess`)."""
    x = np.asarray(x, dtype=float)
    y = x.copy()
    if x.size < 4:
        return y, Outliers((), ())
    flags = tukey_flags(np.diff(x), k)
    used = np.zeros(flags.size, dtype=bool)
    dips = []
    for t in np.flatnonzero(flags == -1):
        for m in range(1, dip_max + 1):
            end = t + m
            if end >= flags.size or flags[end] == -1:
                break
            if flags[end] == 1:
                isolated = (t == 0 or flags[t - 1] == 0) and (
                    end + 1 >= flags.size or flags[end + 1] == 0
                )
                if isolated and not used[t] and not flags[t + 1 : end].any():
                    lo, hi = t + 1, end
                    left = x[max(0, lo - dip_neighbours) : lo]
                    right = x[hi + 1 : hi + 1 + dip_neighbours]
                    y[lo : hi + 1] = np.concatenate([left, right]).mean()
                    used[t], used[end] = True, True
                    dips.append((int(lo), int(hi)))
                break
    rest = np.flatnonzero((flags != 0) & ~used)
    bursts = []
    if rest.size:
        for run in np.split(rest, np.flatnonzero(np.diff(rest) > 2) + 1):
            first, last = int(run[0]), int(run[-1])
            s, e = first + 1, last
            if s > e:
                continue
            seg = y[s : e + 1]
            p = s + int(np.argmin(seg) if flags[first] < 0 else np.argmax(seg))
            y[first : p + 1] = np.linspace(y[first], y[p], p - first + 1)
            y[p : last + 2] = np.linspace(y[p], y[last + 1], last + 2 - p)
            bursts.append((s, e))
    return y, Outliers(tuple(dips), tuple(bursts))


def lowpass(x: np.ndarray, level: int, wavelet: str) -> np.ndarray:
    """Step 2 with pywt: ``x`` symmetric-padded to a multiple of 2^level, rebuilt from its
    level-``level`` approximation (details zeroed), periodization boundary."""
    if level == 0:
        return x
    pad = (-x.size) % 2**level
    padded = np.pad(x, (0, pad), mode="symmetric") if pad else x
    coeffs = pywt.wavedec(padded, wavelet, mode="periodization", level=level)
    coeffs = [coeffs[0]] + [np.zeros_like(c) for c in coeffs[1:]]
    return pywt.waverec(coeffs, wavelet, mode="periodization")[: x.size]


def lagged_pearson(x: np.ndarray, max_lag: int) -> np.ndarray:
    """Step 3's ACF with numpy: the Pearson correlation of ``x[:-k]`` with ``x[k:]``."""
    n = x.size
    lags = np.arange(max_lag + 1)
    c = np.concatenate([[0.0], np.cumsum(x)])
    c2 = np.concatenate([[0.0], np.cumsum(x * x)])
    size = 1 << int(np.ceil(np.log2(2 * n)))
    f = np.fft.rfft(x, size)
    cross = np.fft.irfft(f.real**2 + f.imag**2, size)[: max_lag + 1]
    m = n - lags
    s_head, s_tail = c[m], c[n] - c[lags]
    q_head, q_tail = c2[m], c2[n] - c2[lags]
    cov = cross - s_head * s_tail / m
    var_head = np.maximum(q_head - s_head**2 / m, 0.0)
    var_tail = np.maximum(q_tail - s_tail**2 / m, 0.0)
    with np.errstate(invalid="ignore", divide="ignore"):
        r = cov / np.sqrt(var_head * var_tail)
    return np.nan_to_num(r, nan=0.0)


def acf_peak(x: np.ndarray, kmax: int, acf: str) -> int | None:
    """The lag of the highest local ACF maximum above 0 among lags 2..kmax (None: none)."""
    if kmax < 3 or x.size < 4 or np.ptp(x) == 0:
        return None
    r = lagged_pearson(x, kmax + 1) if acf == "pearson" else acf_unbiased(x, kmax + 1)
    k = np.arange(2, kmax + 1)
    peaks = k[(r[k] > r[k - 1]) & (r[k] >= r[k + 1]) & (r[k] > 0)]
    return None if peaks.size == 0 else int(peaks[np.argmax(r[peaks])])


def aggregate(periods: list[int], how: str = "rules") -> list[int]:
    """The candidate queue from the per-level periods, with numpy's unique/median/percentile."""
    if not periods:
        return []
    values = np.array(sorted(periods))
    if how == "all":
        return sorted(set(values.tolist()))
    uniq, counts = np.unique(values, return_counts=True)
    if counts.max() >= 2:
        return uniq[counts == counts.max()].tolist()
    if values.size >= 2:
        ratios = values[1:] / values[:-1]
        i = int(np.argmax(ratios))
        if ratios[i] >= 1.5:
            low, high = values[: i + 1], values[i + 1 :]
            return sorted({int(np.round(np.median(low))), int(np.round(np.median(high)))})
    q1, q3 = np.percentile(values, [25, 75])
    iqr = q3 - q1
    kept = values[(values >= q1 - 1.5 * iqr) & (values <= q3 + 1.5 * iqr)]
    return [int(np.round(kept.mean()))]


# ---------------------------------------------------------------- the SSD of the scheduling study
def latency_stats(x, rng, quantile=0.9999, service=S_OPS, base=None, arrival_seconds=SMOOTH):
    """Mean and ``quantile`` latency (s) per SSD of ``x`` (ssds × minutes, bytes per minute):
    40 bisection steps on the arrival-weighted mixture CDF, summed sub-bin by sub-bin."""
    base = base_latency(arrival_seconds) if base is None else base
    counts, rate = sub_bin_arrivals(x, rng, arrival_seconds)
    q = backlog(counts, service, sub_bin_lengths(x.shape[1], arrival_seconds))
    wait = np.concatenate([np.zeros((x.shape[0], 1)), q[:, :-1]], axis=1) / service
    mu = np.maximum(service - rate, 0.05 * service)
    total = counts.sum(axis=1)
    mean = base + (counts * (wait + 1 / mu)).sum(axis=1) / np.maximum(total, 1)
    lo, hi = np.zeros(x.shape[0]), wait.max(axis=1) + 50 / mu.min(axis=1)
    for _ in range(40):
        mid = (lo + hi) / 2
        cdf = (counts * (1 - np.exp(-mu * np.maximum(mid[:, None] - wait, 0)))).sum(axis=1)
        below = cdf < quantile * np.maximum(total, 1)
        lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
    return mean, base + hi


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
    out = []
    for rate in rates:
        if not 0 < rate < service:
            raise ValueError(f"rate = {rate!r}: expected 0 < rate < service ({service:g})")
        a = poisson_arrivals(rng, rate, requests)
        d = fifo_departures(a, rng.exponential(1 / service, requests))
        out.append(float(np.quantile(d - a, quantile)))
    return np.array(out)


# ---------------------------------------------------------------- the surrogate workload
def generate_surrogate(rng: np.random.Generator, spec: workload.SurrogateSpec):
    """The surrogate's read and write traffic written with plain expressions and scipy's
    ``lfilter`` (:func:`storrepro.papers.periodicity.workload.generate` computes them in place)."""
    n, m = spec.segments, spec.minutes
    t = np.arange(m)
    volume = rng.lognormal(0.0, 1.8, size=n)
    periodic = rng.random(n) < spec.periodic_share
    idx = np.flatnonzero(periodic)
    k = idx.size
    period = rng.choice(workload.PERIODS_MIN, size=k)
    length = rng.integers(5, 21, size=k)
    height = volume[idx] * rng.uniform(5, 50, size=k)
    aligned = rng.random(k) < spec.aligned_share
    start = np.where(aligned, 0, rng.integers(0, 1 << 30, size=k) % period)
    switched_p = rng.random(k) < spec.switch_share
    where = rng.integers(0, 3, size=k)
    trains = workload.burst_trains(t, np.where(switched_p, 120, period), start, length, height)
    if switched_p.any():
        half = spec.history_minutes // 2
        early = workload.burst_trains(t[:half], np.full(k, 60), start, length, height)
        trains[switched_p, :half] = early[switched_p]
    out = []
    for side in (0, 1):
        noise = rng.normal(0, 0.3, size=(n, m))
        ar = signal.lfilter([1.0], [1.0, -0.9], noise, axis=1)
        drift = 1 + 0.3 * np.sin(2 * np.pi * t[None, :] / m + rng.uniform(0, 2 * np.pi, (n, 1)))
        share = rng.uniform(0.3, 0.7, size=(n, 1))
        x = volume[:, None] * share * np.exp(0.25 * ar) * drift
        mine = (where == side) | (where == 2)
        x[idx[mine]] += trains[mine]
        hits = (rng.random((n, m)) < 1 / 600) & ~periodic[:, None]
        x += signal.lfilter(np.ones(10), [1.0], hits, axis=1) * volume[:, None] * 5
        x[rng.random((n, m)) < spec.dropout_prob] = 0.0
        out.append(x.astype(np.float32))
    read, write = out
    factor = workload.SSD_MEAN_BYTES_PER_S * 60 * spec.ssds / float((read.sum() + write.sum()) / m)
    return read * factor, write * factor
