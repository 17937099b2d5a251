"""Period detection: PrecisePeriod and the four baselines the paper compares, one module each.

Every detector takes a 1-D series and returns an integer period, or ``None`` when it finds no
period (the baselines' own "no period" values — findFrequency 1, seasonLength 0, SAZED 1 — and
their R-level errors are mapped to ``None``). Bad input (not 1-D, non-finite values) raises
``ValueError`` naming the problem; too-short or constant series give ``None``.
"""

from storrepro.periodicity.findfrequency import findfrequency
from storrepro.periodicity.precise_period import precise_period
from storrepro.periodicity.sazed import sazed
from storrepro.periodicity.seasonlength import seasonlength

__all__ = ["findfrequency", "precise_period", "sazed", "seasonlength"]
