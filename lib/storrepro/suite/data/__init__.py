"""Data the notebooks read: the CRAN period-detection benchmark and seeded synthetic generators.

Real data is read at run time from where the user keeps it (see :mod:`storrepro.suite.data.cran`);
nothing from it is copied into this repository.
"""
