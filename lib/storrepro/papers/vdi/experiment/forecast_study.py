"""The forecasting study: every model's accuracy on P-syn and each window day, the α sweep and
the forecast books the schedulers replay.

The costly forecast fits (Holt-Winters: about 1 s; ridge ARIMA: a few fits of 145 regressors)
run first as one sweep task each, spread over the workers; then one task per seed scores every
model and builds the books from them (:func:`forecast_study`)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pandas as pd

from storrepro.papers.vdi import forecast as fc
from storrepro.papers.vdi import workload as wl
from storrepro.papers.vdi.books import (
    BOOK_MODELS,
    BOOK_SOURCES,
    ForecastCache,
    fit_model,
    forecast_books,
    forecast_key,
    model_forecast,
)
from storrepro.papers.vdi.experiment.characterization import characterize
from storrepro.papers.vdi.seeds import (
    PSYN_DAY,
    WINDOW_DAY,
    WINDOW_RANGE,
    SeedTrace,
    seed_trace,
    single_threaded,
)

#: Models whose fits are worth a sweep task of their own.
FITTED_MODELS = ("holt-winters", "holt-winters-9d", "arima-ridge", "arima", "arima-3d")
ACCURACY_MODELS = (
    "proposed",
    "holt-winters",
    "arima",
    "arima-ridge",
    "arima-3d",
    "seasonal-naive",
    "proposed-weekly",
)
#: Models scored on the P-syn day only: the forecasting protocol's alternative readings.
PSYN_ONLY_MODELS = ("holt-winters-9d",)
ALPHAS = (0.1, 0.3, 0.5, 0.7, 0.9)


def forecast_requests(
    write_series: bool = True, book_models=BOOK_MODELS
) -> Iterator[tuple[str, str, int, int]]:
    """Every (model, column, target, cutoff) of the accuracy table and the books, and with
    ``write_series`` the P-syn write forecasts drawn in Figs. 10–12."""
    for day in WINDOW_RANGE:
        for model in ACCURACY_MODELS:
            yield model, "total", day, day
    for model in PSYN_ONLY_MODELS:
        yield model, "total", PSYN_DAY, PSYN_DAY
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

    STREAM: ClassVar[tuple[str, ...]] = ("base_seed", "seed_index", "model", "column", "days")
    base_seed: int
    seed_index: int
    model: str
    column: str
    days: tuple[int, ...]
    history: np.ndarray = field(compare=False)


def fit_tasks(
    base_seed: int, seeds, figure_seed: int | None = None, trace: wl.TraceInput | None = None
) -> list[FitTask]:
    """The distinct costly fits of every seed (write-intensity forecasts only for
    ``figure_seed``, whose forecasts the figures show), Holt-Winters first: the longest tasks go
    first so the workers finish together. ``trace``: a user's trace in place of the stand-in."""
    tasks = []
    for i in seeds:
        _, st = seed_trace(base_seed, i, trace)
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
    STREAM: ClassVar[tuple[str, ...]] = ("base_seed", "seed_index", "alpha", "books")
    base_seed: int
    seed_index: int
    alpha: float = 0.5
    books: bool = True
    #: forecasts already made, ``forecast_key -> (forecast, stable, seconds)``
    fits: dict | None = field(default=None, compare=False)
    #: also forecast the P-syn write intensity (the lower panels of Figs. 10–12)
    write_series: bool = field(default=True, compare=False)
    trace: wl.TraceInput | None = None


def seed_forecasts(task: SeedTask, rng: np.random.Generator) -> dict:
    """Characterization, forecast accuracy (P-syn and every window day) and the forecast books
    the schedulers replay, for one seed."""
    with single_threaded():
        return _seed_forecasts(task, rng)


def _seed_forecasts(task: SeedTask, rng: np.random.Generator) -> dict:
    _, st = seed_trace(task.base_seed, task.seed_index, task.trace)
    cache = ForecastCache(st, task.alpha)
    for key, (forecast, stable, seconds) in (task.fits or {}).items():
        cache.forecasts[key] = forecast, stable
        cache.seconds[key] = seconds
    rows, series, fit_seconds = [], {}, {}
    for day in WINDOW_RANGE:
        actual = st.total[day]
        for model in ACCURACY_MODELS + (PSYN_ONLY_MODELS if day == PSYN_DAY else ()):
            f, stable = cache.get(model, "total", day, day)
            key = forecast_key(model, st, "total", day, day)
            fit_seconds.setdefault(model, []).append(cache.seconds[key])
            rows.append(score_row(task.seed_index, day, model, actual, f, stable))
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
        "alpha_accuracy": alpha_accuracy(st, task.seed_index),
        "series": series,
        "fit_seconds": {m: float(np.mean(s)) for m, s in fit_seconds.items()},
        "books": forecast_books(st, task.alpha, cache) if task.books else None,
    }


def score_row(seed: int, day: int, model: str, actual, forecast, stable: bool) -> dict:
    """One accuracy row: the scores of ``forecast`` of window day ``day``; a divergent fit (an
    unstable AR part, or SMAPE above 150 %) is scored as the worst case (the F9 rule)."""
    row = {"seed": seed, "day": day - WINDOW_DAY, "model": model}
    row.update(fc.scores(actual, forecast))
    row["stable"] = bool(stable)
    row["smape_fit"] = row["smape"]  # before the F9 scoring rule
    row["divergent"] = bool(not stable or row["smape"] > 150)
    if row["divergent"]:  # F9: scored as the worst case, its MPE is meaningless
        row.update(smape=200.0, smape100=100.0, mpe=np.nan, cum_err=np.nan)
    return row


def alpha_accuracy(st: SeedTrace, seed_index: int) -> pd.DataFrame:
    """The accuracy rows of the proposed model (3 cluster days) on every window day at each α
    of :data:`ALPHAS`, with an ``alpha`` column: the ``forecast_alpha`` reading's inputs."""
    rows = []
    for a in ALPHAS:
        for day in WINDOW_RANGE:
            f = model_forecast("proposed", st, "total", day, day, a)[0]
            rows.append({**score_row(seed_index, day, "proposed", st.total[day], f, True),
                         "alpha": a})
    return pd.DataFrame(rows)


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


def forecast_study(
    base_seed: int, seeds, alpha: float, sweep_fn, trace: wl.TraceInput | None = None
) -> list[dict]:
    """:func:`seed_forecasts` of every seed, the costly fits swept first (module docstring).
    The P-syn write forecasts are made for the first seed only: only its series are drawn."""
    seeds = list(seeds)
    tasks = fit_tasks(base_seed, seeds, figure_seed=seeds[0], trace=trace)
    results = sweep_fn(fit_forecast, tasks, desc="Holt-Winters and ARIMA fits")
    fits = {i: {} for i in seeds}
    for task, r in zip(tasks, results, strict=True):
        key = (task.model, task.column, task.days)
        fits[task.seed_index][key] = r["forecast"], r["stable"], r["seconds"]
    seed_tasks = [
        SeedTask(base_seed, i, alpha, fits=fits[i], write_series=i == seeds[0], trace=trace)
        for i in seeds
    ]
    return sweep_fn(seed_forecasts, seed_tasks, desc="forecasts per seed")
