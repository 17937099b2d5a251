"""Fast kernel: the cloud-store model of ``sim/cloud_store.py`` as one numba-compiled event loop.

Same system, same semantics (A6), same random streams: request i's task delays come from row i
of the pre-drawn blocks (:meth:`TaskDelayModel.draw`), exactly as the simpy store's sampler draws
one block per admitted request, and requests are admitted in arrival order. Arrival times are
advanced as simpy's replay does (t ← t + (a_i − t)), costs are summed in the same order, so a
test (``tests/test_tofec_kernel.py``) finds every request's code, times and cost identical.

Why it is exact and fast: the task queue only ever holds tasks of the most recently admitted
request (a request is admitted only when the task queue is empty), so it is a single pointer;
the request queue is FIFO by arrival, so it is a range of indices; the L threads are arrays.
The next completion (earliest end, lowest thread among equals, as a scan finds it) is updated
as tasks start and found by scanning the threads only after some were freed, and a finished
request's running tasks are found in one pass over the threads.
"""

from __future__ import annotations

import math

import numba
import numpy as np

from storrepro.papers.tofec.delay import TaskDelayModel, task_delay
from storrepro.papers.tofec.policies import GREEDY, SCHEDULE, STATIC, THRESHOLD
from storrepro.sim.cloud_inputs import DECISION_POINTS
from storrepro.suite.checks import whole

COLUMNS = ("t_arrive", "t_admit", "t_first_start", "t_end", "n", "k", "cost", "queue_length")


# Without the runtime's reference counting (_nrt=False): it allocates nothing, and counting its
# four array arguments on every call (atomic updates) cost a twentieth of the kernel's time.
@numba.njit(cache=True, _nrt=False)
def _choose(kind, ints, floats, ta, tb, q_bar, queue_len, idle, now):
    if kind == 0:  # STATIC
        return ints[0], ints[1], q_bar
    if kind == 1:  # THRESHOLD (TOFEC, fixed-k [3])
        alpha = floats[0]
        q_bar = alpha * q_bar + (1 - alpha) * queue_len
        n = ints[0]
        for t in ta:
            if t > q_bar:
                n += 1
        k = ints[1]
        for t in tb:
            if t > q_bar:
                k += 1
        n = min(n, int(math.floor(floats[1] * k)))
        return max(n, k), k, q_bar
    if kind == 2:  # GREEDY
        k = min(max(idle, 1), ints[0])
        return min(max(idle, k), int(math.floor(floats[0] * k))), k, q_bar
    phase = 0  # SCHEDULE (Ideal)
    for end in ta:
        if now >= end:
            phase += 1
    return ints[2 * phase], ints[2 * phase + 1], q_bar


@numba.njit(cache=True)
def _run(arrivals, blocks, mp, n_threads, file_mb, kind, ints, floats, ta, tb, at_admission):
    count = arrivals.shape[0]
    n_max = blocks.shape[1] // 3
    coef = (mp[0], mp[1], mp[2], mp[3], mp[4], mp[5])
    out_n = np.zeros(count, np.int64)
    out_k = np.zeros(count, np.int64)
    out_q = np.zeros(count, np.int64)
    t_arr = np.zeros(count)
    t_admit = np.full(count, np.nan)
    t_first = np.full(count, np.nan)
    t_end = np.full(count, np.nan)
    cost = np.zeros(count)
    done = np.zeros(count, np.int64)  # completed tasks per request
    th_req = np.full(n_threads, -1, np.int64)
    th_task = np.zeros(n_threads, np.int64)
    th_start = np.zeros(n_threads)
    th_end = np.full(n_threads, np.inf)
    th_delay = np.zeros(n_threads)
    running = np.empty(n_max, np.int64)
    idle = n_threads
    now = 0.0
    q_bar = 0.0
    arrived = 0  # requests that have arrived
    admitted = 0  # requests admitted (FIFO): waiting = arrived - admitted
    in_service = 0
    tq_req = -1  # the one request whose tasks may be queued
    tq_next = 0  # its next task index; queued tasks = n - tq_next
    tq_chunk = 0.0  # its chunk size (MB), divided once per request rather than per task
    finished = 0
    t_c = np.inf  # the next completion: the earliest end, on the lowest thread among equals
    th_c = -1
    rescan = False  # set when threads are freed; a started task updates (t_c, th_c) itself
    free = 0  # no idle thread below this one: lowered as threads are freed, and a task starts
    # on the lowest idle thread, so none is idle up to it
    while finished < count:
        if rescan:
            t_c = np.inf
            th_c = -1
            for th in range(n_threads):  # an idle thread's end is inf: never the next event
                if th_end[th] < t_c:
                    t_c = th_end[th]
                    th_c = th
            rescan = False
        if arrived < count and arrivals[arrived] - now + now < t_c:
            # ---- arrival (simpy replay: timeout(a - now)) ----
            now = now + (arrivals[arrived] - now)
            i = arrived
            t_arr[i] = now
            waiting = arrived - admitted
            if not at_admission:
                n, k, q_bar = _choose(kind, ints, floats, ta, tb, q_bar, waiting, idle, now)
                out_n[i] = n
                out_k[i] = k
            out_q[i] = waiting
            arrived += 1
        else:
            # ---- task completion ----
            now = t_c
            r = th_req[th_c]
            cost[r] += th_delay[th_c]
            done[r] += 1
            th_req[th_c] = -1
            th_end[th_c] = np.inf
            free = min(free, th_c)
            idle += 1
            rescan = True
            if done[r] == out_k[r]:
                if tq_req == r:
                    tq_next = out_n[r]  # cancel its queued tasks: they never start
                running[:] = -1  # its running tasks' threads, by task index
                for th in range(n_threads):
                    if th_req[th] == r:
                        running[th_task[th]] = th
                for j in range(n_max):  # interrupt them, in start order (task index)
                    th = running[j]
                    if th >= 0:
                        cost[r] += now - th_start[th]
                        th_req[th] = -1
                        th_end[th] = np.inf
                        free = min(free, th)
                        idle += 1
                t_end[r] = now
                in_service -= 1
                finished += 1
        # ---- dispatch ----
        while idle > 0:
            if tq_req >= 0 and tq_next < out_n[tq_req]:
                r = tq_req
                for th in range(free, n_threads):
                    if th_req[th] < 0:
                        break
                free = th + 1
                j = tq_next
                x, y, s = blocks[r, j], blocks[r, n_max + j], blocks[r, 2 * n_max + j]
                d = task_delay(x, y, s, tq_chunk, coef)
                th_req[th] = r
                th_task[th] = tq_next
                th_start[th] = now
                th_delay[th] = d
                th_end[th] = now + d
                if th_end[th] < t_c or (th_end[th] == t_c and th < th_c):
                    t_c = th_end[th]
                    th_c = th
                if tq_next == 0:  # its first task
                    t_first[r] = now
                tq_next += 1
                idle -= 1
            elif admitted < arrived:
                r = admitted
                admitted += 1
                if at_admission:  # the head-of-line request's code, chosen as it leaves the queue
                    n, k, q_bar = _choose(
                        kind, ints, floats, ta, tb, q_bar, arrived - admitted, idle, now
                    )
                    out_n[r] = n
                    out_k[r] = k
                t_admit[r] = now
                in_service += 1
                tq_req = r
                tq_next = 0
                tq_chunk = file_mb / out_k[r]
            else:
                break
    return t_arr, t_admit, t_first, t_end, out_n, out_k, cost, out_q


def simulate(
    policy,
    model: TaskDelayModel,
    arrivals: np.ndarray,
    blocks: np.ndarray,
    n_threads: int = 16,
    file_mb: float = 3.0,
) -> dict[str, np.ndarray]:
    """Serve requests arriving at ``arrivals`` (ms, sorted) under ``policy``; one row per request.

    ``blocks[i]`` are request i's standard variates (``model.draw(rng, len(arrivals))``).
    Returns arrays named by :data:`COLUMNS`; ``queue_length`` is Q seen on arrival. A policy
    with ``decide_at = "admission"`` (head-of-line Ideal) picks each request's code when it
    leaves the request queue, as the simpy store's ``decide_at="admission"`` does; every other
    policy picks it on arrival.
    """
    arrivals = np.ascontiguousarray(arrivals, dtype=float)
    if arrivals.ndim != 1 or np.any(np.diff(arrivals) < 0) or (arrivals.size and arrivals[0] < 0):
        raise ValueError("arrivals must be a 1-D non-decreasing array of times >= 0 ms")
    if blocks.shape != (arrivals.size, model.block_size):
        raise ValueError(
            f"blocks must have shape ({arrivals.size}, {model.block_size}), got {blocks.shape}"
        )
    n_threads = whole("n_threads", n_threads, minimum=1)
    decide_at = getattr(policy, "decide_at", "arrival")
    if decide_at not in DECISION_POINTS:
        raise ValueError(f"decide_at must be one of {DECISION_POINTS}, got {decide_at!r}")
    kind, ints, floats, ta, tb = policy.kernel_spec().arrays()
    if kind not in (STATIC, THRESHOLD, GREEDY, SCHEDULE):
        raise ValueError(f"unknown policy kind {kind!r}")
    result = _run(
        arrivals,
        np.ascontiguousarray(blocks, dtype=float),
        model.kernel_params(),
        n_threads,
        float(file_mb),
        kind,
        ints,
        floats,
        ta,
        tb,
        decide_at == "admission",
    )
    return dict(zip(COLUMNS, result, strict=True))
