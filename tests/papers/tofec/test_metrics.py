"""TOFEC run metrics: delay statistics of one run, the envelope, the phase metrics, CCDFs."""

import math

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.tofec import metrics as mx
from storrepro.papers.tofec.metrics import GridResults, tofec_name
from tofec_samples import hand_grid, hand_summary


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
    m = mx.run_metrics(res)
    assert m["mean"] == pytest.approx(60.0)  # 20..100
    assert m["median"] == pytest.approx(60.0)
    assert m["k1"] == pytest.approx(4 / 9) and m["k2"] == pytest.approx(5 / 9)
    # Ends in [t_0, t_last) = [100, 900): 120, 230, ..., 890 -> 8 completions in 0.8 s.
    assert m["throughput"] == pytest.approx(8 / 0.8)
    assert m["trend"]  # last fifth (100 ms) > 2 x first fifth (20 ms): an upward trend


def test_run_metrics_tail_percentiles_are_numpys_one_at_a_time():
    # p90 and p99 come from one np.percentile call: exactly the values of two separate calls.
    rng = np.random.default_rng(3)
    t = np.cumsum(rng.exponential(20.0, 4001))
    res = {"t_arrive": t, "t_end": t + rng.exponential(150.0, t.size), "k": np.ones(t.size, int),
           "n": np.ones(t.size, int), "queue_length": np.zeros(t.size, int)}
    m = mx.run_metrics(res)
    delay = (res["t_end"] - t)[400:]
    assert (m["p90"], m["p99"]) == (np.percentile(delay, 90), np.percentile(delay, 99))


def test_top2_and_modal_k():
    row = {"k1": 0.1, "k2": 0.05, "k3": 0.4, "k4": 0.35, "k5": 0.1, "k6": 0.0}
    assert mx.top2_fraction(row) == pytest.approx(0.75)
    assert mx.modal_k(row) == 3


def test_envelope_skips_trending_codes():
    summary = pd.DataFrame(
        {
            "rate": [5.0] * 4,
            "policy": ["(1,1)", "(2,1)", "(12,6)", "TOFEC a=0.9"],
            "mean": [200.0, 150.0, 80.0, 70.0],
            "trend_frac": [0.0, 0.0, 0.8, 0.0],
        }
    )
    env = mx.envelope(summary, "mean")
    assert env.loc[5.0, "code"] == "(2,1)" and env.loc[5.0, "value"] == 150.0
    assert mx.ratio_to_envelope(summary, "TOFEC a=0.9", "mean").loc[5.0] == pytest.approx(70 / 150)


def test_phase_metrics_on_a_synthetic_trace():
    t = np.arange(0, 600, 0.1)
    k = np.where((t >= 201) & (t < 400), 1, 5)
    delay = np.where(t < 200, 100.0, np.where(t < 400, 500.0, np.where(t < 403, 500.0, 100.0)))
    m = mx.phase_metrics(t, delay, k)
    assert m["phase1_mean"] == 100 and m["phase2_mean"] == 500 and m["phase3_mean"] == 100
    assert m["switch_s"] == pytest.approx(1.0)  # first 0.5-s window with >= 90 % k = 1
    assert m["recovery_s"] == pytest.approx(3.0)  # first window [400+s, 402+s) back at <= 120 ms
    assert m["phase2_k1"] == pytest.approx(0.995)


def test_ccdf_points():
    x, p = mx.ccdf_points(np.arange(1.0, 11.0), points=5)
    # Sorted 1..10: P(X >= 10) = 0.1, P(X >= 8) = 0.3, P(X >= 6) = 0.5, P(X >= 1) = 1.
    np.testing.assert_array_equal(x, [1.0, 6.0, 8.0, 10.0])
    np.testing.assert_allclose(p, [1.0, 0.5, 0.3, 0.1])


def test_grid_results_views_by_hand():
    grid = hand_grid()
    assert grid.rates == [2.0, 5.0]
    assert grid.mid == [2.0] and grid.high == []  # 0.9·C_full = 4.5; 0.95·C_full = 4.75
    best = grid.env["mean"].loc[2.0]
    assert best.code == "(6,6)" and best.value == pytest.approx(90.9)
    assert grid.pivot["mean"].loc[5.0, "Greedy"] == pytest.approx(88.0 * 1.01)
    assert grid.q11.to_dict() == {2.0: 0.25, 5.0: 0.25}
    assert list(grid.k_shares("Greedy").loc[2.0]) == [0.5, 0, 0, 0, 0, 0.5]
    light = grid.light_load(tofec_name(0.9))
    assert light.loc["basic (1,1), λ=2", "mean (ms)"] == pytest.approx(202.0)
    assert light.loc["TOFEC, λ=5", "mean (ms)"] == pytest.approx(80.8)
    assert grid.ratios(["Greedy"], ["mean"]).loc[5.0, "Greedy mean"] == pytest.approx(88 / 100)
    assert grid.max_stable_rate("(2,1)") == 5.0 and math.isnan(grid.max_stable_rate("(9,9)"))


def test_grid_results_per_seed_views():
    grid = hand_grid()
    assert grid.seed_values("(1,1)", "mean", 2.0).tolist() == pytest.approx([200.0, 204.0])
    # Common random numbers: each seed's ratio is taken within the seed.
    assert grid.seed_ratios("Greedy", "(1,1)", "mean", [5.0])[5.0].tolist() == pytest.approx(
        [88 / 210] * 2)
    assert grid.seed_envelope_ratios("Greedy", "mean", [2.0])[2.0].tolist() == pytest.approx(
        [88 / 90] * 2)
    shares = grid.seed_k_shares("Greedy", lambda row: row.k1 + row.k6)
    assert {r: v.tolist() for r, v in shares.items()} == {2.0: [1.0, 1.0], 5.0: [1.0, 1.0]}
    with pytest.raises(ValueError, match="without its per-run rows"):
        GridResults(hand_summary(), c_full=5.0, u11=200.0).seed_rows("Greedy", 2.0)


def test_high_load_keeps_the_sweeps_rounded_run_at_0_95_c_full():
    # C_full = 77.5228: the sweep runs 0.95·C_full at round(73.6466, 2) = 73.65.
    summary = pd.DataFrame({"rate": [69.77, 70.0, 73.65, 75.97], "policy": "(1,1)",
                            **{m: 1.0 for m in ("mean", "median", "p90", "p99", "std")},
                            "trend_frac": 0.0})
    grid = GridResults(summary, c_full=77.5228, u11=200.0)
    assert grid.mid == [69.77] and grid.high == [70.0, 73.65]


def test_envelope_context_names_the_best_code_and_the_backlog_model():
    ctx = hand_grid().envelope_context(tofec_name(0.9), "mean", n_threads=16)
    # Best code (6,6): TOFEC never uses k = 6 (k_off 1) and nothing larger (k_above 0).
    assert ctx[5.0]["best_code"] == "(6,6)" and ctx[5.0]["k_off"] == 1.0
    assert ctx[5.0]["k_above"] == 0.0 and ctx[5.0]["measured_q"] == 0.25
    assert ctx[5.0]["model_q"] == pytest.approx(1 / 240)  # Eq. (11) at Λ = 1 thread


def test_k_mix_table():
    table = hand_grid().k_mix([0.9, 0.5, 0.95, 0.99])
    assert table["top-2 α = 0.9"].tolist() == [1.0, 1.0]  # k = 3 and 4 adjacent
    assert table["Greedy k∈{1,6}"].tolist() == [1.0, 1.0]
    assert table["modal k TOFEC"].tolist() == [3, 3]
