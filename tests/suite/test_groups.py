"""A band judged on several groups: per group by its interval, counted, ranked by overlapping
intervals, and a rule's levels when some parts are undecided (worked by hand)."""

import numpy as np
import pandas as pd
import pytest

from storrepro.suite import groups
from storrepro.suite.bands import Band


def test_per_group_judges_each_interval():
    x = pd.Series([0.2, 0.3, 0.25, 0.0, 0.1, 0.5], index=["a"] * 3 + ["b"] * 3)
    s = groups.per_group(x, Band("number", "test", 0.1, 0.4), "x")
    assert s["a"]["verdict"] == "reproduced" and s["a"]["mean"] == pytest.approx(0.25)
    # b: mean 0.2, sd 0.2646, half-width 4.3027 * 0.2646 / sqrt(3) = 0.657: straddles both edges
    assert s["b"]["verdict"] == "inconclusive"
    assert s["b"]["ci95"][1] - s["b"]["mean"] == pytest.approx(0.6572, abs=1e-4)


def test_a_quantity_no_run_has_is_undecided():
    x = pd.Series([np.nan, np.nan, 1.0, 2.0, np.nan], index=["a", "a", "b", "b", "b"])
    s = groups.per_group(x, Band("number", "test", 0.0, 5.0), "x")
    assert s["a"]["verdict"] == "inconclusive" and s["a"]["n"] == 0
    assert s["b"]["n"] == 2 and s["b"]["mean"] == 1.5


def test_a_count_is_decided_by_its_kth_best():
    band = Band("number", "test", 0.0, 1.0)
    st = {
        "in1": {"verdict": "reproduced", "mean": 0.5, "band": band},
        "in2": {"verdict": "reproduced", "mean": 0.1, "band": band},
        "edge": {"verdict": "inconclusive", "mean": 0.99, "band": band},
        "out": {"verdict": "not reproduced", "mean": 2.0, "band": band},
    }
    assert groups.at_least_k(2, st)["verdict"] == "reproduced"
    assert groups.at_least_k(2, st)["decided_by"] == "in2"  # the closer to the edge
    three = groups.at_least_k(3, st)
    assert three["verdict"] == "inconclusive" and three["decided_by"] == "edge"
    assert three["inside"] == ["in1", "in2"] and three["undecided"] == ["edge"]
    assert groups.at_least_k(4, st)["verdict"] == "not reproduced"
    with pytest.raises(ValueError, match="k = 5 must be within 1..4"):
        groups.at_least_k(5, st)


def test_top_k_by_overlapping_intervals():
    def s(lo, hi):
        return {"mean": (lo + hi) / 2, "ci95": [lo, hi], "n": 3}

    def top(k):
        return Band("bound", f"rank <= {k}", low=1, high=k)

    st = {"a": s(10.5, 11), "b": s(5, 7), "c": s(6, 10), "d": s(0, 1)}
    assert groups.top_k(st, "a", top(1), "x")["verdict"] == "reproduced"  # above every interval
    # b: rank 2 or 3 (c overlaps it)
    assert groups.top_k(st, "b", top(2), "x")["verdict"] == "inconclusive"
    assert groups.top_k(st, "b", top(3), "x")["verdict"] == "reproduced"
    assert groups.top_k(st, "d", top(3), "x")["verdict"] == "not reproduced"  # certainly 4th
    assert groups.top_k(st, "c", top(1), "x")["ci95"] == [2, 3]


def test_levels_and_the_verdict_of_undecided_parts():
    def rule(a, b):  # the criteria by name
        return "reproduced" if a and b else "partly" if a else "not reproduced"

    yes, no, maybe = ({"verdict": v} for v in ("reproduced", "not reproduced", "inconclusive"))
    assert groups.levels(rule, {"a": yes, "b": yes}) == {"reproduced"}
    assert groups.levels(rule, {"a": yes, "b": maybe}) == {"reproduced", "partly"}
    assert groups.levels(rule, {"a": no, "b": maybe}) == {"not reproduced"}
    undecided = groups.decided(rule, {"a": yes, "b": maybe})
    assert undecided == ("inconclusive", ["partly", "reproduced"])
    assert groups.decided(rule, {"a": no, "b": maybe}) == ("not reproduced", ["not reproduced"])


def test_a_claims_interval_keeps_its_replicates_values():
    x = pd.Series([0.2, 0.3, 0.25, 0.0, 0.1, 0.5], index=["a"] * 3 + ["b"] * 3)
    s = groups.per_group(x, Band("number", "test", 0.1, 0.4), "x")
    u = groups.uncertainty_of(s, "a")  # b is undecided: its interval is the one shown
    assert u["of"] == "x, b" and u["samples"] == [0.0, 0.1, 0.5]
    assert "samples" not in groups.interval_of(groups.status(s["a"]["band"], [np.nan], "y"))
