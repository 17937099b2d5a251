"""Notebook 03's config, the calibration score, the M/M/c SLO and end-to-end determinism (S11)."""

import math

import numpy as np
import pytest

from storrepro.config import ParameterError
from storrepro.vdi import experiment as ex
from storrepro.vdi.config import VdiConfig


def test_config_profiles_and_bad_values():
    assert VdiConfig(profile="full").seeds >= 5
    assert VdiConfig(profile="quick").system.n_cores == 64
    for kwargs, message in [
        ({"cap": 0.0}, "cap"),
        ({"cap": 1.2}, "cap"),
        ({"n_cores": 0}, "n_cores"),
        ({"alpha": 1.0}, "alpha"),
        ({"window_h": 20.0, "horizon_h": 12.0}, "window_h"),
        ({"fg_iops_per_core": -50.0}, "fg_iops_per_core"),
    ]:
        with pytest.raises(ParameterError, match=message):
            VdiConfig(profile="quick", **kwargs)


def test_calibration_score_is_zero_at_the_paper_and_weighs_by_the_s4_bands():
    assert ex.calibration_score(54.6, 21.7) == 0.0
    assert ex.calibration_score(64.6, 21.7) == pytest.approx(1.0)
    assert ex.calibration_score(54.6, 10.7) == pytest.approx(1.0)


def test_erlang_c_response_time_by_hand():
    # M/M/1 (c = 1): response 1/(μ − λ) = 1/(50 − 25) = 0.04 s
    assert ex.erlang_c_response([25.0], [1], 50.0)[0] == pytest.approx(0.04)
    # M/M/2, λ = 50, μ = 50: a = 1, ρ = 0.5, Erlang C = 1/3, W = C/(cμ − λ) + 1/μ = 1/150 + 1/50
    assert ex.erlang_c_response([50.0], [2], 50.0)[0] == pytest.approx(1 / 150 + 1 / 50)
    assert math.isinf(ex.erlang_c_response([100.0], [2], 50.0)[0])  # overloaded


def test_run_task_rejects_bad_input():
    with pytest.raises(ValueError, match="policy"):
        ex.RunTask(0, 0, "greedy")
    with pytest.raises(ValueError, match="forecast book"):
        ex.RunTask(0, 0, "smart")
    with pytest.raises(ValueError, match="tick_s"):
        ex.RunTask(0, 0, "fixed", tick_s=7.0)


def test_smart_run_is_deterministic_and_keeps_its_invariants():
    """S11 on a full replay: the trace, the forecasts and the run rebuilt from scratch."""

    def once():
        ex.seed_trace.cache_clear()
        _, st = ex.seed_trace(3, 1)
        book = ex.forecast_books(st, 0.5, models=("proposed",))["proposed"]
        return ex.run_policy(ex.RunTask(3, 1, "smart", book=book), None)

    first, second = once(), once()
    assert first["log"].equals(second["log"])
    assert np.array_equal(first["cff"], second["cff"])
    assert ex.invariants(first, ex.SystemParams()) == {"S1": True, "S2": True}
    assert first["max_debt_pct"] <= 97.0  # S3: the 95 % cap plus at most one hourly lump


def test_idle_only_reaches_exactly_the_a7_pool():
    result = ex.run_policy(ex.RunTask(0, 0, "idle-only"), None)
    assert result["max_debt_pct"] == pytest.approx(100.0)


def test_timeline_figures_have_the_papers_panels():
    import matplotlib

    matplotlib.use("Agg")
    from storrepro.vdi.plots import timeline

    _, st = ex.seed_trace(0, 0)
    fixed = ex.run_policy(ex.RunTask(0, 0, "fixed"), None)
    fig = timeline(fixed, st.times, ex.SystemParams(), "fixed")
    assert len(fig.axes) == 4 and "violations" in fig.axes[0].get_title()
    book = ex.forecast_books(st, 0.5, models=("oracle",))["oracle"]
    smart = ex.run_policy(ex.RunTask(0, 0, "smart", "oracle", book=book), None)
    fig = timeline(smart, st.times, ex.SystemParams(), "smart", smart=True)
    assert len(fig.axes) == 5 and fig.axes[4].get_ylabel().startswith("CFF")
