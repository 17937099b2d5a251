"""TOFEC claim rules on hand-built inputs: every test rule fails on one and passes on another."""

import pandas as pd
import pytest

from storrepro.run import Run
from storrepro.tofec import claims as rules
from storrepro.tofec.config import READINGS, TOLERANCES, TofecConfig

T = TOLERANCES


def _series(values: dict) -> pd.Series:
    return pd.Series(values, dtype=float)


# ---- tests of the paper ------------------------------------------------------------------------


def test_a3_theorem1():
    assert rules.a3_theorem1(1e-8, 1e-8).verdict == "reproduced"
    split = rules.a3_theorem1(1e-8, 0.3)
    assert split.verdict == "not reproduced" and "more than one local optimum" in split.reason
    off = rules.a3_theorem1(1e-2, 1e-8)
    assert off.verdict == "not reproduced" and "misses Theorem 1" in off.reason
    assert off.role == "test"


def test_a4_corollary1():
    assert rules.a4_corollary1({"k* decreasing": True, "h decreasing": True}).verdict == (
        "reproduced"
    )
    bad = rules.a4_corollary1({"k* decreasing": True, "h decreasing": False})
    assert bad.verdict == "not reproduced" and "h decreasing" in bad.reason


def test_a5_separability():
    assert rules.a5_separability(1e-12).verdict == "reproduced"
    assert rules.a5_separability(1e-3).verdict == "not reproduced"


def _capacities(errors):
    index = pd.MultiIndex.from_tuples(list(errors), names=["n", "k"])
    return pd.DataFrame({"error": list(errors.values())}, index=index)


def test_a1_saturation_names_the_codes_whose_n_does_not_divide_l():
    fine = rules.a1_saturation(_capacities({(1, 1): 0.01, (12, 6): 0.02}), 16)
    assert fine.verdict == "reproduced"
    stagger = rules.a1_saturation(_capacities({(1, 1): 0.01, (8, 4): 0.005, (12, 6): 0.037}), 16)
    assert stagger.verdict == "not reproduced"
    assert "does not divide L = 16" in stagger.reason and "(12, 6)" in stagger.reason
    assert stagger.values["max_error_n_divides_L"] == pytest.approx(0.01)
    other = rules.a1_saturation(_capacities({(1, 1): 0.01, (8, 4): 0.05}), 16)
    assert other.verdict == "not reproduced" and "including ones whose n divides L" in other.reason
    assert "±3 %" in other.tolerance  # the band of the config, not typed twice


def test_b4_ratio_and_absolute_mean():
    assert rules.b4_ratio("B4-mean-11", "x", 0.42, 0.50, 0.41).verdict == "reproduced"
    assert rules.b4_ratio("B4-mean-11", "x", 0.55, 0.50, 0.41).verdict == "not reproduced"
    lo, hi = T["b4"]["abs_mean"]
    assert rules.b4_abs((lo + hi) / 2).verdict == "reproduced"
    assert rules.b4_abs(hi + 1).verdict == "not reproduced"


def test_b5_envelope_names_the_backlog_model_at_high_load():
    ratios = _series({10.0: 1.05, 70.0: 1.30})
    assert rules.b5_envelope("B5-mean", "x", ratios, 1.35).verdict == "reproduced"
    ctx = {
        70.0: {
            "best_code": "(1,1)",
            "best_mean_code": "(1,1)",
            "k_off": 0.2,
            "k_above": 0.2,
            "measured_q": 2.2,
            "model_q": 7.2,
        }
    }
    miss = rules.b5_envelope("B5-mean", "x", ratios, 1.15, ctx)
    assert miss.verdict == "not reproduced" and miss.values["at_rate"] == 70.0
    assert "M/M/1 backlog model" in miss.reason and "7.20" in miss.reason


def test_b5_envelope_names_a_metric_whose_best_code_differs_from_the_mean_s():
    ctx = {
        10.0: {
            "best_code": "(6,3)",
            "best_mean_code": "(10,5)",
            "k_off": 0.9,
            "k_above": 0.9,
            "measured_q": 0.0,
            "model_q": 0.02,
        }
    }
    miss = rules.b5_envelope("B7-envelope", "x", _series({10.0: 2.1}), 2.0, ctx)
    assert miss.verdict == "not reproduced"
    assert "aim at the mean delay" in miss.reason and "M/M/1" not in miss.reason


def test_b6_vs_greedy():
    assert rules.b6_vs_greedy(0.8, 0.5).verdict == "reproduced"
    assert rules.b6_vs_greedy(0.8, 0.9).verdict == "not reproduced"
    assert rules.b6_vs_greedy(0.99, 0.5).verdict == "not reproduced"


def test_b7_vs_greedy():
    assert rules.b7_vs_greedy(0.5).verdict == "reproduced"
    assert rules.b7_vs_greedy(0.9).verdict == "not reproduced"


def test_b8_modal():
    good = pd.Series({2.0: 6, 10.0: 5, 40.0: 2, 70.0: 1, 75.0: 1})
    assert rules.b8_modal(good, 78.0).verdict == "reproduced"
    rising = pd.Series({2.0: 6, 10.0: 5, 40.0: 2, 50.0: 3, 70.0: 1})
    bad = rules.b8_modal(rising, 78.0)
    assert bad.verdict == "not reproduced" and "rises between λ = 40→50" in bad.reason
    low = rules.b8_modal(pd.Series({2.0: 4, 70.0: 1}), 78.0)
    assert low.verdict == "not reproduced" and "it is 4 at λ = 2" in low.reason
    top = rules.b8_modal(pd.Series({2.0: 6, 75.0: 2}), 78.0)
    assert top.verdict == "not reproduced"


def test_b8_top2_paper_band_and_partly_band():
    assert rules.b8_top2(_series({2.0: 1.0, 20.0: 0.85}), 0.99).verdict == "reproduced"
    partly = rules.b8_top2(_series({2.0: 1.0, 20.0: 0.65}), 0.9)
    assert partly.verdict == "partly" and partly.values["at_rate"] == 20.0
    assert rules.b8_top2(_series({20.0: 0.5}), 0.5).verdict == "not reproduced"
    assert partly.tolerance == ">= 0.8 at every λ (partly >= 0.6)"


def test_b8_greedy():
    assert rules.b8_greedy(0.7).verdict == "reproduced"
    assert rules.b8_greedy(0.4).verdict == "not reproduced"


def test_b3_stable():
    assert rules.b3_stable("TOFEC", 74.0, 0.002, 0.0).verdict == "reproduced"
    assert rules.b3_stable("TOFEC", 74.0, 0.05, 0.0).verdict == "not reproduced"
    assert rules.b3_stable("TOFEC", 74.0, 0.002, 0.2).verdict == "not reproduced"


def test_b3_replication_is_judged_on_its_own_run():
    assert rules.b3_replication(58.0, 0.91, 1.0).verdict == "reproduced"
    keeps_up = rules.b3_replication(58.0, 0.999, 0.0)
    assert keeps_up.verdict == "not reproduced" and "keeps up" in keeps_up.reason


def test_b2_fixedk():
    assert rules.b2_fixedk(0.25, 0.9).verdict == "reproduced"
    assert rules.b2_fixedk(0.40, 0.9).verdict == "partly"
    assert rules.b2_fixedk(0.60, 0.9).verdict == "not reproduced"


def test_b9a_b9b_b9c():
    assert rules.b9a_surge(0.5, 1.03, 0.9).verdict == "reproduced"
    assert rules.b9a_surge(5.0, 1.03, 0.9).verdict == "not reproduced"
    assert rules.b9b_phases(0.05, 0.05, "Ideal").verdict == "reproduced"
    gap = rules.b9b_phases(0.30, 0.05, "Ideal", "phase 3")
    assert gap.verdict == "not reproduced" and "phase 3" in gap.reason
    assert rules.b9c_stability(0.5, 0.97, 0.9).verdict == "reproduced"
    assert rules.b9c_stability(0.9, 0.97, 0.9).verdict == "not reproduced"
    assert rules.b9c_stability(0.5, 0.5, 0.9).verdict == "not reproduced"


def test_b9d_follows_the_paper_s_faster_than_ideal():
    # No 1.2x allowance: 10.7 s against Ideal's 9.4 s is not faster.
    assert rules.b9d_recovery(10.7, 6.8, 30.0, 0.9, "head_of_line").verdict == "reproduced"
    arrival = rules.b9d_recovery(10.7, 6.8, 9.4, 0.9, "arrival")
    assert arrival.verdict == "partly" and "TOFEC not faster" in arrival.reason
    assert "drains the phase-2 backlog with (1,1)" in arrival.reason
    slow = rules.b9d_recovery(60.0, 40.0, 30.0, 0.99, "head_of_line")
    assert slow.verdict == "not reproduced" and "moving average" in slow.reason


def test_report_only_claims_are_not_judged():
    for claim in (
        rules.c1_fig5({"+1": 0.6, "+2": 0.7, "+3": 0.8}),
        rules.b5_strict(1.2),
        rules.b9c_greedy(0.01, 0.0),
        rules.b9d_primary(3.0, 1.0, 2.0),
        rules.c2_alpha(pd.DataFrame({"gap": [1.1], "top2": [0.6]}, index=["TOFEC a=0.9"])),
        rules.c3_backlog(pd.DataFrame({"m": [1.0], "e": [2.0]}, index=[60.0])),
    ):
        assert claim.verdict == "not checkable" and claim.kind == "report"


# ---- calibrations and invariants ---------------------------------------------------------------


def test_calibrations():
    assert rules.b1_code("(1,1)", 205.0, 156.0).verdict == "reproduced"
    assert rules.b1_code("(1,1)", 250.0, 156.0).verdict == "not reproduced"
    assert rules.b1_best(80.0, "(12,6)").verdict == "reproduced"
    assert rules.b1_best(120.0, "(12,6)").verdict == "not reproduced"
    assert rules.b2_ratio("B2-21", 0.69, 0.70, 0.05).verdict == "reproduced"
    assert rules.b2_ratio("B2-21", 0.60, 0.70, 0.05).verdict == "not reproduced"
    assert rules.b2_126(0.25).verdict == "reproduced"
    assert rules.b2_126(0.40).verdict == "not reproduced"
    copula = rules.c1_copula(0.08, 0.15, 0.24)
    assert copula.verdict == "not reproduced" and "ρ = 0.240" in copula.reason
    assert rules.c1_copula(0.14, 0.24, 0.24).verdict == "reproduced"
    for claim in (copula, rules.b1_best(80.0, "(12,6)"), rules.b2_126(0.25)):
        assert claim.role == "calibration"


def test_invariants():
    assert rules.mds({"(2,1)": True, "(4,2)": True}, True, 10).verdict == "reproduced"
    assert rules.mds({"(2,1)": True, "(4,2)": False}, True, 10).verdict == "not reproduced"
    assert rules.a1_cost(0.001).verdict == "reproduced"
    assert rules.a1_cost(0.02).verdict == "not reproduced"
    assert rules.a2_gap({(12, 6): 0.04, (2, 1): 0.2}).verdict == "reproduced"
    assert rules.a2_gap({(12, 6): 0.5}).verdict == "not reproduced"
    assert rules.b3_saturated("TOFEC", 78.0, 78.2).verdict == "reproduced"
    assert rules.b3_saturated("TOFEC", 60.0, 78.2).verdict == "not reproduced"
    assert rules.a6_semantics(100, 1e-15).verdict == "reproduced"
    assert rules.kernel_identity(0.0).verdict == "reproduced"
    assert rules.kernel_identity(1e-9).verdict == "not reproduced"
    for claim in (rules.mds({}, True, 1), rules.b3_saturated("Greedy", 1.0, 1.0)):
        assert claim.role == "invariant"


# ---- readings and headline ---------------------------------------------------------------------


def test_readings_declared():
    assert READINGS["ideal_decision_point"].primary == "head_of_line"
    assert "right after arrival rate drops" in READINGS["ideal_decision_point"].paper_words
    assert READINGS["alpha"].primary == "0.9" and "0.99" in READINGS["alpha"].others()
    assert TofecConfig.readings is READINGS


def test_headline_names_the_failed_core_claims(tmp_path):
    run = Run(TofecConfig(profile="quick"), out=tmp_path)
    every = list(TofecConfig.readings)
    run.record(rules.b3_stable("TOFEC", 74.0, 0.002, 0.0), not_affected_by=every)
    run.record(rules.b5_envelope("B5-mean", "x", _series({70.0: 1.3}), 1.15), not_affected_by=every)
    run.record(rules.b9d_recovery(10.0, 6.0, 30.0, 0.9, "head_of_line"), not_affected_by=every)
    text = rules.headline_text(run)
    assert text["core"] == ["B3-0.95-TOFEC", "B5-mean", "B9d"]
    assert "B5-mean" in text["cause"] and "B9d" not in text["cause"]
    assert run.headline(**text)["verdict"] == "partly"


def test_b9b_names_a_slow_recovery_when_phase_3_misses():
    slow = rules.b9b_phases(0.14, 0.05, "Ideal", "phase 3", recovery_s=64.0)
    assert slow.verdict == "not reproduced" and "reaches past the 20 s" in slow.reason
    spread = rules.b9b_phases(0.14, 0.05, "Ideal", "phase 1", recovery_s=7.0)
    assert "spreads over more k" in spread.reason


def test_a_gain_over_an_uncalibrated_baseline_is_void(tmp_path):
    run = Run(TofecConfig(profile="quick"), out=tmp_path)
    every = list(TofecConfig.readings)
    run.record(rules.b1_code("(1,1)", 250.0, 156.0))  # the surrogate misses basic's delays
    gain = run.record(rules.b4_ratio("B4-mean-11", "x", 0.4, 0.5, 0.41), not_affected_by=every)
    assert gain["verdict"] == "void" and "B1-(1,1)" in gain["reason"]
    run.record(rules.b2_ratio("B2-21", 0.70, 0.70, 0.05))
    assert run.record(rules.b3_replication(58.0, 0.9, 1.0), not_affected_by=every)["verdict"] == (
        "reproduced"
    )
