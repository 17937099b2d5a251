"""The analyses notebook 03 calls, on small hand-made inputs: its tables, the readings' judging,
the agreement measures and a user's trace named in the reasons; a few real runs at one seed;
the figures it draws."""

from functools import partial

import matplotlib
import numpy as np
import pandas as pd
import pytest

from storrepro.papers.vdi import claims as vc
from storrepro.papers.vdi import metrics, plots, tables
from storrepro.papers.vdi.config import SystemParams, VdiConfig
from storrepro.papers.vdi.experiment import descriptions, sweeps
from storrepro.papers.vdi.seeds import TREND_DAYS
from storrepro.suite.parallel import sweep
from storrepro.suite.run import Run
from storrepro.suite.table import judge_row

matplotlib.use("Agg")
WINDOW = pd.date_range("2016-02-24 07:00", periods=864, freq="600s")
SERIAL = partial(sweep, seed=0, workers=1, progress=False)


def result(policy, seed, violation, queued, forecast="", **more):
    return {"policy": policy, "seed": seed, "forecast": forecast, "violation_pct": violation,
            "queued_pct": queued, "max_debt_pct": 50.0, "freed_pct": 90.0, "pool_blocks": 2e6,
            **more}


def test_comparison_table_means_sd_and_paper_columns():
    runs = [result("fixed", 0, 50.0, 20.0), result("fixed", 1, 60.0, 24.0),
            result("smart", 0, 6.0, 2.0, "proposed"), result("smart", 1, 8.0, 4.0, "proposed"),
            result("inline", 0, 90.0, 40.0)]
    table = tables.comparison_table(runs)
    assert list(table.index) == ["fixed", "smart (proposed)", "inline"]
    assert table.loc["fixed", "viol"] == 55.0 and table.loc["smart (proposed)", "queued"] == 3.0
    assert table.loc["fixed", "viol_sd"] == pytest.approx(np.std([50, 60], ddof=1))
    assert table.loc["smart (proposed)", "paper viol %"] == 6.2
    assert np.isnan(table.loc["inline", "paper queued %"])


def _seed_result(seed, smape_by_model, cum=0.01):
    rows = [{"seed": seed, "day": day, "model": m, "smape": s + day, "smape100": s / 2,
             "mpe": 1.0, "cum_err": cum, "divergent": False}
            for day in range(6) for m, s in smape_by_model.items()]
    char = {"acf_argmax": 144, "acf144": 0.5, "acf72": -0.2, "lag144_r": 0.6, "wtf_spread": 0.05,
            "weekend_ratio": 0.4, "monday_ratio": 1.1, "kmeans_ok": True, "acf": np.zeros(3),
            "trend_means": np.arange(6) * 1000.0, "window_labels": np.array([0, 0, 0, 1, 1, 0])}
    alpha = pd.DataFrame({"seed": seed, "alpha": [0.3, 0.5], "smape": [10.0 + seed, 12.0],
                          "smape_weekly": [9.0, 8.0]})
    alpha_acc = pd.DataFrame([{"seed": seed, "day": day, "model": "proposed", "alpha": a,
                               "smape": 100 * a, "smape100": 50 * a, "mpe": 1.0,
                               "cum_err": a / 10, "divergent": False}
                              for a in (0.3, 0.5, 0.7) for day in range(6)])
    return {"seed": seed, "accuracy": pd.DataFrame(rows), "characterization": char,
            "alpha": alpha, "alpha_accuracy": alpha_acc,
            "fit_seconds": {m: 0.1 for m in smape_by_model}}


def test_forecast_tables_from_the_seed_results():
    models = dict.fromkeys(tables.ACCURACY_ORDER, 10.0) | {"proposed": 14.0}
    results = [_seed_result(0, models), _seed_result(1, models | {"proposed": 16.0}, cum=0.07)]
    acc, psyn = tables.accuracy_rows(results)
    assert len(acc) == 2 * 6 * len(models) and set(psyn.day) == {2}
    table = tables.accuracy_table(results)
    assert list(table.index) == list(tables.ACCURACY_ORDER)
    assert table.loc["proposed", "P-syn SMAPE %"] == 17.0  # (14 + 2 + 16 + 2) / 2
    assert table.loc["proposed", "all days SMAPE %"] == 17.5  # 15 + mean(day 0..5)
    assert table.loc["proposed", "paper SMAPE %"] == 14.8
    alpha = tables.alpha_table(results)
    assert alpha.iloc[0, 0] == 10.5 and alpha.iloc[1, 1] == 8.0
    cum, weekly = tables.cumulative_errors(acc)
    assert cum.set_index(["seed", "day"]).cum_err[(1, "Mon")] == 0.07 and len(weekly) == 12
    char = tables.characterization_table(results)
    assert list(char.columns) == list(tables.CHARACTERIZATION_COLUMNS)
    assert list(char.index) == [0, 1] and char.index.name == "seed"
    trend = tables.trend_table(results)
    assert list(trend.loc[0, list(TREND_DAYS)]) == [0, 1, 2, 3, 4, 5]
    assert trend.loc[1, "K-means labels (Wed..Mon)"] == "000110"


def test_each_forecasting_reading_gives_the_changed_model_its_variants_rows():
    models = dict.fromkeys(tables.ACCURACY_ORDER, 10.0) | {"proposed": 14.0,
                                                           "holt-winters-9d": 30.0,
                                                           "arima-3d": 40.0,
                                                           "proposed-weekly": 20.0}
    labels = VdiConfig.forecast_labels()
    protocol = tables.protocol_inputs([_seed_result(0, models)], labels)
    assert set(protocol) == {None, *labels}

    def psyn_of(label, model):
        return protocol[label][1].set_index("model").smape[model]

    assert psyn_of(None, "holt-winters") == 12.0  # 10 + day 2
    assert psyn_of("train_window=hw-9", "holt-winters") == 32.0
    assert psyn_of("train_window=all-3", "arima-ridge") == 42.0
    assert psyn_of("proposed_history=weekly", "proposed") == 22.0
    assert psyn_of("forecast_alpha=0.7", "proposed") == pytest.approx(70.0)
    assert psyn_of("forecast_alpha=0.7", "holt-winters") == 12.0  # only the proposed model
    assert len(protocol["forecast_alpha=0.3"][0]) == len(protocol[None][0])
    cum = protocol["forecast_alpha=0.3"][2][0]
    assert cum.cum_err.tolist() == pytest.approx([0.03] * 6)  # F8 reads the α rows too
    with pytest.raises(ValueError, match="unknown forecasting reading"):
        tables.accuracy_under(protocol[None][0], protocol[None][0], "pool=prototype")


def _log(demand, c_fg):
    return pd.DataFrame({"demand_iops": demand, "c_fg": c_fg})


def test_sensitivity_frame_latency_and_tick_shift():
    log = _log([25.0, 100.0], [1, 1])  # M/M/1 at 25 IOPS: 40 ms (not above); 100 IOPS: overload
    runs = {"tick 60 s": {"fixed": [result("fixed", 0, 12.0, 1.0, log=log)],
                          "smart": [result("smart", 0, 3.0, 1.0, log=log)]}}
    base = [result("fixed", 0, 10.0, 1.0, log=log), result("smart", 0, 2.5, 1.0, log=log)]
    frame = tables.sensitivity_frame(runs, base, 50.0)
    assert list(frame.variant) == ["tick 60 s", "tick 60 s", "baseline", "baseline"]
    assert (frame.latency_violation_pct == 50.0).all()
    assert metrics.tick_shift_pp(frame) == 2.0


def test_agreement_is_the_largest_difference():
    fluid = pd.DataFrame({"simpy_violation_pct": [1.0, 2.0], "fluid_violation_pct": [1.0, 2.5],
                          "simpy_queued_pct": [0.1, 0.2], "fluid_queued_pct": [0.3, 0.2]})
    assert metrics.agreement_pp(fluid) == 0.5


def _tick_run(policy, debt_frac, violations, **more):
    n = 864
    violation = np.arange(n) < violations
    log = pd.DataFrame({"debt": np.asarray(debt_frac) * 100.0, "bg_served": np.zeros(n),
                        "violation": violation, "demand_iops": np.full(n, 1000.0),
                        "c_fg": np.full(n, 20)})
    return {"policy": policy, "seed": 0, "log": log, "pool_blocks": 100.0, "max_lump_pct": 2.0,
            "violation_pct": 100.0 * violation.mean(), "queued_pct": 50.0 * violation.mean(),
            **more}


def test_scheduler_inputs_and_the_reading_table():
    day = (WINDOW.hour >= 8) & (WINDOW.hour <= 19)
    fixed = _tick_run("fixed", np.full(864, 0.45), 432)  # 50 % of the ticks
    smart = _tick_run("smart", np.where(day, 0.9, 0.2), 54, cff=np.zeros(864))  # 6.25 %
    oracle = _tick_run("smart", np.where(day, 0.9, 0.2), 36)  # 4.1 %
    runs = {"fixed": {1.0: [fixed]}, "smart": {1.0: [smart]}, "oracle": [oracle]}
    idle = [_tick_run("idle-only", np.zeros(864), 9)]  # 1.04 %
    inputs = vc.scheduler_inputs(runs, idle, WINDOW, SystemParams())
    s7 = judge_row(vc.rows("S7")[0], vc, inputs, {})
    assert s7.values == pytest.approx(
        {"idle_only": 100 * 9 / 864, "oracle": 100 * 36 / 864, "forecast": 6.25}
    )
    s6 = judge_row(vc.rows("S6")[0], vc, inputs, {})
    assert s6.values["ratio_violation"] == pytest.approx(8.0)
    s9 = judge_row(vc.rows("S9")[0], vc, inputs, {})
    assert s9.values["drains"] == 6 and s9.verdict == "reproduced"
    causes = {"primary": inputs["causes"]}
    table = tables.reading_table({"primary": runs}, causes)
    assert table.loc["primary", "fixed viol %"] == 50.0
    assert table.loc["primary", "oracle viol %"] == pytest.approx(100 * 36 / 864)
    # demand under the FG capacity, no stolen core, no emergency burn: every violation "other"
    assert table.loc["primary", "viol from other (pp)"] == 6.25


def test_the_run_names_a_users_trace_in_the_reasons(tmp_path):
    trace = tmp_path / "small.csv"
    trace.write_text("time_s,iops\n0,5\n600,6\n")  # checked by Run: traffic every day, repeated
    run = Run(VdiConfig(profile="quick", trace=str(trace)), out=tmp_path)
    runs = pd.DataFrame({"violation_pct": [50.0], "queued_pct": [20.0]})
    entry, s11 = run.judge_table(vc.rows("S8", "S11"), vc,
                                 {"fixed": runs, "smart": runs, "same": True})
    assert entry["reason"].endswith("Checked on the user's trace small.csv (detected), not on "
                                    "the paper's data.")
    assert "user's trace" not in s11["reason"]


def test_pool_scale_table():
    frame = pd.DataFrame({"violation_pct": [50.0, 60.0], "queued_pct": [20.0, 20.0]})
    smart = pd.DataFrame({"violation_pct": [5.0, 10.0], "queued_pct": [2.0, 4.0]})
    table = tables.pool_scale_table({1.2: (frame, smart), 0.8: (frame, smart)})
    assert list(table.index) == [0.8, 1.2]
    assert table.loc[1.0 * 0.8, "viol ratio (per-seed mean)"] == 8.0  # (10 + 6) / 2
    assert table.loc[1.2, "smart queued %"] == 3.0


def test_fixed_day_table():
    day = {"pool_blocks": 200.0, "low": 0.4, "high": 0.5, "violation_pct": 3.0, "queued_pct": 1.0,
           "max_debt": 100.0, "final_debt": 50.0}
    row = tables.fixed_day_table(day).loc["40% -> 50%"]
    assert row["peak debt % of pool"] == 50.0 and row["debt left at 07:00 % of pool"] == 25.0


def test_runs_at_one_seed():
    stats = descriptions.workload_stats(0, [0])
    assert stats.loc[0, "mean IOPS"] == pytest.approx(3200 * 0.6, rel=0.2)
    system = SystemParams()
    idle = sweeps.policy_runs(0, [0], "idle-only", system, SERIAL)
    inline = sweeps.policy_runs(0, [0], "inline", system, SERIAL)
    assert idle[0]["violation_pct"] <= inline[0]["violation_pct"]
    assert metrics.invariants(idle[0], system) == {"S1": True, "S2": True}


def test_the_notebooks_figures_draw():
    char = {"acf": np.linspace(1, 0, 301), "pacf": np.linspace(1, 0, 301), "acf_argmax": 144,
            "lag144_r": 0.6}
    y = np.abs(np.sin(np.arange(864) / 23.0)) + 1
    lun = pd.DataFrame({0: y, 1: 2 * y}, index=WINDOW)
    day = pd.date_range("2016-02-26 07:00", periods=144, freq="600s")
    series = {(c, k): y[:144] for c in ("total", "write") for k in ("actual", "proposed")}
    log = pd.DataFrame({"debt": np.full(144, 40.0), "bg_served": np.zeros(144),
                        "violation": np.arange(144) % 7 == 0})
    figures = [
        plots.arrival_intensity(lun, "title"),
        plots.acf_lag_spread(char, y),
        plots.acf_pacf(char, y.size, "seed 0"),
        plots.decomposition(y, np.full(864, 1.5), WINDOW, "seed 0"),
        plots.forecast_day(series, "proposed", day, "Fig. 12", lambda a, f: 0.0),
        plots.fixed_day({"log": log, "pool_blocks": 100.0, "low": 0.4, "high": 0.5}),
    ]
    for fig in figures:
        assert fig.axes
        plots.plt.close(fig)


def test_queued_below_violations_is_not_true_by_definition():
    """S8 is an analysis: two ticks through the pool, the second far above the 64 cores' 3,200
    IOPS, give 50 % violations and most of the IO queued."""
    from storrepro.papers.vdi.reference import simulate
    from storrepro.sim.core_pool import CorePoolConfig, demand_cores

    pool = simulate(np.array([1000.0, 100_000.0]), np.zeros(2), demand_cores,
                    CorePoolConfig(64, 50.0, 20.0))
    summary = pool.summary(pool.log.to_frame())
    assert summary["violation_pct"] == 50.0
    assert summary["queued_pct"] == pytest.approx(100 * (100_000 - 3200) / 101_000)
    runs = pd.DataFrame({"violation_pct": [summary["violation_pct"]],
                         "queued_pct": [summary["queued_pct"]]})
    claim = judge_row(vc.rows("S8")[0], vc, {"fixed": runs, "smart": runs}, {})
    assert claim.verdict == "not reproduced"
    assert "does not follow from the definitions" in claim.reason
    assert "on some seed both schemes queue a larger share" in claim.reason
    assert "as they do here" not in claim.reason  # a failing S8 does not also say it holds
    runs = pd.DataFrame({"violation_pct": [50.0], "queued_pct": [20.0]})
    holds = judge_row(vc.rows("S8")[0], vc, {"fixed": runs, "smart": runs}, {})
    assert holds.verdict == "reproduced" and holds.reason.endswith("as they do here on every seed.")
