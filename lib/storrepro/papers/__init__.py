"""One package per notebook, all of the same shape (config, workload, reference, kernel,
experiment, claims, plots, bench): notebook 00's checks of the shared simulators and the five
papers. A paper package imports the suite and ``sim``, never another paper."""

from storrepro.suite import numba_cache  # noqa: F401 - a damaged kernel cache compiles again
