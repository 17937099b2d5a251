"""BID schedulers against the paper's toy example and our hand-worked checks D3–D8."""

import dataclasses

import pytest

from storrepro.papers.bid import (
    BIDHDD,
    CFQ,
    BIDHybrid,
    BlockRequest,
    Deadline,
    Noop,
    VfsSsdTable,
    config,
    make_scheduler,
    packing_fraction,
    toy,
    weighted_wait,
)


def names(order):
    return " ".join(toy.request_name(r) for r in order)


def drain(scheduler, now=0.0):
    out = []
    while (r := scheduler.next(now)) is not None:
        out.append(r)
    return out


# -- D3, D4: the toy example ---------------------------------------------------------------
def test_d3_toy_cfq_order_tracks_and_metrics():
    order = toy.toy_orders()["CFQ (q=2)"]
    assert names(order) == "A1 A2 C1 B1 B2 A3 A4 C2 B3 B4 A5 A6"
    assert toy.track_sequence(order) == [3, 3, 16, 71, 71, 72, 3, 4, 16, 72, 72, 4, 4]
    m = toy.toy_metrics(order)
    # the paper's own terms: 13 + 55 + 1 + 69 + 1 + 12 + 56 + 68 = 275 (it prints 203)
    assert m == {"TMD": 275.0, "n1": 8, "n2": 6, "AD": 34.375, "TD_sweep": 2.75}


def test_d3_cfq_rounds_take_quantum_per_process_then_sort():
    cfq = CFQ(quantum=2, merge=False)
    for i, (lba, pid) in enumerate([(50, 1), (10, 1), (30, 1), (40, 2), (5, 2), (99, 3)]):
        cfq.add(BlockRequest(lba, 1, "R", pid, float(i)), float(i))
    # round 1: pid 1 {10, 30}, pid 2 {5, 40}, pid 3 {99} sorted; round 2: pid 1 {50}
    assert [r.lba for r in drain(cfq)] == [5, 10, 30, 40, 99, 50]
    assert len(cfq) == 0


def test_d4_toy_noop_is_submission_order_and_deadline_the_paper_batches():
    orders = toy.toy_orders()
    assert names(orders["Noop"]) == "B1 A1 A2 A3 C1 B2 B3 A4 A5 A6 C2 B4"
    d = Deadline()
    toy.replay(d, toy.toy_requests(expire=d.expire), step=toy.DEADLINE_STEP)
    batches = [(toy.request_name(r), how) for r, how in d.decisions]
    assert batches == [
        ("B1", "FIFO"), ("A1", "FIFO"), ("A2", "FIFO"), ("A3", "FIFO"), ("C1", "FIFO"),
        ("A4", "SORTED"), ("A5", "SORTED"), ("A6", "SORTED"), ("B2", "FIFO"), ("B3", "FIFO"),
        ("C2", "SORTED"), ("B4", "SORTED"),
    ]  # fmt: skip


def test_toy_bid_and_ideal_group_each_process():
    orders = toy.toy_orders()
    # the ideal order by hand: 3, 3, 3, 4, 4, 4, 16, 16, 71, 71→72, 72, 72 (TMD = 69)
    assert toy.track_sequence(orders["Ideal"]) == [3, 3, 3, 4, 4, 4, 16, 16, 71, 71, 72, 72, 72]
    assert toy.toy_metrics(orders["Ideal"])["TMD"] == 69
    # BID-HDD: each process's queue is flushed whole, in LBA order
    assert names(orders["BID-HDD"]) == "A1 A2 A3 A4 A5 A6 C1 C2 B1 B2 B3 B4"


def test_toy_hybrid_offloads_only_c_at_toy_scale():
    h = BIDHybrid(pf_threshold=toy.TOY_PF_THRESHOLD, sq_merge=False)
    hdd, ssd = toy.replay(h, toy.toy_requests(c_writes=True, arrival=toy.every_ms))
    assert names(ssd) == "C1 C2"
    assert names(hdd) == "A1 A2 A3 A4 A5 A6 B1 B2 B3 B4"


# -- merging ---------------------------------------------------------------------------------
def test_noop_back_and_front_merges_up_to_1024_sectors():
    noop = Noop()
    noop.add(BlockRequest(1000, 256, "R", 1, 0.0, [0]), 0.0)
    noop.add(BlockRequest(1256, 256, "R", 2, 0.0, [1]), 0.0)  # back merge, any process
    noop.add(BlockRequest(744, 256, "R", 1, 0.0, [2]), 0.0)  # front merge
    noop.add(BlockRequest(1512, 512, "R", 1, 0.0, [3]), 0.0)  # would exceed 1024: new request
    noop.add(BlockRequest(2024, 8, "W", 1, 0.0, [4]), 0.0)  # other direction: no merge
    out = drain(noop)
    assert [(r.lba, r.size, sorted(r.members)) for r in out] == [
        (744, 768, [0, 1, 2]),
        (1512, 512, [3]),
        (2024, 8, [4]),
    ]


def test_cfq_merges_only_within_a_process():
    cfq = CFQ(quantum=8)
    cfq.add(BlockRequest(0, 8, "R", 1), 0.0)
    cfq.add(BlockRequest(8, 8, "R", 2), 0.0)
    assert len(cfq) == 2
    cfq.add(BlockRequest(8, 8, "R", 1), 0.0)
    assert len(cfq) == 2 and [r.size for r in drain(cfq)] == [16, 8]


# -- D5, D6: BID timers ----------------------------------------------------------------------
def test_d5_wait_timer_weighted_mean():
    assert weighted_wait([1000.0] * 9 + [10.0]) == pytest.approx(820.0)
    assert weighted_wait([10.0] * 10) == pytest.approx(10.0)


def test_d5_wait_timer_adapts_per_batch():
    bid = BIDHDD(wait_default=1000.0)
    bid.add(BlockRequest(0, 8, "W", 1), 0.0)
    bid.add(BlockRequest(5000, 8, "W", 2), 5.0)  # another process: ends p1's batch
    bid.add(BlockRequest(100, 8, "W", 1), 10.0)  # new batch of p1, gap 10 ms
    waits = [w for t, pid, w in bid.wait_log if pid == 1]
    assert waits == [pytest.approx(1000.0), pytest.approx(820.0)]


def test_d6_writes_only_queue_marks_at_5000_ms():
    bid = BIDHDD(wait_default=1e9)
    bid.add(BlockRequest(0, 8, "W", 1), 0.0)
    assert bid.next(4999.0) is None and bid.next_wakeup(4999.0) == pytest.approx(5000.0)
    assert bid.next(5000.0) is not None
    assert bid.flush_log[0][4] == "deadline"


def test_d6_a_read_pulls_the_deadline_to_500_ms():
    bid = BIDHDD(wait_default=1e9)
    bid.add(BlockRequest(0, 8, "W", 1), 0.0)
    bid.add(BlockRequest(1000, 8, "R", 1), 100.0)
    assert bid.next_wakeup(100.0) == pytest.approx(500.0)
    assert bid.next(499.0) is None
    assert [r.lba for r in drain(bid, 500.0)] == [0, 1000]


def test_wait_timer_is_an_idle_timer_and_marked_queues_are_closed():
    bid = BIDHDD(wait_default=10.0)
    bid.add(BlockRequest(0, 8, "R", 1), 0.0)
    bid.add(BlockRequest(8, 8, "R", 1), 8.0)  # same batch: re-arms at 8 + 10
    assert bid.next(17.0) is None
    first = bid.next(18.0)
    assert (first.lba, first.size) == (0, 16)  # merged in the staging queue
    bid.add(BlockRequest(16, 8, "R", 1), 18.5)  # marked queue closed: a new SQ
    assert len(bid) == 1 and bid.next(19.0) is None


def test_flush_whole_queues_in_marking_order_and_lba_order():
    bid = BIDHDD(wait_default=10.0, sq_merge=False, dq_depth=1)
    for t, (lba, pid) in enumerate([(900, 1), (100, 1), (500, 2), (300, 1), (50, 2)]):
        bid.add(BlockRequest(lba, 8, "R", pid), float(t))
    # p1 last enqueued at t=3 (wait 10 ms history default: its timers are at 13 and 14)
    assert [r.lba for r in drain(bid, 100.0)] == [100, 300, 900, 50, 500]


def test_a_deep_dispatch_queue_is_served_c_look_from_the_head():
    bid = BIDHDD(wait_default=10.0, sq_merge=False)  # 32 deep by default
    assert bid.dq_depth == 32
    for t, (lba, pid) in enumerate([(900, 1), (100, 1), (500, 2), (300, 1), (50, 2)]):
        bid.add(BlockRequest(lba, 8, "R", pid), float(t))
    first = bid.next(100.0)  # both queues marked: all five in the DQ, head at 0
    bid._device._head = 400  # C-LOOK: ascending from the head, then wrap to the lowest
    rest = [r.lba for r in drain(bid, 100.0)]
    assert first.lba == 50 and rest == [500, 900, 100, 300]


# -- the wait history (reading wait_history) --------------------------------------------------
def batches(bid, gaps, pid=1, other=2):
    """Batches of one request of ``pid``, the next one ``gap`` ms after the previous, each
    followed by a request of another process (which ends the batch)."""
    t = 0.0
    bid.add(BlockRequest(0, 8, "W", pid), t)
    for i, gap in enumerate(gaps):
        bid.add(BlockRequest(10**7 + 8 * i, 8, "W", other), t + 0.5)
        t += gap
        bid.next(t - 1e-9)  # the disk pulls: timers due before the arrival fire
        bid.add(BlockRequest(8 * (i + 1), 8, "W", pid), t)
    return [w for _, p, w in bid.wait_log if p == pid]


def test_a_growing_gap_grows_the_wait_timer_under_every_gap():
    # gaps of 5 ms settle the wait near 5 ms; then the process pauses 200 ms between batches
    gaps = [5.0] * 15 + [200.0] * 5
    waits = batches(BIDHDD(wait_default=1000.0, write_deadline=1e9), gaps)
    settled, after = waits[15], waits[-1]
    assert settled == pytest.approx(5.0)
    # every 200 ms gap is recorded although it fires the timer (the queue is flushed first)
    assert after > 100.0 and waits[16:] == sorted(waits[16:])


def test_the_open_queue_rule_locks_the_wait_in():
    gaps = [5.0] * 15 + [200.0] * 5
    bid = BIDHDD(wait_default=1000.0, write_deadline=1e9, wait_history="open_queue")
    waits = batches(bid, gaps)
    # a 200 ms gap fires the ~5 ms timer first: it is never recorded, the wait stays low
    assert max(waits[16:]) == pytest.approx(5.0)


def test_the_reset_rule_starts_every_queue_from_the_default():
    bid = BIDHDD(wait_default=1000.0, write_deadline=1e9, wait_history="reset")
    waits = batches(bid, [5.0] * 3 + [2000.0])
    assert waits[-1] == 1000.0  # the new queue after the flush: history deleted


def test_every_gap_is_recorded_once_per_batch():
    bid = BIDHDD(wait_default=1000.0)
    bid.add(BlockRequest(0, 8, "W", 1), 0.0)
    bid.add(BlockRequest(8, 8, "W", 1), 1.0)  # same batch: no gap
    bid.add(BlockRequest(5000, 8, "W", 2), 2.0)  # p2's first arrival: no history yet
    bid.add(BlockRequest(16, 8, "W", 1), 10.0)  # new batch of p1: gap 10 - 1 = 9 ms
    assert [(p, w) for _, p, w in bid.wait_log] == [
        (1, 1000.0),
        (2, 1000.0),
        (1, pytest.approx((1000.0 * 45 + 9.0 * 10) / 55)),
    ]


def test_bad_wait_history():
    with pytest.raises(ValueError, match="wait_history"):
        BIDHDD(wait_history="sometimes")


# -- D7: packing fraction and the VFS-SSD table ----------------------------------------------
def test_d7_packing_fraction_classification():
    def pf(sizes, op="W"):
        return packing_fraction([BlockRequest(i * 4096, s, op, 1) for i, s in enumerate(sizes)])

    assert pf([8, 8, 1024]) == pytest.approx(346.6667, abs=1e-3)
    assert pf([8, 16, 32]) == pytest.approx(18.6667, abs=1e-3)
    assert pf([8, 16], op="R") is None
    h = BIDHybrid(wait_default=50.0, sq_merge=False)  # one staging queue per process
    for i, s in enumerate([8, 8, 1024]):
        h.add(BlockRequest(i * 4096, s, "W", 1), 0.0)
    for i, s in enumerate([8, 16, 32]):
        h.add(BlockRequest(10**6 + i * 4096, s, "W", 2), 0.0)
    h.add(BlockRequest(10**7, 8, "R", 3), 0.0)
    hdd, ssd = drain(h, 100.0), []
    while (r := h.ssd.next(100.0)) is not None:
        ssd.append(r)
    assert sorted(r.pid for r in hdd) == [1, 1, 1, 3] and [r.pid for r in ssd] == [2, 2, 2]


def test_vfs_ssd_table_routes_later_accesses_and_splits_overlaps():
    table = VfsSsdTable()
    table.add(100, 50)
    table.add(150, 10)  # adjacent: one interval
    table.add(300, 20)
    assert len(table) == 2 and table.sectors() == 80
    assert table.split(90, 240) == [
        (90, 10, False),
        (100, 60, True),
        (160, 140, False),
        (300, 20, True),
        (320, 10, False),
    ]
    h = BIDHybrid(wait_default=0.0)
    h.add(BlockRequest(0, 16, "W", 1, 0.0, [0]), 0.0)
    assert h.next(0.0) is None and h.ssd.next(0.0).lba == 0 and len(h) == 0
    h.add(BlockRequest(8, 16, "R", 2, 1.0, [1]), 1.0)  # half on the SSD, half not
    assert h.vfs_hits["R"] == 1
    ssd, hdd = h.ssd.next(1.0), h.next(2.0)
    assert (ssd.lba, ssd.size, hdd.lba, hdd.size) == (8, 8, 16, 8)
    assert ssd.members == hdd.members == [1]


# -- D8: degenerate equivalences ---------------------------------------------------------------
def test_d8_bid_with_zero_timers_flushes_in_arrival_order():
    reqs = [(900, 1), (100, 2), (500, 1), (300, 3), (50, 2)]
    bid = BIDHDD(
        wait_default=0.0, read_deadline=0.0, write_deadline=0.0, sq_merge=False, dq_depth=1
    )
    noop = Noop(merge=False)
    for t, (lba, pid) in enumerate(reqs):
        for sched in (bid, noop):
            sched.add(BlockRequest(lba, 8, "R", pid), float(t))
    out_bid, out_noop = drain(bid, 10.0), drain(noop, 10.0)
    assert [r.lba for r in out_bid] == [r.lba for r in out_noop] == [900, 100, 500, 300, 50]


def test_d8_hybrid_with_zero_threshold_is_bid_hdd():
    def run(s):
        for t, (lba, size, op, pid) in enumerate(
            [(0, 8, "W", 1), (8000, 16, "W", 2), (8, 8, "W", 1), (90000, 256, "R", 3)]
        ):
            s.add(BlockRequest(lba, size, op, pid), float(t))
        return [(r.lba, r.size) for r in drain(s, 5000.0)]

    assert run(BIDHybrid(pf_threshold=0.0)) == run(BIDHDD())


# -- bad input ----------------------------------------------------------------------------
@pytest.mark.parametrize(
    "kwargs, match",
    [
        ({"lba": -1, "size": 8}, "lba"),
        ({"lba": 0, "size": 0}, "size"),
        ({"lba": 0, "size": 8, "op": "X"}, "op"),
        ({"lba": 0, "size": 8, "arrival": float("nan")}, "arrival"),
        ({"lba": 0.5, "size": 8}, "lba"),
    ],
)
def test_bad_request(kwargs, match):
    with pytest.raises(ValueError, match=match):
        BlockRequest(**kwargs)


@pytest.mark.parametrize("quantum", [0, -1, 1.5, True])
def test_bad_quantum(quantum):
    with pytest.raises(ValueError, match="quantum"):
        CFQ(quantum=quantum)


def test_bad_scheduler_options():
    with pytest.raises(ValueError, match="unknown scheduler 'bfq'"):
        make_scheduler("bfq")
    with pytest.raises(ValueError, match="wait_default"):
        BIDHDD(wait_default=-1)
    with pytest.raises(ValueError, match="dq_depth"):
        BIDHDD(dq_depth=0)
    with pytest.raises(ValueError, match="pf_threshold"):
        BIDHybrid(pf_threshold=float("inf"))
    with pytest.raises(ValueError, match="read_expire"):
        Deadline(read_expire=-5)
    with pytest.raises(ValueError, match="history"):
        weighted_wait([])


def test_factory_names():
    assert isinstance(make_scheduler("cfq-q2"), CFQ) and make_scheduler("cfq-q2").quantum == 2
    assert make_scheduler("cfq-q8", quantum=3).quantum == 3
    assert type(make_scheduler("bid-hdd")) is BIDHDD


@pytest.mark.parametrize("name", ["noop", "cfq-q8"])
def test_a_deep_device_queue_serves_noop_and_cfq_c_look_and_keeps_their_slots(name):
    from storrepro.papers.bid import make_scheduler
    from storrepro.papers.bid.request import BlockRequest

    s = make_scheduler(name, dq_depth=2)
    for i, lba in enumerate([900, 100, 500, 300]):  # one process each: no merging
        s.add(BlockRequest(lba, 8, "R", i), 0.0)
    assert len(s) == 4
    first = s.next(1.0)  # the disk holds two and takes the lower from head 0
    assert first.lba == 100 and len(s) == 3  # one waits in the disk's queue, two upstream
    # Noop hands over 900, 100, then 500, 300 (FIFO): C-LOOK from 108 takes 500, 900, wraps
    # to 300; CFQ's round is in LBA order already
    expected = [500, 900, 300] if name == "noop" else [300, 500, 900]
    assert [s.next(1.0).lba for _ in range(3)] == expected
    assert s.next(1.0) is None and len(s) == 0


def test_device_queue_depth_is_checked():
    from storrepro.papers.bid.request import DeviceQueue

    for bad in (0, -1, 2.5, True):
        with pytest.raises(ValueError, match="dq_depth must be a whole number >= 1"):
            DeviceQueue(bad)


def test_make_scheduler_and_the_class_defaults_follow_the_readings_in_force(monkeypatch):
    # primary device_queue=bid_only_clook32: the baselines in their own order, BID 32 deep
    assert make_scheduler("cfq-q8").dq_depth == CFQ().dq_depth == Noop().dq_depth == 1
    assert make_scheduler("bid-hdd").dq_depth == BIDHDD().dq_depth == 32
    assert make_scheduler("cfq-q2", "device_queue=all_clook32").dq_depth == 32
    assert make_scheduler("bid-hybrid", "device_queue=all_depth1").dq_depth == 1
    assert make_scheduler("bid-hdd", "wait_history=reset").wait_history == "reset"
    assert make_scheduler("bid-hdd-reset").wait_history == "reset"  # its fixed option wins
    assert make_scheduler("noop", "device_queue=all_clook32", dq_depth=4).dq_depth == 4
    with pytest.raises(ValueError, match="reading 'device_queue=deep'"):
        make_scheduler("noop", "device_queue=deep")
    # another primary moves every default with it
    readings = dict(config.READINGS)
    readings["device_queue"] = dataclasses.replace(readings["device_queue"],
                                                   primary="all_clook32")
    monkeypatch.setattr(config, "READINGS", readings)
    assert Noop().dq_depth == CFQ().dq_depth == BIDHDD().dq_depth == 32
    assert make_scheduler("noop").dq_depth == 32
