"""Monitors shared by the device models: per-request latency and event logs.

Every device model in :mod:`storrepro.sim` records what it did into one of these, so notebooks read
results the same way whatever the device: ``monitor.percentiles()`` for tail latency, and
``log.to_frame()`` for traces such as disk-arm positions.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

#: The tail points every device reports (percent).
PERCENTILES = (50.0, 90.0, 99.0, 99.9, 99.99)


def percentile_label(q: float) -> str:
    """``99.9`` -> ``"p99.9"``, ``50.0`` -> ``"p50"``."""
    return f"p{q:g}"


def tail_summary(values, qs=PERCENTILES) -> dict[str, float]:
    """Count, mean and the tail percentiles of a sample, as one flat dict."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        return {"count": 0, "mean": float("nan"), **{percentile_label(q): float("nan") for q in qs}}
    points = np.percentile(arr, qs)
    return {
        "count": int(arr.size),
        "mean": float(arr.mean()),
        **{percentile_label(q): float(p) for q, p in zip(qs, points, strict=True)},
    }


class LatencyMonitor:
    """Collects one latency per completed request, in the model's time unit."""

    def __init__(self, name: str = "latency"):
        self.name = name
        self._values: list[float] = []

    def record(self, latency: float) -> None:
        self._values.append(latency)

    def __len__(self) -> int:
        return len(self._values)

    @property
    def latencies(self) -> np.ndarray:
        return np.asarray(self._values, dtype=float)

    def percentiles(self, qs=PERCENTILES) -> dict[str, float]:
        """``{"p50": ..., "p90": ..., "p99": ..., "p99.9": ..., "p99.99": ...}``."""
        summary = tail_summary(self._values, qs)
        return {k: v for k, v in summary.items() if k.startswith("p")}

    def summary(self) -> dict[str, float]:
        return tail_summary(self._values)

    def __repr__(self) -> str:
        return f"LatencyMonitor(name={self.name!r}, count={len(self)})"


class EventLog:
    """An append-only table of per-event rows (for example one row per disk-arm move)."""

    def __init__(self, columns: tuple[str, ...]):
        self.columns = tuple(columns)
        self._rows: list[tuple] = []

    def append(self, *values) -> None:
        if len(values) != len(self.columns):
            raise ValueError(f"EventLog row has {len(values)} values, expected {self.columns}")
        self._rows.append(values)

    def __len__(self) -> int:
        return len(self._rows)

    def to_frame(self) -> pd.DataFrame:
        return pd.DataFrame(self._rows, columns=list(self.columns))
