"""Background-debt schedulers for the core pool (paper §V-B, §VI-B).

Each scheduler is a plain object called once per tick as ``allocator(state) -> C_FG`` with a
:class:`storrepro.sim.core_state.PoolState`; BG gets the other ``N − C_FG`` cores. Returning
``C_FG = N`` keeps BG idle even when FG leaves cores unused (the non-harvesting fixed bucket).

- :func:`snapshot_debt` — hourly snapshots with 1 h retention: at each hour boundary the blocks
  written in the previous hour become deletable debt (one lump at the hour boundary).
- :class:`FixedWatermark` — the paper's baseline: BG starts at 40 % of the pool and grows to
  ``n_agg`` reserved cores at 50 %; optionally work-conserving.
- :class:`SmartScheduler` — the dynamic bucket: hourly, replay the forecast over the horizon
  and, while it breaches 95 % of the pool, steal one more core (CFF) in the window before the
  first breach; per tick ``C_FG = ⌈max(A, Â)/50⌉ − CFF``, emergency burn at 95 %. How
  the planner spreads the extra BG work over that window is a reading (``SPREADS``).
- :class:`Inline` — no deferral: BG takes the cores needed to clear all debt now.
- :func:`storrepro.sim.core_pool.demand_cores` — idle-only, unlimited debt.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from storrepro.papers.vdi.config import SPREADS
from storrepro.sim.core_state import PoolState
from storrepro.suite.checks import finite, whole


def _positive(name: str, value: float) -> float:
    return finite(name, value, strict=True)


def _fraction(name: str, value: float) -> float:
    if not (isinstance(value, int | float) and 0 < value <= 1):
        raise ValueError(f"{name} must be a fraction in (0, 1], got {value!r}")
    return float(value)


def fg_need(demand_iops, n_cores: int, fg_iops_per_core: float):
    """Cores FG needs: ⌈A / CIOPS_FG⌉ clipped to [0, N]; works on scalars and arrays."""
    finite("fg_iops_per_core", fg_iops_per_core, strict=True)
    return np.minimum(n_cores, np.ceil(np.asarray(demand_iops) / fg_iops_per_core))


def fg_cores(demand_iops: float, n_cores: int, fg_iops_per_core: float) -> int:
    """:func:`fg_need` for one tick, as an int; plain floats, because allocators run per tick."""
    if type(fg_iops_per_core) is not float or not 0 < fg_iops_per_core < math.inf:  # fast path
        finite("fg_iops_per_core", fg_iops_per_core, strict=True)
    if type(demand_iops) is not float or not 0 <= demand_iops < math.inf:
        finite("demand_iops", demand_iops)
    if type(n_cores) is not int or n_cores < 1:
        n_cores = whole("n_cores", n_cores, minimum=1)
    return min(n_cores, math.ceil(demand_iops / fg_iops_per_core))


def snapshot_debt(write_iops, tick_s: float = 600.0, ticks_per_hour: int = 6) -> np.ndarray:
    """Debt lumps (blocks) per tick: at tick ``h·ticks_per_hour`` (h ≥ 1) the hour's snapshot
    expires and its written blocks ``Σ W·tick_s`` over ticks ``[(h−1)·tph, h·tph)`` become debt.
    The last partial hour expires after the run and adds nothing."""
    w = np.asarray(write_iops, dtype=float)
    if w.ndim != 1 or np.any(~np.isfinite(w)) or np.any(w < 0):
        raise ValueError("write_iops must be a 1-D series of finite IOPS >= 0")
    _positive("tick_s", tick_s)
    if ticks_per_hour < 1 or int(ticks_per_hour) != ticks_per_hour:
        raise ValueError(f"ticks_per_hour must be a whole number >= 1, got {ticks_per_hour!r}")
    lumps = np.zeros(w.size)
    hours = w.size // ticks_per_hour
    blocks = w[: hours * ticks_per_hour].reshape(hours, ticks_per_hour).sum(axis=1) * tick_s
    lumps[ticks_per_hour::ticks_per_hour] = blocks[: len(lumps[ticks_per_hour::ticks_per_hour])]
    return lumps


def lindley(initial: float, arrivals: np.ndarray, capacity: np.ndarray) -> np.ndarray:
    """Debt after each step of ``x_k = max(0, x_{k−1} + a_k − c_k)``, ``x_{−1} = initial``, in
    closed form: ``x_k = S_k − min(−initial, min_{j≤k} S_j)`` with ``S = cumsum(a − c)``."""
    s = np.cumsum(np.asarray(arrivals, dtype=float) - capacity)
    return s - np.minimum(-initial, np.minimum.accumulate(s))


@dataclass
class FixedWatermark:
    """Fixed 40–50 % debt bucket, the paper's baseline. Below ``low`` BG does nothing (unless
    ``harvest``); from ``low`` to ``high`` the reserved BG cores ramp from ``n_min`` to
    ``n_agg`` (rounded up) and stay at ``n_agg`` above; FG gets ``min(need, N − reserved)`` and
    BG all the rest."""

    pool_blocks: float
    n_min: int = 8
    n_agg: int = 32
    low: float = 0.40
    high: float = 0.50
    harvest: bool = False

    def __post_init__(self):
        _positive("pool_blocks", self.pool_blocks)
        _fraction("low", self.low)
        _fraction("high", self.high)
        if not self.low < self.high:
            raise ValueError(f"watermarks need low < high, got {self.low!r}, {self.high!r}")
        if not 0 <= self.n_min <= self.n_agg:
            raise ValueError(f"need 0 <= n_min <= n_agg, got {self.n_min!r}, {self.n_agg!r}")

    def reserved(self, debt: float) -> int:
        frac = debt / self.pool_blocks
        if frac < self.low:
            return 0
        ramp = min(1.0, (frac - self.low) / (self.high - self.low))
        return math.ceil(self.n_min + (self.n_agg - self.n_min) * ramp - 1e-9)

    def __call__(self, state: PoolState) -> int:
        if self.n_agg > state.n_cores:
            raise ValueError(f"n_agg = {self.n_agg} exceeds the pool's {state.n_cores} cores")
        need = fg_cores(state.demand_iops, state.n_cores, state.fg_iops_per_core)
        reserved = self.reserved(state.debt)
        if reserved == 0:
            return need if self.harvest else state.n_cores
        return min(need, state.n_cores - reserved)


@dataclass
class Inline:
    """No deferral: BG takes ⌈debt / (μ_BG·Δ)⌉ cores first, FG the rest."""

    bg_blocks_per_core_s: float = 20.0

    def __post_init__(self):
        _positive("bg_blocks_per_core_s", self.bg_blocks_per_core_s)

    def __call__(self, state: PoolState) -> int:
        per_core = self.bg_blocks_per_core_s * state.tick_s
        return state.n_cores - min(state.n_cores, math.ceil(state.debt / per_core - 1e-9))


@dataclass(frozen=True)
class ForecastView:
    """Forecasts as known when planning: ``demand[d]`` and ``lumps[d]`` cover the ticks from
    the start of day ``d`` for at least ``horizon`` ticks past the day's end, made with data up
    to the start of day ``d`` (day-ahead). ``lumps`` are forecast snapshot-debt lumps (blocks)."""

    demand: np.ndarray  # (days, ticks) FG demand forecast, IOPS
    lumps: np.ndarray  # (days, ticks) debt lumps forecast, blocks
    ticks_per_day: int

    def __post_init__(self):
        if self.demand.shape != self.lumps.shape or self.demand.ndim != 2:
            raise ValueError("demand and lumps forecasts must be 2-D arrays of equal shape")
        if np.any(self.demand < 0) or np.any(self.lumps < 0):
            raise ValueError("forecasts must be >= 0")

    def at(self, tick: int, length: int) -> tuple[np.ndarray, np.ndarray]:
        day, offset = divmod(tick, self.ticks_per_day)
        if offset + length > self.demand.shape[1]:
            raise ValueError(f"forecast of day {day} is too short for a {length}-tick horizon")
        return (
            self.demand[day, offset : offset + length],
            self.lumps[day, offset : offset + length],
        )


@dataclass
class SmartScheduler:
    """Dynamic debt bucket with the forecast-replay planner (paper §VI-B), as we read its words.

    Every ``replan`` ticks: replay the forecast ``horizon`` ticks ahead from the actual debt;
    while the debt after service would exceed ``cap`` of the pool, raise the BG work in the
    ``window`` ticks before the first breach by one core, up to ``max_iter`` times. ``spread``
    says how (``storrepro.papers.vdi.config.SPREADS``): ``"even-cores"`` adds one stolen core (CFF)
    to every tick of the window where FG still has a core to give; ``"bg-floor"`` raises a
    floor on BG's cores there, so CFF = max(0, floor − idle cores) and FG loses cores only
    where the idle ones fall short. The plan applies until the next replan. Logs, per tick:
    ``cff`` (FG cores taken below FG's need) and ``w_dyn`` (the largest debt from which the
    planned replay stays under the cap over the horizon, in blocks).
    """

    pool_blocks: float
    forecast: ForecastView
    bg_blocks_per_core_s: float = 20.0
    cap: float = 0.95
    horizon: int = 144
    window: int = 72
    replan: int = 6
    max_iter: int = 400
    spread: str = "even-cores"
    cff_log: list = field(default_factory=list, repr=False)
    w_dyn_log: list = field(default_factory=list, repr=False)
    iterations: list = field(default_factory=list, repr=False)

    def __post_init__(self):
        _positive("pool_blocks", self.pool_blocks)
        _fraction("cap", self.cap)
        _positive("bg_blocks_per_core_s", self.bg_blocks_per_core_s)
        if self.spread not in SPREADS:
            raise ValueError(f"spread must be one of {tuple(SPREADS)}, got {self.spread!r}")
        for name in ("horizon", "window", "replan", "max_iter"):
            value = getattr(self, name)
            if int(value) != value or value < 1:
                raise ValueError(f"{name} must be a whole number of ticks >= 1, got {value!r}")
        self._plan = np.zeros(0)
        self._plan_start = 0
        self._w_dyn = 0.0

    def plan(self, state: PoolState) -> tuple[np.ndarray, float, int]:
        """The plan for the next ``horizon`` ticks — stolen cores (``even-cores``) or the BG
        core floor (``bg-floor``) — the dynamic watermark (blocks) and the iterations."""
        n = state.n_cores
        demand, lumps = self.forecast.at(state.tick, self.horizon)
        lumps = lumps.copy()
        lumps[0] = 0.0  # this tick's lump is already in the actual debt
        need = fg_need(demand, n, state.fg_iops_per_core)
        per_core = self.bg_blocks_per_core_s * state.tick_s
        limit = self.cap * self.pool_blocks
        plan = np.zeros(self.horizon)
        top = np.full(self.horizon, float(n)) if self.spread == "bg-floor" else need
        iterations = 0
        while iterations < self.max_iter:
            capacity = self._bg_cores(plan, need, n) * per_core
            debt = lindley(state.debt, lumps, capacity)
            breaches = np.flatnonzero(debt > limit)
            if breaches.size == 0:
                break
            tau = breaches[0]
            window = slice(max(0, tau - self.window), tau + 1)
            room = plan[window] < top[window]
            if not room.any():
                break  # the window already gives BG every core; the emergency burn takes over
            plan[window] += room
            iterations += 1
        capacity = self._bg_cores(plan, need, n) * per_core
        s = np.cumsum(lumps - capacity)
        own_peak = np.max(s - np.minimum(0.0, np.minimum.accumulate(s)))
        w_dyn = 0.0 if own_peak > limit else float(np.clip(limit - s.max(), 0.0, limit))
        return plan, w_dyn, iterations

    def _bg_cores(self, plan: np.ndarray, need: np.ndarray, n: int) -> np.ndarray:
        """BG cores per tick under a plan (stolen cores or a BG floor) and FG's need."""
        if self.spread == "bg-floor":
            return np.maximum(plan, n - need)
        return n - np.maximum(0.0, need - plan)

    def __call__(self, state: PoolState) -> int:
        n = state.n_cores
        if state.tick % self.replan == 0 or state.tick - self._plan_start >= self._plan.size:
            self._plan, self._w_dyn, iterations = self.plan(state)
            self._plan_start = state.tick
            self.iterations.append(iterations)
        planned = int(self._plan[state.tick - self._plan_start])
        demand_hat = float(self.forecast.at(state.tick, 1)[0][0])
        need = fg_cores(max(state.demand_iops, demand_hat), n, state.fg_iops_per_core)
        c_fg = min(need, n - planned) if self.spread == "bg-floor" else max(0, need - planned)
        cff = need - c_fg
        if state.debt >= self.cap * self.pool_blocks:
            c_fg = 0  # emergency burn: the pool is about to run out
        self.cff_log.append(cff)
        self.w_dyn_log.append(self._w_dyn)
        return c_fg
