"""The sweeps and analyses of notebook 01: the detection benchmark (every method on every CRAN
and synthetic series) and the scheduling study (every scheduler on each surrogate workload).

A :class:`SeriesTask` is a run of consecutive series of one dataset (a few CRAN series, or
:data:`SERIES_PER_TASK` synthetic ones, so that each task is worth shipping to a worker); a
worker loads its series itself (CRAN files from the task's source directory, synthetic series
from the generator's seed), so tasks stay small. :func:`run_series` returns, per series, every
method's estimate; the theta sweep is read from PrecisePeriod's full growing-window trace (the
window schedule does not depend on theta, see
:func:`~storrepro.papers.periodicity.precise_period.decide`). :func:`run_task` runs any task of
the notebook's sweeps: the first one holds the series and, beside them, the fit of the
surrogate's arrival seconds (:class:`ArrivalFit`); the scheduling replicates, which use that fit,
are drawn after it by the notebook's replicate pool (:func:`draw_replicates`).
"""

from __future__ import annotations

import copy
import math
from dataclasses import dataclass, field, replace
from functools import lru_cache

import numpy as np
import pandas as pd

from storrepro.papers.periodicity import examples, scheduling
from storrepro.papers.periodicity.experiment.calibration import (
    calibrate_load,
    calibrate_ssds_differ,
    fit_sigma_alone,
    skew_factor,
)
from storrepro.papers.periodicity.findfrequency import (
    RUnavailable,
    findfrequency,
    findfrequency_r,
    r_findfrequency,
)
from storrepro.papers.periodicity.kernel import IntervalDraws, SsdLatencies
from storrepro.papers.periodicity.metrics import scores, scores_macro
from storrepro.papers.periodicity.precise_period import (
    HORIZON_READING,
    HORIZONS,
    VERIFICATIONS,
    PrecisePeriod,
    decide,
    forecast,
    pcc,
    precise_period,
    reading_fields,
    single_verification_best,
)
from storrepro.papers.periodicity.sazed import sazed
from storrepro.papers.periodicity.seasonlength import seasonlength
from storrepro.papers.periodicity.ssd_latency import SMOOTH
from storrepro.papers.periodicity.workload import (
    MINUTES_PER_INTERVAL,
    SurrogateSpec,
    Workload,
    bin_sum,
    from_trace,
    generate,
    on_ssds,
)
from storrepro.suite.data import synthetic
from storrepro.suite.data.cran import load_cran
from storrepro.suite.parallel import task_rng
from storrepro.suite.traces.needs import selected

BASELINES = ("findFrequency", "seasonLength", "SAZED_maj", "SAZED_opt")
METHODS = (*BASELINES, "PrecisePeriod")
ABLATIONS = ("PrecisePeriod", "No Preprocessing", "Single Verification", "Single (no θ gate)")
THETAS = (0.5, 0.6, 0.7, 0.8, 0.9)
TOLERANCES = (0.0, 0.02)
#: The primary reading of the verification target (see :class:`~storrepro.papers.periodicity.config.
#: PrecisePeriodConfig`); the others are run beside it as columns ``"<column> @<value>"``, and
#: so are the minimum horizon's other values, as ``"<column> @min_horizon=<value>"``.
PRIMARY_VERIFICATION = "preprocessed"
PRIMARY_HORIZON = "11"
#: Every reading of PrecisePeriod the benchmark runs (keys of
#: :func:`~storrepro.papers.periodicity.precise_period.reading_fields`), the primary first.
DETECTOR_READINGS = (*VERIFICATIONS, *(f"{HORIZON_READING}={h}" for h in HORIZONS
                                       if h != PRIMARY_HORIZON))
#: The columns a verification reading changes (every one is PrecisePeriod's).
READING_COLUMNS = (
    "PrecisePeriod",
    *(f"theta={t:g}" for t in THETAS),
    "No Preprocessing",
    "Single Verification",
    "Single (no θ gate)",
)
#: Sensitivity only (not a reading: the paper keeps instantaneous peaks).
SPIKES_REMOVED = "PrecisePeriod, isolated spikes removed"

#: Sensitivity variants of PrecisePeriod (its open constants): name -> PrecisePeriod fields.
VARIANTS = {
    "wavelet db2": {"wavelet": "db2"},
    "wavelet sym4": {"wavelet": "sym4"},
    "J_max 3": {"jmax": 3},
    "J_max 4": {"jmax": 4},
    "J_max 6": {"jmax": 6},
    "no level 0": {"level0": False},
    "K_max = L/3": {"kmax_fraction": 1 / 3},
    "candidates 'all'": {"aggregation": "all"},
    "ACF Eq. (5) literal": {"acf": "eq5"},
}


#: Generator sensitivity (issue 16): variant -> SyntheticSpec fields. Each variant regenerates
#: the first series of the synthetic set from the same seed with one knob changed (the random
#: draws are the same, so the comparison with the paper's sine set is paired).
GENERATOR_VARIANTS = {
    "outliers ±U(1, 3)": {"outlier_magnitude": (1.0, 3.0)},
    "outliers ±U(3, 8)": {"outlier_magnitude": (3.0, 8.0)},
    "noise σ² ≤ 0.1": {"noise_var_max": 0.1},
    "noise σ² ≤ 1.5": {"noise_var_max": 1.5},
    "square wave": {"waveform": "square"},
    "sawtooth": {"waveform": "sawtooth"},
    "pulse train, 10 % duty": {"waveform": "pulse"},
}
GENERATOR_PREFIX = "generator: "

#: Series per task: a synthetic series takes about 50 ms, a CRAN one (with the sensitivity
#: variants) up to a second for the longest.
SERIES_PER_TASK = {"cran": 2, "synthetic": 20}


@dataclass(frozen=True)
class SeriesTask:
    """Series ``start..stop-1`` of one dataset; ``source`` is the CRAN directory or the
    synthetic seed, ``count`` the number of series in the dataset."""

    dataset: str  # "cran" or "synthetic"
    start: int
    stop: int
    source: str
    count: int
    variants: bool = False
    generator: str = ""  # a GENERATOR_VARIANTS key ('': the paper's generator)


@lru_cache(maxsize=4)
def _cran(source: str):
    return load_cran(source or None)


@lru_cache(maxsize=4)
def _synthetic(seed: int, count: int, generator: str = ""):
    fields = GENERATOR_VARIANTS[generator] if generator else {}
    return synthetic.generate(count, seed=seed, spec=synthetic.SyntheticSpec(**fields))


def series_of(
    dataset: str, index: int, source: str, count: int, generator: str = ""
) -> tuple[np.ndarray, float, dict]:
    """Values, true period and descriptive fields of one series."""
    if dataset == "cran":
        s = _cran(source)[index]
        return s.values, s.frequency, {"key": s.key, "length": s.values.size}
    if dataset == "synthetic":
        s = _synthetic(int(source), count, generator)[index]
        info = {
            "key": f"synthetic::{index}",
            "length": s.values.size,
            "outlier_ratio": s.outlier_ratio,
            "noise_var": s.noise_var,
            "slope": s.slope,
        }
        return s.values, float(s.period), info
    raise ValueError(f"dataset = {dataset!r}: expected 'cran' or 'synthetic'")


def run_series(task: SeriesTask, rng: np.random.Generator | None = None) -> list[dict]:
    """Every method on each series of the task, one row per series (the methods are
    deterministic; ``rng`` is unused)."""
    rows = []
    label = GENERATOR_PREFIX + task.generator if task.generator else task.dataset
    for i in range(task.start, task.stop):
        x, truth, info = series_of(task.dataset, i, task.source, task.count, task.generator)
        rows.append(series_row(x, truth, {**info, "dataset": label}, task.variants))
    return rows


def series_row(x: np.ndarray, truth: float, row: dict, variants: bool = False) -> dict:
    """Every method's estimate of the period of ``x`` (true period ``truth``), added to ``row``."""
    row = {**row, "truth": truth}
    row["findFrequency"] = findfrequency(x)
    row["seasonLength"] = seasonlength(x)
    row["SAZED_maj"] = sazed(x, "maj")
    row["SAZED_opt"] = sazed(x, "opt")
    caches: dict = {}  # the readings share PrecisePeriod's windows (same numbers, once)
    for reading in DETECTOR_READINGS:  # only PrecisePeriod's columns depend on the reading
        suffix = "" if reading == PRIMARY_VERIFICATION else f" @{reading}"
        for column, value in precise_columns(x, reading, caches).items():
            row[column + suffix] = value
    row[SPIKES_REMOVED] = PrecisePeriod(spikes="remove").detect(x)
    if variants:
        for name, fields in VARIANTS.items():
            row[name] = PrecisePeriod(**fields).detect(x)
    return row


def precise_columns(x: np.ndarray, reading: str, caches: dict | None = None) -> dict:
    """PrecisePeriod, its θ sweep and its ablations on ``x`` under one reading (a key of
    :func:`~storrepro.papers.periodicity.precise_period.reading_fields`; ``caches``: kept between
    the readings of one ``x``, see
    :meth:`~storrepro.papers.periodicity.precise_period.PrecisePeriod. windows`)."""
    caches = {} if caches is None else caches
    fields = reading_fields(reading)
    pp = PrecisePeriod(**fields)
    trace = (
        list(pp.windows(x, stop_at_first=False, cache=caches.setdefault("full", {})))
        if x.size >= pp.L0_min
        else []
    )
    out = {"PrecisePeriod": decide(trace, pp.theta)}
    for theta in THETAS:
        out[f"theta={theta:g}"] = decide(trace, theta)
    out["No Preprocessing"] = PrecisePeriod(preprocess=False, **fields).detect(
        x, cache=caches.setdefault("no preprocessing", {})
    )
    best, score = single_verification_best(x, **fields)
    out["Single Verification"] = best if best is not None and score >= pp.theta else None
    out["Single (no θ gate)"] = best
    return out


def reading_view(results: pd.DataFrame, verification: str) -> pd.DataFrame:
    """``results`` with PrecisePeriod's columns as under the verification reading (the
    baselines' columns are shared by every reading)."""
    if verification == PRIMARY_VERIFICATION:
        return results
    view = results.copy()
    for column in READING_COLUMNS:
        view[column] = results[f"{column} @{verification}"]
    return view


def tasks_for(
    dataset: str, count: int, source: str = "", variants: bool = False, generator: str = ""
):
    """The series tasks of a dataset's first ``count`` series (``generator``: of a generator
    variant's synthetic set; rows labelled ``"generator: <variant>"``)."""
    size = SERIES_PER_TASK[dataset]
    return [
        SeriesTask(dataset, start, min(start + size, count), source, count, variants, generator)
        for start in range(0, count, size)
    ]


def generator_tasks(count: int, seed: int) -> list[SeriesTask]:
    """Every generator variant's first ``count`` synthetic series."""
    if count <= 0:
        return []
    return [t for g in GENERATOR_VARIANTS for t in tasks_for("synthetic", count, str(seed),
                                                             generator=g)]


def run_task(task, rng: np.random.Generator) -> list[dict] | dict:
    """:func:`run_series`, :func:`run_replicate`, :func:`run_one_workload`,
    :func:`run_both_arrivals` or :func:`run_arrival_fit`, by the task's class."""
    if isinstance(task, OneWorkload):
        return run_one_workload(task)
    if isinstance(task, ArrivalFit):
        return run_arrival_fit(task, rng)
    if isinstance(task, BothArrivals):
        return run_both_arrivals(task)
    if isinstance(task, SmoothArrivals):
        return run_replicate(task.smooth_task(), task_rng(task.seed, task.uneven))
    if isinstance(task, UnevenSSDs):
        return run_replicate(task.task, rng)
    if isinstance(task, AtMeanTraffic):
        return run_replicate(task.task, task_rng(task.seed, task.task))
    if isinstance(task, SchedulingTask):
        return run_replicate(task, rng)
    return run_series(task, rng)


def score_table(results: pd.DataFrame, methods, tolerances=TOLERANCES) -> pd.DataFrame:
    """Definition-A scores per (dataset, tolerance, method) in long form."""
    rows = []
    for dataset, part in results.groupby("dataset", sort=False):
        for tol in tolerances:
            for method in methods:
                est = [None if pd.isna(e) else int(e) for e in part[method]]
                rows.append(
                    {
                        "dataset": dataset,
                        "tolerance": tol,
                        "method": method,
                        **scores(est, part["truth"].tolist(), tol),
                    }
                )
    return pd.DataFrame(rows)


def table1(scored: pd.DataFrame) -> pd.DataFrame:
    """Table 1 layout: methods as rows; (dataset, tolerance, Acc/F1) as columns."""
    wide = scored.pivot_table(
        index="method", columns=["dataset", "tolerance"], values=["accuracy", "f1"], sort=False
    )
    return wide.reorder_levels([1, 2, 0], axis=1).sort_index(axis=1)


#: Traffic overhead budgets (Figs 13-15) and moves per 6-h interval (Fig. 12) of the scheduling
#: study.
OVERHEADS = (0.005, 0.01, 0.02, 0.05, 0.1)
MOVE_COUNTS = (1, 2, 4, 8, 16)


def detector_readings(cfg) -> tuple[str, ...]:
    """The readings of PrecisePeriod a notebook run computes, the primary first: every value of
    ``verification_target`` and, as ``"min_horizon=<value>"``, every other value of
    ``min_horizon`` (keys of
    :func:`~storrepro.papers.periodicity.precise_period.reading_fields`)."""
    target, horizon = cfg.readings["verification_target"], cfg.readings[HORIZON_READING]
    return (target.primary, *target.others(),
            *(f"{HORIZON_READING}={h}" for h in horizon.others()))


def _regimes(cfg) -> tuple[bool, bool]:
    """(calibrated, skewed): whether the load is calibrated to ``sched_target_tail_ms`` at all,
    and whether by skewing the surrogate's volumes (the primary ``load_regime``; a real trace
    has no volumes to skew and is scaled instead)."""
    calibrated = cfg.sched_target_tail_ms > 0
    return calibrated, calibrated and not cfg.trace


def scheduling_spec(cfg) -> SurrogateSpec:
    """The surrogate of the primary load regime."""
    return SurrogateSpec(ssds=cfg.sched_ssds, segments=cfg.sched_segments,
                         history_days=cfg.sched_history_days, intervals=cfg.sched_intervals)


def arrival_fitted(cfg) -> bool:
    """Whether the run fits the arrival seconds (a skewed surrogate with a mean-tail target)."""
    return _regimes(cfg)[1] and cfg.sched_target_mean_tail_ms > 0


def notebook_tasks(cfg) -> list:
    """The tasks of notebook 01's first sweep (and ``make bench``'s): the arrival fit, when the
    run fits one (:class:`ArrivalFit`, once for the surrogate: every replicate then uses its
    seconds), then the series in small batches. The scheduling replicates come after, from
    the pool (:func:`replicate_tasks`)."""
    fit = [ArrivalFit(scheduling_spec(cfg), cfg.sched_target_tail_ms,
                      cfg.sched_target_mean_tail_ms)] if arrival_fitted(cfg) else []
    return (
        fit
        + tasks_for("cran", cfg.cran_series, cfg.cran_dir, variants=cfg.sensitivity)
        + tasks_for("synthetic", cfg.synthetic_series, str(cfg.seed))
        + generator_tasks(cfg.generator_series, cfg.seed)
    )


def replicate_tasks(cfg, index: int, arrival_seconds: int = SMOOTH) -> list:
    """The tasks of scheduling replicate ``index`` (one workload seed), the primary first:
    ``sched_ssds`` SSDs whose volumes are skewed until hash placement's worst SSD reaches
    ``sched_target_tail_ms`` (:class:`UnevenSSDs`, the primary ``load_regime``), each minute's
    requests arriving in its first ``arrival_seconds`` seconds, under every reading of
    PrecisePeriod; then, under the primary reading only, the same workload with requests
    spread over every minute (:class:`SmoothArrivals`, the reading ``arrival_seconds=smooth``,
    when the seconds are fitted: a :class:`BothArrivals` with the primary), and the alternative
    load regimes (:class:`EvenLoads`): the even-load surrogate, the same workload on
    ``sched_even_ssds`` SSDs, scaled to that target (``worst_ssd_10ms``) and unscaled
    (``paper_mean_traffic``); all of them one :class:`OneWorkload` task, which generates the
    workload once. Without a target nothing is calibrated and no alternative runs; with a trace
    the primary scales it and only the unscaled alternative runs."""
    readings = detector_readings(cfg)
    calibrated, skewed = _regimes(cfg)
    spec = scheduling_spec(cfg)
    trace, trace_format = selected(cfg)  # the selected part of a user's trace

    def task(spec, verifications, **load):
        return SchedulingTask(index, spec, OVERHEADS, MOVE_COUNTS, verifications=verifications,
                              trace=trace, trace_format=trace_format, **load)

    if not calibrated:
        return [task(spec, readings)]
    if not skewed:
        sched = task(spec, readings, target_tail_ms=cfg.sched_target_tail_ms)
        return [sched, AtMeanTraffic(replace(sched, verifications=readings[:1],
                                             target_tail_ms=0.0), cfg.seed)]
    uneven = UnevenSSDs(task(spec, readings, skew_target_ms=cfg.sched_target_tail_ms,
                             arrival_seconds=arrival_seconds))
    primary = BothArrivals(SmoothArrivals(uneven, cfg.seed)) if arrival_fitted(cfg) else uneven
    scaled = task(replace(spec, ssds=cfg.sched_even_ssds), readings[:1],
                  target_tail_ms=cfg.sched_target_tail_ms)
    flat = AtMeanTraffic(replace(scaled, target_tail_ms=0.0), cfg.seed)
    return [OneWorkload(primary, EvenLoads(scaled, flat))]


#: The alternative load regimes of a replicate bundle (:func:`replicate_bundle`).
REGIMES = ("worst_ssd_10ms", "paper_mean_traffic")


def pool_tables(bundles: list[dict], kind: str, reading: str) -> dict[str, pd.DataFrame]:
    """The ``"flows"`` and ``"latencies"`` tables (:func:`flows_table`, :func:`latency_table`)
    of one kind of run of each replicate bundle — ``"sched"``, ``"smooth"`` or a load regime of
    :data:`REGIMES` — under PrecisePeriod's reading ``reading``."""
    runs = [b[kind] if kind in b else b["regimes"][kind] for b in bundles]
    results = reading_results(runs, reading)
    return {"flows": flows_table(results), "latencies": latency_table(results)}


def replicate_bundle(done: list, cfg) -> dict:
    """One replicate's results (of its :func:`replicate_tasks`, in order) by load regime and
    arrival reading: ``{"sched", "smooth", "regimes": {regime: result}}``, the primary's own
    result where an alternative did not run."""
    calibrated, skewed = _regimes(cfg)
    sched = done[0]
    if not calibrated:
        return {"sched": sched, "smooth": sched,
                "regimes": {"worst_ssd_10ms": sched, "paper_mean_traffic": sched}}
    if not skewed:
        return {"sched": sched, "smooth": sched,
                "regimes": {"worst_ssd_10ms": sched, "paper_mean_traffic": done[1]}}
    primary, (scaled, flat) = done[0]
    sched, smooth = primary if arrival_fitted(cfg) else (primary, primary)
    return {"sched": sched, "smooth": smooth,
            "regimes": {"worst_ssd_10ms": scaled, "paper_mean_traffic": flat}}


def draw_replicates(cfg, arrival_seconds: int, run=None):
    """The scheduling pool's ``draw(indices)``: each replicate's :func:`replicate_tasks` run
    on one sweep (``run(tasks)``; default serial, each task on its stream from the run's
    seed), then bundled (:func:`replicate_bundle`)."""
    def draw(indices) -> list[dict]:
        parts = [replicate_tasks(cfg, i, arrival_seconds) for i in indices]
        tasks = [t for part in parts for t in part]
        done = run(tasks) if run else [run_task(t, task_rng(cfg.seed, t)) for t in tasks]
        out, k = [], 0
        for part in parts:
            out.append(replicate_bundle(done[k:k + len(part)], cfg))
            k += len(part)
        return out
    return draw


# ---------------------------------------------------------------- the scheduling study
def high_percentiles(x: np.ndarray, qs: tuple[float, ...]) -> list:
    """``list(np.percentile(x, qs, axis=-1))`` (method 'linear'), the same numbers: the order
    statistics it interpolates between from one partition of ``x`` at the lowest of them (one
    kth, which numpy selects several times faster than the handful ``np.percentile`` asks
    for) and a sort of the values above it, then its interpolation (``_lerp``: from the lower
    value below gamma 0.5, from the upper one from it), value for value. ``np.percentile``
    itself where that does not hold: a NaN, fewer than two values, a percentile of 100."""
    x = np.asarray(x, dtype=float)
    n = x.shape[-1]
    virtual = [(n - 1) * (q / 100) for q in qs]  # as np.percentile: q / 100, then (n - 1) q
    if n < 2 or not all(0 <= v < n - 1 for v in virtual):
        return list(np.percentile(x, qs, axis=-1))
    lo = math.floor(min(virtual))
    tail = np.sort(np.partition(x, lo, axis=-1)[..., lo:], axis=-1)
    if np.isnan(tail[..., -1]).any():  # a NaN sorts last: np.percentile's answer is NaN
        return list(np.percentile(x, qs, axis=-1))
    out = []
    for v in virtual:
        below = math.floor(v)
        gamma = v - below
        a, b = tail[..., below - lo], tail[..., below + 1 - lo]
        diff = b - a
        out.append(b - diff * (1 - gamma) if gamma >= 0.5 else a + diff * gamma)
    return out


def evaluate(
    traffic: np.ndarray, placement: np.ndarray, ssds: int, latencies: SsdLatencies | None,
    reference: tuple[np.ndarray, np.ndarray] | None = None,
) -> dict:
    """Tail flow (and, given ``latencies``, the interval's draws, per-SSD latency) of an
    interval's actual ``traffic`` (segments × minutes, from :func:`scheduling.interval_traffic`)
    under ``placement``; ``reference``: another placement and its load of ``traffic``
    (:func:`scheduling.ssd_load`)."""
    load = scheduling.ssd_load(traffic, placement, ssds, reference)  # bytes per minute
    p99, p999 = high_percentiles(load.ravel(), (99, 99.9))  # one partition, each as alone
    out = {
        "p99_flow": float(p99),
        "p999_flow": float(p999),
        "max_ssd_p99_flow": float(high_percentiles(load, (99,))[0].max()),
    }
    if latencies is not None:
        out["mean_latency"], out["tail_latency"] = latencies(load)
        out["peak_minute_bytes"] = load.max(axis=1)  # what an overloaded SSD's tail meets
    return out


@dataclass(frozen=True)
class SchedulingTask:
    """One surrogate workload (a replicate) and every method × budget on its intervals."""

    replicate: int
    spec: SurrogateSpec
    overheads: tuple[float, ...]
    move_counts: tuple[int, ...]
    detection_sample: int = 300  # capped at a quarter of the segments
    #: PrecisePeriod's verification readings, the primary first: PreciseScheduling (and the
    #: detection and forecast checks) run under each; hash and the history methods once.
    #: Out of the repr, which seeds the task's random stream: the workload is the same whatever
    #: readings run on it.
    verifications: tuple[str, ...] = field(default=("preprocessed",), repr=False)
    #: > 0: scale the workload's traffic so that hash placement's worst SSD reaches this 99.99 %
    #: latency (ms) in the first interval (the paper's regime: ≈ 10 ms on a single SSD); out
    #: of the repr too, so the calibrated workload is the same workload, scaled.
    target_tail_ms: float = field(default=0.0, repr=False)
    #: > 0: instead, skew the segment volumes (the total traffic kept) until hash placement's
    #: worst SSD reaches this 99.99 % latency (:func:`.calibration.fit_sigma`); out of the repr
    #: too.
    skew_target_ms: float = field(default=0.0, repr=False)
    #: The seconds of each minute in which an SSD's requests arrive (60: spread over the
    #: minute), fitted once for the surrogate (:class:`ArrivalFit`); out of the repr too, so
    #: the smooth twin (:class:`SmoothArrivals`) draws the same workload.
    arrival_seconds: int = field(default=SMOOTH, repr=False)
    #: A block trace replacing the surrogate (``''``: the surrogate) and its format (``''``:
    #: detected); out of the repr as well, so the surrogate's tasks keep their random streams.
    trace: str = field(default="", repr=False)
    trace_format: str = field(default="", repr=False)


@dataclass(frozen=True)
class UnevenSSDs:
    """A replicate of the primary load regime (``task`` skews its volumes), wrapped: its repr
    seeds the replicate's random stream (from which the smooth twin and the load regimes of a
    :class:`OneWorkload` draw their workload too), which then differs from a plain
    :class:`SchedulingTask`'s with the same surrogate settings."""

    task: SchedulingTask


@dataclass(frozen=True)
class ArrivalFit:
    """The fit of the seconds of each minute in which requests arrive, made once for the
    surrogate on a workload of its own (not one of the replicates judged): volumes skewed until
    hash placement's worst SSD is at ``target_ms`` and the seconds until its mean per-SSD tail
    is at ``mean_target_ms`` (:func:`.calibration.calibrate_ssds_differ`)."""

    spec: SurrogateSpec
    target_ms: float
    mean_target_ms: float


def run_arrival_fit(fit: ArrivalFit, rng: np.random.Generator) -> dict:
    """The fit's record (``arrival_seconds``, ``volume_sigma``, every (seconds, sigma) tried),
    drawn as a replicate draws its workload and its intervals' latency seeds."""
    w = generate(rng, fit.spec)
    seeds = [int(rng.integers(1 << 31)) for _ in range(fit.spec.intervals)]
    return calibrate_ssds_differ(w, fit.target_ms, fit.mean_target_ms, seeds)[2]


@dataclass(frozen=True)
class SmoothArrivals:
    """The primary replicate ``uneven`` with each minute's requests spread over the whole
    minute (the reading ``arrival_seconds=smooth``), under the primary reading of
    PrecisePeriod: the same workload, as it draws from the stream ``uneven`` has under the
    sweep's ``seed``; its volumes' sigma fitted again, at 60 seconds."""

    uneven: UnevenSSDs
    seed: int

    def smooth_task(self) -> SchedulingTask:
        """The replicate's task with smooth arrivals, under the primary reading only."""
        task = self.uneven.task
        return replace(task, arrival_seconds=SMOOTH, verifications=task.verifications[:1])


@dataclass(frozen=True)
class BothArrivals:
    """The primary replicate (``twin.uneven``, at the fitted arrival seconds) and its smooth
    twin ``twin``, run on one generated workload by :func:`run_both_arrivals`. The sweep's own
    stream for this wrapper is not used."""

    twin: SmoothArrivals


def run_both_arrivals(pair: BothArrivals, rng: np.random.Generator | None = None,
                      w: Workload | None = None, detected: dict | None = None) -> list[dict]:
    """``[run_task(pair.twin.uneven), run_task(pair.twin)]`` from one generated workload: the
    same numbers as the two tasks run apart (both draw it from the stream the primary has under
    the sweep's seed; each skews its own copy in place), with one generation and one detection
    of each segment's periods instead of two (the twin's skew only rescales each series).
    ``rng``, ``w``: that stream and the workload already drawn from it (``w`` is skewed in
    place); ``detected``: as :func:`run_replicate`'s."""
    uneven = pair.twin.uneven
    if uneven.task.trace:
        raise ValueError("BothArrivals: expected a surrogate replicate, not a trace")
    if w is None:
        rng = task_rng(pair.twin.seed, uneven)
        w = generate(rng, uneven.task.spec)
    twin_rng, twin_w = copy.deepcopy(rng), copy.deepcopy(w)
    detected = {} if detected is None else detected
    return [run_replicate(uneven.task, rng, w, detected),
            run_replicate(pair.twin.smooth_task(), twin_rng, twin_w, detected)]


@dataclass(frozen=True)
class OneWorkload:
    """Every run of one scheduling replicate on one generated workload, drawn from the stream
    the primary (``primary``: a :class:`BothArrivals`, or an :class:`UnevenSSDs` when the
    seconds are not fitted) has under the sweep's seed: the primary's runs, and the
    alternative load regimes (``even``) on the same segments on the even-load surrogate's SSDs
    (:func:`~storrepro.papers.periodicity.workload.on_ssds`), so that the regimes differ by
    their load alone. The sweep's own stream for this wrapper is not used."""

    primary: BothArrivals | UnevenSSDs
    even: EvenLoads


def run_one_workload(task: OneWorkload) -> tuple:
    """``(the primary's result(s), [the scaled even-load run, the unscaled one])``: one
    generation, and one detection of each segment's periods for every run (a period does not
    depend on its series' scale); each run continues the stream from where the generation
    left it."""
    both = isinstance(task.primary, BothArrivals)
    uneven = task.primary.twin.uneven if both else task.primary
    seed = task.primary.twin.seed if both else task.even.flat.seed
    rng = task_rng(seed, uneven)
    w = generate(rng, uneven.task.spec)
    even_w, even_rng, detected = on_ssds(w, task.even.task.spec.ssds), copy.deepcopy(rng), {}
    if both:
        primary = run_both_arrivals(task.primary, rng, w, detected)
    else:
        primary = run_replicate(uneven.task, rng, w, detected)
    return primary, run_even_loads(task.even, even_rng, even_w, detected)


@dataclass(frozen=True)
class AtMeanTraffic:
    """A scheduling replicate (``task``, with no load target) at the paper's mean traffic: the
    same workload as the calibrated replicate, since it draws from the stream that ``task``
    (whose repr leaves out the load target and the readings) has under the sweep's ``seed``."""

    task: SchedulingTask
    seed: int


@dataclass(frozen=True)
class EvenLoads:
    """The even-load replicate scaled to the load target (``task``) and the same replicate at
    the paper's mean traffic (``flat``, whose ``task`` is ``task`` without the target): run by
    :func:`run_even_loads` on one workload (within a :class:`OneWorkload`, the primary's)."""

    task: SchedulingTask
    flat: AtMeanTraffic


def run_even_loads(pair: EvenLoads, rng: np.random.Generator, w: Workload,
                   detected: dict | None = None) -> list[dict]:
    """``[run_replicate(pair.task), run_replicate(pair.flat)]`` on the workload ``w`` (of
    ``pair.task``'s spec), each continuing ``rng``: the unscaled run leaves the workload as it
    is, the scaled one then scales it in place. ``detected``: as :func:`run_replicate`'s."""
    if pair.task.trace or pair.flat.task.target_tail_ms > 0 or pair.flat.task.skew_target_ms > 0:
        raise ValueError("EvenLoads: expected a surrogate replicate and its unscaled twin")
    if w.spec != pair.task.spec:
        raise ValueError(f"EvenLoads: the workload's spec {w.spec} is not the task's "
                         f"{pair.task.spec}")
    detected = {} if detected is None else detected
    flat = run_replicate(pair.flat.task, copy.deepcopy(rng), w, detected)
    return [run_replicate(pair.task, rng, w, detected), flat]


def detection_check(
    w: Workload, ids: np.ndarray, verification: str = "preprocessed", caches: dict | None = None,
    detected: dict | None = None,
) -> dict:
    """E1: PrecisePeriod on the sampled segments' history (10-min bins, read and write).

    Returns how many were found periodic and how many of those have a planted period within
    ±2 % of the found one (in minutes; read or write side); also how many sampled segments
    have a planted period and how many of those PrecisePeriod cannot verify from this history
    at all (3T of history plus max(T, min_horizon) future samples do not fit).
    """
    caches = {} if caches is None else caches  # as in scheduling.precise_prediction
    detected = {} if detected is None else detected  # by reading, segment and side
    hist = slice(0, w.spec.history_minutes)
    det = PrecisePeriod(**reading_fields(verification))
    bins = w.spec.history_minutes // scheduling.BIN_MIN
    new = []
    for g in ids:
        for k, side in enumerate((w.read, w.write)):
            if ("series", g, k) not in caches:  # the same for every reading
                caches[("series", g, k)] = bin_sum(side[g, hist].astype(float),
                                                   scheduling.BIN_MIN)
            if ("check", verification, int(g), k) not in detected:
                new.append((g, k))
    periods = det.detect_many([caches[("series", g, k)] for g, k in new],
                              [caches.setdefault((g, k), {}) for g, k in new])
    detected.update({("check", verification, int(g), k): p
                     for (g, k), p in zip(new, periods, strict=True)})
    found = correct = planted_n = unverifiable = found_aperiodic = 0
    for g in ids:
        if w.period_min[g] > 0:
            planted_n += 1
            t = w.period_min[g] / scheduling.BIN_MIN
            unverifiable += 3 * t + max(t, det.min_horizon) > bins
        periods = [detected[("check", verification, int(g), k)] for k in (0, 1)]
        periods = [p * scheduling.BIN_MIN for p in periods if p is not None]
        if periods:
            found += 1
            found_aperiodic += w.period_min[g] <= 0
            planted = w.period_min[g]
            correct += planted > 0 and any(abs(p - planted) <= 0.02 * planted for p in periods)
    return {
        "sampled": int(ids.size),
        "found": found,
        "correct": int(correct),
        "planted_share": float((w.period_min > 0).mean()),
        "planted_sampled": planted_n,
        "unverifiable": int(unverifiable),
        "found_aperiodic": int(found_aperiodic),
    }


class _Evaluations:
    """:func:`evaluate` of one interval's ``actual`` traffic, memoised by placement: the
    methods and budgets of an interval that end in the same placement (a reading that predicts
    as the primary, a budget the greedy loop does not use up, no move at all) are evaluated
    with the same draws, so they get the same numbers; those are computed once (and the SSDs a
    placement leaves as they were, once per interval: :class:`~.kernel.SsdLatencies`)."""

    def __init__(self, actual: np.ndarray, ssds: int, latencies: SsdLatencies):
        self.actual, self.ssds, self.latencies, self.done = actual, ssds, latencies, {}
        self.first = None  # the first placement and its load: the others sum only what moved

    def __call__(self, placement: np.ndarray, latency: bool) -> dict:
        key = (np.asarray(placement, dtype=np.int64).tobytes(), latency)
        if self.first is None:
            self.first = (np.array(placement, dtype=np.int64),
                          scheduling.ssd_load(self.actual, placement, self.ssds))
        if key not in self.done:
            self.done[key] = evaluate(self.actual, placement, self.ssds,
                                      self.latencies if latency else None, self.first)
        return dict(self.done[key])


def run_replicate(task: SchedulingTask, rng: np.random.Generator,
                  w: Workload | None = None, detected: dict | None = None) -> dict:
    """All methods on one surrogate: per interval, per method and per budget (overhead or
    number of moves), the evaluation of :func:`evaluate`; plus detection and forecast checks.
    ``w``: the task's workload, already generated from ``rng`` (it is scaled in place when the
    task calibrates the load). ``detected``: the periods PrecisePeriod detected in another run of
    the same generated workload, at another scale (the same periods: see
    :func:`scheduling.precise_prediction`), kept in it for the next.
    """
    detected = {} if detected is None else detected
    if w is None:
        w = from_trace(task.trace, task.spec, task.trace_format) if task.trace else generate(
            rng, task.spec
        )
    # each interval's latency seed, drawn before any fit: the calibrations fit on the draws
    # the evaluation then makes
    seeds = [int(rng.integers(1 << 31)) for _ in range(task.spec.intervals)]
    draws = IntervalDraws(seeds, task.spec.ssds, MINUTES_PER_INTERVAL)
    calibration, arrival_seconds = None, task.arrival_seconds
    if task.skew_target_ms > 0:
        sigma = fit_sigma_alone(w, task.skew_target_ms, draws, arrival_seconds)
        calibration = {"volume_sigma": sigma, "arrival_seconds": arrival_seconds,
                       "target_ms": task.skew_target_ms}
        factor = skew_factor(w, sigma)
        w.read *= factor
        w.write *= factor
    elif task.target_tail_ms > 0:
        scale, calibration = calibrate_load(w, task.target_tail_ms, draws)
        w.read *= np.float32(scale)
        w.write *= np.float32(scale)
    minutes = w.spec.history_minutes
    mean_bps = float(w.read[:, :minutes].sum() + w.write[:, :minutes].sum()) / minutes / 60
    readings = task.verifications
    rows, aggregate, traffic = [], None, []
    periods = dict.fromkeys(readings)
    agg_corr = {v: [] for v in readings}
    for k, (start, eval_seed) in enumerate(zip(scheduling.interval_starts(w), seeds,
                                               strict=True)):
        actual = scheduling.interval_traffic(w, start)  # what every method is evaluated on
        ssds = task.spec.ssds
        evaluations = _Evaluations(actual, ssds, draws(k, arrival_seconds))
        base = evaluations(w.placement, True)
        traffic.append(float(actual.sum()) / ssds / MINUTES_PER_INTERVAL / 60)
        rows.append(
            {"interval": k, "method": "hash", "kind": "none", "value": 0.0, "moves": 0, **base}
        )
        precise, caches = {}, {}  # the readings share each series' windows
        for v in readings:
            precise[v] = scheduling.precise_prediction(w, start, periods[v], v, caches, detected)
            periods[v] = precise[v].periods
        history = scheduling.history_prediction(w, start)
        actual10 = bin_sum(actual, scheduling.BIN_MIN)
        for v in readings:
            pairs = []
            for s in range(task.spec.ssds):
                on = w.placement[precise[v].ids] == s
                if on.any():
                    pairs.append((precise[v].pred[on].sum(0), actual10[precise[v].ids[on]].sum(0)))
                    agg_corr[v].append(pcc(*pairs[-1]))
            if v == readings[0]:
                aggregate = aggregate or pairs
        budgets = [("overhead", o, scheduling.move_budget(o, mean_bps)) for o in task.overheads] + [
            ("moves", m, m) for m in task.move_counts
        ]
        every = np.arange(w.spec.segments)
        actuals = [(scheduling.ACTUAL_10MIN, scheduling.Prediction(every, actual10, {}), None),
                   (scheduling.ACTUAL_1MIN, scheduling.Prediction(every, actual, {}), None)]
        runs = [("PreciseScheduling", precise[v], v) for v in readings] + [
            (m, history, None) for m in scheduling.METHODS if m != "PreciseScheduling"
        ] + actuals
        for method, pred, reading in runs:
            for kind, value, budget in budgets:
                if reading not in (None, readings[0]) and kind == "overhead" and (
                    value not in scheduling.ALT_OVERHEADS
                ):
                    continue  # the other readings need only the budgets the claims read
                target_rng = (
                    np.random.default_rng([eval_seed, budget])
                    if method == "random-history"
                    else None
                )
                place, moves = scheduling.schedule(
                    pred.pred, pred.ids, w.placement, task.spec.ssds, budget, target_rng,
                    pred.base,
                )
                # latency only for the overhead budgets (Figs 13-15); moves sweep: tail flow
                rows.append(
                    {
                        "interval": k,
                        "method": method,
                        "kind": kind,
                        "value": value,
                        "moves": len(moves),
                        "reading": reading,
                        **evaluations(place, kind == "overhead"),
                    }
                )
    if calibration is not None:
        calibration.update(hash_numbers(rows, traffic))
    ids = rng.choice(
        w.spec.segments, size=min(task.detection_sample, w.spec.segments // 4), replace=False
    )
    caches = {}
    detection = {v: detection_check(w, ids, v, caches, detected) for v in readings}
    return {
        "replicate": task.replicate,
        "segments": w.spec.segments,
        "arrival_seconds": arrival_seconds,
        "rows": rows,
        "mean_bytes_per_s": mean_bps,
        "aggregate_pcc": agg_corr[readings[0]],
        "aggregate_example": aggregate,
        "calibration": calibration,
        "detection": detection[readings[0]],
        "by_reading": {v: {"aggregate_pcc": agg_corr[v], "detection": detection[v]}
                       for v in readings},
    }


def hash_numbers(rows: list[dict], traffic: list[float]) -> dict:
    """§5.2.1's four numbers as the evaluation saw them under hash placement, from its rows:
    the worst SSD's 99.99 % latency in the worst interval, and the means over the intervals of
    the mean per-SSD 99.99 % latency, the mean latency and the traffic per SSD (``traffic``:
    bytes/s per SSD, per interval); latencies in ms, traffic in MB/s."""
    hashed = [row for row in rows if row["method"] == "hash"]
    return {
        "hash_max_tail_ms": 1e3 * float(max(np.max(r["tail_latency"]) for r in hashed)),
        "hash_mean_ssd_tail_ms": 1e3 * float(np.mean([np.mean(r["tail_latency"])
                                                      for r in hashed])),
        "hash_mean_latency_ms": 1e3 * float(np.mean([np.mean(r["mean_latency"])
                                                     for r in hashed])),
        "mean_ssd_mb_per_s": float(np.mean(traffic)) / 1e6,
    }


def reading_results(results: list[dict], verification: str) -> list[dict]:
    """Replicate results as under one verification reading: PreciseScheduling's rows, the
    detection and the aggregate forecast check of that reading; the rest shared."""
    out = []
    for r in results:
        rows = [
            row for row in r["rows"]
            if row["method"] != "PreciseScheduling" or row["reading"] == verification
        ]
        out.append({**r, "rows": rows, **r["by_reading"][verification]})
    return out


def flows_table(results: list[dict]) -> pd.DataFrame:
    """Tail-flow decline (%) vs hash placement per replicate, interval, method and budget."""
    parts = []
    for r in results:
        frame = pd.DataFrame(r["rows"])
        hash_ = frame[frame.method == "hash"].set_index("interval")
        rest = frame[frame.method != "hash"]
        h = hash_.loc[rest.interval]  # each row's interval under hash placement
        part = rest[["interval", "method", "kind", "value", "moves"]].reset_index(drop=True)
        for q in ("p99", "p999"):
            flow = f"{q}_flow"
            part[f"decline_{q}"] = 100 * (1 - rest[flow].to_numpy() / h[flow].to_numpy())
        parts.append(part.assign(replicate=r["replicate"]))
    columns = ["replicate", "interval", "method", "kind", "value", "moves", "decline_p99",
               "decline_p999"]
    return pd.concat(parts, ignore_index=True)[columns] if parts else pd.DataFrame()


def latency_table(results: list[dict]) -> pd.DataFrame:
    """Max-SSD 99.99 % latency and mean-over-SSDs average latency (ms) per run and budget;
    the worst SSD, its busiest minute (GB) and the seconds each minute's requests arrive in."""
    rows = []
    for r in results:
        for row in r["rows"]:
            if "tail_latency" in row:
                worst = int(np.argmax(row["tail_latency"]))
                rows.append(
                    {
                        "replicate": r["replicate"],
                        "interval": row["interval"],
                        "method": row["method"],
                        "overhead": row["value"],
                        "max_tail_ms": 1e3 * float(np.max(row["tail_latency"])),
                        "mean_latency_ms": 1e3 * float(np.mean(row["mean_latency"])),
                        "worst_ssd": worst,
                        "worst_peak_gb": float(row["peak_minute_bytes"][worst]) / 1e9,
                        "arrival_seconds": r.get("arrival_seconds", SMOOTH),
                    }
                )
    return pd.DataFrame(rows)


# ---------------------------------------------------------------- the notebook's analyses
#: Check A1's noiseless sines: periods 50, 55, …, 200 over 1000 samples.
A1_PERIODS = tuple(range(50, 201, 5))
#: Check A2: the ports on their documented examples, and what the documentation says they give.
A2_EXPECTED = {
    "SAZED_maj(sin 26)": 26,
    "SAZED_opt(sin 26)": 26,
    "findFrequency(USAccDeaths)": 12,
    "seasonLength(sin 24)": 24,
    "seasonLength(sin 50)": 50,
    "seasonLength(sin 100)": 100,
}


def a1_sines(n: int = 1000) -> tuple[float, int, float]:
    """PrecisePeriod on the noiseless sines of :data:`A1_PERIODS`: the share found exactly, how
    many got a wrong period, and the share found exactly with the literal Eq. (5) ACF."""
    sines = {t: np.sin(2 * np.pi * np.arange(n) / t) for t in A1_PERIODS}
    found = {t: precise_period(y) for t, y in sines.items()}
    found_eq5 = {t: precise_period(y, acf="eq5") for t, y in sines.items()}
    exact = sum(found[t] == t for t in A1_PERIODS) / len(A1_PERIODS)
    wrong = sum(found[t] is not None and found[t] != t for t in A1_PERIODS)
    exact_eq5 = sum(found_eq5[t] == t for t in A1_PERIODS) / len(A1_PERIODS)
    return exact, wrong, exact_eq5


def a2_examples() -> dict:
    """Each port on its documented example, keyed as :data:`A2_EXPECTED`."""
    doc = examples.sazed_doc_sine()
    out = {
        "SAZED_maj(sin 26)": sazed(doc, "maj"),
        "SAZED_opt(sin 26)": sazed(doc, "opt"),
        "findFrequency(USAccDeaths)": findfrequency(examples.USACCDEATHS),
    }
    for t in (24, 50, 100):
        out[f"seasonLength(sin {t})"] = seasonlength(np.sin(2 * np.pi * np.arange(1000) / t))
    return out


def a3_against_r(series: list) -> tuple[list[str], list[int], list[int] | None, str]:
    """A3's inputs: the benchmark series' keys, the port's findFrequency of each (1 = no
    period, as R), R's own from one Rscript process (None when R cannot run) and the oracle's
    versions (or why it could not run)."""
    keys = [s.key for s in series]
    port = [findfrequency_r(s.values) for s in series]
    try:
        r, oracle = r_findfrequency([s.values for s in series])
    except RUnavailable as why:
        return keys, port, None, str(why)
    return keys, port, r, oracle


def verified_forecast(clean: np.ndarray, trace: list, theta: float, n: int) -> dict:
    """The first window of ``trace`` that verifies at ``theta``: its length, the period decided
    and the 3-period-mean forecast from the preprocessed history up to the end (``n`` samples)."""
    period = decide(trace, theta)
    length = next(w for w in trace if w.verified(theta)).length
    return {"length": length, "period": period, "forecast": forecast(clean[:length], period,
                                                                      n - length)}


def trace_table(trace: list) -> pd.DataFrame:
    """One row per window of a verification trace: length, candidates, best, both PCCs."""
    return pd.DataFrame(
        [
            {
                "L": w.length,
                "candidates": w.candidates,
                "best": w.best,
                "accuracy_pcc": round(w.accuracy, 3),
                "stability_pcc": round(w.stability, 3),
            }
            for w in trace
        ]
    )


def theta_demo(series: list, traces: list, theta: float) -> pd.DataFrame:
    """PrecisePeriod at ``theta`` on each synthetic series (with its verification trace): true
    period, the period found, whether it is right and the window it verified at."""
    rows = []
    for s, trace in zip(series, traces, strict=True):
        found = precise_period(s.values, theta=theta)
        first = next((w for w in trace if w.verified(theta)), None)
        rows.append({"true T": s.period, "found": "none" if found is None else found,
                     "correct": found == s.period,
                     "verified at L": "never" if first is None else first.length})
    return pd.DataFrame(rows)


def split_sweep(done: list, cfg) -> tuple[dict | None, pd.DataFrame, pd.DataFrame]:
    """The first sweep's output (:func:`notebook_tasks`) as (the arrival fit, or None when
    none ran; benchmark rows; generator rows)."""
    fit, done = (done[0], done[1:]) if arrival_fitted(cfg) else (None, done)
    rows = pd.DataFrame([row for part in done for row in part])
    is_generator = rows.dataset.str.startswith(GENERATOR_PREFIX)
    return fit, rows[~is_generator], rows[is_generator]


def synthetic_blocks(results: pd.DataFrame, blocks: int) -> list[pd.DataFrame]:
    """``results`` once per block of the synthetic series (series ``i`` in block
    ``i mod blocks``), each with all the other data sets' rows: the replicates of a claim's
    seed interval (:mod:`storrepro.papers.periodicity.claims`)."""
    syn = results.dataset == "synthetic"
    position = syn.cumsum() - 1  # the synthetic series' index, in order
    if blocks < 2:
        return []
    return [results[~syn | (position % blocks == b)] for b in range(blocks)]


def abstentions(scored: pd.DataFrame) -> pd.DataFrame:
    """How many series each method answered "no period" on, per data set (±0 %)."""
    part = scored[(scored.tolerance == 0) & scored.method.isin(METHODS)]
    table = part.pivot(index="method", columns="dataset", values="abstentions").loc[list(METHODS)]
    table.columns = [f"abstentions {c}" for c in table.columns]
    return table


def reading_scores(scored_by: dict, results: pd.DataFrame, primary: str) -> pd.DataFrame:
    """PrecisePeriod's accuracy and F1 under each verification reading, and with isolated
    spikes removed (sensitivity only), per data set and tolerance."""
    rows = []
    for v, scored in scored_by.items():
        mine = scored[scored.method == "PrecisePeriod"]
        label = v + (" (primary)" if v == primary else "")
        rows += [{"reading": label, **_reading_row(r)} for _, r in mine.iterrows()]
    spikes = score_table(results, [SPIKES_REMOVED])
    label = f"{primary}, isolated spikes removed (sensitivity only)"
    rows += [{"reading": label, **_reading_row(r)} for _, r in spikes.iterrows()]
    return pd.DataFrame(rows).pivot_table(
        index="reading", columns=["dataset", "tolerance"], values=["accuracy", "F1"], sort=False
    )


def _reading_row(r) -> dict:
    return {"dataset": r.dataset, "tolerance": f"±{r.tolerance:.0%}", "accuracy": r.accuracy,
            "F1": r.f1, "precision": r.precision}


def best_baseline(scored: pd.DataFrame) -> pd.DataFrame:
    """The best baseline's accuracy and F1 per data set and tolerance."""
    part = scored[scored.method.isin(BASELINES)]
    return part.groupby(["dataset", "tolerance"])[["accuracy", "f1"]].max()


def _estimates(column: pd.Series) -> list:
    return [None if pd.isna(e) else int(e) for e in column]


def theta_table(results: pd.DataFrame, tol: float = 0.02) -> pd.DataFrame:
    """Definition-A scores of PrecisePeriod at each θ of :data:`THETAS`, per data set."""
    rows = []
    for theta in THETAS:
        col = f"theta={theta:g}"
        for dataset, part in results.groupby("dataset", sort=False):
            truths = part.truth.tolist()
            rows.append({"dataset": dataset, "theta": theta,
                         **scores(_estimates(part[col]), truths, tol)})
    return pd.DataFrame(rows)


def macro_table(results: pd.DataFrame) -> pd.DataFrame:
    """Definition B (macro precision, recall and F1, ±0 %) of every method per data set."""
    rows = []
    for dataset, part in results.groupby("dataset", sort=False):
        for method in METHODS:
            macro = scores_macro(_estimates(part[method]), part.truth.tolist(), 0.0)
            rows.append({"dataset": dataset, "method": method, **macro})
    return pd.DataFrame(rows).pivot(index="method", columns="dataset")


def rounded_truth_accuracy(results: pd.DataFrame) -> pd.DataFrame:
    """Accuracy (±0 %) on CRAN with the true frequencies as they are and rounded (gasoline's
    52.18 can never be hit exactly)."""
    part = results[results.dataset == "cran"]
    truths = part.truth.tolist()
    rounded = [round(t) for t in truths]
    return pd.DataFrame({
        m: {"truth as is": scores(_estimates(part[m]), truths, 0.0)["accuracy"],
            "truth rounded": scores(_estimates(part[m]), rounded, 0.0)["accuracy"]}
        for m in METHODS
    })


def sensitivity_table(results: pd.DataFrame) -> pd.DataFrame:
    """PrecisePeriod and its :data:`VARIANTS` on CRAN: accuracy, precision and F1 per
    tolerance."""
    variants = ["PrecisePeriod", *VARIANTS]
    scored = score_table(results[results.dataset == "cran"], variants)
    return scored.pivot_table(index="method", columns="tolerance",
                              values=["accuracy", "precision", "f1"], sort=False).loc[variants]


def generator_table(results: pd.DataFrame, generator_rows: pd.DataFrame, count: int):
    """Accuracy and F1 (±2 %) of every method on each generator variant, beside the first
    ``count`` series of the paper's generator (the same draws, one knob changed)."""
    paper = "sine, as in the paper"
    base = results[results.dataset == "synthetic"].head(count).assign(
        dataset=GENERATOR_PREFIX + paper)
    scored = score_table(pd.concat([base, generator_rows]), METHODS, (0.02,))
    scored["variant"] = scored.dataset.str.removeprefix(GENERATOR_PREFIX)
    table = scored.pivot_table(index="variant", columns="method", values=["accuracy", "f1"],
                               sort=False)
    return table.reindex([paper, *GENERATOR_VARIANTS]).reindex(columns=list(METHODS), level=1)


#: The period switch of the re-detection demo: period 60, then 120 from sample 1200.
SWITCH_AT, NEW_PERIOD = 1200, 120


def switch_series(rng: np.random.Generator, n: int = 3000) -> np.ndarray:
    """A noisy sine whose period switches from 60 to :data:`NEW_PERIOD` at :data:`SWITCH_AT`."""
    t = np.arange(n)
    clean = np.where(t < SWITCH_AT, np.sin(2 * np.pi * t / 60),
                     np.sin(2 * np.pi * (t - SWITCH_AT) / NEW_PERIOD))
    return clean + 0.2 * rng.normal(size=t.size)


def tail_flow_means(flows: pd.DataFrame) -> pd.DataFrame:
    """Mean tail-flow decline per method and number of moves (Fig. 12's points)."""
    part = flows[flows.kind == "moves"]
    return part.groupby(["method", "value"])[["decline_p99", "decline_p999"]].mean()


def per_ssd_latency(result: dict, panels: dict) -> dict:
    """``{label: (99.99 % latency ms, mean latency ms)}`` per SSD in the first interval of one
    replicate, for each ``label: (method, overhead)`` of ``panels``."""
    rows = pd.DataFrame(result["rows"])
    rows = rows[(rows.interval == 0) & rows.kind.isin(["none", "overhead"])]
    out = {}
    for label, (method, overhead) in panels.items():
        row = rows[(rows.method == method) & np.isclose(rows.value, overhead)].iloc[0]
        out[label] = (1e3 * row.tail_latency, 1e3 * row.mean_latency)
    return out
