"""Bench cases of notebook 04: the BID-HDD block layer and disk in simpy and in the kernel; the
notebook's cells."""

from __future__ import annotations

from storrepro.bench_cases import Simulator, Sweep, digest


def _bid(engine):
    def run(n, rng):
        from storrepro.bid.experiment import simulate
        from storrepro.bid.schedulers import make_scheduler
        from storrepro.bid.workload import generate

        simulate(generate("WordCount", n, rng), make_scheduler("bid-hdd"), engine=engine)

    return run


SIMULATORS = [
    Simulator("BID-HDD block layer + disk (WordCount)", "simpy", _bid("simpy"), 10_000, False),
    Simulator("BID-HDD block layer + disk (WordCount)", "fast", _bid("kernel"), 100_000, False),
]


def largest_sweep() -> Sweep:
    from storrepro.bid import experiment
    from storrepro.bid.config import BIDConfig
    from storrepro.bid.workload import WORKLOADS

    cfg = BIDConfig(profile="full")
    experiment.warm_up()
    tasks = experiment.main_cells(cfg, WORKLOADS)  # the notebook's cells: every scheme, reading
    return Sweep("workloads × schedulers × seeds", experiment.run_cell, tasks, cfg.seed, digest)
