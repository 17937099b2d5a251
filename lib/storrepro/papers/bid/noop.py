"""Noop: one FIFO with back/front merging into any queued request, served in the order submitted
(the paper's Fig. 4), through a queue in front of the disk
(:class:`~storrepro.papers.bid.request.DeviceQueue`, depth ``dq_depth``; by default the depth the
reading ``device_queue`` in force gives the baselines, 1 under the primary: no reordering)."""

from __future__ import annotations

from collections import deque

from storrepro.papers.bid.config import default_option
from storrepro.papers.bid.request import MAX_SECTORS, BlockRequest, DeviceQueue, MergeIndex


class Noop:
    """Serve requests in submission order; merge contiguous same-direction arrivals first."""

    name = "noop"

    def __init__(
        self, merge: bool = True, max_sectors: int = MAX_SECTORS, dq_depth: int | None = None
    ):
        if dq_depth is None:
            dq_depth = default_option("dq_depth", bid=False)
        self._device = DeviceQueue(dq_depth)
        self.dq_depth = self._device.depth
        self._queue: deque[BlockRequest] = deque()
        self.merge = bool(merge)
        self._merger = MergeIndex(max_sectors, per_pid=False) if merge else None
        self.max_sectors = self._merger.max_sectors if merge else int(max_sectors)

    def add(self, request: BlockRequest, now: float) -> None:
        if self._merger is not None:
            if self._merger.merge(request) is not None:
                return
            self._merger.add(request)
        self._queue.append(request)

    def next(self, now: float) -> BlockRequest | None:
        return self._device.take(self._dispatch)

    def _dispatch(self) -> BlockRequest | None:
        if not self._queue:
            return None
        request = self._queue.popleft()
        if self._merger is not None:
            self._merger.remove(request)
        return request

    def __len__(self) -> int:
        return len(self._queue) + len(self._device)

    def __repr__(self) -> str:
        return f"Noop(merge={self._merger is not None}, dq_depth={self.dq_depth})"
