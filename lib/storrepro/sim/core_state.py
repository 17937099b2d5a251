"""What the core pool's allocators see and return, without simpy: the pool's configuration,
the state of a tick, the allocator type and the tick log's columns. The simpy model
(:mod:`storrepro.sim.core_pool`) and any fast path of the same rules share them, and a scheduler
that only reads a :class:`PoolState` never loads simpy."""

from __future__ import annotations

import numbers
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from storrepro.suite.checks import finite


@dataclass(frozen=True)
class CorePoolConfig:
    """Cores, per-core rates and tick length."""

    n_cores: int = 64
    fg_iops_per_core: float = 50.0
    bg_blocks_per_core_s: float = 20.0
    tick_s: float = 600.0

    def __post_init__(self):
        if isinstance(self.n_cores, bool) or not isinstance(self.n_cores, numbers.Integral):
            raise ValueError(f"n_cores must be an integer >= 1, got {self.n_cores!r}")
        if self.n_cores < 1:
            raise ValueError(f"n_cores must be an integer >= 1, got {self.n_cores!r}")
        for name in ("fg_iops_per_core", "bg_blocks_per_core_s", "tick_s"):
            finite(name, getattr(self, name), strict=True)


class PoolState(NamedTuple):
    """What an allocator sees at the start of a tick (a named tuple: built once per tick, so
    cheap to make)."""

    tick: int
    time: float  # s
    demand_iops: float
    debt: float  # blocks, including debt added up to this instant
    n_cores: int
    tick_s: float
    fg_iops_per_core: float


#: ``allocator(state) -> C_FG``.
Allocator = Callable[[PoolState], float]


LOG_COLUMNS = (
    "tick",
    "t",
    "demand_iops",
    "c_fg",
    "c_bg",
    "fg_served_iops",
    "queued_iops",
    "violation",
    "debt_added",
    "bg_served",
    "debt",  # after this tick's BG service; later additions count for the next tick
)
