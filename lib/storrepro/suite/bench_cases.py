"""What a paper package declares for ``make bench``: its simulators and its largest sweep.

Each paper package may hold a ``bench.py`` with ``SIMULATORS`` (a list of :class:`Simulator`)
and ``largest_sweep()`` (returning a :class:`Sweep`); :mod:`storrepro.suite.bench` finds them
through the notebook registry, so adding a paper never means editing the bench.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np


@dataclass(frozen=True)
class Simulator:
    """One way to simulate ``n`` requests of a device model; ``run(n, rng)`` returns nothing."""

    name: str
    kind: str  # "simpy" or "fast"
    run: Callable[[int, np.random.Generator], None]
    base: int  # requests at 1x: a second or so of work
    streaming: bool  # keeps percentiles only (bounded memory) rather than every request


@dataclass(frozen=True)
class Sweep:
    """A notebook's largest sweep: ``fn(task, rng)`` over ``tasks`` from ``seed``, and
    ``comparable(results) -> str`` that must agree between runs (a digest of what must not
    change; fit times, say, are left out)."""

    what: str
    fn: Callable[[Any, np.random.Generator], Any]
    tasks: list
    seed: int
    comparable: Callable[[list], str]


def digest(value) -> str:
    """A stable fingerprint of a sweep's results (dicts, sequences, arrays, frames, scalars)."""
    import pandas as pd

    h = hashlib.sha256()

    def feed(v):
        if isinstance(v, dict):
            for key in v:
                h.update(repr(key).encode())
                feed(v[key])
        elif isinstance(v, list | tuple):
            h.update(f"[{len(v)}".encode())
            for item in v:
                feed(item)
        elif isinstance(v, pd.DataFrame | pd.Series):
            h.update(repr(v.shape).encode() + repr(list(v.index)).encode())
            h.update(pd.util.hash_pandas_object(v, index=False).to_numpy().tobytes())
        elif isinstance(v, np.ndarray):
            h.update(repr(v.shape).encode() + np.ascontiguousarray(v).tobytes())
        else:
            h.update(repr(v).encode())

    feed(value)
    return h.hexdigest()
