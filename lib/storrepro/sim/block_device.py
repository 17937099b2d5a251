"""What the HDD and SSD models share: the block request, the scheduler slot and the pull server.

A device pulls its next request from a pluggable scheduler whenever it is idle. A scheduler is
any object with ``add(request, now)`` and ``next(now)`` (returning a request or ``None``);
timer-driven schedulers may also define ``next_wakeup(now)`` returning the earliest future time
at which ``next`` could yield a request without a new arrival (or ``None``), so the device sleeps
until then. Schedulers therefore stay plain Python objects, testable without simpy.

By default a device tracks every submitted request and expects that same request back from the
scheduler. Block-layer schedulers that merge, split or re-route requests (the BID experiment)
break that one-in-one-out contract: with ``tracked=False`` the device serves whatever the
scheduler returns, reads its submission time from ``request.arrival``, and :meth:`wake` tells it
that the scheduler received work by another path. That submission time is the caller's and may
run on the caller's clock (BID's backlogged replayer uses the trace's), so an untracked device
keeps it in its log only and records no latency in its monitor.
"""

from __future__ import annotations

import numbers
from collections import deque
from dataclasses import dataclass
from typing import Protocol

import simpy

from storrepro.sim.disk_model import OPS, check_int
from storrepro.sim.monitor import EventLog, LatencyMonitor
from storrepro.sim.wakeup_queue import Wakeup


@dataclass(frozen=True)
class DiskRequest:
    """One block request: ``size`` sectors of 512 B from ``lba``, issued by process ``pid``."""

    lba: int
    size: int
    op: str = "R"
    pid: int = 0

    def __post_init__(self):
        check_int("lba", self.lba, 0)
        check_int("size", self.size, 1)
        if self.op not in OPS:
            raise ValueError(f"op must be one of {OPS}, got {self.op!r}")


class IOScheduler(Protocol):
    """What a device needs from a scheduler (``next_wakeup`` is optional)."""

    def add(self, request, now: float) -> None: ...

    def next(self, now: float): ...


class FIFOScheduler:
    """Serve requests in arrival order (Noop without merging)."""

    def __init__(self):
        self._queue: deque = deque()

    def add(self, request, now: float) -> None:
        self._queue.append(request)

    def next(self, now: float):
        return self._queue.popleft() if self._queue else None

    def __len__(self) -> int:
        return len(self._queue)


class PullDevice:
    """Servers that pull the next request from a scheduler whenever idle.

    Subclasses define ``log_columns`` (after the common ``t_arrive, t_start, t_end``) and
    ``_serve(request) -> (service time, extra log values)``, called when service starts.
    ``tracked=False``: see the module docstring (:meth:`submit` then returns ``None``).
    """

    log_columns: tuple[str, ...] = ()

    def __init__(
        self,
        env: simpy.Environment,
        scheduler: IOScheduler | None = None,
        servers: int = 1,
        name: str = "",
        tracked: bool = True,
    ):
        if isinstance(servers, bool) or not isinstance(servers, numbers.Integral) or servers < 1:
            raise ValueError(f"servers/channels must be an integer >= 1, got {servers!r}")
        self.env = env
        self.tracked = tracked
        self.scheduler = FIFOScheduler() if scheduler is None else scheduler
        self.monitor = LatencyMonitor(name or type(self).__name__)
        self.log = EventLog(("t_arrive", "t_start", "t_end", *self.log_columns))
        self._pending: dict[int, tuple[float, simpy.Event]] = {}
        self._arrival = Wakeup(env)  # idle servers wait on it
        self._idle_servers = 0
        self.processes = [env.process(self._server()) for _ in range(servers)]

    def submit(self, request) -> simpy.Event | None:
        """Hand a request to the scheduler now; the returned event fires at completion.

        The event's value is the request's latency (completion minus submission). An untracked
        device returns ``None``.
        """
        if not self.tracked:
            self.scheduler.add(request, self.env.now)
            self.wake()
            return None
        if id(request) in self._pending:
            raise ValueError(f"request {request!r} is already queued on this device")
        done = self.env.event()
        self._pending[id(request)] = (self.env.now, done)
        self.scheduler.add(request, self.env.now)
        self.wake()
        return done

    def wake(self) -> None:
        """Make idle servers pull again (the scheduler may have work that was not submitted)."""
        if self._idle_servers:
            self._arrival.notify()

    def _server(self):
        env = self.env
        while True:
            request = self.scheduler.next(env.now)
            if request is None:
                yield from self._sleep()
                continue
            if self.tracked:
                try:
                    t_arrive, done = self._pending.pop(id(request))
                except KeyError:
                    raise RuntimeError(f"scheduler returned {request!r}, never submitted") from None
            else:
                t_arrive, done = request.arrival, None
            t_start = env.now
            service, extra = self._serve(request)
            yield env.timeout(service)
            self.log.append(t_arrive, t_start, env.now, *extra)
            if done is not None:
                self.monitor.record(env.now - t_arrive)
                done.succeed(env.now - t_arrive)

    def _sleep(self):
        """Wait for the next submission or the scheduler's own wake-up time."""
        wake = getattr(self.scheduler, "next_wakeup", None)
        wake_at = wake(self.env.now) if wake is not None else None
        events = [self._arrival.wait()]
        if wake_at is not None:
            if wake_at <= self.env.now:
                raise RuntimeError(
                    f"scheduler asked to wake at {wake_at} but returned no request at "
                    f"{self.env.now}; next_wakeup must lie in the future"
                )
            events.append(self.env.timeout(wake_at - self.env.now))
        self._idle_servers += 1
        yield self.env.any_of(events)
        self._idle_servers -= 1

    def _serve(self, request) -> tuple[float, tuple]:
        raise NotImplementedError
