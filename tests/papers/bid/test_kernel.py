"""The numba kernel against the simpy reference model, request by request (same traces)."""

import numba
import numpy as np
import pandas as pd
import pytest

from storrepro.papers.bid import Deadline, make_scheduler, workload
from storrepro.papers.bid.experiment import simulate
from storrepro.papers.bid.hybrid import VfsSsdTable
from storrepro.papers.bid.kernel import replay, trace_events
from storrepro.papers.bid.kernel_core import (
    COUNTERS,
    REQUEST,
    Vfs,
    _geometry_arrays,
    _sort_by_lba,
    _table_add,
    hdd_time,
)
from storrepro.sim.disk_checks import HDD_REFERENCE
from storrepro.sim.disk_model import DEFAULT_GEOMETRY, hdd_service_time

SCHEDULERS = ["noop", "cfq-q8", "cfq-q2", "bid-hdd", "bid-hybrid", "bid-hdd-reset"]


@pytest.fixture(scope="module", params=["WordCount", "TeraSort", "WordStdev"])
def trace(request):
    return workload.generate(request.param, 2500, np.random.default_rng(11))


def assert_identical(trace, name, mode="backlogged", rq_limit=128, **options):
    ref = simulate(trace, make_scheduler(name, **options), rq_limit, mode, engine="simpy")
    fast = simulate(trace, make_scheduler(name, **options), rq_limit, mode)
    # every request: device, process, direction, position, size, arrival, start, end, service,
    # cylinder and seek distance, in service order on each device
    pd.testing.assert_frame_equal(fast.requests, ref.requests, check_exact=True)
    np.testing.assert_array_equal(fast.event_completion, ref.event_completion)
    np.testing.assert_array_equal(fast.event_arrival, ref.event_arrival)
    assert fast.leftover == ref.leftover == 0
    for log in ("flushes", "waits", "decisions"):
        a, b = getattr(fast, log), getattr(ref, log)
        assert (a is None) == (b is None)
        if a is not None:
            pd.testing.assert_frame_equal(a, b, check_exact=True, check_dtype=False)
    assert fast.vfs_hits == ref.vfs_hits
    return fast


@pytest.mark.parametrize("name", SCHEDULERS)
@pytest.mark.parametrize("mode", ["backlogged", "open"])
def test_kernel_equals_simpy_model(trace, name, mode):
    fast = assert_identical(trace, name, mode)
    assert len(fast.requests) > 0


@pytest.mark.parametrize(
    "name, options, rq_limit",
    [
        ("bid-hdd", {"dq_depth": 1}, 128),
        ("bid-hdd", {"wait_history": "open_queue"}, 128),
        ("bid-hybrid", {"wait_history": "open_queue", "dq_depth": 1}, 128),
        ("bid-hybrid", {"wait_history": "reset"}, 96),
        ("bid-hdd", {"sq_merge": False, "wait_default": 0.0}, 128),
        ("bid-hybrid", {"write_deadline": 500.0, "pf_threshold": 409.6}, 64),
        ("bid-hdd", {"adaptive_wait": False, "wait_default": 100.0}, 256),
        ("noop", {"merge": False}, 16),
        ("cfq-q2", {"merge": False}, 16),
        # the disk's command queue in front of Noop and CFQ
        ("noop", {"dq_depth": 32}, 128),
        ("noop", {"dq_depth": 31, "merge": False}, 64),
        ("cfq-q8", {"dq_depth": 32}, 128),
        ("cfq-q2", {"dq_depth": 32}, 128),
        ("cfq-q2", {"dq_depth": 4}, 16),
    ],
)
def test_kernel_equals_simpy_model_with_options(name, options, rq_limit):
    trace = workload.generate("WordCount", 2000, np.random.default_rng(5))
    assert_identical(trace, name, rq_limit=rq_limit, **options)
    assert_identical(trace, name, "open", rq_limit, **options)


@pytest.mark.parametrize("name", ["noop", "cfq-q8", "cfq-q2"])
def test_baselines_behind_a_deep_queue_equal_simpy_on_every_workload(trace, name):
    fast = assert_identical(trace, name, dq_depth=32)
    # the queue reorders the disk's work: not the depth-1 order
    shallow = simulate(trace, make_scheduler(name), 128)
    assert not fast.requests.lba.equals(shallow.requests.lba)


def test_hybrid_offloads_and_rereads_in_both_engines():
    trace = workload.generate("WordCount", 3000, np.random.default_rng(2))
    fast = assert_identical(trace, "bid-hybrid")
    assert (fast.requests.device == 1).sum() > 0 and fast.vfs_hits["R"] > 0


def test_a_queue_sent_to_the_ssd_frees_slots_for_the_blocked_replayer_in_both_engines():
    # one process's small scattered writes fill all 8 slots; marking its staging queue sends
    # them to the SSD without an HDD dispatch, which must let the replayer go on (it stalled,
    # and the trace's last 32 events were never served)
    rng = np.random.default_rng(3)
    ops = np.where(np.arange(40) % 10 == 9, "R", "W")  # a few reads keep the HDD busy too
    trace = pd.DataFrame({"ts": np.arange(40) * 0.01, "pid": 0, "op": ops,
                          "lba": rng.integers(0, 10**8, 40) * 8, "size": 8, "kind": "trace"})
    for mode in ("backlogged", "open"):
        for engine in ("kernel", "simpy"):
            run = simulate(trace, make_scheduler("bid-hybrid"), 8, mode, engine=engine)
            assert not np.isnan(run.event_completion).any(), (mode, engine)
            assert run.requests["size"].sum() == trace["size"].sum()
        assert_identical(trace, "bid-hybrid", mode, rq_limit=8)


@pytest.mark.parametrize(("case", "lba", "size", "head", "expected", "d"), HDD_REFERENCE)
def test_kernel_hdd_model_is_the_shared_one(case, lba, size, head, expected, d):
    gi, gf = _geometry_arrays(DEFAULT_GEOMETRY)
    time, distance, _ = hdd_time(lba, size, head, gi, gf)
    assert (time, distance) == tuple(hdd_service_time(lba, size, head))


def test_kernel_rejects_what_it_does_not_model():
    trace = workload.generate("Grep", 500, np.random.default_rng(0))
    with pytest.raises(ValueError, match="engine='simpy'"):
        simulate(trace, Deadline())
    used = make_scheduler("noop")
    simulate(trace.iloc[:5], used, engine="simpy")
    bad = trace.copy()
    bad.loc[3, "size"] = 0
    with pytest.raises(ValueError, match="size >= 1"):
        simulate(bad, make_scheduler("noop"))
    with pytest.raises(ValueError, match="engine"):
        simulate(trace, make_scheduler("noop"), engine="numba")


def test_deadline_runs_on_the_simpy_model():
    trace = workload.generate("Grep", 300, np.random.default_rng(0))
    result = simulate(trace, Deadline(), engine="simpy")
    assert result.leftover == 0 and result.requests["size"].sum() == trace["size"].sum()


@pytest.mark.parametrize("engine", ["kernel", "simpy"])
def test_a_growing_gap_grows_the_wait_timer_in_both_engines(engine):
    # process 1 submits one request per batch, every 5 ms, then every 200 ms; process 2's
    # requests in between end each batch
    rows, t = [], 0.0
    for i, gap in enumerate([5.0] * 15 + [200.0] * 5):
        rows += [(t, 1, "W", 8 * i, 8), (t + 0.5, 2, "W", 10**7 + 8 * i, 8)]
        t += gap
    trace = pd.DataFrame(rows, columns=["ts", "pid", "op", "lba", "size"])
    result = simulate(trace, make_scheduler("bid-hdd", write_deadline=1e9), engine=engine)
    waits = result.waits[result.waits.pid == 1].wait.to_numpy()
    assert waits[15] == pytest.approx(5.0) and waits[-1] > 100.0
    locked = simulate(
        trace,
        make_scheduler("bid-hdd", write_deadline=1e9, wait_history="open_queue"),
        engine=engine,
    )
    assert locked.waits[locked.waits.pid == 1].wait.max() == pytest.approx(1000.0)
    assert locked.waits[locked.waits.pid == 1].wait.iloc[-1] == pytest.approx(5.0)


@pytest.mark.parametrize("name", ["noop", "bid-hybrid"])
def test_records_made_once_replay_as_the_trace_itself(trace, name):
    # a sweep makes a trace's kernel records once and hands them to each of its replays
    events = trace_events(trace)
    for _ in range(2):
        given = replay(trace, make_scheduler(name), events=events)
        made = replay(trace, make_scheduler(name))
        pd.testing.assert_frame_equal(given.requests, made.requests, check_exact=True)
        np.testing.assert_array_equal(given.event_completion, made.event_completion)


def test_trace_events_number_pids_densely_and_reject_other_ops():
    one = pd.DataFrame({"ts": [0.0], "pid": [7], "op": ["W"], "lba": [8], "size": [8]})
    records, pids = trace_events(one)
    assert pids.tolist() == [7] and records["pid"].tolist() == [0] and records["op"].tolist() == [1]
    with pytest.raises(ValueError, match="'R' or 'W'.*'X'"):
        trace_events(one.assign(op=["X"]))


def test_vfs_table_add_equals_the_python_table():
    """The kernel's VFS-SSD table (its shifts index unsigned) against VfsSsdTable, add by add:
    inserts, joins of one or many intervals, touching ends."""
    rng = np.random.default_rng(3)
    table = VfsSsdTable()
    room = np.empty(2001, dtype=np.int64)
    vfs = Vfs(room, room.copy(), room[:1], np.empty(1), np.empty((1, 3), dtype=np.int64))
    counters = np.zeros(1, dtype=COUNTERS)
    for _ in range(2000):
        lba, size = int(rng.integers(0, 100_000)), int(rng.choice([8, 64, 3000]))
        table.add(lba, size)
        _table_add(vfs, counters[0], lba, size)
        m = counters[0]["ntab"]
        assert vfs.start[:m].tolist() == table._starts and vfs.end[:m].tolist() == table._ends


def test_sort_by_lba_is_the_stable_argsort():
    """The kernel's insertion sort of request ids by LBA against numpy's stable argsort: ties
    (many equal LBAs), sorted runs, reversed and empty lists."""
    sort = numba.njit(lambda items, n, req: _sort_by_lba(items, n, req))
    rng = np.random.default_rng(5)
    req = np.zeros(300, dtype=REQUEST)
    cases = (
        rng.integers(0, 20, 300),
        np.sort(rng.integers(0, 1000, 300)),
        np.arange(300)[::-1],
        np.concatenate([np.arange(150), np.arange(150)]),
    )
    for lbas in cases:
        req["lba"] = lbas
        for n in (0, 1, 7, 300):
            items = rng.permutation(300)
            expected = items.copy()
            expected[:n] = items[:n][np.argsort(lbas[items[:n]], kind="stable")]
            sort(items, n, req)
            assert items.tolist() == expected.tolist()
