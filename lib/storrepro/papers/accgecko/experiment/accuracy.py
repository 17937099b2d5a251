"""Prediction errors (Fig. 8–11): fold errors of every allocation, summed per method and
percentile, and per accuracy tenant for the claims' replicates."""

from __future__ import annotations

import numpy as np
import pandas as pd

from storrepro.papers.accgecko.experiment import ACCURACY_METHODS, SLO_GRID
from storrepro.papers.accgecko.experiment.sweeps import under_reading


def fold_errors(allocations: pd.DataFrame) -> pd.DataFrame:
    """Positive error P/A − 1 when P >= A, negative error A/P − 1 when A > P (fold errors), per row
    with a feasible rate."""
    ok = allocations[np.isfinite(allocations.rate)].copy()
    ratio = ok.predicted_us / ok.actual_us
    ok["positive"] = np.where(ratio >= 1, ratio - 1, 0.0)
    ok["negative"] = np.where(ratio < 1, 1 / ratio - 1, 0.0)
    return ok


def total_errors(errors: pd.DataFrame) -> pd.DataFrame:
    """Mean and max total error (%) — positive plus negative — per (p, method)."""
    tot = errors.copy()
    tot["error"] = 100 * (tot.positive + tot.negative)
    return tot.groupby(["p", "method"]).error.agg(["mean", "max"])


def error_summary(allocations: pd.DataFrame, methods) -> pd.DataFrame:
    """Mean and max positive and negative error (%) per method and percentile (zeros counted),
    and how many (trace, SLO) pairs had no feasible rate."""
    errors = fold_errors(allocations)
    rows = []
    for name in methods:
        for p in SLO_GRID:
            part = errors[(errors.method == name) & (errors.p == p)]
            total = ((allocations.method == name) & (allocations.p == p)).sum()
            rows.append(
                {
                    "method": name,
                    "p": p,
                    "pairs": len(part),
                    "infeasible": int(total - len(part)),
                    "avg_positive_%": 100 * part.positive.mean(),
                    "max_positive_%": 100 * part.positive.max(),
                    "avg_negative_%": 100 * part.negative.mean(),
                    "max_negative_%": 100 * part.negative.max(),
                }
            )
    return pd.DataFrame(rows)


def accuracy_errors(allocations: pd.DataFrame, labels) -> tuple[dict, dict]:
    """Per reading, on the accuracy tenants (those that ran MMP): the error summary of every
    accuracy method (Fig. 8–10) and the total errors per method (Fig. 11)."""
    accuracy = allocations[allocations.method == "MMP"].tenant.unique()
    names = [m.name for m in ACCURACY_METHODS]
    err, totals = {}, {}
    for label in labels:
        part = under_reading(allocations, label)
        part = part[part.tenant.isin(accuracy)]
        err[label] = error_summary(part, names).set_index(["method", "p"])
        totals[label] = total_errors(fold_errors(part))
    return err, totals


def tenant_errors(allocations: pd.DataFrame, labels) -> dict[str, pd.DataFrame]:
    """Per reading, the accuracy claims' replicates: one row per accuracy tenant, one column per
    ``(quantity, method, p)`` — the tenant's avg and max positive error, max negative error,
    and avg and max total error over its SLOs (%, zeros counted; NaN where no SLO of the grid
    was feasible)."""
    accuracy = allocations[allocations.method == "MMP"].tenant.unique()
    out = {}
    for label in labels:
        part = under_reading(allocations, label)
        errors = fold_errors(part[part.tenant.isin(accuracy)])
        errors = errors.assign(total=errors.positive + errors.negative)
        table = errors.groupby(["tenant", "method", "p"]).agg(
            **{"avg_positive_%": ("positive", "mean"), "max_positive_%": ("positive", "max"),
               "max_negative_%": ("negative", "max"), "mean_total_%": ("total", "mean"),
               "max_total_%": ("total", "max")})  # fmt: skip
        wide = (100 * table).unstack(["method", "p"])
        out[label] = wide.reindex(index=np.sort(accuracy))
    return out
