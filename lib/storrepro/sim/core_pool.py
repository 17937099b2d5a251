"""Fluid, tick-based model of a storage controller's datapath cores (the VDI
paper's controller: N cores shared by foreground IO and background work). Time unit **s**.

Each tick of Δ seconds (default 600, configurable, e.g. 60 for the sensitivity run) with FG
demand A (IOPS) and background debt D (blocks)::

    C_FG = allocator(state)          # integer or real cores in [0, N], checked
    C_BG = N - C_FG
    FG served = min(A, C_FG · 50)    # IOPS; the shortfall is queued IO, not carried over (A5)
    violation = C_FG · 50 < A        # SLO violation of the tick (A4)
    BG served = min(D, C_BG · 20 · Δ) blocks;  D <- D - BG served

Debt added with :meth:`CorePool.add_debt` at time s is seen by the first tick starting at or
after s: a tick runs after every other event of its start instant, so a snapshot expiry at a
tick boundary counts for the tick that starts there, as in a per-bin replay of the trace. There
are no individual requests, so there is no latency monitor; the tick log is the output.
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd
import simpy

from storrepro.sim.core_state import LOG_COLUMNS, Allocator, CorePoolConfig, PoolState
from storrepro.sim.monitor import EventLog
from storrepro.suite.checks import finite


class _TickStart(simpy.events.Event):
    """Fires ``delay`` s from now after every URGENT and NORMAL event of that instant, however
    late those were scheduled, so a tick sees all debt added at its start time. One event per
    tick: the same order as a timeout followed by a lower-priority event at the same time."""

    def __init__(self, env: simpy.Environment, delay: float):
        super().__init__(env)
        self._ok = True  # pre-triggered, exactly as simpy's own Timeout
        self._value = None
        env.schedule(self, priority=simpy.events.NORMAL + 1, delay=delay)


def demand_cores(state: PoolState) -> int:
    """Idle-only allocator: ⌈A / 50⌉ cores for FG, clipped to [0, N]; BG gets the rest (A2)."""
    return min(state.n_cores, math.ceil(state.demand_iops / state.fg_iops_per_core))


def _valid_cores(c_fg, n_cores: int) -> bool:
    if type(c_fg) is int or type(c_fg) is float:  # the usual case, without the ABC checks
        return 0 <= c_fg <= n_cores  # False for NaN
    return (
        isinstance(c_fg, numbers.Real)
        and not isinstance(c_fg, bool)
        and math.isfinite(c_fg)
        and 0 <= c_fg <= n_cores
    )


class CorePool:
    """N cores split every tick into FG and BG sets (module docstring), time unit s.

    ``demand_iops`` gives the FG demand of each tick; the pool runs ``len(demand_iops)`` ticks
    (``env.run(until=pool.process)``). ``log`` has one row per tick with ``LOG_COLUMNS``.
    """

    def __init__(
        self,
        env: simpy.Environment,
        demand_iops,
        allocator: Allocator = demand_cores,
        config: CorePoolConfig | None = None,
        initial_debt: float = 0.0,
    ):
        demand = np.asarray(demand_iops, dtype=float)
        if demand.ndim != 1:
            raise ValueError(f"demand_iops must be 1-D (one value per tick), got {demand.shape}")
        bad = np.flatnonzero(~np.isfinite(demand) | (demand < 0))
        if bad.size:
            raise ValueError(
                f"demand_iops must be finite values >= 0 IOPS, got {demand[bad[0]]!r} "
                f"at tick {bad[0]}"
            )
        if not callable(allocator):
            raise ValueError(f"allocator must be callable (PoolState) -> C_FG, got {allocator!r}")
        _check_blocks("initial_debt", initial_debt)
        self.env = env
        self.demand = demand
        self.allocator = allocator
        self.config = CorePoolConfig() if config is None else config
        self.debt = float(initial_debt)
        self.debt_added = float(initial_debt)  # total ever added, for conservation checks
        self.log = EventLog(LOG_COLUMNS)
        self._added_this_tick = float(initial_debt)
        self.process = env.process(self._run())

    def add_debt(self, blocks: float) -> None:
        """Log deferred background work (blocks) now, e.g. at a snapshot expiry."""
        _check_blocks("blocks", blocks)
        self.debt += blocks
        self.debt_added += blocks
        self._added_this_tick += blocks

    def summary(self, frame: pd.DataFrame | None = None) -> dict[str, float]:
        """Violation % of ticks (A4), queued % of FG IO (A5), debt totals and maximum;
        ``frame`` is ``log.to_frame()`` when the caller already has it."""
        frame = self.log.to_frame() if frame is None else frame
        return {
            "ticks": len(frame),
            "violation_pct": 100.0 * frame["violation"].mean(),
            "queued_pct": 100.0 * frame["queued_iops"].sum() / frame["demand_iops"].sum(),
            "debt_added": self.debt_added,
            "bg_served": float(frame["bg_served"].sum()),
            "final_debt": self.debt,
            "max_debt": float((frame["debt"] + frame["bg_served"]).max()),
        }

    def _run(self):
        cfg = self.config
        env, allocator, append = self.env, self.allocator, self.log.append
        n, fg_per_core, tick_s = cfg.n_cores, cfg.fg_iops_per_core, cfg.tick_s
        bg_rate = cfg.bg_blocks_per_core_s
        delay = 0.0
        for tick, demand in enumerate(self.demand.tolist()):
            yield _TickStart(env, delay)
            delay = tick_s
            now = env.now
            c_fg = allocator(PoolState(tick, now, demand, self.debt, n, tick_s, fg_per_core))
            if not _valid_cores(c_fg, n):
                raise ValueError(
                    f"allocator {allocator!r} returned C_FG = {c_fg!r} at tick {tick}; "
                    f"allowed: a number of cores in [0, {n}]"
                )
            c_bg = n - c_fg
            capacity = c_fg * fg_per_core
            served = min(demand, capacity)
            bg_served = min(self.debt, c_bg * bg_rate * tick_s)
            self.debt -= bg_served
            append(
                tick,
                now,
                demand,
                c_fg,
                c_bg,
                served,
                demand - served,
                capacity < demand,
                self._added_this_tick,
                bg_served,
                self.debt,
            )
            self._added_this_tick = 0.0
        if delay:
            yield env.timeout(tick_s)  # the last tick lasts tick_s, as every other


def _check_blocks(name: str, value) -> None:
    finite(name, value, unit="blocks")
