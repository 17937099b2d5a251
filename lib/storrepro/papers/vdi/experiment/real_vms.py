"""The forecasting study on real production VMs: the paper's forecasters and a seasonal-naive
baseline on each VM's requests per 30-minute snapshot, trained and scored as the forecasting
protocol's readings define (:mod:`storrepro.papers.vdi.books`), at the VM's own resolution.

Each VM's series is cut into whole days of :data:`PER_DAY` snapshots counted back from its last
snapshot (the leading part day is dropped); the forecast day is the last whole day, forecast
with the days before it, as P-syn forecasts one day of the stand-in. The paper's K-means bound
(k ≤ ⌊√(n/2)⌋ day clusters for n days) gives one cluster for a week or less, so a VM's
"preceding cluster days" are its preceding days, and the proposed model's weekly variant,
with no two weeks of one weekday to average, reads every earlier day as one cluster. A VM is
excluded, with the rule saying why, when it has fewer whole days than the shortest look-back
plus the forecast day, or when it is mostly idle (more than :data:`IDLE_SHARE_MAX` of its
snapshots empty); each model needs its own look-back, so a comparison uses the VMs that have
the longer of its two models' histories.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pandas as pd

from storrepro.papers.vdi import forecast as fc
from storrepro.papers.vdi.books import HISTORY_DAYS, PROTOCOL_ROWS
from storrepro.papers.vdi.experiment.forecast_study import ALPHAS
from storrepro.papers.vdi.seeds import single_threaded
from storrepro.suite.data.real_vms import (
    PER_DAY,
    RealVMs,
    load_real_vms,
    missing_message,
    resolve,
)

#: A VM with more than this share of empty snapshots is mostly idle: excluded.
IDLE_SHARE_MAX = 0.5
#: The shortest look-back of any model (the proposed model's and Holt-Winters' 3 days).
MIN_LOOKBACK = min(HISTORY_DAYS[m] for m in ("proposed", "holt-winters"))
#: The models of the study and the α values at which the proposed model is scored.
REAL_MODELS = ("proposed", "proposed-weekly", "holt-winters", "holt-winters-9d", "arima-ridge",
               "arima-3d", "seasonal-naive")
EXCLUSION_RULE = (
    f"a VM enters when it has at least {MIN_LOOKBACK + 1} whole days of {PER_DAY} snapshots "
    f"(the {MIN_LOOKBACK}-day look-back plus one forecast day) and at most "
    f"{IDLE_SHARE_MAX:.0%} of its snapshots empty; a comparison uses the VMs that also have "
    "its models' longer look-back (9 days for ARIMA and Holt-Winters on 9 days)"
)


def load(path: str, limit: int) -> RealVMs | None:
    """The real VMs of ``path``, the first ``limit`` of the file (0: all); None when ``path`` is
    '' (no file: the real-data claims are not checkable, :func:`claim_inputs`)."""
    return load_real_vms(resolve(path), limit) if path else None


def claim_inputs(vms: RealVMs | None, scores: pd.DataFrame | None, alpha: float,
                 label: str | None = None) -> dict:
    """The real-data claims' inputs under the forecasting reading ``label``: the per-VM
    ``table``, or None and ``why``, the message naming the public source and the parameter;
    and ``on``, the file's path and digest."""
    if vms is None:
        return {"table": None, "why": missing_message("real_vms"), "on": ""}
    return {"table": real_table(scores, alpha, label), "why": "", "on": vms.describe()}


def days_of(series: np.ndarray) -> np.ndarray:
    """The VM's whole days, (days, :data:`PER_DAY`), counted back from its last snapshot."""
    days = series.size // PER_DAY
    return np.asarray(series[series.size - days * PER_DAY :], dtype=float).reshape(days, PER_DAY)


def exclusion(series: np.ndarray) -> str:
    """Why a VM is left out ('' when it enters): too short, or mostly idle."""
    days = series.size // PER_DAY
    if days < MIN_LOOKBACK + 1:
        return f"too short: {days} whole days, fewer than {MIN_LOOKBACK + 1}"
    idle = float(np.mean(series == 0))
    if idle > IDLE_SHARE_MAX:
        return f"mostly idle: {idle:.0%} of its snapshots empty"
    return ""


def lookback(model: str) -> int:
    """The days of history ``model`` reads (all earlier days for the weekly variant: at least
    one)."""
    return 1 if model == "proposed-weekly" else HISTORY_DAYS[model]


@dataclass(frozen=True)
class VmTask:
    STREAM: ClassVar[tuple[str, ...]] = ("vm", "alphas")
    vm: str
    series: np.ndarray = field(compare=False)
    #: the α values the proposed model is scored at (the notebook's and the reading's)
    alphas: tuple[float, ...] = ALPHAS


def _forecast(model: str, history: np.ndarray, alpha: float) -> tuple[np.ndarray, bool]:
    """One day ahead from ``history`` (whole days, oldest first), and whether the fit is
    stable."""
    if model in ("proposed", "proposed-weekly"):
        return fc.ProposedEWMA(alpha, PER_DAY).forecast(history, PER_DAY), True
    if model in ("holt-winters", "holt-winters-9d"):
        return fc.HoltWinters(PER_DAY).forecast(history, PER_DAY), True
    if model == "seasonal-naive":
        return fc.SeasonalNaive(PER_DAY).forecast(history, PER_DAY), True
    estimator = fc.RidgeArimaCSS(p=PER_DAY) if model == "arima-ridge" else fc.ArimaCSS(p=PER_DAY)
    fit = estimator.fit(history)
    return fit.forecast(PER_DAY), fit.stable


def vm_scores(task: VmTask, rng: np.random.Generator) -> list[dict]:
    """Every model's SMAPE on the VM's last whole day (each model with its look-back, where the
    VM has it; the proposed model at every α of the task, the others at its first), a
    divergent fit (unstable, or SMAPE above 150 %) scored 200 % as on the stand-in (F9)."""
    days = days_of(task.series)
    actual, rows = days[-1], []
    with single_threaded():
        for model in REAL_MODELS:
            back = days.shape[0] - 1 if model == "proposed-weekly" else lookback(model)
            if days.shape[0] < back + 1:
                continue
            history = days[-1 - back : -1].ravel()
            for alpha in task.alphas if model == "proposed" else (task.alphas[0],):
                t0 = time.perf_counter()
                forecast, stable = _forecast(model, history, alpha)
                smape = fc.smape(actual, forecast)
                divergent = not stable or smape > 150
                rows.append({"vm": task.vm, "model": model, "alpha": alpha,
                             "smape": 200.0 if divergent else smape, "divergent": divergent,
                             "days": days.shape[0], "seconds": time.perf_counter() - t0})
    return rows


def forecast_study(
    series: dict[str, np.ndarray], alpha: float, sweep_fn
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every VM's scores (:func:`vm_scores`, one sweep task per VM that enters; the proposed
    model at ``alpha`` first, then the others of :data:`ALPHAS`) and the excluded VMs with the
    reason: ``(scores, excluded)``."""
    reasons = {vm: exclusion(s) for vm, s in series.items()}
    alphas = tuple(dict.fromkeys((alpha, *ALPHAS)))
    tasks = [VmTask(vm, s, alphas) for vm, s in series.items() if not reasons[vm]]
    results = sweep_fn(vm_scores, tasks, desc="forecasts per real VM") if tasks else []
    scores = pd.DataFrame([row for rows in results for row in rows],
                          columns=["vm", "model", "alpha", "smape", "divergent", "days",
                                   "seconds"])
    excluded = pd.DataFrame([{"vm": vm, "why": why} for vm, why in reasons.items() if why],
                            columns=["vm", "why"])
    return scores, excluded


def real_table(scores: pd.DataFrame, alpha: float, label: str | None = None) -> pd.DataFrame:
    """Per VM (index), the SMAPE of ``proposed``, ``holt-winters``, ``arima`` and
    ``seasonal-naive`` as the forecasting reading ``label`` (None: the primary) reads them
    (:data:`~storrepro.papers.vdi.books.PROTOCOL_ROWS`; ``forecast_alpha=x``: the proposed model
    at α = x, else at ``alpha``); NaN where the VM lacks the model's look-back."""
    name, _, value = (label or "").partition("=")
    at = float(value) if name == "forecast_alpha" and value != "as-set" else alpha
    chosen = {"proposed": "proposed", "holt-winters": "holt-winters", "arima": "arima-ridge",
              "seasonal-naive": "seasonal-naive"}
    if label in PROTOCOL_ROWS:
        changed, variant = PROTOCOL_ROWS[label]
        chosen[{"arima-ridge": "arima"}.get(changed, changed)] = variant
    elif label and name != "forecast_alpha":
        raise ValueError(f"unknown forecasting reading {label!r}")
    columns = {}
    for column, model in chosen.items():
        rows = scores[scores.model == model]
        if model == "proposed":
            rows = rows[np.isclose(rows.alpha, at)]
        columns[column] = rows.set_index("vm").smape
    vms = pd.Index(list(dict.fromkeys(scores.vm)), name="vm")
    return pd.DataFrame(columns).reindex(vms)
