"""Notebook 03's scheduler runs: trace → forecasts → scheduler → simpy core pool.

The seed traces come from :mod:`storrepro.vdi.seeds` and the forecast books from
:mod:`storrepro.vdi.forecast_study`. Each run replays the 6-day window of one seed under one
policy on :class:`storrepro.sim.core_pool.CorePool`; the calibration of the fixed baseline, the
M/M/c latency SLO, the simpy-vs-numpy check (S10) and the invariants (S1, S2) live here too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import simpy

from storrepro.sim.core_pool import CorePool, CorePoolConfig, demand_cores
from storrepro.vdi import trace as tr
from storrepro.vdi.forecast_study import Book
from storrepro.vdi.scheduler import (
    SPREADS,
    FixedWatermark,
    ForecastView,
    Inline,
    SmartScheduler,
    fg_need,
    lindley,
    snapshot_debt,
)
from storrepro.vdi.seeds import DAY, SeedTrace, seed_trace, single_threaded

POLICIES = ("fixed", "fixed-wc", "smart", "idle-only", "inline")
#: How the pool size P is set (a reading): the A7 rule, or the size the spec's scratch prototype
#: of the same generator reported (75–81 M blocks over its seeds 0–4; the middle is used).
POOL_RULES = {
    "a7": "P = the peak debt of an unlimited replay of the window that frees debt only on idle "
    "cores (the 95 % cap just binds)",
    "prototype": "P = 78 M blocks on every seed, the middle of the 75–81 M blocks the spec's "
    "scratch prototype reported for the same generator",
}
PROTOTYPE_POOL = 78e6
SCALINGS = {"offset": (1500.0, 1700.0), "peak": (0.0, 3200.0)}


@dataclass(frozen=True)
class SystemParams:
    """The array of §2.1/§4.3 and the planner of §2.7 (times in s)."""

    n_cores: int = 64
    fg_iops_per_core: float = 50.0
    bg_blocks_per_core_s: float = 20.0
    cap: float = 0.95
    low: float = 0.40
    high: float = 0.50
    horizon_s: float = 86_400.0
    window_s: float = 43_200.0
    replan_s: float = 3_600.0
    alpha: float = 0.5
    spread: str = "bg-floor"
    pool_rule: str = "a7"

    def __post_init__(self):
        if self.spread not in SPREADS:
            raise ValueError(f"spread must be one of {tuple(SPREADS)}, got {self.spread!r}")
        if self.pool_rule not in POOL_RULES:
            raise ValueError(
                f"pool_rule must be one of {tuple(POOL_RULES)}, got {self.pool_rule!r}"
            )


# ---------------------------------------------------------------- scheduler runs


@dataclass(frozen=True)
class RunTask:
    """One replay of the 6-day window under one policy."""

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
    book: Book | None = field(default=None, repr=False, compare=False)

    def __post_init__(self):
        if self.policy not in POLICIES:
            raise ValueError(f"policy must be one of {POLICIES}, got {self.policy!r}")
        if self.scaling not in SCALINGS:
            raise ValueError(f"scaling must be one of {tuple(SCALINGS)}, got {self.scaling!r}")
        if not (self.tick_s > 0 and 600.0 % self.tick_s == 0):
            raise ValueError(f"tick_s must divide 600 s, got {self.tick_s!r}")
        if self.policy == "smart" and self.book is None:
            raise ValueError("the smart policy needs a forecast book")


def system_series(st: SeedTrace, scaling: str, tick_s: float):
    """Window demand (IOPS), writes (IOPS) and snapshot-debt lumps at the given tick."""
    total, write = st.window("total"), st.window("write")
    demand = tr.to_system(total, total, *SCALINGS[scaling])
    writes = demand * write / total
    reps = int(round(600.0 / tick_s))
    demand, writes = np.repeat(demand, reps), np.repeat(writes, reps)
    return demand, writes, snapshot_debt(writes, tick_s, int(round(3600.0 / tick_s)))


def a7_pool(demand, lumps, system: SystemParams, tick_s: float) -> float:
    """A7: the peak debt of an unlimited, idle-cycle-only replay (blocks)."""
    need = fg_need(demand, system.n_cores, system.fg_iops_per_core)
    capacity = (system.n_cores - need) * system.bg_blocks_per_core_s * tick_s
    after = lindley(0.0, lumps, capacity)
    before = np.concatenate([[0.0], after[:-1]]) + lumps
    return float(before.max())


def pool_size(st: SeedTrace, scaling: str, system: SystemParams, factor: float = 1.0) -> float:
    """P in blocks under ``system.pool_rule`` (:data:`POOL_RULES`), times ``factor``."""
    if system.pool_rule == "prototype":
        return factor * PROTOTYPE_POOL
    demand600, _, lumps600 = system_series(st, scaling, 600.0)
    return factor * a7_pool(demand600, lumps600, system, 600.0)


def forecast_view(book: Book, st: SeedTrace, scaling: str, tick_s: float) -> ForecastView:
    ref = st.window("total")
    demand = tr.to_system(book.total, ref, *SCALINGS[scaling])
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


def simulate(demand, lumps, allocator, config: CorePoolConfig) -> CorePool:
    """Replay on the simpy core pool; each lump is added at its tick's start time."""
    env = simpy.Environment()
    pool = CorePool(env, demand, allocator, config)

    def expiries():
        for tick in np.flatnonzero(lumps):
            yield env.timeout(tick * config.tick_s - env.now)
            pool.add_debt(float(lumps[tick]))

    env.process(expiries())
    env.run(until=pool.process)
    return pool


def run_policy(task: RunTask, rng: np.random.Generator) -> dict:
    """Simulate one policy on one seed; summary numbers plus the tick log."""
    with single_threaded():
        return _run_policy(task)


def _run_policy(task: RunTask) -> dict:
    _, st = seed_trace(task.base_seed, task.seed_index)
    s = task.system
    pool_blocks = pool_size(st, task.scaling, s, task.pool_factor)
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


# ---------------------------------------------------------------- the notebook's studies

#: Fixed-ramp candidates (n_min -> n_agg) searched by the baseline calibration (spec §4.4).
RAMP_GRID = tuple(
    (lo, hi) for lo in (4, 8, 16, 24, 32) for hi in (16, 24, 32, 40, 48, 56, 64) if hi >= lo
)
#: Paper targets of the fixed baseline and the half-widths of S4 used to weigh the two misses.
BASELINE_TARGET = {"violation_pct": (54.6, 10.0), "queued_pct": (21.7, 11.0)}


def calibration_score(violation_pct: float, queued_pct: float) -> float:
    """Distance of a fixed baseline from the paper's 54.6 % / 21.7 %, in S4 half-widths."""
    (v0, dv), (q0, dq) = BASELINE_TARGET["violation_pct"], BASELINE_TARGET["queued_pct"]
    return ((violation_pct - v0) / dv) ** 2 + ((queued_pct - q0) / dq) ** 2


def summary_frame(results: list[dict]) -> pd.DataFrame:
    keep = [k for k in results[0] if k not in ("log", "cff", "w_dyn_pct")]
    return pd.DataFrame([{k: r.get(k) for k in keep} for r in results])


@dataclass(frozen=True)
class RampTask:
    """Fixed-bucket runs of one seed for several ramps: one sweep task, as each run is short."""

    base_seed: int
    seed_index: int
    ramps: tuple[tuple[int, int], ...]
    system: SystemParams = SystemParams()


def run_ramps(task: RampTask, rng: np.random.Generator) -> list[dict]:
    """The summaries (no tick logs) of the fixed bucket with each of ``task.ramps``."""
    results = []
    for lo, hi in task.ramps:
        run = RunTask(
            task.base_seed, task.seed_index, "fixed", n_min=lo, n_agg=hi, system=task.system
        )
        result = run_policy(run, rng)
        del result["log"]
        results.append(result)
    return results


def calibrate_fixed(base_seed: int, seeds: int, system: SystemParams, sweep_fn) -> pd.DataFrame:
    """Every ramp of :data:`RAMP_GRID` on every seed, scored on the mean over seeds."""
    grid = [(lo, hi) for lo, hi in RAMP_GRID if hi <= system.n_cores]
    tasks = [
        RampTask(base_seed, i, tuple(r for r in grid if r[0] == lo), system)
        for i in range(seeds)
        for lo in dict.fromkeys(lo for lo, _ in grid)
    ]
    done = sweep_fn(run_ramps, tasks, desc="calibrate fixed ramp")
    by_run = {
        (ramp, task.seed_index): result
        for task, results in zip(tasks, done, strict=True)
        for ramp, result in zip(task.ramps, results, strict=True)
    }
    runs = [(ramp, i) for ramp in grid for i in range(seeds)]  # rows ordered ramp, then seed
    frame = summary_frame([by_run[run] for run in runs])
    frame["n_min"] = [lo for (lo, _), _ in runs]
    frame["n_agg"] = [hi for (_, hi), _ in runs]
    table = frame.groupby(["n_min", "n_agg"])[["violation_pct", "queued_pct"]].mean()
    table["score"] = [calibration_score(v, q) for v, q in table.to_numpy()]
    return table.sort_values("score")


def erlang_c_response(demand_iops, cores, per_core: float) -> np.ndarray:
    """M/M/c mean response time (s) per tick; inf where the cores cannot keep up (A4-alt).
    Erlang B by its recursion ``B_k = a·B_{k−1} / (k + a·B_{k−1})`` for all ticks at once."""
    lam = np.asarray(demand_iops, dtype=float)
    servers = np.asarray(cores, dtype=float).astype(int)
    out = np.full(lam.shape, np.inf)
    idle = lam <= 0
    out[idle] = 1 / per_core
    ok = ~idle & (servers >= 1) & (lam < servers * per_core)
    rate, c = lam[ok], servers[ok]
    a = rate / per_core
    blocking = np.ones(a.size)
    for k in range(1, int(c.max(initial=0)) + 1):
        blocking = np.where(k <= c, a * blocking / (k + a * blocking), blocking)
    wait_prob = blocking / (1 - (a / c) * (1 - blocking))
    out[ok] = wait_prob / (c * per_core - rate) + 1 / per_core
    return out


def latency_violation_pct(log: pd.DataFrame, per_core: float, slo_s: float) -> float:
    """% of ticks whose M/M/c mean response time exceeds ``slo_s`` (A4 alternative)."""
    response = erlang_c_response(log["demand_iops"], log["c_fg"], per_core)
    return float(100 * np.mean(response > slo_s))


@dataclass(frozen=True)
class FluidTask:
    """S10: one policy replayed by the simpy pool and by the numpy fluid reference."""

    run: RunTask


def fluid_agreement(task: FluidTask, rng: np.random.Generator) -> dict:
    """Both replays of the same policy; the largest per-tick differences."""
    from storrepro.vdi.fluid import fluid_replay, summarize

    with single_threaded():
        run = task.run
        _, st = seed_trace(run.base_seed, run.seed_index)
        s = run.system
        pool_blocks = pool_size(st, run.scaling, s, run.pool_factor)
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


def invariants(result: dict, system: SystemParams, tick_s: float = 600.0) -> dict[str, bool]:
    """S1 and S2 on one run's tick log."""
    log = result["log"]
    n = system.n_cores
    c_fg, c_bg = log["c_fg"].to_numpy(), log["c_bg"].to_numpy()
    tol = 1e-9 * max(1.0, result["debt_added"])
    conservation = abs(result["debt_added"] - result["bg_served"] - result["final_debt"])
    return {
        "S1": bool(
            np.all(c_fg + c_bg == n)
            and np.all((c_fg >= 0) & (c_fg <= n))
            and np.all(log["debt"] >= 0)
            and np.all(
                log["fg_served_iops"]
                <= np.minimum(log["demand_iops"], c_fg * system.fg_iops_per_core) + 1e-9
            )
        ),
        "S2": bool(
            conservation <= tol
            and np.all(log["bg_served"] <= c_bg * system.bg_blocks_per_core_s * tick_s + 1e-6)
        ),
    }


def busy_weekday_ticks(times: pd.DatetimeIndex) -> np.ndarray:
    """Ticks of weekday (Mon–Fri) busy hours, 09:00–17:00."""
    return np.asarray((times.day_of_week < 5) & (times.hour >= 9) & (times.hour < 17))


def fixed_day(
    base_seed: int,
    seed_index: int,
    low: float,
    n_min: int,
    n_agg: int,
    system: SystemParams = SystemParams(),
    day: int = 0,
) -> dict:
    """One window day (0 = Wednesday) of the fixed bucket with the band ``[low, low + 10 %]``,
    from an empty pool as at the start of the window, on the core pool: the notebook's live
    control. Summary numbers, the tick log and the pool size (A7 over the whole window)."""
    _, st = seed_trace(base_seed, seed_index)
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


# ---------------------------------------------------------------- readings and the pool size

#: The pool-size factors of S6's "every pool" (×1 is the run itself).
POOL_FACTORS = (0.8, 1.2)


def scheduler_set(
    base_seed: int,
    seeds,
    system: SystemParams,
    books: list[dict],
    ramp: tuple[int, int],
    sweep_fn,
    pools: bool = True,
    fixed: dict | None = None,
) -> dict:
    """The runs S5–S7 and S9 are judged on, under one reading: per seed the fixed bucket with
    the frozen ``ramp``, the smart scheduler with the proposed forecast and with the oracle, and
    (with ``pools``) both at the pool factors of :data:`POOL_FACTORS`. ``fixed`` reuses fixed
    runs that do not depend on the reading (``{factor: [results]}``)."""
    seeds = list(seeds)
    factors = (1.0, *POOL_FACTORS) if pools else (1.0,)
    fixed = dict(fixed or {})
    tasks = []
    for factor in factors:
        if factor not in fixed:
            tasks += [
                RunTask(base_seed, i, "fixed", n_min=ramp[0], n_agg=ramp[1], pool_factor=factor,
                        system=system)
                for i in seeds
            ]
        tasks += [
            RunTask(base_seed, i, "smart", "proposed", pool_factor=factor, system=system,
                    book=books[i]["proposed"])
            for i in seeds
        ]
    tasks += [RunTask(base_seed, i, "smart", "oracle", system=system, book=books[i]["oracle"])
              for i in seeds]
    done = sweep_fn(run_policy, tasks, desc=f"runs ({system.pool_rule}, {system.spread})")
    out = {"fixed": {f: list(v) for f, v in fixed.items()}, "smart": {}, "oracle": []}
    for task, result in zip(tasks, done, strict=True):
        if task.policy == "fixed":
            out["fixed"].setdefault(task.pool_factor, []).append(result)
        elif task.forecast == "oracle":
            out["oracle"].append(result)
        else:
            out["smart"].setdefault(task.pool_factor, []).append(result)
    return out


def idle_only_balance(st: SeedTrace, system: SystemParams, book: Book | None = None) -> dict:
    """Why P (A7) is what it is: the idle-only replay's debt over the window, and P when one
    input of the rule changes. Blocks in millions."""
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
        "real-valued FG cores": peak((n - np.minimum(n, demand / system.fg_iops_per_core))
                                     * per_core),
    }
    q_all = float(np.quantile(st.total.ravel(), 0.99))
    q_win = float(np.quantile(st.window("total"), 0.99))
    base, amp = SCALINGS["offset"]
    d2 = base + amp * st.window("total") / q_all
    l2 = snapshot_debt(d2 * st.window("write") / st.window("total"), 600.0, 6)
    row["trace q99 over 35 days"] = peak((n - fg_need(d2, n, system.fg_iops_per_core)) * per_core,
                                         l2)
    row["q99 (window / 35 days)"] = f"{q_win:.0f} / {q_all:.0f}"
    if book is not None:
        view = forecast_view(book, st, "offset", 600.0)
        dhat = view.demand[:, :DAY].ravel()
        row["FG sized by max(A, Â) (A3)"] = peak(
            (n - fg_need(np.maximum(demand, dhat), n, system.fg_iops_per_core)) * per_core
        )
    return row
