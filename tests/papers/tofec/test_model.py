"""TOFEC's model claims (delay model, formulas, Theorem 1, Corollary 1, the implementation's
checks and our reports): each rule on an input where it holds and one where it fails."""

import pandas as pd

from storrepro.papers.tofec.claims import model, pick
from storrepro.suite.table import judge_row


def judged(cid, **inputs):
    return judge_row(pick(model.TABLE, cid)[0], model, inputs, {})


def test_theorem1_fails_on_several_optima_or_a_missed_condition():
    ok = judged("A3", a3=(1e-8, 1e-8))
    assert ok.verdict == "reproduced" and ok.no_uncertainty and ok.band.startswith("number")
    assert ok.uncertainty is None and ok.role == "test"
    split = judged("A3", a3=(1e-8, 0.3))
    assert split.verdict == "not reproduced" and "more than one local optimum" in split.reason
    off = judged("A3", a3=(1e-2, 1e-8))
    assert off.verdict == "not reproduced" and "misses Theorem 1" in off.reason


def test_corollary1_fails_when_one_function_is_not_monotone():
    assert judged("A4", corollary={"k* decreasing": True, "h decreasing": True}).verdict == (
        "reproduced")
    bad = judged("A4", corollary={"k* decreasing": True, "h decreasing": False})
    assert bad.verdict == "not reproduced" and "h decreasing" in bad.reason
    assert bad.tolerance.startswith("strictly monotone on every step") and "direction" in bad.band


def test_the_copula_stand_in_against_the_papers_correlation():
    copula = judged("C1-copula", copula=(0.08, 0.15, 0.24))
    assert copula.verdict == "not reproduced" and "ρ = 0.240" in copula.reason
    assert "calibrates nothing a claim uses" in copula.reason and copula.role == "stand-in"
    assert judged("C1-copula", copula=(0.14, 0.24, 0.24)).verdict == "reproduced"


def test_invariants_fail_when_the_implementation_is_wrong():
    cases = {
        "MDS": ({"mds": ({"(2,1)": True}, True, 10)}, {"mds": ({"(2,1)": False}, True, 10)}),
        "A1": ({"cost_error": 0.001}, {"cost_error": 0.02}),
        "A2": ({"service_error": 0.001}, {"service_error": 0.02}),
        "A2-gap": ({"gaps": {(12, 6): 0.04, (2, 1): 0.2}}, {"gaps": {(12, 6): 0.5}}),
        "A5": ({"separability": 1e-12}, {"separability": 1e-3}),
        "A6": ({"a6": {"requests": 100, "busy_vs_cost": 1e-15}},
               {"a6": {"requests": 100, "busy_vs_cost": 1e-3}}),
        "KERNEL": ({"a6": {"max_difference": 0.0}}, {"a6": {"max_difference": 1e-9}}),
    }
    for cid, (good, bad) in cases.items():
        holds, fails = judged(cid, **good), judged(cid, **bad)
        assert (holds.verdict, fails.verdict) == ("reproduced", "not reproduced"), cid
        assert holds.role == "invariant" and holds.uncertainty is None


def test_reports_are_analyses():
    for cid, inputs in (
        ("C1", {"fig5": {"+1": 0.6, "+2": 0.7, "+3": 0.8}}),
        ("C2", {"alpha_table": pd.DataFrame({"gap": [1.1], "top2": [0.6]},
                                            index=["TOFEC a=0.9"])}),
        ("C3", {"backlog_table": pd.DataFrame({"m": [1.0], "e": [2.0]}, index=[60.0])}),
    ):
        claim = judged(cid, **inputs)
        assert claim.verdict == "not checkable" and claim.role == "analysis"
        assert claim.tolerance == "reported, not judged" and claim.kind == "report"
    assert judged("C3", backlog_table=pd.DataFrame({"m": [1.0], "e": [2.0]}, index=[60.0])
                  ).reproduced_value == "λ=60: 1.00 vs 2.00"
