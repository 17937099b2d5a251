"""Bench cases of notebook 01: its largest sweep, the scheduling pool's first replicates."""

from __future__ import annotations

from storrepro.suite.bench_cases import Sweep, digest


def largest_sweep() -> Sweep:
    from storrepro.papers.periodicity import experiment as ex
    from storrepro.papers.periodicity.config import PrecisePeriodConfig
    from storrepro.papers.periodicity.ssd_latency import SMOOTH

    cfg = PrecisePeriodConfig(profile="full")
    # the notebook fits the arrival seconds in its first sweep; at 60 s a minute has 60
    # sub-bins (N + 1 at N < 60), so a replicate costs at least what it costs at the fit
    tasks = [t for i in range(cfg.sched_replicates) for t in ex.replicate_tasks(cfg, i, SMOOTH)]
    return Sweep("the scheduling pool's first replicates", ex.run_task, tasks, 0, digest)
