"""The oracle: a lower bound no schedule beats (brute force over every merging and every order
on tiny traces), and a reachable sweep above it."""

import functools
import itertools

import numpy as np
import pandas as pd
import pytest
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import maximum_bipartite_matching

from storrepro.papers.bid import make_scheduler, workload
from storrepro.papers.bid.experiment import simulate
from storrepro.papers.bid.kernel_core import _geometry_arrays, hdd_time
from storrepro.papers.bid.oracle import (
    fewest_chains,
    fewest_requests,
    oracle_bound,
    oracle_floor,
    swept_requests,
)
from storrepro.sim.disk_model import DEFAULT_GEOMETRY, DEFAULT_SSD, hdd_service_time

MAX = 1024


def events(rows):
    return pd.DataFrame(rows, columns=["ts", "pid", "op", "lba", "size"])


def test_a_hand_worked_bound():
    # two reads that chain (one request), a write after them, a read 50 cylinders away; no
    # event crosses a track or a cylinder (SPC = 1008, S = 63), so every variable part is 0
    trace = events([(0.0, 1, "R", 100, 8), (1.0, 2, "R", 108, 8), (2.0, 1, "W", 116, 8),
                    (3.0, 3, "R", 50_000, 8)])  # fmt: skip
    b = oracle_bound(trace)
    # 3 requests x 6.2 ms; cylinder ranges {0 (the head's start), 1, 50}: 2 seeks x 6.6 ms
    assert b["oracle_requests"] == 3
    assert b["oracle_floor_s"] == pytest.approx((3 * 6.2 + 2 * 6.6) / 1000)
    # the best order: the merged reads (a 1-cylinder seek), the write, the far read
    best = (hdd_service_time(100, 16, 0)[0] + hdd_service_time(116, 8, 116)[0]
            + hdd_service_time(50_000, 8, 124)[0])  # fmt: skip
    assert best == pytest.approx(31.8 + 9 * 48 / 484_513)
    assert b["oracle_floor_s"] <= best / 1000 <= b["oracle_sweep_s"]


def test_fewest_requests_by_matching_and_by_the_1024_sector_cut():
    # two readers of [0, 512) in 256-sector halves: two chains; a 768-sector read after it;
    # a write beside it; 5 reads of 300 sectors in a row: 1,500 sectors need 2 requests
    op = np.array([0, 0, 0, 0, 0, 1] + [0] * 5)
    lba = np.array([0, 256, 0, 256, 512, 512, *range(10_000, 11_500, 300)])
    size = np.array([256, 256, 256, 256, 768, 8] + [300] * 5)
    # run [0, 1280): 5 events, matching 256→256 twice and 512→512 once: 2 chains, 1,792
    # sectors need 2; the write: 1; the run of 1,500 sectors: 1 chain, 2 requests
    assert fewest_requests(op, lba, size) == 2 + 1 + 2
    assert fewest_chains(lba[:5], size[:5]) == 2


def scipy_chains(lba, size):
    """Events minus scipy's maximum bipartite matching of ends to starts."""
    n = len(lba)
    rows, cols = np.nonzero((lba + size)[:, None] == lba[None, :])
    graph = csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(n, n))
    return n - int((maximum_bipartite_matching(graph, perm_type="column") >= 0).sum())


def tiny_trace(rng, n):
    """``n`` events in short runs that chain, overlap, cross track and cylinder edges (SPC =
    1,008, S = 63) and pass 1,024 sectors, reads and writes."""
    bases = [0, 950, 2000, 7_000, 300_000]
    rows, pos = [], int(rng.choice(bases))
    for i in range(n):
        if rng.random() < 0.35:
            pos = int(rng.choice(bases)) + 8 * int(rng.integers(0, 3))
        if rng.random() < 0.15 and rows:  # a second reader of an earlier event's sectors
            pos = rows[int(rng.integers(len(rows)))][3]
        size = int(rng.choice([8, 56, 64, 130, 512, 600]))
        rows.append((float(i), i % 3, "W" if rng.random() < 0.3 else "R", pos, size))
        pos += size
    return events(rows)


def chains_of(block, op, lba, size):
    """A block of events as one request (its start and size), or None if it is not one."""
    b = sorted(block, key=lambda i: lba[i])
    if len({op[i] for i in b}) > 1 or sum(size[i] for i in b) > MAX:
        return None
    if any(lba[b[k]] + size[b[k]] != lba[b[k + 1]] for k in range(len(b) - 1)):
        return None
    return lba[b[0]], sum(size[i] for i in b)


def partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for part in partitions(rest):
        for k in range(len(part)):
            yield part[:k] + [[first, *part[k]]] + part[k + 1 :]
        yield [[first], *part]


def best_order(requests, cost):
    """The least total cost of serving ``requests`` (start, size) in any order from sector 0
    (Held–Karp over the orders: exact)."""
    k = len(requests)
    if k == 0:
        return 0.0
    ends = [s + z for s, z in requests]
    dp = {(1 << j, j): cost(*requests[j], 0) for j in range(k)}
    for mask in range(1, 1 << k):
        for last in range(k):
            if (mask, last) not in dp:
                continue
            for j in range(k):
                if not mask >> j & 1:
                    key = (mask | 1 << j, j)
                    c = dp[(mask, last)] + cost(*requests[j], ends[last])
                    if c < dp.get(key, np.inf):
                        dp[key] = c
    return min(dp[((1 << k) - 1, j)] for j in range(k))


def brute_force(trace, cost, may_ssd=None):
    """The least cumulative device time over every merging and every order; with ``may_ssd``
    (per event), each request of such events may go to the SSD instead, at its page cost."""
    op, lba, size = trace.op.tolist(), trace.lba.tolist(), trace["size"].tolist()
    best = np.inf
    for part in partitions(list(range(len(trace)))):
        requests = [chains_of(b, op, lba, size) for b in part]
        if any(r is None for r in requests):
            continue
        movable = [j for j, b in enumerate(part) if may_ssd is not None and all(may_ssd[b])]
        for k in range(len(movable) + 1):
            for gone in itertools.combinations(movable, k):
                ssd = sum(ssd_cost(*requests[j], op[part[j][0]]) for j in gone)
                hdd = [r for j, r in enumerate(requests) if j not in gone]
                best = min(best, ssd + best_order(hdd, cost))
    return best


def ssd_cost(lba, size, op):
    pages = -(-size * DEFAULT_SSD.sector_bytes // DEFAULT_SSD.page_bytes)
    per = DEFAULT_SSD.write_ms_per_page if op == "W" else DEFAULT_SSD.read_ms_per_page
    return pages * per


@functools.cache
def authors(lba, size, head):
    return hdd_service_time(lba, size, head)[0]


GI, MODERN = _geometry_arrays(DEFAULT_GEOMETRY, modern=True)


@functools.cache
def modern(lba, size, head):
    return hdd_time(lba, size, head, GI, MODERN)[0]


@pytest.mark.parametrize("model", ["authors", "modern"])
def test_no_merging_and_no_order_beats_the_bound_on_tiny_traces(model):
    rng = np.random.default_rng(30)
    cost = authors if model == "authors" else modern
    tight = 0
    for case in range(400):
        trace = tiny_trace(rng, int(rng.integers(2, 8)))
        b = oracle_bound(trace, modern_disk=model == "modern")
        best = brute_force(trace, cost)
        assert b["oracle_floor_s"] * 1000 <= best + 1e-9, (case, trace)
        assert best <= b["oracle_sweep_s"] * 1000 + 1e-9, (case, trace)  # the sweep is a schedule
        tight += b["oracle_floor_s"] * 1000 > best - 1e-9
        lba, size = trace.lba.to_numpy(), trace["size"].to_numpy()
        assert fewest_chains(lba, size) == scipy_chains(lba, size)
    assert tight >= 20  # the bound is the optimum itself on some (82 and 32 of the 400 here)


def test_no_placement_beats_the_tiered_bound_on_tiny_traces():
    rng = np.random.default_rng(31)
    for case in range(150):
        trace = tiny_trace(rng, int(rng.integers(2, 6)))
        b = oracle_bound(trace)
        w = trace.op == "W"
        ends = trace.lba + trace["size"]
        reread = np.array([(w & (trace.lba < e) & (ends > s)).any()
                           for s, e in zip(trace.lba, ends, strict=True)])  # fmt: skip
        best = brute_force(trace, authors, (w | reread).to_numpy())
        assert b["oracle_tiered_s"] * 1000 <= best + 1e-9, (case, trace)
        assert b["oracle_tiered_s"] <= b["oracle_floor_s"]


def test_the_sweep_merges_greedily_and_serves_in_one_pass():
    trace = events([(0.0, 1, "R", 512, 768), (1.0, 2, "R", 0, 256), (2.0, 3, "R", 256, 256),
                    (3.0, 1, "W", 512, 8)])  # fmt: skip
    m = swept_requests(trace)
    assert m.values.tolist() == [["R", 0, 512], ["R", 512, 768], ["W", 512, 8]]


@pytest.mark.parametrize("name", ["WordCount", "TeraSort"])
def test_no_scheduler_beats_the_bound(name):
    trace = workload.generate(name, 3000, np.random.default_rng(4))
    bound = oracle_bound(trace)
    assert bound["oracle_tiered_s"] <= bound["oracle_floor_s"] <= bound["oracle_sweep_s"]
    for s in ("noop", "cfq-q8", "bid-hdd"):
        for depth in (1, 32):
            used = simulate(trace, make_scheduler(s, dq_depth=depth)).requests.service.sum()
            assert used / 1000 >= bound["oracle_floor_s"]
    hybrid = simulate(trace, make_scheduler("bid-hybrid")).requests.service.sum() / 1000
    assert hybrid >= bound["oracle_tiered_s"]


def test_the_modern_disk_charges_rotation_only_off_the_head_and_a_transfer_term():
    from storrepro.papers.bid.kernel_core import _geometry_arrays, hdd_time
    from storrepro.sim.disk_model import DEFAULT_GEOMETRY

    gi, gf = _geometry_arrays(DEFAULT_GEOMETRY)
    gi, modern = _geometry_arrays(DEFAULT_GEOMETRY, modern=True)
    authors = hdd_time(2000, 8, 2000, gi, gf)[0]  # 6.2 ms: rotation charged although sequential
    sequential = hdd_time(2000, 8, 2000, gi, modern)[0]
    nearby = hdd_time(2000, 8, 1992 - 400, gi, modern)[0]  # same cylinder, not at the head
    per_sector = 512 / 150e6 * 1e3
    assert authors == pytest.approx(6.2)
    assert sequential == pytest.approx(6.2 - 5.6 + 8 * per_sector)
    assert nearby == pytest.approx(6.2 + 8 * per_sector)
    # the bound charges the modern disk no rotation on a lone request the head need not reach
    trace = events([(0.0, 1, "R", 100_000, 1024)])
    assert (
        oracle_bound(trace, modern_disk=True)["oracle_floor_s"]
        < oracle_bound(trace)["oracle_floor_s"]
    )


@pytest.mark.parametrize("modern", [False, True])
@pytest.mark.parametrize("size", [1, 3000])
def test_the_floor_alone_is_the_bound_s_floor(modern, size):
    trace = workload.generate("WordCount", 3000, np.random.default_rng(4)).head(size)
    floor = oracle_floor(trace, modern_disk=modern)
    assert floor == oracle_bound(trace, modern_disk=modern)["oracle_floor_s"] and floor > 0
