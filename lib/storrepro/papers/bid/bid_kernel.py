"""BID-HDD in the replay kernel, the numba twin of :mod:`storrepro.papers.bid.bid_hdd` (and of
BID-Hybrid's tier placement when a queue is marked, :mod:`storrepro.papers.bid.hybrid`).

Staging queues are linked lists of requests; their timers are found by scanning the open queues
(at most one per process) in the Python heap's (expiry, queue) order, a scan a timer event skips
when a floor under every timer (``st.timer_floor``) is still ahead; the wait history is a ring
per process; marked queues form one flat FIFO of requests (they are flushed whole, in marking
order); the dispatch queue is served C-LOOK. The three entry points are BID's events: an arrival
(:func:`_bid_add`), the timers (:func:`_fire`) and a dispatch (:func:`_bid_next`).
"""

from __future__ import annotations

from storrepro.papers.bid.kernel_core import (
    HYBRID,
    INF,
    READ,
    WRITE,
    _device_take,
    _index_add,
    _index_remove,
    _merge,
    _new_request,
    _piece,
    _sort_by_lba,
    _table_add,
    borrowing,
)


@borrowing
def _weighted_wait(hist, p, k):
    """``Σ i·Δ_i / Σ i`` over p's history, oldest first (:func:`bid_hdd.weighted_wait`)."""
    total = 0.0
    for i in range(k):
        total += (i + 1) * hist.gaps[p, (hist.start[p] + i) % k]
    return total / (k * (k + 1) / 2)


@borrowing
def _history_of(hist, p, k, default):
    """Create p's history (``[default] * k``) unless it exists."""
    if not hist.on[p]:
        for i in range(k):
            hist.gaps[p, i] = default
        hist.start[p] = 0
        hist.on[p] = True


@borrowing
def _record_gap(hist, p, k, gap):
    hist.gaps[p, hist.start[p]] = gap
    hist.start[p] = (hist.start[p] + 1) % k


@borrowing
def _log_wait(st, logs, now, p, wait):
    w = st.nwait
    logs.waits[w].t, logs.waits[w].wait, logs.waits[w].pid = now, wait, p
    st.nwait = w + 1


@borrowing
def _place_hdd(reqs, n, st, req, marked):
    """Append a marked queue's requests to the flat marked FIFO, ascending LBA (stable)."""
    _sort_by_lba(reqs, n, req)
    for j in range(n):
        marked[st.mq_tail] = reqs[j]
        st.mq_tail += 1


@borrowing
def _mark(s, at, tsim, opt, st, req, idx, sq, hist, logs, vfs):
    """Mark staging queue ``s`` at time ``at``: log, classify (hybrid) and place it."""
    queue = sq.queues[s]
    p, n = queue.pid, queue.n
    reqs = sq.flushing
    r = queue.head
    sectors = 0
    for j in range(n):
        reqs[j] = r
        sectors += req[r].size
        r = req[r].next
    if opt.merge:
        for j in range(n):
            _index_remove(idx, st, p, reqs[j], req)
    if st.last_pid == p:
        st.last_pid = -1
    if opt.reset_history:
        hist.on[p] = False
    flush = logs.flushes[st.nflush]
    flush.t, flush.pid, flush.n, flush.sectors = at, p, n, sectors
    # the deadline fired if it came no later than the wait timer
    flush.deadline = queue.deadline <= queue.last_at + queue.wait
    st.nflush += 1
    if opt.kind == HYBRID:
        writes, total = 0, 0
        for j in range(n):
            if req[reqs[j]].op == WRITE:
                writes += 1
                total += req[reqs[j]].size
        if writes:
            pf = total / writes
            tier = logs.tiers[st.ndec]
            tier.t, tier.pf, tier.pid = at, pf, p
            st.ndec += 1
            tier.ssd = pf <= opt.pf_threshold
            if tier.ssd:
                reads = 0
                for j in range(n):
                    r = reqs[j]
                    if req[r].op == WRITE:
                        _table_add(vfs, st, req[r].lba, req[r].size)
                        vfs.route_req[st.nroute], vfs.route_t[st.nroute] = r, tsim
                        st.nroute += 1
                        st.count -= 1
                    else:
                        reqs[reads] = r
                        reads += 1
                n = reads
    if n:
        _place_hdd(reqs, n, st, req, sq.marked)


@borrowing
def _earliest(st, sq):
    """The open staging queue whose timer fires first: least (expiry, queue number), as the
    Python scheduler's heap of (expiry, seq, version) pops its valid entries; -1 if none."""
    best = -1
    for j in range(st.n_open):
        s = sq.procs[sq.open_pids[j]].open_of
        e = sq.queues[s].expiry
        if best < 0 or e < sq.queues[best].expiry or (e == sq.queues[best].expiry and s < best):
            best = s
    return best


@borrowing
def _close(p, st, sq):
    """Remove process p's open staging queue from the open list (swap with the last)."""
    j = sq.procs[p].open_place
    last = sq.open_pids[st.n_open - 1]
    sq.open_pids[j], sq.procs[last].open_place = last, j
    st.n_open -= 1
    sq.procs[p].open_of = -1


@borrowing
def _fire(now, tsim, opt, st, req, idx, sq, hist, logs, vfs):
    """The timer event: mark, in timer order, every staging queue whose timer is due by
    ``now``."""
    if st.timer_floor > now:  # no timer is due: skip the scan
        return
    while True:
        s = _earliest(st, sq)
        if s < 0 or sq.queues[s].expiry > now:
            st.timer_floor = INF if s < 0 else sq.queues[s].expiry
            return
        _close(sq.queues[s].pid, st, sq)
        _mark(s, sq.queues[s].expiry, tsim, opt, st, req, idx, sq, hist, logs, vfs)


@borrowing
def _next_wakeup(now, st, sq):
    """(whether a timer is still to fire after ``now``, its time)."""
    s = _earliest(st, sq)
    if s >= 0 and sq.queues[s].expiry > now:
        return True, sq.queues[s].expiry
    return False, 0.0


@borrowing
def _bid_add(lba, size, op, p, event, now, tsim, opt, st, req, idx, pieces, sq, hist, logs, vfs):
    """BID's arrival: due timers fire first; the request joins p's open staging queue (opened
    with p's current wait if there is none), its wait history takes the new batch's gap, and
    the queue's timer is re-armed."""
    _fire(now, tsim, opt, st, req, idx, sq, hist, logs, vfs)
    k = opt.history
    proc = sq.procs[p]
    s = proc.open_of
    gap = False
    if opt.every_gap and opt.adaptive_wait and st.last_arrival != p and proc.arrived:
        # a new batch of p: its gap enters the history, whether SQ_p is open or not
        _history_of(hist, p, k, opt.wait_default)
        _record_gap(hist, p, k, now - proc.last_seen)
        gap = True
    if s < 0:
        _history_of(hist, p, k, opt.wait_default)
        wait = _weighted_wait(hist, p, k)
        limit = opt.read_deadline if op == READ else opt.write_deadline
        s = st.nsq
        st.nsq += 1
        queue = sq.queues[s]
        queue.pid, queue.head, queue.tail, queue.n, queue.has_read = p, -1, -1, 0, False
        queue.opened_at, queue.last_at, queue.wait, queue.deadline = now, now, wait, now + limit
        proc.open_of, proc.open_place, sq.open_pids[st.n_open] = s, st.n_open, p
        st.n_open += 1
        _log_wait(st, logs, now, p, wait)
    elif gap or (not opt.every_gap and st.last_pid != p and opt.adaptive_wait):
        if not gap:
            _history_of(hist, p, k, opt.wait_default)
            _record_gap(hist, p, k, now - sq.queues[s].last_at)
        sq.queues[s].wait = _weighted_wait(hist, p, k)
        _log_wait(st, logs, now, p, sq.queues[s].wait)
    queue = sq.queues[s]
    st.last_pid = p
    st.last_arrival = p
    proc.last_seen, proc.arrived = now, True
    if op == READ and not queue.has_read:
        queue.has_read = True
        queue.deadline = min(queue.deadline, queue.opened_at + opt.read_deadline)
    queue.last_at = now
    target = -1
    if opt.merge:
        target = _merge(idx, st, req, p, op, lba, size, opt.max_sectors)
    if target < 0:
        target = _new_request(st, req, lba, size, op, p, now)
        if target < 0:
            return
        if opt.merge:
            _index_add(idx, st, p, target, req)
        req[target].next = -1
        if queue.tail < 0:
            queue.head = target
        else:
            req[queue.tail].next = target
        queue.tail = target
        queue.n += 1
        st.count += 1
    _piece(st, pieces, event, target)
    queue.expiry = min(queue.last_at + queue.wait, queue.deadline)  # the (re-armed) timer
    st.timer_floor = min(st.timer_floor, queue.expiry)


@borrowing
def _bid_next(now, tsim, opt, st, req, idx, sq, hist, logs, vfs):
    """BID's dispatch: fire due timers, then top the disk's queue up from the marked queues'
    FIFO and take its next request (:func:`~kernel_core._device_take`); a request id or -1."""
    _fire(now, tsim, opt, st, req, idx, sq, hist, logs, vfs)
    while st.dq_n < opt.dq_depth and st.mq_head < st.mq_tail:
        sq.dq[st.dq_n] = sq.marked[st.mq_head]
        st.dq_n += 1
        st.mq_head += 1
    r = _device_take(opt.dq_depth, st, req, sq.dq)
    if r >= 0:
        st.count -= 1
    return r
