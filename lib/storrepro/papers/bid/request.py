"""The block request the BID schedulers work on, and the merge index they share.

:class:`BlockRequest` is mutable on purpose: a merge grows one queued request instead of
creating a new one, as the kernel's elevator does. ``members`` lists the trace events a request
carries, so every event's completion time (and every sector) can be accounted for after merges
and splits.
"""

from __future__ import annotations

import math
import numbers

from storrepro.sim.disk_model import OPS
from storrepro.suite.checks import whole

#: The largest request the block layer builds (``max_sectors_kb`` = 512 KB), in sectors.
MAX_SECTORS = 1024


#: Sectors, sizes and pids are int64 in the numba kernels.
INT64_END = 2**63


def _check_int(name: str, value, minimum: int) -> int:
    if type(value) is int and minimum <= value < INT64_END:  # fast: the replay makes many
        return value
    return whole(name, value, minimum=minimum, maximum=INT64_END - 1)


class BlockRequest:
    """``size`` sectors from sector ``lba``, direction ``op`` ("R"/"W"), by process ``pid``.

    ``arrival`` is the submission time in ms; ``members`` the trace-event ids it carries.
    """

    __slots__ = ("lba", "size", "op", "pid", "arrival", "members")

    def __init__(self, lba, size, op="R", pid=0, arrival=0.0, members=None):
        self.lba = _check_int("lba (sector)", lba, 0)
        self.size = _check_int("size (sectors)", size, 1)
        if op not in OPS:
            raise ValueError(f"op must be one of {OPS}, got {op!r}")
        self.op = op
        self.pid = _check_int("pid", pid, 0)
        if type(arrival) is not float and not isinstance(arrival, numbers.Real):
            raise ValueError(f"arrival must be a finite time in ms, got {arrival!r}")
        if not math.isfinite(arrival):
            raise ValueError(f"arrival must be a finite time in ms, got {arrival!r}")
        self.arrival = float(arrival)
        self.members = [] if members is None else members

    @property
    def end(self) -> int:
        return self.lba + self.size

    def __repr__(self) -> str:
        return (
            f"BlockRequest(lba={self.lba}, size={self.size}, op={self.op!r}, pid={self.pid}, "
            f"arrival={self.arrival:g})"
        )


class MergeIndex:
    """Back and front merges of contiguous same-direction requests, up to ``max_sectors``.

    With ``per_pid`` a request only merges with requests of its own process (CFQ, BID);
    without it, with any queued request (Noop).
    """

    def __init__(self, max_sectors: int = MAX_SECTORS, per_pid: bool = True):
        self.max_sectors = _check_int("max_sectors", max_sectors, 1)
        self.per_pid = per_pid
        self._by_end: dict[tuple, BlockRequest] = {}
        self._by_start: dict[tuple, BlockRequest] = {}

    def _key(self, request: BlockRequest, lba: int) -> tuple:
        return (request.pid if self.per_pid else None, request.op, lba)

    def add(self, request: BlockRequest) -> None:
        self._by_end[self._key(request, request.end)] = request
        self._by_start[self._key(request, request.lba)] = request

    def remove(self, request: BlockRequest) -> None:
        key = self._key(request, request.end)
        if self._by_end.get(key) is request:
            del self._by_end[key]
        key = self._key(request, request.lba)
        if self._by_start.get(key) is request:
            del self._by_start[key]

    def merge(self, request: BlockRequest) -> BlockRequest | None:
        """Merge ``request`` into a queued one and return it, or return ``None``."""
        target = self._by_end.get(self._key(request, request.lba))
        if target is not None and target.size + request.size <= self.max_sectors:
            del self._by_end[self._key(target, target.end)]
            target.size += request.size
            target.members.extend(request.members)
            self._by_end[self._key(target, target.end)] = target
            return target
        target = self._by_start.get(self._key(request, request.end))
        if target is not None and target.size + request.size <= self.max_sectors:
            del self._by_start[self._key(target, target.lba)]
            target.lba = request.lba
            target.size += request.size
            target.members.extend(request.members)
            self._by_start[self._key(target, target.lba)] = target
            return target
        return None


def _lba(request: BlockRequest) -> int:
    return request.lba


class DeviceQueue:
    """An LBA-sorted queue in front of the disk: BID's dispatch queue, or the disk's own command
    queue (SATA native command queueing) in front of any scheduler (the reading device_queue).

    It holds up to ``depth`` requests the scheduler has dispatched; the disk takes them C-LOOK
    (the lowest LBA at or after where its last request ended, else the lowest; equal LBAs in
    dispatch order). Depth 1 hands the disk the scheduler's order unchanged. A request in the
    queue can no longer merge, and still holds its block-layer slot until the disk takes it.
    """

    def __init__(self, depth: int = 1):
        self.depth = whole("dq_depth", depth, minimum=1)
        self._queue: list[BlockRequest] = []
        self._head = 0

    def take(self, dispatch) -> BlockRequest | None:
        """Top the queue up from ``dispatch()`` (the scheduler's next request, or ``None``),
        then give the disk its next request, or ``None``."""
        while len(self._queue) < self.depth:
            request = dispatch()
            if request is None:
                break
            self._queue.append(request)
        if not self._queue:
            return None
        if self.depth == 1:
            request = self._queue.pop()
        else:
            ahead = [r for r in self._queue if r.lba >= self._head]
            request = min(ahead or self._queue, key=_lba)
            self._queue.remove(request)
        self._head = request.end
        return request

    def __len__(self) -> int:
        return len(self._queue)
