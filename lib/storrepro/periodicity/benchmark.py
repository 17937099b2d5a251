"""The detection benchmark of notebook 01: every method on every CRAN and synthetic series.

One :class:`SeriesTask` per series goes through :func:`storrepro.parallel.sweep`; a worker
loads its series itself (CRAN files from the task's source directory, synthetic series from the
generator's seed), so tasks stay small. :func:`run_series` returns every method's estimate and
PrecisePeriod's full growing-window trace, from which the theta sweep is read (the window
schedule does not depend on theta, see :func:`~storrepro.periodicity.precise_period.decide`).
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
from storrepro.periodicity.precise_period import PrecisePeriod, decide, single_verification
from storrepro.periodicity.sazed import sazed
from storrepro.periodicity.seasonlength import seasonlength

BASELINES = ("findFrequency", "seasonLength", "SAZED_maj", "SAZED_opt")
METHODS = (*BASELINES, "PrecisePeriod")
ABLATIONS = ("PrecisePeriod", "No Preprocessing", "Single Verification", "Single (no θ gate)")
THETAS = (0.5, 0.6, 0.7, 0.8, 0.9)
TOLERANCES = (0.0, 0.02)

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


@dataclass(frozen=True)
class SeriesTask:
    """One series of one dataset; ``source`` is the CRAN directory or the synthetic seed."""

    dataset: str  # "cran" or "synthetic"
    index: int
    source: str
    count: int
    variants: bool = False


@lru_cache(maxsize=4)
def _cran(source: str):
    return load_cran(source or None)


@lru_cache(maxsize=4)
def _synthetic(seed: int, count: int):
    return generate(count, seed=seed, spec=SyntheticSpec())


def series_of(task: SeriesTask) -> tuple[np.ndarray, float, dict]:
    """Values, true period and descriptive fields of the task's series."""
    if task.dataset == "cran":
        s = _cran(task.source)[task.index]
        return s.values, s.frequency, {"key": s.key, "length": s.values.size}
    if task.dataset == "synthetic":
        s = _synthetic(int(task.source), task.count)[task.index]
        info = {
            "key": f"synthetic::{task.index}",
            "length": s.values.size,
            "outlier_ratio": s.outlier_ratio,
            "noise_var": s.noise_var,
            "slope": s.slope,
        }
        return s.values, float(s.period), info
    raise ValueError(f"dataset = {task.dataset!r}: expected 'cran' or 'synthetic'")


def run_series(task: SeriesTask, rng: np.random.Generator | None = None) -> dict:
    """Every method on one series (the methods are deterministic; ``rng`` is unused)."""
    x, truth, row = series_of(task)
    pp = PrecisePeriod()
    trace = list(pp.windows(x, stop_at_first=False)) if x.size >= pp.L0_min else []
    row.update({"dataset": task.dataset, "truth": truth})
    row["findFrequency"] = findfrequency(x)
    row["seasonLength"] = seasonlength(x)
    row["SAZED_maj"] = sazed(x, "maj")
    row["SAZED_opt"] = sazed(x, "opt")
    row["PrecisePeriod"] = decide(trace, pp.theta)
    for theta in THETAS:
        row[f"theta={theta:g}"] = decide(trace, theta)
    row["No Preprocessing"] = PrecisePeriod(preprocess=False).detect(x)
    row["Single Verification"] = single_verification(x, theta=pp.theta)
    row["Single (no θ gate)"] = single_verification(x, theta=None)
    if task.variants:
        for name, fields in VARIANTS.items():
            row[name] = PrecisePeriod(**fields).detect(x)
    return row


def tasks_for(dataset: str, count: int, source: str = "", variants: bool = False):
    return [SeriesTask(dataset, i, source, count, variants) for i in range(count)]


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
