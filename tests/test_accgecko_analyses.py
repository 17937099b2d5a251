"""The analyses the notebook calls, one per cell, and its figures: each on a small hand-made
input where the answer is known."""

import matplotlib
import numpy as np
import pandas as pd
import pytest

from storrepro.accgecko import claims, plots
from storrepro.accgecko import experiment as ex
from storrepro.accgecko.config import READINGS
from storrepro.accgecko.workload import G1

matplotlib.use("Agg")


def test_procedure_checks_give_the_hand_worked_lambda_and_dbscan():
    proc = ex.procedure_checks(claims.U2_CASES)
    assert proc["rates"][0] == pytest.approx(claims.U1_TOP, abs=1e-3)
    assert proc["covers"] == [list(range(3, 15)), [1, 2]]
    assert proc["found"] == claims.U2_CASES
    claim = claims.u1_lambda_states(proc["rates"], proc["edges"], proc["covers"])
    assert claim.verdict == "reproduced"


def test_reading_table_lists_every_reading_and_its_primary():
    table = ex.reading_table(READINGS)
    assert list(table.index) == list(READINGS)
    assert table.loc["line9", "primary"] == "stage_ratio"


def test_calibration_inputs_add_the_replicas_to_g1():
    segs = pd.DataFrame({"generator": ["G1", "G2", "G1"], "total_burst_ms": [1.0, 2.0, 3.0]})
    replicas = pd.DataFrame({"total_burst_ms": [4.0]}, index=["T1"])
    out = ex.calibration_inputs(segs, replicas, 60.0)
    assert out["G1"].total_burst_ms.tolist() == [1.0, 3.0, 4.0]
    assert out["G1"].segment_ms.tolist() == [60e3, 60e3, 300e3]
    assert out["G2"].segment_ms.tolist() == [60e3]
    assert list(ex.calibration_inputs(segs[segs.generator == "G1"], replicas, 60.0)) == ["G1"]


def test_snc_folds_divide_bound_by_actual():
    curves = {"T1": {"bound": np.array([4.0, 9.0]), "actual": np.array([2.0, 3.0])}}
    assert ex.snc_folds(curves).tolist() == [2.0, 3.0]


def test_count_distribution_study_is_a_distribution():
    study = ex.count_distribution_study(
        G1(2.0, 1.0, 3.0, 4, 3.0, 6.0, 2.0), 10.0, np.random.default_rng(0)
    )
    assert study["values"][0] == 1 and study["values"].size == study["actual_pmf"].size
    assert study["actual_pmf"].sum() <= 1.0 and (study["model_pmf"] >= 0).all()
    assert (study["folds"] >= 1).all()


def test_explain_summary_takes_medians_per_percentile():
    explain = pd.DataFrame(
        {
            "p": [99.0, 99.0, 99.9],
            "rate": [3000.0, 5000.0, 4000.0],
            "replay_us": [100.0, 300.0, 50.0],
            "acctail_us": [10.0, 10.0, 25.0],
            "queue_us": [110.0, 330.0, 50.0],
            "top1_in_bursts": [9, 8, 1],
            "top1_requests": [10, 10, 2],
            "burst_rate_over_threshold": [1.1, 1.2, 1.3],
            "median_peak_ms_count": [10.0, 20.0, 30.0],
        }
    )
    summary = ex.explain_summary(explain)
    assert summary.loc[99.0, "replay / AccTail"] == 20.0
    assert summary.loc[99.0, "queue model / replay"] == pytest.approx(1.1)
    assert summary.loc[99.9, "top-1 % in bursts"] == 0.5


def test_sensitivity_row_reads_the_order_and_the_gains():
    runs = {99.0: np.array([[5, 10, 21, 30, 40]] * 3),
            99.9: np.array([[5, 10, 12, 30, 40]] * 3)}
    row = ex.sensitivity_row(ex.admission_summary(runs))
    assert row["T1 holds"] and row["gain p99 %"] == pytest.approx(110.0)
    assert row["gain p99.9 %"] == pytest.approx(20.0)


def test_total_errors_add_positive_and_negative():
    errors = pd.DataFrame(
        {"p": [99.0, 99.0], "method": ["PM", "PM"], "positive": [1.0, 0.0], "negative": [0.0, 3.0]}
    )
    tot = ex.total_errors(errors)
    assert tot.loc[(99.0, "PM"), "mean"] == 200.0 and tot.loc[(99.0, "PM"), "max"] == 300.0


def test_hand_example_and_its_figures():
    live = ex.LiveTrace.generate(
        G1(2.0, 1.0, 3.0, 4, 3.0, 6.0, 2.0), 20.0, np.random.default_rng(6)
    )
    hand = ex.hand_example(live, ex.HAND_RATES[:5])
    assert hand["burst"].size >= 2 and hand["threshold"] == 3.0
    assert (np.diff(hand["truth"]) <= 0).all()  # no latency grows with the rate
    assert plots.why_underpredicts(hand).axes
    curve = live.acctail_curve(1.5, 2, ex.LIVE_RATES[:6], live.true_us(99.0, ex.LIVE_RATES[:6]))
    assert (curve["model_rates"] >= 3000).all()
    assert plots.acctail_live(curve, live.acctail(1.5, 2), 1.5, 2).axes


def test_error_figures_draw_infinite_zero_and_missing_values():
    index = pd.MultiIndex.from_product([["A", "B"], [99.0, 99.9]], names=["method", "p"])
    err = pd.DataFrame(
        {col: [np.inf, 0.0, np.nan, 50.0] for col, _ in plots.ERROR_SERIES}, index=index
    )
    fig = plots.error_bars(err, ["A", "B"], "t")
    labels = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert "unbounded" in labels and "0" in labels and "n/a" in labels


def test_fig3_draws_a_bootstrap_ci_that_misses_rho(tmp_path):
    # on a few segments (one tenant of a real trace) the percentile CI can lie wholly above ρ
    rho = pd.DataFrame({"p": [99.0, 99.0], "feature": ["burst_time", "burst_size"],
                        "rho": [0.2, np.nan], "lo": [0.3, np.nan], "hi": [0.9, np.nan]})
    fig = plots.spearman_bars(rho, 5)
    fig.savefig(tmp_path / "fig3.png")
    bars = fig.axes[0].containers[1]  # the first feature's bars, with their error bars
    (segment,) = bars.errorbar.lines[2][0].get_segments()
    assert segment[:, 1].tolist() == pytest.approx([0.2, 0.9])  # from ρ to the CI's far end


def test_tenant_errors_by_hand():
    """One accuracy tenant (it ran MMP), one that did not; AccTail's two SLOs at p99: P/A =
    100/200 (negative error 100 %) and 300/100 (positive 200 %)."""
    rows = [
        {"tenant": 0, "method": "AccTail", "p": 99.0, "rate": 3000.0, "predicted_us": 100.0,
         "actual_us": 200.0},
        {"tenant": 0, "method": "AccTail", "p": 99.0, "rate": 3000.0, "predicted_us": 300.0,
         "actual_us": 100.0},
        {"tenant": 0, "method": "MMP", "p": 99.0, "rate": 3000.0, "predicted_us": 1.0,
         "actual_us": 1.0},
        {"tenant": 1, "method": "AccTail", "p": 99.0, "rate": 3000.0, "predicted_us": 1.0,
         "actual_us": 9.0},
    ]  # fmt: skip
    table = ex.tenant_errors(pd.DataFrame(rows).assign(reading="primary"), ["primary"])["primary"]
    assert table.index.tolist() == [0]  # only the accuracy tenant
    row = table.loc[0]
    assert row[("avg_positive_%", "AccTail", 99.0)] == pytest.approx(100.0)
    assert row[("max_positive_%", "AccTail", 99.0)] == pytest.approx(200.0)
    assert row[("max_negative_%", "AccTail", 99.0)] == pytest.approx(100.0)
    assert row[("mean_total_%", "AccTail", 99.0)] == pytest.approx(150.0)
    assert row[("max_total_%", "AccTail", 99.0)] == pytest.approx(200.0)
    assert row[("max_total_%", "MMP", 99.0)] == 0.0


def test_spearman_table_keeps_every_resample():
    segs = pd.DataFrame({f: np.arange(12.0) * (i + 1) for i, f in enumerate(ex.FEATURES)}
                        | {f"p{p:g}": np.arange(12.0) ** 2 for p in ex.PERCENTILES})
    rho = ex.spearman_table(segs, np.random.default_rng(0), 50)
    boot = rho.attrs["boot"]
    assert len(boot) == len(ex.FEATURES) * len(ex.PERCENTILES)
    assert boot[99.9, "max_duration_ms"].shape == (50,)
    assert np.allclose(boot[99.9, "max_duration_ms"], 1.0)  # monotone: ρ = 1 in every resample


def test_joint_readings_get_their_column_before_robust():
    table = pd.DataFrame({"claim": ["x"], "primary": ["reproduced (1)"], "a=b": ["—"],
                          "robust": ["yes"]}, index=["T4"])  # fmt: skip
    claims_ = {"T4": {"by_reading": {"a=b&c=d": {"verdict": "inconclusive",
                                                  "reproduced_value": "2 %"}}}}
    out = ex.with_joint_readings(table, claims_, ["a=b", "a=b&c=d"])
    assert out.columns.tolist() == ["claim", "primary", "a=b", "a=b&c=d", "robust"]
    assert out.loc["T4", "a=b&c=d"] == "inconclusive (2 %)"
