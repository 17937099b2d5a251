"""The disk models of the BID paper as plain functions and parameters, without simpy.

The HDD's service time (the authors' released simulator's ``mapping_hdd``, quirks kept; the
formula is in :mod:`storrepro.sim.hdd`), the SSD's page costs, and the request directions they
share. The simpy devices (:class:`~storrepro.sim.hdd.HDD`, :class:`~storrepro.sim.ssd.SSD`) and
the fast kernels call the same functions, so the schedulers and kernels can use the models without
loading simpy. Time unit **ms**, sizes and positions in 512-B sectors.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import NamedTuple

import numpy as np

#: Allowed request operations: read and write.
OPS = ("R", "W")


def check_int(name: str, value, minimum: int, unit: str = "sectors") -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"{name} must be an integer >= {minimum} ({unit}), got {value!r}")


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
