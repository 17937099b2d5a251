"""The analyses notebook 05 calls, on hand-built inputs: the copula fit, the λ-grid views, the
claim groups recorded from them, and the model checks' tables."""

import math

import numpy as np
import pandas as pd
import pytest

from storrepro.run import Run
from storrepro.tofec import model_checks as mc
from storrepro.tofec.analysis import Setting, thresholds
from storrepro.tofec.claims import judging
from storrepro.tofec.config import TofecConfig
from storrepro.tofec.delay import ModelParams, copula_rho_for
from storrepro.tofec.metrics import GridResults, tofec_name

PILOT = Setting(ModelParams(26.0, 48.9, 8.44, 10.7))
KCOLS = [f"k{k}" for k in range(1, 7)]


def normal_copula(rho, count=200_000, n=4):
    """Rows of n standard normals with pairwise correlation exactly ``rho`` in distribution."""
    rng = np.random.default_rng(7)
    common = rng.standard_normal((count, 1))
    return math.sqrt(rho) * common + math.sqrt(1 - rho) * rng.standard_normal((count, n))


def test_copula_rho_for_inverts_the_correlation():
    # Normal rows (no marginal transform): the pairwise correlation is ρ itself.
    assert copula_rho_for(normal_copula, 0.30) == pytest.approx(0.30, abs=0.01)
    with pytest.raises(ValueError, match="target correlation 0.9 is not reached"):
        copula_rho_for(normal_copula, 0.9)


def hand_runs():
    """Two rates, two seeds, three static codes, TOFEC (α = 0.9 and the alternatives) and
    Greedy; seed 1 is seed 0 with every delay 2 % higher."""
    rows = []
    for rep, scale in ((0, 1.0), (1, 1.02)):
        for rate, means in ((2.0, (200.0, 150.0, 90.0)), (5.0, (210.0, 160.0, 100.0))):
            for code, mean in zip(("(1,1)", "(2,1)", "(6,6)"), means, strict=True):
                rows.append({"rate": rate, "rep": rep, "policy": code, "mean": mean * scale,
                             "k1": 1.0})
            rows.append({"rate": rate, "rep": rep, "policy": "Greedy", "mean": 88.0 * scale,
                         "k1": 0.5, "k6": 0.5})
            for a in (0.9, 0.5, 0.95, 0.99):
                rows.append({"rate": rate, "rep": rep, "policy": tofec_name(a),
                             "mean": 80.0 * scale, "k3": 0.6, "k4": 0.4})
    frame = pd.DataFrame([dict.fromkeys(KCOLS, 0.0) | row for row in rows])
    for metric in ("median", "p90", "p99", "std"):
        frame[metric] = frame["mean"] * 0.9
    frame["trend"] = False
    frame["mean_q"] = np.where(frame.policy == "(1,1)", 0.25, 0.0)
    frame["throughput"] = frame["arrival_rate"] = frame["rate"]
    return frame


def hand_summary():
    """The seed means of :func:`hand_runs`, as ``metrics.summarize`` gives them."""
    runs = hand_runs()
    summary = runs.groupby(["rate", "policy"], sort=False).mean(numeric_only=True).reset_index()
    summary["trend_frac"] = 0.0
    return summary.drop(columns=["rep", "trend"])


def hand_grid():
    return GridResults(hand_summary(), c_full=5.0, u11=200.0, runs=hand_runs())


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
    grid = hand_grid()
    ctx = judging.envelope_context(grid, tofec_name(0.9), "mean", n_threads=16)
    # Best code (6,6): TOFEC never uses k = 6 (k_off 1) and nothing larger (k_above 0).
    assert ctx[5.0]["best_code"] == "(6,6)" and ctx[5.0]["k_off"] == 1.0
    assert ctx[5.0]["k_above"] == 0.0 and ctx[5.0]["measured_q"] == 0.25
    # Eq. (11) at Λ = 5 req/s · 0.2 s = 1 thread: 1 / (16 · 15).
    assert ctx[5.0]["model_q"] == pytest.approx(1 / 240)


def test_k_mix_table_and_the_b8_group(tmp_path):
    cfg = TofecConfig(profile="quick")
    grid = hand_grid()
    table = judging.k_mix_table(cfg, grid)
    assert table["top-2 α = 0.9"].tolist() == [1.0, 1.0]  # k = 3 and 4 adjacent
    assert table["Greedy k∈{1,6}"].tolist() == [1.0, 1.0]
    assert table["modal k TOFEC"].tolist() == [3, 3]
    run = Run(cfg, out=tmp_path)
    judging.judge_k_mix(run, grid)
    assert list(run.claims) == ["B8-modal", "B8-top2", "B8-greedy"]
    assert run.claims["B8-greedy"]["verdict"] == "reproduced"  # Greedy: all k = 1 or 6
    top2 = run.claims["B8-top2"]
    assert set(top2["by_reading"]) == {"alpha=0.5", "alpha=0.95", "alpha=0.99"}
    assert top2["not_affected_by"] == ["ideal_decision_point", "phase2_load"]


def test_the_grid_groups_judge_every_alpha(tmp_path):
    cfg = TofecConfig(profile="quick")
    run = Run(cfg, out=tmp_path)
    grid = hand_grid()
    judging.judge_light_load(run, grid)
    judging.judge_envelope(run, grid, ("B5-mean", "B5-greedy"))
    judging.judge_vs_greedy(run, grid)
    assert run.claims["B4-mean-11"]["role"] == "calibration"
    assert set(run.claims["B4-mean-11"]["by_reading"]) == set(judging.ALPHA_ALTS)
    assert run.claims["B4-greedy-mean"]["by_reading"] == {}
    b5 = run.claims["B5-mean"]
    assert b5["uncertainty"]["n"] == 2 and set(b5["by_reading"]) == set(judging.ALPHA_ALTS)
    # TOFEC 80 over the best static 90: 0.889 in both seeds, inside ×/÷ 1.15.
    assert b5["verdict"] == "reproduced"
    assert run.claims["B5-greedy"]["not_affected_by"] == list(cfg.readings)
    assert run.claims["B7-vs-greedy"]["verdict"] == "not reproduced"  # 80/88: not a multiple


def test_threshold_table_holds_the_midpoints():
    table = mc.threshold_table(PILOT)
    assert list(table.index) == list(range(1, 13)) and table.index.name == "n or k"
    q = table["Q(n)"].to_numpy()
    assert table["T^n"].iloc[0] == pytest.approx((q[0] + q[1]) / 2)
    np.testing.assert_allclose(table["T^n"].iloc[:-1], thresholds(q))
    assert table["T^n"].iloc[-1] == 0.0 and table["T̃^k"].notna().sum() == 6


def test_separability_holds_for_the_pilot_fit():
    gap, table = mc.separability(PILOT)
    assert gap < 1e-6
    assert table.shape == (4, 2)
    assert table.loc["k class 1"].iloc[0] == pytest.approx(table.loc["k class 1"].iloc[1])


def test_backlog_check_keeps_the_high_rates():
    grid = GridResults(hand_summary(), c_full=5.0, u11=200.0)
    assert mc.backlog_check(grid, 16).empty  # no rate >= 40 req/s
    table = mc.backlog_check(grid, 16, from_rate=5.0)
    assert table.loc[5.0, "Eq. (11)"] == pytest.approx(1 / 240)


def test_fit_table_sets_the_pilot_beside_the_fit():
    table = mc.fit_table(ModelParams(1.0, 2.0, 3.0, 4.0))
    assert table.fitted.tolist() == [1.0, 2.0, 3.0, 4.0]
    assert table.pilot.tolist() == [26.0, 48.9, 8.44, 10.7]


def hand_phases():
    """Per (pattern, seed, policy) phase metrics: TOFEC recovers in 5 s, Greedy in 8 s, both
    Ideals in 30 s, in every pattern; two seeds a little apart."""
    names = ["TOFEC", *(tofec_name(a) for a in (0.5, 0.95, 0.99))]
    names += ["Greedy", "Ideal", "Ideal (arrival)"]
    rows = []
    for pattern in ("primary", "literal 10/80/10", "0.95·C_full"):
        for rep in (0, 1):
            for policy in names:
                recovery = 5.0 if "TOFEC" in policy else 8.0 if policy == "Greedy" else 30.0
                rows.append(
                    {
                        "pattern": pattern,
                        "rep": rep,
                        "policy": policy,
                        "switch_s": 1.0,
                        "surge_mean_k": 1.0 + 0.01 * rep,
                        "phase1_mean": 90.0 + rep,
                        "phase2_mean": 300.0,
                        "phase3_mean": 90.0,
                        "recovery_s": recovery + rep,
                        "k_std_p1p3": (0.3 if "TOFEC" in policy else 1.0) + 0.01 * rep,
                        "phase2_k1": 0.95,
                        "phase2_k_ge4": 0.2 + 0.01 * rep,
                    }
                )
    return pd.DataFrame(rows)


@pytest.mark.parametrize("with_trace", [False, True])
def test_judge_phases_under_every_load_and_names_the_trace(tmp_path, with_trace):
    trace = tmp_path / "t.csv"
    trace.write_text("vd1,R,0,4096,1\nvd1,R,0,4096,5\n")
    cfg = TofecConfig(profile="quick", trace=str(trace) if with_trace else "")
    run = Run(cfg, out=tmp_path)
    judging.judge_phases(run, hand_phases())
    assert list(run.claims) == ["B9a", "B9b", "B9c", "B9c-greedy", "B9d"]
    b9d = run.claims["B9d"]
    assert b9d["verdict"] == "reproduced"  # 5 s and 8 s, both faster than 30 s
    assert set(b9d["by_reading"]) == set(cfg.reading_labels())
    assert set(run.claims["B9c-greedy"]["by_reading"]) == {"phase2_load=1.03", "phase2_load=0.95"}
    assert run.claims["B9c-greedy"]["verdict"] == "reproduced"  # 20 % with k >= 4
    noted = ["Checked on the user's trace t.csv" in c["reason"] for c in run.claims.values()]
    assert noted == [with_trace] * 5


def test_recovery_table_by_load_and_decision_point():
    table = judging.recovery_table(hand_phases(), 0.9)
    row = table.loc[("1.03·C_full (the literal 80 req/s)", "Ideal", "TOFEC")]
    assert row["minus Ideal (s)"] == pytest.approx(-25.0) and row["faster on"] == "2/2"
    assert len(table) == 3 * 2 * 2
