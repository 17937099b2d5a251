"""One scheduler run: the 6-day window of one seed replayed under one policy on the simpy core
pool (:func:`run_policy`), with the window's system series and the pool size P it is run at;
and one day of the fixed bucket, the notebook's live control (:func:`fixed_day`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np

from storrepro.papers.vdi import workload as wl
from storrepro.papers.vdi.books import Book
from storrepro.papers.vdi.config import PROTOTYPE_POOL, SystemParams
from storrepro.papers.vdi.reference import simulate
from storrepro.papers.vdi.scheduler import (
    FixedWatermark,
    ForecastView,
    Inline,
    SmartScheduler,
    fg_need,
    lindley,
    snapshot_debt,
)
from storrepro.papers.vdi.seeds import DAY, SeedTrace, seed_trace, single_threaded
from storrepro.sim.core_pool import CorePoolConfig, demand_cores

POLICIES = ("fixed", "fixed-wc", "smart", "idle-only", "inline")
DEFAULT_SYSTEM = SystemParams()
SCALINGS = {"offset": (1500.0, 1700.0), "peak": (0.0, 3200.0)}


@dataclass(frozen=True)
class RunTask:
    """One replay of the 6-day window under one policy."""

    STREAM: ClassVar[tuple[str, ...]] = ("base_seed", "seed_index", "policy", "forecast", "n_min",
                                         "n_agg", "pool_factor", "tick_s", "scaling", "system")
    base_seed: int
    seed_index: int
    policy: str
    forecast: str = "proposed"
    n_min: int = 8
    n_agg: int = 32
    pool_factor: float = 1.0
    tick_s: float = 600.0
    scaling: str = "offset"
    system: SystemParams = SystemParams()
    book: Book | None = field(default=None, compare=False)
    trace: wl.TraceInput | None = None
    #: the proposed model's book, which the ``a7-forecast`` pool rule sizes P by
    pool_book: Book | None = field(default=None, compare=False)

    def __post_init__(self):
        if self.policy not in POLICIES:
            raise ValueError(f"policy must be one of {POLICIES}, got {self.policy!r}")
        if self.scaling not in SCALINGS:
            raise ValueError(f"scaling must be one of {tuple(SCALINGS)}, got {self.scaling!r}")
        if not (self.tick_s > 0 and 600.0 % self.tick_s == 0):
            raise ValueError(f"tick_s must divide 600 s, got {self.tick_s!r}")
        if self.policy == "smart" and self.book is None:
            raise ValueError("the smart policy needs a forecast book")


def scaled_share(scale, part, whole):
    """``scale · part / whole`` per bin, 0 where ``whole`` is 0 (an idle interval of a real
    trace)."""
    return np.divide(scale * part, whole, out=np.zeros_like(whole, dtype=float), where=whole > 0)


def system_series(st: SeedTrace, scaling: str, tick_s: float):
    """Window demand (IOPS), writes (IOPS) and snapshot-debt lumps at the given tick."""
    total, write = st.window("total"), st.window("write")
    demand = wl.to_system(total, total, *SCALINGS[scaling])
    writes = scaled_share(demand, write, total)
    reps = int(round(600.0 / tick_s))
    demand, writes = np.repeat(demand, reps), np.repeat(writes, reps)
    return demand, writes, snapshot_debt(writes, tick_s, int(round(3600.0 / tick_s)))


def a7_pool(demand, lumps, system: SystemParams, tick_s: float, forecast=None) -> float:
    """The pool size of the ``a7`` rule: the peak debt of an unlimited replay that frees debt
    only on the cores FG leaves idle (blocks). With ``forecast`` (the demand forecast per tick)
    FG is sized as the smart scheduler sizes it, by the larger of demand and forecast (the
    ``a7-forecast`` rule)."""
    sized = demand if forecast is None else np.maximum(demand, forecast)
    need = fg_need(sized, system.n_cores, system.fg_iops_per_core)
    capacity = (system.n_cores - need) * system.bg_blocks_per_core_s * tick_s
    after = lindley(0.0, lumps, capacity)
    before = np.concatenate([[0.0], after[:-1]]) + lumps
    return float(before.max())


def pool_size(
    st: SeedTrace, scaling: str, system: SystemParams, factor: float = 1.0, book: Book | None = None
) -> float:
    """P in blocks under ``system.pool_rule`` (:data:`POOL_RULES`), times ``factor``; the
    ``a7-forecast`` rule needs the proposed model's ``book`` (the forecast the smart scheduler
    sizes FG by)."""
    if system.pool_rule == "prototype":
        return factor * PROTOTYPE_POOL
    demand600, _, lumps600 = system_series(st, scaling, 600.0)
    forecast = None
    if system.pool_rule == "a7-forecast":
        if book is None:
            raise ValueError("pool rule 'a7-forecast' needs the proposed model's forecast book")
        forecast = forecast_view(book, st, scaling, 600.0).demand[:, :DAY].ravel()
    return factor * a7_pool(demand600, lumps600, system, 600.0, forecast)


def forecast_view(book: Book, st: SeedTrace, scaling: str, tick_s: float) -> ForecastView:
    ref = st.window("total")
    demand = wl.to_system(book.total, ref, *SCALINGS[scaling])
    share = np.divide(book.write, book.total, out=np.zeros_like(book.total), where=book.total > 0)
    writes = demand * np.clip(share, 0.0, 1.0)
    reps = int(round(600.0 / tick_s))
    demand, writes = np.repeat(demand, reps, axis=1), np.repeat(writes, reps, axis=1)
    tph = int(round(3600.0 / tick_s))
    lumps = np.vstack([snapshot_debt(row, tick_s, tph) for row in writes])
    return ForecastView(demand, lumps, DAY * reps)


def make_allocator(task: RunTask, pool: float, st: SeedTrace):
    s = task.system
    ticks = lambda seconds: int(round(seconds / task.tick_s))  # noqa: E731
    if task.policy in ("fixed", "fixed-wc"):
        return FixedWatermark(
            pool, task.n_min, task.n_agg, s.low, s.high, harvest=task.policy == "fixed-wc"
        )
    if task.policy == "smart":
        view = forecast_view(task.book, st, task.scaling, task.tick_s)
        return SmartScheduler(
            pool,
            view,
            s.bg_blocks_per_core_s,
            s.cap,
            ticks(s.horizon_s),
            ticks(s.window_s),
            ticks(s.replan_s),
            spread=s.spread,
        )
    if task.policy == "inline":
        return Inline(s.bg_blocks_per_core_s)
    return demand_cores


def run_policy(task: RunTask, rng: np.random.Generator) -> dict:
    """Simulate one policy on one seed; summary numbers plus the tick log."""
    with single_threaded():
        return _run_policy(task)


def _run_policy(task: RunTask) -> dict:
    _, st = seed_trace(task.base_seed, task.seed_index, task.trace)
    s = task.system
    pool_blocks = pool_size(st, task.scaling, s, task.pool_factor, task.pool_book)
    demand, _, lumps = system_series(st, task.scaling, task.tick_s)
    allocator = make_allocator(task, pool_blocks, st)
    config = CorePoolConfig(s.n_cores, s.fg_iops_per_core, s.bg_blocks_per_core_s, task.tick_s)
    pool = simulate(demand, lumps, allocator, config)
    log = pool.log.to_frame()
    out = pool.summary(log)
    out.update(
        {
            "seed": task.seed_index,
            "policy": task.policy,
            "forecast": task.forecast if task.policy == "smart" else "",
            "pool_blocks": pool_blocks,
            "max_debt_pct": 100 * out["max_debt"] / pool_blocks,
            "freed_pct": 100 * out["bg_served"] / out["debt_added"],
            "max_lump_pct": 100 * float(lumps.max()) / pool_blocks,
            "log": log,
        }
    )
    if isinstance(allocator, SmartScheduler):
        out["cff"] = np.asarray(allocator.cff_log)
        out["w_dyn_pct"] = 100 * np.asarray(allocator.w_dyn_log) / pool_blocks
        out["iterations"] = int(np.sum(allocator.iterations))
    return out


def fixed_day(
    base_seed: int,
    seed_index: int,
    low: float,
    n_min: int,
    n_agg: int,
    system: SystemParams = DEFAULT_SYSTEM,
    day: int = 0,
    trace: wl.TraceInput | None = None,
) -> dict:
    """One window day (0 = Wednesday) of the fixed bucket with the band ``[low, low + 10 %]``,
    from an empty pool as at the start of the window, on the core pool: the notebook's live
    control. Summary numbers, the tick log and the pool size (set over the whole window)."""
    _, st = seed_trace(base_seed, seed_index, trace)
    demand, _, lumps = system_series(st, "offset", 600.0)
    pool_blocks = pool_size(st, "offset", system)
    high = min(1.0, low + system.high - system.low)
    allocator = FixedWatermark(pool_blocks, n_min, n_agg, low, high)
    ticks = slice(day * DAY, (day + 1) * DAY)
    config = CorePoolConfig(system.n_cores, system.fg_iops_per_core, system.bg_blocks_per_core_s)
    pool = simulate(demand[ticks], lumps[ticks], allocator, config)
    log = pool.log.to_frame()
    out = pool.summary(log)
    out.update(log=log, pool_blocks=pool_blocks, low=low, high=high)
    return out
