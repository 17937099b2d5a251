"""SSD device model of the BID paper (the authors' released simulator's SSD; check D2).

Time unit **ms**.

Service time of a request of ``size`` sectors (512 B)::

    pages = ceil(size · 512 / 4096)      # [R]; rounding="floor" reproduces the authors' code
    T     = pages · (0.025 ms if read else 0.5 ms)

No garbage collection, erase or internal parallelism; ``channels`` > 1 runs that many
independent servers pulling from one scheduler (FIFO by default, as for the HDD).
"""

from __future__ import annotations

import simpy

from storrepro.sim.block_device import DiskRequest, IOScheduler, PullDevice
from storrepro.sim.disk_model import DEFAULT_SSD, SSDParams, ssd_pages, ssd_service_time


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
