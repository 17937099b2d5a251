"""Bench cases of notebook 01: its one sweep, surrogate replicates and every CRAN series."""

from __future__ import annotations

from storrepro.bench_cases import Sweep, digest


def largest_sweep() -> Sweep:
    from storrepro.periodicity import benchmark as bm
    from storrepro.periodicity.config import PrecisePeriodConfig

    tasks = bm.notebook_tasks(PrecisePeriodConfig(profile="full"))  # the notebook's one sweep
    return Sweep("surrogate replicates and every series", bm.run_task, tasks, 0, digest)
