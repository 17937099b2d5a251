"""The fast path of the core pool: the same per-tick rules as the simpy model
(:mod:`storrepro.papers.vdi.reference`), written as a plain loop over arrays with the debt lumps of
a tick added before its allocation. A test and the notebook (S10) check that it gives the simpy
model's numbers tick by tick."""

from __future__ import annotations

import numpy as np
import pandas as pd

from storrepro.sim.core_state import LOG_COLUMNS, Allocator, CorePoolConfig, PoolState


def fluid_replay(demand_iops, lumps, allocator: Allocator, config: CorePoolConfig) -> pd.DataFrame:
    """Tick log with the core pool's ``LOG_COLUMNS``."""
    demand = np.asarray(demand_iops, dtype=float)
    lumps = np.asarray(lumps, dtype=float)
    if demand.shape != lumps.shape or demand.ndim != 1:
        raise ValueError("demand_iops and lumps must be 1-D arrays of equal length")
    if np.any(demand < 0) or np.any(lumps < 0):
        raise ValueError("demand_iops and lumps must be >= 0")
    n, tick_s = config.n_cores, config.tick_s
    debt = 0.0
    rows = []
    for tick in range(demand.size):
        debt += lumps[tick]
        state = PoolState(
            tick, tick * tick_s, float(demand[tick]), debt, n, tick_s, config.fg_iops_per_core
        )
        c_fg = allocator(state)
        capacity = c_fg * config.fg_iops_per_core
        served = min(demand[tick], capacity)
        bg = min(debt, (n - c_fg) * config.bg_blocks_per_core_s * tick_s)
        debt -= bg
        rows.append(
            (
                tick,
                tick * tick_s,
                demand[tick],
                c_fg,
                n - c_fg,
                served,
                demand[tick] - served,
                capacity < demand[tick],
                lumps[tick],
                bg,
                debt,
            )
        )
    return pd.DataFrame(rows, columns=list(LOG_COLUMNS))


def summarize(log: pd.DataFrame) -> dict[str, float]:
    """Violation % of ticks and queued % of FG IO, as ``CorePool.summary``."""
    return {
        "violation_pct": 100.0 * log["violation"].mean(),
        "queued_pct": 100.0 * log["queued_iops"].sum() / log["demand_iops"].sum(),
    }
