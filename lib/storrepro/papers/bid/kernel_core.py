"""Shared parts of the replay kernel (:mod:`storrepro.papers.bid.kernel`): the layout of its state,
the authors' HDD model, the merge index (array hash tables keyed by (process or -1, direction,
sector)), the request and piece tables, and the VFS-SSD table of BID-Hybrid as sorted disjoint
intervals. Times in ms, sizes and positions in 512-B sectors.

The state is named: each table is a numpy structured array (one record per request, staging
queue, process, log line: ``req[r].lba``, ``sq.queues[s].expiry``), the counters and the options
are one record each (``st.count``, ``opt.kind``), and the tables of one scheduler travel together
in a small named tuple (:class:`Staging`, :class:`Logs`, ...). A record array is passed as one
array and a record as one pointer, so a call costs a few words however many fields there are.

Functions on the per-event path are compiled with :data:`borrowing`: they only read and write
the replay's arrays and never allocate, so they need none of numba's reference counting. With
it, every call increfs and decrefs each array it is given (numba's pruning removes the pairs
only in a function without branches), whether the arrays come in a tuple or one by one; the
earlier kernel spent most of its time in those atomic counts.
"""

from __future__ import annotations

from typing import NamedTuple

import numba
import numpy as np

from storrepro.sim.disk_model import HDDGeometry

NOOP, CFQ_KIND, BID, HYBRID = 0, 1, 2, 3
READ, WRITE = 0, 1
INF = np.inf

#: How the per-event helpers are compiled: they borrow arrays the replay owns and allocate none,
#: so numba's reference counting (an atomic incref and decref per array argument per call) is
#: switched off for them; and only other kernels call them, so they are compiled without the
#: wrappers through which Python (and C) would call them, which numba otherwise builds and
#: optimises for every helper.
borrowing = numba.njit(cache=True, _nrt=False, no_cpython_wrapper=True, no_cfunc_wrapper=True)
#: The same for the few that Python calls (the replay's loops, the HDD model; tests call the
#: VFS-SSD table's add): with those wrappers.
borrowing_from_python = numba.njit(cache=True, _nrt=False)
#: How a kernel that allocates (the SSD's pass: scratch arrays) is compiled: with reference
#: counting, said explicitly because a callee inherits a caller's unset option.
allocating = numba.njit(cache=True, _nrt=True)

I8, F8, B1 = np.int64, np.float64, np.bool_
#: Constants handed to jitted callees as numpy scalars, not Python literals: numba types a call
#: ``f(0)`` (or a loop variable that starts at 0 and comes back from ``f``) as ``Literal[int](0)``
#: and compiles ``f``, with all it calls, once more for it beside the int64 version.
ZERO = np.int64(0)
NO_PROCESS = np.int64(-1)  # the merge index's process key under Noop (one index for all)
BY_END, BY_START = np.int64(0), np.int64(1)  # the merge index's two tables
LEFT, RIGHT = np.bool_(False), np.bool_(True)  # :func:`_search`'s side
U8 = numba.uint64  # an index that is never negative (no wrap-around check)

#: The replay's counters (one record).
COUNTERS = np.dtype(
    [
        ("count", I8),  # requests queued in the block layer (the replayer's slots in use)
        ("nreq", I8),  # requests made
        ("npiece", I8),  # pieces recorded
        ("overflow", I8),  # 1: a table ran out of room (the replay is run again, larger)
        ("f_head", I8),  # Noop's FIFO
        ("f_tail", I8),
        ("norder", I8),  # CFQ: processes with a queue
        ("r_head", I8),  # CFQ: the current round
        ("r_tail", I8),
        ("nsq", I8),  # BID: staging queues made
        ("n_open", I8),  # BID: open staging queues
        ("last_pid", I8),  # BID: the last process to arrive while its queue was open
        ("last_arrival", I8),  # BID: the last process to arrive (the every-gap history's batches)
        ("mq_head", I8),  # BID: the marked requests' FIFO
        ("mq_tail", I8),
        ("dq_n", I8),  # requests in the disk's command queue
        ("head_pos", I8),  # where the disk's last request from that queue ended
        ("nwait", I8),  # BID's log lengths
        ("nflush", I8),
        ("ndec", I8),
        ("ntab", I8),  # BID-Hybrid: intervals in the VFS-SSD table
        ("nroute", I8),  # BID-Hybrid: requests sent to the SSD
        ("hits_r", I8),  # BID-Hybrid: arrivals the VFS-SSD table routed, per direction
        ("hits_w", I8),
        # BID: at most the earliest open staging queue's timer (each timer set lowers it, a scan
        # of the open queues makes it exact), so a timer event with none due skips the scan
        ("timer_floor", F8),
    ]
)

#: A scheduler's options as the kernel reads them (one record, :func:`kernel.scheduler_options`).
OPTIONS = np.dtype(
    [
        ("kind", I8),  # NOOP, CFQ_KIND, BID or HYBRID
        ("merge", B1),  # merge contiguous requests (BID: within a staging queue)
        ("max_sectors", I8),
        ("quantum", I8),  # CFQ
        ("history", I8),  # BID: gaps in the wait history
        ("dq_depth", I8),  # the sorted queue's depth in front of the disk (reading device_queue)
        ("reset_history", B1),  # BID: the history is deleted with its queue
        ("adaptive_wait", B1),
        ("every_gap", B1),  # BID: every batch's gap enters the history, queue open or not
        ("wait_default", F8),
        ("read_deadline", F8),
        ("write_deadline", F8),
        ("pf_threshold", F8),  # BID-Hybrid: packing fraction above which a queue stays on the HDD
    ]
)

#: The trace, one record per event: time (ms), dense process number, direction, sectors.
TRACE = np.dtype([("ts", F8), ("pid", I8), ("op", I8), ("lba", I8), ("size", I8)])

#: The request table: what each request is, when it was made, and (BID) the next request of its
#: staging queue (-1 at the tail).
REQUEST = np.dtype(
    [("lba", I8), ("size", I8), ("op", I8), ("pid", I8), ("arrive", F8), ("next", I8)]
)

#: Which request carries each piece of each trace event (merges and SSD cuts).
PIECE = np.dtype([("event", I8), ("req", I8)])

#: A staging queue of BID: its process, its requests (a list linked through REQUEST.next), its
#: times TS_old and TS_new, its wait and deadline, and the armed timer min(TS_new + wait,
#: deadline).
STAGING_QUEUE = np.dtype(
    [
        ("pid", I8),
        ("head", I8),
        ("tail", I8),
        ("n", I8),
        ("has_read", B1),
        ("opened_at", F8),
        ("last_at", F8),
        ("wait", F8),
        ("deadline", F8),
        ("expiry", F8),
    ]
)

#: A process under BID: its open staging queue (-1: none), its place in the open list, its
#: last arrival and whether it has arrived yet.
PROCESS = np.dtype([("open_of", I8), ("open_place", I8), ("last_seen", F8), ("arrived", B1)])

#: BID's logs: every flush (``deadline``: the deadline timer fired, not the wait timer), every
#: setting of a wait timer, BID-Hybrid's every tier choice (``ssd``: the writes went there).
FLUSH = np.dtype([("t", F8), ("pid", I8), ("n", I8), ("sectors", I8), ("deadline", B1)])
WAIT = np.dtype([("t", F8), ("pid", I8), ("wait", F8)])
TIER = np.dtype([("t", F8), ("pid", I8), ("pf", F8), ("ssd", B1)])

#: The HDD's record, one per request served, in service order.
SERVED = np.dtype(
    [
        ("req", I8),
        ("t_start", F8),
        ("t_end", F8),
        ("service", F8),
        ("cylinder", I8),
        ("d", I8),
    ]
)


class MergeIndex(NamedTuple):
    """Two hash tables (row 0: by end sector, row 1: by start sector) of request ids, and how
    many slots of each are in use."""

    keys: np.ndarray
    values: np.ndarray
    live: np.ndarray


class Queues(NamedTuple):
    """Noop's FIFO, and CFQ's queue per process, its processes in order and its current round."""

    fifo: np.ndarray
    per_pid: np.ndarray  # (process, slot)
    per_pid_len: np.ndarray
    order: np.ndarray
    round: np.ndarray


class Staging(NamedTuple):
    """BID's staging queues and processes, the processes with an open queue (the first
    ``st.n_open``), the marked requests in flush order, the dispatch queue, and room for the
    requests of a queue being marked."""

    queues: np.ndarray  # STAGING_QUEUE records
    procs: np.ndarray  # PROCESS records
    open_pids: np.ndarray
    marked: np.ndarray
    dq: np.ndarray
    flushing: np.ndarray  # the requests of the queue being marked


class History(NamedTuple):
    """Each process's wait history: a ring of gaps, its oldest slot, and whether it exists."""

    gaps: np.ndarray  # (process, k)
    start: np.ndarray
    on: np.ndarray


class Logs(NamedTuple):
    flushes: np.ndarray  # FLUSH records
    waits: np.ndarray  # WAIT records
    tiers: np.ndarray  # TIER records


class Vfs(NamedTuple):
    """BID-Hybrid's VFS-SSD table (the first ``st.ntab`` intervals, sorted), the requests sent
    to the SSD with their times, and room to cut an arrival into pieces on and off the SSD."""

    start: np.ndarray
    end: np.ndarray
    route_req: np.ndarray
    route_t: np.ndarray
    cut: np.ndarray  # (piece, [start, size, on the SSD])


# -- HDD model ---------------------------------------------------------------------------------
@borrowing_from_python
def hdd_time(lba, size, head, gi, gf):
    """:func:`storrepro.sim.disk_model.hdd_service_time` (same operations): (T, d, start cylinder).

    With ``gf[8]`` set (the modern-disk sensitivity model, :data:`MODERN_DISK`) the rotational
    latency is charged only when the request does not start where the head is, and a transfer
    term of ``gf[7]`` ms per sector is added."""
    spc, spt, cyl = gi[0], gi[1], gi[2]
    c_start = -(-lba // spc)
    c_end = -(-(lba + size) // spc)
    distance = abs(-(-head // spc) - c_start)
    tracks = (lba + size) // spt - lba // spt
    seeks = 1 if distance > 0 else 0
    if gf[8] == 0.0:
        t = (
            gf[0]
            + gf[1] * (1 + tracks)
            + gf[2]
            + gf[5] * tracks
            + (seeks + abs(c_end - c_start)) * gf[4]
        )
    else:
        t = (
            gf[0]
            + gf[1] * (1 + tracks)
            + (gf[2] if head != lba else 0.0)
            + gf[5] * tracks
            + (seeks + abs(c_end - c_start)) * gf[4]
            + gf[7] * size
        )
    if seeks:
        t += gf[6] + gf[4] + (gf[3] - gf[4]) * (distance - 1) / (cyl - 1)
    return t, distance, c_start


#: The modern-disk sensitivity model: the authors' geometry and seek curve, a media transfer of
#: 150 MB/s, and the rotational latency (half a revolution) only on a request that does not
#: start where the head is — none on a sequential one. Not the paper's model.
MODERN_DISK = {"transfer_mb_s": 150.0}


def _geometry_arrays(g: HDDGeometry, modern: bool = False):
    gi = np.array([g.sectors_per_cylinder, g.sectors_per_track, g.cylinders], dtype=np.int64)
    per_sector = 512 / (MODERN_DISK["transfer_mb_s"] * 1e6) * 1e3 if modern else 0.0
    gf = np.array(
        [
            g.t_cmd,
            g.t_settle,
            g.t_rot,
            g.t_avg_seek,
            g.t_cyl_switch,
            g.t_head_switch,
            g.t_adjacent,
            per_sector,
            1.0 if modern else 0.0,
        ]
    )
    return gi, gf


# -- the disk's command queue (storrepro.papers.bid.request.DeviceQueue)
# -----------------------------
@borrowing
def _device_take(depth, st, req, dq):
    """The disk's next request from its command queue ``dq`` (the first ``st.dq_n``): depth 1
    the one there, deeper C-LOOK (the lowest LBA at or after the head, else the lowest, equal
    LBAs in dispatch order); -1 when it is empty."""
    m = st.dq_n
    if m == 0:
        return -1
    best = 0
    if depth > 1:
        best = -1
        for j in range(m):
            lba = req[dq[j]].lba
            if lba >= st.head_pos and (best < 0 or lba < req[dq[best]].lba):
                best = j
        if best < 0:
            for j in range(m):
                if best < 0 or req[dq[j]].lba < req[dq[best]].lba:
                    best = j
    r = dq[best]
    for j in range(best, m - 1):
        dq[j] = dq[j + 1]
    st.dq_n = m - 1
    st.head_pos = req[r].lba + req[r].size
    return r


@borrowing
def _sort_by_lba(items, n, req):
    """Sort the requests ``items[:n]`` by LBA, stably (equal LBAs keep their order), as
    ``items[:n][np.argsort(lbas, kind="mergesort")]``: a stable order is unique. An insertion
    sort: the lists sorted (a staging queue, a process's queue under CFQ, a round made of
    sorted runs) are short or mostly in order already, and numba's argsort compiles for
    seconds."""
    for j in range(1, n):
        r = items[j]
        lba = req[r].lba
        k = j
        while k > 0 and req[items[k - 1]].lba > lba:
            items[k] = items[k - 1]
            k -= 1
        items[k] = r


# -- merge index (storrepro.papers.bid.request.MergeIndex)
# ------------------------------------------ Two open-addressing hash tables (0: by end sector, 1:
# by start sector) of int64 keys packing (process + 1, direction, sector); linear probing, deletion
# by backward shift (no tombstones).
LBA_BITS = 33
EMPTY = -1


@borrowing
def _key(kp, op, sector):
    return ((kp + 1) << (LBA_BITS + 1)) | (op << LBA_BITS) | sector


@borrowing
def _home(key, mask):
    h = np.uint64(key) * np.uint64(0x9E3779B97F4A7C15)
    return np.int64(h >> np.uint64(31)) & mask


@borrowing
def _find(keys, t, key):
    """Slot of ``key`` in table ``t``, or of the empty slot where it would go."""
    mask = keys.shape[1] - 1
    i = _home(key, mask)
    while keys[t, i] != EMPTY and keys[t, i] != key:
        i = (i + 1) & mask
    return i


@borrowing
def _put(idx, st, t, key, value):
    i = _find(idx.keys, t, key)
    if idx.keys[t, i] == EMPTY:
        idx.live[t] += 1
        if 2 * idx.live[t] > idx.keys.shape[1]:
            st.overflow = 1
    idx.keys[t, i], idx.values[t, i] = key, value


@borrowing
def _delete_slot(idx, st, t, i):
    keys, values = idx.keys, idx.values
    mask = keys.shape[1] - 1
    j = i
    while True:
        j = (j + 1) & mask
        if keys[t, j] == EMPTY:
            break
        home = _home(keys[t, j], mask)
        # the entry at j stays if its home lies cyclically in (i, j]
        if (i < j and i < home <= j) or (i > j and (home > i or home <= j)):
            continue
        keys[t, i], values[t, i] = keys[t, j], values[t, j]
        i = j
    keys[t, i] = EMPTY
    idx.live[t] -= 1


@borrowing
def _merge(idx, st, req, kp, op, lba, size, max_sectors):
    """Grow a queued request of ``kp`` that ends where this one starts (back merge) or starts
    where it ends (front merge); the merged request, or -1."""
    key = _key(kp, op, lba)
    i = _find(idx.keys, BY_END, key)
    if idx.keys[0, i] == key:
        t = idx.values[0, i]
        if req[t].size + size <= max_sectors:
            _delete_slot(idx, st, BY_END, i)
            req[t].size += size
            _put(idx, st, BY_END, _key(kp, op, req[t].lba + req[t].size), t)
            return t
    key = _key(kp, op, lba + size)
    i = _find(idx.keys, BY_START, key)
    if idx.keys[1, i] == key:
        t = idx.values[1, i]
        if req[t].size + size <= max_sectors:
            _delete_slot(idx, st, BY_START, _find(idx.keys, BY_START, _key(kp, op, req[t].lba)))
            req[t].lba = lba
            req[t].size += size
            _put(idx, st, BY_START, _key(kp, op, lba), t)
            return t
    return -1


@borrowing
def _index_add(idx, st, kp, r, req):
    op = req[r].op
    _put(idx, st, BY_END, _key(kp, op, req[r].lba + req[r].size), r)
    _put(idx, st, BY_START, _key(kp, op, req[r].lba), r)


@borrowing
def _index_remove(idx, st, kp, r, req):
    op = req[r].op
    for t, sector in ((BY_END, req[r].lba + req[r].size), (BY_START, req[r].lba)):
        i = _find(idx.keys, t, _key(kp, op, sector))
        if idx.keys[t, i] != EMPTY and idx.values[t, i] == r:
            _delete_slot(idx, st, t, i)


@borrowing
def _new_request(st, req, lba, size, op, pid, now):
    """A new request in the table; -1 (and the overflow flag) when the table is full."""
    r = st.nreq
    if r >= req.shape[0]:
        st.overflow = 1
        return -1
    q = req[r]
    q.lba, q.size, q.op, q.pid, q.arrive = lba, size, op, pid, now
    st.nreq = r + 1
    return r


@borrowing
def _piece(st, pieces, event, r):
    k = st.npiece
    if k >= pieces.shape[0]:
        st.overflow = 1
        return
    pieces[k].event, pieces[k].req = event, r
    st.npiece = k + 1


# -- the VFS-SSD table (BID-Hybrid) -----------------------------------------------------------
@borrowing
def _search(a, m, x, right):
    """``np.searchsorted(a[:m], x, side="right" if right else "left")``, without the slice."""
    lo, hi = 0, m
    while lo < hi:
        mid = (lo + hi) // 2
        if a[mid] < x or (right and a[mid] == x):
            lo = mid + 1
        else:
            hi = mid
    return lo


@borrowing_from_python
def _table_add(vfs, st, lba, size):
    """Add [lba, lba + size) to the table, joining the intervals it overlaps or touches."""
    tab_s, tab_e = vfs.start, vfs.end
    start, end = lba, lba + size
    m = st.ntab
    i = _search(tab_e, m, start, LEFT)
    j = _search(tab_s, m, end, RIGHT)
    if i < j:
        start = min(start, tab_s[i])
        end = max(end, tab_e[j - 1])
    removed = j - i
    # the shifts index with unsigned integers: numba checks every signed index for a negative
    # one to wrap around, which keeps these long copies several times slower
    if removed == 0:  # insert at i: shift right
        for x in range(U8(m), U8(i), -1):
            tab_s[x] = tab_s[x - U8(1)]
            tab_e[x] = tab_e[x - U8(1)]
    elif removed > 1:  # replace [i, j) by one: shift left
        gap = U8(removed - 1)
        for x in range(U8(j), U8(m)):
            tab_s[x - gap] = tab_s[x]
            tab_e[x - gap] = tab_e[x]
    tab_s[i], tab_e[i] = start, end
    st.ntab = m - removed + 1
