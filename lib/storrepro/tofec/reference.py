"""The simpy model of the paper's system: the shared cloud store (:mod:`storrepro.sim.cloud_store`)
run with TOFEC's policies, checked against the fast kernel request by request."""

from __future__ import annotations

import numpy as np
import simpy

from storrepro.parallel import task_rng
from storrepro.sim.cloud_inputs import poisson_arrival_times
from storrepro.sim.cloud_store import CloudStore
from storrepro.tofec import analysis
from storrepro.tofec.codes import FILE_MB
from storrepro.tofec.config import TofecConfig
from storrepro.tofec.delay import SUR, ModelParams
from storrepro.tofec.kernel import COLUMNS, simulate
from storrepro.tofec.policies import Greedy, Ideal, Tofec


def kernel_vs_simpy(cfg: TofecConfig, params: ModelParams, rate: float, requests: int) -> dict:
    """Run TOFEC, Greedy and the head-of-line Ideal through the simpy store (A6 checked on every
    event) and the kernel.

    Ideal switches between (2,1) and (1,1) at a third and two thirds of the run, so a backlog
    built under (2,1) is re-coded at the head of the line. Returns the largest per-request
    difference over all logged columns (0 when identical) and whether the simpy run's total
    thread busy time equals the sum of request costs.
    """
    arrivals = poisson_arrival_times(
        task_rng(cfg.seed, ("a6 arrivals", rate)), rate, requests / rate * 1000.0
    )
    thirds = (arrivals[-1] / 3, 2 * arrivals[-1] / 3)
    makers = (
        lambda: Tofec.from_model(analysis.Setting(params, FILE_MB, cfg.n_threads), cfg.alpha),
        Greedy,
        lambda: Ideal(thirds, ((2, 1), (1, 1), (2, 1)), decide_at="admission"),
    )
    worst, busy_gap = 0.0, 0.0
    for make in makers:
        env = simpy.Environment()
        policy = make()
        store = CloudStore(
            env,
            task_rng(cfg.seed, "a6 delays"),
            SUR,
            policy,
            n_threads=cfg.n_threads,
            file_size=FILE_MB,
            decide_at=getattr(policy, "decide_at", "arrival"),
            check_invariants=True,
        )
        store.replay(arrivals)
        env.run()
        log = store.log.to_frame().sort_values("rid")
        blocks = SUR.draw(task_rng(cfg.seed, "a6 delays"), len(arrivals))
        fast = simulate(make(), SUR, arrivals, blocks, cfg.n_threads, FILE_MB)
        for column in COLUMNS[:-1]:
            worst = max(worst, float(np.max(np.abs(log[column].to_numpy() - fast[column]))))
        busy_gap = max(busy_gap, abs(store.busy_time - log.cost.sum()) / log.cost.sum())
    return {"requests": len(arrivals), "max_difference": worst, "busy_vs_cost": busy_gap}
