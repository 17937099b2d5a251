"""The simpy model of the paper's controller: one 6-day replay of FG demand and snapshot debt on
the shared core pool (:class:`storrepro.sim.core_pool.CorePool`), whose allocator is one of the
schedulers of :mod:`storrepro.papers.vdi.scheduler`."""

from __future__ import annotations

import numpy as np
import simpy

from storrepro.sim.core_pool import CorePool, CorePoolConfig


def simulate(demand, lumps, allocator, config: CorePoolConfig) -> CorePool:
    """Replay on the simpy core pool; each lump is added at its tick's start time."""
    env = simpy.Environment()
    pool = CorePool(env, demand, allocator, config)

    def expiries():
        for tick in np.flatnonzero(lumps):
            yield env.timeout(tick * config.tick_s - env.now)
            pool.add_debt(float(lumps[tick]))

    env.process(expiries())
    env.run(until=pool.process)
    return pool
