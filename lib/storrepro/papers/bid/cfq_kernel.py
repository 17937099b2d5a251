"""CFQ in the replay kernel, the numba twin of :mod:`storrepro.papers.bid.cfq`: one queue per
process (a row of a 2-D array), the processes in order of queue creation, and the current round; a
stable merge sort keeps the Python sort's tie order.
"""

from __future__ import annotations

import numpy as np

from storrepro.papers.bid.kernel_core import _index_remove, allocating


@allocating
def _form_round(merge, quantum, st, req, idx, q):
    """A new round: up to ``quantum`` requests of each queued process, lowest LBAs first, the
    round itself in LBA order (stable: the processes' order breaks ties)."""
    nb = 0
    kept = 0
    for j in range(st.norder):
        p = q.order[j]
        m = q.per_pid_len[p]
        lbas = np.empty(m, dtype=np.int64)
        for x in range(m):
            lbas[x] = req[q.per_pid[p, x]].lba
        idx_sorted = np.argsort(lbas, kind="mergesort")
        sorted_q = np.empty(m, dtype=np.int64)
        for x in range(m):
            sorted_q[x] = q.per_pid[p, idx_sorted[x]]
        take = min(quantum, m)
        for x in range(take):
            q.round[nb] = sorted_q[x]
            nb += 1
        for x in range(m - take):
            q.per_pid[p, x] = sorted_q[take + x]
        q.per_pid_len[p] = m - take
        if m - take > 0:
            q.order[kept] = p
            kept += 1
    st.norder = kept
    if merge:
        for x in range(nb):
            r = q.round[x]
            _index_remove(idx, st, req[r].pid, r, req)
    lbas = np.empty(nb, dtype=np.int64)
    for x in range(nb):
        lbas[x] = req[q.round[x]].lba
    idx_sorted = np.argsort(lbas, kind="mergesort")
    batch = q.round[:nb].copy()
    for x in range(nb):
        q.round[x] = batch[idx_sorted[x]]
    st.r_head, st.r_tail = 0, nb
