"""CFQ in the paper's semantics.

One queue per process (reads and writes together, as in the paper's Fig. 6), served round-robin
in order of queue creation. Each round takes up to ``quantum`` requests from every non-empty
queue, lowest LBAs first; the round's union is sorted by LBA and dispatched; the next round is
formed when the current one has drained. Arrivals merge only with their own process's queued
(not yet in a round) requests. The rounds' requests go to the disk through a queue
(:class:`~storrepro.papers.bid.request.DeviceQueue`, depth ``dq_depth``; by default the depth the
reading ``device_queue`` in force gives the baselines, 1 under the primary).
"""

from __future__ import annotations

from collections import deque

from storrepro.papers.bid.config import default_option
from storrepro.papers.bid.request import MAX_SECTORS, BlockRequest, DeviceQueue, MergeIndex
from storrepro.suite.checks import whole


def _lba(request: BlockRequest) -> int:
    return request.lba


class CFQ:
    """Per-process round robin with quantum ``quantum`` (requests per process per round)."""

    name = "cfq"

    def __init__(
        self,
        quantum: int = 8,
        merge: bool = True,
        max_sectors: int = MAX_SECTORS,
        dq_depth: int | None = None,
    ):
        self.quantum = whole("quantum", quantum, minimum=1)
        self._queues: dict[int, list[BlockRequest]] = {}
        self._round: deque[BlockRequest] = deque()
        self.merge = bool(merge)
        self._merger = MergeIndex(max_sectors, per_pid=True) if merge else None
        self.max_sectors = self._merger.max_sectors if merge else int(max_sectors)
        self._count = 0
        if dq_depth is None:
            dq_depth = default_option("dq_depth", bid=False)
        self._device = DeviceQueue(dq_depth)
        self.dq_depth = self._device.depth

    def add(self, request: BlockRequest, now: float) -> None:
        if self._merger is not None:
            if self._merger.merge(request) is not None:
                return
            self._merger.add(request)
        self._queues.setdefault(request.pid, []).append(request)
        self._count += 1

    def _form_round(self) -> None:
        batch = []
        for pid in list(self._queues):
            queue = self._queues[pid]
            queue.sort(key=_lba)
            batch.extend(queue[: self.quantum])
            del queue[: self.quantum]
            if not queue:
                del self._queues[pid]
        if self._merger is not None:
            for request in batch:
                self._merger.remove(request)
        batch.sort(key=_lba)
        self._round.extend(batch)

    def next(self, now: float) -> BlockRequest | None:
        request = self._device.take(self._dispatch)
        if request is not None:
            self._count -= 1
        return request

    def _dispatch(self) -> BlockRequest | None:
        if not self._round:
            if not self._queues:
                return None
            self._form_round()
        return self._round.popleft()

    def __len__(self) -> int:
        return self._count

    def __repr__(self) -> str:
        return (
            f"CFQ(quantum={self.quantum}, merge={self._merger is not None}, "
            f"dq_depth={self.dq_depth})"
        )
