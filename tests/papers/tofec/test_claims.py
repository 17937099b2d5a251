"""TOFEC claim rules on hand-built inputs: every test rule fails on one and passes on another,
each band comes from the shared vocabulary, and a claim straddling its band is inconclusive."""

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.tofec import config
from storrepro.papers.tofec.claims import judging, shared
from storrepro.papers.tofec.claims.ablations import c2_alpha, c3_backlog
from storrepro.papers.tofec.claims.capacity import (
    a1_sat_capacity,
    b2_126_ratio,
    b2_fixedk,
    b2_ratio,
    b3_21_replication,
    b3_saturated,
    b3_stable,
)
from storrepro.papers.tofec.claims.changing_workload import (
    b9a_surge,
    b9b_phases,
    b9c_greedy,
    b9c_stability,
    b9d_recovery,
)
from storrepro.papers.tofec.claims.code_choice import b8_greedy, b8_modal, b8_top2
from storrepro.papers.tofec.claims.delay_model import c1_copula, c1_fig5
from storrepro.papers.tofec.claims.delay_vs_rate import (
    b1_best,
    b1_code,
    b4_abs,
    b4_ratio,
    b5_envelope,
    b5_strict,
    b6_vs_greedy,
    b7_vs_greedy,
)
from storrepro.papers.tofec.claims.formulas import (
    a1_cost,
    a2_gap,
    a2_service,
    a3_theorem1,
    a4_corollary1,
    a5_separability,
)
from storrepro.papers.tofec.claims.simulator_checks import (
    a6_semantics,
    kernel_identity,
    mds_strip_batching,
)
from storrepro.papers.tofec.config import FORCED, READINGS, TofecConfig
from storrepro.suite.bands import VOCABULARY, entry_of
from storrepro.suite.claims import interval
from storrepro.suite.replicates import Pool, decide
from storrepro.suite.run import Run

EVERY = list(READINGS)


def near(x, spread=0.005, n=5):
    """``n`` replicates around ``x`` (mean exactly ``x``)."""
    return x + spread * np.linspace(-1, 1, n)


# ---- bands and the helpers ---------------------------------------------------------------------


def test_every_band_names_a_vocabulary_entry_and_the_papers_words():
    for name in config.BAND_REGISTER:
        band = getattr(config, name)
        assert entry_of(band.source) in VOCABULARY and band.words.strip(), name
    assert config.B5_BAND.high == pytest.approx(1.15) and config.B6_BAND.high == pytest.approx(1.15)
    assert config.B7_ENVELOPE_BAND.high == pytest.approx(1.15)


def test_the_register_dates_every_band_and_says_its_kind():
    assert set(FORCED) >= {name.lower() for name in config.BAND_REGISTER}
    assert set(FORCED) >= {name.lower() for name in config.CALIBRATION_REGISTER}
    for name, entry in FORCED.items():
        assert entry.quote.strip() and entry.kind, name
    assert FORCED["b4_band"].kind == "calibration" and FORCED["b5_band"].kind == "band"
    assert FORCED["b5_band"].symbol == "storrepro.papers.tofec.config:B5_BAND"
    assert "matches with the best static strategy very well" in FORCED["b7_envelope_band"].quote


def test_worst_case_takes_the_worst_verdict_then_the_furthest_mean():
    band = config.B5_BAND
    samples = {2.0: near(1.0), 10.0: near(1.10), 20.0: near(1.3)}
    key, u, table = shared.worst_case(band, samples, "r")
    assert key == 20.0 and table[20.0]["verdict"] == "not reproduced"
    assert u["n"] == 5 and u["mean"] == pytest.approx(1.3)
    key, _, table = shared.worst_case(band, {2.0: near(1.0), 10.0: near(1.15, 0.05)}, "r")
    assert key == 10.0 and table[10.0]["verdict"] == "inconclusive"
    key, _, _ = shared.worst_case(band, {2.0: near(1.0), 10.0: near(1.12)}, "r")
    assert key == 10.0  # nearest an edge among the reproduced
    with pytest.raises(ValueError, match="no replicates"):
        shared.worst_case(band, {}, "r")


def test_a_two_part_claim():
    assert shared.both("reproduced", "reproduced") == "reproduced"
    assert shared.both("reproduced", "not reproduced") == "partly"
    assert shared.both("inconclusive", "not reproduced") == "inconclusive"
    assert shared.both("not reproduced", "not reproduced") == "not reproduced"


# ---- tests of the paper ------------------------------------------------------------------------


def test_a3_theorem1():
    ok = a3_theorem1(1e-8, 1e-8)
    assert ok.verdict == "reproduced" and ok.no_uncertainty and ok.band.startswith("number")
    split = a3_theorem1(1e-8, 0.3)
    assert split.verdict == "not reproduced" and "more than one local optimum" in split.reason
    off = a3_theorem1(1e-2, 1e-8)
    assert off.verdict == "not reproduced" and "misses Theorem 1" in off.reason
    assert off.role == "test"


def test_a4_corollary1():
    assert a4_corollary1({"k* decreasing": True, "h decreasing": True}).verdict == (
        "reproduced"
    )
    bad = a4_corollary1({"k* decreasing": True, "h decreasing": False})
    assert bad.verdict == "not reproduced" and "h decreasing" in bad.reason


def test_a1_sat_is_judged_with_the_approx_band_alone():
    fine = a1_sat_capacity({(1, 1): near(1.01), (12, 6): near(1.037)}, 16)
    assert fine.verdict == "reproduced" and fine.values["worst_code"] == [12, 6]
    assert "does not divide L = 16" in fine.reason
    assert "pilot" not in fine.reason  # the retired pilot band is in the register, once
    off = a1_sat_capacity({(1, 1): near(1.0), (8, 4): near(1.25)}, 16)
    assert off.verdict == "not reproduced" and "does not divide" not in off.reason
    straddle = a1_sat_capacity({(1, 1): near(1.0), (8, 4): near(1.15, 0.1)}, 16)
    assert straddle.verdict == "inconclusive" and straddle.uncertainty["n"] == 5


def _ctx(rate, best="(1,1)", best_mean="(1,1)", k_off=0.2, k_above=0.2, mq=2.2, q=7.2):
    return {rate: {"best_code": best, "best_mean_code": best_mean, "k_off": k_off,
                   "k_above": k_above, "measured_q": mq, "model_q": q}}


def test_b5_envelope_judges_every_rate_and_names_the_backlog_model():
    good = b5_envelope("B5-mean", "x", {10.0: near(1.05), 70.0: near(1.10)})
    assert good.verdict == "reproduced" and good.uncertainty["n"] == 5
    miss = b5_envelope("B5-mean", "x", {10.0: near(1.05), 70.0: near(1.30)}, _ctx(70.0))
    assert miss.verdict == "not reproduced" and miss.values["deciding_rate"] == 70.0
    assert "M/M/1 backlog model" in miss.reason and "7.20" in miss.reason
    wide = b5_envelope("B5-median", "x", {65.0: [1.05, 1.30, 1.10, 1.25, 1.20]})
    assert wide.verdict == "inconclusive"
    better = b5_envelope("B5-greedy", "x", {70.0: near(0.8)})
    assert better.verdict == "not reproduced" and "beats the best static code" in better.reason


def test_b7_envelope_names_a_metric_whose_best_code_differs_from_the_mean_s():
    ctx = _ctx(10.0, best="(6,3)", best_mean="(10,5)", k_off=0.9, k_above=0.9, mq=0.0, q=0.02)
    miss = b5_envelope("B7-envelope", "x", {10.0: near(1.987)}, ctx)
    assert miss.verdict == "not reproduced"
    assert "aim at the mean delay" in miss.reason and "M/M/1" not in miss.reason


def test_b6_vs_greedy():
    better = {5.0: near(0.8), 30.0: near(0.85)}
    assert b6_vs_greedy(better, {5.0: near(0.5)}).verdict == "reproduced"
    worse = b6_vs_greedy(better, {5.0: near(1.1)})
    assert worse.verdict == "not reproduced" and worse.values["p99_ratio"] == pytest.approx(1.1)
    assert b6_vs_greedy(better, {5.0: [0.80, 0.95, 0.85, 0.90, 0.85]}).verdict == (
        "inconclusive"
    )
    assert b6_vs_greedy(better, {5.0: near(0.95)}).verdict == "not reproduced"  # not by much


def test_b7_vs_greedy():
    assert b7_vs_greedy({5.0: near(0.5), 40.0: near(0.6)}).verdict == "reproduced"
    assert b7_vs_greedy({5.0: near(0.95)}).verdict == "not reproduced"


def test_b8_modal():
    good = pd.Series({2.0: 6, 10.0: 5, 40.0: 2, 70.0: 1, 75.0: 1})
    assert b8_modal(good, 78.0).verdict == "reproduced"
    rising = pd.Series({2.0: 6, 10.0: 5, 40.0: 2, 50.0: 3, 70.0: 1})
    bad = b8_modal(rising, 78.0)
    assert bad.verdict == "not reproduced" and "rises between λ = 40→50" in bad.reason
    low = b8_modal(pd.Series({2.0: 4, 70.0: 1}), 78.0)
    assert low.verdict == "not reproduced" and "it is 4 at λ = 2" in low.reason
    top = b8_modal(pd.Series({2.0: 6, 75.0: 2}), 78.0)
    assert top.verdict == "not reproduced"


def test_b8_top2_has_no_partly_band_left():
    assert b8_top2({2.0: near(1.0, 0.0), 20.0: near(0.85)}, 0.99).verdict == "reproduced"
    mid = b8_top2({2.0: near(1.0, 0.0), 20.0: near(0.65)}, 0.9)
    assert mid.verdict == "not reproduced" and mid.values["at_rate"] == 20.0
    assert "partly" not in mid.reason  # the pilot's partly band is retired


def test_b8_greedy():
    assert b8_greedy({2.0: near(0.7)}).verdict == "reproduced"
    assert b8_greedy({2.0: near(0.4)}).verdict == "not reproduced"


def test_b3_stable():
    assert b3_stable("TOFEC", 74.0, near(1.0, 0.002), [0] * 5).verdict == "reproduced"
    assert b3_stable("TOFEC", 74.0, near(0.95), [0] * 5).verdict == "not reproduced"
    assert b3_stable("TOFEC", 74.0, near(1.0, 0.002), [0, 0, 1, 0, 0]).verdict == (
        "not reproduced"
    )


def test_b9a_b9b_b9c():
    assert b9a_surge(near(1.03), near(0.4), 0.9, "0.98·C_full").verdict == "reproduced"
    slow = b9a_surge(near(1.6), near(5.0), 0.9, "0.98·C_full")
    assert slow.verdict == "not reproduced" and "lags" in slow.reason
    phases = {"phase 1": near(1.05), "phase 2": near(1.05), "phase 3": near(1.08)}
    assert b9b_phases(phases, "Ideal", "0.98·C_full").verdict == "reproduced"
    gap = b9b_phases(phases | {"phase 3": near(1.3)}, "Ideal", "x", recovery_s=64.0)
    assert gap.verdict == "not reproduced" and "reaches past the 20 s" in gap.reason
    spread = b9b_phases(phases | {"phase 1": near(1.3)}, "Ideal", "x", recovery_s=64.0)
    assert "spreads over more k" in spread.reason
    better = b9b_phases(phases | {"phase 3": near(0.46)}, "Ideal", "1.03·C_full")
    assert better.verdict == "not reproduced"
    assert "far better than Ideal in phase 3" in better.reason
    assert b9c_stability(near(0.5), 0.97, 0.9, "x").verdict == "reproduced"
    assert b9c_stability(near(0.95), 0.97, 0.9, "x").verdict == "not reproduced"


def test_b9c_greedy_is_judged():
    rare = b9c_greedy(near(0.01, 0.005), "0.98·C_full")
    assert rare.verdict == "not reproduced" and rare.role == "test"
    assert b9c_greedy(near(0.3, 0.05), "x").verdict == "reproduced"


def minus(x):
    """A recovery difference's interval record, as B9d's pool gives it."""
    return interval(x, of="s")


def test_b9d_needs_both_faster_than_ideal():
    means = {"TOFEC": 10.7, "Greedy": 6.8, "Ideal": 30.0}
    both = b9d_recovery(minus(near(-19.3, 2)), minus(near(-23, 2)), means, 0.9, "head_of_line",
                        "1.03·C_full (the literal 80 req/s)")
    assert both.verdict == "reproduced" and both.uncertainty["of"] == "s"
    arrival = b9d_recovery(minus(near(1.25, 0.3)), minus(near(-2.0, 0.3)), means, 0.9, "arrival",
                           "x")
    assert arrival.verdict == "partly" and "drains the phase-2 backlog with (1,1)" in arrival.reason
    short = b9d_recovery(minus(near(0.5, 3)), minus(near(-1, 0.2)), means, 0.9, "head_of_line",
                         "0.98·C_full")
    assert short.verdict == "inconclusive" and "below capacity" in short.reason
    slow = b9d_recovery(minus(near(30, 2)), minus(near(10, 2)), means, 0.99, "head_of_line",
                        "1.03·C_full (the literal 80 req/s)")
    assert slow.verdict == "not reproduced" and "moving average" in slow.reason


def test_b9d_at_its_cap_says_how_many_seeds_would_decide():
    means = {"TOFEC": 3.0, "Greedy": 1.0, "Ideal": 2.5}
    wide = np.tile([-2.0, 2.4], 20)  # mean +0.2, s ≈ 2.23: straddles 0 at 40 seeds
    pool = Pool("x", lambda reps: [wide[i] for i in reps], start=10, cap=40, cap_why="cost")
    u = decide(pool, lambda xs: xs, config.B9D_BAND, "s")
    assert u["n"] == 40 and u["n_needed"] > 40
    claim = b9d_recovery(u, minus(near(-1, 0.1)), means, 0.9, "head_of_line", "x")
    assert claim.verdict == "inconclusive"
    assert f"still undecided at the cap of 40 seeds; the spread says about {u['n_needed']} " \
           "would decide it" in claim.reason
    assert claim.uncertainty["cap_why"] == "cost"


def test_b9d_says_when_a_policy_never_recovers_and_prints_no_nan():
    means = {"TOFEC": 0.0, "Greedy": 0.0, "Ideal": float("nan")}  # Ideal: not by 600 s once
    claim = b9d_recovery(minus([0.0, float("nan")]), minus([0.0, float("nan")]), means, 0.9,
                         "head_of_line", "1.03·C_full")
    assert claim.verdict == "not checkable" and "nan" not in claim.reason + claim.reproduced_value
    assert claim.reproduced_value == ("TOFEC 0.0 s, Greedy 0.0 s, Ideal no recovery by the end "
                                      "of phase 3 on some replicate")
    assert "undefined on 1 of 2 replicates s" not in claim.reason
    assert "undefined on 1 of 2 replicates" in claim.reason


def test_the_retired_pilot_bands_are_stated_once_in_the_register():
    entry = FORCED["pilot_bands"]
    assert entry.kind == "band" and "B5-mean ≤ 1.15× at every λ — reproduced" in entry.value
    assert set(entry.decides) >= {"B5-mean", "B8-top2", "B9d"}


def test_reports_are_analyses():
    for claim in (
        c1_fig5({"+1": 0.6, "+2": 0.7, "+3": 0.8}),
        b5_strict(1.2),
        c2_alpha(pd.DataFrame({"gap": [1.1], "top2": [0.6]}, index=["TOFEC a=0.9"])),
        c3_backlog(pd.DataFrame({"m": [1.0], "e": [2.0]}, index=[60.0])),
    ):
        assert claim.verdict == "not checkable" and claim.role == "analysis"
    assert c3_backlog(pd.DataFrame({"m": [1.0], "e": [2.0]}, index=[60.0])).statement == (
        "Measured E[Q] of (1,1) vs the M/M/1 backlog model (Eq. 11)"
    )


# ---- calibrations and invariants ---------------------------------------------------------------


def test_calibrations():
    assert b1_code("(1,1)", near(205.0), near(156.0)).verdict == "reproduced"
    assert b1_code("(1,1)", near(250.0), near(156.0)).verdict == "partly"
    assert b1_code("(1,1)", near(250.0), near(200.0)).verdict == "not reproduced"
    assert b1_best(near(80.0), "(12,6)").verdict == "reproduced"
    assert b1_best(near(120.0), "(12,6)").verdict == "not reproduced"
    assert b2_ratio("B2-21", 0.69).verdict == "reproduced"
    assert b2_ratio("B2-21", 0.55).verdict == "not reproduced"
    assert b2_126_ratio(0.25).verdict == "reproduced"
    assert b2_126_ratio(0.40).verdict == "not reproduced"
    assert b4_ratio("B4-mean-11", "x", near(0.42), 0.41).verdict == "reproduced"
    assert b4_ratio("B4-mean-11", "x", near(0.55), 0.41).verdict == "not reproduced"
    assert b4_abs(near(85.0)).verdict == "reproduced"
    assert b4_abs(near(110.0)).verdict == "not reproduced"
    assert b3_21_replication(58.0, 0.91, 1.0).verdict == "reproduced"
    keeps_up = b3_21_replication(58.0, 0.999, 0.0)
    assert keeps_up.verdict == "not reproduced" and "keeps up" in keeps_up.reason
    assert b2_fixedk(0.25, 0.9).verdict == "reproduced"
    fixedk = b2_fixedk(0.40, 0.9)
    assert fixedk.verdict == "not reproduced" and "it would be partly" in fixedk.reason
    copula = c1_copula(0.08, 0.15, 0.24)
    assert copula.verdict == "not reproduced" and "ρ = 0.240" in copula.reason
    assert "calibrates nothing a claim uses" in copula.reason
    assert c1_copula(0.14, 0.24, 0.24).verdict == "reproduced"
    for claim in (fixedk, keeps_up, b4_abs(near(85.0)), b2_126_ratio(0.25)):
        assert claim.role == "calibration"
    assert copula.role == "stand-in"  # no claim's runs use the copula


def test_invariants():
    assert mds_strip_batching({"(2,1)": True, "(4,2)": True}, True, 10).verdict == (
        "reproduced"
    )
    assert mds_strip_batching({"(2,1)": True, "(4,2)": False}, True, 10).verdict == (
        "not reproduced"
    )
    assert a1_cost(0.001).verdict == "reproduced"
    assert a1_cost(0.02).verdict == "not reproduced"
    assert a2_service(0.02).verdict == "not reproduced"
    assert a2_gap({(12, 6): 0.04, (2, 1): 0.2}).verdict == "reproduced"
    assert a2_gap({(12, 6): 0.5}).verdict == "not reproduced"
    assert a5_separability(1e-12).verdict == "reproduced"
    assert a5_separability(1e-3).verdict == "not reproduced"
    assert b3_saturated("TOFEC", 78.0, 78.2).verdict == "reproduced"
    assert b3_saturated("TOFEC", 60.0, 78.2).verdict == "not reproduced"
    assert a6_semantics(100, 1e-15).verdict == "reproduced"
    assert a6_semantics(100, 1e-3).verdict == "not reproduced"
    assert kernel_identity(0.0).verdict == "reproduced"
    assert kernel_identity(1e-9).verdict == "not reproduced"
    for claim in (mds_strip_batching({}, True, 1), a5_separability(0.0),
                  b3_saturated("Greedy", 1.0, 1.0)):
        assert claim.role == "invariant"


# ---- readings and headline ---------------------------------------------------------------------


def test_readings_declared():
    assert READINGS["ideal_decision_point"].primary == "head_of_line"
    assert "right after arrival rate drops" in READINGS["ideal_decision_point"].paper_words
    assert "56bda95" in READINGS["ideal_decision_point"].argument  # the dated tolerance change
    assert READINGS["alpha"].primary == "0.9" and "0.99" in READINGS["alpha"].others()
    assert "compromise between how B8-top2" in READINGS["alpha"].argument
    assert READINGS["phase2_load"].primary == "0.98"
    assert READINGS["phase2_load"].others() == ["1.03", "0.95"]
    assert TofecConfig.readings is READINGS


def test_headline_names_the_load_under_which_b9d_holds(tmp_path):
    run = Run(TofecConfig(profile="quick"), out=tmp_path)
    run.judge(b3_stable, "TOFEC", 74.0, near(1.0, 0.002), [0] * 5, not_affected_by=EVERY)
    run.judge(b5_envelope, "B5-mean", "x", {70.0: near(1.3)}, not_affected_by=EVERY)
    means = {"TOFEC": 3.0, "Greedy": 1.0, "Ideal": 2.5}
    slow, fast = (near(0.5, 0.05), near(-1, 0.1)), (near(-19, 1), near(-20, 1))
    run.judge(b9d_recovery, *map(minus, slow), means, 0.9, "head_of_line", "0.98·C_full",
              by_reading={"phase2_load=1.03": (*map(minus, fast), means, 0.9, "head_of_line",
                                               "1.03"),
                          "phase2_load=0.95": (*map(minus, slow), means, 0.9, "head_of_line",
                                               "0.95")},
              not_affected_by=["alpha", "ideal_decision_point", "delay_model"])
    text = judging.headline_text(run)
    assert text["core"] == ["B3-0.95-TOFEC", "B5-mean", "B9d"]
    assert "B5-mean not reproduced" in text["cause"]
    assert "'Faster than Ideal' (B9d) is partly with phase 2 at 0.98·C_full (n = 5 seeds), " \
           "reproduced at 1.03·C_full (the literal 80 req/s), partly at 0.95·C_full" \
           in text["cause"]
    assert "TOFEC recovers from a load drop faster than the head-of-line Ideal only when phase 2 " \
           "overloads the system." in text["cause"]
    assert text["summary"] == (
        "Partly: TOFEC keeps full capacity, but its mean is up to 30 % above the best "
        "code's; it recovers from a load drop faster than an oracle only after an overload.")
    head = run.headline(**text)
    assert head["verdict"] == "partly" and head["by_reading"] == {}
    assert head["hangs_on"] == ["phase2_load"]
    assert head["summary"] == text["summary"]


def test_summary_says_where_the_recovery_claim_holds(tmp_path):
    """The plain headline follows the recorded verdicts: B9d held at the primary load, at a
    below-capacity alternative only, and nowhere."""
    means = {"TOFEC": 3.0, "Greedy": 1.0, "Ideal": 2.5}
    slow, fast = (near(0.5, 0.05), near(-1, 0.1)), (near(-19, 1), near(-20, 1))
    cases = [
        (fast, slow, "and it recovers from a load drop faster than an oracle."),
        (slow, fast, "but it recovers from a load drop faster than an oracle only "
                     "with phase 2 at 95 % of capacity."),
        (slow, slow, "but it is not shown to recover from a load drop faster than an oracle."),
    ]
    for primary, at_095, ending in cases:
        run = Run(TofecConfig(profile="quick"), out=tmp_path)
        run.judge(b3_stable, "TOFEC", 74.0, near(1.0, 0.002), [0] * 5,
                  not_affected_by=EVERY)
        run.judge(b9d_recovery, *map(minus, primary), means, 0.9, "head_of_line", "0.98·C_full",
                  by_reading={"phase2_load=1.03": (*map(minus, slow), means, 0.9,
                                                   "head_of_line", "1.03"),
                              "phase2_load=0.95": (*map(minus, at_095), means, 0.9,
                                                   "head_of_line", "0.95")},
                  not_affected_by=["alpha", "ideal_decision_point", "delay_model"])
        summary = judging.headline_text(run)["summary"]
        assert summary.startswith("Reproduced: TOFEC keeps full capacity " if primary is fast
                                  else "Partly: TOFEC keeps full capacity, ")
        assert summary.endswith(ending), summary


def test_summary_qualifies_a_near_best_delay_the_paper_model_does_not_give(tmp_path):
    run = Run(TofecConfig(profile="quick"), out=tmp_path)
    run.judge(b3_stable, "TOFEC", 74.0, near(1.0, 0.002), [0] * 5, not_affected_by=EVERY)
    for cid in ("B5-mean", "B5-median"):
        run.judge(b5_envelope, cid, "x", {70.0: near(1.05)},
                  by_reading={"delay_model=PURE": (cid, "x", {70.0: near(1.25)})},
                  not_affected_by=[r for r in EVERY if r != "delay_model"])
    means = {"TOFEC": 3.0, "Greedy": 1.0, "Ideal": 2.5}
    slow, fast = (near(0.5, 0.05), near(-1, 0.1)), (near(-19, 1), near(-20, 1))
    run.judge(b9d_recovery, *map(minus, slow), means, 0.9, "head_of_line", "0.98·C_full",
              by_reading={"phase2_load=1.03": (*map(minus, fast), means, 0.9, "head_of_line",
                                               "1.03"),
                          "phase2_load=0.95": (*map(minus, slow), means, 0.9, "head_of_line",
                                               "0.95")},
              not_affected_by=["alpha", "ideal_decision_point", "delay_model"])
    text = judging.headline_text(run)
    assert text["summary"] == (
        "Partly: TOFEC keeps full capacity and near-best mean and median delays (on calibrated "
        "delays only), but it recovers from a load drop faster than an oracle only after an "
        "overload.")
    assert "delay_model" in run.headline(**text)["hangs_on"]  # and the summary fits 40 words
    assert "On the paper's own delay model, Eq. (1)'s shifted exponential (PURE) in place of " \
           "the calibrated stand-in SUR: B5-mean not reproduced" in text["cause"]


def test_a_ratio_over_an_uncalibrated_baseline_is_void(tmp_path):
    run = Run(TofecConfig(profile="quick"), out=tmp_path)
    run.judge(b1_code, "(1,1)", near(250.0), near(200.0))  # SUR misses basic's delays
    gain = run.judge(b4_ratio, "B4-mean-11", "x", near(0.41), 0.41)
    assert gain["verdict"] == "void" and "B1-(1,1)" in gain["reason"]
    run.judge(b2_ratio, "B2-21", 0.70)
    assert run.judge(b3_21_replication, 58.0, 0.9, 1.0)["verdict"] == "reproduced"


def test_a_test_claim_must_be_judged_under_every_reading(tmp_path):
    run = Run(TofecConfig(profile="quick"), out=tmp_path)
    with pytest.raises(ValueError, match="not judged under the readings"):
        run.judge(b8_greedy, {2.0: near(0.7)}, not_affected_by=["alpha"])
