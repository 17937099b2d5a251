"""TOFEC experiment helpers: run metrics, envelope, phase metrics, sweeps' tasks, the config."""

import numpy as np
import pandas as pd
import pytest

from storrepro.config import ParameterError
from storrepro.tofec import experiment as ex
from storrepro.tofec.config import TofecConfig
from storrepro.tofec.delay import SUR, ModelParams

PARAMS = ModelParams(26.0, 48.9, 8.44, 10.7)


def test_run_metrics_on_a_hand_built_run():
    # 10 requests 100 ms apart, delays 10..100 ms; warm-up drops the first one.
    t = np.arange(10) * 100.0
    delay = np.arange(1, 11) * 10.0
    res = {
        "t_arrive": t,
        "t_end": t + delay,
        "k": np.array([1] * 5 + [2] * 5),
        "n": np.full(10, 2),
        "queue_length": np.zeros(10, int),
    }
    m = ex.run_metrics(res)
    assert m["mean"] == pytest.approx(60.0)  # 20..100
    assert m["median"] == pytest.approx(60.0)
    assert m["k1"] == pytest.approx(4 / 9) and m["k2"] == pytest.approx(5 / 9)
    # Ends in [t_0, t_last) = [100, 900): 120, 230, ..., 890 -> 8 completions in 0.8 s.
    assert m["throughput"] == pytest.approx(8 / 0.8)
    assert m["trend"]  # last fifth (100 ms) > 2 x first fifth (20 ms): an upward trend


def test_top2_and_modal_k():
    row = {"k1": 0.1, "k2": 0.05, "k3": 0.4, "k4": 0.35, "k5": 0.1, "k6": 0.0}
    assert ex.top2_fraction(row) == pytest.approx(0.75)
    assert ex.modal_k(row) == 3


def test_envelope_skips_trending_codes():
    summary = pd.DataFrame(
        {
            "rate": [5.0] * 4,
            "policy": ["(1,1)", "(2,1)", "(12,6)", "TOFEC a=0.9"],
            "mean": [200.0, 150.0, 80.0, 70.0],
            "trend_frac": [0.0, 0.0, 0.8, 0.0],
        }
    )
    env = ex.envelope(summary, "mean")
    assert env.loc[5.0, "code"] == "(2,1)" and env.loc[5.0, "value"] == 150.0
    assert ex.ratio_to_envelope(summary, "TOFEC a=0.9", "mean").loc[5.0] == pytest.approx(70 / 150)


def test_phase_metrics_on_a_synthetic_trace():
    t = np.arange(0, 600, 0.1)
    k = np.where((t >= 201) & (t < 400), 1, 5)
    delay = np.where(t < 200, 100.0, np.where(t < 400, 500.0, np.where(t < 403, 500.0, 100.0)))
    m = ex.phase_metrics(t, delay, k)
    assert m["phase1_mean"] == 100 and m["phase2_mean"] == 500 and m["phase3_mean"] == 100
    assert m["switch_s"] == pytest.approx(1.0)  # first 0.5-s window with >= 90 % k = 1
    assert m["recovery_s"] == pytest.approx(3.0)  # first window [400+s, 402+s) back at <= 120 ms
    assert m["phase2_k1"] == pytest.approx(0.995)


def test_grid_task_runs_stable_codes_and_adaptive_policies():
    caps = tuple(16_000 / (i + 100.0) * 0 + c for i, c in enumerate([78.0] + [30.0] * 26))
    task = ex.GridTask(40.0, 0, 1_000, PARAMS, caps)
    rows = ex.run_grid_task(task, np.random.default_rng(0))
    names = [r["policy"] for r in rows]
    assert names[0] == "(1,1)" and "(2,1)" not in names  # 40 >= 0.98·30: skipped
    assert {"TOFEC a=0.9", "Greedy", "[3] fixed k", "TOFEC a=0.9 geometric"} <= set(names)


def test_saturated_throughput_is_the_capacity():
    # (1,1) offered 1.2x its MC capacity: the throughput is that capacity (A1 in small).
    cap = ex.mc_capacities(SUR, np.random.default_rng(0), 100_000, codes=[(1, 1)]).capacity.iloc[0]
    res = ex.run_saturation_task(
        ex.SaturationTask("(1,1)", 1.2 * cap, 0, 20_000, PARAMS), np.random.default_rng(1)
    )
    assert res["throughput"] == pytest.approx(cap, rel=0.03)


def test_bad_input():
    with pytest.raises(ValueError, match="arrival rate"):
        ex.draw_workload(SUR, np.random.default_rng(0), 0.0, 1000)
    with pytest.raises(ValueError, match="requests"):
        ex.draw_workload(SUR, np.random.default_rng(0), 5.0, 10)
    with pytest.raises(ValueError, match="unknown policy"):
        ex.make_policy("Oracle", PARAMS)


def test_config_profiles_and_errors():
    quick, full = TofecConfig("quick"), TofecConfig("full")
    assert full.requests_at(75.0) == 50_000 and full.requests_at(100.0) == 60_000
    assert len(full.rates) == 16 and quick.seeds < full.seeds
    for bad in ({"alpha": 1.0}, {"alpha": -0.1}, {"seeds": 0}, {"n_threads": 8}):
        with pytest.raises(ParameterError, match=next(iter(bad))):
            TofecConfig("quick", **bad)


def test_ccdf_points():
    x, p = ex.ccdf_points(np.arange(1.0, 11.0), points=5)
    # Sorted 1..10: P(X >= 10) = 0.1, P(X >= 8) = 0.3, P(X >= 6) = 0.5, P(X >= 1) = 1.
    np.testing.assert_array_equal(x, [1.0, 6.0, 8.0, 10.0])
    np.testing.assert_allclose(p, [1.0, 0.5, 0.3, 0.1])


def test_grid_rates_add_high_load_points_with_more_seeds():
    from storrepro.tofec.study import grid_rates

    rates = grid_rates(TofecConfig("full"), 80.0)
    assert len(rates) == 19 and rates[0] == (2.0, 5)
    assert rates[-3:] == [(72.0, 10), (76.0, 10), (78.4, 10)]


def test_phase_task_runs_both_ideals_and_only_head_of_line_recodes_the_backlog():
    task = ex.PhaseTask("literal", (10.0, 80.0, 10.0), 0, PARAMS, (10, 5), alphas=(0.9,))
    out = ex.run_phase_task(task, np.random.default_rng(4))
    assert out["policies"] == ["TOFEC a=0.9", "Greedy", "Ideal", "Ideal (arrival)"]
    hol, arrival = out["Ideal"], out["Ideal (arrival)"]
    queued = (hol["t"] >= 399.0) & (hol["t"] < 400.0)  # arrived in the overload, served after it
    assert (arrival["k"][queued] == 1).all()
    assert (hol["k"][queued] == 5).any()
    np.testing.assert_array_equal(hol["k"][hol["t"] < 200.0], 5)
