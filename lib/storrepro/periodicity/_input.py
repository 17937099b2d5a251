"""Shared input checks of the detectors."""

from __future__ import annotations

import numpy as np

#: The fewest values a series may have: no period fits in fewer (a detector abstains with
#: ``None`` on a series too short for its own method).
MIN_VALUES = 2


def as_series(x, name: str = "x") -> np.ndarray:
    """``x`` as a 1-D float array; ``TypeError`` if it is not numbers, ``ValueError`` if it is
    not 1-D, has fewer than :data:`MIN_VALUES` values or has NaN/inf values."""
    try:
        arr = np.asarray(x, dtype=float)
    except (TypeError, ValueError) as err:
        raise TypeError(
            f"{name} must be a 1-D series of numbers, got {type(x).__name__}: {err}"
        ) from None
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D series, got an array of shape {arr.shape}")
    if arr.size < MIN_VALUES:
        raise ValueError(f"{name} has {arr.size} values; a series needs at least {MIN_VALUES}")
    if not np.all(np.isfinite(arr)):
        bad = int(np.count_nonzero(~np.isfinite(arr)))
        raise ValueError(f"{name} has {bad} NaN or infinite values; remove or fill them first")
    return arr


def is_constant(x: np.ndarray) -> bool:
    return x.size == 0 or bool(np.all(x == x[0]))
