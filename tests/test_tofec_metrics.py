"""TOFEC run metrics: delay statistics of one run, the envelope, the phase metrics, CCDFs."""

import numpy as np
import pandas as pd
import pytest

from storrepro.tofec import metrics as mx


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
