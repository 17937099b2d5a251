"""The oracle: a lower bound on the cumulative device time of every schedule of a trace, and a
schedule that knows the whole trace in advance.

A schedule decides how the trace's events merge into requests (LBA-contiguous, one direction,
at most 1,024 sectors; across processes and across time) and in which order the disk serves
them. Under the authors' disk model (:func:`storrepro.sim.disk_model.hdd_service_time`) a
request costs a fixed part (command, settle, rotation: ``t_cmd + t_settle + t_rot``), a variable
part (the track and cylinder crossings inside it) and, when the head must move, a seek of at
least ``t_adjacent + 2 t_cyl_switch`` (one cylinder). The crossings of a request are the sum of
its events' own — the counts telescope however the events are merged — so every schedule needs

    Σ over events of their variable part  +  fixed × R  +  seek × (C − 1),

- ``R``: the fewest requests. Within one direction, the events that touch or overlap form
  connected runs; a request lies inside one run, is a chain of events each starting where the
  previous one ends, and holds at most 1,024 sectors. A run needs at least max(its events minus a
  maximum matching of event ends to event starts — the fewest chains that cover it —, ⌈its
  sectors / 1,024⌉) requests. (The matching graph joins an event ending at x to every event
  starting at x, so it is a union of complete bipartite graphs and its maximum matching is
  Σ_x min(#ending at x, #starting at x).)
- ``C``: the connected ranges of cylinders the events and the head's start (sector 0) cover (a
  request covers the cylinders from its start to its end, and the head leaves it at its end
  cylinder); moving from one range to another takes a seek.

Under the modern-disk sensitivity model the fixed part is ``t_cmd + t_settle``, the variable part
adds the transfer, and a request that does not start where the head is pays the rotation: at
least (the fewest chains covering all events, both directions − 1) times.

``sweep`` is reachable: the events merged greedily in LBA order (each extends a request ending
where it starts, up to 1,024 sectors) and served in one ascending pass from sector 0, a schedule
a scheduler with the whole trace in hand could run. ``bound <= best schedule <= sweep``.

``tiered`` bounds BID-Hybrid, which may send every write, and every read of sectors the trace
writes, to the SSD (cut at the VFS-SSD table's edges, so a part of an event may go): it charges
only the events that must stay on the HDD, their variable parts, a request for each of their
overlapping layers or 1,024 sectors in each connected run, and a seek between the cylinder
ranges that hold them; the SSD's share is charged nothing, which keeps it a bound whatever the
cut.
"""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd

from storrepro.papers.bid.kernel_core import ZERO, _geometry_arrays, hdd_time
from storrepro.papers.bid.request import MAX_SECTORS
from storrepro.sim.disk_model import DEFAULT_GEOMETRY, HDDGeometry


@numba.njit(cache=True)
def _merge_sorted(op, lba, size, max_sectors):
    """Greedy merging of events sorted by (direction, LBA): an event extends the previous
    request if same direction, contiguous and within ``max_sectors``. Returns (op, lba, size)
    of each request."""
    n = lba.shape[0]
    out_op = np.empty(n, dtype=np.int64)
    out_lba = np.empty(n, dtype=np.int64)
    out_size = np.empty(n, dtype=np.int64)
    m = -1
    for i in range(n):
        if (
            m >= 0
            and op[i] == out_op[m]
            and lba[i] == out_lba[m] + out_size[m]
            and out_size[m] + size[i] <= max_sectors
        ):
            out_size[m] += size[i]
        else:
            m += 1
            out_op[m], out_lba[m], out_size[m] = op[i], lba[i], size[i]
    return out_op[: m + 1], out_lba[: m + 1], out_size[: m + 1]


@numba.njit(cache=True)
def _costs(lba, size, gi, gf):
    """Per request: service from where it starts (no seek), and in one ascending pass from
    sector 0."""
    n = lba.shape[0]
    no_seek = np.empty(n)
    swept = np.empty(n)
    head = ZERO  # (not 0: see kernel_core.ZERO)
    for i in range(n):
        no_seek[i] = hdd_time(lba[i], size[i], lba[i], gi, gf)[0]
        swept[i] = hdd_time(lba[i], size[i], head, gi, gf)[0]
        head = lba[i] + size[i]
    return no_seek, swept


def _arrays(trace: pd.DataFrame):
    op = (trace.op.to_numpy() == "W").astype(np.int64)
    return op, trace.lba.to_numpy(dtype=np.int64), trace["size"].to_numpy(dtype=np.int64)


def swept_requests(trace: pd.DataFrame, max_sectors: int = MAX_SECTORS) -> pd.DataFrame:
    """The requests of the sweep: events merged greedily in (direction, LBA) order, then
    sorted by LBA (reads before writes at one LBA)."""
    op, lba, size = _arrays(trace)
    order = np.lexsort((lba, op))  # stable: equal (op, lba) keep their trace order
    m_op, m_lba, m_size = _merge_sorted(op[order], lba[order], size[order], max_sectors)
    merged = pd.DataFrame({"op": np.where(m_op == 1, "W", "R"), "lba": m_lba, "size": m_size})
    return merged.sort_values("lba", kind="stable").reset_index(drop=True)


def _runs(lba, end):
    """Events sorted by start, and the connected run (touching or overlapping) of each."""
    order = np.argsort(lba, kind="stable")
    s, e = lba[order], end[order]
    new = np.ones(len(s), dtype=bool)
    new[1:] = s[1:] > np.maximum.accumulate(e)[:-1]
    return order, np.cumsum(new) - 1


def matched(lba, end):
    """Per start position of the sorted unique ``lba``: a maximum matching of event ends to
    event starts there, min(#ending there, #starting there)."""
    starts, n_out = np.unique(lba, return_counts=True)
    ends, n_in = np.unique(end, return_counts=True)
    j = np.minimum(np.searchsorted(ends, starts), max(len(ends) - 1, 0))
    n_in_at = np.where((len(ends) > 0) & (ends[j] == starts), n_in[j], 0)
    return starts, np.minimum(n_in_at, n_out)


def fewest_chains(lba, size) -> int:
    """The fewest chains (each event starting where the previous ends) covering the events:
    events minus a maximum matching of ends to starts."""
    if len(lba) == 0:
        return 0
    return int(len(lba) - matched(lba, lba + size)[1].sum())


def fewest_requests(op, lba, size, max_sectors: int = MAX_SECTORS) -> int:
    """A lower bound on the requests any merging makes of the events: per direction and
    connected run, the larger of its fewest chains and ⌈sectors / max_sectors⌉."""
    total = 0
    for direction in np.unique(op):
        mine = op == direction
        lo, sz = lba[mine], size[mine]
        order, run = _runs(lo, lo + sz)
        s = lo[order]
        starts, m = matched(s, s + sz[order])
        first = np.searchsorted(s, starts)  # a run holds every event starting at a position
        runs = run[-1] + 1
        chains = np.bincount(run, minlength=runs) - np.bincount(run[first], m, minlength=runs)
        sectors = np.bincount(run, sz[order], minlength=runs)
        total += int(np.maximum(chains, np.ceil(sectors / max_sectors)).sum())
    return total


def _layers_requests(op, lba, size, must, max_sectors: int = MAX_SECTORS) -> int:
    """A lower bound on the HDD requests when only the events ``must`` have to be served there
    (the others may go elsewhere, in whole or in part): per direction and connected run of all
    events holding one of them, the larger of the most of them overlapping one sector and
    ⌈their sectors / max_sectors⌉."""
    total = 0
    for direction in np.unique(op[must]):
        mine = op == direction
        lo, sz, keep = lba[mine], size[mine], must[mine]
        order, run = _runs(lo, lo + sz)
        r, s, z = run[keep[order]], lo[order][keep[order]], sz[order][keep[order]]
        runs = run[-1] + 1
        # overlap depth by a sweep over their edges (an end before a start at one position);
        # distinct runs do not touch, so the depth is back to 0 between them
        edges, runs_at = np.concatenate([s, s + z]), np.concatenate([r, r])
        steps = np.concatenate([np.ones(len(s), np.int64), -np.ones(len(s), np.int64)])
        o = np.lexsort((steps, edges))
        deepest = np.zeros(runs, dtype=np.int64)
        np.maximum.at(deepest, runs_at[o], np.cumsum(steps[o]))
        sectors = np.bincount(r, z, minlength=runs)
        total += int(np.maximum(deepest, np.ceil(sectors / max_sectors)).sum())
    return total


def cylinder_ranges(lba, size, must, sectors_per_cylinder: int) -> int:
    """The connected ranges of cylinders (ceil(start / SPC) … ceil(end / SPC), the model's
    cylinders of a request) that the events cover, counting those that hold an event in
    ``must`` or the head's start (sector 0, where every replay starts)."""
    c0 = -(-np.append(lba, 0) // sectors_per_cylinder)
    c1 = -(-np.append(lba + size, 0) // sectors_per_cylinder)
    order = np.argsort(c0, kind="stable")
    new = np.ones(len(order), dtype=bool)
    new[1:] = c0[order][1:] > np.maximum.accumulate(c1[order])[:-1]
    ranges = np.empty(len(order), dtype=np.int64)
    ranges[order] = np.cumsum(new)
    return len(np.unique(ranges[np.append(must, True)]))


def _parts(geometry: HDDGeometry, modern: bool):
    """The model's fixed part per request, its rotation when the modern disk charges it apart,
    and its cheapest seek (one cylinder), ms."""
    g = geometry
    fixed = g.t_cmd + g.t_settle + (0.0 if modern else g.t_rot)
    return fixed, (g.t_rot if modern else 0.0), g.t_adjacent + 2 * g.t_cyl_switch


def _bound(op, lba, size, no_seek, must, geometry, modern, requests=None):
    """The lower bound (ms) when the events ``must`` have to be served by the HDD (all: the
    HDD's bound; some: the tiered bound). ``requests`` may hand in :func:`fewest_requests` of
    all the events."""
    fixed, rotation, seek = _parts(geometry, modern)
    variable = no_seek - fixed  # service from its own start: no seek and, modern, no rotation
    if must.all():
        requests = fewest_requests(op, lba, size) if requests is None else requests
        chains = fewest_chains(lba, size) if modern else 1
    else:
        requests = _layers_requests(op, lba, size, must)
        chains = 1  # the SSD's share may break chains or join none: no rotation is charged
    # a seek takes the head from one range to the next, starting from the head's
    ranges = cylinder_ranges(lba, size, must, geometry.sectors_per_cylinder)
    return (
        float(variable[must].sum())
        + fixed * requests
        + rotation * max(chains - 1, 0)
        + seek * max(ranges - 1, 0)
    )


def _may_ssd(op, lba, size) -> np.ndarray:
    """Events BID-Hybrid could serve on the SSD: writes, and reads overlapping sectors some
    write of the trace covers."""
    writes = op == 1
    may = writes.copy()
    if writes.any() and (~writes).any():
        order = np.argsort(lba[writes])
        ws = lba[writes][order]
        we = np.maximum.accumulate((lba + size)[writes][order])
        rs, re = lba[~writes], (lba + size)[~writes]
        # the last write starting before the read's end; overlap if the running max end passes
        j = np.searchsorted(ws, re, side="left") - 1
        may[~writes] = (j >= 0) & (we[np.maximum(j, 0)] > rs)
    return may


def oracle_floor(
    trace: pd.DataFrame, geometry: HDDGeometry = DEFAULT_GEOMETRY, modern_disk: bool = False
) -> float:
    """:func:`oracle_bound`'s lower bound (s) alone."""
    op, lba, size = _arrays(trace)
    no_seek = _costs(lba, size, *_geometry_arrays(geometry, modern_disk))[0]
    everything = np.ones(len(lba), dtype=bool)
    return _bound(op, lba, size, no_seek, everything, geometry, modern_disk) / 1000


def oracle_bound(
    trace: pd.DataFrame, geometry: HDDGeometry = DEFAULT_GEOMETRY, modern_disk: bool = False
) -> dict:
    """For one trace (under the modern-disk sensitivity model if ``modern_disk``): the lower
    bound on any schedule's cumulative device time (s), the sweep's (reachable) time (s), the
    tiered bound for BID-Hybrid (s), and the fewest requests any merging makes."""
    op, lba, size = _arrays(trace)
    gi, gf = _geometry_arrays(geometry, modern_disk)
    no_seek = _costs(lba, size, gi, gf)[0]
    everything = np.ones(len(lba), dtype=bool)
    swept = swept_requests(trace)
    sweep = _costs(swept.lba.to_numpy(np.int64), swept["size"].to_numpy(np.int64), gi, gf)[1]
    requests = fewest_requests(op, lba, size)
    floor = _bound(op, lba, size, no_seek, everything, geometry, modern_disk, requests)
    return {
        "oracle_floor_s": floor / 1000,
        "oracle_sweep_s": float(sweep.sum() / 1000),
        "oracle_tiered_s": _bound(op, lba, size, no_seek, ~_may_ssd(op, lba, size), geometry,
                                  modern_disk) / 1000,  # fmt: skip
        "oracle_requests": requests,
    }
