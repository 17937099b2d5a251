"""The shared parts of turning a real trace into a paper's input, as the paper prepared its own
traces: requests per bin (:func:`binned_counts`), I/O per second per interval
(:func:`rate_series`, :func:`held_rates` for an ``iops`` series), the memory check, and
:class:`Conversion`, the shape in which a paper's package declares its ``trace convert --to``
(``TRACE_CONVERSION`` in the module its config names as ``trace_module``, found through
:func:`storrepro.suite.notebooks.trace_conversions`) with the savers it picks from.

Every conversion streams the trace (twice where it needs the trace's span first) and refuses a
result that would not fit in memory before building it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from storrepro.suite.traces.reader import TraceFormatError, read_chunks
from storrepro.suite.traces.summary import TraceInfo, trace_info

#: The most counts a conversion builds: 2**28 (1 GiB of int32).
MAX_CELLS = 2**28


@dataclass(frozen=True)
class Conversion:
    """A paper's ``python -m storrepro trace convert --to NAME``.

    ``name``: the ``--to`` name; ``writes``: what the file holds, ending with its kind, e.g.
    ``"foreground IOPS per 10 minutes (.csv)"``; ``convert(path, format=...)``: the paper's input
    from the trace (``format`` None detects it); ``save(result, path)``: writes it to ``path``
    and returns what it wrote in a few words (:func:`save_table`, :func:`save_records`, or the
    package's own, e.g. over :func:`write_npz`)."""

    name: str
    writes: str
    convert: Callable[..., Any]
    save: Callable[[Any, Path], str]

    @property
    def suffix(self) -> str:
        """The kind of file it writes, ``writes``' last parenthesis: ``".csv"`` or ``".npz"``."""
        return self.writes.rsplit("(", 1)[-1].rstrip(")")


def save_table(table: pd.DataFrame | pd.Series, path: Path) -> str:
    """A table as CSV with its index (a series' time or interval) as the first column."""
    table.to_csv(path)
    return f"{len(table):,} rows"


def save_records(table: pd.DataFrame, path: Path) -> str:
    """A table of records as CSV, without its index."""
    table.to_csv(path, index=False)
    return f"{len(table):,} rows"


def write_npz(arrays: dict[str, np.ndarray], path: Path) -> None:
    """Named arrays as one compressed ``.npz`` (written through a handle, so ``path`` keeps its
    name even without the suffix)."""
    with open(path, "wb") as handle:
        np.savez_compressed(handle, **arrays)


def _check_cells(path, cells: int, what: str) -> None:
    if cells > MAX_CELLS:
        raise MemoryError(
            f"{path}: {what} would hold {cells:,} counts ({cells * 4 / 2**30:.1f} GiB), over "
            f"the limit of {MAX_CELLS:,}; choose fewer volumes or a coarser interval"
        )


def requests_only(path, name: str, what: str) -> None:
    """Refuse an ``iops`` series (format ``name``) where ``what`` needs individual requests."""
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
    requests_only(path, info.format, "binned request counts")
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


def rate_series(
    path: str | Path,
    bin_s: float,
    *,
    format: str | None = None,
    progress: bool = True,
) -> pd.DataFrame:
    """I/O per second of each volume per ``bin_s`` interval: one column per volume, indexed by
    the interval's start in seconds from the trace's first record. An ``iops`` trace is a rate
    held from each row until the volume's next row (:func:`held_rates`)."""
    info = trace_info(path, format, progress=progress)
    if info.format != "iops":
        origin, counts = binned_counts(path, bin_s, format=info.format, progress=progress)
        frame = pd.DataFrame({v: c / bin_s for v, c in counts.items()})
    else:
        frame = held_rates(path, bin_s, info=info, progress=progress)
    frame.index = frame.index * bin_s
    frame.index.name = "start_s"
    return frame


def held_rates(
    path: str | Path, bin_s: float, *, info: TraceInfo | None = None, progress: bool = True
) -> pd.DataFrame:
    """An ``iops`` trace's I/O per second of each volume per ``bin_s`` interval from its first
    row: each row's rate holds over ``[t_i, t_{i+1})`` until the volume's next row, and a bin
    gets the time-weighted mean of the rates over it, so no I/O is lost or invented. A volume's
    last row, whose end the file does not say, holds to the end of its bin; before a volume's
    first row its rate is 0. ``info``: the trace's :func:`trace_info`, when already read."""
    if not bin_s > 0:
        raise ValueError(f"bin_s must be > 0, got {bin_s!r}")
    info = info or trace_info(path, "iops", progress=progress)
    table = pd.concat(read_chunks(path, "iops", progress=progress), ignore_index=True)
    bins = int(np.floor(info.duration_s / bin_s)) + 1
    _check_cells(path, bins * len(info.volumes), f"{len(info.volumes)} volumes at {bin_s:g} s")
    edges = bin_s * np.arange(bins + 1)
    rates = {}
    for volume, rows in table.groupby("volume", sort=True):
        rows = rows.sort_values("time_s", kind="stable")
        start = rows.time_s.to_numpy() - info.start_s
        end = edges[min(np.searchsorted(edges, start[-1], side="right"), bins)]
        knots = np.append(start, end)
        done = np.concatenate([[0.0], np.cumsum(rows.iops.to_numpy() * np.diff(knots))])
        rates[volume] = np.diff(np.interp(edges, knots, done)) / bin_s  # I/O done by each edge
    return pd.DataFrame(rates)


