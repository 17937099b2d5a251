"""The paper's system as a simpy model: one first-come-first-served disk (the shared FIFO
server of ``storrepro.sim``)."""

from __future__ import annotations

import numpy as np
import simpy

from storrepro.sim.fifo import FifoServer, replay


def response_times(arrivals: np.ndarray, service: np.ndarray) -> np.ndarray:
    """Each request's time in the system (wait plus service), in arrival order."""
    env = simpy.Environment()
    disk = FifoServer(env, service_time=1.0)  # every request brings its own service time
    env.process(replay(env, disk, arrivals, service))
    env.run()
    return np.asarray(disk.latencies.latencies)
