"""Notebook 01's claim rules on hand-built inputs: every test rule fails on one and passes on
another; invariants where cheap."""

import math

import numpy as np
import pandas as pd
import pytest

from storrepro.periodicity import claims as rules

METHODS = (*rules.BASELINES, rules.PP)
DATASETS = ["cran", "synthetic"]
GOOD = {  # method -> (accuracy, f1, precision): PrecisePeriod leads, baselines answer always
    "findFrequency": (0.5, 0.5, 0.5),
    "seasonLength": (0.2, 0.2, 0.2),
    "SAZED_maj": (0.55, 0.55, 0.55),
    "SAZED_opt": (0.56, 0.56, 0.56),
    "PrecisePeriod": (0.6, 0.74, 0.95),
    "No Preprocessing": (0.5, 0.6, 0.9),
    "Single Verification": (0.5, 0.6, 0.9),
}


def _scored(values=GOOD, override=None) -> pd.DataFrame:
    """One row per (dataset, tolerance, method); ``override[(dataset, method)] = (a, f, p)``."""
    override = override or {}
    rows = []
    for d in DATASETS:
        for t in (0.0, 0.02):
            for m, v in values.items():
                a, f, p = override.get((d, m), v)
                answered = round(100 * a / p) if p else 0
                rows.append({"dataset": d, "tolerance": t, "method": m, "accuracy": a,
                             "f1": f, "precision": p, "recall": a, "n": 100,
                             "answered": answered, "hits": round(100 * a),
                             "abstentions": 100 - answered})
    return pd.DataFrame(rows)


def _verdict(claim):
    return claim.verdict


def test_b_claims_pass_on_a_table_where_precise_period_leads():
    s = _scored(override={("cran", "findFrequency"): (0.7, 0.7, 0.7),
                          ("synthetic", "findFrequency"): (0.3, 0.3, 0.3)})
    # findFrequency leads the baselines on CRAN here, but stays below PrecisePeriod's F1
    got = {
        "B1": rules.b1(s, DATASETS, 0.02), "B1b": rules.b1(s, DATASETS, 0.0),
        "B2": rules.b2(s), "B3": rules.b3(_scored()), "B3b": rules.b3b(s), "B4": rules.b4(s),
        "B5": rules.b5(s, METHODS), "B6": rules.b6(s, DATASETS), "B7": rules.b7(s),
        "B8": rules.b8(_scored()),
    }
    assert {k: c.verdict for k, c in got.items()} == dict.fromkeys(got, "reproduced")
    assert got["B1b"].id == "B1b" and got["B1b"].kind == "should"
    assert got["B8"].role == "invariant" and got["B1"].role == "test"


@pytest.mark.parametrize(
    ("rule", "override"),
    [
        (lambda s: rules.b1(s, DATASETS, 0.02), {("synthetic", "seasonLength"): (0.9, 0.9, 0.9)}),
        (lambda s: rules.b1(s, DATASETS, 0.0), {("cran", "SAZED_opt"): (0.8, 0.8, 0.8)}),
        (rules.b2, {("synthetic", "SAZED_maj"): (0.61, 0.61, 0.61)}),
        (rules.b2b, {("cran", "SAZED_opt"): (0.64, 0.64, 0.64)}),
        (rules.b3, {("cran", "PrecisePeriod"): (0.6, 0.7, 0.85)}),
        (rules.b3b, {("synthetic", "PrecisePeriod"): (0.6, 0.7, 0.8)}),
        (rules.b4, {}),  # findFrequency 0.5 on both: no drop
        (lambda s: rules.b5(s, METHODS), {("cran", "seasonLength"): (0.58, 0.58, 0.58)}),
        (lambda s: rules.b6(s, DATASETS), {("cran", "SAZED_maj"): (0.3, 0.45, 1.0)}),
        (rules.b7, {("synthetic", "SAZED_maj"): (0.65, 0.65, 0.65)}),
        (rules.b8, {("cran", "SAZED_opt"): (0.4, 0.4, 0.4)}),
    ],
)
def test_each_b_rule_fails_on_a_table_that_breaks_it(rule, override):
    claim = rule(_scored(override=override))
    assert claim.verdict == "not reproduced" and claim.reason


def test_b1_reason_names_the_abstentions_when_precise_period_loses():
    s = _scored(override={("synthetic", "seasonLength"): (0.99, 0.99, 0.99),
                          ("synthetic", "PrecisePeriod"): (0.3, 0.45, 0.95)})
    claim = rules.b1(s, DATASETS, 0.02)
    assert claim.verdict == "not reproduced"
    assert "answers 32% of 100 series" in claim.reason and "seasonLength" in claim.reason
    assert claim.requires == ("A1", "A2")


def test_ablation_rules_c1_c2():
    good = _scored()
    assert rules.ablation(good, "synthetic").verdict == "reproduced"
    assert rules.ablation(good, "cran").id == "C2"
    behind = _scored(override={("synthetic", "No Preprocessing"): (0.65, 0.75, 0.9)})
    assert rules.ablation(behind, "synthetic").verdict == "not reproduced"
    close = _scored(override={("synthetic", "Single Verification"): (0.59, 0.74, 0.9)})
    c1 = rules.ablation(close, "synthetic")  # never 0.02 ahead of Single Verification
    assert c1.verdict == "not reproduced" and "Single Verification" in c1.reason
    assert rules.ablation(close, "cran").verdict == "reproduced"  # C2 needs no margin


def _syn_results(single, truth, pp, nopre, ratio):
    return pd.DataFrame({"dataset": "synthetic", "truth": truth, "Single Verification": single,
                         "PrecisePeriod": pp, "No Preprocessing": nopre, "outlier_ratio": ratio})


def test_c3_longer_errors():
    truth = [100.0] * 5
    longer = _syn_results([200, 200, 300, 50, 100], truth, truth, truth, [0.01] * 5)
    assert rules.c3(longer).verdict == "reproduced"
    shorter = _syn_results([50, 50, 33, 200, 100], truth, truth, truth, [0.01] * 5)
    claim = rules.c3(shorter)
    assert claim.verdict == "not reproduced" and "shorter" in claim.reason


def test_c4_gain_grows_with_outliers():
    truth = [100.0] * 8
    ratio = [0.01] * 4 + [0.04] * 4
    pp = [100] * 8
    grows = _syn_results(truth, truth, pp, [100, 100, 100, None, None, None, None, 100], ratio)
    assert rules.c4(grows).verdict == "reproduced"  # gain 0.25 low r, 0.75 high r
    flat = _syn_results(truth, truth, pp, [None, 100, 100, 100, None, 100, 100, 100], ratio)
    assert rules.c4(flat).verdict == "not reproduced"


def test_d1_theta():
    rows = [
        {"dataset": "d", "theta": t, "precision": 0.5 + t / 2, "recall": 1.2 - t, "f1": f}
        for t, f in zip((0.5, 0.6, 0.7, 0.8, 0.9), (0.6, 0.65, 0.7, 0.66, 0.5), strict=True)
    ]
    assert rules.d1(pd.DataFrame(rows)).verdict == "reproduced"
    rows[2]["f1"] = 0.6
    claim = rules.d1(pd.DataFrame(rows))
    assert claim.verdict == "not reproduced" and "lower θ" in claim.reason


def _cloud(found, correct, aperiodic=0):
    return [{"detection": {"sampled": 100, "found": found, "correct": correct,
                           "planted_share": 0.3, "planted_sampled": 30, "unverifiable": 5,
                           "found_aperiodic": aperiodic},
             "aggregate_pcc": [0.9, 0.85, float("nan")]}]


def test_e_rules():
    assert rules.e1(_cloud(30, 28)).verdict == "reproduced"
    bad = rules.e1(_cloud(30, 15, aperiodic=12))
    assert bad.verdict == "not reproduced" and "12 of the 15 wrong" in bad.reason
    assert bad.values["unverifiable_share"] == pytest.approx(5 / 30)
    assert rules.e1(_cloud(50, 49)).verdict == "not reproduced"  # share 0.5
    assert rules.e2(_cloud(30, 28)).verdict == "reproduced"
    low = [{"aggregate_pcc": [0.5, 0.6]}]
    assert rules.e2(low).verdict == "not reproduced"
    assert rules.e3([(500, 60), (1300, None), (1500, 120)], 1200, 120).verdict == "reproduced"
    assert rules.e3([(500, 60), (2000, 120)], 1200, 120).verdict == "not reproduced"
    assert rules.e3([(500, 60)], 1200, 120).reproduced_value == "never locked"


def _flows(precise: float, other: float, replicates: int = 3, saturate=True) -> pd.DataFrame:
    rows = []
    for r in range(replicates):
        for moves in (1, 2, 4, 8):
            for method, base in (("PreciseScheduling", precise), ("greedy-history", other),
                                 ("random-history", other)):
                rows.append({"replicate": r, "interval": 0, "method": method, "kind": "moves",
                             "value": moves, "moves": moves, "decline_p99": base + moves,
                             "decline_p999": base + (min(moves, 2) if saturate else 5 * moves)})
    return pd.DataFrame(rows)


def _lats(hash_tail: float, tails: dict, mean_after=0.127) -> pd.DataFrame:
    rows = [{"replicate": 0, "interval": 0, "method": "hash", "overhead": 0.0,
             "max_tail_ms": hash_tail, "mean_latency_ms": 0.127}]
    for (method, overhead), tail in tails.items():
        rows.append({"replicate": 0, "interval": 0, "method": method, "overhead": overhead,
                     "max_tail_ms": tail, "mean_latency_ms": mean_after})
    return pd.DataFrame(rows)


TAILS = {
    ("PreciseScheduling", 0.01): 1.0, ("PreciseScheduling", 0.02): 0.9,
    ("PreciseScheduling", 0.05): 0.95, ("greedy-history", 0.05): 2.0,
    ("random-history", 0.01): 3.0, ("random-history", 0.05): 2.0,
    ("random-history", 0.1): 1.1,
}


def test_f_rules_pass_on_a_good_run():
    flows, lats = _flows(20.0, 10.0), _lats(4.0, TAILS)
    got = [rules.f1(flows), rules.f2(flows), rules.f3(lats), rules.f4(lats), rules.f5(lats),
           rules.f6(lats), rules.f7(lats)]
    assert [c.verdict for c in got] == ["reproduced"] * 7
    assert [c.id for c in got] == ["F1", "F2", "F3", "F4", "F5", "F6", "F7"]


@pytest.mark.parametrize(
    ("rule", "flows", "tails", "mean_after"),
    [
        (rules.f1, _flows(5.0, 10.0), TAILS, 0.127),
        (rules.f1, _flows(20.0, 10.0, replicates=2), TAILS, 0.127),
        (rules.f2, _flows(20.0, 10.0, saturate=False), TAILS, 0.127),
        (rules.f3, None, {**TAILS, ("PreciseScheduling", 0.01): 2.5}, 0.127),
        (rules.f4, None, TAILS, 0.14),
        (rules.f5, None, {**TAILS, ("greedy-history", 0.05): 0.9}, 0.127),
        (rules.f6, None, {**TAILS, ("random-history", 0.1): 1.5}, 0.127),
        (rules.f7, None, {**TAILS, ("PreciseScheduling", 0.05): 0.7}, 0.127),
    ],
)
def test_each_f_rule_fails_on_a_run_that_breaks_it(rule, flows, tails, mean_after):
    arg = flows if flows is not None else _lats(4.0, tails, mean_after)
    claim = rule(arg)
    assert claim.verdict == "not reproduced" and claim.reason


def test_f3_reason_names_the_hash_regime():
    claim = rules.f3(_lats(1.08, {**TAILS, ("PreciseScheduling", 0.01): 0.97,
                                  ("PreciseScheduling", 0.02): 0.96}))
    assert claim.verdict == "not reproduced" and "1.08 ms" in claim.reason


def test_a_rules():
    assert rules.a1(1.0, 0, 0.5).verdict == "reproduced"
    assert rules.a1(0.9, 0, 0.5).verdict == "not reproduced"
    assert rules.a1(1.0, 2, 0.5).role == "invariant"
    expected = {"SAZED_maj(sin 26)": 26, "seasonLength(sin 50)": 50}
    assert rules.a2({"SAZED_maj(sin 26)": 26, "seasonLength(sin 50)": 51}, expected).verdict \
        == "reproduced"
    assert rules.a2({"SAZED_maj(sin 26)": 25, "seasonLength(sin 50)": 50}, expected).verdict \
        == "not reproduced"
    keys = [f"pkg::s{i}" for i in range(20)]
    a3 = rules.a3(keys, [12] * 20, [12] * 20, "R 4.2.2 forecast 8.20")
    assert a3.verdict == "reproduced" and a3.reproduced_value == "20/20 identical (100%)"
    assert a3.reason.startswith("R 4.2.2 forecast 8.20 ran findfrequency on the same 20 series")
    one_off = rules.a3(keys, [12] * 20, [12] * 19 + [1], "R")  # 95 %: still within
    assert one_off.verdict == "reproduced" and "pkg::s19 (port 12, R 1)" in one_off.reason
    two_off = rules.a3(keys, [12] * 20, [4, 4] + [12] * 18, "R")
    assert two_off.verdict == "not reproduced" and two_off.values["differ"] == {
        "pkg::s0": {"port": 12, "R": 4}, "pkg::s1": {"port": 12, "R": 4}}
    no_r = rules.a3(keys, [12] * 20, None, "R is not installed here; install R")
    assert no_r.verdict == "not checkable" and no_r.reason.startswith("R is not installed here")
    assert rules.a5(16.88, 15.72).verdict == "reproduced"
    assert rules.a5(15.72, 15.72).verdict == "not reproduced"  # binary units would give 16


def test_a4_data_sets():
    rng = np.random.default_rng(0)
    table = pd.DataFrame({"period": rng.integers(50, 201, 1000),
                          "outlier_ratio": rng.uniform(0, 0.05, 1000),
                          "noise_var": rng.uniform(0, 0.5, 1000),
                          "slope": np.where(np.arange(1000) % 2, 1e-3, -1e-3)})
    cran_lengths = [16, 3024] + [100] * 80
    cran_freqs = [2, 52.18] + [12] * 80
    assert rules.a4(table, [1000] * 1000, cran_lengths, cran_freqs, 82).verdict == "reproduced"
    assert rules.a4(table[:40], [1000] * 40, cran_lengths, cran_freqs, 20).verdict == "partly"
    assert rules.a4(table, [1000] * 1000, cran_lengths[:50], cran_freqs[:50], 50).verdict \
        == "not reproduced"


def test_headline_branches_on_the_recorded_verdicts():
    class FakeRun:
        claims = {c: {"verdict": "reproduced", "reason": f"{c} fine.", "decided_by": []}
                  for c in rules.HEADLINE_CORE}

    ok = rules.headline_text(FakeRun())
    assert ok["core"] == list(rules.HEADLINE_CORE) and "detection reproduced" in ok["cause"]
    FakeRun.claims["B1"] = {"verdict": "not reproduced", "reason": "B1 lost.",
                            "decided_by": ["verification_target"]}
    bad = rules.headline_text(FakeRun())
    assert "B1 lost." in bad["cause"]  # which readings it hangs on: the Run says (hangs_on)
    assert not math.isnan(len(bad["statement"]))


def test_f0_calibration_and_f3_names_the_ceiling():
    good = {"scale": 2.8, "hash_max_tail_ms": 10.2, "hash_mean_ssd_tail_ms": 1.9}
    claim = rules.f0([good, {**good, "hash_max_tail_ms": 9.9}])
    assert claim.verdict == "reproduced" and claim.role == "calibration"
    assert rules.f0([{**good, "hash_max_tail_ms": 5.0}]).verdict == "not reproduced"
    assert rules.f0([None]).verdict == "not checkable"
    tails = {**TAILS, ("PreciseScheduling", 0.01): 3.0, (rules.CEILING, 0.01): 1.0}
    claim = rules.f3(_lats(10.0, tails))  # -70 % at 2 % but only -70 %/... at 1 %: -70 / -91
    assert claim.values["ceiling_reduction_1pct"] == pytest.approx(90.0)
    stuck = rules.f3(_lats(10.0, {**tails, ("PreciseScheduling", 0.01): 8.0,
                                   (rules.CEILING, 0.01): 7.0}))
    assert stuck.verdict == "not reproduced" and "Even the ceiling" in stuck.reason
    forecast = rules.f3(_lats(10.0, {**tails, ("PreciseScheduling", 0.01): 8.0}))
    assert forecast.verdict == "not reproduced" and "forecast" in forecast.reason
    assert forecast.requires == ("F0",)
