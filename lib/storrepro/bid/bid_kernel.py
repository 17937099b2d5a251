"""BID-HDD in the replay kernel, the numba twin of :mod:`storrepro.bid.bid_hdd` (and of
BID-Hybrid's tier placement when a queue is marked, :mod:`storrepro.bid.hybrid`).

Staging queues are linked lists of requests; their timers are found by scanning the open queues
(at most one per process) in the Python heap's (expiry, queue) order; the wait history is a ring
per process; marked queues form one flat FIFO of requests (they are flushed whole, in marking
order); the dispatch queue is served C-LOOK.
"""

from __future__ import annotations

import numba
import numpy as np

from storrepro.bid.kernel_core import (
    _DQ,
    _FF,
    _HIST,
    _HIST_ON,
    _HIST_START,
    _HK,
    _HV,
    _II,
    _LOGS_F,
    _LOGS_I,
    _MQ,
    _OPENED,
    _PIECE_EVENT,
    _PIECE_REQ,
    _R_NEXT,
    _RF,
    _RI,
    _ROUTE_REQ,
    _ROUTE_T,
    _SEEN,
    _SQ_F,
    _SQ_I,
    _ST,
    _TAB_E,
    _TAB_S,
    _WLOG_F,
    _WLOG_I,
    COUNT,
    DQ_N,
    HEAD_POS,
    HYBRID,
    LAST_ARRIVAL,
    LAST_PID,
    MQ_HEAD,
    MQ_TAIL,
    N_OPEN,
    NDEC,
    NFLUSH,
    NROUTE,
    NSQ,
    NWAIT,
    P_ADAPT,
    P_DQ,
    P_EVERY,
    P_HIST,
    P_KIND,
    P_MAX,
    P_MERGE,
    P_PF,
    P_READ_DL,
    P_RESET,
    P_WAIT,
    P_WRITE_DL,
    R_LBA,
    R_OP,
    R_SIZE,
    READ,
    WRITE,
    _index_add,
    _index_remove,
    _merge,
    _new_request,
    _piece,
    _table_add,
)


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


@numba.njit(cache=True, inline="always")
def _bid_next(now, tsim, S):
    """BID's ``next``: fire due timers, then take the next request from the dispatch queue
    (depth 1: the marked queues' FIFO; deeper: C-LOOK over its contents); a request id or -1."""
    st, ii, ri = S[_ST], S[_II], S[_RI]
    mq, dq = S[_MQ], S[_DQ]
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
