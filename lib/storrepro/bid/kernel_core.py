"""Shared parts of the replay kernel (:mod:`storrepro.bid.kernel`): the layout of its state
tuple ``S`` and parameter arrays, the authors' HDD model, the merge index (array hash tables keyed
by (process or -1, direction, sector)), the request and piece tables, and the VFS-SSD table of
BID-Hybrid as sorted disjoint intervals. Times in ms, sizes and positions in 512-B sectors.
"""

from __future__ import annotations

import numba
import numpy as np

from storrepro.sim.disk_model import HDDGeometry

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


# -- the VFS-SSD table (BID-Hybrid) -----------------------------------------------------------
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
