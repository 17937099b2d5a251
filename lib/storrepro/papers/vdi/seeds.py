"""One seed's trace as the studies of notebook 03 see it: 07:00-aligned days and their clusters.

Days are 07:00-aligned like the paper's window (day 28 is Wed 2016-02-24 07:00). The cluster of
each day comes from K-means (k = 2 ≤ ⌊√(7/2)⌋) on the daily means of the four weeks before the
window, mapped to weekdays by majority, so a future day's cluster is known from the calendar.
Every task rebuilds its seed's trace from ``task_rng(base_seed, ("vdi-trace", seed))``, so all
tasks of one seed see the same trace, serial or on dask. With a user's trace
(:class:`~storrepro.papers.vdi.workload.TraceInput`) every seed sees that trace.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from functools import cache, lru_cache

import numpy as np
import pandas as pd
from sklearn.cluster import KMeans
from threadpoolctl import ThreadpoolController

from storrepro.papers.vdi import workload as wl
from storrepro.suite.parallel import task_rng

DAY = wl.BINS_PER_DAY
FIRST_DAY_OFFSET = 42  # bins from 2016-01-27 00:00 to the first 07:00
WINDOW_DAY = 28  # index of Wed 2016-02-24 07:00
WINDOW_DAYS = 6
WINDOW_RANGE = range(WINDOW_DAY, WINDOW_DAY + WINDOW_DAYS)
PSYN_DAY = WINDOW_DAY + 2  # Friday 2016-02-26
#: The calendar days of the window whose trend F3 compares (Tuesday has only 7 hours in it).
TREND_DAYS = ("Wed", "Thu", "Fri", "Sat", "Sun", "Mon")


@cache
def _blas_controller() -> ThreadpoolController:
    return ThreadpoolController()  # finding the BLAS libraries is the slow part: do it once


def single_threaded():
    """Context with BLAS on one thread: a sweep runs one task per core, so more threads only
    fight each other on a shared 2-core box (and every fit sees the same thread count)."""
    return _blas_controller().limit(limits=1)


@dataclass
class SeedTrace:
    """One seed's trace as whole 07:00-aligned days (trace units, IOPS)."""

    total: np.ndarray  # (days, 144)
    write: np.ndarray  # (days, 144)
    weekdays: np.ndarray  # 0 = Monday
    labels: np.ndarray  # 0 = weekday cluster, 1 = weekend cluster
    times: pd.DatetimeIndex  # start of each bin of the window
    #: a user's trace: its own whole bins before it was repeated or cut (None: the stand-in)
    trace_bins: int | None = None
    #: whether the trace was repeated to fill the calendar
    repeated: bool = False

    def window(self, column: str = "total") -> np.ndarray:
        rows = getattr(self, column)[WINDOW_DAY : WINDOW_DAY + WINDOW_DAYS]
        return rows.ravel()


def day_clusters(daily_means: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """K-means with k = 2 on daily mean intensity; label 0 is the busier cluster. Days that all
    have the same mean (a short real trace repeated) form one cluster, label 0."""
    means = np.asarray(daily_means, dtype=float)
    if np.unique(means).size < 2:
        return np.zeros(means.size, dtype=int)
    model = KMeans(2, n_init=10, random_state=int(rng.integers(2**31)))
    labels = model.fit_predict(means.reshape(-1, 1))
    busy = int(np.argmax(model.cluster_centers_.ravel()))
    return np.where(labels == busy, 0, 1)


DEFAULT_TRACE = wl.TraceConfig()


@lru_cache(maxsize=16)
def seed_trace(
    base_seed: int,
    seed_index: int,
    source: wl.TraceInput | None = None,
    config: wl.TraceConfig = DEFAULT_TRACE,
):
    """The long trace frame and its :class:`SeedTrace` (day matrices, weekdays, clusters) for one
    seed, from the generator or from ``source``; cached per process because every task of that
    seed starts from it."""
    if source is None:
        frame = wl.generate_trace(config, task_rng(base_seed, ("vdi-trace", seed_index)))
    else:
        frame = wl.trace_frame(source, config)
        _warn_if_repeated(frame.attrs["trace_bins"], config)
    agg = wl.aggregate(frame)
    n_days = (len(agg) - FIRST_DAY_OFFSET) // DAY
    sl = slice(FIRST_DAY_OFFSET, FIRST_DAY_OFFSET + n_days * DAY)
    total = agg["total_iops"].to_numpy()[sl].reshape(n_days, DAY)
    write = agg["write_iops"].to_numpy()[sl].reshape(n_days, DAY)
    starts = agg.index[sl][::DAY]
    weekdays = starts.day_of_week.to_numpy()
    history = day_clusters(total[:WINDOW_DAY].mean(axis=1), task_rng(base_seed, ("vdi-km", 0)))
    by_weekday = {wd: int(np.round(history[weekdays[:WINDOW_DAY] == wd].mean())) for wd in range(7)}
    labels = np.array([by_weekday[wd] for wd in weekdays] + [by_weekday[(weekdays[-1] + 1) % 7]])
    times = wl.window(agg).index
    weekdays = np.append(weekdays, (weekdays[-1] + 1) % 7)
    trace_bins = frame.attrs.get("trace_bins")
    repeated = trace_bins is not None and trace_bins < config.days * DAY
    return frame, SeedTrace(total, write, weekdays, labels, times, trace_bins, repeated)


def _warn_if_repeated(trace_bins: int, config: wl.TraceConfig) -> None:
    """A warning when a user's trace is shorter than the calendar and so repeated: its days of
    the week and its history are then the trace's own bins again."""
    calendar = config.days * DAY
    if trace_bins < calendar:
        warnings.warn(
            f"the trace covers {trace_bins / DAY:.2f} days ({trace_bins} whole 10-minute bins) "
            f"and is repeated {calendar / trace_bins:.1f} times to fill the {config.days}-day "
            "calendar: a forecast whose history is longer than the trace would read copies of "
            "the day it forecasts, so such forecasting claims are not checkable on it",
            stacklevel=2,
        )
