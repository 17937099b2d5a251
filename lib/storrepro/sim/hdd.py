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

import math
import numbers
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np
import simpy

from storrepro.sim.block_device import DiskRequest, IOScheduler, PullDevice, check_int

TIMING_FIELDS = (
    "t_cmd",
    "t_settle",
    "t_rot",
    "t_avg_seek",
    "t_cyl_switch",
    "t_head_switch",
    "t_adjacent",
)


@dataclass(frozen=True)
class HDDGeometry:
    """Geometry and timing (ms) of the configured 250 GB disk, after the LBA48 remap (§4.1)."""

    cylinders: int = 484_514
    heads: int = 16
    sectors_per_track: int = 63
    t_cmd: float = 0.5
    t_settle: float = 0.1
    t_rot: float = 5.6
    t_avg_seek: float = 12.0
    t_cyl_switch: float = 3.0
    t_head_switch: float = 0.1
    t_adjacent: float = 0.6

    def __post_init__(self):
        # C - 1 is a divisor of the seek curve, hence at least two cylinders.
        check_int("cylinders", self.cylinders, 2, "cylinders")
        check_int("heads", self.heads, 1, "heads")
        check_int("sectors_per_track", self.sectors_per_track, 1)
        for name in TIMING_FIELDS:
            value = getattr(self, name)
            if not (isinstance(value, numbers.Real) and math.isfinite(value) and value >= 0):
                raise ValueError(f"{name} must be a finite time >= 0 ms, got {value!r}")

    @property
    def sectors_per_cylinder(self) -> int:
        return self.heads * self.sectors_per_track


DEFAULT_GEOMETRY = HDDGeometry()


class HDDServiceTime(NamedTuple):
    time: float  # ms
    distance: int  # seek distance d in cylinders


def cylinder_of(lba: int, geometry: HDDGeometry = DEFAULT_GEOMETRY) -> int:
    """``ceil(lba / SPC)``: the authors' cylinder numbering (an exact boundary is the lower one)."""
    return -(-lba // geometry.sectors_per_cylinder)


def hdd_service_time(
    lba: int, size: int, head: int, geometry: HDDGeometry = DEFAULT_GEOMETRY
) -> HDDServiceTime:
    """Exact reconstruction of the authors' ``mapping_hdd``, quirks kept.

    ``lba``, ``size`` and ``head`` are in sectors; returns the service time T in ms and the seek
    distance d in cylinders, with SPC = H·S::

        cyl(x) = ceil(x / SPC);  c_h, c_s, c_e = cyl(head), cyl(lba), cyl(lba + size)
        n_trk  = floor((lba + size) / S) - floor(lba / S);  d = |c_h - c_s|
        T      = t_cmd + t_settle·(1 + n_trk) + t_rot + t_hs·n_trk + (1[d>0] + |c_e - c_s|)·t_cs
                 + 1[d>0]·(t_adj + t_cs + (t_avg - t_cs)·(d - 1)/(C - 1))

    The head afterwards sits at ``lba + size``.
    """
    check_int("lba", lba, 0)
    check_int("size", size, 1)
    check_int("head", head, 0)
    g = geometry
    c_start = cylinder_of(lba, g)
    c_end = cylinder_of(lba + size, g)
    distance = abs(cylinder_of(head, g) - c_start)
    tracks = (lba + size) // g.sectors_per_track - lba // g.sectors_per_track
    seeks = 1 if distance > 0 else 0
    time = (
        g.t_cmd
        + g.t_settle * (1 + tracks)
        + g.t_rot
        + g.t_head_switch * tracks
        + (seeks + abs(c_end - c_start)) * g.t_cyl_switch
    )
    if seeks:
        time += (
            g.t_adjacent
            + g.t_cyl_switch
            + (g.t_avg_seek - g.t_cyl_switch) * (distance - 1) / (g.cylinders - 1)
        )
    return HDDServiceTime(time, distance)


def hdd_service_times(lba, size, head, geometry: HDDGeometry = DEFAULT_GEOMETRY):
    """:func:`hdd_service_time` over arrays (same operations, bit-identical): ``(T ms, d)``.

    ``head[i]`` is the head LBA when request i starts (for back-to-back service from head h0,
    ``head = [h0, *(lba + size)[:-1]]``).
    """
    lba, size, head = (np.asarray(x, dtype=np.int64) for x in (lba, size, head))
    if (lba < 0).any() or (size < 1).any() or (head < 0).any():
        raise ValueError("lba and head must be >= 0 and size >= 1 (sectors) in every request")
    g = geometry
    spc, spt = g.sectors_per_cylinder, g.sectors_per_track
    c_start = -(-lba // spc)
    c_end = -(-(lba + size) // spc)
    distance = np.abs(-(-head // spc) - c_start)
    tracks = (lba + size) // spt - lba // spt
    seeks = (distance > 0).astype(np.int64)
    time = (
        g.t_cmd
        + g.t_settle * (1 + tracks)
        + g.t_rot
        + g.t_head_switch * tracks
        + (seeks + np.abs(c_end - c_start)) * g.t_cyl_switch
    )
    seek = (
        g.t_adjacent
        + g.t_cyl_switch
        + (g.t_avg_seek - g.t_cyl_switch) * (distance - 1) / (g.cylinders - 1)
    )
    return np.where(seeks > 0, time + seek, time), distance


def seek_metrics(distances, n_tracks: int = DEFAULT_GEOMETRY.cylinders, min_distance: int = 2):
    """Head-movement metrics E3–E5 of the paper from a sequence of seek distances d.

    ``movements`` counts d >= ``min_distance`` (2 reproduces the authors' code, n2; 1 the paper's
    toy, n1); ``cylinders_traversed`` is TMD = Σd over all d; ``mean_seek_distance`` is
    AD = TMD / movements; ``sweeps`` is TD = TMD / ``n_tracks``.
    """
    check_int("min_distance", min_distance, 1, "cylinders")
    check_int("n_tracks", n_tracks, 1, "cylinders")
    d = np.asarray(distances, dtype=float)
    if d.ndim != 1 or (d < 0).any():
        raise ValueError(f"distances must be a 1-D sequence of values >= 0, got {distances!r}")
    total = float(d.sum())
    movements = int((d >= min_distance).sum())
    return {
        "movements": movements,
        "cylinders_traversed": total,
        "mean_seek_distance": total / movements if movements else float("nan"),
        "sweeps": total / n_tracks,
    }


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
