"""Period detection: PrecisePeriod and the four baselines the paper compares, one module each.

Every detector takes a 1-D series and returns an integer period, or ``None`` when it finds no
period (the baselines' own "no period" values — findFrequency 1, seasonLength 0, SAZED 1 — and
their R-level errors are mapped to ``None``). Bad input raises an error naming ``x``:
``TypeError`` when it is not numbers, ``ValueError`` when it is not 1-D, has fewer than two
values or has NaN/inf values; a series too short for a method's own minimum, or constant,
gives ``None``. ``tests/test_periodicity_contract.py`` holds every detector to this.
"""

from storrepro.papers.periodicity.findfrequency import findfrequency
from storrepro.papers.periodicity.precise_period import precise_period
from storrepro.papers.periodicity.sazed import sazed
from storrepro.papers.periodicity.seasonlength import seasonlength

__all__ = ["findfrequency", "precise_period", "sazed", "seasonlength"]
