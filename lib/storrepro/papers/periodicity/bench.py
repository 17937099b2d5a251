"""Bench cases of notebook 01: its one sweep, surrogate replicates and every CRAN series."""

from __future__ import annotations

from storrepro.suite.bench_cases import Sweep, digest


def largest_sweep() -> Sweep:
    from storrepro.papers.periodicity import experiment as ex
    from storrepro.papers.periodicity.config import PrecisePeriodConfig

    tasks = ex.notebook_tasks(PrecisePeriodConfig(profile="full"))  # the notebook's one sweep
    return Sweep("surrogate replicates and every series", ex.run_task, tasks, 0, digest)
