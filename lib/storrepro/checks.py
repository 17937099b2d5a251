"""The checks behind every library function's "must be a finite number" errors."""

from __future__ import annotations

import math
from numbers import Real

import numpy as np


def finite(
    name: str, value, *, minimum: float = 0.0, strict: bool = False, unit: str = ""
) -> float:
    """Return ``value`` as a float, or raise a ``ValueError`` naming it and what is allowed.

    ``minimum`` is the lowest allowed value (``None``: any finite number); ``strict`` excludes it.
    ``unit`` is appended to the message ("ms", "req/s", ...).
    """
    ok = isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value)
    if ok and minimum is not None:
        ok = value > minimum if strict else value >= minimum
    if not ok:
        bound = "" if minimum is None else f" {'>' if strict else '>='} {minimum:g}"
        raise ValueError(
            f"{name} must be a finite number{bound}{' ' + unit if unit else ''}, got {value!r}"
        )
    return float(value)


def finite_array(name: str, values, *, minimum: float | None = 0.0) -> np.ndarray:
    """``values`` as a float array, or a ``ValueError`` naming it, the first bad entry and its
    index: every entry must be finite (and ``>= minimum`` unless that is ``None``)."""
    array = np.asarray(values, dtype=float)
    bad = ~np.isfinite(array)
    if minimum is not None:
        bad |= array < minimum
    if bad.any():
        index = int(np.flatnonzero(bad.ravel())[0])
        value = float(array.ravel()[index])
        bound = "" if minimum is None else f" >= {minimum:g}"
        raise ValueError(f"{name} must hold finite numbers{bound}; entry {index} is {value!r}")
    return array
