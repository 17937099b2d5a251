"""SSD device model of the BID paper (the authors' released simulator's SSD; check D2).

Time unit **ms**.

Service time of a request of ``size`` sectors (512 B)::

    pages = ceil(size · 512 / 4096)      # [R]; rounding="floor" reproduces the authors' code
    T     = pages · (0.025 ms if read else 0.5 ms)

No garbage collection, erase or internal parallelism; ``channels`` > 1 runs that many
independent servers pulling from one scheduler (FIFO by default, as for the HDD).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass

import simpy

from storrepro.sim.block_device import DiskRequest, IOScheduler, PullDevice

ROUNDINGS = ("ceil", "floor")


@dataclass(frozen=True)
class SSDParams:
    """Page size and per-page costs (ms) of ``disk_config.txt`` row 2."""

    read_ms_per_page: float = 0.025
    write_ms_per_page: float = 0.5
    page_bytes: int = 4096
    sector_bytes: int = 512
    rounding: str = "ceil"

    def __post_init__(self):
        for name in ("read_ms_per_page", "write_ms_per_page"):
            value = getattr(self, name)
            if not (isinstance(value, numbers.Real) and math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite time >= 0 ms, got {value!r}")
        for name in ("page_bytes", "sector_bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1 (bytes), got {value!r}")
        if self.rounding not in ROUNDINGS:
            raise ValueError(f"rounding must be one of {ROUNDINGS}, got {self.rounding!r}")


DEFAULT_SSD = SSDParams()


def ssd_pages(size: int, params: SSDParams = DEFAULT_SSD) -> int:
    """Pages touched by ``size`` sectors, rounded as ``params.rounding`` says."""
    if isinstance(size, bool) or not isinstance(size, numbers.Integral) or size < 0:
        raise ValueError(f"size must be an integer >= 0 (sectors), got {size!r}")
    nbytes = size * params.sector_bytes
    if params.rounding == "ceil":
        return -(-nbytes // params.page_bytes)
    return nbytes // params.page_bytes


def ssd_service_time(op: str, size: int, params: SSDParams = DEFAULT_SSD) -> float:
    """``pages(size) · per-page cost of op`` in ms; ``op`` is ``"R"`` or ``"W"``."""
    if op == "R":
        per_page = params.read_ms_per_page
    elif op == "W":
        per_page = params.write_ms_per_page
    else:
        raise ValueError(f"op must be one of ('R', 'W'), got {op!r}")
    return ssd_pages(size, params) * per_page


class SSD(PullDevice):
    """Flash device with ``channels`` parallel servers (module docstring), time unit ms.

    Logs one row per request with ``t_arrive, t_start, t_end, pid, op, lba, size, pages,
    service``. ``tracked``: see :class:`~storrepro.sim.block_device.PullDevice`.
    """

    log_columns = ("pid", "op", "lba", "size", "pages", "service")

    def __init__(
        self,
        env: simpy.Environment,
        scheduler: IOScheduler | None = None,
        params: SSDParams = DEFAULT_SSD,
        channels: int = 1,
        name: str = "ssd",
        tracked: bool = True,
    ):
        self.params = params
        super().__init__(env, scheduler, servers=channels, name=name, tracked=tracked)

    def _serve(self, request: DiskRequest) -> tuple[float, tuple]:
        pages = ssd_pages(request.size, self.params)
        time = ssd_service_time(request.op, request.size, self.params)
        return time, (request.pid, request.op, request.lba, request.size, pages, time)
