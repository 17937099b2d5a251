"""Seed intervals of notebook 02's claims, from the replicates the experiment already has.

The pool's claims rest on two kinds of replicate: the accuracy tenants (each runs every
predictor; an error statistic is a mean or a maximum over them) and the admission runs' random
arrival orders (a gain is a ratio of mean admissions over them). :class:`Replicates` holds one
row per replicate and one column per measured quantity, and gives the percentile bootstrap 95 %
interval of any statistic of those columns, resampling whole rows (a tenant with all its
predictors, an order with all its methods), so paired quantities stay paired. A claim's measure
returns these intervals with their bands, and the claims core judges them
(:func:`storrepro.suite.table.judge_intervals`).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable

import numpy as np
import pandas as pd

RESAMPLES = 1000


class Replicates:
    """``frame``: one row per replicate (``unit`` names what a row is), one column per measured
    quantity (NaN where a replicate has none: a statistic then uses the others). Never changed
    once made, so a result's input digest pickles it once per process (``DIGEST_ONCE``)."""

    DIGEST_ONCE = True

    def __init__(self, frame: pd.DataFrame, unit: str, resamples: int = RESAMPLES, seed: int = 0):
        if len(frame) < 2:
            raise ValueError(f"replicates: need at least 2 {unit}s, got {len(frame)}")
        self.frame, self.unit = frame, unit
        picks = np.random.default_rng(seed).integers(0, len(frame), (resamples, len(frame)))
        self._draws = frame.to_numpy(dtype=float)[picks]  # (resamples, replicates, columns)

    def interval(self, statistic: Callable[[Callable], np.ndarray], of: str) -> dict:
        """``statistic(column)`` — ``column(key)`` gives a column's values along the last axis —
        on the replicates, and its bootstrap 95 % interval: ``{"n", "mean", "ci95", "of"}``."""
        estimate = float(statistic(lambda key: self.frame[key].to_numpy(dtype=float)))
        index = {key: i for i, key in enumerate(self.frame.columns)}
        draws = np.asarray(statistic(lambda key: self._draws[:, :, index[key]]), dtype=float)
        with np.errstate(invalid="ignore"):
            lo, hi = np.nanpercentile(draws, [2.5, 97.5]) if np.isfinite(draws).any() else (
                np.nan, np.nan)
        return {"n": len(self.frame), "mean": estimate, "ci95": [float(lo), float(hi)],
                "of": f"{of} (bootstrap over {len(self.frame)} {self.unit}s)"}  # fmt: skip


def mean(x: np.ndarray) -> np.ndarray:
    """Mean along the replicates, ignoring replicates without a value."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # a draw with no value at all: NaN
        return np.nanmean(x, axis=-1)


def top(x: np.ndarray) -> np.ndarray:
    """Largest value along the replicates, ignoring replicates without a value."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        return np.nanmax(x, axis=-1)


def estimate_only(value: float, of: str) -> dict:
    """An interval record for a part judged on its estimate alone (no replicates)."""
    return {"n": 1, "mean": float(value), "ci95": None, "of": of}
