"""Deadline in the paper's illustrative semantics, for the toy example.

Reads and writes each have a FIFO (by expiry) and a sorted queue. At every dispatch: if a FIFO
head has expired, serve the earliest-expired head ("FIFO" batches); otherwise serve reads before
writes, lowest LBA first ("SORTED" batches). This is what the paper's six toy batches imply; it
is not the kernel's batching with ``fifo_batch`` and ``writes_starved``. The deadline scheduler
is not part of the paper's evaluation, so it is only used on the toy (linear scans suffice).
"""

from __future__ import annotations

import math
import numbers

from storrepro.papers.bid.request import BlockRequest


def _check_ms(name: str, value) -> float:
    if not isinstance(value, numbers.Real) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite time >= 0 ms, got {value!r}")
    return float(value)


class Deadline:
    """Expiry-first, otherwise reads-first lowest-LBA dispatch (no merging)."""

    name = "deadline"

    def __init__(self, read_expire: float = 500.0, write_expire: float = 5000.0):
        self.expire = {
            "R": _check_ms("read_expire", read_expire),
            "W": _check_ms("write_expire", write_expire),
        }
        self._queues: dict[str, list[tuple[float, int, BlockRequest]]] = {"R": [], "W": []}
        self._seq = 0
        #: (request, "FIFO" or "SORTED") in dispatch order, for the toy figure.
        self.decisions: list[tuple[BlockRequest, str]] = []

    def add(self, request: BlockRequest, now: float) -> None:
        self._queues[request.op].append(
            (request.arrival + self.expire[request.op], self._seq, request)
        )
        self._seq += 1

    def next(self, now: float) -> BlockRequest | None:
        heads = [min(q) for q in self._queues.values() if q]
        if not heads:
            return None
        expired = [h for h in heads if h[0] <= now]
        if expired:
            item, how = min(expired), "FIFO"
        else:
            queue = self._queues["R"] or self._queues["W"]
            item, how = min(queue, key=lambda e: (e[2].lba, e[1])), "SORTED"
        self._queues[item[2].op].remove(item)
        self.decisions.append((item[2], how))
        return item[2]

    def __len__(self) -> int:
        return sum(len(q) for q in self._queues.values())

    def __repr__(self) -> str:
        return f"Deadline(read_expire={self.expire['R']:g}, write_expire={self.expire['W']:g})"
