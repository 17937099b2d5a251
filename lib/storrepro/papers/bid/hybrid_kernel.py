"""BID-Hybrid's own parts of the replay kernel, beside :mod:`storrepro.papers.bid.hybrid`: the
VFS-SSD filter that sends the parts of an arrival the table holds to the SSD, and the SSD's block
layer (one FIFO per process served round-robin), run as a second pass over the requests routed there
(the SSD never feeds back into the HDD side). Tier placement at marking is in
:mod:`storrepro.papers.bid.bid_kernel`.
"""

from __future__ import annotations

import numpy as np

from storrepro.papers.bid.bid_kernel import _bid_add, _fire
from storrepro.papers.bid.kernel_core import (
    READ,
    RIGHT,
    _new_request,
    _piece,
    _search,
    allocating,
    borrowing,
)


@borrowing
def _vfs_overlap(lba, size, st, vfs):
    """Whether [lba, lba + size) overlaps a range of the VFS-SSD table (binary search)."""
    lo, hi = 0, st.ntab
    while lo < hi:  # the first range ending after lba
        mid = (lo + hi) // 2
        if vfs.end[mid] <= lba:
            lo = mid + 1
        else:
            hi = mid
    return lo < st.ntab and vfs.start[lo] < lba + size


@borrowing
def _admit_vfs(i, now, tsim, trace, opt, st, req, idx, pieces, sq, hist, logs, vfs):
    """BID-Hybrid's VFS-SSD filter for an event that overlaps the table: send the parts of
    event ``i`` that the table holds to the SSD and the rest to BID-HDD."""
    p, op = trace[i].pid, trace[i].op
    tab_s, tab_e = vfs.start, vfs.end
    # the VFS-SSD table: cut the request into pieces on / off the SSD
    start, end = trace[i].lba, trace[i].lba + trace[i].size
    m = st.ntab
    j = _search(tab_e, m, start, RIGHT)
    cut = vfs.cut
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
    _fire(now, tsim, opt, st, req, idx, sq, hist, logs, vfs)
    if op == READ:
        st.hits_r += 1
    else:
        st.hits_w += 1
    for c in range(nc):
        if cut[c, 2]:
            r = _new_request(st, req, cut[c, 0], cut[c, 1], op, p, now)
            if r < 0:
                return
            _piece(st, pieces, i, r)
            vfs.route_req[st.nroute], vfs.route_t[st.nroute] = r, tsim
            st.nroute += 1
        else:
            _bid_add(cut[c, 0], cut[c, 1], op, p, i, now, tsim, opt, st, req, idx, pieces, sq,
                     hist, logs, vfs)  # fmt: skip


@allocating
def _serve_ssd(route_req, route_t, req, n_pids, read_ms, write_ms, page_bytes, sector_bytes, ceil):
    """The SSD: one server, a FIFO per process, processes served round-robin (SsdQueues)."""
    m = route_req.shape[0]
    nxt = np.full(req.shape[0], -1, dtype=np.int64)
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
            p = req[r].pid
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
        nbytes = req[r].size * sector_bytes
        pages = -(-nbytes // page_bytes) if ceil else nbytes // page_bytes
        service = pages * (read_ms if req[r].op == READ else write_ms)
        out[x] = r
        out_f[0, x], out_f[2, x] = t, service
        t = t + service
        out_f[1, x] = t
    return out, out_f
