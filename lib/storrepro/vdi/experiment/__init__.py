"""Notebook 03's sweeps and analyses: the forecasting study (characterization, forecast accuracy,
the schedulers' forecast books) and the scheduler runs (trace -> forecasts -> scheduler -> simpy
core pool), with the baseline's calibration, the simpy-vs-fast-path check (S10), the
sensitivity variants and the runs each reading is judged on.

The costly forecast fits (Holt-Winters: about 1 s; ridge ARIMA: a few fits of 145 regressors)
run first as one sweep task each, spread over the workers; then one task per seed scores every
model and builds the books from them (:func:`forecast_study`). Each scheduler run replays the
6-day window of one seed under one policy (:func:`run_policy`).
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from statsmodels.tsa.stattools import acf, pacf

from storrepro.sim.core_pool import CorePoolConfig, demand_cores
from storrepro.vdi import forecast as fc
from storrepro.vdi import workload as wl
from storrepro.vdi.books import (
    BOOK_MODELS,
    BOOK_SOURCES,
    Book,
    ForecastCache,
    fit_model,
    forecast_books,
    forecast_key,
    model_forecast,
)
from storrepro.vdi.config import PROTOTYPE_POOL, SystemParams
from storrepro.vdi.kernel import fluid_replay, summarize
from storrepro.vdi.metrics import (
    summary_frame,
)
from storrepro.vdi.reference import simulate
from storrepro.vdi.scheduler import (
    FixedWatermark,
    ForecastView,
    Inline,
    SmartScheduler,
    fg_need,
    lindley,
    snapshot_debt,
)
from storrepro.vdi.seeds import (
    DAY,
    PSYN_DAY,
    TREND_DAYS,
    WINDOW_DAY,
    WINDOW_DAYS,
    WINDOW_RANGE,
    SeedTrace,
    day_clusters,
    seed_trace,
    single_threaded,
)

# ---------------------------------------------------------------- characterization (F1–F4)


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

ALPHAS = (0.1, 0.3, 0.5, 0.7, 0.9)


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
    base_seed: int
    seed_index: int
    alpha: float = 0.5
    books: bool = True
    #: forecasts already made, ``forecast_key -> (forecast, stable, seconds)``
    fits: dict | None = field(default=None, repr=False, compare=False)
    #: also forecast the P-syn write intensity (the lower panels of Figs. 10–12)
    write_series: bool = field(default=True, repr=False, compare=False)
    trace: wl.TraceInput | None = field(default=None, repr=False)


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


# ---------------------------------------------------------------- scheduler runs

POLICIES = ("fixed", "fixed-wc", "smart", "idle-only", "inline")
DEFAULT_SYSTEM = SystemParams()
SCALINGS = {"offset": (1500.0, 1700.0), "peak": (0.0, 3200.0)}


@dataclass(frozen=True)
class RunTask:
    """One replay of the 6-day window under one policy."""

    base_seed: int
    seed_index: int
    policy: str
    forecast: str = "proposed"
    n_min: int = 8
    n_agg: int = 32
    pool_factor: float = 1.0
    tick_s: float = 600.0
    scaling: str = "offset"
    system: SystemParams = SystemParams()
    book: Book | None = field(default=None, repr=False, compare=False)
    trace: wl.TraceInput | None = field(default=None, repr=False)
    #: the proposed model's book, which the ``a7-forecast`` pool rule sizes P by
    pool_book: Book | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        if self.policy not in POLICIES:
            raise ValueError(f"policy must be one of {POLICIES}, got {self.policy!r}")
        if self.scaling not in SCALINGS:
            raise ValueError(f"scaling must be one of {tuple(SCALINGS)}, got {self.scaling!r}")
        if not (self.tick_s > 0 and 600.0 % self.tick_s == 0):
            raise ValueError(f"tick_s must divide 600 s, got {self.tick_s!r}")
        if self.policy == "smart" and self.book is None:
            raise ValueError("the smart policy needs a forecast book")


def _scaled_share(scale, part, whole):
    """``scale · part / whole`` per bin, 0 where ``whole`` is 0 (an idle interval of a real
    trace)."""
    return np.divide(scale * part, whole, out=np.zeros_like(whole, dtype=float), where=whole > 0)


def system_series(st: SeedTrace, scaling: str, tick_s: float):
    """Window demand (IOPS), writes (IOPS) and snapshot-debt lumps at the given tick."""
    total, write = st.window("total"), st.window("write")
    demand = wl.to_system(total, total, *SCALINGS[scaling])
    writes = _scaled_share(demand, write, total)
    reps = int(round(600.0 / tick_s))
    demand, writes = np.repeat(demand, reps), np.repeat(writes, reps)
    return demand, writes, snapshot_debt(writes, tick_s, int(round(3600.0 / tick_s)))


def a7_pool(demand, lumps, system: SystemParams, tick_s: float, forecast=None) -> float:
    """The pool size of the ``a7`` rule: the peak debt of an unlimited replay that frees debt
    only on the cores FG leaves idle (blocks). With ``forecast`` (the demand forecast per tick)
    FG is sized as the smart scheduler sizes it, by the larger of demand and forecast (the
    ``a7-forecast`` rule)."""
    sized = demand if forecast is None else np.maximum(demand, forecast)
    need = fg_need(sized, system.n_cores, system.fg_iops_per_core)
    capacity = (system.n_cores - need) * system.bg_blocks_per_core_s * tick_s
    after = lindley(0.0, lumps, capacity)
    before = np.concatenate([[0.0], after[:-1]]) + lumps
    return float(before.max())


def pool_size(
    st: SeedTrace, scaling: str, system: SystemParams, factor: float = 1.0, book: Book | None = None
) -> float:
    """P in blocks under ``system.pool_rule`` (:data:`POOL_RULES`), times ``factor``; the
    ``a7-forecast`` rule needs the proposed model's ``book`` (the forecast the smart scheduler
    sizes FG by)."""
    if system.pool_rule == "prototype":
        return factor * PROTOTYPE_POOL
    demand600, _, lumps600 = system_series(st, scaling, 600.0)
    forecast = None
    if system.pool_rule == "a7-forecast":
        if book is None:
            raise ValueError("pool rule 'a7-forecast' needs the proposed model's forecast book")
        forecast = forecast_view(book, st, scaling, 600.0).demand[:, :DAY].ravel()
    return factor * a7_pool(demand600, lumps600, system, 600.0, forecast)


def forecast_view(book: Book, st: SeedTrace, scaling: str, tick_s: float) -> ForecastView:
    ref = st.window("total")
    demand = wl.to_system(book.total, ref, *SCALINGS[scaling])
    share = np.divide(book.write, book.total, out=np.zeros_like(book.total), where=book.total > 0)
    writes = demand * np.clip(share, 0.0, 1.0)
    reps = int(round(600.0 / tick_s))
    demand, writes = np.repeat(demand, reps, axis=1), np.repeat(writes, reps, axis=1)
    tph = int(round(3600.0 / tick_s))
    lumps = np.vstack([snapshot_debt(row, tick_s, tph) for row in writes])
    return ForecastView(demand, lumps, DAY * reps)


def make_allocator(task: RunTask, pool: float, st: SeedTrace):
    s = task.system
    ticks = lambda seconds: int(round(seconds / task.tick_s))  # noqa: E731
    if task.policy in ("fixed", "fixed-wc"):
        return FixedWatermark(
            pool, task.n_min, task.n_agg, s.low, s.high, harvest=task.policy == "fixed-wc"
        )
    if task.policy == "smart":
        view = forecast_view(task.book, st, task.scaling, task.tick_s)
        return SmartScheduler(
            pool,
            view,
            s.bg_blocks_per_core_s,
            s.cap,
            ticks(s.horizon_s),
            ticks(s.window_s),
            ticks(s.replan_s),
            spread=s.spread,
        )
    if task.policy == "inline":
        return Inline(s.bg_blocks_per_core_s)
    return demand_cores


def run_policy(task: RunTask, rng: np.random.Generator) -> dict:
    """Simulate one policy on one seed; summary numbers plus the tick log."""
    with single_threaded():
        return _run_policy(task)


def _run_policy(task: RunTask) -> dict:
    _, st = seed_trace(task.base_seed, task.seed_index, task.trace)
    s = task.system
    pool_blocks = pool_size(st, task.scaling, s, task.pool_factor, task.pool_book)
    demand, _, lumps = system_series(st, task.scaling, task.tick_s)
    allocator = make_allocator(task, pool_blocks, st)
    config = CorePoolConfig(s.n_cores, s.fg_iops_per_core, s.bg_blocks_per_core_s, task.tick_s)
    pool = simulate(demand, lumps, allocator, config)
    log = pool.log.to_frame()
    out = pool.summary(log)
    out.update(
        {
            "seed": task.seed_index,
            "policy": task.policy,
            "forecast": task.forecast if task.policy == "smart" else "",
            "pool_blocks": pool_blocks,
            "max_debt_pct": 100 * out["max_debt"] / pool_blocks,
            "freed_pct": 100 * out["bg_served"] / out["debt_added"],
            "max_lump_pct": 100 * float(lumps.max()) / pool_blocks,
            "log": log,
        }
    )
    if isinstance(allocator, SmartScheduler):
        out["cff"] = np.asarray(allocator.cff_log)
        out["w_dyn_pct"] = 100 * np.asarray(allocator.w_dyn_log) / pool_blocks
        out["iterations"] = int(np.sum(allocator.iterations))
    return out


# ---------------------------------------------------------------- the notebook's studies

#: Fixed-ramp candidates (n_min -> n_agg) searched by the baseline calibration.
RAMP_GRID = tuple(
    (lo, hi) for lo in (4, 8, 16, 24, 32) for hi in (16, 24, 32, 40, 48, 56, 64) if hi >= lo
)
#: Paper targets of the fixed baseline and the half-widths of S4 used to weigh the two misses
#: (the same numbers as :data:`storrepro.vdi.claims.S4_TARGET`; a test holds them equal).
BASELINE_TARGET = {"violation_pct": (54.6, 10.0), "queued_pct": (21.7, 11.0)}


def calibration_score(violation_pct: float, queued_pct: float) -> float:
    """Distance of a fixed baseline from the paper's 54.6 % / 21.7 %, in S4 half-widths."""
    (v0, dv), (q0, dq) = BASELINE_TARGET["violation_pct"], BASELINE_TARGET["queued_pct"]
    return ((violation_pct - v0) / dv) ** 2 + ((queued_pct - q0) / dq) ** 2


@dataclass(frozen=True)
class RampTask:
    """Fixed-bucket runs of one seed for several ramps: one sweep task, as each run is short."""

    base_seed: int
    seed_index: int
    ramps: tuple[tuple[int, int], ...]
    system: SystemParams = SystemParams()
    trace: wl.TraceInput | None = field(default=None, repr=False)


def run_ramps(task: RampTask, rng: np.random.Generator) -> list[dict]:
    """The summaries (no tick logs) of the fixed bucket with each of ``task.ramps``."""
    results = []
    for lo, hi in task.ramps:
        run = RunTask(
            task.base_seed,
            task.seed_index,
            "fixed",
            n_min=lo,
            n_agg=hi,
            system=task.system,
            trace=task.trace,
        )
        result = run_policy(run, rng)
        del result["log"]
        results.append(result)
    return results


def calibrate_fixed(
    base_seed: int, seeds: int, system: SystemParams, sweep_fn, trace: wl.TraceInput | None = None
) -> pd.DataFrame:
    """Every ramp of :data:`RAMP_GRID` on every seed, scored on the mean over seeds."""
    grid = [(lo, hi) for lo, hi in RAMP_GRID if hi <= system.n_cores]
    tasks = [
        RampTask(base_seed, i, tuple(r for r in grid if r[0] == lo), system, trace)
        for i in range(seeds)
        for lo in dict.fromkeys(lo for lo, _ in grid)
    ]
    done = sweep_fn(run_ramps, tasks, desc="calibrate fixed ramp")
    by_run = {
        (ramp, task.seed_index): result
        for task, results in zip(tasks, done, strict=True)
        for ramp, result in zip(task.ramps, results, strict=True)
    }
    runs = [(ramp, i) for ramp in grid for i in range(seeds)]  # rows ordered ramp, then seed
    frame = summary_frame([by_run[run] for run in runs])
    frame["n_min"] = [lo for (lo, _), _ in runs]
    frame["n_agg"] = [hi for (_, hi), _ in runs]
    table = frame.groupby(["n_min", "n_agg"])[["violation_pct", "queued_pct"]].mean()
    table["score"] = [calibration_score(v, q) for v, q in table.to_numpy()]
    return table.sort_values("score")


@dataclass(frozen=True)
class FluidTask:
    """S10: one policy replayed by the simpy pool and by the numpy fluid reference."""

    run: RunTask


def fluid_agreement(task: FluidTask, rng: np.random.Generator) -> dict:
    """Both replays of the same policy; the largest per-tick differences."""
    with single_threaded():
        run = task.run
        _, st = seed_trace(run.base_seed, run.seed_index, run.trace)
        s = run.system
        pool_blocks = pool_size(st, run.scaling, s, run.pool_factor, run.pool_book)
        demand, _, lumps = system_series(st, run.scaling, run.tick_s)
        config = CorePoolConfig(s.n_cores, s.fg_iops_per_core, s.bg_blocks_per_core_s, run.tick_s)
        simpy_log = simulate(demand, lumps, make_allocator(run, pool_blocks, st), config)
        simpy_log = simpy_log.log.to_frame()
        fluid_log = fluid_replay(demand, lumps, make_allocator(run, pool_blocks, st), config)
        a, b = summarize(simpy_log), summarize(fluid_log)
        return {
            "seed": run.seed_index,
            "policy": run.policy,
            "simpy_violation_pct": a["violation_pct"],
            "fluid_violation_pct": b["violation_pct"],
            "simpy_queued_pct": a["queued_pct"],
            "fluid_queued_pct": b["queued_pct"],
            "max_debt_diff": float(np.max(np.abs(simpy_log["debt"] - fluid_log["debt"]))),
            "max_cfg_diff": float(np.max(np.abs(simpy_log["c_fg"] - fluid_log["c_fg"]))),
        }


def fixed_day(
    base_seed: int,
    seed_index: int,
    low: float,
    n_min: int,
    n_agg: int,
    system: SystemParams = DEFAULT_SYSTEM,
    day: int = 0,
    trace: wl.TraceInput | None = None,
) -> dict:
    """One window day (0 = Wednesday) of the fixed bucket with the band ``[low, low + 10 %]``,
    from an empty pool as at the start of the window, on the core pool: the notebook's live
    control. Summary numbers, the tick log and the pool size (set over the whole window)."""
    _, st = seed_trace(base_seed, seed_index, trace)
    demand, _, lumps = system_series(st, "offset", 600.0)
    pool_blocks = pool_size(st, "offset", system)
    high = min(1.0, low + system.high - system.low)
    allocator = FixedWatermark(pool_blocks, n_min, n_agg, low, high)
    ticks = slice(day * DAY, (day + 1) * DAY)
    config = CorePoolConfig(system.n_cores, system.fg_iops_per_core, system.bg_blocks_per_core_s)
    pool = simulate(demand[ticks], lumps[ticks], allocator, config)
    log = pool.log.to_frame()
    out = pool.summary(log)
    out.update(log=log, pool_blocks=pool_blocks, low=low, high=high)
    return out


# ---------------------------------------------------------------- readings and the pool size

#: The pool-size factors of S6's "every pool" (×1 is the run itself).
POOL_FACTORS = (0.8, 1.2)


def scheduler_set(
    base_seed: int,
    seeds,
    system: SystemParams,
    books: list[dict],
    ramp: tuple[int, int],
    sweep_fn,
    pools: bool = True,
    fixed: dict | None = None,
    trace: wl.TraceInput | None = None,
) -> dict:
    """The runs S5–S7 and S9 are judged on, under one reading: per seed the fixed bucket with
    the frozen ``ramp``, the smart scheduler with the proposed forecast and with the oracle, and
    (with ``pools``) both at the pool factors of :data:`POOL_FACTORS`. ``fixed`` reuses fixed
    runs that do not depend on the reading (``{factor: [results]}``)."""
    seeds = list(seeds)
    factors = (1.0, *POOL_FACTORS) if pools else (1.0,)
    fixed = dict(fixed or {})
    tasks = []
    for factor in factors:
        if factor not in fixed:
            tasks += [
                RunTask(
                    base_seed,
                    i,
                    "fixed",
                    n_min=ramp[0],
                    n_agg=ramp[1],
                    pool_factor=factor,
                    system=system,
                    trace=trace,
                    pool_book=books[i]["proposed"],
                )
                for i in seeds
            ]
        tasks += [
            RunTask(
                base_seed,
                i,
                "smart",
                "proposed",
                pool_factor=factor,
                system=system,
                book=books[i]["proposed"],
                trace=trace,
                pool_book=books[i]["proposed"],
            )
            for i in seeds
        ]
    tasks += [
        RunTask(
            base_seed, i, "smart", "oracle", system=system, book=books[i]["oracle"], trace=trace,
            pool_book=books[i]["proposed"],
        )
        for i in seeds
    ]
    done = sweep_fn(run_policy, tasks, desc=f"runs ({system.pool_rule}, {system.spread})")
    out = {"fixed": {f: list(v) for f, v in fixed.items()}, "smart": {}, "oracle": []}
    for task, result in zip(tasks, done, strict=True):
        if task.policy == "fixed":
            out["fixed"].setdefault(task.pool_factor, []).append(result)
        elif task.forecast == "oracle":
            out["oracle"].append(result)
        else:
            out["smart"].setdefault(task.pool_factor, []).append(result)
    return out


def idle_only_balance(st: SeedTrace, system: SystemParams, book: Book | None = None) -> dict:
    """Why P (the ``a7`` rule) is what it is: the idle-only replay's debt over the window, and P
    when one input of the rule changes. Blocks in millions."""
    demand, _, lumps = system_series(st, "offset", 600.0)
    n, per_core = system.n_cores, system.bg_blocks_per_core_s * 600.0
    need = fg_need(demand, n, system.fg_iops_per_core)
    idle = (n - need) * per_core
    before = np.concatenate([[0.0], lindley(0.0, lumps, idle)[:-1]]) + lumps

    def peak(capacity, arrivals=lumps):
        after = lindley(0.0, arrivals, capacity)
        return float((np.concatenate([[0.0], after[:-1]]) + arrivals).max()) / 1e6

    row = {
        "P (A7)": float(before.max()) / 1e6,
        "peak at": st.times[int(np.argmax(before))].strftime("%a %H:%M"),
        "debt generated": float(lumps.sum()) / 1e6,
        "idle BG capacity": float(idle.sum()) / 1e6,
        "real-valued FG cores": peak(
            (n - np.minimum(n, demand / system.fg_iops_per_core)) * per_core
        ),
    }
    q_all = float(np.quantile(st.total.ravel(), 0.99))
    q_win = float(np.quantile(st.window("total"), 0.99))
    base, amp = SCALINGS["offset"]
    d2 = base + amp * st.window("total") / q_all
    l2 = snapshot_debt(_scaled_share(d2, st.window("write"), st.window("total")), 600.0, 6)
    row["trace q99 over 35 days"] = peak(
        (n - fg_need(d2, n, system.fg_iops_per_core)) * per_core, l2
    )
    row["q99 (window / 35 days)"] = f"{q_win:.0f} / {q_all:.0f}"
    if book is not None:
        own = dataclasses.replace(system, pool_rule="a7-forecast")
        row["FG sized by max(A, Â) (A3)"] = pool_size(st, "offset", own, book=book) / 1e6
    return row


# ---------------------------------------------------------------- the notebook's tables


def workload_stats(base_seed: int, seeds, trace: wl.TraceInput | None = None) -> pd.DataFrame:
    """Per seed, the FG demand of the window as the array sees it (IOPS), its night floor
    (03–06 h), its read ratio and the snapshot debt per day (M blocks)."""
    rows = []
    for i in seeds:
        _, st = seed_trace(base_seed, i, trace)
        demand, writes, lumps = system_series(st, "offset", 600.0)
        night = (st.times.hour >= 3) & (st.times.hour < 6)
        rows.append(
            {
                "seed": i,
                "mean IOPS": demand.mean(),
                "p99 IOPS": np.quantile(demand, 0.99),
                "max IOPS": demand.max(),
                "% bins > 3200": 100 * np.mean(demand > 3200),
                "night floor (02–06 h) IOPS": demand[night].mean(),
                "read ratio": 1 - writes.sum() / demand.sum(),
                "debt per day (M blocks)": lumps.sum() / 6e6,
            }
        )
    return pd.DataFrame(rows).set_index("seed")


def policy_runs(
    base_seed: int,
    seeds,
    policy: str,
    system: SystemParams,
    sweep_fn,
    *,
    ramp: tuple[int, int] = (8, 32),
    books: list[dict] | None = None,
    forecast: str = "proposed",
    trace: wl.TraceInput | None = None,
) -> list[dict]:
    """:func:`run_policy` of one policy on every seed (the smart one fed ``forecast``'s book)."""
    tasks = [
        RunTask(
            base_seed,
            i,
            policy,
            forecast,
            n_min=ramp[0],
            n_agg=ramp[1],
            system=system,
            book=books[i][forecast] if policy == "smart" else None,
            trace=trace,
        )
        for i in seeds
    ]
    return sweep_fn(run_policy, tasks, desc=policy if policy != "smart" else f"smart ({forecast})")


def fluid_check(
    base_seed: int, seeds, system: SystemParams, books: list[dict], sweep_fn, trace=None
) -> pd.DataFrame:
    """S10: the fixed, smart and idle-only runs of every seed on the simpy pool and on its fast
    path, one row per run."""
    tasks = [
        FluidTask(RunTask(base_seed, i, p, system=system, book=books[i]["proposed"], trace=trace))
        for i in seeds
        for p in ("fixed", "smart", "idle-only")
    ]
    return pd.DataFrame(sweep_fn(fluid_agreement, tasks, desc="simpy vs fluid"))


def reference_runs(
    base_seed: int, seeds, system: SystemParams, ramp, books: list[dict], sweep_fn, trace=None
) -> list[dict]:
    """The references beside the paper's two schemes: the work-conserving fixed bucket, the
    smart scheduler fed the oracle and ridge-ARIMA books, idle-only BG and inline BG."""
    tasks = (
        [
            RunTask(
                base_seed, i, "fixed-wc", n_min=ramp[0], n_agg=ramp[1], system=system, trace=trace
            )
            for i in seeds
        ]
        + [
            RunTask(base_seed, i, "smart", m, system=system, book=books[i][m], trace=trace)
            for m in ("oracle", "arima-ridge")
            for i in seeds
        ]
        + [
            RunTask(base_seed, i, p, system=system, trace=trace)
            for p in ("idle-only", "inline")
            for i in seeds
        ]
    )
    return sweep_fn(run_policy, tasks, desc="references")


#: The sensitivity variants of section 9: label -> the RunTask fields they change.
SENSITIVITY = {
    "pool × 0.8": {"pool_factor": 0.8},
    "pool × 1.2": {"pool_factor": 1.2},
    "idle nights": {"scaling": "peak"},
    "tick 60 s": {"tick_s": 60.0},
}


def sensitivity_runs(
    base_seed: int, seeds, system: SystemParams, ramp, books: list[dict], sweep_fn, trace=None
) -> dict[str, dict[str, list[dict]]]:
    """The fixed bucket and the smart scheduler of every seed under each variant of
    :data:`SENSITIVITY`: ``{variant: {policy: [results per seed]}}``."""
    keys = [(v, p) for v in SENSITIVITY for p in ("fixed", "smart")]
    tasks = [
        RunTask(
            base_seed,
            i,
            p,
            n_min=ramp[0],
            n_agg=ramp[1],
            system=system,
            book=books[i]["proposed"] if p == "smart" else None,
            trace=trace,
            **SENSITIVITY[v],
        )
        for v, p in keys
        for i in seeds
    ]
    done = iter(sweep_fn(run_policy, tasks, desc="sensitivity"))
    out: dict[str, dict[str, list[dict]]] = {v: {} for v in SENSITIVITY}
    for v, p in keys:
        out[v][p] = [next(done) for _ in seeds]
    return out


#: The pool scales of S12 (our analysis of how S5 and S6 move with P).
POOL_SCALES = (0.8, 0.9, 1.0, 1.1, 1.2, 1.3)


def pool_scale_runs(
    base_seed: int, seeds, system: SystemParams, ramp, books: list[dict], sweep_fn, have: dict,
    trace=None,
) -> dict[float, dict[str, list[dict]]]:
    """The fixed bucket and the smart scheduler of every seed with P times each factor of
    :data:`POOL_SCALES`: ``{factor: {policy: [results per seed]}}``; ``have`` gives the runs
    already made (``{factor: {policy: results}}``), which are reused."""
    seeds = list(seeds)
    keys = [(f, p) for f in POOL_SCALES for p in ("fixed", "smart") if p not in have.get(f, {})]
    tasks = [
        RunTask(
            base_seed,
            i,
            p,
            n_min=ramp[0],
            n_agg=ramp[1],
            pool_factor=f,
            system=system,
            book=books[i]["proposed"] if p == "smart" else None,
            trace=trace,
        )
        for f, p in keys
        for i in seeds
    ]
    done = iter(sweep_fn(run_policy, tasks, desc="pool scales"))
    out = {f: dict(have.get(f, {})) for f in POOL_SCALES}
    for f, p in keys:
        out[f][p] = [next(done) for _ in seeds]
    return out


def rerun_smart(base_seed: int, alpha: float, system: SystemParams, trace=None) -> pd.DataFrame:
    """Seed 0's smart run with its trace and forecasts rebuilt from scratch: its tick log (S11)."""
    seed_trace.cache_clear()
    book = forecast_books(seed_trace(base_seed, 0, trace)[1], alpha, models=("proposed",))
    task = RunTask(
        base_seed, 0, "smart", "proposed", system=system, book=book["proposed"], trace=trace
    )
    return run_policy(task, None)["log"]


# ---------------------------------------------------------------- the readings' runs


def reading_sets(
    base_seed: int,
    seeds,
    cfg_system_under,
    primary: dict,
    books: list[dict],
    ramp: tuple[int, int],
    sweep_fn,
    labels,
    pools: bool,
    trace=None,
) -> dict[str, dict]:
    """The runs each reading's S5–S7 and S9 are judged on: ``primary`` (``{"fixed": {factor:
    results}, "smart": {...}, "oracle": [...]}``) and, per alternative label, a
    :func:`scheduler_set` under ``cfg_system_under(label)``; the fixed bucket does not spread,
    so a spreading reading reuses its runs."""
    sets = {"primary": primary}
    for label in labels:
        system = cfg_system_under(label)
        fixed = primary["fixed"] if label.startswith("spread=") else None
        sets[label] = scheduler_set(
            base_seed, seeds, system, books, ramp, sweep_fn, pools=pools, fixed=fixed, trace=trace
        )
    return sets
