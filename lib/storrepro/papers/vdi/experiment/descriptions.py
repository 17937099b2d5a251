"""The notebook's descriptions of the window: the workload each seed puts on the array, and why
the pool size P (the ``a7`` rule) is what it is."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from storrepro.papers.vdi import workload as wl
from storrepro.papers.vdi.books import Book
from storrepro.papers.vdi.config import SystemParams
from storrepro.papers.vdi.experiment.runs import SCALINGS, pool_size, scaled_share, system_series
from storrepro.papers.vdi.scheduler import fg_need, lindley, snapshot_debt
from storrepro.papers.vdi.seeds import SeedTrace, seed_trace


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
    l2 = snapshot_debt(scaled_share(d2, st.window("write"), st.window("total")), 600.0, 6)
    row["trace q99 over 35 days"] = peak(
        (n - fg_need(d2, n, system.fg_iops_per_core)) * per_core, l2
    )
    row["q99 (window / 35 days)"] = f"{q_win:.0f} / {q_all:.0f}"
    if book is not None:
        own = dataclasses.replace(system, pool_rule="a7-forecast")
        row["FG sized by max(A, Â) (A3)"] = pool_size(st, "offset", own, book=book) / 1e6
    return row


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
