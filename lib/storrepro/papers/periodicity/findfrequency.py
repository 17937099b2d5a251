"""findFrequency: a port of R ``forecast::findfrequency`` (Hyndman & Athanasopoulos 2018).

R source, step by step::

    x    <- residuals(tslm(x ~ trend))                # OLS on 1 + t
    spec <- spec.ar(c(na.contiguous(x)), n.freq=500)  # ar(x, aic=TRUE, method="yule-walker")
    if (max(spec$spec) > 10) period <- floor(1/spec$freq[which.max(spec$spec)] + 0.5)
    ...                                               # peak at f = 0: next local maximum
    else period <- 1

:func:`ar_yw` follows R's ``ar.yw`` (demean, biased autocovariance, Levinson–Durbin, AIC with
``2p + 2``, first minimum, ``var.pred * n/(n - (p+1))``) and :func:`spec_ar` R's ``spec.ar``.
The threshold 10 is absolute, so the data are not standardised: findFrequency's answer depends
on the series' scale, as in R. The port is tested against hand-worked cases and the documented
examples (``ar(lh)`` and ``findfrequency(USAccDeaths) == 12``); where R and its forecast package
are installed, :func:`r_findfrequency` runs R's own function as the oracle (claim A3).
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from storrepro.papers.periodicity._input import as_series, is_constant

N_FREQ = 500
THRESHOLD = 10.0


@dataclass(frozen=True)
class ArFit:
    """A Yule–Walker AR fit as R's ``ar.yw`` returns it (univariate, demeaned)."""

    order: int
    ar: np.ndarray
    var_pred: float
    aic: np.ndarray  # AIC_p - min AIC, p = 0..order_max
    partialacf: np.ndarray


def levinson_durbin(r: np.ndarray, order: int) -> tuple[np.ndarray, np.ndarray]:
    """Coefficient rows and innovation variances for orders 1..order from autocovariances ``r``.

    Returns ``(coefs, vars)``: ``coefs[p-1, :p]`` are the AR(p) coefficients, ``vars[p-1]`` its
    prediction variance (R's ``eureka``).
    """
    coefs = np.zeros((order, order))
    variances = np.zeros(order)
    v = r[0]
    phi = np.zeros(0)
    for p in range(1, order + 1):
        k = (r[p] - phi @ r[p - 1 : 0 : -1]) / v if p > 1 else r[1] / v
        phi = np.concatenate([phi - k * phi[::-1], [k]])
        v = v * (1.0 - k * k)
        coefs[p - 1, :p] = phi
        variances[p - 1] = v
    return coefs, variances


def ar_yw(x: np.ndarray, order_max: int | None = None) -> ArFit:
    """R ``ar(x, aic=TRUE, method="yule-walker")`` for a univariate series."""
    x = np.asarray(x, dtype=float)
    n = x.size
    if order_max is None:
        order_max = min(n - 1, int(np.floor(10 * np.log10(n))))
    if order_max < 1:
        raise ValueError(f"order_max = {order_max}: a series of length {n} is too short for ar.yw")
    xc = x - x.mean()
    r = np.array([xc[: n - k] @ xc[k:] / n for k in range(order_max + 1)])
    if r[0] == 0:
        raise ValueError("zero-variance series")
    coefs, variances = levinson_durbin(r, order_max)
    var_pred = np.concatenate([[r[0]], variances])
    with np.errstate(divide="ignore", invalid="ignore"):
        aic = n * np.log(var_pred) + 2 * np.arange(order_max + 1) + 2
    finite = np.isfinite(aic)
    # as R: with no finite AIC, every order at the minimum (here -Inf) gets 0
    rel = aic - aic[finite].min() if finite.any() else np.where(aic == aic.min(), 0.0, np.inf)
    order = int(np.flatnonzero(rel == 0)[0])
    ar = coefs[order - 1, :order].copy() if order else np.zeros(0)
    vp = var_pred[order] * n / (n - (order + 1))
    return ArFit(order, ar, float(vp), rel, np.diag(coefs).copy())


def spec_ar(fit: ArFit, n_freq: int = N_FREQ) -> tuple[np.ndarray, np.ndarray]:
    """R ``spec.ar``: frequencies ``seq(0, 0.5, length=n_freq)`` and the AR spectrum."""
    freq = np.linspace(0.0, 0.5, n_freq)
    if fit.order == 0:
        return freq, np.full(n_freq, fit.var_pred)
    lags = np.arange(1, fit.order + 1)
    angle = 2 * np.pi * np.outer(freq, lags)
    cs = np.cos(angle) @ fit.ar
    sn = np.sin(angle) @ fit.ar
    return freq, fit.var_pred / ((1 - cs) ** 2 + sn**2)


def detrend_ols(x: np.ndarray) -> np.ndarray:
    """Residuals of the OLS fit ``x ~ 1 + t`` (``tslm(x ~ trend)``)."""
    t = np.arange(1, x.size + 1, dtype=float)
    design = np.column_stack([np.ones_like(t), t])
    beta, *_ = np.linalg.lstsq(design, x, rcond=None)
    return x - design @ beta


def findfrequency_r(x) -> int:
    """The value R returns (1 = no period); raises ``ValueError`` where R stops with an error."""
    x = as_series(x)
    if x.size < 3:
        raise ValueError(f"x has length {x.size}; findfrequency needs at least 3 values")
    resid = detrend_ols(x)
    freq, spec = spec_ar(ar_yw(resid))
    if spec.max() <= THRESHOLD:
        return 1
    best = int(np.argmax(spec))
    if freq[best] > 0:
        return int(np.floor(1 / freq[best] + 0.5))
    # peak at frequency 0 (period Inf): take the next local maximum, as R does
    rising = np.flatnonzero(np.diff(spec) > 0)
    if rising.size == 0:
        return 1
    j = rising[0] + 1  # R's j[1] (1-based) as a 0-based index of the rising point
    nextmax = j + int(np.argmax(spec[j:]))
    if nextmax < N_FREQ - 1:
        return int(np.floor(1 / freq[nextmax] + 0.5))
    return 1


def findfrequency(x) -> int | None:
    """The period R's ``findfrequency`` finds, or ``None`` for its "no period" (1) and errors.

    Series shorter than 3 or constant give ``None`` (R stops with an error on both).
    """
    x = as_series(x)
    if x.size < 3 or is_constant(detrend_ols(x) if x.size >= 3 else x):
        return None
    period = findfrequency_r(x)
    return None if period <= 1 else period


#: How to get the oracle: Debian packages R and forecast in the versions the port follows.
R_INSTALL_HINT = "install R and its forecast package (Debian: apt-get install r-base-core " \
    "r-cran-forecast)"

#: R's side of :func:`r_findfrequency`: its versions on the first line, then
#: ``forecast::findfrequency`` of each series of the binary file named by the first argument
#: (little-endian int32 count; per series int32 length and float64 values: exact, no decimals).
R_SCRIPT = """
suppressPackageStartupMessages(library(forecast))
cat("R", paste(R.version$major, R.version$minor, sep = "."), "forecast",
    as.character(packageVersion("forecast")), "\\n")
con <- file(commandArgs(trailingOnly = TRUE)[1], "rb")
k <- readBin(con, "integer", 1, size = 4, endian = "little")
for (i in seq_len(k)) {
  n <- readBin(con, "integer", 1, size = 4, endian = "little")
  cat(findfrequency(readBin(con, "double", n, size = 8, endian = "little")), "\\n")
}
close(con)
"""


class RUnavailable(RuntimeError):
    """R or its forecast package cannot run here: says why and how to install them."""


def r_findfrequency(series: list) -> tuple[list[int], str]:
    """R's ``forecast::findfrequency`` of every series (1: no period), from one ``Rscript``
    process, and the versions that computed them (``"R 4.2.2 forecast 8.20"``)."""
    rscript = shutil.which("Rscript")
    if rscript is None:
        raise RUnavailable(f"R is not installed here (no Rscript on PATH); {R_INSTALL_HINT}")
    values = [np.asarray(x, dtype="<f8") for x in series]
    with tempfile.TemporaryDirectory() as tmp:
        data, script = Path(tmp) / "series.bin", Path(tmp) / "findfrequency.R"
        script.write_text(R_SCRIPT)
        with open(data, "wb") as out:
            out.write(np.int32(len(values)).astype("<i4").tobytes())
            for x in values:
                out.write(np.int32(x.size).astype("<i4").tobytes() + x.tobytes())
        done = subprocess.run([rscript, "--vanilla", str(script), str(data)],
                              capture_output=True, text=True)
    lines = done.stdout.splitlines()
    if done.returncode or len(lines) != len(values) + 1:
        said = (done.stderr.strip().splitlines() or ["no output"])[-1]
        raise RUnavailable(f"R's findfrequency did not run: {said}; {R_INSTALL_HINT}")
    return [int(float(line)) for line in lines[1:]], lines[0].strip()
