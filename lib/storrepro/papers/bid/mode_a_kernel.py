"""Mode A's BID-HDD and BID-Hybrid (M3, M5) as one numba loop: :func:`bid_orders`, the twin of
:func:`storrepro.papers.bid.mode_a.bid_python` (the window loop of ``mode_a._Bid``). The same
steps, float operations and orders, so ``tests/papers/bid/test_mode_a.py`` finds the dispatch
orders and the anticipation identical.

A window's request lists (``rq``: process -> its structures, processes in order of first
appearance) are one array of structure numbers grouped by process, a segment per process; the
staged lists are the previous window's segments. Taking a structure out of a list (to the SSD,
or absorbed into a staged group) clears its ``live`` flag, so a process is in a list while its
segment holds a live structure, as a key stays in the Python dicts while its list is non-empty.
The VFS-SSD table is the replay kernel's (:func:`~storrepro.papers.bid.kernel_core._table_add`).
"""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd

from storrepro.papers.bid.hybrid_kernel import _vfs_overlap
from storrepro.papers.bid.kernel_core import COUNTERS, ZERO, Vfs, _table_add
from storrepro.papers.bid.mode_a import ModeAOptions
from storrepro.papers.bid.request import MAX_SECTORS

kernel = numba.njit(cache=True)
#: The helpers only the kernels call: without the wrappers Python would call them through
#: (:data:`~storrepro.papers.bid.kernel_core.borrowing`).
helper = numba.njit(cache=True, no_cpython_wrapper=True, no_cfunc_wrapper=True)
#: :func:`_to_ssd`'s choice, as numpy booleans (literals compile it once more: kernel_core.ZERO)
WRITES_ONLY, ALL = np.bool_(True), np.bool_(False)
ONE_SECTOR = np.int64(1)  # the VFS-SSD table holds a structure if it holds its first sector


@helper
def _block_sum(a, lo, n):
    """numpy's sum of ``a[lo:lo + n]``, n <= 128 (float64): one running sum below 8, else 8
    running sums over blocks of 8 added pairwise, then the rest one by one."""
    if n < 8:
        res = 0.0
        for i in range(lo, lo + n):
            res += a[i]
        return res
    r = a[lo : lo + 8].copy()
    i = 8
    while i < n - n % 8:
        for j in range(8):
            r[j] += a[lo + i + j]
        i += 8
    res = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
    while i < n:
        res += a[lo + i]
        i += 1
    return res


@kernel
def _pairwise_sum(a, n):
    """numpy's ``a[:n].sum()`` of a float64 array, bit for bit, so that the anticipation adds up
    as in the Python twin: numpy sums a run of up to 128 in blocks (:func:`_block_sum`) and
    splits a longer one in two at a multiple of 8, adding the halves' sums. That tree is walked
    with a stack: numba's cache cannot load a recursive function back."""
    runs = np.empty((130, 2), np.int64)  # runs to sum, next on top; length -1: add the top sums
    sums = np.empty(65)
    runs[0, 0], runs[0, 1] = 0, n
    top, done = 1, 0
    while top > 0:
        top -= 1
        lo, m = runs[top, 0], runs[top, 1]
        if m < 0:  # both halves summed: left + right
            done -= 1
            sums[done - 1] += sums[done]
        elif m <= 128:
            sums[done] = _block_sum(a, lo, m)
            done += 1
        else:  # the combination first, then the right half, the left half on top
            half = m // 2 - m // 2 % 8
            runs[top, 1] = -1
            runs[top + 1, 0], runs[top + 1, 1] = lo + half, m - half
            runs[top + 2, 0], runs[top + 2, 1] = lo, half
            top += 3
    return sums[0]


@helper
def _weighted_wait(gaps):
    """:func:`storrepro.papers.bid.bid_hdd.weighted_wait` (same operations)."""
    total = 0.0
    for k in range(gaps.shape[0]):
        total += (k + 1) * gaps[k]
    k = gaps.shape[0]
    return total / (k * (k + 1) / 2)


@helper
def _live_ends(items, lo, hi, live):
    """The first and last live structure of a segment, and how many are live (-1, -1, 0: none)."""
    first, last, count = -1, -1, 0
    for k in range(lo, hi):
        if live[items[k]]:
            if first < 0:
                first = items[k]
            last = items[k]
            count += 1
    return first, last, count


@helper
def _to_ssd(items, lo, hi, writes_only, write, lba, size, live, ssd, ns, vfs, st):
    """Send a segment's live structures (or its live writes) to the SSD, their sectors into
    the VFS-SSD table (writes only); returns the SSD's new length."""
    for k in range(lo, hi):
        i = items[k]
        if live[i] and (write[i] or not writes_only):
            if write[i]:
                _table_add(vfs, st, lba[i], size[i])
            ssd[ns] = i
            ns += 1
            live[i] = False
    return ns


@kernel
def bid_windows(pid, write, lba, size, first, last, n_pids, window, history, wait_default,
                read_threshold, write_threshold, pf_threshold, hybrid, defects, vfs,
                counters):  # fmt: skip
    """M3 (and M5 when ``hybrid``) over the structures (``pid`` dense, ascending with the pid's
    value): the HDD's and the SSD's dispatch orders, the staging anticipation (ms) and the number
    of groups sent to the SSD. ``vfs`` holds the VFS-SSD table (room for ``n`` intervals), as
    ``counters`` (one :data:`~storrepro.papers.bid.kernel_core.COUNTERS` record) its length."""
    st = counters[0]
    n = pid.shape[0]
    hdd, ssd = np.empty(n, np.int64), np.empty(n, np.int64)
    nh, ns = 0, ZERO
    anticipation, decisions = 0.0, 0
    gaps = np.empty((n_pids, history))
    has_history = np.zeros(n_pids, np.bool_)
    wait = np.empty(n_pids)
    live = np.ones(n, np.bool_)
    # the window's lists (rq) and the staged ones: structures grouped by process, per segment
    # its process and bounds; rq_seg: a process's segment in rq (-1: none)
    rq_items, rq_pid = np.empty(window, np.int64), np.empty(window, np.int64)
    rq_lo, rq_hi = np.empty(window, np.int64), np.empty(window, np.int64)
    sq_items, sq_pid = np.empty(window, np.int64), np.empty(window, np.int64)
    sq_lo, sq_hi = np.empty(window, np.int64), np.empty(window, np.int64)
    rq_seg = np.full(n_pids, -1, np.int64)
    n_sq = 0
    order = np.empty(window, np.int64)
    key = np.empty(window)
    group = np.empty(2 * window, np.int64)
    times = np.empty(2 * window)
    for start in range(0, n + window, window):
        # one pass after the last window dispatches what is left staged, in order (the code
        # never does)
        final = start >= n
        if final and defects:
            break
        end = min(start + window, n) if not final else start
        # the window's lists, processes in order of first appearance
        n_rq = 0
        for i in range(start, end):
            if rq_seg[pid[i]] < 0:
                rq_seg[pid[i]] = n_rq
                rq_pid[n_rq], rq_hi[n_rq] = pid[i], 0
                n_rq += 1
            rq_hi[rq_seg[pid[i]]] += 1
        lo = 0
        for j in range(n_rq):
            rq_lo[j], lo = lo, lo + rq_hi[j]
            rq_hi[j] = rq_lo[j]
        for i in range(start, end):
            j = rq_seg[pid[i]]
            rq_items[rq_hi[j]] = i
            rq_hi[j] += 1
        if hybrid and st.ntab > 0:  # arrivals the VFS-SSD table holds go to the SSD
            for k in range(end - start):
                i = rq_items[k]
                if _vfs_overlap(lba[i], ONE_SECTOR, st, vfs):
                    ssd[ns] = i
                    ns += 1
                    live[i] = False
        # the wait histories of the staged processes
        for j in range(n_sq if not final else 0):
            p = sq_pid[j]
            if _live_ends(sq_items, sq_lo[j], sq_hi[j], live)[2] == 0:
                continue
            if not has_history[p]:
                gaps[p, :] = wait_default
                has_history[p] = True
                wait[p] = _weighted_wait(gaps[p])
            r = rq_seg[p]
            if r >= 0:
                arrived = _live_ends(rq_items, rq_lo[r], rq_hi[r], live)[0]
                if arrived >= 0:
                    staged_last = _live_ends(sq_items, sq_lo[j], sq_hi[j], live)[1]
                    for k in range(history - 1):  # a loop: a slice copy compiles numba's
                        gaps[p, k] = gaps[p, k + 1]  # shape-mismatch error (seconds)
                    gaps[p, -1] = first[arrived] - last[staged_last]
                    wait[p] = _weighted_wait(gaps[p])
        if hybrid and not final:  # M3 d / M5: the non-bulky staged groups go to the SSD
            for j in range(n_sq):
                lo, hi = sq_lo[j], sq_hi[j]
                if defects:  # > half the structures <= 20 % full, reads included
                    small, count = 0, 0
                    for k in range(lo, hi):
                        if live[sq_items[k]]:
                            count += 1
                            if size[sq_items[k]] / MAX_SECTORS <= 0.2:
                                small += 1
                    if count == 0 or small <= count // 2:
                        continue
                    r = rq_seg[sq_pid[j]]
                    with_new = r >= 0 and _live_ends(rq_items, rq_lo[r], rq_hi[r], live)[2] > 0
                    if with_new:
                        any_small = False
                        for k in range(rq_lo[r], rq_hi[r]):
                            any_small |= live[rq_items[k]] and size[rq_items[k]] < 204
                        if not any_small:
                            continue
                    ns = _to_ssd(sq_items, lo, hi, ALL, write, lba, size, live, ssd, ns, vfs, st)
                    if with_new:  # the group takes the process's new structures with it
                        ns = _to_ssd(rq_items, rq_lo[r], rq_hi[r], ALL, write, lba, size, live, ssd,
                                     ns, vfs, st)  # fmt: skip
                    decisions += 1
                    continue
                sectors, writes = 0, 0
                for k in range(lo, hi):
                    if live[sq_items[k]] and write[sq_items[k]]:
                        sectors += size[sq_items[k]]
                        writes += 1
                if writes == 0:
                    continue  # read-only groups are never classified
                if sectors / writes <= pf_threshold:
                    decisions += 1
                    ns = _to_ssd(sq_items, lo, hi, WRITES_ONLY, write, lba, size, live, ssd, ns,
                                 vfs, st)  # fmt: skip
        # the staged groups in dispatch order: by process (the code), or by their first
        # structure's time, ties in list order (Python's stable sort)
        n_order = 0
        for j in range(n_sq):
            head = _live_ends(sq_items, sq_lo[j], sq_hi[j], live)[0]
            if head < 0:
                continue
            k = n_order
            key_j = sq_pid[j] if defects else first[head]
            while k > 0 and key[k - 1] > key_j:
                order[k], key[k] = order[k - 1], key[k - 1]
                k -= 1
            order[k], key[k] = j, key_j
            n_order += 1
        for o in range(n_order):
            j = order[o]
            p = sq_pid[j]
            size_g = ZERO
            for k in range(sq_lo[j], sq_hi[j]):
                if live[sq_items[k]]:
                    group[size_g] = sq_items[k]
                    size_g += 1
            r = rq_seg[p]
            if r >= 0 and _live_ends(rq_items, rq_lo[r], rq_hi[r], live)[2] > 0:
                limit = write_threshold if write[group[0]] else read_threshold
                g_start, g_end = first[group[0]], last[group[size_g - 1]]
                if g_end - g_start < limit:
                    # absorb the process's new structures that arrive within its wait;
                    # the code's index runs on past an absorbed entry (defects: one skipped)
                    skip = False
                    for k in range(rq_lo[r], rq_hi[r]):
                        i = rq_items[k]
                        if not live[i]:
                            continue
                        if skip:
                            skip = False
                            continue
                        if first[i] - g_end <= wait[p] and last[i] - g_start <= limit:
                            group[size_g] = i
                            size_g += 1
                            g_end = last[i]
                            live[i] = False
                            skip = defects
            for k in range(size_g):
                times[k] = first[group[k]]
                hdd[nh] = group[k]
                nh += 1
            anticipation += last[group[size_g - 1]] * size_g - _pairwise_sum(times, size_g)
        # the window's lists are the next window's staged groups
        for j in range(n_rq):
            rq_seg[rq_pid[j]] = -1
        for k in range(end - start):  # (loops, not slice copies: see the gaps' shift)
            sq_items[k] = rq_items[k]
        for j in range(n_rq):
            sq_pid[j], sq_lo[j], sq_hi[j] = rq_pid[j], rq_lo[j], rq_hi[j]
        n_sq = n_rq
    return hdd[:nh], ssd[:ns], anticipation, decisions


def bid_orders(s: pd.DataFrame, options: ModeAOptions, hybrid: bool):
    """:func:`storrepro.papers.bid.mode_a.bid_python` with :func:`bid_windows`."""
    pid_values, pid = np.unique(s.pid.to_numpy(dtype=np.int64), return_inverse=True)
    room = np.empty(len(s) + 1, dtype=np.int64)  # the VFS-SSD table: an interval per structure
    vfs = Vfs(room, room.copy(), room[:1], np.empty(1), np.empty((1, 3), dtype=np.int64))
    o = options
    return bid_windows(pid, s.op.to_numpy() == "W", s.lba.to_numpy(dtype=np.int64),
                       s["size"].to_numpy(dtype=np.int64), s.first_ts.to_numpy(dtype=float),
                       s.last_ts.to_numpy(dtype=float), len(pid_values), o.window, o.history,
                       o.wait_default, o.read_threshold, o.write_threshold, o.pf_threshold,
                       hybrid, o.defects, vfs, np.zeros(1, dtype=COUNTERS))  # fmt: skip
