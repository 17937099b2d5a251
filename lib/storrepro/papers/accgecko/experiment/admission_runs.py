"""Admission (Fig. 12), SLO safety and their sensitivity (T5): tenants arrive in random orders
with SLOs from the grid, each method admits by its allocated rates (or PriorityMeister on the
shared priority queue), and the tables summarise what each admits and how many violate."""

from __future__ import annotations

import functools
import math

import numpy as np
import pandas as pd
from scipy import stats

from storrepro.papers.accgecko.admission import admit
from storrepro.papers.accgecko.experiment import (
    ADMISSION_METHODS,
    EXACT,
    HEADLINE_SLO,
    PM,
    PM_ORIGINAL,
    SLO_GRID,
)
from storrepro.papers.accgecko.experiment.sweeps import under_reading
from storrepro.papers.accgecko.priority_meister import admit_by_priority
from storrepro.papers.accgecko.workload import MEAN_RATE
from storrepro.suite.parallel import sweep, task_rng


def allocation_table(allocations: pd.DataFrame, p: float, column: str = "rate") -> np.ndarray:
    """``column`` of the admission methods' allocations at percentile ``p`` as an array
    ``(tenants in order, ADMISSION_METHODS, SLOs of SLO_GRID[p])``."""
    tenants = np.sort(allocations.tenant.unique())
    names = [m.name for m in ADMISSION_METHODS]
    table = allocations[allocations.p == p].set_index(["tenant", "method", "slo_us"])[column]
    index = pd.MultiIndex.from_product([tenants, names, SLO_GRID[p]])
    return table.reindex(index).to_numpy().reshape(tenants.size, len(names), len(SLO_GRID[p]))


def draw_slos(p: float, tenants: int, mode: str, rng: np.random.Generator) -> np.ndarray:
    """Each tenant's SLO, as an index into ``SLO_GRID[p]``: "grid" draws it uniformly,
    "headline" gives everyone the headline SLO."""
    grid = SLO_GRID[p]
    if mode == "grid":
        return np.searchsorted(grid, rng.choice(grid, tenants))
    if mode == "headline":
        return np.full(tenants, grid.index(HEADLINE_SLO[p]))
    raise ValueError(f"mode = {mode!r}: expected 'grid' or 'headline'")


def admitted_by_method(rates, slos, order, capacity, p, priority=None) -> list[np.ndarray]:
    """Per admission method, the tenants admitted (in ``order``) with SLO indices ``slos``:
    by allocated rate, or PM on the shared priority queue when ``priority`` (the original
    PriorityMeister's envelopes, :func:`priority_inputs`) is given."""
    out = []
    for j, method in enumerate(ADMISSION_METHODS):
        if priority is not None and method is PM:
            slo_us = np.asarray(SLO_GRID[p])[slos]
            mask = admit_by_priority(priority["rates"], priority["bursts"], order, slo_us,
                                     capacity)  # fmt: skip
        else:
            mask = admit(rates[order, j, slos[order]], capacity)
        out.append(order[mask])
    return out


def priority_inputs(pm_original: pd.DataFrame) -> dict:
    """The original PriorityMeister's envelopes ``(tenants, pairs)`` in tenant order, and each
    tenant's lower-bound percentile under its rate limiters (``lower_p99`` ...)."""
    table = pm_original.sort_index()
    out = {"rates": np.stack(table.rates.to_numpy()), "bursts": np.stack(table.bursts.to_numpy())}
    return out | {f"lower_p{p:g}": table[f"lower_p{p:g}"].to_numpy() for p in SLO_GRID}


def admission_runs(
    allocations: pd.DataFrame,
    capacity: float,
    seeds: int,
    mode: str,
    rng: np.random.Generator,
    priority: dict | None = None,
) -> dict[float, np.ndarray]:
    """Tenants admitted per seed and method, per percentile. ``mode``: "grid" draws each tenant's
    SLO uniformly from the grid (per seed), "headline" gives everyone the headline SLO;
    ``priority``: admit PM on the shared priority queue (see :func:`admitted_by_method`)."""
    return runs_on(admission_tables(allocations), capacity, seeds, mode, rng, priority)


def admission_tables(allocations: pd.DataFrame) -> dict[float, np.ndarray]:
    """Per percentile, the allocated rates (:func:`allocation_table`) the admission runs read."""
    return {p: allocation_table(allocations, p) for p in SLO_GRID}


def runs_on(tables, capacity, seeds, mode, rng, priority=None) -> dict[float, np.ndarray]:
    """:func:`admission_runs` on the allocation ``tables``."""
    if mode not in ("grid", "headline"):
        raise ValueError(f"mode = {mode!r}: expected 'grid' or 'headline'")
    out = {}
    for p, rates in tables.items():
        tenants = rates.shape[0]
        runs = []
        for _ in range(seeds):
            slos = draw_slos(p, tenants, mode, rng)
            order = rng.permutation(tenants)
            taken = admitted_by_method(rates, slos, order, capacity, p, priority)
            runs.append([t.size for t in taken])
        out[p] = np.array(runs)
    return out


def mean_ci(values: np.ndarray) -> tuple[float, float]:
    """Mean and 95 % t half-width over the first axis."""
    values = np.asarray(values, dtype=float)
    half = stats.t.ppf(0.975, len(values) - 1) * values.std(ddof=1) / np.sqrt(len(values))
    return float(values.mean()), float(half)


def safety_table(
    allocations: pd.DataFrame,
    capacity: float,
    seeds: int,
    rng: np.random.Generator,
    priority: dict | None = None,
) -> pd.DataFrame:
    """SLO safety of the tenants each method admits (grid SLOs, random orders): share violating
    their SLO on the full-trace replay, worst violation, utilisation and over-provisioning.
    With ``priority`` PM admits on the shared priority queue; its tenants' latency is then at
    least their rate limiters' wait plus the overheads (``lower_p..``), which is what is
    counted: a violation there is certain, the priority queue can only add to it."""
    return _safety(allocations, capacity, seeds, rng, priority)[0]


def safety_tables(allocations: pd.DataFrame) -> dict[float, tuple[np.ndarray, np.ndarray]]:
    """Per percentile, the allocated rates and the full-trace percentiles at them
    (:func:`allocation_table`) the safety runs read."""
    return {p: (allocation_table(allocations, p), allocation_table(allocations, p, "actual_us"))
            for p in SLO_GRID}  # fmt: skip


def _safety(allocations, capacity, seeds, rng, priority=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`safety_table` and, per order (row) and ``(method, p)`` (column), the % of the
    tenants admitted that violate their SLO (NaN for an order that admits none)."""
    return _safety_on(safety_tables(allocations), capacity, seeds, rng, priority)


def _safety_on(tables, capacity, seeds, rng, priority=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`_safety` on the ``tables`` of :func:`safety_tables`."""
    rows, by_order = [], {}
    for p, (rates, actual) in tables.items():
        tenants = rates.shape[0]
        if priority is not None:
            actual = actual.copy()
            actual[:, ADMISSION_METHODS.index(PM), :] = priority[f"lower_p{p:g}"][:, None]
        grid = np.array(SLO_GRID[p])
        admitted = {m.name: [] for m in ADMISSION_METHODS}  # (tenant, SLO index) per admission
        for _ in range(seeds):
            slos = draw_slos(p, tenants, "grid", rng)
            order = rng.permutation(tenants)
            taken = admitted_by_method(rates, slos, order, capacity, p, priority)
            for m, t in zip(ADMISSION_METHODS, taken, strict=True):
                admitted[m.name].append(np.stack([t, slos[t]]))
        for j, m in enumerate(ADMISSION_METHODS):
            by_order[m.name, p] = [
                100 * float(np.mean(actual[t, j, k] / grid[k] > 1)) if t.size else math.nan
                for t, k in admitted[m.name]
            ]
            taken, slo = np.concatenate(admitted[m.name], axis=1)
            ratio = actual[taken, j, slo] / grid[slo]
            rows.append(
                {
                    "p": p,
                    "method": m.name,
                    "admitted (all seeds)": taken.size,
                    "violating_%": 100 * float(np.mean(ratio > 1)),
                    "worst actual/SLO": float(ratio.max()),
                    "mean rate / mean arrival rate": math.nan
                    if priority is not None and m is PM  # a shared queue allocates no rate
                    else float(np.mean(rates[taken, j, slo] / MEAN_RATE)),
                }
            )
    return pd.DataFrame(rows), pd.DataFrame(by_order)


def by_order(runs: dict[float, np.ndarray]) -> pd.DataFrame:
    """Admission ``runs`` as one row per order and one column per ``(method, p)``."""
    names = [m.name for m in ADMISSION_METHODS]
    return pd.DataFrame({(name, p): counts[:, j] for p, counts in runs.items()
                         for j, name in enumerate(names)})  # fmt: skip


def admission_summary(runs: dict[float, np.ndarray]) -> pd.DataFrame:
    """Mean ± 95 % CI of tenants admitted per method and percentile, normalised to SNCM."""
    return pd.DataFrame(_summary_rows(runs))


def _summary_rows(runs: dict[float, np.ndarray]) -> list[dict]:
    """:func:`admission_summary`'s rows."""
    rows = []
    names = [m.name for m in ADMISSION_METHODS]
    for p, counts in runs.items():
        sncm = counts[:, names.index("SNCM")].mean()
        for j, name in enumerate(names):
            mean, half = mean_ci(counts[:, j])
            rows.append(
                {"p": p, "method": name, "admitted": mean, "ci95": half, "vs SNCM": mean / sncm}
            )
    return rows


def _by_method(summary) -> dict[tuple[float, str], dict]:
    """A summary's rows (a frame or :func:`_summary_rows`) by ``(p, method)``."""
    rows = summary.to_dict("records") if isinstance(summary, pd.DataFrame) else summary
    return {(row["p"], row["method"]): row for row in rows}


def gain(summary: pd.DataFrame, p: float, method: str, reference: str) -> float:
    """``admitted(method) / admitted(reference) − 1`` at percentile ``p``."""
    return _gain(_by_method(summary), p, method, reference)


def _gain(rows: dict, p: float, method: str, reference: str) -> float:
    return float(rows[p, method]["admitted"] / rows[p, reference]["admitted"] - 1)


def separated(summary: pd.DataFrame, p: float) -> bool:
    """AccTail > SNCM > PM with non-overlapping 95 % CIs."""
    return _separated(_by_method(summary), p)


def _separated(rows: dict, p: float) -> bool:
    lo = {m: rows[p, m]["admitted"] - rows[p, m]["ci95"] for m in ("AccTail", "SNCM")}
    hi = {m: rows[p, m]["admitted"] + rows[p, m]["ci95"] for m in ("SNCM", "PM")}
    return bool(lo["AccTail"] > hi["SNCM"] and lo["SNCM"] > hi["PM"])


def priority_for(label: str, pm_original: pd.DataFrame) -> dict | None:
    """The shared-queue inputs under the reading that takes the original PriorityMeister."""
    return priority_inputs(pm_original) if label == PM_ORIGINAL else None


def admission_and_safety(allocations, pm_original, labels, capacity, seeds, seed) -> tuple:
    """Fig. 12's admission summary and the SLO-safety table under every reading, each on the
    same orders under every reading; the (table, reading) cases run side by side. Returns
    ``(admission, safety, admitted by order, violating % by order)``, each a dict by reading
    (the last two: one row per order, one column per ``(method, p)``)."""
    inputs = {label: (safety_tables(under_reading(allocations, label)),
                      priority_for(label, pm_original)) for label in labels}  # fmt: skip
    cases = [(table, label) for table in ("admission", "safety") for label in labels]
    tables = sweep(functools.partial(_admission_case, inputs, capacity, seeds, seed), cases,
                   seed=seed, desc="admission and safety")  # fmt: skip
    adm, safe = tables[: len(labels)], tables[len(labels) :]
    return tuple({label: pair[i] for label, pair in zip(labels, half, strict=True)}
                 for i in (0, 1) for half in (adm, safe))  # fmt: skip


def _admission_case(inputs, capacity, seeds, seed, case, rng) -> pd.DataFrame:
    """One table under one reading, on the orders of its table (``rng`` is not used)."""
    table, label = case
    tables, priority = inputs[label]
    orders = task_rng(seed, table)
    if table == "admission":
        rates = {p: pair[0] for p, pair in tables.items()}
        runs = runs_on(rates, capacity, seeds, "grid", orders, priority)
        return admission_summary(runs), by_order(runs)
    return _safety_on(tables, capacity, seeds, orders, priority)


def pm_comparison(adm: dict, safe: dict) -> pd.DataFrame:
    """Both PriorityMeisters side by side: tenants admitted (and against SNC-Meister) and the
    SLO safety of those admitted, per percentile."""
    rows = []
    for label, form in (("primary", "simplified"), (PM_ORIGINAL, "original")):
        if label not in adm:
            continue
        a = adm[label].set_index(["p", "method"])
        s = safe[label].set_index(["p", "method"])
        for p in SLO_GRID:
            rows.append({"PriorityMeister": form, "p": p,
                         "admitted": a.loc[(p, "PM"), "admitted"],
                         "vs SNCM": a.loc[(p, "PM"), "vs SNCM"],
                         "violating_%": s.loc[(p, "PM"), "violating_%"],
                         "worst actual/SLO": s.loc[(p, "PM"), "worst actual/SLO"]})  # fmt: skip
    return pd.DataFrame(rows).set_index(["PriorityMeister", "p"])


def sensitivity_row(summary: pd.DataFrame) -> dict:
    """T1's order and the gain order for one (capacity, SLO mode) admission summary (a frame
    or :func:`_summary_rows`)."""
    rows = _by_method(summary)
    return {
        "T1 holds": all(_separated(rows, p) for p in SLO_GRID),
        "gain p99 %": 100 * _gain(rows, 99.0, "AccTail", "SNCM"),
        "gain p99.9 %": 100 * _gain(rows, 99.9, "AccTail", "SNCM"),
    }


def sensitivity_by_reading(allocations, pm_original, labels, capacities, seeds, seed) -> dict:
    """T5 under every reading: T1's order and the gain order, with each method's admissions, for
    every node capacity and SLO assignment (grid or headline). The (reading, capacity,
    assignment) cases run side by side, each on its own stream of orders."""
    inputs = {label: (admission_tables(under_reading(allocations, label)),
                      priority_for(label, pm_original)) for label in labels}  # fmt: skip
    cases = [(label, cap, mode) for label in labels for cap in capacities
             for mode in ("grid", "headline")]  # fmt: skip
    rows = sweep(functools.partial(_sensitivity_case, inputs, seeds, seed), cases, seed=seed,
                 desc="T5 sensitivity")  # fmt: skip
    return {label: pd.DataFrame([row for case, row in zip(cases, rows, strict=True)
                                 if case[0] == label]) for label in labels}  # fmt: skip


def _sensitivity_case(inputs, seeds, seed, case, rng) -> dict:
    """One T5 case; its orders come from (capacity, assignment) alone, the same under every
    reading (``rng``, the sweep's stream, is not used)."""
    label, cap, mode = case
    tables, priority = inputs[label]
    orders = task_rng(seed, ("sensitivity", cap, mode))
    runs = runs_on(tables, cap, seeds, mode, orders, priority)
    rows = _summary_rows(runs)
    by = _by_method(rows)
    admitted = {f"{m} p{p:g}": by[p, m]["admitted"]
                for p in SLO_GRID for m in ("PM", "SNCM", "AccTail", EXACT.name)}  # fmt: skip
    return {"C": cap, "SLOs": mode, **sensitivity_row(rows), **admitted, "orders": by_order(runs)}
