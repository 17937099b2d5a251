"""Bench cases of notebook 00: the FIFO queue every paper's models build on, in simpy and fast."""

from __future__ import annotations

from storrepro.papers.validation.workload import QueueTask, queue_inputs
from storrepro.suite.bench_cases import Simulator


def _mm1(rng, n):
    return queue_inputs(QueueTask("M/M/1", 0.8, n), rng)


def _fifo_simpy(n, rng):
    import simpy

    from storrepro.sim.fifo import FifoServer, replay

    arrivals, service = _mm1(rng, n)
    env = simpy.Environment()
    server = FifoServer(env, 1.0, streaming=True)
    env.process(replay(env, server, arrivals, service))
    env.run()


def _fifo_fast(n, rng, chunk=2**20):
    from storrepro.sim.fifo import fifo_stream
    from storrepro.sim.monitor import LatencyMonitor

    def chunks():
        start = 0.0
        for size in [chunk] * (n // chunk) + ([n % chunk] if n % chunk else []):
            arrivals, service = _mm1(rng, size)
            yield arrivals + start, service
            start += arrivals[-1]

    fifo_stream(chunks(), LatencyMonitor(streaming=True))


SIMULATORS = [
    Simulator("FIFO queue (M/M/1, load 0.8)", "simpy", _fifo_simpy, 20_000, True),
    Simulator("FIFO queue (M/M/1, load 0.8)", "fast", _fifo_fast, 2_000_000, True),
]
