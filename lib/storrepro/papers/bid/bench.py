"""Bench cases of notebook 04: the BID-HDD block layer and disk in simpy and in the kernel; the
notebook's cells."""

from __future__ import annotations

from storrepro.suite.bench_cases import Simulator, Sweep, digest


def _bid(engine):
    def run(n, rng):
        from storrepro.papers.bid.experiment import simulate
        from storrepro.papers.bid.schedulers import make_scheduler
        from storrepro.papers.bid.workload import generate

        simulate(generate("WordCount", n, rng), make_scheduler("bid-hdd"), engine=engine)

    return run


SIMULATORS = [
    Simulator("BID-HDD block layer + disk (WordCount)", "simpy", _bid("simpy"), 10_000, False),
    Simulator("BID-HDD block layer + disk (WordCount)", "fast", _bid("kernel"), 100_000, False),
]


def largest_sweep() -> Sweep:
    from storrepro.papers.bid import experiment
    from storrepro.papers.bid.config import BIDConfig
    from storrepro.papers.bid.workload import WORKLOADS

    cfg = BIDConfig(profile="full")
    experiment.warm_up()
    # the notebook's tasks: every scheme and reading of one trace in each
    tasks = experiment.trace_tasks(experiment.main_cells(cfg, WORKLOADS))
    return Sweep("workloads × schedulers × seeds", experiment.run_trace, tasks, cfg.seed, digest)
