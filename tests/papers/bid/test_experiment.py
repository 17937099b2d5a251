"""The BID experiment: replay wiring, conservation (D9), degenerate equivalence (D8), workloads."""

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.bid import make_scheduler, workload
from storrepro.papers.bid.config import BIDConfig
from storrepro.papers.bid.experiment import Cell, cell_trace, run_cell, simulate
from storrepro.papers.bid.metrics import summarise, trace_facts
from storrepro.sim.disk_model import hdd_service_time
from storrepro.suite.config import ParameterError


def small_trace(rows):
    return pd.DataFrame(rows, columns=["ts", "pid", "op", "lba", "size"])


@pytest.fixture(scope="module")
def trace():
    return workload.generate("WordCount", 3000, np.random.default_rng(7))


def test_single_server_times_follow_the_hdd_model():
    t = small_trace([(0.0, 1, "R", 100_000, 8), (0.1, 2, "R", 5_000_000, 8)])
    result = simulate(t, make_scheduler("noop"))
    q = result.requests
    first = hdd_service_time(100_000, 8, 0)
    second = hdd_service_time(5_000_000, 8, 100_008)
    assert q.service.tolist() == pytest.approx([first.time, second.time])
    assert q.d.tolist() == [first.distance, second.distance]
    # the second waits for the first: it completes at the sum of both service times
    assert result.event_completion[1] == pytest.approx(first.time + second.time)


def test_merged_events_complete_with_their_request():
    t = small_trace([(0.0, 1, "R", 0, 256), (0.01, 2, "R", 10**7, 8), (0.02, 1, "R", 256, 256)])
    result = simulate(t, make_scheduler("noop"))
    assert len(result.requests) == 2  # events 0 and 2 merged (512 sectors)
    assert result.event_completion[0] == result.event_completion[2]


@pytest.mark.parametrize("name", ["noop", "cfq-q8", "cfq-q2", "bid-hdd", "bid-hybrid"])
def test_d9_every_sector_served_once_and_nothing_left(trace, name):
    result = simulate(trace, make_scheduler(name))
    q = result.requests
    assert result.leftover == 0
    assert not np.isnan(result.event_completion).any()
    assert (result.event_completion > result.event_arrival).all()
    # sector by sector: the served ranges of each direction cover the submitted ones exactly
    for op in ("R", "W"):
        served = q[q.op == op]
        submitted = trace[trace.op == op]
        assert served["size"].sum() == submitted["size"].sum()
    if name == "bid-hybrid":
        hdd, ssd = q[q.device == 0], q[q.device == 1]
        assert hdd["size"].sum() + ssd["size"].sum() == trace["size"].sum()
        assert len(ssd) > 0


def test_d9_served_sectors_match_multiset_of_submitted(trace):
    result = simulate(trace, make_scheduler("bid-hybrid"))
    covered = np.zeros(0, dtype=np.int64)
    parts = [np.arange(r.lba, r.lba + r.size) for r in result.requests.itertuples()]
    covered = np.sort(np.concatenate(parts))
    wanted = np.sort(np.concatenate([np.arange(r.lba, r.lba + r.size) for r in trace.itertuples()]))
    assert np.array_equal(covered, wanted)


def test_d8_bid_with_zero_timers_matches_noop_without_merging(trace):
    noop = simulate(trace, make_scheduler("noop", merge=False))
    bid = simulate(
        trace,
        make_scheduler(
            "bid-hdd",
            wait_default=0.0,
            read_deadline=0.0,
            write_deadline=0.0,
            sq_merge=False,
            dq_depth=1,
        ),
    )
    total_noop, total_bid = noop.requests.service.sum(), bid.requests.service.sum()
    assert total_bid == pytest.approx(total_noop, rel=0.01)


def test_d8_hybrid_with_zero_threshold_equals_bid_hdd(trace):
    a = simulate(trace, make_scheduler("bid-hybrid", pf_threshold=0.0)).requests
    b = simulate(trace, make_scheduler("bid-hdd")).requests
    assert a.drop(columns="t_arrive").equals(b.drop(columns="t_arrive"))


def test_open_mode_respects_trace_times():
    t = small_trace([(0.0, 1, "R", 0, 8), (100.0, 1, "R", 10**6, 8)])
    result = simulate(t, make_scheduler("noop"), mode="open")
    assert result.event_arrival.tolist() == [0.0, 100.0]
    assert result.requests.t_start.iloc[1] == pytest.approx(100.0)


def test_back_pressure_blocks_at_the_request_limit():
    rows = [(0.001 * i, i, "R", 10**6 * i, 8) for i in range(1, 6)]
    result = simulate(small_trace(rows), make_scheduler("noop"), rq_limit=2, mode="open")
    # the disk takes the 1st request at 0.001 ms and the 2nd and 3rd fill both slots, so the
    # 4th enters when the 1st completes and the 2nd is dispatched
    first = result.requests.service.iloc[0]
    assert result.event_arrival[2] == pytest.approx(0.003)
    assert result.event_arrival[3] == pytest.approx(0.001 + first)


@pytest.mark.parametrize("kwargs, match", [({"rq_limit": 0}, "rq_limit"), ({"mode": "x"}, "mode")])
def test_bad_simulation_options(kwargs, match):
    with pytest.raises(ValueError, match=match):
        simulate(small_trace([(0.0, 1, "R", 0, 8)]), make_scheduler("noop"), **kwargs)


def test_summary_metrics(trace):
    result = simulate(trace, make_scheduler("cfq-q8"))
    s = summarise(result, trace)
    d = result.requests.d
    assert s["n2"] == (d >= 2).sum() and s["n1"] == (d >= 1).sum()
    assert s["TD_sweep"] == pytest.approx(d.sum() / 484_514)
    assert s["device_time_s"] == pytest.approx(result.requests.service.sum() / 1000)


@pytest.mark.parametrize("ops", ["mixed", "writes only"])
def test_summary_from_facts_made_once_equals_the_summary_of_the_trace(trace, ops):
    t = trace if ops == "mixed" else trace.assign(op="W")
    result = simulate(t, make_scheduler("bid-hybrid"))
    facts = trace_facts(t)
    assert facts["written"] == (t["size"].sum() if ops == "writes only" else facts["written"])
    given, made = summarise(result, t, facts), summarise(result, t)
    assert list(given) == list(made)
    assert all(given[k] == made[k] or (given[k] != given[k] and made[k] != made[k]) for k in made)


# -- workloads --------------------------------------------------------------------------------
def test_generator_is_deterministic_and_calibrated_to_its_profile():
    a = workload.generate("TeraSort", 5000, np.random.default_rng(3))
    b = workload.generate("TeraSort", 5000, np.random.default_rng(3))
    pd.testing.assert_frame_equal(a, b)
    c = workload.characterise(a)
    assert abs(c["events"] - 5000) < 200
    assert 20 <= c["interrupter_events_pct"] <= 30  # Table 2 row: 20–30 %
    assert (a.ts.diff().dropna() > 0).all() and (a.lba >= 0).all()
    assert (a.lba + a["size"] <= workload.DISK_SECTORS).all()


def test_bulky_streams_are_contiguous_and_wordcount_rereads():
    t = workload.generate("WordCount", 5000, np.random.default_rng(1))
    seq = t[t.kind == "SeqReader"]
    for _, g in seq.groupby("pid"):
        jumps = (g.lba.to_numpy()[1:] != (g.lba + g["size"]).to_numpy()[:-1]).sum()
        assert jumps <= len(g) // 512 + 1  # only at 128 MB chunk ends
    assert workload.characterise(t)["reread_events_pct"] > 0


@pytest.mark.parametrize(
    "args, match",
    [(("Hive", 1000), "unknown workload"), (("Grep", 10), "events"), (("Grep", 1000, 0.5), "run")],
)
def test_bad_workload(args, match):
    name, events, *rest = args
    with pytest.raises(ValueError, match=match):
        workload.generate(name, events, np.random.default_rng(0), *rest)


def test_every_scheduler_sees_the_same_trace():
    a = cell_trace(Cell("Grep", "noop", 1, 1000, 5))
    b = cell_trace(Cell("Grep", "bid-hdd", 1, 1000, 5))
    pd.testing.assert_frame_equal(a, b)
    out = run_cell(Cell("WordStdev", "bid-hdd", 0, 1000, 5))
    assert {"summary", "arm", "flushes", "waits"} <= set(out)


def test_a_main_sweep_task_is_every_cell_of_one_trace_in_order():
    from storrepro.papers.bid.experiment import _trace_key, main_cells, run_trace, trace_tasks

    cfg = BIDConfig(profile="quick", events=600, seeds=2)
    cells = main_cells(cfg, ["Grep", "Sort"])
    tasks = trace_tasks(cells)
    assert [c for task in tasks for c in task] == cells
    assert len(tasks) == 4 and all(len({_trace_key(c) for c in task}) == 1 for task in tasks)
    assert len({_trace_key(task[0]) for task in tasks}) == 4
    # a task's outputs are its cells' own, whatever stream the sweep hands the task
    task = tasks[3][-3:]
    outs = run_trace(task, np.random.default_rng(1))
    pd.testing.assert_frame_equal(pd.DataFrame([o["summary"] for o in outs]),
                                  pd.DataFrame([run_cell(c)["summary"] for c in task]))


def test_config_profiles_and_errors():
    quick, full = BIDConfig(profile="quick"), BIDConfig(profile="full")
    assert quick.events < full.events and full.seeds >= 5
    with pytest.raises(ParameterError, match="seeds"):
        BIDConfig(profile="quick", seeds=0)
    with pytest.raises(ParameterError, match="mode"):
        BIDConfig(profile="quick", mode="closed")
    with pytest.raises(ParameterError, match="rq_limit"):
        BIDConfig(profile="quick", events=600, rq_limit=1000)


def test_sweep_tasks_keep_the_streams_their_repr_gave():
    from storrepro.papers.bid.experiment import SensitivityCell
    from storrepro.suite.parallel import stream_id

    # the keys their repr gave before STREAM (a field added later keys no stream)
    cell = Cell("Grep", "noop", 1, 500, 0, variant="device_queue=all_depth1")
    assert stream_id(cell) == (
        "Cell(workload='Grep', scheduler='noop', replicate=1, events=500, base_seed=0, "
        "rq_limit=128, mode='backlogged', variant='device_queue=all_depth1', trace='', "
        "trace_format='')") == repr(cell)
    sens = SensitivityCell("rq_limit=64", "Sort", "bid-hdd", 800, 3)
    assert stream_id(sens) == (
        "SensitivityCell(config='rq_limit=64', workload='Sort', scheduler='bid-hdd', "
        "events=800, base_seed=3, trace='', trace_format='')") == repr(sens)
