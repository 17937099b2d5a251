"""The simpy model of the paper's system: the shared cloud store (:mod:`storrepro.sim.cloud_store`)
run with one of TOFEC's policies. :func:`storrepro.papers.tofec.experiment.kernel_vs_simpy` checks
the fast kernel against it request by request."""

from __future__ import annotations

import numpy as np
import pandas as pd
import simpy

from storrepro.papers.tofec.codes import FILE_MB
from storrepro.papers.tofec.delay import SUR
from storrepro.sim.cloud_store import CloudStore


def simulate_store(
    policy, arrivals: np.ndarray, rng: np.random.Generator, n_threads: int
) -> tuple[pd.DataFrame, float]:
    """Run ``policy`` on the simpy store, requests arriving at ``arrivals`` (ms) with SUR task
    delays drawn from ``rng``, and the invariants (A6) checked after every event.

    Returns the request log in request order and the total thread busy time (ms).
    """
    env = simpy.Environment()
    store = CloudStore(
        env,
        rng,
        SUR,
        policy,
        n_threads=n_threads,
        file_size=FILE_MB,
        decide_at=getattr(policy, "decide_at", "arrival"),
        check_invariants=True,
    )
    store.replay(arrivals)
    env.run()
    return store.log.to_frame().sort_values("rid"), store.busy_time
