"""The PCC ceiling of PrecisePeriod's verification: closed forms against hand-worked values and
a simulation, the noise bins against a hand-built table, and the clear errors."""

import math

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.periodicity import ceiling
from storrepro.papers.periodicity.precise_period import forecast, pcc


def test_closed_forms_by_hand():
    # noise-free forecast: sqrt(S/(S+N)); S = 0.5, N = 0.5 -> sqrt(1/2)
    assert ceiling.pcc_ceiling(0.5, periods=None) == pytest.approx(math.sqrt(0.5))
    # 3-period forecast: 0.5 / sqrt((0.5 + 0.5/3)(0.5 + 0.5)) = 0.5 / sqrt(2/3)
    assert ceiling.pcc_ceiling(0.5) == pytest.approx(0.5 / math.sqrt(2 / 3))
    assert ceiling.pcc_ceiling(0.0) == pytest.approx(1.0)
    # the limits: S(1/θ² − 1) = 0.5 · 51/49, and (S + x/3)(S + x) = S²/θ² with S = 1/2
    # is x² + 2x − 0.75(1/θ² − 1) = 0
    assert ceiling.noise_limit(0.7, periods=None) == pytest.approx(0.5 * 51 / 49)
    x = ceiling.noise_limit(0.7)
    assert x == pytest.approx(-1 + math.sqrt(1 + 0.75 * (1 / 0.49 - 1)))  # ≈ 0.334
    assert x == pytest.approx(0.334, abs=1e-3)
    assert ceiling.pcc_ceiling(x) == pytest.approx(0.7)


def test_the_ceiling_matches_a_simulation_of_the_forecast():
    rng = np.random.default_rng(0)
    period, noise = 50, 0.3
    t = np.arange(200_000)
    y = np.sin(2 * np.pi * t / period) + rng.normal(0, math.sqrt(noise), t.size)
    # the 3-period-mean forecast of every sample from the three before it, as PrecisePeriod's
    got = [pcc(forecast(y[s - 3 * period:s], period, period), y[s:s + period])
           for s in range(3 * period, t.size - period, period)]
    # the mean of per-window PCCs sits a little under the PCC of the pooled samples
    assert np.mean(got) == pytest.approx(float(ceiling.pcc_ceiling(noise)), abs=0.02)


def test_accuracy_by_noise_bins_by_hand():
    results = pd.DataFrame({
        "dataset": ["synthetic"] * 4 + ["cran"],
        "noise_var": [0.05, 0.1, 0.45, 0.5, np.nan],
        "truth": [100.0, 100.0, 100.0, 100.0, 12.0],
        "PrecisePeriod": [100, 101, None, 130, 12],
    })
    table = ceiling.accuracy_by_noise(results, ["PrecisePeriod"], bins=2)
    assert list(table.series) == [2, 2]
    assert list(table.PrecisePeriod) == [1.0, 0.0]  # 101 is within ±2 % of 100
    assert list(table["beyond the limit"]) == [0.0, 1.0]
    assert table["ceiling (3-period forecast)"].iloc[0] == pytest.approx(
        float(ceiling.pcc_ceiling(0.125)))


@pytest.mark.parametrize("call, name", [
    (lambda: ceiling.pcc_ceiling(-0.1), "noise_var"),
    (lambda: ceiling.pcc_ceiling(0.1, signal_var=0.0), "signal_var"),
    (lambda: ceiling.pcc_ceiling(0.1, periods=0), "periods"),
    (lambda: ceiling.noise_limit(1.0), "theta"),
    (lambda: ceiling.accuracy_by_noise(pd.DataFrame({"dataset": ["cran"]}), []), "results"),
    (lambda: ceiling.accuracy_by_noise(pd.DataFrame(
        {"dataset": ["synthetic"], "noise_var": [0.1], "truth": [5.0]}), [], bins=0), "bins"),
])
def test_bad_input_names_the_parameter(call, name):
    with pytest.raises(ValueError, match=name):
        call()



def test_a_lost_synthetic_claim_names_the_ceiling():
    from storrepro.papers.periodicity import claims as rules
    from storrepro.suite.table import judge_row

    rows = [{"dataset": "synthetic", "tolerance": 0.02, "method": m, "accuracy": a, "f1": a,
             "precision": p, "n": 100, "answered": round(100 * a / p), "hits": round(100 * a)}
            for m, a, p in [("findFrequency", 0.4, 0.4), ("seasonLength", 0.8, 0.8),
                            ("SAZED_maj", 0.5, 0.5), ("SAZED_opt", 0.5, 0.5),
                            ("PrecisePeriod", 0.3, 0.9)]]
    claim = judge_row(rules.rows("B2")[0], rules, {"scored": pd.DataFrame(rows), "blocks": ()},
                      {})
    assert claim.verdict == "not reproduced"
    assert f"beyond noise variance {ceiling.noise_limit():.3f}" in claim.reason
