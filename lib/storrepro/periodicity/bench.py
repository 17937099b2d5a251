"""Bench cases of notebook 01: its one sweep, surrogate replicates and every CRAN series."""

from __future__ import annotations

from storrepro.bench_cases import Sweep, digest


def largest_sweep() -> Sweep:
    from storrepro.periodicity import experiment as ex
    from storrepro.periodicity.config import PrecisePeriodConfig

    tasks = ex.notebook_tasks(PrecisePeriodConfig(profile="full"))  # the notebook's one sweep
    return Sweep("surrogate replicates and every series", ex.run_task, tasks, 0, digest)
