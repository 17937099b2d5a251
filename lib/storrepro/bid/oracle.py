"""The oracle bound: the least cumulative device time any dispatch order could reach on a trace.

Under the authors' disk model a request costs a fixed 6.2 ms, track and cylinder crossings, and
a seek (6.6–15.6 ms) when the head must move; there is no transfer term. An oracle that sees the
whole trace at once can (1) merge every run of LBA-contiguous events of one direction into
requests of at most 1024 sectors (maximal merging, across processes and across time) and (2)
serve them in any order. Two numbers per trace:

- ``floor``: every merged request served without a seek — no order can do better, so
  ``1 - floor / baseline`` bounds what any scheduler could save against ``baseline``;
- ``sweep``: the merged requests in one ascending-LBA pass from sector 0, paying only the seeks
  between the extents (an order a scheduler could reach with the whole trace in hand).

``tiered_floor`` is the floor when every merged write may instead go to the SSD at its page
cost, and every merged read of sectors the trace writes may be served there too: a bound on
what BID-Hybrid's placement could reach.
"""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd

from storrepro.bid.kernel_core import _geometry_arrays, hdd_time
from storrepro.bid.request import MAX_SECTORS
from storrepro.sim.disk_model import DEFAULT_GEOMETRY, DEFAULT_SSD, HDDGeometry, SSDParams


@numba.njit(cache=True)
def _merge_sorted(op, lba, size, max_sectors):
    """Greedy maximal merging of events sorted so that contiguous ones follow each other:
    an event extends the previous request if same direction, contiguous and within
    ``max_sectors``. Returns (op, lba, size) of each request."""
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
    """Per request: service with no seek, and service in one ascending pass from sector 0."""
    n = lba.shape[0]
    no_seek = np.empty(n)
    swept = np.empty(n)
    head = 0
    for i in range(n):
        no_seek[i] = hdd_time(lba[i], size[i], lba[i], gi, gf)[0]
        swept[i] = hdd_time(lba[i], size[i], head, gi, gf)[0]
        head = lba[i] + size[i]
    return no_seek, swept


def merged_requests(trace: pd.DataFrame, max_sectors: int = MAX_SECTORS) -> pd.DataFrame:
    """The trace's events maximally merged: contiguous, same direction, <= max_sectors."""
    op = (trace.op.to_numpy() == "W").astype(np.int64)
    lba = trace.lba.to_numpy(dtype=np.int64)
    size = trace["size"].to_numpy(dtype=np.int64)
    # events of the same sectors (two readers of one chunk) form parallel chains: the k-th
    # access to a sector start goes to layer k, and each layer is merged in LBA order
    first = np.lexsort((lba, op))  # stable: equal (op, lba) keep their trace order
    same = np.zeros(len(first), dtype=bool)
    same[1:] = (op[first][1:] == op[first][:-1]) & (lba[first][1:] == lba[first][:-1])
    starts = np.maximum.accumulate(np.where(same, 0, np.arange(len(first))))
    layer = np.empty(len(first), dtype=np.int64)
    layer[first] = np.arange(len(first)) - starts
    order = np.lexsort((lba, layer, op))
    m_op, m_lba, m_size = _merge_sorted(op[order], lba[order], size[order], max_sectors)
    return pd.DataFrame({"op": np.where(m_op == 1, "W", "R"), "lba": m_lba, "size": m_size})


def _overlaps_written(reads: pd.DataFrame, writes: pd.DataFrame) -> np.ndarray:
    """Whether each read request overlaps a sector range some write of the trace covers."""
    if writes.empty or reads.empty:
        return np.zeros(len(reads), dtype=bool)
    order = np.argsort(writes.lba.to_numpy())
    ws = writes.lba.to_numpy()[order]
    we = np.maximum.accumulate((writes.lba + writes["size"]).to_numpy()[order])
    rs, re = reads.lba.to_numpy(), (reads.lba + reads["size"]).to_numpy()
    # the last write starting before the read's end; overlap if the running max end passes rs
    j = np.searchsorted(ws, re, side="left") - 1
    return (j >= 0) & (we[np.maximum(j, 0)] > rs)


def oracle_bound(
    trace: pd.DataFrame,
    geometry: HDDGeometry = DEFAULT_GEOMETRY,
    ssd: SSDParams = DEFAULT_SSD,
    modern_disk: bool = False,
) -> dict:
    """The oracle's cumulative device times (s) and merged request count for one trace (under
    the modern-disk sensitivity model if ``modern_disk``)."""
    merged = merged_requests(trace)
    merged = merged.sort_values("lba", kind="stable").reset_index(drop=True)
    gi, gf = _geometry_arrays(geometry, modern_disk)
    no_seek, swept = _costs(
        merged.lba.to_numpy(dtype=np.int64), merged["size"].to_numpy(dtype=np.int64), gi, gf
    )
    nbytes = merged["size"].to_numpy() * ssd.sector_bytes
    pages = -(-nbytes // ssd.page_bytes) if ssd.rounding == "ceil" else nbytes // ssd.page_bytes
    writes = (merged.op == "W").to_numpy()
    ssd_cost = pages * np.where(writes, ssd.write_ms_per_page, ssd.read_ms_per_page)
    may_ssd = writes.copy()
    may_ssd[~writes] = _overlaps_written(merged[~writes], merged[writes])
    tiered = np.where(may_ssd, np.minimum(no_seek, ssd_cost), no_seek)
    return {
        "oracle_floor_s": float(no_seek.sum() / 1000),
        "oracle_sweep_s": float(swept.sum() / 1000),
        "oracle_tiered_s": float(tiered.sum() / 1000),
        "oracle_requests": len(merged),
    }
