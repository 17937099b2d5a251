"""The PCC ceiling of PrecisePeriod's verification on the synthetic set: how far noise alone
keeps even the right period from passing the θ = 0.7 check.

A target ``s + e`` (signal variance ``S``, independent noise of variance ``N``) and the paper's
forecast for the *true* period, the mean of the last ``k`` = 3 periods, ``s + (e₁ + … + e_k)/k``
(noise variance ``N/k``), have the expected PCC ``S / sqrt((S + N/k)(S + N))``; a noise-free
forecast (``k`` = ∞) has ``sqrt(S/(S + N))``. An amplitude-1 sine has ``S`` = 1/2: the 3-period
forecast falls below θ = 0.7 once ``N`` exceeds ≈ 0.334 (a noise-free one, ≈ 0.520), while the
paper's generator draws ``N`` ~ U(0, 0.5). :func:`accuracy_by_noise` sets the measured accuracy
of each method beside that ceiling, per noise bin of the synthetic set.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from storrepro.papers.periodicity.metrics import scores
from storrepro.suite.checks import finite, whole

#: The variance of an amplitude-1 sine.
SINE_VAR = 0.5
#: The periods PrecisePeriod's forecast averages (§3.5: X_t = (X_{t−T} + X_{t−2T} + X_{t−3T})/3).
FORECAST_PERIODS = 3


def _check(signal_var: float, periods: int | None) -> None:
    finite("signal_var", signal_var, strict=True)
    if periods is not None:  # None: a noise-free forecast
        whole("periods", periods, minimum=1)


def pcc_ceiling(noise_var, signal_var: float = SINE_VAR,
                periods: int | None = FORECAST_PERIODS) -> np.ndarray:
    """Expected PCC of the ``periods``-period-mean forecast with the right period against its
    target, at noise variance ``noise_var`` (``periods=None``: a noise-free forecast)."""
    _check(signal_var, periods)
    n = np.asarray(noise_var, dtype=float)
    if np.any(n < 0) or not np.all(np.isfinite(n)):
        raise ValueError(f"noise_var = {noise_var!r}: expected finite values >= 0")
    s = signal_var
    if periods is None:
        return np.sqrt(s / (s + n))
    return s / np.sqrt((s + n / periods) * (s + n))


def noise_limit(theta: float = 0.7, signal_var: float = SINE_VAR,
                periods: int | None = FORECAST_PERIODS) -> float:
    """The noise variance at which :func:`pcc_ceiling` equals ``theta`` (the root of
    ``(S + N/k)(S + N) = S²/θ²``; ``S(1/θ² − 1)`` for a noise-free forecast)."""
    _check(signal_var, periods)
    if not 0 < theta < 1:
        raise ValueError(f"theta = {theta!r}: expected in (0, 1)")
    s = signal_var
    if periods is None:
        return s * (1 / theta**2 - 1)
    a, b, c = 1 / periods, s * (1 + 1 / periods), s * s * (1 - 1 / theta**2)
    return (-b + math.sqrt(b * b - 4 * a * c)) / (2 * a)


def accuracy_by_noise(results: pd.DataFrame, methods, bins: int = 5, tol: float = 0.02,
                      theta: float = 0.7) -> pd.DataFrame:
    """Per equal-width noise-variance bin of the synthetic rows of ``results``: the series, the
    ceiling at the bin's middle (3-period and noise-free forecast), the share of its series whose
    noise lies beyond the 3-period limit at ``theta``, and each method's accuracy (±``tol``)."""
    syn = results[results.dataset == "synthetic"]
    if syn.empty:
        raise ValueError("results: no synthetic rows, expected the synthetic set's")
    bins = whole("bins", bins, minimum=1)
    top = float(syn.noise_var.max())
    edges = np.linspace(0.0, top if top > 0 else 1.0, bins + 1)
    which = np.clip(np.searchsorted(edges, syn.noise_var, side="right") - 1, 0, bins - 1)
    limit = noise_limit(theta)
    rows = []
    for b in range(bins):
        part = syn[which == b]
        if part.empty:
            continue
        mid = (edges[b] + edges[b + 1]) / 2
        row = {"noise σ²": f"{edges[b]:.2f}–{edges[b + 1]:.2f}", "series": len(part),
               "ceiling (3-period forecast)": float(pcc_ceiling(mid)),
               "ceiling (noise-free forecast)": float(pcc_ceiling(mid, periods=None)),
               "beyond the limit": float((part.noise_var > limit).mean())}
        truths = part.truth.tolist()
        for m in methods:
            est = [None if pd.isna(e) else int(e) for e in part[m]]
            row[m] = scores(est, truths, tol)["accuracy"]
        rows.append(row)
    return pd.DataFrame(rows).set_index("noise σ²")
