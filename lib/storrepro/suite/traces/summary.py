"""``trace info``: what a trace holds, from one streaming pass."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from storrepro.suite.traces.reader import detect_format, read_chunks

#: The papers' bins an ``iops`` series is cut into, coarsest first (the conversions hold each
#: row's rate over its interval, so a row coarser than a bin hides the variation within it).
RATE_BINS = {
    "VDI's 10-minute bins (notebook 03, --to vdi)": 600.0,
    "--to precise-period's 300 s": 300.0,
    "notebook 01's 60 s": 60.0,
}
#: The finest bin a paper cuts request times into: AccGecko's per-ms counts.
FINEST_BIN_S = 1e-3
#: Timestamp units tried, coarsest first: a trace's resolution is the first its times are whole
#: multiples of (to half a µs, above float64's rounding of Unix times in seconds).
UNITS = {"whole seconds": 1.0, "0.1 s": 0.1, "10 ms": 0.01, "1 ms": 1e-3}


@dataclass
class TraceInfo:
    """A trace's format, size and shape. ``mean_iops`` is the rate of all volumes together.
    For the ``iops`` format, ``requests`` counts intervals (of every volume) and read share and
    bytes are unknown (None); ``interval_s`` is the median time between a volume's consecutive
    rows (``interval_range_s`` the shortest and longest). For requests, ``resolution`` names the
    coarsest unit every timestamp is a whole multiple of (None: finer than 1 ms) and
    ``tie_share`` the share of consecutive requests with the same timestamp."""

    path: str
    format: str
    requests: int = 0
    start_s: float = np.inf
    end_s: float = -np.inf
    read_share: float | None = None
    bytes: int | None = None
    zero_size: int = 0
    time_sorted: bool = True
    volumes: dict[str, int] = field(default_factory=dict)
    mean_iops: float = 0.0
    interval_s: float | None = None
    interval_range_s: tuple[float, float] | None = None
    resolution: str | None = None
    tie_share: float = 0.0

    @property
    def duration_s(self) -> float:
        return max(self.end_s - self.start_s, 0.0) if self.requests else 0.0

    def describe(self) -> str:
        lines = [
            f"{self.path}",
            f"  format      {self.format}",
            f"  {'intervals' if self.format == 'iops' else 'requests':<11} {self.requests:,}",
            f"  duration    {self.duration_s:,.3f} s",
            f"  mean IOPS   {self.mean_iops:,.1f}",
        ]
        if self.read_share is not None:
            lines += [
                f"  reads       {100 * self.read_share:.1f} %",
                f"  bytes       {self.bytes:,} ({self.zero_size:,} zero-size requests)",
            ]
        lines.append(f"  in order    {'yes' if self.time_sorted else 'no (timestamps go back)'}")
        if self.interval_s is not None:
            low, high = self.interval_range_s
            spread = "" if low == high else f" (median; {low:,.6g} to {high:,.6g} s)"
            lines.append(f"  interval    {self.interval_s:,.6g} s{spread}")
        elif self.format != "iops" and self.requests > 1:
            lines.append(
                f"  timestamps  {self.resolution or 'finer than 1 ms'}; "
                f"{100 * self.tie_share:.1f} % of consecutive requests tie"
            )
        lines += [f"  warning     {w}" for w in self.warnings()]
        shown = sorted(self.volumes.items(), key=lambda kv: (-kv[1], kv[0]))[:20]
        lines.append(f"  volumes     {len(self.volumes)}")
        lines += [f"    {name:<24} {count:,}" for name, count in shown]
        if len(self.volumes) > len(shown):
            lines.append(f"    … {len(self.volumes) - len(shown)} more")
        return "\n".join(lines)

    def warnings(self) -> list[str]:
        """What makes this trace too coarse for a paper's bins."""
        if self.interval_s is not None:
            coarser = [name for name, bin_s in RATE_BINS.items() if self.interval_s > bin_s]
            if coarser:
                names = ", ".join(coarser[:-1]) + " and " * (len(coarser) > 1) + coarser[-1]
                return [
                    f"rows every {self.interval_s:,.6g} s are coarser than {names}: "
                    "the conversions hold each row's rate until the next row, so the variation "
                    "within a row is not in the converted series"
                ]
        if self.resolution is not None and UNITS[self.resolution] > FINEST_BIN_S:
            return [
                f"timestamps in {self.resolution}: {100 * self.tie_share:.1f} % of consecutive "
                f"requests share their timestamp, so request gaps (TOFEC) and per-ms counts "
                f"(AccGecko) are not measured on this trace"
            ]
        return []


def trace_info(path: str | Path, format: str | None = None, progress: bool = True) -> TraceInfo:
    name, _ = detect_format(path, format)
    info = TraceInfo(str(path), name)
    volumes: Counter = Counter()
    reads = total_bytes = 0
    last, iops_sum, ties = -np.inf, 0.0, 0
    units, first, rows = dict(UNITS), None, []
    for chunk in read_chunks(path, name, progress=progress):
        times = chunk.time_s.to_numpy()
        if times.size == 0:
            continue
        info.time_sorted &= bool(times[0] >= last and np.all(np.diff(times) >= 0))
        ties += int(times[0] == last) + int(np.count_nonzero(np.diff(times) == 0))
        last = times[-1]
        first = times[0] if first is None else first
        units = {k: u for k, u in units.items() if _whole(times - first, u)}
        info.requests += times.size
        info.start_s, info.end_s = min(info.start_s, times.min()), max(info.end_s, times.max())
        volumes.update(chunk.volume.value_counts().to_dict())
        if name == "iops":
            iops_sum += float(chunk.iops.sum())
            rows.append(chunk[["volume", "time_s"]])
            continue
        reads += int((chunk.op == "R").sum())
        total_bytes += int(chunk["size"].sum())
        info.zero_size += int((chunk["size"] == 0).sum())
    info.volumes = dict(volumes)
    if name == "iops":
        per_volume = info.requests / max(len(volumes), 1)  # intervals of each volume
        info.mean_iops = iops_sum / per_volume if info.requests else 0.0
        _intervals(info, rows)
    else:
        info.resolution = next(iter(units), None) if info.requests > 1 else None
        info.tie_share = ties / (info.requests - 1) if info.requests > 1 else 0.0
        info.read_share = reads / info.requests if info.requests else 0.0
        info.bytes = total_bytes
        info.mean_iops = info.requests / info.duration_s if info.duration_s > 0 else 0.0
    return info


def _whole(offsets: np.ndarray, unit: float) -> bool:
    return bool(np.all(np.abs(offsets - unit * np.round(offsets / unit)) <= 5e-7))


def _intervals(info: TraceInfo, rows: list) -> None:
    """The median, shortest and longest time between a volume's consecutive rows."""
    if not rows:
        return
    table = pd.concat(rows, ignore_index=True).sort_values(["volume", "time_s"])
    gaps = table.groupby("volume", sort=False).time_s.diff().dropna().to_numpy()
    gaps = gaps[gaps > 0]
    if gaps.size:
        info.interval_s = float(np.median(gaps))
        info.interval_range_s = (float(gaps.min()), float(gaps.max()))
