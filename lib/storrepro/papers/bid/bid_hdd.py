"""BID-HDD: per-process staging queues flushed whole by adaptive timers.

Every arrival of process p joins its open staging queue SQ_p (merging with contiguous requests
of p). SQ_p is *marked* when its wait timer (idle timer: ``TS_new + wait``, re-armed on every
enqueue: our reading) or its deadline timer (``TS_old`` + 500 ms once it holds a read, else
``TS_old`` + 5000 ms) expires. A marked queue is closed: later arrivals of p open a
new SQ_p. Marked queues are flushed whole, in marking order and in ascending LBA (equal LBAs
in arrival order), into the dispatch queue DQ, which the disk serves in C-LOOK order (the
lowest LBA at or after the head, else the lowest): "sorted according to LBAs", by default as
deep as the reading ``device_queue`` in force makes it (32 under the primary, a SATA drive's
command queue); at depth 1 it is a plain FIFO of the flushed queues.

The wait timer is the weighted mean of the last ``history`` inter-batch gaps of p, newest
weighted heaviest (weights 1..k), the history starting as ``[wait_default] * k``. A *batch*
is a maximal run of p's arrivals with no other process arriving in between; its gap Δ is
its first arrival minus p's previous arrival. Which gaps enter the history is ``wait_history``:

- ``"every_gap"`` (the primary reading, so the default): every batch's gap, whether or not
  SQ_p is still open — also the first batch after a flush, which opens the next SQ_p with the
  updated wait. The history is kept per process for the whole run (the authors' code records
  every window's gap before it decides whether to absorb the window);
- ``"open_queue"``: a gap only while SQ_p is open. A gap longer than the current wait fires the
  timer first and is never recorded, so the wait can only fall (the earlier rule here);
- ``"reset"``: as ``"open_queue"``, and the history is deleted with its queue ("the wait timer
  is also deleted along with SQ_p"), so each new SQ_p starts from the default.
"""

from __future__ import annotations

import heapq
import math
import numbers
from collections import deque

from storrepro.papers.bid.config import default_option
from storrepro.papers.bid.request import MAX_SECTORS, BlockRequest, DeviceQueue, MergeIndex
from storrepro.suite.checks import finite, whole

#: Which inter-batch gaps enter a process's wait history (module docstring).
WAIT_HISTORY = ("every_gap", "open_queue", "reset")


def weighted_wait(history) -> float:
    """``Σ i·Δ_i / Σ i`` over the history, oldest first (i = 1) and newest last (i = k), ms."""
    if not history:
        raise ValueError("history must hold at least one gap")
    total = 0.0
    for weight, gap in enumerate(history, start=1):
        total += weight * gap
    k = len(history)
    return total / (k * (k + 1) / 2)


def _check_ms(name: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ValueError(f"{name} must be a finite time >= 0 ms, got {value!r}")
    if not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite time >= 0 ms, got {value!r}")
    return float(value)


class StagingQueue:
    """SQ_p: the staged requests of one process and its two timers (absolute times, ms)."""

    __slots__ = (
        "pid",
        "requests",
        "ts_old",
        "ts_new",
        "wait",
        "deadline_at",
        "has_read",
        "version",
        "seq",
    )

    def __init__(self, pid: int, now: float, wait: float, deadline_at: float, seq: int):
        self.pid = pid
        self.requests: list[BlockRequest] = []
        self.ts_old = self.ts_new = now
        self.wait = wait
        self.deadline_at = deadline_at
        self.has_read = False
        self.version = 0
        self.seq = seq

    @property
    def wait_at(self) -> float:
        return self.ts_new + self.wait

    @property
    def expiry(self) -> float:
        return min(self.wait_at, self.deadline_at)


def _lba(request: BlockRequest) -> int:
    return request.lba


class BIDHDD:
    """BID-HDD scheduler (module docstring); times in ms, sizes in sectors."""

    name = "bid-hdd"

    def __init__(
        self,
        wait_default: float = 1000.0,
        history: int = 10,
        read_deadline: float = 500.0,
        write_deadline: float = 5000.0,
        sq_merge: bool = True,
        dq_depth: int | None = None,
        max_sectors: int = MAX_SECTORS,
        wait_history: str | None = None,
        adaptive_wait: bool = True,
    ):
        self.wait_default = _check_ms("wait_default", wait_default)
        self.read_deadline = _check_ms("read_deadline", read_deadline)
        self.write_deadline = _check_ms("write_deadline", write_deadline)
        self.history_length = whole("history", history, minimum=1)
        if dq_depth is None:
            dq_depth = default_option("dq_depth")
        self._device = DeviceQueue(dq_depth)
        self.dq_depth = self._device.depth
        if wait_history is None:
            wait_history = default_option("wait_history")
        if wait_history not in WAIT_HISTORY:
            raise ValueError(f"wait_history must be one of {WAIT_HISTORY}, got {wait_history!r}")
        self.wait_history = wait_history
        self.every_gap = wait_history == "every_gap"
        self.reset_history_on_flush = wait_history == "reset"
        self.adaptive_wait = bool(adaptive_wait)  # False: wait stays wait_default (ablation)
        self.sq_merge = bool(sq_merge)
        self._merger = MergeIndex(max_sectors, per_pid=True) if sq_merge else None
        self.max_sectors = self._merger.max_sectors if sq_merge else int(max_sectors)
        self._open: dict[int, StagingQueue] = {}
        self._history: dict[int, deque] = {}
        self._timers: list[tuple[float, int, int, StagingQueue]] = []
        self._marked: deque[StagingQueue] = deque()
        self._last_pid: int | None = None  # last staged process (forgotten when it is marked)
        self._last_arrival: int | None = None  # process of the last arrival (every_gap)
        self._seen: dict[int, float] = {}  # each process's last arrival, ms (every_gap)
        self._count = 0
        self._seq = 0
        #: (time, pid, wait) every time a wait timer is set, ms.
        self.wait_log: list[tuple[float, int, float]] = []
        #: (time, pid, requests, sectors, cause) for every marked queue; cause "wait"/"deadline".
        self.flush_log: list[tuple[float, int, int, int, str]] = []

    # -- staging -------------------------------------------------------------------------
    def _history_of(self, pid: int) -> deque:
        if pid not in self._history:
            self._history[pid] = deque(
                [self.wait_default] * self.history_length, maxlen=self.history_length
            )
        return self._history[pid]

    def add(self, request: BlockRequest, now: float) -> None:
        if type(now) is not float or not math.isfinite(now):  # fast path for the replay's floats
            finite("now", now, minimum=None, unit="ms")
        self._fire(now)
        pid = request.pid
        sq = self._open.get(pid)
        gap = False
        if (
            self.every_gap
            and self.adaptive_wait
            and self._last_arrival != pid
            and pid in self._seen
        ):  # a new batch of p: its gap enters the history, open queue or not
            self._history_of(pid).append(now - self._seen[pid])
            gap = True
        if sq is None:
            wait = weighted_wait(self._history_of(pid))
            limit = self.read_deadline if request.op == "R" else self.write_deadline
            sq = StagingQueue(pid, now, wait, now + limit, self._seq)
            self._seq += 1
            self._open[pid] = sq
            self.wait_log.append((now, pid, wait))
        elif gap or (not self.every_gap and self._last_pid != pid and self.adaptive_wait):
            history = self._history_of(pid)
            if not gap:
                history.append(now - sq.ts_new)
            sq.wait = weighted_wait(history)
            self.wait_log.append((now, pid, sq.wait))
        self._last_pid = self._last_arrival = pid
        self._seen[pid] = now
        if request.op == "R" and not sq.has_read:
            sq.has_read = True
            sq.deadline_at = min(sq.deadline_at, sq.ts_old + self.read_deadline)
        sq.ts_new = now
        if self._merger is None or self._merger.merge(request) is None:
            if self._merger is not None:
                self._merger.add(request)
            sq.requests.append(request)
            self._count += 1
        sq.version += 1
        heapq.heappush(self._timers, (sq.expiry, sq.seq, sq.version, sq))

    def _fire(self, now: float) -> None:
        """Mark, in expiry order, every open queue whose wait or deadline timer is due."""
        timers = self._timers
        while timers and timers[0][0] <= now:
            expiry, _, version, sq = heapq.heappop(timers)
            if version == sq.version and self._open.get(sq.pid) is sq:
                self._mark(sq, expiry)

    def _mark(self, sq: StagingQueue, at: float) -> None:
        del self._open[sq.pid]
        if self._merger is not None:
            for request in sq.requests:
                self._merger.remove(request)
        if self._last_pid == sq.pid:
            self._last_pid = None
        if self.reset_history_on_flush:
            self._history.pop(sq.pid, None)
        cause = "deadline" if sq.deadline_at <= sq.wait_at else "wait"
        self.flush_log.append(
            (at, sq.pid, len(sq.requests), sum(r.size for r in sq.requests), cause)
        )
        self._place(sq)

    def _place(self, sq: StagingQueue) -> None:
        """Send a marked queue towards the HDD (BID-Hybrid overrides this)."""
        sq.requests.sort(key=_lba)
        sq.requests.reverse()  # pop() then yields ascending LBA, equal LBAs in arrival order
        self._marked.append(sq)

    # -- dispatch ------------------------------------------------------------------------
    def next(self, now: float) -> BlockRequest | None:
        self._fire(now)
        request = self._device.take(self._pop_marked)
        if request is not None:
            self._count -= 1
        return request

    def _pop_marked(self) -> BlockRequest | None:
        """The marked queues' next request (whole queues in marking order, each ascending)."""
        if not self._marked:
            return None
        sq = self._marked[0]
        request = sq.requests.pop()
        if not sq.requests:
            self._marked.popleft()
        return request

    def next_wakeup(self, now: float) -> float | None:
        """When the earliest pending timer fires (``None`` if no queue is open)."""
        timers = self._timers
        while timers:
            expiry, _, version, sq = timers[0]
            if version == sq.version and self._open.get(sq.pid) is sq:
                return expiry if expiry > now else None
            heapq.heappop(timers)
        return None

    def __len__(self) -> int:
        return self._count

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(wait_default={self.wait_default:g}, "
            f"read_deadline={self.read_deadline:g}, write_deadline={self.write_deadline:g}, "
            f"sq_merge={self._merger is not None}, dq_depth={self.dq_depth}, "
            f"wait_history={self.wait_history!r}, adaptive_wait={self.adaptive_wait})"
        )
