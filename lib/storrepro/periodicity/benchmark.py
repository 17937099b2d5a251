"""The detection benchmark of notebook 01: every method on every CRAN and synthetic series.

A :class:`SeriesTask` is a run of consecutive series of one dataset (a few CRAN series, or
:data:`SERIES_PER_TASK` synthetic ones, so that each task is worth shipping to a worker); a
worker loads its series itself (CRAN files from the task's source directory, synthetic series
from the generator's seed), so tasks stay small. :func:`run_series` returns, per series, every
method's estimate; the theta sweep is read from PrecisePeriod's full growing-window trace (the
window schedule does not depend on theta, see
:func:`~storrepro.periodicity.precise_period.decide`). :func:`run_task` runs a series task or
a scheduling replicate, so that one :func:`storrepro.parallel.sweep` keeps both cores busy with
the notebook's long surrogate replicates and its many short series.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import pandas as pd

from storrepro.data.cran import load_cran
from storrepro.data.synthetic import SyntheticSpec, generate
from storrepro.periodicity.findfrequency import findfrequency
from storrepro.periodicity.metrics import scores
from storrepro.periodicity.precise_period import (
    VERIFICATIONS,
    PrecisePeriod,
    decide,
    single_verification_best,
)
from storrepro.periodicity.sazed import sazed
from storrepro.periodicity.scheduling import SchedulingTask, run_replicate
from storrepro.periodicity.seasonlength import seasonlength

BASELINES = ("findFrequency", "seasonLength", "SAZED_maj", "SAZED_opt")
METHODS = (*BASELINES, "PrecisePeriod")
ABLATIONS = ("PrecisePeriod", "No Preprocessing", "Single Verification", "Single (no θ gate)")
THETAS = (0.5, 0.6, 0.7, 0.8, 0.9)
TOLERANCES = (0.0, 0.02)
#: The primary reading of the verification target (see :class:`~storrepro.periodicity.config.
#: PrecisePeriodConfig`); the others are run beside it as columns ``"<column> @<value>"``.
PRIMARY_VERIFICATION = "preprocessed"
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

#: Sensitivity variants of PrecisePeriod (spec §6.1 item 9): name -> PrecisePeriod fields.
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
    spec = SyntheticSpec(**GENERATOR_VARIANTS[generator]) if generator else SyntheticSpec()
    return generate(count, seed=seed, spec=spec)


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
    for reading in VERIFICATIONS:  # only PrecisePeriod's columns depend on the reading
        suffix = "" if reading == PRIMARY_VERIFICATION else f" @{reading}"
        for column, value in precise_columns(x, reading, caches).items():
            row[column + suffix] = value
    row[SPIKES_REMOVED] = PrecisePeriod(spikes="remove").detect(x)
    if variants:
        for name, fields in VARIANTS.items():
            row[name] = PrecisePeriod(**fields).detect(x)
    return row


def precise_columns(x: np.ndarray, verification: str, caches: dict | None = None) -> dict:
    """PrecisePeriod, its θ sweep and its ablations on ``x`` under one verification reading
    (``caches``: kept between the readings of one ``x``, see
    :meth:`~storrepro.periodicity.precise_period.PrecisePeriod.windows`)."""
    caches = {} if caches is None else caches
    pp = PrecisePeriod(verification=verification)
    trace = (
        list(pp.windows(x, stop_at_first=False, cache=caches.setdefault("full", {})))
        if x.size >= pp.L0_min
        else []
    )
    out = {"PrecisePeriod": decide(trace, pp.theta)}
    for theta in THETAS:
        out[f"theta={theta:g}"] = decide(trace, theta)
    out["No Preprocessing"] = PrecisePeriod(preprocess=False, verification=verification).detect(
        x, cache=caches.setdefault("no preprocessing", {})
    )
    best, score = single_verification_best(x, verification=verification)
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


def run_task(task: SeriesTask | SchedulingTask, rng: np.random.Generator) -> list[dict] | dict:
    """:func:`run_series` or :func:`~storrepro.periodicity.scheduling.run_replicate`."""
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


def notebook_tasks(cfg) -> list:
    """Every independent task of notebook 01, for its one sweep (and ``make bench``'s): the long
    surrogate replicates first, run under every verification reading (the primary first), then
    the series in small batches."""
    from storrepro.periodicity.cloud_surrogate import SurrogateSpec

    reading = cfg.readings["verification_target"]
    spec = SurrogateSpec(
        ssds=cfg.sched_ssds,
        segments=cfg.sched_segments,
        history_days=cfg.sched_history_days,
        intervals=cfg.sched_intervals,
    )
    sched = [
        SchedulingTask(
            r, spec, OVERHEADS, MOVE_COUNTS,
            verifications=(reading.primary, *reading.others()),
            target_tail_ms=cfg.sched_target_tail_ms,
        )
        for r in range(cfg.sched_replicates)
    ]
    return (
        sched
        + tasks_for("cran", cfg.cran_series, cfg.cran_dir, variants=cfg.sensitivity)
        + tasks_for("synthetic", cfg.synthetic_series, str(cfg.seed))
        + generator_tasks(cfg.generator_series, cfg.seed)
    )

