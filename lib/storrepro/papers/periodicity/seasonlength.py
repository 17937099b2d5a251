"""seasonLength (Toller & Kern 2017), ported from the Octave original ``seasonLength.m``.

1. Trend degree 2 if ``log|mse1 - mse2| > e^2`` (polynomial fits of degree 1 and 2), else 1.
2. For 2 < n < 10000, linear interpolation onto ``1:0.01:n`` (100x expansion).
3. Causal Butterworth low-pass ``butter(2, 0.001)`` applied once (``filter``).
4. ACF of the detrended signal; ``alpha`` = lags where it is within 0.001 of its own linear
   trend; ``delta`` = sorted gaps > 1 between them. Fewer than 6 gaps: redo without the filter.
5. ``findThreshold(delta, 0.05)`` picks the longest run of steady gap quotients.
6. ``2 * mean(quantile(delta, [.1 .25 .5 .75 .9]))`` (Hyndman–Fan type 8, Octave's
   ``quantile(..., 8)``), scaled back by the 0.01 step and rounded; 0 (no period) when it is
   <= 1 or >= n/2 (in original samples).
The R port in the reference repository fits degree 1 twice (a bug); the Octave version is
followed. ``acorf`` is the biased sample autocorrelation at lags 1..len-1, computed by FFT.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from scipy import signal

from storrepro.papers.periodicity._input import as_series, is_constant

STEP = 0.01
LIMIT = 0.05
BUTTER = signal.butter(2, 0.001)  # Octave's butter(2, 0.001): the low-pass of step 3


def _poly_detrend(y: np.ndarray, degree: int) -> np.ndarray:
    """Residuals of the least-squares polynomial of ``degree`` over a scaled abscissa."""
    t, lhs, scale, rcond = _design(y.size, degree)
    coef = np.linalg.lstsq(lhs, y, rcond)[0] / scale  # np.polyfit(t, y, degree), step by step
    fit = np.zeros_like(t)
    for c in coef:  # np.polyval's Horner steps, in place
        fit *= t
        fit += c
    return np.subtract(y, fit, out=fit)


@lru_cache(maxsize=8)
def _design(n: int, degree: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, float]:
    """np.polyfit's column-scaled Vandermonde matrix on ``linspace(-1, 1, n)`` (scaled abscissa:
    same fit, better conditioning); it only depends on the length, which many series share."""
    t = np.linspace(-1.0, 1.0, n)
    lhs = np.vander(t, degree + 1)
    scale = np.sqrt((lhs * lhs).sum(axis=0))
    lhs /= scale
    for a in (t, lhs, scale):
        a.flags.writeable = False
    return t, lhs, scale, n * np.finfo(float).eps


@lru_cache(maxsize=8)
def _grid(n: int) -> tuple[np.ndarray, np.ndarray]:
    """Octave's ``expandData`` grid ``1:0.01:n`` and the samples' positions ``1:n``."""
    fine, coarse = np.arange(1.0, n + STEP / 2, STEP), np.arange(1.0, n + 1)
    fine.flags.writeable = coarse.flags.writeable = False
    return fine, coarse


def _mse(y: np.ndarray, degree: int) -> float:
    return float(np.mean(_poly_detrend(y, degree) ** 2))


def acorf(x: np.ndarray) -> np.ndarray:
    """Biased sample autocorrelation at lags 1..len-1."""
    n = x.size
    x = x - x.mean()
    size = 1 << int(np.ceil(np.log2(2 * n)))
    power = np.abs(np.fft.rfft(x, size))
    power *= power  # |f|^2, in place (this runs on 100x-interpolated series)
    acov = np.fft.irfft(power, size)
    lags = acov[1:n]
    lags /= acov[0]
    return lags


def find_threshold(delta: np.ndarray, limit: float = LIMIT) -> tuple[float, float]:
    """Octave ``findThreshold``: the delta range of the longest run of steady quotients."""
    quotients = delta[1:] / delta[:-1]
    gamma = list(np.flatnonzero(np.abs(np.diff(quotients)) > limit) + 1)  # 1-based as Octave
    if 1 not in gamma and quotients.size > 0:
        gamma = [1, *gamma]
    gamma.append(quotients.size)
    if len(gamma) <= 2 and delta.size <= 2:
        return float(delta[0]), float(delta[-1])
    gaps = np.diff(gamma)
    i = int(np.argmax(gaps))
    return float(delta[gamma[i]]), float(delta[gamma[i + 1]])  # delta(Gamma(i)+1), 1-based


def _deltas(ys: np.ndarray, degree: int) -> np.ndarray:
    trend_free = _poly_detrend(acorf(_poly_detrend(ys, degree)), 1)
    alpha = np.flatnonzero(np.abs(trend_free, out=trend_free) < 0.001)
    if alpha.size < 2:
        return np.zeros(0)
    gaps = np.diff(alpha)
    return np.sort(gaps[gaps > 1]).astype(float)


def season_length_raw(y: np.ndarray) -> int:
    """The value the Octave function returns (0 = no period)."""
    n = y.size
    degree = 1
    with np.errstate(divide="ignore"):
        if np.log(abs(_mse(y, 1) - _mse(y, 2))) > np.exp(2):
            degree = 2
    step = 1.0
    if 2 < n < 10000:
        y = np.interp(*_grid(n), y)
        step = STEP
    b, a = BUTTER
    delta = _deltas(signal.lfilter(b, a, y), degree)
    if delta.size < 6:
        delta = _deltas(y, degree)
    if delta.size < 2:
        return 0
    low, high = find_threshold(delta)
    kept = delta[(delta >= low) & (delta <= high)]
    if kept.size == 0:
        return 0
    q = np.quantile(kept, [0.1, 0.25, 0.5, 0.75, 0.9], method="median_unbiased")
    value = int(np.round(2 * np.mean(q) * step))
    if value <= 1 or value >= 0.5 * n:
        return 0
    return value


def seasonlength(x) -> int | None:
    """seasonLength's period of ``x``, or ``None`` for its "no period" (0)."""
    y = as_series(x)
    if y.size < 4 or is_constant(y):
        return None
    value = season_length_raw(y)
    return value or None
