"""Shared input checks of the detectors."""

from __future__ import annotations

import numpy as np

#: The fewest values a series may have: no period fits in fewer (a detector abstains with
#: ``None`` on a series too short for its own method).
MIN_VALUES = 2
#: The range of a series' largest magnitude that the detectors' products and sums of squares
#: hold without overflow or underflow (PrecisePeriod stops answering near 1e80 and 1e-100).
MIN_MAGNITUDE, MAX_MAGNITUDE = 1e-50, 1e50


def as_series(x, name: str = "x") -> np.ndarray:
    """``x`` as a 1-D float array; ``TypeError`` if it is not numbers, ``ValueError`` if it is
    not 1-D, has fewer than :data:`MIN_VALUES` values or has NaN/inf values."""
    if np.iscomplexobj(x):
        raise TypeError(f"{name} must be a 1-D series of real numbers, got complex values")
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
    peak = float(np.max(np.abs(arr)))
    if peak and not MIN_MAGNITUDE <= peak <= MAX_MAGNITUDE:
        raise ValueError(
            f"{name} reaches {peak:.3g} in magnitude; the detectors square and multiply values, "
            f"so its largest value must lie from {MIN_MAGNITUDE:g} to {MAX_MAGNITUDE:g}: "
            "rescale it (a period does not depend on the scale)"
        )
    return arr


def is_constant(x: np.ndarray) -> bool:
    return x.size == 0 or bool(np.all(x == x[0]))
