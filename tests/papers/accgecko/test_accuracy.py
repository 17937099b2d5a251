"""Prediction errors (:mod:`storrepro.papers.accgecko.experiment.accuracy`) on hand-worked rows."""

import math

import pandas as pd
import pytest

from storrepro.papers.accgecko.experiment import accuracy


def test_fold_errors_follow_a7():
    rows = pd.DataFrame(
        {
            "rate": [1.0, 1.0, math.inf],
            "predicted_us": [300.0, 100.0, 1.0],
            "actual_us": [100.0, 274.0, 1.0],
        }
    )
    e = accuracy.fold_errors(rows)
    assert e.positive.tolist() == [2.0, 0.0] and e.negative.tolist() == pytest.approx([0.0, 1.74])


def test_total_errors_add_positive_and_negative():
    errors = pd.DataFrame(
        {"p": [99.0, 99.0], "method": ["PM", "PM"], "positive": [1.0, 0.0], "negative": [0.0, 3.0]}
    )
    tot = accuracy.total_errors(errors)
    assert tot.loc[(99.0, "PM"), "mean"] == 200.0 and tot.loc[(99.0, "PM"), "max"] == 300.0


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
    rows = pd.DataFrame(rows).assign(reading="primary")
    table = accuracy.tenant_errors(rows, ["primary"])["primary"]
    assert table.index.tolist() == [0]  # only the accuracy tenant
    row = table.loc[0]
    assert row[("avg_positive_%", "AccTail", 99.0)] == pytest.approx(100.0)
    assert row[("max_positive_%", "AccTail", 99.0)] == pytest.approx(200.0)
    assert row[("max_negative_%", "AccTail", 99.0)] == pytest.approx(100.0)
    assert row[("mean_total_%", "AccTail", 99.0)] == pytest.approx(150.0)
    assert row[("max_total_%", "AccTail", 99.0)] == pytest.approx(200.0)
    assert row[("max_total_%", "MMP", 99.0)] == 0.0
