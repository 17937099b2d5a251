"""The paper's toy example (Table 1, Figs 3–9): 12 requests of processes A, B, C on a toy disk.

The toy disk has 100 sectors per track and 100 tracks, so a request touches tracks
``lba // 100`` to ``(lba + size - 1) // 100``. :func:`replay` feeds the requests to a scheduler
in submission order and drains it; :func:`toy_metrics` computes TMD, n, AD and TD_sweep (E3–E5)
over the track sequence, counting the intra-request move of B2 (71→72) as the paper does.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from storrepro.papers.bid.request import BlockRequest
from storrepro.sim.disk_model import seek_metrics

SECTORS_PER_TRACK = 100
TRACKS = 100
PIDS = {"A": 1, "B": 2, "C": 3}

#: Table 1 [T]: name, LBA, size (sectors), direction, expiry (ms from the replay instant k;
#: the five already-expired requests get -5..-1 in their order of expiry Exp#1..Exp#5).
TABLE1 = (
    ("B1", 7125, 40, "W", -5.0),
    ("A1", 305, 24, "R", -4.0),
    ("A2", 340, 24, "R", -3.0),
    ("A3", 370, 24, "R", -2.0),
    ("C1", 1600, 4, "R", -1.0),
    ("B2", 7165, 40, "W", 50.0),
    ("B3", 7205, 40, "W", 53.0),
    ("A4", 410, 24, "R", 60.0),
    ("A5", 440, 24, "R", 65.0),
    ("A6", 470, 24, "R", 100.0),
    ("C2", 1670, 4, "R", 105.0),
    ("B4", 7245, 40, "W", 110.0),
)


def toy_requests(c_writes: bool = False, arrival=None, expire=None) -> list[BlockRequest]:
    """Table 1 as requests (member id = row index). ``c_writes`` turns C1, C2 into writes (Fig. 9).

    ``arrival(i, row)`` gives each arrival time (default 0); ``expire`` = {"R": ms, "W": ms}
    instead back-dates arrivals so that arrival + expire equals the table's expiry (Deadline).
    """
    requests = []
    for i, (name, lba, size, op, expiry) in enumerate(TABLE1):
        if c_writes and name[0] == "C":
            op = "W"
        if expire is not None:
            t = expiry - expire[op]
        else:
            t = 0.0 if arrival is None else arrival(i, name)
        requests.append(BlockRequest(lba, size, op, PIDS[name[0]], t, [i]))
    return requests


def request_name(request: BlockRequest) -> str:
    return TABLE1[request.members[0]][0]


def replay(scheduler, requests, step: float = 0.0, start: float = 0.0):
    """From time ``start``, add ``requests`` at their arrival times and drain ``scheduler``.

    Each dispatch takes ``step`` ms; when the scheduler holds requests but returns none, time
    jumps to its ``next_wakeup``. Returns the requests in dispatch order (SSD-bound requests of
    BID-Hybrid are returned separately: ``(hdd_order, ssd_order)``).
    """
    pending = sorted(requests, key=lambda r: r.arrival)
    now = start
    order, ssd = [], []
    ssd_queue = getattr(scheduler, "ssd", None)
    while pending or len(scheduler) or (ssd_queue is not None and len(ssd_queue)):
        while pending and pending[0].arrival <= now:
            request = pending.pop(0)
            scheduler.add(request, request.arrival)
        request = scheduler.next(now)
        if request is not None:
            order.append(request)
            now += step
            continue
        taken = ssd_queue.next(now) if ssd_queue is not None else None
        if taken is not None:
            ssd.append(taken)
            continue
        wake = scheduler.next_wakeup(now) if hasattr(scheduler, "next_wakeup") else None
        candidates = [t for t in (wake, pending[0].arrival if pending else None) if t is not None]
        if not candidates:
            raise RuntimeError(f"{scheduler!r} holds requests but never releases them")
        now = max(now, min(candidates))
    return (order, ssd) if ssd_queue is not None else order


def tracks(request: BlockRequest) -> list[int]:
    """Tracks a request touches, first to last (one entry if it stays on one track)."""
    first = request.lba // SECTORS_PER_TRACK
    last = (request.lba + request.size - 1) // SECTORS_PER_TRACK
    return list(range(first, last + 1))


def track_sequence(order) -> list[int]:
    return [t for request in order for t in tracks(request)]


def toy_metrics(order) -> dict[str, float]:
    """TMD, n1 (moves >= 1 track), n2 (>= 2), AD = TMD/n1, TD_sweep = TMD/100 (paper E3–E5)."""
    d = np.abs(np.diff(track_sequence(order)))
    n1 = seek_metrics(d, n_tracks=TRACKS, min_distance=1)
    n2 = seek_metrics(d, n_tracks=TRACKS, min_distance=2)
    return {
        "TMD": n1["cylinders_traversed"],
        "n1": n1["movements"],
        "n2": n2["movements"],
        "AD": n1["mean_seek_distance"],
        "TD_sweep": n1["sweeps"],
    }


def ideal_order(requests) -> list[BlockRequest]:
    """The "ideal" oracle of Fig. 7: per-process groups, LBA-sorted, nearest group next."""
    groups: dict[int, list[BlockRequest]] = {}
    for request in requests:
        groups.setdefault(request.pid, []).append(request)
    for group in groups.values():
        group.sort(key=lambda r: r.lba)
    order, head = [], 0
    while groups:
        pid = min(groups, key=lambda p: (abs(groups[p][0].lba - head), p))
        order.extend(groups.pop(pid))
        head = order[-1].end
    return order


def toy_table(orders: dict[str, list[BlockRequest]]) -> pd.DataFrame:
    """One row per scheme: dispatch order, track sequence and the E3–E5 metrics."""
    rows = []
    for scheme, order in orders.items():
        rows.append(
            {
                "scheme": scheme,
                "order": " ".join(request_name(r) for r in order),
                "tracks": " ".join(map(str, track_sequence(order))),
                **toy_metrics(order),
            }
        )
    return pd.DataFrame(rows).set_index("scheme")


#: Deadline dispatches take this long on the toy. The paper's batches need B2 to expire (at
#: 50 ms) between the 8th and 9th dispatch and C2 (105 ms) not before the 11th: any step in
#: [6.25, 7.14) ms does it; 6.5 ms is the middle of that range.
DEADLINE_STEP = 6.5
#: A toy-scaled packing-fraction threshold: 20 % of the toy's largest request (40 sectors).
TOY_PF_THRESHOLD = 0.2 * 40


def every_ms(i, name):
    """Arrival times for :func:`toy_requests`: the i-th request of Table 1 at i ms."""
    return float(i)


def toy_orders() -> dict[str, list[BlockRequest]]:
    """Dispatch orders of every scheme on Table 1, under the timing each figure implies.

    No merging (the paper's toy lists all 12 requests). Noop: all submitted at k, through the
    queue the reading device_queue in force puts in front of it (none under the primary).
    Deadline: expiries as in Table 1, one dispatch per :data:`DEADLINE_STEP`. CFQ (q = 2): one
    submission per ms and the disk first free after the 10th, so C2 and B4 arrive after the
    first round is formed, as the paper's rounds imply. BID-HDD and BID-Hybrid (C1, C2 as
    writes; HDD order only): one submission per ms, a dispatch queue of depth 1 so that the
    order shows the flushed staging queues as Figs 8 and 9 draw them. Ideal: the oracle of Fig. 7.
    """
    from storrepro.papers.bid.bid_hdd import BIDHDD
    from storrepro.papers.bid.cfq import CFQ
    from storrepro.papers.bid.deadline import Deadline
    from storrepro.papers.bid.hybrid import BIDHybrid
    from storrepro.papers.bid.noop import Noop

    deadline = Deadline()
    hybrid, _ = replay(
        BIDHybrid(pf_threshold=TOY_PF_THRESHOLD, sq_merge=False, dq_depth=1),
        toy_requests(c_writes=True, arrival=every_ms),
    )
    return {
        "Noop": replay(Noop(merge=False), toy_requests()),
        "Deadline": replay(deadline, toy_requests(expire=deadline.expire), step=DEADLINE_STEP),
        "CFQ (q=2)": replay(
            CFQ(quantum=2, merge=False), toy_requests(arrival=every_ms), step=1.0, start=9.0
        ),
        "BID-HDD": replay(BIDHDD(sq_merge=False, dq_depth=1), toy_requests(arrival=every_ms)),
        "Ideal": ideal_order(toy_requests()),
        "BID-Hybrid (HDD part)": hybrid,
    }


def bid_order(wait_history: str) -> str:
    """BID-HDD's order of Table 1 as Fig. 8 replays it (:func:`toy_orders`), under a value of
    the reading wait_history (which gaps feed the wait timer)."""
    from storrepro.papers.bid.bid_hdd import BIDHDD

    scheduler = BIDHDD(sq_merge=False, dq_depth=1, wait_history=wait_history)
    return " ".join(request_name(r) for r in replay(scheduler, toy_requests(arrival=every_ms)))


def noop_in_submitted_place(dq_depth: int) -> float:
    """The share of Table 1's requests that Noop, all submitted at k and handed to the disk
    through a queue ``dq_depth`` deep (served C-LOOK), serves in their submitted position: 1 is
    Fig. 4's FIFO order."""
    from storrepro.papers.bid.noop import Noop

    order = replay(Noop(merge=False, dq_depth=dq_depth), toy_requests())
    return float(np.mean([r.members[0] == i for i, r in enumerate(order)]))


def hybrid_offloads() -> dict[str, str]:
    """The toy requests BID-Hybrid sends to the SSD (C1 and C2 as writes), with the toy-scaled
    threshold and with the authors' code's (204.8 sectors, under which B's 40-sector writes are
    'small' too): threshold label -> request names in order."""
    from storrepro.papers.bid.hybrid import DEFAULT_PF_THRESHOLD, BIDHybrid

    out = {}
    for threshold in (TOY_PF_THRESHOLD, DEFAULT_PF_THRESHOLD):
        scheduler = BIDHybrid(pf_threshold=threshold, sq_merge=False, dq_depth=1)
        _, on_ssd = replay(scheduler, toy_requests(c_writes=True, arrival=every_ms))
        out[f"{threshold:g} sectors"] = " ".join(request_name(r) for r in on_ssd)
    return out
