"""A real trace turned into each paper's input, as the paper prepared its own traces.

- AccGecko: per tenant (volume or disk), requests per 1 ms in whole 5-minute segments, after
  rescaling each tenant's inter-arrival times so its mean is the paper's 2000 IOPS.
- VDI background scheduling: the foreground IOPS of all volumes together per 10 minutes.
- PrecisePeriod's scheduling study: each segment's (volume's) requests per interval.
- BID: per-process request streams (blkparse ``Q`` events; other formats use the volume as the
  process): time in ms from the trace start, pid, op, LBA and size in 512-B sectors.

Every conversion streams the trace (twice where it needs the trace's span first) and refuses a
result that would not fit in memory before building it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from storrepro.traces.formats import SECTOR
from storrepro.traces.reader import TraceFormatError, read_chunks
from storrepro.traces.summary import trace_info

#: The most counts a conversion builds: 2**28 (1 GiB of int32).
MAX_CELLS = 2**28


def _check_cells(path, cells: int, what: str) -> None:
    if cells > MAX_CELLS:
        raise MemoryError(
            f"{path}: {what} would hold {cells:,} counts ({cells * 4 / 2**30:.1f} GiB), over "
            f"the limit of {MAX_CELLS:,}; choose fewer volumes or a coarser interval"
        )


def _requests_only(path, name: str, what: str) -> None:
    if name == "iops":
        raise TraceFormatError(f"{path}: {what} needs individual requests, not an iops series")


def binned_counts(
    path: str | Path,
    bin_s: float,
    *,
    format: str | None = None,
    volumes: list[str] | None = None,
    time_scale: dict[str, float] | None = None,
    progress: bool = True,
) -> tuple[float, dict[str, np.ndarray]]:
    """``(origin_s, {volume: requests per bin})``: bins of ``bin_s`` seconds from the trace's
    first request (``origin_s``). ``time_scale`` stretches a volume's times about the origin
    (``t -> origin + (t - origin) * factor``) before binning."""
    if not bin_s > 0:
        raise ValueError(f"bin_s must be > 0, got {bin_s!r}")
    info = trace_info(path, format, progress=progress)
    _requests_only(path, info.format, "binned request counts")
    chosen = volumes if volumes is not None else sorted(info.volumes)
    unknown = [v for v in chosen if v not in info.volumes]
    if unknown:
        raise ValueError(f"{path}: no volume {unknown[0]!r}; the trace has {sorted(info.volumes)}")
    scale = {v: (time_scale or {}).get(v, 1.0) for v in chosen}
    sizes = {v: int(np.floor(info.duration_s * scale[v] / bin_s)) + 1 for v in chosen}
    _check_cells(path, sum(sizes.values()), f"{len(chosen)} volumes at {bin_s:g} s")
    counts = {v: np.zeros(sizes[v], dtype=np.int32) for v in chosen}
    for chunk in read_chunks(path, info.format, progress=progress):
        for volume, part in chunk.groupby("volume", sort=False):
            if volume not in counts:
                continue
            offsets = (part.time_s.to_numpy() - info.start_s) * scale[volume] / bin_s
            bins = np.minimum(offsets.astype(np.int64), sizes[volume] - 1)
            counts[volume] += np.bincount(bins, minlength=sizes[volume]).astype(np.int32)
    return info.start_s, counts


def accgecko_tenants(
    path: str | Path,
    *,
    format: str | None = None,
    volumes: list[str] | None = None,
    mean_iops: float = 2000.0,
    segment_s: float = 300.0,
    bin_s: float = 0.001,
    progress: bool = True,
) -> dict[str, np.ndarray]:
    """``{tenant: (segments x bins) requests per ms}``: each tenant's trace rescaled to
    ``mean_iops`` and cut into whole ``segment_s`` segments (a partial last one is dropped)."""
    info = trace_info(path, format, progress=progress)
    _requests_only(path, info.format, "AccGecko's per-ms counts")
    if info.duration_s <= 0:
        raise TraceFormatError(f"{path}: the trace spans no time")
    chosen = volumes if volumes is not None else sorted(info.volumes)
    scale = {v: (info.volumes.get(v, 0) / info.duration_s) / mean_iops for v in chosen}
    _, counts = binned_counts(
        path, bin_s, format=info.format, volumes=chosen, time_scale=scale, progress=progress
    )
    per_segment = int(round(segment_s / bin_s))
    tenants = {}
    for volume, series in counts.items():
        whole = series.size // per_segment
        if whole:
            tenants[volume] = series[: whole * per_segment].reshape(whole, per_segment)
    if not tenants:
        raise TraceFormatError(
            f"{path}: no tenant spans a whole {segment_s:g} s segment after rescaling to "
            f"{mean_iops:g} IOPS"
        )
    return tenants


def rate_series(
    path: str | Path,
    bin_s: float,
    *,
    format: str | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """I/O per second of each volume per ``bin_s`` interval: one column per volume, indexed by
    the interval's start in seconds from the trace's first record. An ``iops`` trace is
    averaged into the intervals."""
    info = trace_info(path, format, progress=progress)
    if info.format != "iops":
        origin, counts = binned_counts(path, bin_s, format=info.format, progress=progress)
        frame = pd.DataFrame({v: c / bin_s for v, c in counts.items()})
    else:
        _check_cells(path, (int(info.duration_s // bin_s) + 1) * len(info.volumes),
                     f"{len(info.volumes)} volumes at {bin_s:g} s")  # fmt: skip
        parts = []
        for chunk in read_chunks(path, "iops", progress=progress):
            parts.append(chunk.assign(bin=((chunk.time_s - info.start_s) // bin_s).astype(int)))
        rates = pd.concat(parts).groupby(["bin", "volume"]).iops.mean().unstack("volume")
        frame = rates.reindex(range(int(rates.index.max()) + 1))
    frame.index = frame.index * bin_s
    frame.index.name = "start_s"
    return frame.fillna(0.0)


def vdi_foreground(path: str | Path, *, format: str | None = None, bin_s: float = 600.0,
                   progress: bool = True) -> pd.Series:
    """Foreground IOPS of all volumes together per 10-minute interval."""
    return rate_series(path, bin_s, format=format, progress=progress).sum(axis=1).rename("iops")


def precise_period_segments(path: str | Path, *, format: str | None = None,
                            bin_s: float = 300.0, progress: bool = True) -> pd.DataFrame:
    """Requests per ``bin_s`` interval of each segment (volume): the traffic series the
    periodicity-aware scheduler forecasts."""
    rates = rate_series(path, bin_s, format=format, progress=progress)
    return (rates * bin_s).round().astype(np.int64)


def bid_trace(path: str | Path, *, format: str | None = None, progress: bool = True
              ) -> pd.DataFrame:
    """Per-process request streams in BID's trace columns ``ts`` (ms from the first request),
    ``pid``, ``op``, ``lba``, ``size`` (512-B sectors) and ``kind`` (``"trace"``), in time
    order."""
    chunks = list(read_chunks(path, format, progress=progress))
    if not chunks:
        raise TraceFormatError(f"{path}: no read or write request in this trace")
    if "iops" in chunks[0]:
        raise TraceFormatError(f"{path}: BID needs individual requests, not an iops series")
    table = pd.concat(chunks, ignore_index=True)
    if (table.pid < 0).all():  # no process in this format: each volume is one stream
        table["pid"] = table.volume.astype("category").cat.codes.astype(np.int64)
    table = table.sort_values("time_s", kind="stable", ignore_index=True)
    return pd.DataFrame(
        {
            "ts": (table.time_s - table.time_s.iloc[0]) * 1e3,
            "pid": table.pid,
            "op": table.op,
            "lba": table.offset // SECTOR,
            "size": -(-table["size"] // SECTOR),  # partial sectors round up
            "kind": "trace",
        }
    )
