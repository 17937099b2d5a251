"""BID-Hybrid: BID-HDD plus initial tier placement of non-bulky queues on an SSD (bid.md §2.2).

When a staging queue is marked, a queue holding writes is classified by its *packing fraction*
PF = mean write-request size in sectors (E2). PF <= ``pf_threshold`` (20 % of a 1024-sector
request = 204.8 sectors, the authors' code) marks the queue non-bulky: its writes go to the SSD,
into one FIFO per process served round-robin (blk-mq with a FIFO per software queue, A10), and
their LBA ranges enter the VFS-SSD table. Its reads stay on the HDD (A9). Read-only queues are
never classified. Before staging, every arrival is looked up in the VFS-SSD table: the parts
that overlap offloaded ranges (reads or updates) go straight to the SSD, the rest to BID-HDD.
"""

from __future__ import annotations

import bisect
import math
import numbers
from collections import deque

from storrepro.bid.bid_hdd import BIDHDD, StagingQueue
from storrepro.bid.request import BlockRequest

#: The authors' threshold: 20 % of a full 1024-sector request.
DEFAULT_PF_THRESHOLD = 0.2 * 1024


def packing_fraction(requests) -> float | None:
    """Mean size (sectors) of the write requests; ``None`` for a queue without writes."""
    sizes = [r.size for r in requests if r.op == "W"]
    return sum(sizes) / len(sizes) if sizes else None


class VfsSsdTable:
    """Sector ranges that live on the SSD, kept as sorted disjoint half-open intervals."""

    def __init__(self):
        self._starts: list[int] = []
        self._ends: list[int] = []

    def add(self, lba: int, size: int) -> None:
        start, end = lba, lba + size
        i = bisect.bisect_left(self._ends, start)  # first interval that ends at/after start
        j = bisect.bisect_right(self._starts, end)  # intervals starting after end are kept
        if i < j:
            start = min(start, self._starts[i])
            end = max(end, self._ends[j - 1])
        self._starts[i:j] = [start]
        self._ends[i:j] = [end]

    def split(self, lba: int, size: int) -> list[tuple[int, int, bool]]:
        """Cut [lba, lba + size) into pieces ``(lba, size, on_ssd)`` in LBA order."""
        end = lba + size
        i = bisect.bisect_right(self._ends, lba)
        pieces, pos = [], lba
        while i < len(self._starts) and self._starts[i] < end:
            s, e = max(self._starts[i], pos), min(self._ends[i], end)
            if s > pos:
                pieces.append((pos, s - pos, False))
            pieces.append((s, e - s, True))
            pos = e
            i += 1
        if pos < end:
            pieces.append((pos, end - pos, False))
        return pieces

    def sectors(self) -> int:
        return sum(e - s for s, e in zip(self._starts, self._ends, strict=False))

    def __len__(self) -> int:
        return len(self._starts)


class BIDHybrid(BIDHDD):
    """BID-HDD for the HDD plus the SSD tier; the SSD server calls :meth:`next_ssd`."""

    name = "bid-hybrid"

    def __init__(self, pf_threshold: float = DEFAULT_PF_THRESHOLD, **bid_options):
        if (
            isinstance(pf_threshold, bool)
            or not isinstance(pf_threshold, numbers.Real)
            or not math.isfinite(pf_threshold)
            or pf_threshold < 0
        ):
            raise ValueError(
                f"pf_threshold must be a finite number >= 0 sectors, got {pf_threshold!r}"
            )
        super().__init__(**bid_options)
        self.pf_threshold = float(pf_threshold)
        self.table = VfsSsdTable()
        self._ssd: dict[int, deque[BlockRequest]] = {}
        self._ssd_count = 0
        #: (time, pid, PF, "ssd"/"hdd") for every classified (write-holding) queue.
        self.decisions: list[tuple[float, int, float, str]] = []
        #: requests sent to the SSD because the VFS-SSD table held (part of) their sectors.
        self.vfs_hits = {"R": 0, "W": 0}

    def add(self, request: BlockRequest, now: float) -> None:
        pieces = self.table.split(request.lba, request.size) if len(self.table) else None
        if not pieces or (len(pieces) == 1 and not pieces[0][2]):
            super().add(request, now)
            return
        self._fire(now)
        self.vfs_hits[request.op] += 1
        for lba, size, on_ssd in pieces:
            piece = BlockRequest(
                lba, size, request.op, request.pid, request.arrival, list(request.members)
            )
            if on_ssd:
                self._to_ssd(piece)
            else:
                super().add(piece, now)

    def _to_ssd(self, request: BlockRequest) -> None:
        self._ssd.setdefault(request.pid, deque()).append(request)
        self._ssd_count += 1

    def _place(self, sq: StagingQueue) -> None:
        pf = packing_fraction(sq.requests)
        if pf is None:
            super()._place(sq)
            return
        at = self.flush_log[-1][0]
        if pf > self.pf_threshold:
            self.decisions.append((at, sq.pid, pf, "hdd"))
            super()._place(sq)
            return
        self.decisions.append((at, sq.pid, pf, "ssd"))
        reads = []
        for request in sq.requests:
            if request.op == "W":
                self.table.add(request.lba, request.size)
                self._to_ssd(request)
                self._count -= 1
            else:
                reads.append(request)
        if reads:
            sq.requests = reads
            super()._place(sq)

    def next_ssd(self, now: float) -> BlockRequest | None:
        """The SSD's next request: round-robin over the per-process FIFOs."""
        self._fire(now)
        if not self._ssd:
            return None
        pid = next(iter(self._ssd))
        queue = self._ssd.pop(pid)
        request = queue.popleft()
        if queue:
            self._ssd[pid] = queue  # re-insert at the end: round robin
        self._ssd_count -= 1
        return request

    def __len__(self) -> int:
        return self._count + self._ssd_count

    def __repr__(self) -> str:
        return super().__repr__()[:-1] + f", pf_threshold={self.pf_threshold:g})"
