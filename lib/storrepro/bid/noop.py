"""Noop: one FIFO with back/front merging into any queued request."""

from __future__ import annotations

from collections import deque

from storrepro.bid.request import MAX_SECTORS, BlockRequest, MergeIndex


class Noop:
    """Serve requests in submission order; merge contiguous same-direction arrivals first."""

    name = "noop"

    def __init__(self, merge: bool = True, max_sectors: int = MAX_SECTORS):
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
        if not self._queue:
            return None
        request = self._queue.popleft()
        if self._merger is not None:
            self._merger.remove(request)
        return request

    def __len__(self) -> int:
        return len(self._queue)

    def __repr__(self) -> str:
        return f"Noop(merge={self._merger is not None})"
