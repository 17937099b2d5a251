"""Shared input checks of the detectors."""

from __future__ import annotations

import numpy as np


def as_series(x, name: str = "x") -> np.ndarray:
    """``x`` as a 1-D float array, or ``ValueError`` if it is not 1-D or has NaN/inf values."""
    arr = np.asarray(x, dtype=float)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be a 1-D series, got an array of shape {arr.shape}")
    if not np.all(np.isfinite(arr)):
        bad = int(np.count_nonzero(~np.isfinite(arr)))
        raise ValueError(f"{name} has {bad} NaN or infinite values; remove or fill them first")
    return arr


def is_constant(x: np.ndarray) -> bool:
    return x.size == 0 or bool(np.all(x == x[0]))
