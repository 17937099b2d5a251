"""From one simulated run to the paper's quantities (Figs 12, 15–19 and the hybrid diagnostics),
and the workload x scheme tables of those quantities over runs."""

from __future__ import annotations

import numpy as np
import pandas as pd

from storrepro.papers.bid.results import SimResult
from storrepro.sim.disk_model import DEFAULT_GEOMETRY, seek_metrics

CYLINDERS = DEFAULT_GEOMETRY.cylinders
SHORT_MOVE = CYLINDERS // 100  # short: 2 <= d < 1 % of the cylinders
LONG_MOVE = CYLINDERS // 10  # long: d >= 10 % of the cylinders


def trace_facts(trace: pd.DataFrame) -> dict:
    """What :func:`summarise` reads of a trace: which events are reads, the sectors written and
    submitted, and the processes; a sweep computes them once per trace."""
    reads = (trace.op == "R").to_numpy()
    return {
        "reads": reads,
        "written": trace.loc[~reads, "size"].sum(),
        "total": trace["size"].sum(),
        "processes": int(trace.pid.nunique()),
    }


def summarise(result: SimResult, trace: pd.DataFrame, facts: dict | None = None) -> dict:
    """Scalar metrics of one run: device times (s), arm movements, latencies (ms), SSD share.
    ``facts`` may hand in :func:`trace_facts` of ``trace``."""
    facts = trace_facts(trace) if facts is None else facts
    q = result.requests
    hdd, ssd = q[q.device == 0], q[q.device == 1]
    d = hdd.d.to_numpy()
    m2 = seek_metrics(d, CYLINDERS, min_distance=2)
    m1 = seek_metrics(d, CYLINDERS, min_distance=1)
    moves = d[d >= 2]
    latency = result.event_completion - result.event_arrival
    reads, written, total = facts["reads"], facts["written"], facts["total"]
    # the quartiles in one call: one partition of the moves gives all three
    quartiles = np.percentile(moves, (25, 50, 75)) if moves.size else np.full(3, np.nan)
    out = {
        "device_time_s": q.service.sum() / 1000,
        "hdd_time_s": hdd.service.sum() / 1000,
        "ssd_time_s": ssd.service.sum() / 1000,
        "makespan_s": q.t_end.max() / 1000,
        "requests": len(q),
        "n1": m1["movements"],
        "n2": m2["movements"],
        "TMD": m2["cylinders_traversed"],
        "AD_seek": float(moves.mean()) if moves.size else np.nan,
        "AD_seek_std": float(moves.std()) if moves.size else np.nan,
        # quartiles of the same moves' distances (the spread drawn in Fig. 16; std is not)
        **{f"AD_seek_p{p}": float(x) for p, x in zip((25, 50, 75), quartiles, strict=True)},
        "TD_sweep": m2["sweeps"],
        "short_moves": int(((d >= 2) & (d < SHORT_MOVE)).sum()),
        # as arm_moves: moves (d >= 2) per second of the HDD's last request start
        "moves_per_s": _per_second(moves.size, hdd.t_start),
        "long_moves": int((d >= LONG_MOVE).sum()),
        "ssd_write_share": ssd.loc[ssd.op == "W", "size"].sum() / written if written else 0.0,
        "ssd_byte_share": ssd["size"].sum() / total if total else np.nan,
        "write_byte_share": written / total if total else np.nan,
        "ssd_request_share": len(ssd) / len(q),
        "ssd_small_share": float((ssd["size"] <= 64).mean()) if len(ssd) else np.nan,
        "sectors_served": int(q["size"].sum()),
        "sectors_submitted": int(total),
        "leftover": result.leftover,
        "processes": facts["processes"],
    }
    for op, mask in (("read", reads), ("write", ~reads)):
        lat = latency[mask]
        out[f"{op}_mean_ms"] = float(lat.mean()) if lat.size else np.nan
        p95, p99 = np.percentile(lat, (95, 99)) if lat.size else (np.nan, np.nan)
        out[f"{op}_p95_ms"], out[f"{op}_p99_ms"] = float(p95), float(p99)
    if result.flushes is not None:
        flushes = result.flushes
        out["flushes"] = len(flushes)
        out["deadline_flush_share"] = float((flushes.cause == "deadline").mean())
        out["mean_sq_requests"] = float(flushes.requests.mean())
    if result.decisions is not None:
        pf = result.decisions.pf[result.decisions.tier == "ssd"].to_numpy()
        out["max_ssd_pf"] = float(pf.max()) if pf.size else np.nan
        out["vfs_read_hits"] = result.vfs_hits["R"]
    return out


def _per_second(count: int, starts: pd.Series) -> float:
    """``count`` per second of the last request start (ms); undefined (NaN) when no request
    starts after time 0, e.g. a run of one request."""
    last = float(starts.max()) if len(starts) else 0.0
    return float(count / (last / 1000)) if last > 0 else np.nan


def arm_moves(arms: dict) -> pd.DataFrame:
    """Per scheme (``arms``: scheme -> its HDD requests with t_start and d): short moves
    (2 <= d < 1 % of the cylinders), long moves (d >= 10 %) and moves (d >= 2) per second."""
    return pd.DataFrame(
        {
            s: {
                "short moves": int(((a.d >= 2) & (a.d < SHORT_MOVE)).sum()),
                "long moves": int((a.d >= LONG_MOVE).sum()),
                "moves per s": _per_second(int((a.d >= 2).sum()), a.t_start),
            }
            for s, a in arms.items()
        }
    ).T


def means(summary: pd.DataFrame, column: str, variant: str = "primary") -> pd.DataFrame:
    """workload x scheduler table of the mean of ``column`` over replicates, every scheduler's
    runs under ``variant`` (a reading label)."""
    if "variant" in summary:
        summary = summary[summary.variant == variant]
    return summary.groupby(["workload", "scheduler"])[column].mean().unstack()


def per_seed(summary: pd.DataFrame, column, variant: str = "primary"):
    """workload x scheduler table of ``column`` with one row per trace (replicates in order;
    the run's input digest takes no MultiIndex, so the replicate is not a level), every
    scheduler's runs under ``variant`` (a reading label). With a list of columns, a dict of such
    tables (one reshaping for all)."""
    rows = summary[summary.variant == variant] if "variant" in summary else summary
    columns = [column] if isinstance(column, str) else list(column)
    wide = rows.set_index(["workload", "replicate", "scheduler"])[columns].unstack()
    wide = wide.reset_index(level="replicate", drop=True)
    tables = {c: wide[c].rename_axis(columns=None) for c in columns}
    return tables[column] if isinstance(column, str) else tables


def workload_means(summary: pd.DataFrame, column: str) -> pd.Series:
    """Per workload, the mean over seeds of a per-trace column (the oracle, on the Noop rows)."""
    rows = summary[summary.scheduler == "noop"]
    if "variant" in rows:
        rows = rows[rows.variant == "primary"]
    return rows.groupby("workload")[column].mean()


def seed_reduction(times: pd.DataFrame, scheme: str, against) -> pd.Series:
    """Per trace (a per-seed table's rows): ``1 - scheme / min(against)`` of the same trace, a
    fraction. Every reduction of notebook 04 — the claims, the headline and the tables — is the
    mean over seeds of this (:func:`over_seeds`), never a ratio of mean times."""
    return 1 - times[scheme] / times[list(against)].min(axis=1)


def seed_gain(bound: pd.Series, times: pd.DataFrame, against) -> pd.Series:
    """Per trace: what a time of that trace (one per row: a bound, a clairvoyant sweep) saves
    against ``min(against)`` of the same trace; for the lower bound, the most any schedule
    could save."""
    best = times[list(against)].min(axis=1)
    return pd.Series(1 - bound.to_numpy() / best.to_numpy(), index=best.index)


def over_seeds(x: pd.Series) -> pd.Series:
    """Per workload, the mean over seeds of a per-trace series."""
    return x.groupby(level=0).mean()


def ranking(table: pd.DataFrame) -> pd.Series:
    """Per workload, the schemes from fastest to slowest (cumulative time), as one string."""
    return table.apply(lambda row: " < ".join(row.sort_values(kind="stable").index), axis=1)
