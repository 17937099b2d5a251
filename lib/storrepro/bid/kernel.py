"""Fast kernel: the simpy reference model (:mod:`storrepro.bid.reference`) as one numba loop.

Same system, same semantics, same float operations in the same order as the reference model
with the Python schedulers (Noop, CFQ, BID-HDD, BID-Hybrid), so ``tests/test_bid_kernel.py``
finds every request's device, position, size, start and end time identical. The schedulers'
structures become arrays indexed by request, staging queue and dense process number; each
scheduler's numba code sits beside its Python twin: :mod:`~storrepro.bid.noop_kernel`,
:mod:`~storrepro.bid.cfq_kernel`, :mod:`~storrepro.bid.bid_kernel` and
:mod:`~storrepro.bid.hybrid_kernel`, on the shared layout of :mod:`~storrepro.bid.kernel_core`.
This module holds the replay loop and the Python side.

The state arrays travel as one tuple ``S``. Each numba call that binds arrays pays reference
counting per array, so the per-event path (admission, dispatch, the timer test) is inlined.
Merge indexes are array hash tables keyed by (process or -1, direction, sector). Times in ms,
sizes and positions in 512-B sectors.
"""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd

from storrepro.bid.bid_hdd import BIDHDD
from storrepro.bid.bid_kernel import (
    _bid_add,
    _bid_next,
    _next_wakeup,
)
from storrepro.bid.cfq import CFQ
from storrepro.bid.hybrid import BIDHybrid
from storrepro.bid.hybrid_kernel import (
    _admit_vfs,
    _serve_ssd,
    _vfs_overlap,
)
from storrepro.bid.kernel_core import (
    _ST,
    BID,
    CFQ_KIND,
    COUNT,
    EMPTY,
    HITS_R,
    HITS_W,
    HYBRID,
    INF,
    LAST_ARRIVAL,
    LAST_PID,
    LBA_BITS,
    N_STATE,
    NDEC,
    NFLUSH,
    NOOP,
    NPIECE,
    NREQ,
    NROUTE,
    NWAIT,
    OVERFLOW,
    P_ADAPT,
    P_DQ,
    P_EVERY,
    P_HIST,
    P_KIND,
    P_MAX,
    P_MERGE,
    P_PF,
    P_QUANTUM,
    P_READ_DL,
    P_RESET,
    P_WAIT,
    P_WRITE_DL,
    R_LBA,
    R_OP,
    R_PID,
    R_SIZE,
    WRITE,
    _geometry_arrays,
    hdd_time,
)
from storrepro.bid.noop import Noop
from storrepro.bid.noop_kernel import (
    _admit_queue,
    _next_queue,
)
from storrepro.bid.results import (
    DECISION_COLUMNS,
    FLUSH_COLUMNS,
    MODES,
    REQUEST_COLUMNS,
    WAIT_COLUMNS,
    SimResult,
    check_options,
)
from storrepro.sim.disk_model import DEFAULT_GEOMETRY, DEFAULT_SSD, HDDGeometry, SSDParams


# -- the replay --------------------------------------------------------------------------------
@numba.njit(cache=True)
def _replay(ts, pid, op, lba, size, n_pids, rq_limit, backlogged, ii, ff, gi, gf, cap, hbits):
    n = ts.shape[0]
    kind = ii[P_KIND]
    merge = ii[P_MERGE] != 0
    st = np.zeros(N_STATE, dtype=np.int64)
    st[LAST_PID] = -1
    st[LAST_ARRIVAL] = -1
    ri = np.empty((4, cap), dtype=np.int64)
    rf = np.empty(cap)
    r_next = np.full(cap, -1, dtype=np.int64)
    piece_event = np.empty(cap, dtype=np.int64)
    piece_req = np.empty(cap, dtype=np.int64)
    hk = np.full((2, 1 << hbits), EMPTY, dtype=np.int64)
    hv = np.empty((2, 1 << hbits), dtype=np.int64)
    # Noop
    fifo = np.empty(cap if kind == NOOP else 1, dtype=np.int64)
    # CFQ
    qcap = rq_limit + 2 if kind == CFQ_KIND else 1
    cq = np.empty((n_pids, qcap), dtype=np.int64)
    cq_len = np.zeros(n_pids, dtype=np.int64)
    order = np.empty(n_pids, dtype=np.int64)
    rnd = np.empty(cap if kind == CFQ_KIND else 1, dtype=np.int64)
    # BID
    bcap = cap if kind >= BID else 1
    sq_i = np.empty((5, bcap), dtype=np.int64)  # pid, head, tail, n, has_read
    sq_f = np.empty((5, bcap))  # ts_old, ts_new, wait, deadline_at, expiry
    k = max(ii[P_HIST], 1)
    hist = np.empty((n_pids, k))
    hist_start = np.zeros(n_pids, dtype=np.int64)
    hist_on = np.zeros(n_pids, dtype=np.bool_)
    logs_i = np.empty((6, bcap), dtype=np.int64)  # flush pid, n, sectors, cause; decision pid, tier
    logs_f = np.empty((3, bcap))  # flush t; decision t, pf
    wlog_f = np.empty((2, bcap))
    wlog_i = np.empty(bcap, dtype=np.int64)
    mq = np.empty(bcap, dtype=np.int64)
    dq = np.empty(max(ii[P_DQ], 1), dtype=np.int64)
    opened = np.full((3, n_pids), -1, dtype=np.int64)  # queue of p, p's place in row 2, pids
    seen = np.zeros((2, n_pids if kind >= BID else 1))  # p's last arrival; 1 once p has arrived
    hcap = cap if kind == HYBRID else 1
    tab_s = np.empty(hcap, dtype=np.int64)
    tab_e = np.empty(hcap, dtype=np.int64)
    route_req = np.empty(hcap, dtype=np.int64)
    route_t = np.empty(hcap)
    S = (
        st,
        ii,
        ff,
        ri,
        rf,
        r_next,
        hk,
        hv,
        fifo,
        cq,
        cq_len,
        order,
        rnd,
        sq_i,
        sq_f,
        hist,
        hist_start,
        hist_on,
        logs_i,
        logs_f,
        wlog_f,
        wlog_i,
        mq,
        dq,
        tab_s,
        tab_e,
        route_req,
        route_t,
        opened,
        piece_event,
        piece_req,
        seen,
    )
    # outputs
    arrival = np.zeros(n)
    out_req = np.empty(cap, dtype=np.int64)
    out_f = np.empty((3, cap))  # t_start, t_end, service
    out_i = np.empty((2, cap), dtype=np.int64)  # cylinder, d
    served = 0
    head = 0

    t = 0.0  # simulated time
    clock = 0.0  # the scheduler's clock (trace clock when backlogged)
    shift = 0.0
    i = 0
    blocked = False
    block_t = 0.0
    busy = False
    t_free = 0.0
    t_rep = 0.0
    sleeping_until = INF
    if backlogged:
        i, clock = _fill(
            i, 0.0, 0.0, shift, rq_limit, arrival, ts, kind, merge, lba, size, op, pid, S
        )
    while st[OVERFLOW] == 0:
        if backlogged:
            # the HDD pulls on the trace clock; with nothing to dispatch, the clock jumps to the
            # next timer and the rest of the trace shifts with it
            r = _next(clock, t, kind, merge, S)
            while r < 0 and kind >= BID:
                has, wake = _next_wakeup(clock, sq_f, opened, st)
                if not has:
                    break
                shift += wake - clock
                clock = wake
                r = _next(clock, t, kind, merge, S)
            if r < 0:
                break
            head, service = _dispatch(r, t, head, served, ri, gi, gf, out_req, out_f, out_i)
            # the dispatch frees a slot: the replayer refills at the start of the service
            i, clock = _fill(
                i, clock, t, shift, rq_limit, arrival, ts, kind, merge, lba, size, op, pid, S
            )
            t = t + service
            served += 1
            continue
        # ---- open mode: the next thing to happen is an arrival, a completion or a timer ------
        # (the replayer's timeout was set when it last ran, at t_rep: it fires at
        # t_rep + (a - t_rep), as simpy computes it)
        a = INF
        if i < n and not blocked:
            a = ts[i] + shift
            a = t_rep + (a - t_rep)
        dev = t_free if busy else sleeping_until
        if a == INF and dev == INF:
            break
        if a < dev:
            t = a
            t_rep = t
            i, admitted, blocked = _admit_due(
                i, t, shift, rq_limit, arrival, ts, kind, merge, lba, size, op, pid, S
            )
            block_t = t if blocked else block_t
            if busy or admitted == 0:
                continue  # a busy device is not woken; a blocked replayer submitted nothing
        else:
            t = dev
            busy = False
        r = _next(t, t, kind, merge, S)
        if r < 0:
            sleeping_until = INF
            if kind >= BID:
                has, wake = _next_wakeup(t, sq_f, opened, st)
                if has:
                    sleeping_until = t + (wake - t)
            continue
        head, service = _dispatch(r, t, head, served, ri, gi, gf, out_req, out_f, out_i)
        t_free = t + service
        served += 1
        busy = True
        sleeping_until = INF
        if blocked:  # the dispatch frees a slot: the replayer resumes now
            shift += t - block_t
            t_rep = t
            i, _, blocked = _admit_due(
                i, t, shift, rq_limit, arrival, ts, kind, merge, lba, size, op, pid, S
            )
            block_t = t if blocked else block_t
    return (
        st,
        ri,
        rf,
        piece_event,
        piece_req,
        arrival,
        out_req[:served],
        out_f[:, :served],
        out_i[:, :served],
        logs_i,
        logs_f,
        wlog_f,
        wlog_i,
        route_req,
        route_t,
    )


@numba.njit(cache=True, inline="always")
def _dispatch(r, t, head, served, ri, gi, gf, out_req, out_f, out_i):
    """The HDD serves request ``r`` from time ``t``: record it as the ``served``-th; returns the
    head's new position and the service time."""
    service, d, cyl = hdd_time(ri[R_LBA, r], ri[R_SIZE, r], head, gi, gf)
    out_req[served] = r
    out_f[0, served], out_f[1, served], out_f[2, served] = t, t + service, service
    out_i[0, served], out_i[1, served] = cyl, d
    return ri[R_LBA, r] + ri[R_SIZE, r], service


@numba.njit(cache=True)
def _admit_due(i, t, shift, rq_limit, arrival, ts, kind, merge, lba, size, op, pid, S):
    """Open-mode replayer at time ``t``: admit, in trace order, the next event and every later
    one due by ``t``, while a slot is free.

    Returns the next event, how many entered, and whether a full block layer stopped it."""
    st = S[_ST]
    n = ts.shape[0]
    admitted = 0
    while i < n and st[OVERFLOW] == 0:
        if admitted and ts[i] + shift > t:
            break
        if st[COUNT] >= rq_limit:
            return i, admitted, True
        _admit(i, t, t, kind, merge, lba, size, op, pid, S)
        arrival[i] = t
        i += 1
        admitted += 1
    return i, admitted, False


@numba.njit(cache=True)
def _fill(i, clock, tsim, shift, rq_limit, arrival, ts, kind, merge, lba, size, op, pid, S):
    """Backlogged replayer: admit events in trace order while a slot is free.

    Returns the next event and the trace clock."""
    st = S[_ST]
    n = ts.shape[0]
    while i < n and st[COUNT] < rq_limit and st[OVERFLOW] == 0:
        clock = max(clock, ts[i] + shift)
        _admit(i, clock, tsim, kind, merge, lba, size, op, pid, S)
        arrival[i] = tsim
        i += 1
    return i, clock


@numba.njit(cache=True, inline="always")
def _admit(i, now, tsim, kind, merge, lba, size, op, pid, S):
    """The scheduler's ``add`` for trace event ``i`` at scheduler time ``now``."""
    if kind < BID:
        _admit_queue(i, now, kind, merge, lba, size, op, pid, S)
    elif not (kind == HYBRID and _vfs_overlap(lba[i], size[i], S)) or not _admit_vfs(
        i, now, tsim, lba, size, op, pid, S
    ):
        _bid_add(lba[i], size[i], op[i], pid[i], i, now, tsim, S)


@numba.njit(cache=True, inline="always")
def _next(now, tsim, kind, merge, S):
    """The scheduler's ``next`` at scheduler time ``now``: a request id or -1."""
    if kind < BID:
        return _next_queue(kind, merge, S)
    return _bid_next(now, tsim, S)


def scheduler_parameters(scheduler) -> tuple[np.ndarray, np.ndarray]:
    """The kernel's integer and float parameters for a (fresh) scheduler object."""
    ii = np.zeros(9, dtype=np.int64)
    ff = np.zeros(4)
    if type(scheduler) is Noop:
        ii[P_KIND] = NOOP
    elif type(scheduler) is CFQ:
        ii[P_KIND], ii[P_QUANTUM] = CFQ_KIND, scheduler.quantum
    elif type(scheduler) in (BIDHDD, BIDHybrid):
        ii[P_KIND] = HYBRID if type(scheduler) is BIDHybrid else BID
        ii[P_HIST], ii[P_DQ] = scheduler.history_length, scheduler.dq_depth
        ii[P_RESET], ii[P_ADAPT] = scheduler.reset_history_on_flush, scheduler.adaptive_wait
        ii[P_EVERY] = scheduler.every_gap
        ff[P_WAIT], ff[P_READ_DL] = scheduler.wait_default, scheduler.read_deadline
        ff[P_WRITE_DL] = scheduler.write_deadline
        if type(scheduler) is BIDHybrid:
            ff[P_PF] = scheduler.pf_threshold
    else:
        raise ValueError(
            f"the kernel runs Noop, CFQ, BID-HDD and BID-Hybrid, not {scheduler!r}; "
            "use engine='simpy'"
        )
    if len(scheduler):
        raise ValueError(f"the kernel needs a fresh scheduler, got {scheduler!r} with requests")
    merge = scheduler.sq_merge if ii[P_KIND] >= BID else scheduler.merge
    ii[P_MERGE], ii[P_MAX] = merge, scheduler.max_sectors
    return ii, ff


def replay(
    trace: pd.DataFrame,
    scheduler,
    rq_limit: int = 128,
    mode: str = "backlogged",
    geometry: HDDGeometry = DEFAULT_GEOMETRY,
    ssd: SSDParams = DEFAULT_SSD,
    modern_disk: bool = False,
) -> SimResult:
    """:func:`storrepro.bid.experiment.simulate` with the kernel (same arguments and result).

    ``modern_disk`` replaces the authors' HDD model by the modern-disk sensitivity model
    (:data:`storrepro.bid.kernel_core.MODERN_DISK`: a transfer term, rotation only on
    non-sequential requests); the simpy reference model has only the authors' model."""
    check_options(rq_limit, mode)
    ii, ff = scheduler_parameters(scheduler)
    pid_values, pid = np.unique(trace.pid.to_numpy(dtype=np.int64), return_inverse=True)
    ops = trace.op.to_numpy()
    if len(ops) and not np.isin(ops, ("R", "W")).all():
        raise ValueError(f"trace ops must be 'R' or 'W', got {sorted(set(ops) - {'R', 'W'})}")
    lba = trace.lba.to_numpy(dtype=np.int64)
    size = trace["size"].to_numpy(dtype=np.int64)
    if len(lba) and (lba.min() < 0 or size.min() < 1):
        raise ValueError("trace lba must be >= 0 and size >= 1 (sectors) in every event")
    columns = (
        trace.ts.to_numpy(dtype=float),
        pid.astype(np.int64),
        (ops == "W").astype(np.int64),
        lba,
        size,
    )
    if len(lba) and int((lba + size).max()) >= 1 << LBA_BITS:
        raise ValueError(f"trace sectors must stay below 2**{LBA_BITS} (a 4 TiB disk)")
    gi, gf = _geometry_arrays(geometry, modern_disk)
    cap = 2 * len(trace) + 64
    hbits = max(10, int(4 * (rq_limit + 64)).bit_length())
    while True:
        out = _replay(
            *columns, len(pid_values), rq_limit, mode == MODES[_ST], ii, ff, gi, gf, cap, hbits
        )
        if out[0][OVERFLOW] == 0:
            break
        cap, hbits = 2 * cap, hbits + 1  # VFS-SSD splits made more pieces than the first guess
    return _result(out, ii, len(trace), pid_values, ssd)


def _result(out, ii, n, pid_values, ssd: SSDParams) -> SimResult:
    (st, ri, rf, piece_event, piece_req, arrival, hdd_req, hdd_f, hdd_i, logs_i, logs_f, wlog_f,
     wlog_i, route_req, route_t) = out  # fmt: skip
    kind = ii[P_KIND]
    frames = [_frame(0, hdd_req, hdd_f, hdd_i[0], hdd_i[1], ri, rf, pid_values)]
    if kind == HYBRID:
        routed = st[NROUTE]
        ssd_req, ssd_f = _serve_ssd(
            route_req[:routed],
            route_t[:routed],
            ri,
            len(pid_values),
            ssd.read_ms_per_page,
            ssd.write_ms_per_page,
            ssd.page_bytes,
            ssd.sector_bytes,
            ssd.rounding == "ceil",
        )
        m = len(ssd_req)
        frames.append(
            _frame(1, ssd_req, ssd_f, np.full(m, -1), np.zeros(m, int), ri, rf, pid_values)
        )
    requests = pd.concat(frames, ignore_index=True)
    requests["op"] = requests.op.astype(object)
    t_end = np.full(st[NREQ], np.nan)
    for req, f in [(hdd_req, hdd_f)] + ([(ssd_req, ssd_f)] if kind == HYBRID else []):
        t_end[req] = f[1]
    pieces = st[NPIECE]
    completion = np.full(n, -np.inf)
    ends = t_end[piece_req[:pieces]]
    np.fmax.at(completion, piece_event[:pieces], ends)
    completion[np.isinf(completion)] = np.nan
    logs = {}
    if kind >= BID:
        f = st[NFLUSH]
        logs["flushes"] = pd.DataFrame(
            {
                "t": logs_f[0, :f],
                "pid": pid_values[logs_i[0, :f]],
                "requests": logs_i[1, :f],
                "sectors": logs_i[2, :f],
                "cause": np.where(logs_i[3, :f] == 1, "deadline", "wait"),
            },
            columns=list(FLUSH_COLUMNS),
        )
        w = st[NWAIT]
        logs["waits"] = pd.DataFrame(
            {"t": wlog_f[0, :w], "pid": pid_values[wlog_i[:w]], "wait": wlog_f[1, :w]},
            columns=list(WAIT_COLUMNS),
        )
    if kind == HYBRID:
        d = st[NDEC]
        logs["decisions"] = pd.DataFrame(
            {
                "t": logs_f[1, :d],
                "pid": pid_values[logs_i[4, :d]],
                "pf": logs_f[2, :d],
                "tier": np.where(logs_i[5, :d] == 1, "ssd", "hdd"),
            },
            columns=list(DECISION_COLUMNS),
        )
        logs["vfs_hits"] = {"R": int(st[HITS_R]), "W": int(st[HITS_W])}
    return SimResult(requests, completion, arrival, int(st[COUNT]), **logs)


def _frame(device, req, f, cylinder, d, ri, rf, pid_values) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "device": device,
            "pid": pid_values[ri[R_PID, req]],
            "op": np.where(ri[R_OP, req] == WRITE, "W", "R"),
            "lba": ri[R_LBA, req],
            "size": ri[R_SIZE, req],
            "t_arrive": rf[req],
            "t_start": f[0],
            "t_end": f[1],
            "service": f[2],
            "cylinder": cylinder,
            "d": d,
        },
        columns=list(REQUEST_COLUMNS),
    )
