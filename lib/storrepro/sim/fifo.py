"""A single FIFO server with a fixed or sampled service time, and its vectorized twin.

Service-time formula: request ``i`` arrives at ``a_i`` and needs ``s_i`` time units of service
(``s_i = 1/rate`` for a fixed-rate server, or a draw from a sampler). It starts at
``b_i = max(a_i, d_{i-1})`` and departs at ``d_i = b_i + s_i``; its waiting time is ``b_i - a_i``
and its sojourn (latency) ``d_i - a_i``. This is the queue behind AccGecko's fixed-rate tenant
pacers and PrecisePeriod's SSD queues, and the M/M/1, M/D/1 and M/G/1 checks of notebook 00.

:class:`FifoServer` is the simpy reference. :func:`fifo_departures` computes the same departures
without an event loop, from the closed form of the Lindley recursion,
``d_n = C_n + max_{j<=n} (a_j - C_{j-1})`` with ``C_n = s_1 + ... + s_n``, so long sweeps can use
it once a test has shown both agree request by request. :func:`fifo_stream` runs it chunk by
chunk into a streaming monitor, so a run of 10^8 requests needs no more memory than one chunk.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np
import simpy

from storrepro.sim.monitor import LatencyMonitor
from storrepro.sim.wakeup_queue import WakeupQueue
from storrepro.suite.checks import MAX_COUNT, finite, finite_array, whole

#: Draws one service time from a generator.
ServiceSampler = Callable[[np.random.Generator], float]


class FifoServer:
    """One server taking requests first come, first served.

    ``service_time`` is a constant (a fixed-rate server: ``1/rate``) or a sampler called with
    ``rng`` once per request; a request may also bring its own service time to :meth:`submit`.
    ``waits`` and ``latencies`` monitor the waiting time and the sojourn of every request
    (``streaming=True``: percentiles only, in bounded memory).
    """

    def __init__(
        self,
        env: simpy.Environment,
        service_time: float | ServiceSampler,
        *,
        rng: np.random.Generator | None = None,
        streaming: bool = False,
    ):
        if callable(service_time):
            if rng is None:
                raise ValueError("service_time is a sampler, so FifoServer needs rng (a Generator)")
        elif not service_time > 0:
            raise ValueError(f"service_time must be > 0 or a sampler, got {service_time!r}")
        self.env = env
        self.service_time = service_time
        self.rng = rng
        self.waits = LatencyMonitor("wait", streaming=streaming)
        self.latencies = LatencyMonitor("sojourn", streaming=streaming)
        self._queue = WakeupQueue(env)  # of (arrival time, service time)
        env.process(self._serve())

    @classmethod
    def fixed_rate(cls, env: simpy.Environment, rate: float) -> FifoServer:
        """A server that takes exactly ``1/rate`` per request."""
        if not rate > 0:
            raise ValueError(f"rate must be > 0 requests per time unit, got {rate!r}")
        return cls(env, 1.0 / rate)

    def submit(self, service_time: float | None = None) -> None:
        """Enqueue one request now; its service time is drawn at arrival unless given."""
        if service_time is None:
            service_time = self._draw()
        self._queue.put((self.env.now, service_time))

    def _draw(self) -> float:
        if callable(self.service_time):
            return float(self.service_time(self.rng))
        return self.service_time

    def _serve(self):
        while True:
            arrived, service = yield from self._queue.get()
            self.waits.record(self.env.now - arrived)
            yield self.env.timeout(service)
            self.latencies.record(self.env.now - arrived)

    def __repr__(self) -> str:
        return f"FifoServer(service_time={self.service_time!r})"


def replay(env: simpy.Environment, server: FifoServer, arrivals, service_times=None):
    """A simpy process that submits a request at each (sorted) arrival time.

    It walks Python floats, not numpy scalars: the same doubles, but the clock and every wait
    the server records are then plain float arithmetic, which is several times cheaper."""
    arrivals = np.asarray(arrivals, dtype=float).tolist()
    if service_times is None:
        services = [None] * len(arrivals)
    else:
        services = np.asarray(service_times, dtype=float).tolist()
    for t, service in zip(arrivals, services, strict=True):
        yield env.timeout(t - env.now)
        server.submit(service)


def simulate_fifo(arrivals, service_times) -> tuple[np.ndarray, np.ndarray]:
    """Run the simpy :class:`FifoServer` on explicit arrivals and service times.

    Returns ``(waits, sojourns)`` per request, in arrival order.
    """
    arrivals, service_times = _check_arrays(arrivals, service_times)
    env = simpy.Environment()
    server = FifoServer(env, service_time=1.0)  # every request brings its own service time
    env.process(replay(env, server, arrivals, service_times))
    env.run()
    return server.waits.latencies, server.latencies.latencies


def fifo_departures(arrivals, service_times, free_at: float = -np.inf) -> np.ndarray:
    """Departure times of a FIFO single server, vectorized (see the module docstring).

    ``free_at`` is when the server finishes the work that came before these requests.
    """
    arrivals, service_times = _check_arrays(arrivals, service_times)
    work = np.cumsum(service_times)
    work_before = work - service_times
    start_gap = np.maximum.accumulate(arrivals - work_before)
    return work + np.maximum(start_gap, free_at)


def fifo_stream(chunks: Iterable[tuple[np.ndarray, np.ndarray]], monitor: LatencyMonitor):
    """Feed the sojourns of consecutive (arrivals, service_times) chunks into ``monitor``.

    Chunks must follow each other in time; the server's backlog carries over between them, so
    the result equals one :func:`fifo_departures` call on the concatenation.
    """
    free_at, last_arrival = -np.inf, -np.inf
    for arrivals, service_times in chunks:
        arrivals = np.asarray(arrivals, dtype=float)
        if arrivals.size and arrivals[0] < last_arrival:
            raise ValueError("chunks must follow each other in time (arrivals non-decreasing)")
        departures = fifo_departures(arrivals, service_times, free_at)
        monitor.record_many(departures - arrivals)
        if arrivals.size:
            free_at, last_arrival = departures[-1], arrivals[-1]
    return monitor


def _check_arrays(arrivals, service_times) -> tuple[np.ndarray, np.ndarray]:
    arrivals = finite_array("arrivals", arrivals, minimum=None)
    service_times = finite_array("service_times", service_times)
    if arrivals.shape != service_times.shape or arrivals.ndim != 1:
        raise ValueError(
            f"arrivals and service_times must be 1-D arrays of one length, got shapes "
            f"{arrivals.shape} and {service_times.shape}"
        )
    if arrivals.size and np.any(np.diff(arrivals) < 0):
        raise ValueError("arrivals must be sorted in time (non-decreasing)")
    return arrivals, service_times


def poisson_arrivals(rng: np.random.Generator, rate: float, count: int) -> np.ndarray:
    """``count`` arrival times of a Poisson process of the given rate, starting after 0."""
    finite("rate", rate, strict=True)
    return np.cumsum(rng.exponential(1.0 / rate, size=whole("count", count, maximum=MAX_COUNT)))
