"""Fast kernel: the experiment of :mod:`storrepro.bid.experiment` as one numba-compiled loop.

Same system, same semantics, same float operations in the same order as the simpy reference
model with the Python schedulers (Noop, CFQ, BID-HDD, BID-Hybrid), so ``tests/test_bid_kernel.py``
finds every request's device, position, size, start and end time identical. The schedulers'
structures become arrays indexed by request, staging queue and dense process number:

- Noop: a FIFO of request ids and one merge index over all queued requests;
- CFQ: one queue per process (a row of a 2-D array), the processes in order of queue creation,
  the current round; a stable merge sort keeps the Python sort's tie order;
- BID-HDD: staging queues as linked lists of requests; their timers found by scanning the open
  queues (at most one per process) in the Python heap's (expiry, queue) order; the wait history
  as a ring per process; marked queues as one flat FIFO of requests (they are flushed whole, in
  marking order); a C-LOOK dispatch queue;
- BID-Hybrid: the VFS-SSD table as sorted disjoint intervals; every request routed to the SSD is
  logged with the simulated time of routing, and a second pass serves the SSD's per-process FIFOs
  round-robin (the SSD never feeds back into the HDD side).

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
from storrepro.bid.cfq import CFQ
from storrepro.bid.experiment import (
    DECISION_COLUMNS,
    FLUSH_COLUMNS,
    MODES,
    REQUEST_COLUMNS,
    WAIT_COLUMNS,
    SimResult,
    check_options,
)
from storrepro.bid.hybrid import BIDHybrid
from storrepro.bid.noop import Noop
from storrepro.sim.hdd import DEFAULT_GEOMETRY, HDDGeometry
from storrepro.sim.ssd import DEFAULT_SSD, SSDParams

NOOP, CFQ_KIND, BID, HYBRID = 0, 1, 2, 3
READ, WRITE = 0, 1
INF = np.inf

# integer state slots
COUNT, NREQ, NPIECE, LAST_PID, NSQ, MQ_HEAD, MQ_TAIL, DQ_N, HEAD_POS = range(9)
NWAIT, NFLUSH, NTAB, NROUTE, NDEC, HITS_R, HITS_W, F_HEAD, F_TAIL = range(9, 18)
NORDER, R_HEAD, R_TAIL, OVERFLOW, N_OPEN, H_LIVE = range(18, 24)  # H_LIVE: slots 23, 24
LAST_ARRIVAL = 25  # process of the last BID arrival (the every-gap history's batches)
N_STATE = 26
# integer parameters
P_KIND, P_MERGE, P_MAX, P_QUANTUM, P_HIST, P_DQ, P_RESET, P_ADAPT, P_EVERY = range(9)
# float parameters
P_WAIT, P_READ_DL, P_WRITE_DL, P_PF = range(4)
# request int columns
R_LBA, R_SIZE, R_OP, R_PID = range(4)


# the state tuple S of the replay: its arrays' places
_ST = 0
_II = 1
_FF = 2
_RI = 3
_RF = 4
_R_NEXT = 5
_HK = 6
_HV = 7
_FIFO = 8
_CQ = 9
_CQ_LEN = 10
_ORDER = 11
_RND = 12
_SQ_I = 13
_SQ_F = 14
_HIST = 15
_HIST_START = 16
_HIST_ON = 17
_LOGS_I = 18
_LOGS_F = 19
_WLOG_F = 20
_WLOG_I = 21
_MQ = 22
_DQ = 23
_TAB_S = 24
_TAB_E = 25
_ROUTE_REQ = 26
_ROUTE_T = 27
_OPENED = 28
_PIECE_EVENT = 29
_PIECE_REQ = 30
_SEEN = 31


# -- HDD model ---------------------------------------------------------------------------------
@numba.njit(cache=True)
def hdd_time(lba, size, head, gi, gf):
    """:func:`storrepro.sim.hdd.hdd_service_time` (same operations): (T, d, start cylinder)."""
    spc, spt, cyl = gi[0], gi[1], gi[2]
    c_start = -(-lba // spc)
    c_end = -(-(lba + size) // spc)
    distance = abs(-(-head // spc) - c_start)
    tracks = (lba + size) // spt - lba // spt
    seeks = 1 if distance > 0 else 0
    t = (
        gf[0]
        + gf[1] * (1 + tracks)
        + gf[2]
        + gf[5] * tracks
        + (seeks + abs(c_end - c_start)) * gf[4]
    )
    if seeks:
        t += gf[6] + gf[4] + (gf[3] - gf[4]) * (distance - 1) / (cyl - 1)
    return t, distance, c_start


def _geometry_arrays(g: HDDGeometry):
    gi = np.array([g.sectors_per_cylinder, g.sectors_per_track, g.cylinders], dtype=np.int64)
    gf = np.array(
        [g.t_cmd, g.t_settle, g.t_rot, g.t_avg_seek, g.t_cyl_switch, g.t_head_switch, g.t_adjacent]
    )
    return gi, gf


# -- merge index (storrepro.bid.request.MergeIndex) ------------------------------------------
# Two open-addressing hash tables (0: by end sector, 1: by start sector) of int64 keys packing
# (process + 1, direction, sector); linear probing, deletion by backward shift (no tombstones).
LBA_BITS = 33
EMPTY = -1


@numba.njit(cache=True)
def _key(kp, op, sector):
    return ((kp + 1) << (LBA_BITS + 1)) | (op << LBA_BITS) | sector


@numba.njit(cache=True)
def _home(key, mask):
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64(h >> np.uint64(31)) & mask


@numba.njit(cache=True)
def _find(hk, t, key):
    """Slot of ``key`` in table ``t``, or of the empty slot where it would go."""
    mask = hk.shape[1] - 1
    i = _home(key, mask)
    while hk[t, i] != EMPTY and hk[t, i] != key:
        i = (i + 1) & mask
    return i


@numba.njit(cache=True)
def _put(hk, hv, st, t, key, value):
    i = _find(hk, t, key)
    if hk[t, i] == EMPTY:
        st[H_LIVE + t] += 1
        if 2 * st[H_LIVE + t] > hk.shape[1]:
            st[OVERFLOW] = 1
    hk[t, i], hv[t, i] = key, value


@numba.njit(cache=True)
def _delete_slot(hk, hv, st, t, i):
    mask = hk.shape[1] - 1
    j = i
    while True:
        j = (j + 1) & mask
        if hk[t, j] == EMPTY:
            break
        home = _home(hk[t, j], mask)
        # the entry at j stays if its home lies cyclically in (i, j]
        if (i < j and i < home <= j) or (i > j and (home > i or home <= j)):
            continue
        hk[t, i], hv[t, i] = hk[t, j], hv[t, j]
        i = j
    hk[t, i] = EMPTY
    st[H_LIVE + t] -= 1


@numba.njit(cache=True)
def _merge(hk, hv, st, kp, op, lba, size, ri, max_sectors):
    key = _key(kp, op, lba)
    i = _find(hk, 0, key)
    if hk[0, i] == key:
        t = hv[0, i]
        if ri[R_SIZE, t] + size <= max_sectors:
            _delete_slot(hk, hv, st, 0, i)
            ri[R_SIZE, t] += size
            _put(hk, hv, st, 0, _key(kp, op, ri[R_LBA, t] + ri[R_SIZE, t]), t)
            return t
    key = _key(kp, op, lba + size)
    i = _find(hk, 1, key)
    if hk[1, i] == key:
        t = hv[1, i]
        if ri[R_SIZE, t] + size <= max_sectors:
            _delete_slot(hk, hv, st, 1, _find(hk, 1, _key(kp, op, ri[R_LBA, t])))
            ri[R_LBA, t] = lba
            ri[R_SIZE, t] += size
            _put(hk, hv, st, 1, _key(kp, op, lba), t)
            return t
    return -1


@numba.njit(cache=True)
def _index_add(hk, hv, st, kp, r, ri):
    op = ri[R_OP, r]
    _put(hk, hv, st, 0, _key(kp, op, ri[R_LBA, r] + ri[R_SIZE, r]), r)
    _put(hk, hv, st, 1, _key(kp, op, ri[R_LBA, r]), r)


@numba.njit(cache=True)
def _index_remove(hk, hv, st, kp, r, ri):
    op = ri[R_OP, r]
    for t, sector in ((0, ri[R_LBA, r] + ri[R_SIZE, r]), (1, ri[R_LBA, r])):
        i = _find(hk, t, _key(kp, op, sector))
        if hk[t, i] != EMPTY and hv[t, i] == r:
            _delete_slot(hk, hv, st, t, i)


@numba.njit(cache=True)
def _new_request(st, ri, rf, lba, size, op, pid, now):
    r = st[NREQ]
    if r >= ri.shape[1]:
        st[OVERFLOW] = 1
        return -1
    ri[R_LBA, r], ri[R_SIZE, r], ri[R_OP, r], ri[R_PID, r] = lba, size, op, pid
    rf[r] = now
    st[NREQ] = r + 1
    return r


@numba.njit(cache=True)
def _piece(st, piece_event, piece_req, event, r):
    k = st[NPIECE]
    if k >= piece_event.shape[0]:
        st[OVERFLOW] = 1
        return
    piece_event[k], piece_req[k] = event, r
    st[NPIECE] = k + 1


# -- BID-HDD -----------------------------------------------------------------------------------
@numba.njit(cache=True)
def _weighted_wait(hist, hist_start, p, k):
    total = 0.0
    for i in range(k):
        total += (i + 1) * hist[p, (hist_start[p] + i) % k]
    return total / (k * (k + 1) / 2)


@numba.njit(cache=True)
def _history_of(hist, hist_start, hist_on, p, k, default):
    if not hist_on[p]:
        for i in range(k):
            hist[p, i] = default
        hist_start[p] = 0
        hist_on[p] = True


@numba.njit(cache=True)
def _place_hdd(reqs, n, st, ri, mq):
    """Append a marked queue's requests to the flat marked FIFO, ascending LBA (stable)."""
    lbas = np.empty(n, dtype=np.int64)
    for j in range(n):
        lbas[j] = ri[R_LBA, reqs[j]]
    order = np.argsort(lbas, kind="mergesort")
    for j in range(n):
        mq[st[MQ_TAIL]] = reqs[order[j]]
        st[MQ_TAIL] += 1


@numba.njit(cache=True)
def _table_add(tab_s, tab_e, st, lba, size):
    start, end = lba, lba + size
    m = st[NTAB]
    i = np.searchsorted(tab_e[:m], start, side="left")
    j = np.searchsorted(tab_s[:m], end, side="right")
    if i < j:
        start = min(start, tab_s[i])
        end = max(end, tab_e[j - 1])
    removed = j - i
    if removed == 0:  # insert at i: shift right
        for x in range(m, i, -1):
            tab_s[x] = tab_s[x - 1]
            tab_e[x] = tab_e[x - 1]
    elif removed > 1:  # replace [i, j) by one: shift left
        for x in range(j, m):
            tab_s[x - removed + 1] = tab_s[x]
            tab_e[x - removed + 1] = tab_e[x]
    tab_s[i], tab_e[i] = start, end
    st[NTAB] = m - removed + 1


@numba.njit(cache=True)
def _mark(s, at, tsim, S):
    """Mark staging queue ``s`` at time ``at``: log, classify (hybrid) and place it."""
    st, ii, ff = S[_ST], S[_II], S[_FF]
    ri, r_next, hk = S[_RI], S[_R_NEXT], S[_HK]
    hv, sq_i, sq_f = S[_HV], S[_SQ_I], S[_SQ_F]
    hist_on, logs_i, logs_f = S[_HIST_ON], S[_LOGS_I], S[_LOGS_F]
    mq, tab_s, tab_e = S[_MQ], S[_TAB_S], S[_TAB_E]
    route_req, route_t = S[_ROUTE_REQ], S[_ROUTE_T]
    p = sq_i[0, s]
    n = sq_i[3, s]
    reqs = np.empty(n, dtype=np.int64)
    r = sq_i[1, s]
    sectors = 0
    for j in range(n):
        reqs[j] = r
        sectors += ri[R_SIZE, r]
        r = r_next[r]
    if ii[P_MERGE]:
        for j in range(n):
            _index_remove(hk, hv, st, p, reqs[j], ri)
    if st[LAST_PID] == p:
        st[LAST_PID] = -1
    if ii[P_RESET]:
        hist_on[p] = False
    k = st[NFLUSH]
    logs_f[0, k] = at
    logs_i[0, k], logs_i[1, k], logs_i[2, k] = p, n, sectors
    logs_i[3, k] = 1 if sq_f[3, s] <= sq_f[1, s] + sq_f[2, s] else 0  # deadline <= wait_at
    st[NFLUSH] = k + 1
    if ii[P_KIND] == HYBRID:
        writes, total = 0, 0
        for j in range(n):
            if ri[R_OP, reqs[j]] == WRITE:
                writes += 1
                total += ri[R_SIZE, reqs[j]]
        if writes:
            pf = total / writes
            d = st[NDEC]
            logs_f[1, d], logs_f[2, d], logs_i[4, d] = at, pf, p
            st[NDEC] = d + 1
            if pf > ff[P_PF]:
                logs_i[5, d] = 0
            else:
                logs_i[5, d] = 1
                reads = 0
                for j in range(n):
                    r = reqs[j]
                    if ri[R_OP, r] == WRITE:
                        _table_add(tab_s, tab_e, st, ri[R_LBA, r], ri[R_SIZE, r])
                        route_req[st[NROUTE]], route_t[st[NROUTE]] = r, tsim
                        st[NROUTE] += 1
                        st[COUNT] -= 1
                    else:
                        reqs[reads] = r
                        reads += 1
                n = reads
    if n:
        _place_hdd(reqs, n, st, ri, mq)


@numba.njit(cache=True)
def _earliest(sq_f, opened, st):
    """The open staging queue whose timer fires first: least (expiry, queue number), as the
    Python scheduler's heap of (expiry, seq, version) pops its valid entries."""
    best = -1
    for j in range(st[N_OPEN]):
        s = opened[0, opened[2, j]]
        if best < 0 or sq_f[4, s] < sq_f[4, best] or (sq_f[4, s] == sq_f[4, best] and s < best):
            best = s
    return best


@numba.njit(cache=True)
def _close(p, opened, st):
    """Remove process p's open staging queue from the open list (swap with the last)."""
    j = opened[1, p]
    last = opened[2, st[N_OPEN] - 1]
    opened[2, j], opened[1, last] = last, j
    st[N_OPEN] -= 1
    opened[0, p] = -1


@numba.njit(cache=True, inline="always")
def _due(now, S):
    """Whether a staging queue's timer is due by ``now`` (the cheap test before :func:`_fire`)."""
    s = _earliest(S[_SQ_F], S[_OPENED], S[_ST])
    return s >= 0 and S[_SQ_F][4, s] <= now


@numba.njit(cache=True)
def _fire(now, tsim, S):
    st, sq_i, sq_f = S[_ST], S[_SQ_I], S[_SQ_F]
    opened = S[_OPENED]
    while True:
        s = _earliest(sq_f, opened, st)
        if s < 0 or sq_f[4, s] > now:
            return
        _close(sq_i[0, s], opened, st)
        _mark(s, sq_f[4, s], tsim, S)


@numba.njit(cache=True)
def _next_wakeup(now, sq_f, opened, st):
    s = _earliest(sq_f, opened, st)
    if s >= 0 and sq_f[4, s] > now:
        return True, sq_f[4, s]
    return False, 0.0


@numba.njit(cache=True, inline="always")
def _bid_add(lba, size, op, p, event, now, tsim, S):
    st, ii, ff = S[_ST], S[_II], S[_FF]
    ri, rf, r_next = S[_RI], S[_RF], S[_R_NEXT]
    hk, hv, sq_i = S[_HK], S[_HV], S[_SQ_I]
    sq_f, hist, hist_start = S[_SQ_F], S[_HIST], S[_HIST_START]
    hist_on, wlog_f, wlog_i = S[_HIST_ON], S[_WLOG_F], S[_WLOG_I]
    opened, piece_event, piece_req = S[_OPENED], S[_PIECE_EVENT], S[_PIECE_REQ]
    seen = S[_SEEN]
    if _due(now, S):
        _fire(now, tsim, S)
    k = ii[P_HIST]
    s = opened[0, p]
    gap = False
    if ii[P_EVERY] and ii[P_ADAPT] and st[LAST_ARRIVAL] != p and seen[1, p] > 0:
        # a new batch of p: its gap enters the history, whether SQ_p is open or not
        _history_of(hist, hist_start, hist_on, p, k, ff[P_WAIT])
        hist[p, hist_start[p]] = now - seen[0, p]
        hist_start[p] = (hist_start[p] + 1) % k
        gap = True
    if s < 0:
        _history_of(hist, hist_start, hist_on, p, k, ff[P_WAIT])
        wait = _weighted_wait(hist, hist_start, p, k)
        limit = ff[P_READ_DL] if op == READ else ff[P_WRITE_DL]
        s = st[NSQ]
        st[NSQ] = s + 1
        sq_i[0, s], sq_i[1, s], sq_i[2, s], sq_i[3, s], sq_i[4, s] = p, -1, -1, 0, 0
        sq_f[0, s], sq_f[1, s], sq_f[2, s], sq_f[3, s] = now, now, wait, now + limit
        opened[0, p], opened[1, p], opened[2, st[N_OPEN]] = s, st[N_OPEN], p
        st[N_OPEN] += 1
        w = st[NWAIT]
        wlog_f[0, w], wlog_f[1, w], wlog_i[w] = now, wait, p
        st[NWAIT] = w + 1
    elif gap or (not ii[P_EVERY] and st[LAST_PID] != p and ii[P_ADAPT]):
        if not gap:
            _history_of(hist, hist_start, hist_on, p, k, ff[P_WAIT])
            hist[p, hist_start[p]] = now - sq_f[1, s]
            hist_start[p] = (hist_start[p] + 1) % k
        sq_f[2, s] = _weighted_wait(hist, hist_start, p, k)
        w = st[NWAIT]
        wlog_f[0, w], wlog_f[1, w], wlog_i[w] = now, sq_f[2, s], p
        st[NWAIT] = w + 1
    st[LAST_PID] = p
    st[LAST_ARRIVAL] = p
    seen[0, p], seen[1, p] = now, 1.0
    if op == READ and sq_i[4, s] == 0:
        sq_i[4, s] = 1  # has a read
        sq_f[3, s] = min(sq_f[3, s], sq_f[0, s] + ff[P_READ_DL])
    sq_f[1, s] = now
    target = -1
    if ii[P_MERGE]:
        target = _merge(hk, hv, st, p, op, lba, size, ri, ii[P_MAX])
    if target < 0:
        target = _new_request(st, ri, rf, lba, size, op, p, now)
        if target < 0:
            return
        if ii[P_MERGE]:
            _index_add(hk, hv, st, p, target, ri)
        r_next[target] = -1
        if sq_i[2, s] < 0:
            sq_i[1, s] = target
        else:
            r_next[sq_i[2, s]] = target
        sq_i[2, s] = target
        sq_i[3, s] += 1
        st[COUNT] += 1
    _piece(st, piece_event, piece_req, event, target)
    sq_f[4, s] = min(sq_f[1, s] + sq_f[2, s], sq_f[3, s])  # the (re-armed) timer


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
def _admit_queue(i, now, kind, merge, lba, size, op, pid, S):
    """Noop and CFQ ``add``: merge, else queue a new request."""
    st, ii, ri = S[_ST], S[_II], S[_RI]
    rf, hk, hv = S[_RF], S[_HK], S[_HV]
    fifo, cq, cq_len = S[_FIFO], S[_CQ], S[_CQ_LEN]
    order, piece_event, piece_req = S[_ORDER], S[_PIECE_EVENT], S[_PIECE_REQ]
    p = pid[i]
    kp = -1 if kind == NOOP else p
    target = -1
    if merge:
        target = _merge(hk, hv, st, kp, op[i], lba[i], size[i], ri, ii[P_MAX])
    if target < 0:
        target = _new_request(st, ri, rf, lba[i], size[i], op[i], p, now)
        if target < 0:
            return
        if merge:
            _index_add(hk, hv, st, kp, target, ri)
        if kind == NOOP:
            fifo[st[F_TAIL]] = target
            st[F_TAIL] += 1
        else:
            if cq_len[p] == 0:
                order[st[NORDER]] = p
                st[NORDER] += 1
            cq[p, cq_len[p]] = target
            cq_len[p] += 1
        st[COUNT] += 1
    _piece(st, piece_event, piece_req, i, target)
    return


@numba.njit(cache=True, inline="always")
def _vfs_overlap(lba, size, S):
    """Whether [lba, lba + size) overlaps a range of the VFS-SSD table (binary search)."""
    st, tab_s, tab_e = S[_ST], S[_TAB_S], S[_TAB_E]
    lo, hi = 0, st[NTAB]
    while lo < hi:  # the first range ending after lba
        mid = (lo + hi) // 2
        if tab_e[mid] <= lba:
            lo = mid + 1
        else:
            hi = mid
    return lo < st[NTAB] and tab_s[lo] < lba + size


@numba.njit(cache=True)
def _admit_vfs(i, now, tsim, lba, size, op, pid, S):
    """BID-Hybrid's VFS-SSD filter: send the parts of event ``i`` that the table holds to the
    SSD and the rest to BID-HDD; False if no part is on the SSD (the caller stages it whole)."""
    st, ri, rf = S[_ST], S[_RI], S[_RF]
    tab_s, tab_e, route_req = S[_TAB_S], S[_TAB_E], S[_ROUTE_REQ]
    route_t, piece_event, piece_req = S[_ROUTE_T], S[_PIECE_EVENT], S[_PIECE_REQ]
    p = pid[i]
    # the VFS-SSD table: cut the request into pieces on / off the SSD
    start, end = lba[i], lba[i] + size[i]
    m = st[NTAB]
    j = np.searchsorted(tab_e[:m], start, side="right")
    if j < m and tab_s[j] < end:
        cut = np.empty((2 * (m - j) + 1, 3), dtype=np.int64)
        nc, pos = 0, start
        while j < m and tab_s[j] < end:
            s, e = max(tab_s[j], pos), min(tab_e[j], end)
            if s > pos:
                cut[nc, 0], cut[nc, 1], cut[nc, 2] = pos, s - pos, 0
                nc += 1
            cut[nc, 0], cut[nc, 1], cut[nc, 2] = s, e - s, 1
            nc += 1
            pos = e
            j += 1
        if pos < end:
            cut[nc, 0], cut[nc, 1], cut[nc, 2] = pos, end - pos, 0
            nc += 1
        # the pieces are cut before timers fire (a marked queue may grow the table)
        if _due(now, S):
            _fire(now, tsim, S)
        if op[i] == READ:
            st[HITS_R] += 1
        else:
            st[HITS_W] += 1
        for c in range(nc):
            if cut[c, 2]:
                r = _new_request(st, ri, rf, cut[c, 0], cut[c, 1], op[i], p, now)
                if r < 0:
                    return True
                _piece(st, piece_event, piece_req, i, r)
                route_req[st[NROUTE]], route_t[st[NROUTE]] = r, tsim
                st[NROUTE] += 1
            else:
                _bid_add(cut[c, 0], cut[c, 1], op[i], p, i, now, tsim, S)
        return True
    return False


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
def _next_queue(kind, merge, S):
    """Noop's and CFQ's ``next``: a request id or -1."""
    st, ri, hk = S[_ST], S[_RI], S[_HK]
    hv, fifo, rnd = S[_HV], S[_FIFO], S[_RND]
    if kind == NOOP:
        if st[F_HEAD] == st[F_TAIL]:
            return -1
        r = fifo[st[F_HEAD]]
        st[F_HEAD] += 1
        if merge:
            _index_remove(hk, hv, st, -1, r, ri)
        st[COUNT] -= 1
        return r
    if kind == CFQ_KIND:
        if st[R_HEAD] == st[R_TAIL]:
            if st[NORDER] == 0:
                return -1
            _form_round(merge, S)
        r = rnd[st[R_HEAD]]
        st[R_HEAD] += 1
        st[COUNT] -= 1
        return r
    return -1


@numba.njit(cache=True, inline="always")
def _next(now, tsim, kind, merge, S):
    """The scheduler's ``next`` at scheduler time ``now``: a request id or -1."""
    st, ii, ri = S[_ST], S[_II], S[_RI]
    mq, dq = S[_MQ], S[_DQ]
    if kind < BID:
        return _next_queue(kind, merge, S)
    if _due(now, S):
        _fire(now, tsim, S)
    depth = ii[P_DQ]
    if depth == 1:
        if st[MQ_HEAD] == st[MQ_TAIL]:
            return -1
        r = mq[st[MQ_HEAD]]
        st[MQ_HEAD] += 1
    else:
        while st[DQ_N] < depth and st[MQ_HEAD] < st[MQ_TAIL]:
            dq[st[DQ_N]] = mq[st[MQ_HEAD]]
            st[DQ_N] += 1
            st[MQ_HEAD] += 1
        m = st[DQ_N]
        if m == 0:
            return -1
        best = -1
        for j in range(m):  # C-LOOK: the lowest LBA at or after the head, else the lowest
            if ri[R_LBA, dq[j]] >= st[HEAD_POS] and (
                best < 0 or ri[R_LBA, dq[j]] < ri[R_LBA, dq[best]]
            ):
                best = j
        if best < 0:
            for j in range(m):
                if best < 0 or ri[R_LBA, dq[j]] < ri[R_LBA, dq[best]]:
                    best = j
        r = dq[best]
        for j in range(best, m - 1):
            dq[j] = dq[j + 1]
        st[DQ_N] = m - 1
    st[HEAD_POS] = ri[R_LBA, r] + ri[R_SIZE, r]
    st[COUNT] -= 1
    return r


@numba.njit(cache=True)
def _form_round(merge, S):
    st, ii, ri = S[_ST], S[_II], S[_RI]
    hk, hv, cq = S[_HK], S[_HV], S[_CQ]
    cq_len, order, rnd = S[_CQ_LEN], S[_ORDER], S[_RND]
    quantum = ii[P_QUANTUM]
    nb = 0
    kept = 0
    for j in range(st[NORDER]):
        p = order[j]
        m = cq_len[p]
        lbas = np.empty(m, dtype=np.int64)
        for x in range(m):
            lbas[x] = ri[R_LBA, cq[p, x]]
        idx = np.argsort(lbas, kind="mergesort")
        sorted_q = np.empty(m, dtype=np.int64)
        for x in range(m):
            sorted_q[x] = cq[p, idx[x]]
        take = min(quantum, m)
        for x in range(take):
            rnd[nb] = sorted_q[x]
            nb += 1
        for x in range(m - take):
            cq[p, x] = sorted_q[take + x]
        cq_len[p] = m - take
        if m - take > 0:
            order[kept] = p
            kept += 1
    st[NORDER] = kept
    if merge:
        for x in range(nb):
            r = rnd[x]
            _index_remove(hk, hv, st, ri[R_PID, r], r, ri)
    lbas = np.empty(nb, dtype=np.int64)
    for x in range(nb):
        lbas[x] = ri[R_LBA, rnd[x]]
    idx = np.argsort(lbas, kind="mergesort")
    batch = rnd[:nb].copy()
    for x in range(nb):
        rnd[x] = batch[idx[x]]
    st[R_HEAD], st[R_TAIL] = 0, nb


@numba.njit(cache=True)
def _serve_ssd(route_req, route_t, ri, n_pids, read_ms, write_ms, page_bytes, sector_bytes, ceil):
    """The SSD: one server, a FIFO per process, processes served round-robin (SsdQueues)."""
    m = route_req.shape[0]
    nxt = np.full(ri.shape[1], -1, dtype=np.int64)
    q_head = np.full(n_pids, -1, dtype=np.int64)
    q_tail = np.full(n_pids, -1, dtype=np.int64)
    ring = np.empty(n_pids + 1, dtype=np.int64)  # processes with a non-empty FIFO, in turn order
    rh, rt, waiting = 0, 0, 0
    out = np.empty(m, dtype=np.int64)
    out_f = np.empty((3, m))
    t = 0.0
    k = 0
    for x in range(m):
        if waiting == 0 and route_t[k] > t:
            t = route_t[k]
        while k < m and route_t[k] <= t:
            r = route_req[k]
            p = ri[R_PID, r]
            if q_head[p] < 0:
                q_head[p] = r
                ring[rt] = p
                rt = (rt + 1) % (n_pids + 1)
            else:
                nxt[q_tail[p]] = r
            q_tail[p] = r
            waiting += 1
            k += 1
        p = ring[rh]
        rh = (rh + 1) % (n_pids + 1)
        r = q_head[p]
        q_head[p] = nxt[r]
        if q_head[p] >= 0:
            ring[rt] = p
            rt = (rt + 1) % (n_pids + 1)
        waiting -= 1
        nbytes = ri[R_SIZE, r] * sector_bytes
        pages = -(-nbytes // page_bytes) if ceil else nbytes // page_bytes
        service = pages * (read_ms if ri[R_OP, r] == READ else write_ms)
        out[x] = r
        out_f[0, x], out_f[2, x] = t, service
        t = t + service
        out_f[1, x] = t
    return out, out_f


# -- the Python side ---------------------------------------------------------------------------
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
) -> SimResult:
    """:func:`storrepro.bid.experiment.simulate` with the kernel (same arguments and result)."""
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
    gi, gf = _geometry_arrays(geometry)
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
