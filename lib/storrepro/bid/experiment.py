"""The experiment: trace → scheduler → HDD (and SSD for BID-Hybrid), driven by simpy.

Two replay modes (spec bid.md §4.4). In both, the block layer holds at most ``rq_limit``
undispatched requests (a merge takes no slot) and events enter it in trace order.

- ``"backlogged"`` (primary, the regime of the authors' window simulator): an event enters as
  soon as there is a free slot. The scheduler's clock is the *trace* clock — the timestamp of the
  newest admitted event — so BID's wait and deadline timers judge the processes' own timing, as
  in the authors' code; when the disk is idle because everything is staged, the trace clock jumps
  to the next timer and the rest of the trace shifts by the jump (gaps kept). Simulated (device)
  time is the disks' busy time.
- ``"open"``: events arrive at their trace times; an arrival that finds the block layer full
  waits for a dispatch and the whole remaining trace shifts by that delay (ambiguity A13, applied
  to the trace as a whole so the submission order is kept). The scheduler's clock is simulated
  time.

The servers pull from the scheduler whenever idle and sleep until the next arrival or the
scheduler's ``next_wakeup``. Service times are the shared models :func:`hdd_service_time` and
:func:`ssd_service_time`. (The generic ``sim.block_device.PullDevice`` registers each submitted
request and expects that same request back; merging and BID-Hybrid's move of whole queues to the
SSD break that one-to-one contract, so the two servers here are small simpy processes of their
own over the same service-time functions.)
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd
import simpy

from storrepro.bid.request import BlockRequest
from storrepro.sim.hdd import DEFAULT_GEOMETRY, HDDGeometry, cylinder_of, hdd_service_time
from storrepro.sim.ssd import DEFAULT_SSD, SSDParams, ssd_service_time

REQUEST_COLUMNS = (
    "device",
    "pid",
    "op",
    "lba",
    "size",
    "t_arrive",
    "t_start",
    "t_end",
    "service",
    "cylinder",
    "d",
)


@dataclass
class SimResult:
    """Per dispatched request (``requests``: device 0 = HDD, 1 = SSD) and per trace event."""

    requests: pd.DataFrame
    event_completion: np.ndarray  # ms, per trace event
    event_arrival: np.ndarray  # ms, per trace event (after back-pressure shifts)
    scheduler: object
    leftover: int  # requests still queued at the end (must be 0)


MODES = ("backlogged", "open")


def simulate(
    trace: pd.DataFrame,
    scheduler,
    rq_limit: int = 128,
    mode: str = "backlogged",
    geometry: HDDGeometry = DEFAULT_GEOMETRY,
    ssd: SSDParams = DEFAULT_SSD,
) -> SimResult:
    """Replay ``trace`` (columns ts, pid, op, lba, size) through ``scheduler`` (see module)."""
    if isinstance(rq_limit, bool) or not isinstance(rq_limit, numbers.Integral) or rq_limit < 1:
        raise ValueError(f"rq_limit must be an integer >= 1 (requests), got {rq_limit!r}")
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    backlogged = mode == "backlogged"
    env = simpy.Environment()
    n = len(trace)
    ts = trace.ts.to_numpy(dtype=float).tolist()
    pids = trace.pid.to_numpy().tolist()
    ops = trace.op.tolist()
    lbas = trace.lba.to_numpy().tolist()
    sizes = trace["size"].to_numpy().tolist()
    arrival = np.zeros(n)
    rows: list[tuple] = []
    members: list[list[int]] = []
    hybrid = hasattr(scheduler, "next_ssd")
    # clock: the scheduler's time (trace clock when backlogged); waiting: replayer blocked/done
    state = {
        "slot": None,
        "kick": [None, None],
        "head": 0,
        "clock": 0.0,
        "waiting": False,
        "shift": 0.0,
        "busy": [False, False],
    }

    def kick_all():
        for _i, ev in enumerate(state["kick"]):
            if ev is not None and not ev.triggered:
                ev.succeed()
        state["kick"] = [None, None]

    def dispatched():
        ev = state["slot"]
        if ev is not None and not ev.triggered:
            ev.succeed()

    def replayer():
        shift = 0.0
        for i in range(n):
            if backlogged:
                state["clock"] = max(state["clock"], ts[i] + state["shift"])
            else:
                t = ts[i] + shift
                if t > env.now:
                    yield env.timeout(t - env.now)
            while len(scheduler) >= rq_limit:
                blocked = env.now
                state["slot"] = env.event()
                state["waiting"] = True
                kick_all()
                yield state["slot"]
                state["waiting"] = False
                shift += env.now - blocked
            arrival[i] = env.now
            now = state["clock"] if backlogged else env.now
            scheduler.add(BlockRequest(lbas[i], sizes[i], ops[i], pids[i], now, [i]), now)
            kick_all()
        state["waiting"] = True
        kick_all()

    def server(device):
        pull = scheduler.next_ssd if device else scheduler.next
        wakeup = getattr(scheduler, "next_wakeup", None)
        while True:
            now = state["clock"] if backlogged else env.now
            request = pull(now)
            if request is None:
                wake = wakeup(now) if wakeup is not None else None
                if (
                    backlogged
                    and wake is not None
                    and state["waiting"]
                    and not state["busy"][1 - device]
                ):
                    # nothing can arrive and no disk is busy: the trace clock runs on, and the
                    # rest of the trace shifts with it so that the gaps are kept
                    state["shift"] += wake - state["clock"]
                    state["clock"] = wake
                    kick_all()
                    yield env.timeout(0)  # let the other device take what was marked
                    continue
                ev = state["kick"][device] = env.event()
                if wake is not None and not backlogged:
                    yield ev | env.timeout(wake - now)
                else:
                    yield ev
                continue
            dispatched()
            state["busy"][device] = True
            if device:
                service, d, cyl = ssd_service_time(request.op, request.size, ssd), 0, -1
            else:
                service, d = hdd_service_time(request.lba, request.size, state["head"], geometry)
                state["head"] = request.lba + request.size
                cyl = cylinder_of(request.lba, geometry)
            if hybrid:
                kick_all()  # marking inside pull() may have given the other device work
            yield env.timeout(service)
            state["busy"][device] = False
            rows.append(
                (
                    device,
                    request.pid,
                    request.op,
                    request.lba,
                    request.size,
                    request.arrival,
                    env.now - service,
                    env.now,
                    service,
                    cyl,
                    d,
                )
            )
            members.append(request.members)

    env.process(replayer())
    env.process(server(0))
    if hybrid:
        env.process(server(1))
    env.run()
    requests = pd.DataFrame(rows, columns=REQUEST_COLUMNS)
    completion = np.full(n, np.nan)
    if rows:
        counts = np.fromiter((len(m) for m in members), dtype=np.int64, count=len(members))
        ids = np.fromiter((i for m in members for i in m), dtype=np.int64, count=counts.sum())
        ends = np.repeat(requests.t_end.to_numpy(), counts)
        completion = np.full(n, -np.inf)
        np.maximum.at(completion, ids, ends)
        completion[np.isinf(completion)] = np.nan
    return SimResult(requests, completion, arrival, scheduler, len(scheduler))
