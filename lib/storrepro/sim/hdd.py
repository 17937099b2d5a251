"""HDD device model of the BID paper (the authors' released simulator's disk), time unit **ms**.

Service time of a request (lba, size) with the head at LBA h, SPC = H·S sectors per cylinder::

    cyl(x) = ceil(x / SPC)                               # ceil, not floor: authors' quirk, kept
    c_h, c_s, c_e = cyl(h), cyl(lba), cyl(lba + size)
    n_trk = floor((lba + size) / S) - floor(lba / S)     # track boundaries crossed
    d     = |c_h - c_s|                                  # seek distance in cylinders
    T     = t_cmd + t_settle·(1 + n_trk) + t_rot + t_hs·n_trk
            + (1[d>0] + |c_e - c_s|)·t_cs
            + 1[d>0]·(t_adj + t_cs + (t_avg - t_cs)·(d - 1)/(C - 1))   # linear seek curve
    head <- lba + size

There is no media-transfer term: size only matters through track and cylinder crossings.

The simpy :class:`HDD` is a single server that pulls its next request from a pluggable
scheduler whenever it is idle (see :mod:`storrepro.sim.block_device`).
"""

from __future__ import annotations

import simpy

from storrepro.sim.block_device import DiskRequest, IOScheduler, PullDevice
from storrepro.sim.disk_model import (
    DEFAULT_GEOMETRY,
    HDDGeometry,
    check_int,
    cylinder_of,
    hdd_service_time,
)


class HDD(PullDevice):
    """Single-arm disk (§4.1 service time, module docstring), time unit ms.

    Keeps the head position (LBA, initially ``head``; it moves to ``lba + size`` as service
    starts, which only the next request can observe); logs one row per request with
    ``t_arrive, t_start, t_end, pid, op, lba, size, cylinder, d, service`` (cylinder = start
    cylinder, service = the model's time, of which ``t_end - t_start`` is the float sum).
    ``tracked``: see :class:`~storrepro.sim.block_device.PullDevice`.
    """

    log_columns = ("pid", "op", "lba", "size", "cylinder", "d", "service")

    def __init__(
        self,
        env: simpy.Environment,
        scheduler: IOScheduler | None = None,
        geometry: HDDGeometry = DEFAULT_GEOMETRY,
        head: int = 0,
        name: str = "hdd",
        tracked: bool = True,
    ):
        check_int("head", head, 0)
        self.geometry = geometry
        self.head = head
        super().__init__(env, scheduler, servers=1, name=name, tracked=tracked)

    def _serve(self, request: DiskRequest) -> tuple[float, tuple]:
        time, distance = hdd_service_time(request.lba, request.size, self.head, self.geometry)
        self.head = request.lba + request.size
        cylinder = cylinder_of(request.lba, self.geometry)
        return time, (request.pid, request.op, request.lba, request.size, cylinder, distance, time)
