"""Mode A: the authors' released window simulator (steps M1–M5 below).

Not an event-driven simulation. Trace events are packed into request *structures* (M1: maximal
runs of one process and one direction, cut greedily at 1024 sectors, served as one access at the
first event's sector), taken 128 at a time as request-queue windows (M2) and scheduled window by
window (M3); the device times of the dispatched structures are summed (M4, the HDD model of
:mod:`storrepro.sim.hdd` from the previous structure's head position; the SSD's page costs).

Schemes: Noop serves structures in trace order; CFQ applies its rounds (``quantum`` structures
per process, lowest sector first, each round sorted by sector) within each window; BID-HDD stages
each process's structures and, one window later, dispatches them alone (no new structures), on
an expired deadline, or after absorbing the new structures that arrive within the wait timer;
BID-Hybrid first sends structures whose sector the VFS-SSD table holds to the SSD and classifies
each staged group (M5). BID's windows run in Python (:class:`_Bid`) or in its numba twin
(:mod:`~storrepro.papers.bid.mode_a_kernel`, the experiment's).

``defects=False`` fixes the code defects of M6; ``defects=True`` reproduces them: groups handled
in ascending process number (not marking order), absorption that deletes from the list it walks
(the structure after an absorbed one is skipped), staged leftovers after the last window never
dispatched, the head left at the *start* of the structure's last event, SSD pages rounded down,
and the code's hybrid rule (more than half the staged structures <= 20 % full, reads included,
the always-true size clause, reads charged to the SSD). The unit mix of the code's anticipation
term is not reproduced: the cumulative time here is device time only; the staging
anticipation is reported separately, in ms.
"""

from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np
import pandas as pd

from storrepro.papers.bid.bid_hdd import weighted_wait
from storrepro.papers.bid.hybrid import DEFAULT_PF_THRESHOLD, VfsSsdTable
from storrepro.papers.bid.metrics import CYLINDERS
from storrepro.papers.bid.request import MAX_SECTORS
from storrepro.sim.disk_model import DEFAULT_SSD, SSDParams, hdd_service_times

SCHEMES = ("cfq-q8", "cfq-q2", "noop", "bid-hdd", "bid-hybrid")
WINDOW = 128  # request structures per window (the code's nr_requests)


@dataclass(frozen=True)
class ModeAOptions:
    """Mode A's knobs (ms, sectors); the deadlines are Mode B's (the released run used 500/500)."""

    window: int = WINDOW
    read_threshold: float = 500.0
    write_threshold: float = 5000.0
    wait_default: float = 1000.0
    history: int = 10
    pf_threshold: float = DEFAULT_PF_THRESHOLD
    defects: bool = False


@numba.njit(cache=True)
def _pack(run, size, limit):
    """Structure number of every event: a new structure at a new run or at overflow (M1)."""
    out = np.empty(run.shape[0], dtype=np.int64)
    k, fill = -1, 0
    for i in range(run.shape[0]):
        if i == 0 or run[i] != run[i - 1] or fill + size[i] > limit:
            k += 1
            fill = 0
        fill += size[i]
        out[i] = k
    return out


def structures(trace: pd.DataFrame) -> pd.DataFrame:
    """M1: one row per structure (pid, op, lba, size, first_ts, last_ts, last_lba)."""
    pid, op = trace.pid.to_numpy(), trace.op.to_numpy()
    change = np.ones(len(trace), dtype=bool)
    change[1:] = (pid[1:] != pid[:-1]) | (op[1:] != op[:-1])
    size = trace["size"].to_numpy(dtype=np.int64)
    k = _pack(np.cumsum(change), size, MAX_SECTORS)
    g = pd.DataFrame(
        {
            "k": k,
            "pid": pid,
            "op": op,
            "lba": trace.lba.to_numpy(),
            "size": size,
            "ts": trace.ts.to_numpy(),
        }  # fmt: skip
    ).groupby("k", sort=True)
    return pd.DataFrame(
        {
            "pid": g.pid.first(),
            "op": g.op.first(),
            "lba": g.lba.first(),
            "size": g["size"].sum(),
            "first_ts": g.ts.first(),
            "last_ts": g.ts.last(),
            "last_lba": g.lba.last(),
        }
    ).reset_index(drop=True)


def cfq_order_frame(s: pd.DataFrame, window: int, quantum: int) -> np.ndarray:
    """CFQ rounds inside each window: round = rank of the structure's sector within its process
    (the readable form, with pandas; :func:`_cfq_order`, the experiment's, is tested equal)."""
    w = np.arange(len(s)) // window
    frame = pd.DataFrame({"w": w, "pid": s.pid, "lba": s.lba, "i": np.arange(len(s))})
    rank = frame.sort_values(["w", "pid", "lba", "i"]).groupby(["w", "pid"]).cumcount()
    frame["round"] = rank.sort_index() // quantum
    return frame.sort_values(["w", "round", "lba", "i"]).i.to_numpy()


def _cfq_order(s: pd.DataFrame, window: int, quantum: int) -> np.ndarray:
    """:func:`cfq_order_frame` with three stable argsorts: by sector once, then by (window,
    process) and by (window, round), each one integer key; ties keep structure order."""
    n = len(s)
    i = np.arange(n)
    w = i // window
    process = pd.factorize(s.pid)[0]  # any dense numbering: a rank within a process is the same
    by_lba = np.argsort(s.lba.to_numpy(), kind="stable")
    key = (w * (process.max(initial=0) + 1) + process)[by_lba]
    grouped = np.argsort(key, kind="stable")
    by_process, key = by_lba[grouped], key[grouped]  # by (window, process, sector, structure)
    first = np.ones(n, dtype=bool)
    first[1:] = key[1:] != key[:-1]
    rank = np.empty(n, dtype=np.int64)
    rank[by_process] = i - np.maximum.accumulate(np.where(first, i, 0))
    rounds = (w * window + rank // quantum)[by_lba]  # a round is below the window's size
    return by_lba[np.argsort(rounds, kind="stable")]


def _mean(sizes: list[int]) -> float:
    """The mean of integer sizes as numpy takes it: their exact sum over their number."""
    return sum(sizes) / len(sizes)


class _Bid:
    """M3 for one trace: the staged groups, the wait histories and the dispatch lists (the
    Python twin of :func:`~storrepro.papers.bid.mode_a_kernel.bid_windows`)."""

    def __init__(self, s: pd.DataFrame, options: ModeAOptions, hybrid: bool):
        self.o, self.hybrid = options, hybrid
        # Python scalars for the per-structure steps (the same float operations, without
        # numpy's per-scalar overhead); the array of first times for dispatch's sum
        self.pid, self.op = s.pid.tolist(), s.op.tolist()
        self.lba, self.size = s.lba.tolist(), s["size"].tolist()
        self.first, self.last = s.first_ts.tolist(), s.last_ts.tolist()
        self.first_array = s.first_ts.to_numpy()
        self.hdd: list[int] = []
        self.ssd: list[int] = []
        self.anticipation = 0.0
        self.table = VfsSsdTable()
        self.history: dict[int, list[float]] = {}
        self.wait: dict[int, float] = {}
        self.decisions: list[tuple[int, float, str]] = []

    def dispatch(self, group: list[int]) -> None:
        end = self.last[group[-1]]
        self.anticipation += float(end * len(group) - self.first_array[group].sum())
        self.hdd.extend(group)

    def to_ssd(self, group) -> None:
        for i in group:
            if self.op[i] == "W":
                self.table.add(self.lba[i], self.size[i])
        self.ssd.extend(group)

    def classify(self, staged: dict, rq: dict) -> None:
        """M3 d / M5: send non-bulky staged groups to the SSD."""
        for p in list(staged):
            group = staged[p]
            if self.o.defects:  # the code: > half the structures <= 20 % full, reads included
                small = sum(self.size[i] / MAX_SECTORS <= 0.2 for i in group)
                if small <= len(group) // 2:
                    continue
                if p in rq:
                    if not any(self.size[i] < 204 for i in rq[p]):
                        continue
                    group = group + rq.pop(p)
                self.decisions.append((p, _mean([self.size[i] for i in group]), "ssd"))
                self.to_ssd(group)  # reads too (charged to the SSD)
                del staged[p]
                continue
            writes = [i for i in group if self.op[i] == "W"]
            if not writes:
                continue  # read-only groups are never classified
            pf = _mean([self.size[i] for i in writes])
            tier = "ssd" if pf <= self.o.pf_threshold else "hdd"
            self.decisions.append((p, pf, tier))
            if tier == "ssd":
                self.to_ssd(writes)
                reads = [i for i in group if self.op[i] != "W"]
                if reads:
                    staged[p] = reads
                else:
                    del staged[p]

    def absorb(self, group: list[int], new: list[int], wait: float, limit: float) -> None:
        start, end = self.first[group[0]], self.last[group[-1]]
        i = 0
        while i < len(new):
            r = new[i]
            if self.first[r] - end <= wait and self.last[r] - start <= limit:
                group.append(r)
                end = self.last[r]
                del new[i]
                if self.o.defects:
                    i += 1  # the code's index runs on past the deleted entry: one is skipped
                continue
            i += 1

    def window(self, staged: dict, rq: dict) -> None:
        o = self.o
        if self.hybrid and len(self.table):
            holds, lba = self.table.holds, self.lba
            for p in list(rq):
                kept = []
                for i in rq[p]:
                    (self.ssd if holds(lba[i]) else kept).append(i)
                if kept:
                    rq[p] = kept
                else:
                    del rq[p]
        for p, group in staged.items():
            if p not in self.history:
                self.history[p] = [o.wait_default] * o.history
                self.wait[p] = weighted_wait(self.history[p])
            if p in rq:
                self.history[p] = self.history[p][1:] + [
                    self.first[rq[p][0]] - self.last[group[-1]]
                ]
                self.wait[p] = weighted_wait(self.history[p])
        if self.hybrid:
            self.classify(staged, rq)
        order = (
            sorted(staged) if o.defects else sorted(staged, key=lambda q: self.first[staged[q][0]])
        )
        for p in order:
            group = staged[p]
            if p not in rq:
                self.dispatch(group)
                continue
            limit = o.read_threshold if self.op[group[0]] == "R" else o.write_threshold
            if self.last[group[-1]] - self.first[group[0]] < limit:
                self.absorb(group, rq[p], self.wait[p], limit)
                if not rq[p]:
                    del rq[p]
            self.dispatch(group)
        staged.clear()
        staged.update(rq)

    def run(self) -> None:
        staged: dict[int, list[int]] = {}
        n = len(self.pid)
        for start in range(0, n, self.o.window):
            rq: dict[int, list[int]] = {}
            for i in range(start, min(start + self.o.window, n)):
                rq.setdefault(self.pid[i], []).append(i)
            self.window(staged, rq)
        if not self.o.defects:  # the code never dispatches what is left staged
            for p in sorted(staged, key=lambda q: self.first[staged[q][0]]):
                self.dispatch(staged[p])


def bid_python(s: pd.DataFrame, options: ModeAOptions, hybrid: bool):
    """M3 (M5 if ``hybrid``) over the structures ``s`` with :class:`_Bid`: the HDD's and the
    SSD's dispatch orders, the anticipation (ms) and the groups sent to the SSD."""
    bid = _Bid(s, options, hybrid)
    bid.run()
    return (np.asarray(bid.hdd, dtype=np.int64), np.asarray(bid.ssd, dtype=np.int64),
            bid.anticipation, sum(d[2] == "ssd" for d in bid.decisions))  # fmt: skip


def simulate_mode_a(
    trace: pd.DataFrame,
    scheme: str,
    options: ModeAOptions = ModeAOptions(),
    ssd: SSDParams = DEFAULT_SSD,
    packed: pd.DataFrame | None = None,
    bid=bid_python,
) -> dict:
    """Cumulative device time (s) and arm movements of one scheme on one trace, in Mode A.

    ``packed`` may hand in ``structures(trace)``, computed once for the schemes of one trace.
    ``bid`` runs BID-HDD's and BID-Hybrid's windows, as :func:`bid_python` does: that, or its
    numba twin :func:`storrepro.papers.bid.mode_a_kernel.bid_orders` (the experiment's)."""
    if scheme not in SCHEMES:
        raise ValueError(f"scheme must be one of {SCHEMES}, got {scheme!r}")
    s = structures(trace) if packed is None else packed
    ssd_order = np.zeros(0, dtype=np.int64)
    anticipation, ssd_decisions = 0.0, 0
    if scheme == "noop":
        hdd_order = np.arange(len(s))
    elif scheme.startswith("cfq"):
        hdd_order = _cfq_order(s, options.window, int(scheme.split("q")[-1]))
    else:
        hdd_order, ssd_order, anticipation, ssd_decisions = bid(s, options,
                                                                scheme == "bid-hybrid")
    lba, size = s.lba.to_numpy()[hdd_order], s["size"].to_numpy()[hdd_order]
    after = s.last_lba.to_numpy()[hdd_order] if options.defects else lba + size
    head = np.concatenate([[0], after[:-1]]).astype(np.int64)
    hdd_time, distance = hdd_service_times(lba, size, head)
    if options.defects:
        ssd = SSDParams(**{**ssd.__dict__, "rounding": "floor"})
    nbytes = s["size"].to_numpy()[ssd_order] * ssd.sector_bytes
    pages = -(-nbytes // ssd.page_bytes) if ssd.rounding == "ceil" else nbytes // ssd.page_bytes
    per_page = np.where(
        s.op.to_numpy()[ssd_order] == "R", ssd.read_ms_per_page, ssd.write_ms_per_page
    )
    ssd_time = pages * per_page
    return {
        "device_time_s": (hdd_time.sum() + ssd_time.sum()) / 1000,
        "hdd_time_s": hdd_time.sum() / 1000,
        "ssd_time_s": ssd_time.sum() / 1000,
        "structures": len(s),
        "dispatched": len(hdd_order) + len(ssd_order),
        "n2": int((distance >= 2).sum()),
        "TD_sweep": float(distance.sum() / CYLINDERS),
        "anticipation_s": anticipation / 1000,
        "ssd_decisions": ssd_decisions,
    }
