"""Checks of the simulation: the simpy core pool against its numpy fluid fast path (S10), and
seed 0's smart run rebuilt from scratch (S11)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from storrepro.papers.vdi.books import forecast_books
from storrepro.papers.vdi.config import SystemParams
from storrepro.papers.vdi.experiment.runs import (
    RunTask,
    make_allocator,
    pool_size,
    run_policy,
    system_series,
)
from storrepro.papers.vdi.kernel import fluid_replay, summarize
from storrepro.papers.vdi.reference import simulate
from storrepro.papers.vdi.seeds import seed_trace, single_threaded
from storrepro.sim.core_pool import CorePoolConfig


@dataclass(frozen=True)
class FluidTask:
    """S10: one policy replayed by the simpy pool and by the numpy fluid reference."""

    STREAM: ClassVar[tuple[str, ...]] = ("run",)
    run: RunTask


def fluid_agreement(task: FluidTask, rng: np.random.Generator) -> dict:
    """Both replays of the same policy; the largest per-tick differences."""
    with single_threaded():
        run = task.run
        _, st = seed_trace(run.base_seed, run.seed_index, run.trace)
        s = run.system
        pool_blocks = pool_size(st, run.scaling, s, run.pool_factor, run.pool_book)
        demand, _, lumps = system_series(st, run.scaling, run.tick_s)
        config = CorePoolConfig(s.n_cores, s.fg_iops_per_core, s.bg_blocks_per_core_s, run.tick_s)
        simpy_log = simulate(demand, lumps, make_allocator(run, pool_blocks, st), config)
        simpy_log = simpy_log.log.to_frame()
        fluid_log = fluid_replay(demand, lumps, make_allocator(run, pool_blocks, st), config)
        a, b = summarize(simpy_log), summarize(fluid_log)
        return {
            "seed": run.seed_index,
            "policy": run.policy,
            "simpy_violation_pct": a["violation_pct"],
            "fluid_violation_pct": b["violation_pct"],
            "simpy_queued_pct": a["queued_pct"],
            "fluid_queued_pct": b["queued_pct"],
            "max_debt_diff": float(np.max(np.abs(simpy_log["debt"] - fluid_log["debt"]))),
            "max_cfg_diff": float(np.max(np.abs(simpy_log["c_fg"] - fluid_log["c_fg"]))),
        }


def fluid_check(
    base_seed: int, seeds, system: SystemParams, books: list[dict], sweep_fn, trace=None
) -> pd.DataFrame:
    """S10: the fixed, smart and idle-only runs of every seed on the simpy pool and on its fast
    path, one row per run."""
    tasks = [
        FluidTask(RunTask(base_seed, i, p, system=system, book=books[i]["proposed"], trace=trace))
        for i in seeds
        for p in ("fixed", "smart", "idle-only")
    ]
    return pd.DataFrame(sweep_fn(fluid_agreement, tasks, desc="simpy vs fluid"))


def rerun_smart(base_seed: int, alpha: float, system: SystemParams, trace=None) -> pd.DataFrame:
    """Seed 0's smart run with its trace and forecasts rebuilt from scratch: its tick log (S11)."""
    seed_trace.cache_clear()
    book = forecast_books(seed_trace(base_seed, 0, trace)[1], alpha, models=("proposed",))
    task = RunTask(
        base_seed, 0, "smart", "proposed", system=system, book=book["proposed"], trace=trace
    )
    return run_policy(task, None)["log"]
