"""BID-Hybrid: BID-HDD plus initial tier placement of non-bulky queues on an SSD.

When a staging queue is marked, a queue holding writes is classified by its *packing fraction*
PF = mean write-request size in sectors (E2). PF <= ``pf_threshold`` (20 % of a 1024-sector
request = 204.8 sectors, the authors' code) marks the queue non-bulky: its writes go to the SSD,
into one FIFO per process served round-robin (blk-mq with a FIFO per software queue), and
their LBA ranges enter the VFS-SSD table. Its reads stay on the HDD. Read-only queues are
never classified. Before staging, every arrival is looked up in the VFS-SSD table: the parts
that overlap offloaded ranges (reads or updates) go straight to the SSD, the rest to BID-HDD.

The SSD has its own block layer (:class:`SsdQueues`, the scheduler its device pulls from): a
request routed there leaves the HDD's request queue, so ``len()`` of the hybrid counts the HDD
side only, the part the ``rq_limit`` request slots bound.
"""

from __future__ import annotations

import bisect
import math
import numbers
from collections import deque

from storrepro.papers.bid.bid_hdd import BIDHDD, StagingQueue
from storrepro.papers.bid.request import BlockRequest

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

    def holds(self, lba: int) -> bool:
        """Whether sector ``lba`` lives on the SSD."""
        i = bisect.bisect_right(self._starts, lba) - 1
        return i >= 0 and lba < self._ends[i]

    def sectors(self) -> int:
        return sum(e - s for s, e in zip(self._starts, self._ends, strict=False))

    def __len__(self) -> int:
        return len(self._starts)


class SsdQueues:
    """The SSD's block layer: one FIFO per process, served round-robin (blk-mq).

    A process joins the end of the round when its FIFO becomes non-empty; each :meth:`next`
    serves the head of the first process's FIFO and sends that process to the end of the round.
    """

    def __init__(self):
        self._fifos: dict[int, deque[BlockRequest]] = {}
        self._count = 0

    def add(self, request: BlockRequest, now: float) -> None:
        self._fifos.setdefault(request.pid, deque()).append(request)
        self._count += 1

    def next(self, now: float) -> BlockRequest | None:
        if not self._fifos:
            return None
        pid = next(iter(self._fifos))
        fifo = self._fifos.pop(pid)
        request = fifo.popleft()
        if fifo:
            self._fifos[pid] = fifo  # re-insert at the end: round robin
        self._count -= 1
        return request

    def __len__(self) -> int:
        return self._count


class BIDHybrid(BIDHDD):
    """BID-HDD for the HDD plus the SSD tier, whose device pulls from :attr:`ssd`."""

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
        #: the SSD's block layer; requests routed to the SSD wait here.
        self.ssd = SsdQueues()
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
                self.ssd.add(piece, now)
            else:
                super().add(piece, now)

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
                self.ssd.add(request, at)
                self._count -= 1
            else:
                reads.append(request)
        if reads:
            sq.requests = reads
            super()._place(sq)

    def __repr__(self) -> str:
        return super().__repr__()[:-1] + f", pf_threshold={self.pf_threshold:g})"
