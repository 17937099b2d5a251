"""Monitors shared by the device models: per-request latency and event logs.

Every device model in :mod:`storrepro.sim` records what it did into one of these, so notebooks read
results the same way whatever the device: ``monitor.percentiles()`` for tail latency, and
``log.to_frame()`` for traces such as disk-arm positions.

A long run that needs only percentiles uses ``LatencyMonitor(streaming=True)``: it keeps a
:class:`StreamingQuantiles` sketch of fixed size instead of every value, so memory stays bounded
however many requests are simulated.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from storrepro.suite.checks import finite_array

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


class StreamingQuantiles:
    """Count, mean and percentiles of a stream of values >= 0 in fixed memory.

    A log-bucketed histogram (the DDSketch idea): bucket ``i`` holds values in
    ``(g**(i-1), g**i]`` with ``g = (1 + rel_error) / (1 - rel_error)``, and a percentile is
    reported as ``2 g**i / (g + 1)``, within ``rel_error`` of a value of its bucket. Values up to
    ``smallest`` count as 0. Adding the same values in any order or chunking gives the same state.
    """

    def __init__(self, rel_error: float = 0.005, smallest: float = 1e-9, largest: float = 1e12):
        if not 0 < rel_error < 0.5:
            raise ValueError(f"rel_error must be in (0, 0.5), got {rel_error!r}")
        if not 0 < smallest < largest:
            raise ValueError(f"need 0 < smallest < largest, got {smallest!r}, {largest!r}")
        self.rel_error, self.largest = rel_error, largest
        self._log_g = math.log((1 + rel_error) / (1 - rel_error))
        self._first = math.ceil(math.log(smallest) / self._log_g)
        self._counts = np.zeros(
            math.ceil(math.log(largest) / self._log_g) - self._first + 2, np.int64
        )
        self._zeros = 0
        self.count, self.total = 0, 0.0

    def add(self, values) -> None:
        values = np.asarray(values, dtype=float).ravel()
        if values.size == 0:
            return
        if not (np.all(values >= 0) and np.all(values <= self.largest)):
            bad = values[~((values >= 0) & (values <= self.largest))][0]
            raise ValueError(f"values must be in [0, {self.largest:g}], got {bad!r}")
        positive = values[values > math.exp(self._first * self._log_g)]
        self._zeros += values.size - positive.size
        index = np.ceil(np.log(positive) / self._log_g).astype(np.int64) - self._first
        self._counts += np.bincount(index, minlength=self._counts.size)
        self.count += values.size
        self.total += float(values.sum())

    def percentile(self, q: float) -> float:
        """The ``q``-th percentile (0-100): the bucket holding rank ``q/100·(count-1)``."""
        if not 0 <= q <= 100:
            raise ValueError(f"percentile q must be in [0, 100], got {q!r}")
        if self.count == 0:
            return float("nan")
        rank = q / 100 * (self.count - 1)
        if rank < self._zeros:
            return 0.0
        bucket = int(np.searchsorted(np.cumsum(self._counts), rank - self._zeros, side="right"))
        g = math.exp(self._log_g)
        return 2 * g ** (bucket + self._first) / (g + 1)

    @property
    def nbytes(self) -> int:
        return self._counts.nbytes


class LatencyMonitor:
    """Collects one latency per completed request, in the model's time unit.

    ``streaming=True`` keeps a :class:`StreamingQuantiles` sketch instead of every value:
    percentiles within 0.5 %, bounded memory, and no :attr:`latencies`.
    """

    _FLUSH = 4096  # values buffered before one vectorized add to the sketch

    def __init__(self, name: str = "latency", *, streaming: bool = False):
        self.name = name
        self._values: list[float] = []
        self.sketch = StreamingQuantiles() if streaming else None

    def record(self, latency: float) -> None:
        if not 0 <= latency < math.inf:  # also false for NaN
            raise ValueError(
                f"{self.name}: a latency must be a finite number >= 0, got {latency!r}"
            )
        self._values.append(latency)
        if self.sketch is not None and len(self._values) >= self._FLUSH:
            self._flush()

    def record_many(self, latencies) -> None:
        latencies = finite_array(f"{self.name} latencies", latencies)
        if self.sketch is None:
            self._values.extend(latencies.tolist())
        else:
            self._flush()
            self.sketch.add(latencies)

    def _flush(self) -> None:
        self.sketch.add(self._values)
        self._values.clear()

    def __len__(self) -> int:
        return len(self._values) + (self.sketch.count if self.sketch is not None else 0)

    @property
    def latencies(self) -> np.ndarray:
        if self.sketch is not None:
            raise ValueError(f"monitor {self.name!r} is streaming: it keeps percentiles only")
        return np.asarray(self._values, dtype=float)

    def percentiles(self, qs=PERCENTILES) -> dict[str, float]:
        """``{"p50": ..., "p90": ..., "p99": ..., "p99.9": ..., "p99.99": ...}``."""
        summary = self.summary(qs)
        return {k: v for k, v in summary.items() if k.startswith("p")}

    def summary(self, qs=PERCENTILES) -> dict[str, float]:
        if self.sketch is None:
            return tail_summary(self._values, qs)
        self._flush()
        sketch = self.sketch
        mean = sketch.total / sketch.count if sketch.count else float("nan")
        return {
            "count": sketch.count,
            "mean": mean,
            **{percentile_label(q): sketch.percentile(q) for q in qs},
        }

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
