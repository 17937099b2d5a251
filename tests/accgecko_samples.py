"""Arrival traces the AccGecko pacer and node tests share, and allocations for the admission
tests."""

import math

import numpy as np
import pandas as pd

from storrepro.papers.accgecko.experiment import ADMISSION_METHODS, SLO_GRID


def bursty(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` arrivals (s) at 2000 per second, 5 % of the gaps shrunk 20x into clumps."""
    gaps = rng.exponential(1 / 2000, n)
    gaps[rng.random(n) < 0.05] /= 20  # clumps
    return np.cumsum(gaps)


def tiny_allocations(seed=0, tenants=12):
    """Random allocations of the admission methods for every SLO of both grids."""
    rng = np.random.default_rng(seed)
    rows = []
    for t in range(tenants):
        for m in ADMISSION_METHODS:
            for p, grid in SLO_GRID.items():
                for slo in grid:
                    rate = math.inf if rng.random() < 0.05 else float(rng.integers(3000, 40_000))
                    actual = slo * rng.uniform(0.2, 1.5)
                    rows.append(
                        {
                            "tenant": t,
                            "method": m.name,
                            "p": p,
                            "slo_us": slo,
                            "rate": rate,
                            "actual_us": actual,
                        }  # fmt: skip
                    )
    return pd.DataFrame(rows)
