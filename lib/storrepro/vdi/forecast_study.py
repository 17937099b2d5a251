"""Notebook 03's forecasting study: characterization, forecast accuracy and the schedulers' books.

Forecast protocol (spec §2.10): a day ``target`` is forecast with the data before day ``cutoff``;
the cluster models (proposed, Holt-Winters, ARIMA, seasonal-naive) learn from the most recent
days of the target's cluster, so their forecast depends only on those days. A fit is therefore
keyed by its history days and made once, however many tables and books use it.

The costly fits (Holt-Winters: about 1 s; ridge ARIMA: a few fits of 145 regressors) run first as
one sweep task each, spread over the workers; then one task per seed scores every model and
builds the books from them (:func:`forecast_study`).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from statsmodels.tsa.stattools import acf, pacf

from storrepro.vdi import forecast as fc
from storrepro.vdi.seeds import (
    DAY,
    PSYN_DAY,
    WINDOW_DAY,
    WINDOW_DAYS,
    WINDOW_RANGE,
    SeedTrace,
    day_clusters,
    seed_trace,
    single_threaded,
)

# ---------------------------------------------------------------- characterization (F1–F4)


#: The calendar days of the window whose trend F3 compares (Tuesday has only 7 hours in it).
TREND_DAYS = ("Wed", "Thu", "Fri", "Sat", "Sun", "Mon")


def calendar_day_means(values: np.ndarray, times: pd.DatetimeIndex) -> np.ndarray:
    """Mean of ``values`` per calendar date (midnight to midnight) for the window's Wednesday
    to Monday, in that order: the window runs from Wednesday 07:00 to Tuesday 07:00, so
    grouping by its 07:00-aligned days would put Saturday's small hours into "Friday" and
    Tuesday's morning into "Monday"."""
    values = np.asarray(values, dtype=float)
    if values.shape != (len(times),):
        raise ValueError(f"values must have one entry per time, got {values.shape}")
    frame = pd.Series(values, index=times)
    by_date = frame.groupby(times.normalize()).mean()
    names = by_date.index.day_name().str[:3]
    out = [by_date[names == day] for day in TREND_DAYS]
    if any(len(x) != 1 for x in out):
        raise ValueError(f"times must cover each of {TREND_DAYS} once, got {list(names)}")
    return np.array([float(x.iloc[0]) for x in out])


def characterize(st: SeedTrace, rng: np.random.Generator) -> dict:
    y = st.window()
    r = acf(y, nlags=300, fft=True)
    trend, _ = fc.decompose(y)
    means = calendar_day_means(trend, st.times)  # Wed Thu Fri Sat Sun Mon, calendar dates
    mid = means[:3].mean()
    window_labels = day_clusters(y.reshape(WINDOW_DAYS, DAY).mean(axis=1), rng)
    return {
        "acf": r,
        "pacf": pacf(y, nlags=300, method="ldadjusted"),  # Levinson–Durbin: fast at 300 lags
        "acf_argmax": int(36 + np.argmax(r[36:301])),
        "acf144": float(r[144]),
        "acf72": float(r[72]),
        "lag144_r": float(np.corrcoef(y[:-144], y[144:])[0, 1]),
        "trend_means": means,
        "wtf_spread": float(np.max(np.abs(means[:3] / mid - 1))),
        "weekend_ratio": float(max(means[3], means[4]) / mid),
        "monday_ratio": float(means[5] / mid),
        "window_labels": window_labels,
        "kmeans_ok": bool(
            (window_labels[3] == window_labels[4])
            and np.all(window_labels[[0, 1, 2, 5]] != window_labels[3])
        ),
    }


# ---------------------------------------------------------------- forecasts

#: Training days of each cluster model (P-syn, spec §2.10).
HISTORY_DAYS = {
    "proposed": 3,
    "holt-winters": 3,
    "seasonal-naive": 1,
    "arima": 9,
    "arima-ridge": 9,
    "arima-3d": 3,
}
#: Models whose fits are worth a sweep task of their own.
FITTED_MODELS = ("holt-winters", "arima-ridge", "arima", "arima-3d")
ACCURACY_MODELS = (
    "proposed",
    "holt-winters",
    "arima",
    "arima-ridge",
    "arima-3d",
    "seasonal-naive",
    "proposed-weekly",
)
BOOK_MODELS = ("proposed", "arima-ridge", "oracle")
#: The forecaster behind each book: the scheduler's proposed model uses the weekly trend.
BOOK_SOURCES = {"proposed": "proposed-weekly", "arima-ridge": "arima-ridge", "oracle": "oracle"}
ALPHAS = (0.1, 0.3, 0.5, 0.7, 0.9)


def cluster_days(st: SeedTrace, target: int, cutoff: int, days: int) -> tuple[int, ...]:
    """The ``days`` most recent days before ``cutoff`` in ``target``'s cluster, oldest first."""
    same = [d for d in range(cutoff) if st.labels[d] == st.labels[target]]
    return tuple(same[-days:])


def cluster_history(st: SeedTrace, column: str, target: int, cutoff: int, days: int):
    """The days of :func:`cluster_days`, concatenated."""
    return getattr(st, column)[list(cluster_days(st, target, cutoff, days))].ravel()


def forecast_key(model: str, st: SeedTrace, column: str, target: int, cutoff: int) -> tuple:
    """What a forecast depends on: a cluster model's history days, else the target and cutoff."""
    if model in HISTORY_DAYS:
        return model, column, cluster_days(st, target, cutoff, HISTORY_DAYS[model])
    return model, column, target, cutoff


def fit_model(model: str, history: np.ndarray) -> tuple[np.ndarray, bool]:
    """A one-day forecast of a cluster model other than the proposed one (which needs its α)
    from its history, and whether the fit is stable (always True without an AR part)."""
    if model == "holt-winters":
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
    """Day ``target`` forecast with data before day ``cutoff`` (spec §2.10), and whether the
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


def forecast_requests(
    write_series: bool = True, book_models=BOOK_MODELS
) -> Iterator[tuple[str, str, int, int]]:
    """Every (model, column, target, cutoff) of the accuracy table and the books, and with
    ``write_series`` the P-syn write forecasts drawn in Figs. 10–12."""
    for day in WINDOW_RANGE:
        for model in ACCURACY_MODELS:
            yield model, "total", day, day
    if write_series:
        for model in ACCURACY_MODELS:
            yield model, "write", PSYN_DAY, PSYN_DAY
    for name in book_models:
        if name == "oracle":
            continue
        for cutoff in WINDOW_RANGE:
            for target in (cutoff, cutoff + 1):
                for column in ("total", "write"):
                    yield BOOK_SOURCES[name], column, target, cutoff


@dataclass(frozen=True)
class FitTask:
    """One costly forecast: ``model`` trained on ``days`` of one seed's ``column``."""

    base_seed: int
    seed_index: int
    model: str
    column: str
    days: tuple[int, ...]
    history: np.ndarray = field(repr=False, compare=False)


def fit_tasks(base_seed: int, seeds, figure_seed: int | None = None) -> list[FitTask]:
    """The distinct costly fits of every seed (write-intensity forecasts only for
    ``figure_seed``, whose forecasts the figures show), Holt-Winters first: the longest tasks go
    first so the workers finish together."""
    tasks = []
    for i in seeds:
        _, st = seed_trace(base_seed, i)
        for model, column, target, cutoff in forecast_requests(i == figure_seed):
            if model in FITTED_MODELS:
                _, _, days = forecast_key(model, st, column, target, cutoff)
                history = getattr(st, column)[list(days)].ravel()
                tasks.append(FitTask(base_seed, i, model, column, days, history))
    tasks = list(dict.fromkeys(tasks))  # equal tasks share a key: keep the first of each
    return sorted(tasks, key=lambda t: FITTED_MODELS.index(t.model))


def fit_forecast(task: FitTask, rng: np.random.Generator) -> dict:
    """One fit of :func:`fit_tasks`: the forecast, its stability and the fit time (s)."""
    with single_threaded():
        t0 = time.perf_counter()
        forecast, stable = fit_model(task.model, task.history)
        return {"forecast": forecast, "stable": stable, "seconds": time.perf_counter() - t0}


@dataclass(frozen=True)
class SeedTask:
    base_seed: int
    seed_index: int
    alpha: float = 0.5
    books: bool = True
    #: forecasts already made, ``forecast_key -> (forecast, stable, seconds)``
    fits: dict | None = field(default=None, repr=False, compare=False)
    #: also forecast the P-syn write intensity (the lower panels of Figs. 10–12)
    write_series: bool = field(default=True, repr=False, compare=False)


def seed_forecasts(task: SeedTask, rng: np.random.Generator) -> dict:
    """Characterization, forecast accuracy (P-syn and every window day) and the forecast books
    the schedulers replay, for one seed."""
    with single_threaded():
        return _seed_forecasts(task, rng)


def _seed_forecasts(task: SeedTask, rng: np.random.Generator) -> dict:
    _, st = seed_trace(task.base_seed, task.seed_index)
    cache = ForecastCache(st, task.alpha)
    for key, (forecast, stable, seconds) in (task.fits or {}).items():
        cache.forecasts[key] = forecast, stable
        cache.seconds[key] = seconds
    rows, series, fit_seconds = [], {}, {}
    for day in WINDOW_RANGE:
        actual = st.total[day]
        for model in ACCURACY_MODELS:
            f, stable = cache.get(model, "total", day, day)
            key = forecast_key(model, st, "total", day, day)
            fit_seconds.setdefault(model, []).append(cache.seconds[key])
            row = {"seed": task.seed_index, "day": day - WINDOW_DAY, "model": model}
            row.update(fc.scores(actual, f))
            row["stable"] = bool(stable)
            row["smape_fit"] = row["smape"]  # before the F9 scoring rule
            row["divergent"] = bool(not stable or row["smape"] > 150)
            if row["divergent"]:  # F9: scored as the worst case, its MPE is meaningless
                row.update(smape=200.0, smape100=100.0, mpe=np.nan, cum_err=np.nan)
            rows.append(row)
            if day == PSYN_DAY:
                series[("total", model)] = f
    series[("total", "actual")] = st.total[PSYN_DAY]
    if task.write_series:
        for model in ACCURACY_MODELS:
            series[("write", model)] = cache.get(model, "write", PSYN_DAY, PSYN_DAY)[0]
        series[("write", "actual")] = st.write[PSYN_DAY]
    return {
        "seed": task.seed_index,
        "characterization": characterize(st, rng),
        "accuracy": pd.DataFrame(rows),
        "alpha": alpha_sweep(st, task.seed_index),
        "series": series,
        "fit_seconds": {m: float(np.mean(s)) for m, s in fit_seconds.items()},
        "books": forecast_books(st, task.alpha, cache) if task.books else None,
    }


def alpha_sweep(st: SeedTrace, seed_index: int) -> pd.DataFrame:
    """SMAPE of the proposed model for each α: P-syn, and the weekly-trend variant's mean over
    the window days."""
    psyn = st.total[PSYN_DAY]
    return pd.DataFrame(
        [
            {
                "seed": seed_index,
                "alpha": a,
                "smape": fc.smape(
                    psyn, model_forecast("proposed", st, "total", PSYN_DAY, PSYN_DAY, a)[0]
                ),
                "smape_weekly": float(
                    np.mean(
                        [
                            fc.smape(
                                st.total[d],
                                model_forecast("proposed-weekly", st, "total", d, d, a)[0],
                            )
                            for d in WINDOW_RANGE
                        ]
                    )
                ),
            }
            for a in ALPHAS
        ]
    )


def forecast_study(base_seed: int, seeds, alpha: float, sweep_fn) -> list[dict]:
    """:func:`seed_forecasts` of every seed, the costly fits swept first (module docstring).
    The P-syn write forecasts are made for the first seed only: only its series are drawn."""
    seeds = list(seeds)
    tasks = fit_tasks(base_seed, seeds, figure_seed=seeds[0])
    results = sweep_fn(fit_forecast, tasks, desc="Holt-Winters and ARIMA fits")
    fits = {i: {} for i in seeds}
    for task, r in zip(tasks, results, strict=True):
        key = (task.model, task.column, task.days)
        fits[task.seed_index][key] = r["forecast"], r["stable"], r["seconds"]
    seed_tasks = [
        SeedTask(base_seed, i, alpha, fits=fits[i], write_series=i == seeds[0]) for i in seeds
    ]
    return sweep_fn(seed_forecasts, seed_tasks, desc="forecasts per seed")


@dataclass(frozen=True)
class Book:
    """Forecasts in trace units made at the start of each window day for that day and the
    next: arrays of shape (6, 288)."""

    total: np.ndarray
    write: np.ndarray


def forecast_books(
    st: SeedTrace, alpha: float = 0.5, cache: ForecastCache | None = None, models=BOOK_MODELS
) -> dict[str, Book]:
    """Day-ahead forecasts for every window day and the day after (A18), per model. The
    scheduler uses the proposed model with its weekly trend over the full history; ARIMA
    forecasts a cluster's next day, so one fit per cluster history serves both days; the oracle
    is the actual trace (the week before for the day after the trace ends). Holt-Winters is left
    out: its 'estimated' start optimizes 148 parameters by numerical gradients (about 1 s per
    fit) and the spec asks for HW *or* ARIMA as this reference."""
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
