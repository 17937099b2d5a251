"""CFQ in the replay kernel, the numba twin of :mod:`storrepro.papers.bid.cfq`: one queue per
process (a row of a 2-D array), the processes in order of queue creation, and the current round; a
stable sort (:func:`~storrepro.papers.bid.kernel_core._sort_by_lba`) keeps the Python sort's tie
order.
"""

from __future__ import annotations

from storrepro.papers.bid.kernel_core import ZERO, _index_remove, _sort_by_lba, borrowing


@borrowing
def _form_round(merge, quantum, st, req, idx, q):
    """A new round: up to ``quantum`` requests of each queued process, lowest LBAs first, the
    round itself in LBA order (stable: the processes' order breaks ties)."""
    nb = ZERO
    kept = 0
    for j in range(st.norder):
        p = q.order[j]
        m = q.per_pid_len[p]
        queue = q.per_pid[p]
        _sort_by_lba(queue, m, req)
        take = min(quantum, m)
        for x in range(take):
            q.round[nb] = queue[x]
            nb += 1
        for x in range(m - take):
            queue[x] = queue[take + x]
        q.per_pid_len[p] = m - take
        if m - take > 0:
            q.order[kept] = p
            kept += 1
    st.norder = kept
    if merge:
        for x in range(nb):
            r = q.round[x]
            _index_remove(idx, st, req[r].pid, r, req)
    _sort_by_lba(q.round, nb, req)
    st.r_head, st.r_tail = 0, nb
