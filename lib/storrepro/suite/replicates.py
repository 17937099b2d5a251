"""Replicates enough to decide: a shared pool drawn on demand, and the sequential rule.

A verdict that flips when the sample grows was never decided. A test claim on replicates
therefore draws from a :class:`Pool` — replicates computed once, each seeded by its index, and
shared by every claim and reading that uses them — until the 95 % interval of its measured
quantity lies on one side of every band edge, or the pool's ``cap`` (stated with its reason:
usually the time a replicate costs) is reached (:func:`decide`). The claim's uncertainty
records the ``n`` used, the ``cap`` and, for a claim still straddling an edge at the cap,
``n_needed``: the replicates the observed spread says would decide it.

Stopping when the interval clears the edge makes the interval slightly optimistic (a
sequential test looks more than once); the cap bounds the looks, and the record keeps ``n``
so a reader sees how many were drawn.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from storrepro.suite.bands import Band
from storrepro.suite.claims import bootstrap_interval, interval

#: How a claim aggregates its replicates: the mean (Student's t interval), the median
#: (bootstrap), the share of replicates for which the measure is 1 (Wilson's interval) or the
#: geometric mean of positive ratios (the t interval of the mean log, taken back). A claim about
#: typical runs registers its choice with the paper's words.
STATISTICS = ("mean", "median", "share", "geomean")


class Pool:
    """Replicates ``0, 1, 2, …`` of one experiment, computed once, on demand.

    ``draw(indices)`` returns the replicates with those indices (a list in the same order);
    a replicate must depend only on its index and the run's parameters, so a pool grown in
    two steps equals one drawn at once. ``start`` replicates are drawn first, at most
    ``cap`` ever (``cap_why`` says why the cap is there).
    """

    def __init__(self, name: str, draw: Callable[[Sequence[int]], Sequence[Any]], start: int,
                 cap: int, cap_why: str):
        if not isinstance(start, int) or start < 2:
            raise ValueError(f"pool {name!r}: start = {start!r}, expected an int >= 2 (an "
                             "interval needs two replicates)")
        if not isinstance(cap, int) or cap < start:
            raise ValueError(f"pool {name!r}: cap = {cap!r}, expected an int >= start ({start})")
        if not cap_why.strip():
            raise ValueError(f"pool {name!r}: say why the cap is {cap} (cap_why)")
        self.name, self.start, self.cap, self.cap_why = name, start, cap, cap_why
        self._draw = draw
        self._replicates: list[Any] = []

    @property
    def drawn(self) -> int:
        return len(self._replicates)

    def take(self, n: int) -> list:
        """The first ``n`` replicates, drawing the missing ones."""
        if not 1 <= n <= self.cap:
            raise ValueError(f"pool {self.name!r}: take({n}), expected 1 to the cap {self.cap}")
        if n > self.drawn:
            new = list(self._draw(range(self.drawn, n)))
            if len(new) != n - self.drawn:
                raise ValueError(f"pool {self.name!r}: draw gave {len(new)} replicates for "
                                 f"{n - self.drawn} indices")
            self._replicates.extend(new)
        return self._replicates[:n]


def estimate(values: Sequence[float], of: str, statistic: str = "mean") -> dict:
    """The 95 % interval record of ``statistic`` over the per-replicate ``values``."""
    if statistic == "mean":
        return interval(values, of)
    if statistic == "median":
        return bootstrap_interval(values, of)
    if statistic == "share":
        return share_interval(values, of)
    if statistic == "geomean":
        return geomean_interval(values, of)
    raise ValueError(f"statistic {statistic!r}: expected one of {STATISTICS}")


def geomean_interval(ratios: Sequence[float], of: str) -> dict:
    """The geometric mean of positive ``ratios`` and its 95 % interval: the t interval of the
    mean log-ratio, taken back to a ratio (a ratio spreads multiplicatively: one replicate near
    zero would drag an arithmetic mean's interval below 1). ``samples`` keeps the log-ratios;
    a ratio that is not positive has no logarithm, and the record says it is undefined there."""
    with np.errstate(divide="ignore", invalid="ignore"):
        u = interval(np.log(np.asarray([float(r) for r in ratios])), of)
    if u.get("undefined"):
        return u
    ci = None if u["ci95"] is None else [math.exp(x) for x in u["ci95"]]
    return {**u, "mean": math.exp(u["mean"]), "ci95": ci}


def share_interval(hits: Sequence[float], of: str) -> dict:
    """The share of replicates with ``hit`` 1 (each 0 or 1) and its Wilson 95 % interval."""
    x = np.asarray([float(h) for h in hits])
    if x.size == 0 or not np.all((x == 0) | (x == 1)):
        raise ValueError(f"share of {of!r}: expected at least one value, each 0 or 1")
    n, p, z = x.size, float(x.mean()), 1.959963984540054
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return {"n": n, "mean": p, "ci95": [centre - half, centre + half], "of": of}


def straddled(u: dict, bands: Sequence[Band]) -> list[float]:
    """The band edges the interval ``u`` straddles (empty: decided)."""
    if u.get("undefined") or u.get("ci95") is None:
        return []
    lo, hi = u["ci95"]
    return [e for b in bands for e in (b.low, b.high) if math.isfinite(e) and lo < e < hi]


def n_needed(u: dict, edges: Sequence[float]) -> int | None:
    """The replicates the observed spread says would put ``u``'s interval on one side of
    every edge in ``edges``: the half-width shrinks as 1/√n, so the side facing an edge at
    distance d from the estimate needs n·(half/d)²; None when the estimate sits on an edge."""
    if not edges:
        return None
    lo, hi = u["ci95"]
    mean, n, need = u["mean"], u["n"], 0
    for e in edges:
        d = abs(mean - e)
        if d == 0:
            return None
        half = (mean - lo) if e < mean else (hi - mean)
        need = max(need, math.ceil(n * (half / d) ** 2))
    return max(need, n + 1)


def decide(pool: Pool, measure: Callable[[list], Sequence[float]], bands: Band | Sequence[Band],
           of: str, statistic: str = "mean") -> dict:
    """Grow ``pool`` until the interval of ``statistic`` over ``measure(pool.take(n))`` (one
    float per replicate) lies on one side of every edge of ``bands``, or the pool's cap.

    Starts from every replicate the pool already holds (at least its ``start``): a claim never
    draws fresh replicates when the pool has them. Each step at most doubles ``n``, towards
    :func:`n_needed`. Returns the claim's uncertainty record, with ``n``, ``cap``,
    ``cap_why``, ``statistic``, ``samples`` and, at the cap and still undecided,
    ``n_needed``.
    """
    bands = [bands] if isinstance(bands, Band) else list(bands)
    if statistic not in STATISTICS:
        raise ValueError(f"statistic {statistic!r}: expected one of {STATISTICS}")
    n = max(pool.start, pool.drawn)
    while True:
        values = [float(v) for v in measure(pool.take(n))]
        if len(values) != n:
            raise ValueError(f"measure of {of!r} gave {len(values)} values for {n} replicates")
        u = estimate(values, of, statistic)
        edges = straddled(u, bands)
        if not edges or n >= pool.cap:
            break
        n = min(pool.cap, max(n + 1, min(2 * n, n_needed(u, edges) or pool.cap)))
    u = {**u, "cap": pool.cap, "cap_why": pool.cap_why, "statistic": statistic,
         "samples": values}
    if edges:
        u["n_needed"] = n_needed(u, edges)
    return u
