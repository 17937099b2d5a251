"""One scheduler run (:mod:`storrepro.papers.vdi.experiment.runs`): bad input, end-to-end
determinism (S11), the pool size rules, the timeline figures and one fixed day."""

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.vdi import books, metrics
from storrepro.papers.vdi.config import SystemParams
from storrepro.papers.vdi.experiment import runs
from storrepro.papers.vdi.seeds import seed_trace


def test_run_task_rejects_bad_input():
    with pytest.raises(ValueError, match="policy"):
        runs.RunTask(0, 0, "greedy")
    with pytest.raises(ValueError, match="forecast book"):
        runs.RunTask(0, 0, "smart")
    with pytest.raises(ValueError, match="tick_s"):
        runs.RunTask(0, 0, "fixed", tick_s=7.0)


def test_smart_run_is_deterministic_and_keeps_its_invariants():
    """S11 on a full replay: the trace, the forecasts and the run rebuilt from scratch."""

    def once():
        seed_trace.cache_clear()
        _, st = seed_trace(3, 1)
        book = books.forecast_books(st, 0.5, models=("proposed",))["proposed"]
        return runs.run_policy(runs.RunTask(3, 1, "smart", book=book), None)

    first, second = once(), once()
    assert first["log"].equals(second["log"])
    assert np.array_equal(first["cff"], second["cff"])
    assert metrics.invariants(first, SystemParams()) == {"S1": True, "S2": True}
    assert first["max_debt_pct"] <= 97.0  # S3: the 95 % cap plus at most one hourly lump


def test_idle_only_reaches_exactly_the_a7_pool():
    result = runs.run_policy(runs.RunTask(0, 0, "idle-only"), None)
    assert result["max_debt_pct"] == pytest.approx(100.0)


def test_a7_pool_sized_by_the_forecast_by_hand():
    system = SystemParams(n_cores=4, fg_iops_per_core=10.0, bg_blocks_per_core_s=1.0)
    demand = np.array([15.0, 15.0, 15.0])  # FG needs 2 cores: 2 idle cores free 2 blocks/s
    lumps = np.array([0.0, 10.0, 0.0])
    # tick 1: 10 blocks arrive on 0 debt: peak 10
    assert runs.a7_pool(demand, lumps, system, 1.0) == 10.0
    # forecast 25 IOPS at tick 0 and 35 at tick 1: FG sized 3 then 4 cores, BG frees less
    forecast = np.array([25.0, 35.0, 5.0])
    assert runs.a7_pool(demand, lumps, system, 1.0, forecast) == 10.0
    lumps = np.array([6.0, 10.0, 0.0])  # 6 blocks, freed 2/s (A) or 1/s (max(A, Â)) at tick 0
    assert runs.a7_pool(demand, lumps, system, 1.0) == 14.0  # 6 − 2 + 10
    assert runs.a7_pool(demand, lumps, system, 1.0, forecast) == 15.0  # 6 − 1 + 10


def test_the_a7_forecast_pool_needs_the_forecast_and_exceeds_a7():
    _, st = seed_trace(0, 0)
    own = SystemParams(pool_rule="a7-forecast")
    with pytest.raises(ValueError, match="needs the proposed model's forecast book"):
        runs.pool_size(st, "offset", own)
    book = books.forecast_books(st, 0.5, models=("proposed",))["proposed"]
    a7 = runs.pool_size(st, "offset", SystemParams())
    assert runs.pool_size(st, "offset", own, book=book) >= a7
    assert runs.pool_size(st, "offset", own, 1.2, book) == pytest.approx(
        1.2 * runs.pool_size(st, "offset", own, book=book))


def test_timeline_figures_have_the_papers_panels():
    import matplotlib

    matplotlib.use("Agg")
    from storrepro.papers.vdi.plots import timeline

    _, st = seed_trace(0, 0)
    fixed = runs.run_policy(runs.RunTask(0, 0, "fixed"), None)
    fig = timeline(fixed, st.times, SystemParams(), "fixed")
    assert len(fig.axes) == 4 and "violations" in fig.axes[0].get_title()
    book = books.forecast_books(st, 0.5, models=("oracle",))["oracle"]
    smart = runs.run_policy(runs.RunTask(0, 0, "smart", "oracle", book=book), None)
    fig = timeline(smart, st.times, SystemParams(), "smart", smart=True)
    assert len(fig.axes) == 5 and fig.axes[4].get_ylabel().startswith("CFF")


def test_one_fixed_day_is_the_first_day_of_the_window_run():
    day = runs.fixed_day(0, 0, 0.40, 8, 32)
    window = runs.run_policy(runs.RunTask(0, 0, "fixed", n_min=8, n_agg=32), None)
    pd.testing.assert_frame_equal(day["log"], window["log"].iloc[:144], check_exact=True)
    assert day["pool_blocks"] == window["pool_blocks"]
    later = runs.fixed_day(0, 0, 0.90, 8, 32)  # a higher watermark defers the work to the night
    assert later["violation_pct"] < day["violation_pct"]
    assert later["final_debt"] > day["final_debt"]
    with pytest.raises(ValueError, match="low"):
        runs.fixed_day(0, 0, 0.0, 8, 32)
