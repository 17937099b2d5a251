"""Noop in the replay kernel, the numba twin of :mod:`storrepro.bid.noop` — a FIFO of request
ids and one merge index over all queued requests — and the queue-side ``add``/``next`` it shares
with CFQ (whose rounds are formed in :mod:`storrepro.bid.cfq_kernel`).
"""

from __future__ import annotations

import numba

from storrepro.bid.cfq_kernel import (
    _form_round,
)
from storrepro.bid.kernel_core import (
    _CQ,
    _CQ_LEN,
    _FIFO,
    _HK,
    _HV,
    _II,
    _ORDER,
    _PIECE_EVENT,
    _PIECE_REQ,
    _RF,
    _RI,
    _RND,
    _ST,
    CFQ_KIND,
    COUNT,
    F_HEAD,
    F_TAIL,
    NOOP,
    NORDER,
    P_MAX,
    R_HEAD,
    R_TAIL,
    _index_add,
    _index_remove,
    _merge,
    _new_request,
    _piece,
)


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
