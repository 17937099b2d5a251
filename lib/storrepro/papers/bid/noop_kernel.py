"""Noop in the replay kernel, the numba twin of :mod:`storrepro.papers.bid.noop` — a FIFO of request
ids and one merge index over all queued requests — and the queue-side ``add``/``next`` it shares
with CFQ (whose rounds are formed in :mod:`storrepro.papers.bid.cfq_kernel`).
"""

from __future__ import annotations

from storrepro.papers.bid.cfq_kernel import _form_round
from storrepro.papers.bid.kernel_core import (
    NO_PROCESS,
    NOOP,
    _index_add,
    _index_remove,
    _merge,
    _new_request,
    _piece,
    borrowing,
)


@borrowing
def _queue_add(i, now, trace, opt, st, req, idx, pieces, q):
    """Noop's and CFQ's ``add`` of trace event ``i``: merge, else queue a new request (Noop: one
    merge index over all processes, key -1; CFQ: per process)."""
    p = trace[i].pid
    kp = -1 if opt.kind == NOOP else p
    target = -1
    if opt.merge:
        target = _merge(idx, st, req, kp, trace[i].op, trace[i].lba, trace[i].size, opt.max_sectors)
    if target < 0:
        target = _new_request(st, req, trace[i].lba, trace[i].size, trace[i].op, p, now)
        if target < 0:
            return
        if opt.merge:
            _index_add(idx, st, kp, target, req)
        if opt.kind == NOOP:
            q.fifo[st.f_tail] = target
            st.f_tail += 1
        else:
            if q.per_pid_len[p] == 0:
                q.order[st.norder] = p
                st.norder += 1
            q.per_pid[p, q.per_pid_len[p]] = target
            q.per_pid_len[p] += 1
        st.count += 1
    _piece(st, pieces, i, target)


@borrowing
def _queue_next(opt, st, req, idx, q):
    """Noop's and CFQ's next request for the disk's command queue, or -1 (the request keeps
    its slot until the disk takes it)."""
    if opt.kind == NOOP:
        if st.f_head == st.f_tail:
            return -1
        r = q.fifo[st.f_head]
        st.f_head += 1
        if opt.merge:
            _index_remove(idx, st, NO_PROCESS, r, req)
        return r
    if st.r_head == st.r_tail:
        if st.norder == 0:
            return -1
        _form_round(opt.merge, opt.quantum, st, req, idx, q)
    r = q.round[st.r_head]
    st.r_head += 1
    return r
