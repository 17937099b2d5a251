"""TOFEC workloads: Poisson draws and the changing workload's arrivals from a real trace."""

import numpy as np
import pytest

from storrepro.papers.tofec import experiment as ex
from storrepro.papers.tofec.delay import SUR, ModelParams
from storrepro.papers.tofec.workload import draw_workload, trace_gaps, trace_phase_arrivals
from storrepro.suite.parallel import stream_id
from storrepro.suite.traces.reader import TraceFormatError

PARAMS = ModelParams(26.0, 48.9, 8.44, 10.7)


def write_alibaba(path, stamps_us, devices=("vd1", "vd2")):
    """An Alibaba block trace (``device_id,opcode,offset,length,timestamp``, µs), lines
    shuffled and two blank lines at the end."""
    order = np.random.default_rng(0).permutation(len(stamps_us))
    lines = [
        f"{devices[i % len(devices)]},{'RW'[i % 2]},{4096 * i},4096,{int(stamps_us[i])}"
        for i in order
    ]
    path.write_text("\n".join(lines) + "\n\n\n")
    return path


def test_draw_workload_rejects_bad_rates_and_short_runs():
    with pytest.raises(ValueError, match="arrival rate"):
        draw_workload(SUR, np.random.default_rng(0), 0.0, 1000)
    with pytest.raises(ValueError, match="requests"):
        draw_workload(SUR, np.random.default_rng(0), 5.0, 10)


def test_trace_gaps_merge_volumes_sort_and_normalise(tmp_path):
    # 301 requests, 300 gaps alternating 1 ms and 3 ms (mean 2 ms), over two volumes.
    stamps = np.cumsum([0] + [1000 if i % 2 == 0 else 3000 for i in range(300)])
    gaps = trace_gaps(write_alibaba(tmp_path / "trace.csv", stamps), "alibaba")
    assert gaps.size == 300
    np.testing.assert_allclose(gaps[:4], [0.5, 1.5, 0.5, 1.5])
    assert gaps.mean() == pytest.approx(1.0)
    assert trace_gaps(tmp_path / "trace.csv", "", limit=3).size == 2  # the first 3 requests


def test_trace_phase_arrivals_by_hand():
    gaps = np.tile([0.5, 1.5], 50)  # unit mean
    t = trace_phase_arrivals(gaps, (10.0, 20.0, 10.0), phase_s=1.0)
    # Phase 1 at 10 req/s: gaps 50, 150 ms from 0 -> 10 arrivals before 1000 ms.
    np.testing.assert_allclose(t[:10], [0, 50, 200, 250, 400, 450, 600, 650, 800, 850])
    # Nine gaps inside and the one that crossed the end are used; phase 2 (20 req/s) goes on
    # with gap 10 (25 ms), from its own start.
    np.testing.assert_allclose(t[10:14], [1000, 1025, 1100, 1125])
    assert len(t) == 10 + 20 + 10 and t[-1] == pytest.approx(2850.0)


def test_trace_phase_arrivals_wrap_around_a_short_trace_and_start_anywhere():
    t = trace_phase_arrivals(np.array([0.5, 1.5]), (10.0,), start=1, phase_s=1.0)
    np.testing.assert_allclose(t, [0, 150, 200, 350, 400, 550, 600, 750, 800, 950])


def test_trace_errors_name_the_problem(tmp_path):
    with pytest.raises(TraceFormatError, match="two requests at different times"):
        trace_gaps(write_alibaba(tmp_path / "one.csv", [5]), "alibaba")
    iops = tmp_path / "iops.csv"
    iops.write_text("time_s,iops\n0,10\n1,12\n")
    with pytest.raises(TraceFormatError, match="not an iops series"):
        trace_gaps(iops)
    with pytest.raises(ValueError, match="phase rate"):
        trace_phase_arrivals(np.ones(3), (10.0, 0.0))
    with pytest.raises(ValueError, match="start"):
        trace_phase_arrivals(np.ones(3), (10.0,), start=3)


def test_phase_task_on_a_trace_keeps_its_stream_and_follows_the_trace():
    gaps = np.tile([0.5, 1.5], 50)
    plain = ex.PhaseTask("p", (10.0, 50.0, 10.0), 0, PARAMS, (2, 1), alphas=(0.9,))
    traced = ex.PhaseTask(
        "p", (10.0, 50.0, 10.0), 0, PARAMS, (2, 1), alphas=(0.9,), trace_gaps=gaps
    )
    assert stream_id(traced) == stream_id(plain)  # its stream id seeds the random stream
    out = ex.run_phase_task(traced, np.random.default_rng(1))
    t = out["Greedy"]["t"]
    assert len(t) == 2000 + 10_000 + 2000
    steps = np.round(np.diff(t[t < 200.0]) * 1000.0, 6)  # ms
    assert set(steps) == {50.0, 150.0}
