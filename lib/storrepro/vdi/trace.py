"""The VDI workload: a seeded generator calibrated to the paper's description (spec §4.2) and a
loader for a real trace of the same shape (spec §4.1).

The SNIA VDI traces the paper replays are not reachable offline, so the generator stands in for
them: 10-minute bins, 3 LUNs, weekday boot and login storms, a workday plateau with a lunch dip,
a nightly write-heavy maintenance burst, quiet weekends and a heavier Monday, with AR(1)-smoothed
lognormal noise and random spikes. Both functions return the same long frame
``[time, lun, total_iops, write_iops]``; :func:`aggregate` sums the LUNs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from storrepro.checks import finite

BIN_S = 600
BINS_PER_DAY = 144
BINS_PER_HOUR = 6
#: The paper's replay window: 6 days from Wednesday 2016-02-24 07:00 (864 bins).
WINDOW_START = pd.Timestamp("2016-02-24 07:00")
WINDOW_BINS = 6 * BINS_PER_DAY
COLUMNS = ["time", "lun", "total_iops", "write_iops"]


@dataclass(frozen=True)
class TraceConfig:
    """Generator knobs (spec §4.2); ``iops_per_unit`` turns the relative shape into trace IOPS."""

    start: str = "2016-01-27 00:00"
    days: int = 35
    noise_sigma: float = 0.45
    noise_ar: float = 0.5
    spike_prob: float = 0.05
    spike_low: float = 1.3
    spike_high: float = 2.0
    lun_shares: tuple[float, ...] = (0.5, 0.3, 0.2)
    iops_per_unit: float = 1000.0

    def __post_init__(self):
        if self.days < 1 or int(self.days) != self.days:
            raise ValueError(f"days must be a whole number >= 1, got {self.days!r}")
        for name in ("noise_sigma", "spike_prob"):
            if not 0 <= getattr(self, name) < 1.5:
                raise ValueError(f"{name} must be in [0, 1.5), got {getattr(self, name)!r}")
        if not 0 <= self.noise_ar < 1:
            raise ValueError(f"noise_ar must be in [0, 1), got {self.noise_ar!r}")
        if not 0 < self.spike_low <= self.spike_high:
            raise ValueError(
                f"spike range must satisfy 0 < spike_low <= spike_high, "
                f"got ({self.spike_low!r}, {self.spike_high!r})"
            )
        shares = np.asarray(self.lun_shares, dtype=float)
        if shares.size < 1 or np.any(shares <= 0) or not math.isclose(shares.sum(), 1.0):
            raise ValueError(f"lun_shares must be positive and sum to 1, got {self.lun_shares!r}")
        finite("iops_per_unit", self.iops_per_unit, strict=True)
        end = pd.Timestamp(self.start) + pd.Timedelta(days=self.days)
        if pd.Timestamp(self.start) > WINDOW_START or end < WINDOW_START + pd.Timedelta(days=6):
            raise ValueError(
                f"start={self.start!r}, days={self.days!r} must cover the evaluation window "
                f"{WINDOW_START} + 6 days"
            )


def _bump(h: np.ndarray, centre: float, sd: float) -> np.ndarray:
    return np.exp(-0.5 * ((h - centre) / sd) ** 2)


def _plateau(h: np.ndarray, rise: float, fall: float, edge: float = 0.25) -> np.ndarray:
    return 1 / (1 + np.exp(-(h - rise) / edge)) / (1 + np.exp((h - fall) / edge))


def day_shape(hours: np.ndarray, day_type: str) -> np.ndarray:
    """Noise-free load in relative units for ``day_type`` in {'weekday', 'monday', 'weekend'}."""
    h = np.asarray(hours, dtype=float)
    maintenance = 0.35 * _bump(h, 2.0, 0.4)
    if day_type == "weekend":
        return 0.08 + maintenance + 0.15 * _plateau(h, 9.5, 16.0)
    if day_type not in ("weekday", "monday"):
        raise ValueError(f"day_type must be 'weekday', 'monday' or 'weekend', got {day_type!r}")
    work = 0.85 * _plateau(h, 8.5, 17.5) * (1 - 0.25 * _bump(h, 12.5, 0.5))
    shape = (
        0.08
        + maintenance
        + 0.45 * _bump(h, 7.75, 0.35)  # boot storm
        + 0.30 * _bump(h, 8.75, 0.3)  # login storm
        + work
        + 0.15 * _bump(h, 17.25, 0.3)  # logoff / shutdown
    )
    if day_type == "monday":
        shape = np.where((h >= 7) & (h < 18), 1.15 * shape, shape)
    return shape


def read_ratio_shape(hours: np.ndarray) -> np.ndarray:
    """Mean read ratio over the day: 0.7, more reads in the boot storm, more writes in the
    nightly maintenance burst and at logoff."""
    h = np.asarray(hours, dtype=float)
    return (
        0.70 + 0.20 * _bump(h, 7.75, 0.35) - 0.35 * _bump(h, 2.0, 0.4) - 0.15 * _bump(h, 17.25, 0.3)
    )


def day_types(times: pd.DatetimeIndex) -> np.ndarray:
    weekday = times.day_of_week.to_numpy()
    return np.where(weekday >= 5, "weekend", np.where(weekday == 0, "monday", "weekday"))


def generate_trace(config: TraceConfig, rng: np.random.Generator) -> pd.DataFrame:
    """``days`` of 10-minute bins per LUN, long frame ``[time, lun, total_iops, write_iops]``,
    in the trace's own IOPS (shape × ``iops_per_unit``). :func:`to_system` maps it onto the
    simulated array's demand."""
    n = config.days * BINS_PER_DAY
    times = pd.date_range(config.start, periods=n, freq=f"{BIN_S}s")
    hours = (times.hour + times.minute / 60).to_numpy()
    kinds = day_types(times)
    base = np.empty(n)
    for kind in ("weekday", "monday", "weekend"):
        mask = kinds == kind
        base[mask] = day_shape(hours[mask], kind)
    ratio_mean = np.where(kinds == "weekend", 0.7, read_ratio_shape(hours))
    shares = np.asarray(config.lun_shares)
    lun_shape = np.empty((shares.size, n))
    ratio = np.empty((shares.size, n))
    for i, share in enumerate(shares):
        eps = rng.normal(0.0, config.noise_sigma, n)
        x = np.empty(n)
        x[0] = eps[0]
        for t in range(1, n):  # AR(1) smoothing: x_t = a x_{t-1} + (1 - a) eps_t
            x[t] = config.noise_ar * x[t - 1] + (1 - config.noise_ar) * eps[t]
        spikes = np.where(
            rng.random(n) < config.spike_prob,
            rng.uniform(config.spike_low, config.spike_high, n),
            1.0,
        )
        lun_shape[i] = share * base * np.exp(x) * spikes
        ratio[i] = np.clip(ratio_mean + rng.normal(0.0, 0.03, n), 0.05, 0.95)
    lun_total = config.iops_per_unit * lun_shape
    frames = [
        pd.DataFrame(
            {
                "time": times,
                "lun": i,
                "total_iops": lun_total[i],
                "write_iops": lun_total[i] * (1 - ratio[i]),
            }
        )
        for i in range(shares.size)
    ]
    return pd.concat(frames, ignore_index=True)[COLUMNS]


def to_system(
    intensity, reference, base_iops: float = 1500.0, amplitude_iops: float = 1700.0
) -> np.ndarray:
    """Trace intensity -> FG demand of the simulated array (A8): ``base + amplitude · y / q99``
    with q99 the 99th percentile of ``reference`` (the window's aggregate). ``base = 0,
    amplitude = 3200`` is the peak-only scaling with idle nights (§6.4 lesson 3)."""
    y = np.asarray(intensity, dtype=float)
    for name, value in (("base_iops", base_iops), ("amplitude_iops", amplitude_iops)):
        finite(name, value, unit="IOPS")
    q99 = float(np.quantile(np.asarray(reference, dtype=float), 0.99))
    if q99 <= 0:
        raise ValueError("reference intensity must have a positive 99th percentile")
    return base_iops + amplitude_iops * y / q99


def load_trace(path: str | Path) -> pd.DataFrame:
    """A real trace as ``[time, lun, total_iops, write_iops]`` from a CSV with those columns.

    Bins must be 10 minutes apart and every LUN must cover the same times; IOPS must be finite
    and >= 0 with writes <= total. At least one season (144 bins) per LUN is required.
    """
    frame = pd.read_csv(path, parse_dates=["time"])
    missing = sorted(set(COLUMNS) - set(frame.columns))
    if missing:
        raise ValueError(f"trace {path}: missing columns {missing}; expected {COLUMNS}")
    return check_trace(frame[COLUMNS])


def check_trace(frame: pd.DataFrame) -> pd.DataFrame:
    """Validate a long trace frame (see :func:`load_trace`) and return it sorted."""
    frame = frame.sort_values(["lun", "time"]).reset_index(drop=True)
    for column in ("total_iops", "write_iops"):
        values = frame[column].to_numpy(dtype=float)
        bad = np.flatnonzero(~np.isfinite(values) | (values < 0))
        if bad.size:
            raise ValueError(
                f"{column} must be finite IOPS >= 0, got {values[bad[0]]!r} at row {bad[0]}"
            )
    if (frame["write_iops"] > frame["total_iops"] + 1e-9).any():
        raise ValueError("write_iops must not exceed total_iops")
    per_lun = frame.groupby("lun")["time"]
    if per_lun.size().nunique() != 1:
        raise ValueError("every LUN must cover the same bins")
    length = int(per_lun.size().iloc[0])
    if length < BINS_PER_DAY:
        raise ValueError(
            f"trace has {length} bins per LUN; at least one season ({BINS_PER_DAY} bins) is needed"
        )
    steps = per_lun.diff().dropna().unique()
    if len(steps) != 1 or steps[0] != pd.Timedelta(seconds=BIN_S):
        raise ValueError(f"bins must be {BIN_S} s apart, got steps {list(steps)[:3]}")
    return frame


def aggregate(trace: pd.DataFrame) -> pd.DataFrame:
    """Sum over LUNs: a frame indexed by time with ``total_iops`` and ``write_iops``."""
    return trace.groupby("time")[["total_iops", "write_iops"]].sum()


def per_lun(trace: pd.DataFrame, column: str = "total_iops") -> pd.DataFrame:
    """One column per LUN, indexed by time."""
    return trace.pivot(index="time", columns="lun", values=column)


def window(frame: pd.DataFrame) -> pd.DataFrame:
    """The paper's 864-bin evaluation window of a time-indexed frame."""
    out = frame.loc[WINDOW_START : WINDOW_START + pd.Timedelta(seconds=BIN_S * (WINDOW_BINS - 1))]
    if len(out) != WINDOW_BINS:
        raise ValueError(f"trace covers {len(out)} of the window's {WINDOW_BINS} bins")
    return out
