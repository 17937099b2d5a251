"""CFQ in the replay kernel, the numba twin of :mod:`storrepro.bid.cfq`: one queue per process (a
row of a 2-D array), the processes in order of queue creation, and the current round; a stable
merge sort keeps the Python sort's tie order.
"""

from __future__ import annotations

import numba
import numpy as np

from storrepro.bid.kernel_core import (
    _CQ,
    _CQ_LEN,
    _HK,
    _HV,
    _II,
    _ORDER,
    _RI,
    _RND,
    _ST,
    NORDER,
    P_QUANTUM,
    R_HEAD,
    R_LBA,
    R_PID,
    R_TAIL,
    _index_remove,
)


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
