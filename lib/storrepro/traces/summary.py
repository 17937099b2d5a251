"""``trace info``: what a trace holds, from one streaming pass."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from storrepro.traces.reader import detect_format, read_chunks


@dataclass
class TraceInfo:
    """A trace's format, size and shape. ``mean_iops`` is the rate of all volumes together.
    For the ``iops`` format, ``requests`` counts intervals (of every volume) and read share and
    bytes are unknown (None)."""

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
        shown = sorted(self.volumes.items(), key=lambda kv: (-kv[1], kv[0]))[:20]
        lines.append(f"  volumes     {len(self.volumes)}")
        lines += [f"    {name:<24} {count:,}" for name, count in shown]
        if len(self.volumes) > len(shown):
            lines.append(f"    … {len(self.volumes) - len(shown)} more")
        return "\n".join(lines)


def trace_info(path: str | Path, format: str | None = None, progress: bool = True) -> TraceInfo:
    name, _ = detect_format(path, format)
    info = TraceInfo(str(path), name)
    volumes: Counter = Counter()
    reads = total_bytes = 0
    last, iops_sum = -np.inf, 0.0
    for chunk in read_chunks(path, name, progress=progress):
        times = chunk.time_s.to_numpy()
        if times.size == 0:
            continue
        info.time_sorted &= bool(times[0] >= last and np.all(np.diff(times) >= 0))
        last = times[-1]
        info.requests += times.size
        info.start_s, info.end_s = min(info.start_s, times.min()), max(info.end_s, times.max())
        volumes.update(chunk.volume.value_counts().to_dict())
        if name == "iops":
            iops_sum += float(chunk.iops.sum())
            continue
        reads += int((chunk.op == "R").sum())
        total_bytes += int(chunk["size"].sum())
        info.zero_size += int((chunk["size"] == 0).sum())
    info.volumes = dict(volumes)
    if name == "iops":
        per_volume = info.requests / max(len(volumes), 1)  # intervals of each volume
        info.mean_iops = iops_sum / per_volume if info.requests else 0.0
    else:
        info.read_share = reads / info.requests if info.requests else 0.0
        info.bytes = total_bytes
        info.mean_iops = info.requests / info.duration_s if info.duration_s > 0 else 0.0
    return info
