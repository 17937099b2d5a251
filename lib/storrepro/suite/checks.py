"""The checks behind every library function's "must be a finite number" errors."""

from __future__ import annotations

import math
from numbers import Integral, Real

import numpy as np


def finite(
    name: str,
    value,
    *,
    minimum: float | None = 0.0,
    strict: bool = False,
    unit: str = "",
    maximum: float | None = None,
) -> float:
    """Return ``value`` as a float, or raise a ``ValueError`` naming it and what is allowed:
    a real number (numpy's included; not a bool, not complex), finite, within the bounds.

    ``minimum`` is the lowest allowed value (``None``: any finite number); ``strict`` excludes it.
    ``maximum``, if given, is the highest. ``unit`` is appended to the message ("ms", ...).
    """
    ok = isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value)
    if ok and minimum is not None:
        ok = value > minimum if strict else value >= minimum
    if ok and maximum is not None:
        ok = value <= maximum
    if not ok:
        bound = "" if minimum is None else f" {'>' if strict else '>='} {minimum:g}"
        bound += "" if maximum is None else f"{' and' if bound else ''} <= {maximum:g}"
        raise ValueError(
            f"{name} must be a finite number{bound}{' ' + unit if unit else ''}, got {value!r}"
        )
    return float(value)


#: The most items a count may ask for: beyond what any machine's memory holds.
MAX_COUNT = 2**48


def whole(name: str, value, *, minimum: int | None = 0, maximum: int | None = None) -> int:
    """Return ``value`` as an int, or raise a ``ValueError`` naming it and what is allowed: an
    exact integer (numpy's included, or a float holding one exactly; not a bool) within the
    bounds."""
    exact = isinstance(value, Integral) or (
        isinstance(value, float) and value.is_integer() and abs(value) < 2**53
    )
    ok = exact and not isinstance(value, bool)
    if ok and minimum is not None:
        ok = value >= minimum
    if ok and maximum is not None:
        ok = value <= maximum
    if not ok:
        bound = "" if minimum is None else f" >= {minimum}"
        bound += "" if maximum is None else f"{' and' if bound else ''} <= {maximum}"
        raise ValueError(f"{name} must be a whole number{bound}, got {value!r}")
    return int(value)


def finite_array(name: str, values, *, minimum: float | None = 0.0) -> np.ndarray:
    """``values`` as a float array, or a ``ValueError`` naming it, the first bad entry and its
    index: every entry must be a real number (not complex, text or bool: numpy would drop the
    imaginary part or read "2" as 2 without a word), finite, and ``>= minimum`` unless that is
    ``None``."""
    raw = np.asarray(values)
    if raw.size and raw.dtype.kind not in "iuf":
        raise ValueError(f"{name} must hold real numbers, got an array of {raw.dtype}")
    array = raw.astype(float, copy=False)
    bad = ~np.isfinite(array)
    if minimum is not None:
        bad |= array < minimum
    if bad.any():
        index = int(np.flatnonzero(bad.ravel())[0])
        value = float(array.ravel()[index])
        bound = "" if minimum is None else f" >= {minimum:g}"
        raise ValueError(f"{name} must hold finite numbers{bound}; entry {index} is {value!r}")
    return array
