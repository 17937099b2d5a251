"""Fast kernel: the simpy reference model (:mod:`storrepro.papers.bid.reference`) as one numba loop.

Same system, same semantics, same float operations in the same order as the reference model
with the Python schedulers (Noop, CFQ, BID-HDD, BID-Hybrid), so ``tests/papers/bid/test_kernel.py``
finds every request's device, position, size, start and end time identical. The schedulers'
structures become named arrays indexed by request, staging queue and dense process number (their
layout: :mod:`~storrepro.papers.bid.kernel_core`); each scheduler's numba code sits beside its
Python twin: :mod:`~storrepro.papers.bid.noop_kernel`, :mod:`~storrepro.papers.bid.cfq_kernel`,
:mod:`~storrepro.papers.bid.bid_kernel` and :mod:`~storrepro.papers.bid.hybrid_kernel`.

This module holds the Python side (options in, tables out) and the replay, one function per
event: an arrival (:func:`_arrival`, the scheduler's ``add``), a dispatch (:func:`_next`, the
scheduler's ``next``, then :func:`_dispatch`, the HDD's service), which follows the HDD's
completion of its previous request or the staging timer an idle HDD sleeps until (BID's timers:
:func:`~storrepro.papers.bid.bid_kernel._fire`). :func:`_run_backlogged` and :func:`_run_open` order
these events in the two replay modes. Times in ms, sizes and positions in 512-B sectors.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numba
import numpy as np
import pandas as pd

from storrepro.papers.bid.bid_hdd import BIDHDD
from storrepro.papers.bid.bid_kernel import _bid_add, _bid_next, _next_wakeup
from storrepro.papers.bid.cfq import CFQ
from storrepro.papers.bid.hybrid import BIDHybrid
from storrepro.papers.bid.hybrid_kernel import _admit_vfs, _serve_ssd, _vfs_overlap
from storrepro.papers.bid.kernel_core import (
    BID,
    CFQ_KIND,
    COUNTERS,
    EMPTY,
    FLUSH,
    HYBRID,
    INF,
    LBA_BITS,
    NOOP,
    OPTIONS,
    PIECE,
    PROCESS,
    REQUEST,
    SERVED,
    STAGING_QUEUE,
    TIER,
    TRACE,
    WAIT,
    ZERO,
    History,
    Logs,
    MergeIndex,
    Queues,
    Staging,
    Vfs,
    _device_take,
    _geometry_arrays,
    borrowing,
    borrowing_from_python,
    hdd_time,
)
from storrepro.papers.bid.noop import Noop
from storrepro.papers.bid.noop_kernel import _queue_add, _queue_next
from storrepro.papers.bid.results import (
    DECISION_COLUMNS,
    FLUSH_COLUMNS,
    REQUEST_COLUMNS,
    WAIT_COLUMNS,
    SimResult,
    check_options,
)
from storrepro.sim.disk_model import DEFAULT_GEOMETRY, DEFAULT_SSD, HDDGeometry, SSDParams

#: A helper inlined into its callers by numba itself: not compiled on its own, so the kernel
#: under it is not linked, optimised and compiled to machine code once more for it.
inlined = numba.njit(inline="always")


class State(NamedTuple):
    """Everything a replay changes: the counters (one :data:`~kernel_core.COUNTERS` record),
    the request and piece tables, each scheduler's structures, BID's logs, each trace event's
    admission time and the HDD's record. Made in Python (:func:`_new_state`), bound once by
    :func:`_replay`."""

    counters: np.ndarray
    req: np.ndarray
    idx: MergeIndex
    pieces: np.ndarray
    queues: Queues
    staging: Staging
    history: History
    logs: Logs
    vfs: Vfs
    arrival: np.ndarray
    served: np.ndarray


def _new_state(n: int, n_pids: int, rq_limit: int, opt, cap: int, hbits: int) -> State:
    """Arrays for a replay of ``n`` events with room for ``cap`` requests and pieces; the
    structures of the schedulers not replayed get one slot."""
    kind = opt["kind"]
    counters = np.zeros(1, dtype=COUNTERS)
    counters["last_pid"] = counters["last_arrival"] = -1
    ints = functools.partial(np.empty, dtype=np.int64)
    b = cap if kind >= BID else 1
    b_pids = n_pids if kind >= BID else 1
    h = cap if kind == HYBRID else 1
    requests = np.empty(cap, dtype=REQUEST)
    requests["next"] = -1
    procs = np.zeros(b_pids, dtype=PROCESS)
    procs["open_of"] = procs["open_place"] = -1
    return State(
        counters=counters,
        req=requests,
        idx=MergeIndex(
            np.full((2, 1 << hbits), EMPTY, dtype=np.int64),
            ints((2, 1 << hbits)),
            np.zeros(2, dtype=np.int64),
        ),
        pieces=np.empty(cap, dtype=PIECE),
        queues=Queues(
            fifo=ints(cap if kind == NOOP else 1),
            per_pid=ints((n_pids, rq_limit + 2 if kind == CFQ_KIND else 1)),
            per_pid_len=np.zeros(n_pids, dtype=np.int64),
            order=ints(n_pids),
            round=ints(cap if kind == CFQ_KIND else 1),
        ),
        staging=Staging(
            queues=np.empty(b, dtype=STAGING_QUEUE),
            procs=procs,
            open_pids=np.full(b_pids, -1, dtype=np.int64),
            marked=ints(b),
            dq=ints(max(opt["dq_depth"], 1)),
            flushing=ints(b),
        ),
        history=History(
            np.empty((n_pids, max(opt["history"], 1))),
            np.zeros(n_pids, dtype=np.int64),
            np.zeros(n_pids, dtype=np.bool_),
        ),
        logs=Logs(np.empty(b, dtype=FLUSH), np.empty(b, dtype=WAIT), np.empty(b, dtype=TIER)),
        vfs=Vfs(ints(h), ints(h), ints(h), np.empty(h), ints((2 * h + 1, 3))),
        arrival=np.zeros(n),
        served=np.empty(cap, dtype=SERVED),
    )


# -- the replay --------------------------------------------------------------------------------
def _replay(trace, rq_limit, backlogged, options, gi, gf, S):
    """Replay the trace into the state ``S``; returns how many requests the HDD served. (In
    Python: a jitted caller would compile the whole kernel once more, inlined.)"""
    run = _run_backlogged if backlogged else _run_open
    return run(trace, rq_limit, options, gi, gf, S.counters, S.req, S.idx, S.pieces, S.queues,
               S.staging, S.history, S.logs, S.vfs, S.arrival, S.served)  # fmt: skip


@borrowing_from_python
def _run_backlogged(trace, rq_limit, options, gi, gf, counters, req, idx, pieces, q, sq, hist,
                    logs, vfs, arrival, out):  # fmt: skip
    """The HDD pulls on the trace clock: every dispatch frees a slot, which the replayer refills
    at once; with nothing to dispatch, the clock jumps to the next timer and the rest of the
    trace shifts with it."""
    opt, st = options[0], counters[0]
    t = 0.0  # simulated time
    clock = 0.0  # the scheduler's clock: the trace's, shifted
    shift = 0.0
    head = ZERO  # (ZERO, not 0: see kernel_core.ZERO)
    served = ZERO
    i, clock = _fill(ZERO, clock, t, shift, rq_limit, arrival, trace, opt, st, req, idx, pieces, q,
                     sq, hist, logs, vfs)  # fmt: skip
    while st.overflow == 0:
        r = _next(clock, t, opt, st, req, idx, q, sq, hist, logs, vfs)
        while r < 0 and opt.kind >= BID:
            has, wake = _next_wakeup(clock, st, sq)
            if not has:
                break
            shift += wake - clock
            clock = wake
            r = _next(clock, t, opt, st, req, idx, q, sq, hist, logs, vfs)
        if r < 0:
            # a marking that sent a queue's writes to the SSD freed slots without a dispatch:
            # the replayer refills them, or the run is over
            before = i
            i, clock = _fill(i, clock, t, shift, rq_limit, arrival, trace, opt, st, req, idx,
                             pieces, q, sq, hist, logs, vfs)  # fmt: skip
            if i == before:
                break
            continue
        head, service = _dispatch(r, t, head, served, req, gi, gf, out)
        # the dispatch frees a slot: the replayer refills at the start of the service
        i, clock = _fill(i, clock, t, shift, rq_limit, arrival, trace, opt, st, req, idx, pieces,
                         q, sq, hist, logs, vfs)  # fmt: skip
        t = t + service
        served += 1
    return served


@borrowing_from_python
def _run_open(trace, rq_limit, options, gi, gf, counters, req, idx, pieces, q, sq, hist,
              logs, vfs, arrival, out):  # fmt: skip
    """Events at their trace times: the next thing to happen is an arrival, the HDD's
    completion, or the timer an idle HDD sleeps until. A full block layer blocks the replayer
    until a dispatch frees a slot, and the rest of the trace shifts by the time it waited."""
    opt, st = options[0], counters[0]
    n = trace.shape[0]
    t = 0.0
    shift = 0.0
    head = ZERO
    served = ZERO
    i = ZERO
    blocked = False
    block_t = 0.0
    busy = False
    t_free = 0.0  # the HDD's completion, when busy
    t_rep = 0.0  # when the replayer last ran
    sleeping_until = INF  # the idle HDD's wake-up: the next staging timer
    while st.overflow == 0:
        # (the replayer's timeout was set when it last ran, at t_rep: it fires at
        # t_rep + (a - t_rep), as simpy computes it)
        a = INF
        if i < n and not blocked:
            a = trace[i].ts + shift
            a = t_rep + (a - t_rep)
        dev = t_free if busy else sleeping_until
        if a == INF and dev == INF:
            break
        if a < dev:  # arrivals
            t = a
            t_rep = t
            i, admitted, blocked = _admit_due(i, t, shift, rq_limit, arrival, trace, opt, st, req,
                                              idx, pieces, q, sq, hist, logs, vfs)  # fmt: skip
            block_t = t if blocked else block_t
            if busy or admitted == 0:
                continue  # a busy device is not woken; a blocked replayer submitted nothing
        else:  # the HDD completes its request, or its timer wakes it
            t = dev
            busy = False
        r = _next(t, t, opt, st, req, idx, q, sq, hist, logs, vfs)
        if r < 0:
            sleeping_until = INF
            if opt.kind >= BID:
                has, wake = _next_wakeup(t, st, sq)
                if has:
                    sleeping_until = t + (wake - t)
            if blocked and st.count < rq_limit:
                # a marking sent a queue's writes to the SSD and freed slots: the replayer
                # resumes now, and what it submits wakes the HDD at once
                shift += t - block_t
                t_rep = t
                i, admitted, blocked = _admit_due(
                    i, t, shift, rq_limit, arrival, trace, opt, st, req, idx, pieces, q, sq, hist,
                    logs, vfs)  # fmt: skip
                block_t = t if blocked else block_t
                if admitted:
                    sleeping_until = t
            continue
        head, service = _dispatch(r, t, head, served, req, gi, gf, out)
        t_free = t + service
        served += 1
        busy = True
        sleeping_until = INF
        if blocked:  # the dispatch frees a slot: the replayer resumes now
            shift += t - block_t
            t_rep = t
            i, _, blocked = _admit_due(i, t, shift, rq_limit, arrival, trace, opt, st, req, idx,
                                       pieces, q, sq, hist, logs, vfs)  # fmt: skip
            block_t = t if blocked else block_t
    return served


@borrowing
def _fill(i, clock, tsim, shift, rq_limit, arrival, trace, opt, st, req, idx, pieces, q, sq, hist,
          logs, vfs):  # fmt: skip
    """Backlogged replayer: admit events in trace order while a slot is free.

    Returns the next event and the trace clock."""
    n = trace.shape[0]
    while i < n and st.count < rq_limit and st.overflow == 0:
        clock = max(clock, trace[i].ts + shift)
        _arrival(i, clock, tsim, trace, opt, st, req, idx, pieces, q, sq, hist, logs, vfs)
        arrival[i] = tsim
        i += 1
    return i, clock


@borrowing
def _admit_due(i, t, shift, rq_limit, arrival, trace, opt, st, req, idx, pieces, q, sq, hist,
               logs, vfs):  # fmt: skip
    """Open-mode replayer at time ``t``: admit, in trace order, the next event and every later
    one due by ``t``, while a slot is free.

    Returns the next event, how many entered, and whether a full block layer stopped it."""
    n = trace.shape[0]
    admitted = 0
    while i < n and st.overflow == 0:
        if admitted and trace[i].ts + shift > t:
            break
        if st.count >= rq_limit:
            return i, admitted, True
        _arrival(i, t, t, trace, opt, st, req, idx, pieces, q, sq, hist, logs, vfs)
        arrival[i] = t
        i += 1
        admitted += 1
    return i, admitted, False


@inlined
def _arrival(i, now, tsim, trace, opt, st, req, idx, pieces, q, sq, hist, logs, vfs):
    """Trace event ``i`` arrives: the scheduler's ``add`` at scheduler time ``now`` (``tsim``:
    the simulated time, when BID-Hybrid routes writes to the SSD)."""
    if opt.kind < BID:
        _queue_add(i, now, trace, opt, st, req, idx, pieces, q)
    elif opt.kind == HYBRID and _vfs_overlap(trace[i].lba, trace[i].size, st, vfs):
        _admit_vfs(i, now, tsim, trace, opt, st, req, idx, pieces, sq, hist, logs, vfs)
    else:
        _bid_add(trace[i].lba, trace[i].size, trace[i].op, trace[i].pid, i, now, tsim, opt, st,
                 req, idx, pieces, sq, hist, logs, vfs)  # fmt: skip


@borrowing
def _next(now, tsim, opt, st, req, idx, q, sq, hist, logs, vfs):
    """The disk's next request at scheduler time ``now``: the scheduler's ``next`` (BID: due
    timers fire first) through the disk's command queue; a request id or -1."""
    if opt.kind >= BID:
        return _bid_next(now, tsim, opt, st, req, idx, sq, hist, logs, vfs)
    while st.dq_n < opt.dq_depth:  # the disk's command queue, topped up from the scheduler
        r = _queue_next(opt, st, req, idx, q)
        if r < 0:
            break
        sq.dq[st.dq_n] = r
        st.dq_n += 1
    r = _device_take(opt.dq_depth, st, req, sq.dq)
    if r >= 0:
        st.count -= 1
    return r


@borrowing
def _dispatch(r, t, head, served, req, gi, gf, out):
    """The HDD serves request ``r`` from time ``t``: record it as the ``served``-th; returns the
    head's new position and the service time."""
    service, d, cyl = hdd_time(req[r].lba, req[r].size, head, gi, gf)
    out[served].req = r
    out[served].t_start, out[served].t_end, out[served].service = t, t + service, service
    out[served].cylinder, out[served].d = cyl, d
    return req[r].lba + req[r].size, service


def scheduler_options(scheduler) -> np.ndarray:
    """The kernel's options for a (fresh) scheduler object: one :data:`~kernel_core.OPTIONS`
    record."""
    kind = {Noop: NOOP, CFQ: CFQ_KIND, BIDHDD: BID, BIDHybrid: HYBRID}.get(type(scheduler))
    if kind is None:
        raise ValueError(
            f"the kernel runs Noop, CFQ, BID-HDD and BID-Hybrid, not {scheduler!r}; "
            "use engine='simpy'"
        )
    if len(scheduler):
        raise ValueError(f"the kernel needs a fresh scheduler, got {scheduler!r} with requests")
    opt = np.zeros(1, dtype=OPTIONS)  # the fields of other schedulers stay 0
    opt["kind"], opt["max_sectors"] = kind, scheduler.max_sectors
    opt["dq_depth"] = scheduler.dq_depth
    if kind == CFQ_KIND:
        opt["quantum"] = scheduler.quantum
    if kind < BID:
        opt["merge"] = scheduler.merge
        return opt
    opt["merge"] = scheduler.sq_merge
    opt["history"] = scheduler.history_length
    opt["reset_history"] = scheduler.reset_history_on_flush
    opt["adaptive_wait"], opt["every_gap"] = scheduler.adaptive_wait, scheduler.every_gap
    opt["wait_default"], opt["read_deadline"] = scheduler.wait_default, scheduler.read_deadline
    opt["write_deadline"] = scheduler.write_deadline
    if kind == HYBRID:
        opt["pf_threshold"] = scheduler.pf_threshold
    return opt


class Events(NamedTuple):
    """A trace as the kernel reads it: one :data:`~kernel_core.TRACE` record per event (pids
    numbered densely) and the trace's pids in that numbering. :func:`trace_events` makes it; a
    sweep makes it once per trace and hands it to every replay of that trace."""

    records: np.ndarray
    pid_values: np.ndarray


def trace_events(trace: pd.DataFrame) -> Events:
    """Check a trace (columns ts, pid, op, lba, size) and turn it into the kernel's records."""
    pid_values, pid = np.unique(trace.pid.to_numpy(dtype=np.int64), return_inverse=True)
    ops = trace.op.to_numpy()
    writes = ops == "W"
    if len(ops) and not (writes | (ops == "R")).all():
        raise ValueError(f"trace ops must be 'R' or 'W', got {sorted(set(ops) - {'R', 'W'})}")
    lba = trace.lba.to_numpy(dtype=np.int64)
    size = trace["size"].to_numpy(dtype=np.int64)
    if len(lba) and (lba.min() < 0 or size.min() < 1):
        raise ValueError("trace lba must be >= 0 and size >= 1 (sectors) in every event")
    if len(lba) and int((lba + size).max()) >= 1 << LBA_BITS:
        raise ValueError(f"trace sectors must stay below 2**{LBA_BITS} (a 4 TiB disk)")
    records = np.empty(len(trace), dtype=TRACE)
    records["ts"], records["pid"], records["op"] = trace.ts.to_numpy(dtype=float), pid, writes
    records["lba"], records["size"] = lba, size
    return Events(records, pid_values)


def replay(
    trace: pd.DataFrame,
    scheduler,
    rq_limit: int = 128,
    mode: str = "backlogged",
    geometry: HDDGeometry = DEFAULT_GEOMETRY,
    ssd: SSDParams = DEFAULT_SSD,
    modern_disk: bool = False,
    events: Events | None = None,
) -> SimResult:
    """:func:`storrepro.papers.bid.experiment.simulate` with the kernel (same arguments and result).

    ``modern_disk`` replaces the authors' HDD model by the modern-disk sensitivity model
    (:data:`storrepro.papers.bid.kernel_core.MODERN_DISK`: a transfer term, rotation only on
    non-sequential requests); the simpy reference model has only the authors' model.
    ``events`` may hand in :func:`trace_events` of ``trace``, made once for its replays."""
    check_options(rq_limit, mode)
    opt = scheduler_options(scheduler)
    records, pid_values = trace_events(trace) if events is None else events
    gi, gf = _geometry_arrays(geometry, modern_disk)
    cap = 2 * len(trace) + 64
    hbits = max(10, int(4 * (rq_limit + 64)).bit_length())
    while True:
        state = _new_state(len(trace), len(pid_values), rq_limit, opt[0], cap, hbits)
        served = _replay(records, rq_limit, mode == "backlogged", opt, gi, gf, state)
        if state.counters[0]["overflow"] == 0:
            break
        cap, hbits = 2 * cap, hbits + 1  # VFS-SSD splits made more pieces than the first guess
    return _result(state, served, opt[0]["kind"], len(trace), pid_values, ssd)


def _result(state: State, served: int, kind: int, n, pid_values, ssd: SSDParams) -> SimResult:
    st, req, logs = state.counters[0], state.req, state.logs
    devices = [state.served[:served]]  # SERVED records per device: the HDD, the SSD
    if kind == HYBRID:
        routed = st["nroute"]
        ssd_req, ssd_f = _serve_ssd(
            state.vfs.route_req[:routed],
            state.vfs.route_t[:routed],
            req,
            len(pid_values),
            ssd.read_ms_per_page,
            ssd.write_ms_per_page,
            ssd.page_bytes,
            ssd.sector_bytes,
            ssd.rounding == "ceil",
        )
        on_ssd = np.zeros(len(ssd_req), dtype=SERVED)
        on_ssd["req"], on_ssd["cylinder"] = ssd_req, -1
        on_ssd["t_start"], on_ssd["t_end"], on_ssd["service"] = ssd_f
        devices.append(on_ssd)
    frames = [_frame(device, served, req, pid_values) for device, served in enumerate(devices)]
    requests = pd.concat(frames, ignore_index=True)
    t_end = np.full(st["nreq"], np.nan)
    for served in devices:
        t_end[served["req"]] = served["t_end"]
    pieces = state.pieces[: st["npiece"]]
    completion = np.full(n, -np.inf)
    np.fmax.at(completion, pieces["event"], t_end[pieces["req"]])
    completion[np.isinf(completion)] = np.nan
    out = {}
    if kind >= BID:
        f = logs.flushes[: st["nflush"]]
        out["flushes"] = pd.DataFrame(
            {
                "t": f["t"],
                "pid": pid_values[f["pid"]],
                "requests": f["n"],
                "sectors": f["sectors"],
                "cause": np.where(f["deadline"], "deadline", "wait"),
            },
            columns=list(FLUSH_COLUMNS),
        )
        w = logs.waits[: st["nwait"]]
        out["waits"] = pd.DataFrame(
            {"t": w["t"], "pid": pid_values[w["pid"]], "wait": w["wait"]},
            columns=list(WAIT_COLUMNS),
        )
    if kind == HYBRID:
        d = logs.tiers[: st["ndec"]]
        out["decisions"] = pd.DataFrame(
            {
                "t": d["t"],
                "pid": pid_values[d["pid"]],
                "pf": d["pf"],
                "tier": np.where(d["ssd"], "ssd", "hdd"),
            },
            columns=list(DECISION_COLUMNS),
        )
        out["vfs_hits"] = {"R": int(st["hits_r"]), "W": int(st["hits_w"])}
    return SimResult(requests, completion, state.arrival, int(st["count"]), **out)


#: A request's op as the tables write it, indexed by its REQUEST op (READ = 0, WRITE = 1).
OP_NAMES = np.array(["R", "W"], dtype=object)


def _frame(device: int, served: np.ndarray, req: np.ndarray, pid_values) -> pd.DataFrame:
    """A device's requests in service order (``served``: SERVED records); op as Python strings
    (object dtype)."""
    r = served["req"]
    return pd.DataFrame(
        {
            "device": device,
            "pid": pid_values[req["pid"][r]],
            "op": pd.Series(OP_NAMES[req["op"][r]], dtype=object),
            "lba": req["lba"][r],
            "size": req["size"][r],
            "t_arrive": req["arrive"][r],
            "t_start": served["t_start"],
            "t_end": served["t_end"],
            "service": served["service"],
            "cylinder": served["cylinder"],
            "d": served["d"],
        },
        columns=list(REQUEST_COLUMNS),
    )
