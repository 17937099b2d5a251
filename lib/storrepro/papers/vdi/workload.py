"""The VDI workload: a seeded generator calibrated to the paper's description of its traces, or
the user's own block trace in their place.

The SNIA VDI traces the paper replays are not reachable offline, so the generator stands in for
them: 10-minute bins, 3 LUNs, weekday boot and login storms, a workday plateau with a lunch dip,
a nightly write-heavy maintenance burst, quiet weekends and a heavier Monday, with AR(1)-smoothed
lognormal noise and random spikes. :func:`trace_frame` turns a real trace into the same input
instead. Both return the long frame ``[time, lun, total_iops, write_iops]``; :func:`aggregate`
sums the LUNs.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from storrepro.suite.checks import finite
from storrepro.suite.traces import samples
from storrepro.suite.traces.convert import Conversion, rate_series, save_table
from storrepro.suite.traces.needs import TraceNeeds
from storrepro.suite.traces.summary import trace_info

BIN_S = 600
BINS_PER_DAY = 144
#: The paper's replay window: 6 days from Wednesday 2016-02-24 07:00 (864 bins).
WINDOW_START = pd.Timestamp("2016-02-24 07:00")
WINDOW_BINS = 6 * BINS_PER_DAY
COLUMNS = ["time", "lun", "total_iops", "write_iops"]


@dataclass(frozen=True)
class TraceConfig:
    """Generator knobs and the calendar both inputs are laid on (35 days from Wednesday
    2016-01-27, so the forecasters have four weeks of history before the paper's window);
    ``iops_per_unit`` turns the relative shape into trace IOPS."""

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
    """Trace intensity -> FG demand of the simulated array: ``base + amplitude · y / q99`` with
    q99 the 99th percentile of ``reference`` (the window's aggregate), so the mean load is about
    60 % of the FG capacity. ``base = 0, amplitude = 3200`` is the peak-only scaling, with idle
    nights."""
    y = np.asarray(intensity, dtype=float)
    for name, value in (("base_iops", base_iops), ("amplitude_iops", amplitude_iops)):
        finite(name, value, unit="IOPS")
    q99 = float(np.quantile(np.asarray(reference, dtype=float), 0.99))
    if q99 <= 0:
        raise ValueError("reference intensity must have a positive 99th percentile")
    return base_iops + amplitude_iops * y / q99


#: The write share of an ``iops`` trace, which has no reads and writes: the stand-in's mean (its
#: read ratio averages 0.7).
IOPS_WRITE_SHARE = 0.3


@dataclass(frozen=True)
class TraceInput:
    """A user's block trace in place of the generator: its path and format ('' detects it)."""

    path: str
    format: str = ""


def trace_input(path: str, format: str = "") -> TraceInput | None:
    """The notebook's ``trace`` and ``trace_format`` parameters as a :class:`TraceInput`, or
    None when ``path`` is '' (the synthetic stand-in)."""
    return TraceInput(str(path), format) if path else None


def vdi_foreground(path: str | Path, *, format: str | None = None, bin_s: float = 600.0,
                   progress: bool = True) -> pd.Series:
    """Foreground IOPS of all volumes together per 10-minute interval."""
    return rate_series(path, bin_s, format=format, progress=progress).sum(axis=1).rename("iops")


#: ``trace convert --to vdi``
TRACE_CONVERSION = Conversion(
    name="vdi",
    writes="foreground IOPS per 10 minutes (.csv)",
    convert=vdi_foreground,
    save=save_table,
)


def trace_frame(source: TraceInput, config: TraceConfig) -> pd.DataFrame:
    """A real trace as the long frame ``[time, lun, total_iops, write_iops]`` on ``config``'s
    calendar, one LUN (all volumes together).

    The foreground series is the trace's I/O per second of all volumes together per 10-minute
    interval from its first request (:func:`vdi_foreground`), as the
    paper binned its VDI traces, whole bins only: the last bin of a request trace, which the
    trace covers only up to its last request, is dropped (it would read as a lull; an ``iops``
    series' last rate holds to the end of its bin, :func:`held_rates`). Its first bin is laid at
    ``config.start``; a trace shorter than ``config.days`` is repeated end to end and a longer
    one cut, so the forecasters get the same history as on the stand-in. The frame's
    ``attrs["trace_bins"]`` is the number of the trace's own bins (before any repetition). The
    write IOPS are the foreground IOPS times the trace's share of writes among its requests
    (:data:`IOPS_WRITE_SHARE` for an ``iops`` series).
    """
    fmt = source.format or None
    iops = vdi_foreground(source.path, format=fmt, bin_s=BIN_S, progress=False).to_numpy()
    info = trace_info(source.path, fmt, progress=False)
    whole = iops.size if info.format == "iops" else int(info.duration_s // BIN_S)
    if whole < 1:
        raise ValueError(
            f"trace {source.path!r} spans {info.duration_s:g} s: not one whole {BIN_S} s bin"
        )
    iops = iops[:whole]
    write_share = IOPS_WRITE_SHARE if info.read_share is None else 1.0 - info.read_share
    n = config.days * BINS_PER_DAY
    total = np.resize(iops, n)  # repeats a short series end to end, cuts a long one
    frame = pd.DataFrame(
        {
            "time": pd.date_range(config.start, periods=n, freq=f"{BIN_S}s"),
            "lun": 0,
            "total_iops": total,
            "write_iops": total * write_share,
        }
    )
    frame.attrs["trace_bins"] = whole
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


def _sample(path: Path, rng: np.random.Generator) -> Path:
    """Eight hours of two volumes, repeated over the stand-in's calendar."""
    return samples.write_msr(path, *samples.daily_arrivals(rng, 2, 8, 50), rng)


#: The small trace the tests run the notebook on.
TRACE_SAMPLE = samples.TraceSample(_sample)


def trace_needs(cfg) -> TraceNeeds:
    """What the notebook needs from a trace: any length (it is laid on the calendar and
    repeated), but traffic on every day of the evaluation window as laid."""
    return TraceNeeds(series=window_traffic)


def window_traffic(path: str, format: str = "") -> str:
    """'' when the trace, laid on the stand-in's calendar (:func:`trace_frame`), has traffic on
    every day of the evaluation window; else what is missing: an idle day makes every
    forecaster's error 0 % on it and leaves the schedulers nothing to do."""
    iops = window(aggregate(trace_frame(TraceInput(path, format), TraceConfig()))).total_iops
    daily = iops.groupby(np.arange(iops.size) // BINS_PER_DAY).sum()
    idle = [str((WINDOW_START + pd.Timedelta(days=int(d))).date()) for d in daily.index[daily <= 0]]
    if not idle:
        return ""
    offset = (WINDOW_START - pd.Timestamp(TraceConfig().start)) / pd.Timedelta(days=1)
    return (
        f"traffic on every day of the 6-day evaluation window, which starts {offset:.4g} days "
        f"after the trace's first record (the trace repeated when shorter); the days from "
        f"{', '.join(idle)} (as laid on the calendar) have none: choose a busier part with "
        "trace_start, trace_days and volumes"
    )
