"""The forecast protocol of notebook 03 and the day-ahead books the smart scheduler replays.

A day ``target`` is forecast with the data before day ``cutoff``; the cluster models (proposed,
Holt-Winters, ARIMA, seasonal-naive) learn from the most recent days of the target's cluster, so
their forecast depends only on those days. A fit is therefore keyed by its history days and made
once (:class:`ForecastCache`), however many tables and books use it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from storrepro.papers.vdi import forecast as fc
from storrepro.papers.vdi.seeds import DAY, WINDOW_DAYS, WINDOW_RANGE, SeedTrace

#: Training days of each cluster model (the P-syn protocol; ``holt-winters-9d`` is Holt-Winters
#: on ARIMA's 9 days, the ``train_window=hw-9`` reading).
HISTORY_DAYS = {
    "proposed": 3,
    "holt-winters": 3,
    "holt-winters-9d": 9,
    "seasonal-naive": 1,
    "arima": 9,
    "arima-ridge": 9,
    "arima-3d": 3,
}

#: The forecasting protocol's alternative readings: (the model a reading changes, the variant
#: whose forecasts it reads instead).
PROTOCOL_ROWS = {
    "train_window=hw-9": ("holt-winters", "holt-winters-9d"),
    "train_window=all-3": ("arima-ridge", "arima-3d"),
    "proposed_history=weekly": ("proposed", "proposed-weekly"),
}

BOOK_MODELS = ("proposed", "arima-ridge", "oracle")

#: The forecaster behind each book: the scheduler's proposed model uses the weekly trend.
BOOK_SOURCES = {"proposed": "proposed-weekly", "arima-ridge": "arima-ridge", "oracle": "oracle"}


def cluster_days(st: SeedTrace, target: int, cutoff: int, days: int) -> tuple[int, ...]:
    """The ``days`` most recent days before ``cutoff`` in ``target``'s cluster, oldest first."""
    same = [d for d in range(cutoff) if st.labels[d] == st.labels[target]]
    return tuple(same[-days:])


def cluster_history(st: SeedTrace, column: str, target: int, cutoff: int, days: int):
    """The days of :func:`cluster_days`, concatenated."""
    return getattr(st, column)[list(cluster_days(st, target, cutoff, days))].ravel()


def history_days(model: str, st: SeedTrace, target: int, cutoff: int) -> tuple[int, ...]:
    """The days a forecast of ``target`` made at ``cutoff`` reads: a cluster model's history
    days, every day before the cutoff for the weekly variant, none for the oracle."""
    if model in HISTORY_DAYS:
        return cluster_days(st, target, cutoff, HISTORY_DAYS[model])
    if model == "proposed-weekly":
        return tuple(range(cutoff))
    if model == "oracle":
        return ()
    raise ValueError(f"unknown forecast model {model!r}")


def trace_cover(st: SeedTrace, models, targets, label: str | None = None) -> dict | None:
    """What day-ahead forecasts of ``targets`` by ``models`` (each read as the forecasting
    reading ``label`` reads it, :data:`PROTOCOL_ROWS`) need of a user's trace, and what it has:
    ``need_days``, from the first history day to the end of the latest target, the longest
    over the forecasts; ``have_days``, the trace's own whole days; ``repeated``. A trace shorter
    than the need, repeated to fill the calendar, would hand a forecaster copies of the day it
    forecasts. None on the stand-in (nothing repeats)."""
    if st.trace_bins is None:
        return None
    changed, variant = PROTOCOL_ROWS.get(label, (None, None))
    need = 1
    for model in models:
        model = variant if model == changed else model
        for target in targets:
            days = history_days(model, st, target, target)
            need = max(need, target - min(days, default=target) + 1)
    return {"need_days": need, "have_days": st.trace_bins / DAY, "repeated": st.repeated}


def forecast_key(model: str, st: SeedTrace, column: str, target: int, cutoff: int) -> tuple:
    """What a forecast depends on: a cluster model's history days, else the target and cutoff."""
    if model in HISTORY_DAYS:
        return model, column, cluster_days(st, target, cutoff, HISTORY_DAYS[model])
    return model, column, target, cutoff


def fit_model(model: str, history: np.ndarray) -> tuple[np.ndarray, bool]:
    """A one-day forecast of a cluster model other than the proposed one (which needs its α)
    from its history, and whether the fit is stable (always True without an AR part)."""
    if model in ("holt-winters", "holt-winters-9d"):
        return fc.HoltWinters().forecast(history, DAY), True
    if model == "seasonal-naive":
        return fc.SeasonalNaive().forecast(history, DAY), True
    if model in ("arima", "arima-ridge", "arima-3d"):
        estimator = fc.RidgeArimaCSS() if model == "arima-ridge" else fc.ArimaCSS()
        fit = estimator.fit(history)
        return fit.forecast(DAY), fit.stable
    raise ValueError(f"unknown cluster forecast model {model!r}")


def model_forecast(
    model: str, st: SeedTrace, column: str, target: int, cutoff: int, alpha: float = 0.5
) -> tuple[np.ndarray, bool]:
    """Day ``target`` forecast with data before day ``cutoff``, and whether the
    fit is stable."""
    if model == "proposed":  # P-syn: the 3 preceding cluster days
        history = cluster_history(st, column, target, cutoff, HISTORY_DAYS[model])
        return fc.ProposedEWMA(alpha).forecast(history, DAY), True
    if model in HISTORY_DAYS:
        return fit_model(model, cluster_history(st, column, target, cutoff, HISTORY_DAYS[model]))
    if model == "proposed-weekly":  # all history, weekly trend (the scheduler's forecaster)
        day = fc.ProposedEWMA(alpha).forecast_calendar(
            getattr(st, column)[:cutoff].ravel(),
            st.labels[:cutoff],
            st.weekdays[:cutoff],
            st.labels[target],
            st.weekdays[target],
        )
        return day, True
    if model == "oracle":
        return getattr(st, column)[target].copy(), True
    raise ValueError(f"unknown forecast model {model!r}")


@dataclass
class ForecastCache:
    """Forecasts by :func:`forecast_key`, each made once; ``seconds`` is each one's fit time."""

    st: SeedTrace
    alpha: float = 0.5
    forecasts: dict = field(default_factory=dict)
    seconds: dict = field(default_factory=dict)

    def get(self, model: str, column: str, target: int, cutoff: int) -> tuple[np.ndarray, bool]:
        key = forecast_key(model, self.st, column, target, cutoff)
        if key not in self.forecasts:
            t0 = time.perf_counter()
            self.forecasts[key] = model_forecast(model, self.st, column, target, cutoff, self.alpha)
            self.seconds[key] = time.perf_counter() - t0
        return self.forecasts[key]


@dataclass(frozen=True)
class Book:
    """Forecasts in trace units made at the start of each window day for that day and the
    next: arrays of shape (6, 288)."""

    total: np.ndarray
    write: np.ndarray


def forecast_books(
    st: SeedTrace, alpha: float = 0.5, cache: ForecastCache | None = None, models=BOOK_MODELS
) -> dict[str, Book]:
    """Day-ahead forecasts for every window day and the day after, per model,
    each made with the data up to the start of its window day. The
    scheduler uses the proposed model with its weekly trend over the full history; ARIMA
    forecasts a cluster's next day, so one fit per cluster history serves both days; the oracle
    is the actual trace (the week before for the day after the trace ends). Holt-Winters is left
    out: its 'estimated' start optimizes 148 parameters by numerical gradients (about 1 s per
    fit) and one of Holt-Winters or ARIMA suffices as this reference."""
    cache = ForecastCache(st, alpha) if cache is None else cache
    books = {}
    for name in models:
        arrays = {c: np.empty((WINDOW_DAYS, 2 * DAY)) for c in ("total", "write")}
        for i, cutoff in enumerate(WINDOW_RANGE):
            for j, target in enumerate((cutoff, cutoff + 1)):
                for column, out in arrays.items():
                    if name == "oracle":
                        values = getattr(st, column)
                        f = values[target if target < len(values) else target - 7]
                    else:
                        f = cache.get(BOOK_SOURCES[name], column, target, cutoff)[0]
                    out[i, j * DAY : (j + 1) * DAY] = f
        books[name] = Book(arrays["total"], arrays["write"])
    return books
