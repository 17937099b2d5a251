"""Arrival traces the AccGecko pacer and node tests share."""

import numpy as np


def bursty(rng: np.random.Generator, n: int) -> np.ndarray:
    """``n`` arrivals (s) at 2000 per second, 5 % of the gaps shrunk 20x into clumps."""
    gaps = rng.exponential(1 / 2000, n)
    gaps[rng.random(n) < 0.05] /= 20  # clumps
    return np.cumsum(gaps)
