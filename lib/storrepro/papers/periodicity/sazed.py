"""SAZED_maj and SAZED_opt: a port of sazedR 2.0.2 (Toller, Santos & Kern 2019).

Components on the detrended, z-scored series ``y`` and its 10-fold self-composed ACF ``a``:
S (mean of the periodogram and Welch peak periods), ze (mean zero distance), zed (mode of the
zero-distance density); the "a" variants apply them to ``a``. SAZED_maj votes (ties: the
largest; no majority: ``2 * sazed_maj(downsample(y))``); SAZED_opt keeps the candidate whose
period-long subsequences have the highest minimum pairwise correlation.

Faithful details kept from R: ``spec.pgram`` with its 10 % split-cosine taper and zero padding
to ``nextn(n)``; ``bspec::welchPSD`` with the Welch (parabola) window, segment length
``round(2n/pi)`` made even and 50 % overlap; ``acf.fft``'s zero padding to the next power of two
(none when n is one, so the ACF is then circular); ``sazed()`` calling S/ze/zed with their default
preprocessing, which z-scores the ACF ``a`` again. One approximation: R's ``density`` bins the
data onto a grid and convolves by FFT; here the Epanechnikov kernel estimate is computed exactly
on R's 512-point grid (same bandwidth ``bw.nrd0`` and ``cut = 3``), which can move the mode by
a fraction of a grid step.
"""

from __future__ import annotations

from functools import cache

import numba
import numpy as np

from storrepro.papers.periodicity._fast_steps import pairwise_sum
from storrepro.papers.periodicity._input import as_series, is_constant


def detrend(y: np.ndarray) -> np.ndarray:
    """``pracma::detrend``: remove the least-squares line."""
    t = np.arange(y.size, dtype=float)
    design = np.column_stack([np.ones_like(t), t])
    beta, *_ = np.linalg.lstsq(design, y, rcond=None)
    return y - design @ beta


def zscore(y: np.ndarray) -> np.ndarray:
    """R ``scale``: centre, divide by the sample sd (n-1); a zero sd gives NaN as in R."""
    sd = y.std(ddof=1) if y.size > 1 else np.nan
    with np.errstate(invalid="ignore", divide="ignore"):
        return (y - y.mean()) / sd


def preprocess(y: np.ndarray) -> np.ndarray:
    return zscore(detrend(y))


def acf_fft(x: np.ndarray) -> np.ndarray:
    """sazedR ``acf.fft``: lag-unbiased autocovariance via FFT, divided by its max |value|."""
    n = x.size
    x = x - x.mean()
    size = int(2 ** np.ceil(np.log2(n)))
    power = np.abs(np.fft.fft(x, size)) ** 2
    acov = np.real(np.fft.ifft(power) / _lag_counts(n, size))[:n]
    return acov / np.max(np.abs(acov))


@cache
def _lag_counts(n: int, size: int) -> np.ndarray:
    """``ifft(|fft(ones(n), size)|^2)``: the (circular) number of pairs at each lag; the same for
    every series of length ``n``, so computed once."""
    counts = np.fft.ifft(np.abs(np.fft.fft(np.ones(n), size)) ** 2)
    counts.flags.writeable = False
    return counts


def rep_acf(y: np.ndarray, reps: int = 10) -> np.ndarray:
    for _ in range(reps):
        y = acf_fft(y)
    return y


def nextn(n: int) -> int:
    """R ``nextn``: the smallest integer >= n whose prime factors are 2, 3 and 5."""
    m = n
    while True:
        k = m
        for f in (2, 3, 5):
            while k % f == 0:
                k //= f
        if k == 1:
            return m
        m += 1


def _spec_taper(x: np.ndarray, p: float = 0.1) -> np.ndarray:
    n = x.size
    m = int(np.floor(n * p))
    if m == 0:
        return x
    w = 0.5 * (1 - np.cos(np.pi * np.arange(1, 2 * m, 2) / (2 * m)))
    return x * np.concatenate([w, np.ones(n - 2 * m), w[::-1]])


def pgram_period(y: np.ndarray) -> float:
    """``round(1/f*)`` of R ``spec.pgram(y, detrend=FALSE)`` (taper 0.1, fast padding)."""
    n0 = y.size
    x = _spec_taper(y, 0.1)
    n = nextn(n0)
    spec = np.abs(np.fft.fft(x, n)) ** 2
    freq = np.arange(1, n // 2 + 1) / n
    best = freq[int(np.argmax(spec[1 : n // 2 + 1]))]
    return float(np.round(1 / best))


def welch_period(y: np.ndarray) -> float:
    """``round(1/f*)`` of ``bspec::welchPSD(y, round(2n/pi), windowfun=welchwindow)``."""
    n = y.size
    seg = round(n * 2 / np.pi) if n >= 6 else n
    if seg > n - 1:
        return np.nan  # welchPSD warns and returns NULL; which.max(NULL) fails in R
    length = int(np.floor(seg))
    if length % 2:
        length -= 1
    if length < 4:
        return np.nan
    i = np.arange(length)
    win = 1 - ((i - length / 2) / (length / 2)) ** 2
    win = win / np.sqrt(np.mean(win**2))
    k = n // (length // 2) - 1
    half = length // 2
    kappa = np.full(half + 1, 2.0)
    kappa[0] = 1.0
    kappa[-1] = 1.0  # even length: the Nyquist bin counts once
    power = np.zeros(half + 1)
    for s in range(k):
        segment = y[s * half : s * half + length] * win
        power += kappa * np.abs(np.fft.fft(segment)[: half + 1]) ** 2 / length
    best = int(np.argmax(power / k))
    freq = best / length
    with np.errstate(divide="ignore"):
        return float(np.round(1 / freq)) if freq > 0 else np.inf


def _round_half_even(v: float) -> float:
    return float(np.round(v))  # R's round() also rounds halves to even


def S(y: np.ndarray, prep: bool = True) -> float:
    if y.size < 6:
        return 1.0
    if prep:
        y = preprocess(y)
    return _round_half_even((pgram_period(y) + welch_period(y)) / 2)


def _zeros(y: np.ndarray) -> np.ndarray:
    signs = np.sign(y)
    total = signs[1:] + signs[:-1]
    raw = np.flatnonzero((total < 2) & (total > -2))
    with np.errstate(divide="ignore", invalid="ignore"):
        return raw + y[raw] / (-(y[raw + 1] - y[raw]))


def ze(y: np.ndarray, prep: bool = True) -> float:
    if prep:
        y = preprocess(y)
    zeros = _zeros(y)
    if zeros.size < 2:
        return 0.0
    result = np.round(np.mean(np.diff(zeros))) * 2
    return float(result) if np.isfinite(result) else 0.0


def _bw_nrd0(x: np.ndarray) -> float:
    hi = x.std(ddof=1)
    q75, q25 = np.percentile(x, [75, 25])
    lo = min(hi, (q75 - q25) / 1.34)
    if not lo > 0:
        lo = hi if hi > 0 else (abs(x[0]) if x[0] != 0 else 1.0)
    return 0.9 * lo * x.size ** (-0.2)


def zed(y: np.ndarray, prep: bool = True) -> float:
    if prep:
        y = preprocess(y)
    gaps = np.diff(_zeros(y))
    if gaps.size < 2 or not np.all(np.isfinite(gaps)):
        return 1.0
    bw = _bw_nrd0(gaps)
    grid = np.linspace(gaps.min() - 3 * bw, gaps.max() + 3 * bw, 512)
    a = bw * np.sqrt(5.0)  # R's epanechnikov kernel has standard deviation bw
    dens = epanechnikov_density(grid, np.ascontiguousarray(gaps, dtype=float), a)
    return float(np.round(grid[int(np.argmax(dens))] * 2))


@numba.njit(cache=True)
def epanechnikov_density(grid, data, a):  # pragma: no cover (numba)
    """Unnormalised Epanechnikov kernel density of ``data`` (half-width ``a``) at each grid
    point: numpy's ``np.where(np.abs(u) < 1, 0.75 * (1 - u**2), 0.0).sum(axis=1)`` with
    ``u = (grid[:, None] - data[None, :]) / a``, one grid row at a time."""
    out = np.empty(grid.size)
    terms = np.empty(data.size)
    for g in range(grid.size):
        for j in range(data.size):
            u = (grid[g] - data[j]) / a
            terms[j] = 0.75 * (1 - u * u) if abs(u) < 1 else 0.0
        out[g] = pairwise_sum(terms, 0, data.size)
    return out


def downsample(y: np.ndarray, width: int = 2) -> np.ndarray:
    """Means of non-overlapping pairs (``rollapply(width=2, by=2)``)."""
    m = y.size // width
    return y[: m * width].reshape(m, width).mean(axis=1)


def sazed_maj(y: np.ndarray, depth: int = 0) -> float:
    """sazedR ``sazed.maj(y, method="down")``: the value R returns (1 = no period)."""
    if y.size < 2 or y.var() == 0 or depth > 60:
        return 1.0
    # R's S(y), Sa(y), ze(y), aze(y), zed(y), azed(y): each preprocesses y, the "a" ones then
    # take its 10-fold ACF; both are computed once here
    p = preprocess(y)
    a = rep_acf(p)
    results = np.array(
        [S(p, False), S(a, False), ze(p, False), ze(a, False), zed(p, False), zed(a, False)]
    )
    results = results[np.isfinite(results)]
    if results.size == 0:
        return 1.0
    if results.size == 1 or np.all(results == results[0]):
        return float(results[0])
    unique = list(dict.fromkeys(results.tolist()))  # R unique keeps first-seen order
    unique = [u for u in unique if u != 2]
    counts = np.array([np.sum(results == u) for u in unique])
    if counts.size == 0 or counts.max() == 1:
        return 2 * sazed_maj(downsample(y, 2), depth + 1)
    if np.sum(counts == counts.max()) > 1:
        tied = [u for u, c in zip(unique, counts, strict=True) if c == counts.max()]
        return float(max(tied))
    return float(unique[int(np.argmax(counts))])


def sazed_opt(y: np.ndarray) -> float:
    """sazedR ``sazed(y)``: the value R returns (1 = no period)."""
    if y.size < 2 or y.var() == 0:
        return 1.0
    y = zscore(detrend(y))
    a = rep_acf(y, 10)
    # R's S(y), S(a), ze(y), ... preprocess their input again: once per input here
    py, pa = preprocess(y), preprocess(a)
    m = [S(py, False), S(pa, False), ze(py, False), ze(pa, False), zed(py, False), zed(pa, False)]
    m = [v for v in dict.fromkeys(m) if v > 2]
    if not m:
        return 1.0
    n = y.size
    certainties = []
    for d in m:
        k = int(np.floor(n / d)) if np.isfinite(d) else 0
        if d <= 2 or k <= 3:
            certainties.append(-1.0)
            continue
        d = int(d)
        subs = y[: k * d].reshape(k, d)
        with np.errstate(invalid="ignore", divide="ignore"):
            corr = np.corrcoef(subs)
        certainties.append(float(np.min(corr)) if np.all(np.isfinite(corr)) else np.nan)
    cert = np.array(certainties)
    if np.all(np.isnan(cert)):
        return 1.0
    return float(m[int(np.flatnonzero(cert == np.nanmax(cert))[0])])


def sazed(x, variant: str = "opt") -> int | None:
    """SAZED period of ``x`` (``variant`` "opt" or "maj"), ``None`` for R's "no period" (1)."""
    if variant not in ("opt", "maj"):
        raise ValueError(f"variant = {variant!r}: expected 'opt' or 'maj'")
    y = as_series(x)
    if y.size < 6 or is_constant(y):
        return None
    value = sazed_opt(y) if variant == "opt" else sazed_maj(y)
    if not np.isfinite(value) or value <= 1:
        return None
    return int(value)
