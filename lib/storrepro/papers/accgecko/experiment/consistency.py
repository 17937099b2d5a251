"""What the readings of Algorithm 1 (``trn``, ``epsilon``, ``line9``) make of the results the
paper reports, measured so that the notebook's consistency records only record them:

- on the Table 1 replicas (each 5-min trace is its own modelled segment, and its bursts are
  evenly spaced inside each block, Algorithm 1's best case): for DB, DB+17µs and DB+25µs
  (M = 2, k = 1) under each reading, the rate allocated for each (trace, percentile, SLO) of
  :data:`REPLICA_SLOS`, the prediction there and the trace's replayed percentile;
- on the pool: whether DB+25µs's negative error on the full trace exceeds 2 %, and whether
  AccGecko's residual error on the full trace is positive.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import pandas as pd

from storrepro.papers.accgecko.acctail import AccTail, RateBursts
from storrepro.papers.accgecko.experiment import (
    ABLATION,
    ACCTAIL,
    LITERAL,
    Choice,
    reading_choices,
)
from storrepro.papers.accgecko.experiment.sweeps import actual_percentiles
from storrepro.papers.accgecko.features import DELTA, period_counts
from storrepro.papers.accgecko.pacer import Replayer
from storrepro.papers.accgecko.workload import MEAN_RATE, SEGMENT_S
from storrepro.suite.config import reading_label

#: The SLOs of the replica check, µs: the grid's, and 5 and 10 ms, so that the rates run from
#: near the mean to far above the bursts' average rate (where line 9's slope can reach 0).
REPLICA_SLOS = (150.0, 300.0, 500.0, 1000.0, 2000.0, 5000.0, 10_000.0)
REPLICA_METHODS = tuple(m for m in ABLATION if m.name in ("DB", "DB+17µs", "DB+25µs"))
P = (99.0, 99.9)
#: A negative error above this (%) counts as under-prediction: A2's acceptance of the paper's 0 %.
NEGATIVE_TOLERANCE = 2.0


def replica_errors(replicas: dict, choices: dict[str, Choice]) -> pd.DataFrame:
    """One row per (reading label, trace, method, p, SLO) of the Table 1 ``replicas`` (name ->
    (arrivals, overheads), each one 5-min segment): the allocated rate, the prediction there,
    the replayed percentile and the negative error ``actual/predicted − 1`` in % (0 when the
    prediction is at or above the replay)."""
    rows = []
    for name, (arrivals, overhead) in replicas.items():
        counts = period_counts(arrivals, SEGMENT_S)
        high = 2.0 * counts.max() / DELTA
        part = []
        shared = {}  # the replica's bursts per M, found once for every reading
        for label, choice in choices.items():
            for method in REPLICA_METHODS:
                core = method.m * (MEAN_RATE * DELTA)
                if core not in shared:
                    shared[core] = RateBursts(counts, core)
                model = AccTail(method.m, method.k, method.c_us, choice.line9, choice.trn,
                                choice.epsilon)
                model.fit(counts, MEAN_RATE * DELTA, shared[core])
                for p in P:
                    for slo in REPLICA_SLOS:
                        rate = model.smallest_rate(p, slo, method.m * MEAN_RATE, high)
                        part.append({"reading": label, "trace": name, "method": method.name,
                                     "p": p, "slo_us": slo, "rate": rate,
                                     "predicted_us": model.predict(p, rate)
                                     if rate < math.inf else math.inf})  # fmt: skip
        actual_percentiles(part, Replayer(arrivals, overhead, checked=True))
        rows += part
    out = pd.DataFrame(rows)
    out["negative_%"] = np.maximum(0.0, out.actual_us / out.predicted_us - 1) * 100
    return out


def under_predicted(errors: pd.DataFrame, label: str, method: str, p=P) -> np.ndarray:
    """Per (trace, p, SLO) pair of one reading and method: 100 when its negative error exceeds
    :data:`NEGATIVE_TOLERANCE`, else 0 (the share's per-pair values, in %)."""
    part = errors[(errors.reading == label) & (errors.method == method) & errors.p.isin(p)]
    return np.where(part["negative_%"] > NEGATIVE_TOLERANCE, 100.0, 0.0)


def pool_negative(allocations: pd.DataFrame, label: str, method: str = "DB+25µs") -> np.ndarray:
    """Per (tenant, p, SLO) allocation of ``method`` under reading ``label``: 100 when its
    negative error on the full trace (the paper's: the replayed percentile over the prediction,
    less 1) exceeds :data:`NEGATIVE_TOLERANCE`, else 0."""
    part = allocations[(allocations.reading == label) & (allocations.method == method)
                       & np.isfinite(allocations.rate)]  # fmt: skip
    negative = (part.actual_us / part.predicted_us - 1) * 100
    return np.where(negative > NEGATIVE_TOLERANCE, 100.0, 0.0)


def positive_residual(allocations: pd.DataFrame, label: str) -> np.ndarray:
    """Per (tenant, p, SLO) allocation of AccGecko (its comparisons' configuration) under
    ``label``: 100 when its prediction is at or above the full trace's replayed percentile (the
    error left is positive), else 0."""
    part = allocations[(allocations.reading == label) & (allocations.method == ACCTAIL.name)
                       & np.isfinite(allocations.rate)]  # fmt: skip
    return np.where(part.predicted_us >= part.actual_us, 100.0, 0.0)


def replica_summary(errors: pd.DataFrame) -> pd.DataFrame:
    """Per reading and method: the (trace, p, SLO) pairs under-predicted (negative error above
    the tolerance) out of all, and the largest negative error per percentile."""
    errors = errors.assign(under=errors["negative_%"] > NEGATIVE_TOLERANCE)
    out = errors.groupby(["reading", "method"], sort=False).agg(
        pairs=("under", "size"), under_predicted=("under", "sum"))
    for p in P:
        out[f"max negative % p{p:g}"] = errors[errors.p == p].groupby(
            ["reading", "method"], sort=False)["negative_%"].max()
    return out


def checked_choices(readings) -> dict[str, Choice]:
    """The primary and, for each reading name in ``readings``, every alternative (one changed
    at a time), plus the literal reading: the choices the replica check runs under."""
    choices = reading_choices()
    labels = {"primary", LITERAL}
    labels |= {label for name in readings for label in alternatives(name).values()}
    return {label: c for label, c in choices.items() if label in labels}


def alternatives(name: str) -> dict[str, str]:
    """Each value of reading ``name`` -> the label its allocations carry (``"primary"`` for
    the primary's value)."""
    from storrepro.papers.accgecko.config import READINGS

    reading = READINGS[name]
    return {value: "primary" if value == reading.primary else reading_label(name, value)
            for value in reading.alternatives}


def measures(errors: pd.DataFrame, allocations: pd.DataFrame) -> dict[str, Callable]:
    """Per reported result (the keys of ``claims.REPORTED``), what is measured under a reading
    label: one value per pair or allocation, in %."""
    return {
        "replicas": lambda label: under_predicted(errors, label, "DB+25µs"),
        "c17 p99": lambda label: under_predicted(errors, label, "DB+17µs", (99.0,)),
        "pool": lambda label: pool_negative(allocations, label),
        "positive residual": lambda label: positive_residual(allocations, label),
    }


def record_table(records: list[tuple[str, dict]]) -> pd.DataFrame:
    """The consistency records (reading name, the record ``Run.consistency`` returned) as one
    row per (reading, reported result, value): the measured share, its 95 % interval and
    whether the value stays possible."""
    rows = [{"reading": name, "reported": record["paper_value"], "measured": record["of"],
             "value": value, "share %": a["value"], "ci95": a["ci95"], "n": a["n"],
             "verdict": a["verdict"]}
            for name, record in records for value, a in record["alternatives"].items()]
    return pd.DataFrame(rows).set_index(["reading", "reported", "value"])


def measured(measure: Callable, name: str) -> dict[str, np.ndarray]:
    """``measure`` (one of :func:`measures`) under every value of reading ``name``."""
    return {value: measure(label) for value, label in alternatives(name).items()}
