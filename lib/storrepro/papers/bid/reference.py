"""The simpy reference model of the paper's system: trace → scheduler → HDD (and SSD for
BID-Hybrid), on the shared devices :class:`storrepro.sim.hdd.HDD` and
:class:`storrepro.sim.ssd.SSD`. The fast kernel (:mod:`storrepro.papers.bid.kernel`) is its twin;
``tests/papers/bid/test_kernel.py`` proves the two identical request by request, and
:func:`storrepro.papers.bid.experiment.simulate` runs either. Two replay modes; in both, the HDD's
block layer holds at most ``rq_limit`` undispatched requests (a merge takes no slot) and events
enter it in trace order.

- ``"backlogged"`` (primary, the regime of the authors' window simulator): an event enters as
  soon as there is a free slot. The scheduler's clock is the *trace* clock — the timestamp of the
  newest admitted event — so BID's wait and deadline timers judge the processes' own timing, as
  in the authors' code; when the HDD would idle because everything is staged, the trace clock
  jumps to the next timer and the rest of the trace shifts by the jump (gaps kept). Simulated
  (device) time is the HDD's busy time.
- ``"open"``: events arrive at their trace times; an arrival that finds the block layer full
  waits for a dispatch and the whole remaining trace shifts by that delay (our reading of a
  full queue: applied to the trace as a whole so the submission order is kept). The
  scheduler's clock is simulated time.

BID-Hybrid's SSD has its own block layer (:class:`~storrepro.papers.bid.hybrid.SsdQueues`): what is
routed there leaves the HDD's request slots, and the SSD serves it whenever idle. At one instant
the SSD pulls after everything the HDD side does at that instant.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import simpy

from storrepro.papers.bid.request import BlockRequest
from storrepro.papers.bid.results import (
    DECISION_COLUMNS,
    FLUSH_COLUMNS,
    REQUEST_COLUMNS,
    WAIT_COLUMNS,
    SimResult,
)
from storrepro.sim.hdd import HDD
from storrepro.sim.ssd import SSD
from storrepro.sim.wakeup_queue import Wakeup


class _Recorder:
    """A device's view of a scheduler: records what it serves, in order, and reports every pull.

    ``clock`` (backlogged mode) replaces the device's time by the trace clock and makes the trace
    clock jump to the scheduler's next timer when nothing can be dispatched.
    """

    def __init__(self, scheduler, on_pull, clock=None):
        self.inner = scheduler
        self.served: list[BlockRequest] = []
        self.on_pull = on_pull
        self.clock = clock

    def add(self, request, now: float) -> None:
        self.inner.add(request, now if self.clock is None else self.clock["now"])

    def next(self, now: float):
        clock = self.clock
        if clock is None:
            request = self.inner.next(now)
        else:
            request = self.inner.next(clock["now"])
            wakeup = getattr(self.inner, "next_wakeup", None)
            while request is None and clock["waiting"] and wakeup is not None:
                wake = wakeup(clock["now"])
                if wake is None:
                    break
                # nothing can arrive and the disk is idle: the trace clock runs on to the timer,
                # and the rest of the trace shifts with it so that the gaps are kept
                clock["shift"] += wake - clock["now"]
                clock["now"] = wake
                request = self.inner.next(wake)
        if request is not None:
            self.served.append(request)
        self.on_pull(request)
        return request

    def next_wakeup(self, now: float):
        wakeup = getattr(self.inner, "next_wakeup", None)
        return None if self.clock is not None or wakeup is None else wakeup(now)


def simulate_simpy(trace, scheduler, rq_limit, mode, geometry, ssd) -> SimResult:
    """The reference model: a replayer process and the shared simpy HDD (and SSD); arguments as
    :func:`storrepro.papers.bid.experiment.simulate`, already checked."""
    backlogged = mode == "backlogged"
    env = simpy.Environment()
    n = len(trace)
    ts = trace.ts.to_numpy(dtype=float).tolist()
    pids = trace.pid.to_numpy().tolist()
    ops = trace.op.tolist()
    lbas = trace.lba.to_numpy().tolist()
    sizes = trace["size"].to_numpy().tolist()
    arrival = np.zeros(n)
    clock = {"now": 0.0, "shift": 0.0, "waiting": False} if backlogged else None
    slot = Wakeup(env)  # the replayer waits on it for a free block-layer slot
    ssd_queue = getattr(scheduler, "ssd", None)
    devices = []

    def pulled(request):
        # a dispatch frees a slot (the replayer goes first); so does a marking that sent a
        # queue's writes to the SSD, which may also have fed the SSD
        if request is not None or len(scheduler) < rq_limit:
            slot.notify()
        wake_ssd()

    def wake_ssd():
        if ssd_queue is not None and len(ssd_queue):
            devices[1].wake()

    hdd_view = _Recorder(scheduler, pulled, clock)
    devices.append(HDD(env, hdd_view, geometry, tracked=False))
    if ssd_queue is not None:
        devices.append(SSD(env, _Recorder(ssd_queue, lambda request: None), ssd, tracked=False))

    def replayer():
        shift = 0.0
        for i in range(n):
            if not backlogged:
                t = ts[i] + shift
                if t > env.now:
                    yield env.timeout(t - env.now)
            while len(scheduler) >= rq_limit:
                blocked = env.now
                if backlogged:
                    clock["waiting"] = True
                yield slot.wait()
                if backlogged:
                    clock["waiting"] = False
                shift += env.now - blocked
            arrival[i] = env.now
            if backlogged:  # the event enters at its trace time, shifted by the clock's jumps
                clock["now"] = max(clock["now"], ts[i] + clock["shift"])
            now = clock["now"] if backlogged else env.now
            devices[0].submit(BlockRequest(lbas[i], sizes[i], ops[i], pids[i], now, [i]))
            wake_ssd()
        if backlogged:
            clock["waiting"] = True

    env.process(replayer())
    env.run()
    frames, members = [], []
    for device, dev in enumerate(devices):
        log = dev.log.to_frame()
        if device:
            log["cylinder"], log["d"] = -1, 0
        log["device"] = device
        frames.append(log[list(REQUEST_COLUMNS)])
        members.extend(r.members for r in dev.scheduler.served)
    requests = pd.concat(frames, ignore_index=True)
    requests["op"] = requests.op.astype(object)
    completion = _event_completion(n, requests.t_end.to_numpy(), members)
    leftover = len(scheduler) + (len(ssd_queue) if ssd_queue is not None else 0)
    logs = {}
    if hasattr(scheduler, "flush_log"):
        logs["flushes"] = pd.DataFrame(scheduler.flush_log, columns=list(FLUSH_COLUMNS))
        logs["waits"] = pd.DataFrame(scheduler.wait_log, columns=list(WAIT_COLUMNS))
    if ssd_queue is not None:
        logs["decisions"] = pd.DataFrame(scheduler.decisions, columns=list(DECISION_COLUMNS))
        logs["vfs_hits"] = dict(scheduler.vfs_hits)
    return SimResult(requests, completion, arrival, leftover, **logs)


def _event_completion(n: int, t_end: np.ndarray, members: list[list[int]]) -> np.ndarray:
    """Per trace event, the latest completion of the requests carrying (a piece of) it."""
    completion = np.full(n, -np.inf)
    if members:
        counts = np.fromiter((len(m) for m in members), dtype=np.int64, count=len(members))
        ids = np.fromiter((i for m in members for i in m), dtype=np.int64, count=counts.sum())
        np.maximum.at(completion, ids, np.repeat(t_end, counts))
    completion[np.isinf(completion)] = np.nan
    return completion
