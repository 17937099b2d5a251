"""The seeded synthetic benchmark of PrecisePeriod §5.1.1 (Fig. 7), with the choices the
paper leaves open made explicit.

Each series (length ``n``) is a sine with integer period T ~ U{50..200} and a random phase whose
amplitude drifts between per-cycle levels A_c ~ U(0.5, 1.5) (linear interpolation between cycle
centres: "no perfect periodicity"), plus single-sample outliers at round(r·n) positions with
r ~ U(0, 0.05) and magnitude ±U(2, 5), Gaussian noise of variance σ² ~ U(0, 0.5), and a linear
trend β·t with |β| ~ U(0.5, 3)/1000 and a random sign. The paper states the period range, the
outlier proportion, the noise variance range and that the trend goes either way; amplitude
model, outlier magnitude and slope range are our choices and are parameters here.
``waveform`` (a sensitivity knob; default the paper's sine) swaps the sine for a square wave, a
sawtooth or a pulse train of 10 % duty with the same period, phase and amplitude envelope; it
draws nothing from the random stream, so every other part of each series stays the same.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from storrepro.suite.checks import MAX_COUNT, whole


def _cycles(t: np.ndarray, period: int, phase: float) -> np.ndarray:
    """Position within the cycle, in [0, 1), of a wave ``sin(2π t / period + phase)``."""
    return (t / period + phase / (2 * np.pi)) % 1.0


#: waveform -> one cycle's shape in [-1, 1] at times ``t`` for a period and phase
WAVEFORMS = {
    "sine": lambda t, period, phase: np.sin(2 * np.pi * t / period + phase),
    "square": lambda t, period, phase: np.where(_cycles(t, period, phase) < 0.5, 1.0, -1.0),
    "sawtooth": lambda t, period, phase: 2.0 * _cycles(t, period, phase) - 1.0,
    "pulse": lambda t, period, phase: np.where(_cycles(t, period, phase) < 0.1, 1.0, -1.0),
}


@dataclass(frozen=True)
class SyntheticSpec:
    """Generator knobs (defaults: the paper's ranges where it states them, else ours)."""

    n: int = 1000
    period_range: tuple[int, int] = (50, 200)
    amplitude_range: tuple[float, float] = (0.5, 1.5)
    outlier_ratio_max: float = 0.05
    outlier_magnitude: tuple[float, float] = (2.0, 5.0)
    noise_var_max: float = 0.5
    slope_range: tuple[float, float] = (0.5e-3, 3e-3)
    waveform: str = "sine"

    def __post_init__(self):
        if self.waveform not in WAVEFORMS:
            raise ValueError(f"waveform = {self.waveform!r}: expected one of {sorted(WAVEFORMS)}")
        lo, hi = self.period_range
        if not (isinstance(self.n, int) and self.n >= 16):
            raise ValueError(f"n = {self.n!r}: expected an int >= 16")
        if not (2 <= lo <= hi):
            raise ValueError(f"period_range = {self.period_range!r}: expected 2 <= low <= high")
        for name in ("amplitude_range", "outlier_magnitude", "slope_range"):
            a, b = getattr(self, name)
            if not 0 <= a <= b:
                raise ValueError(f"{name} = {(a, b)!r}: expected 0 <= low <= high")
        if not 0 <= self.outlier_ratio_max <= 1:
            raise ValueError(f"outlier_ratio_max = {self.outlier_ratio_max!r}: expected in [0, 1]")
        if self.noise_var_max < 0:
            raise ValueError(f"noise_var_max = {self.noise_var_max!r}: expected >= 0")


@dataclass(frozen=True)
class SyntheticSeries:
    values: np.ndarray
    period: int
    outlier_ratio: float
    noise_var: float
    slope: float
    parts: dict  # the Fig. 7 components: sine, outliers, noise, trend


def generate_one(
    rng: np.random.Generator, spec: SyntheticSpec = SyntheticSpec()
) -> SyntheticSeries:
    n = spec.n
    t = np.arange(n, dtype=float)
    period = int(rng.integers(spec.period_range[0], spec.period_range[1] + 1))
    phase = rng.uniform(0, 2 * np.pi)
    cycles = int(np.ceil(n / period)) + 1
    levels = rng.uniform(*spec.amplitude_range, size=cycles)
    centres = (np.arange(cycles) + 0.5) * period
    shape = WAVEFORMS[spec.waveform](t, period, phase)
    sine = np.interp(t, centres, levels) * shape
    ratio = rng.uniform(0, spec.outlier_ratio_max)
    count = int(round(ratio * n))
    outliers = np.zeros(n)
    where = rng.choice(n, size=count, replace=False)
    signs = rng.choice([-1.0, 1.0], size=count)
    outliers[where] = signs * rng.uniform(*spec.outlier_magnitude, size=count)
    noise_var = rng.uniform(0, spec.noise_var_max)
    noise = rng.normal(0, np.sqrt(noise_var), size=n)
    slope = rng.choice([-1.0, 1.0]) * rng.uniform(*spec.slope_range)
    trend = slope * t
    values = sine + outliers + noise + trend
    parts = {"sine": sine, "outliers": outliers, "noise": noise, "trend": trend}
    return SyntheticSeries(values, period, float(ratio), float(noise_var), float(slope), parts)


def generate(
    count: int = 1000, seed: int = 0, spec: SyntheticSpec = SyntheticSpec()
) -> list[SyntheticSeries]:
    """``count`` series from ``numpy.random.default_rng(seed)``: same seed, same set."""
    count, seed = whole("count", count, minimum=1, maximum=MAX_COUNT), whole("seed", seed)
    rng = np.random.default_rng(seed)
    return [generate_one(rng, spec) for _ in range(count)]


def summary(series: list[SyntheticSeries]) -> pd.DataFrame:
    """One row per series: T, r, sigma^2, beta (what the notebook saves and histograms)."""
    return pd.DataFrame(
        {
            "period": [s.period for s in series],
            "outlier_ratio": [s.outlier_ratio for s in series],
            "noise_var": [s.noise_var for s in series],
            "slope": [s.slope for s in series],
        }
    )


def demo_series(rng: np.random.Generator, n: int = 600, period: int = 48) -> dict:
    """A Fig. 4-style traffic series for the pipeline walkthrough: a daily-like periodic load
    with noise, three one-to-two-sample log-loss dips (type A) and two jagged bursts (type B).
    Returns the series and where the artefacts were put.
    """
    t = np.arange(n, dtype=float)
    base = 10 + 4 * np.sin(2 * np.pi * t / period) + 2 * np.sin(4 * np.pi * t / period + 1)
    x = base + rng.normal(0, 0.4, size=n) + 0.004 * t
    dips = [int(v) for v in rng.choice(np.arange(20, n - 20), size=3, replace=False)]
    for i, d in enumerate(dips):
        x[d : d + 1 + (i % 2)] = 0.5  # capture loss: the value drops to about 0
    bursts = [int(v) for v in rng.choice(np.arange(30, n - 30), size=2, replace=False)]
    for b in bursts:
        x[b : b + 6] += 9 * np.array([0.6, 1.0, 0.4, 1.0, 0.5, 0.9])  # a jagged peak
    return {"values": x, "period": period, "dips": dips, "bursts": bursts}
