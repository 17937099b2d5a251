"""BID-Hybrid's own parts of the replay kernel, beside :mod:`storrepro.bid.hybrid`: the VFS-SSD
filter that sends the parts of an arrival the table holds to the SSD, and the SSD's block layer
(one FIFO per process served round-robin), run as a second pass over the requests routed there
(the SSD never feeds back into the HDD side). Tier placement at marking is in
:mod:`storrepro.bid.bid_kernel`.
"""

from __future__ import annotations

import numba
import numpy as np

from storrepro.bid.bid_kernel import (
    _bid_add,
    _due,
    _fire,
)
from storrepro.bid.kernel_core import (
    _PIECE_EVENT,
    _PIECE_REQ,
    _RF,
    _RI,
    _ROUTE_REQ,
    _ROUTE_T,
    _ST,
    _TAB_E,
    _TAB_S,
    HITS_R,
    HITS_W,
    NROUTE,
    NTAB,
    R_OP,
    R_PID,
    R_SIZE,
    READ,
    _new_request,
    _piece,
)


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
