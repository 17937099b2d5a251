"""Notebook 02's replicate intervals: bootstraps over whole replicates."""

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.accgecko.replicates import Replicates, mean, top


def test_the_estimate_is_the_statistic_and_the_interval_brackets_it():
    reps = Replicates(pd.DataFrame({"a": [1.0, 2.0, 3.0, 4.0], "b": [2.0, 2.0, 2.0, 2.0]}), "order")
    u = reps.interval(lambda col: mean(col("a")) / mean(col("b")), "a over b")
    assert u["mean"] == pytest.approx(1.25) and u["n"] == 4
    lo, hi = u["ci95"]
    assert 0.5 <= lo <= 1.25 <= hi <= 2.0
    assert "bootstrap over 4 orders" in u["of"]


def test_paired_columns_stay_paired():
    """b = a + 1 in every row: the difference has no spread whatever the resample."""
    a = np.array([1.0, 5.0, 9.0, 2.0])
    reps = Replicates(pd.DataFrame({"a": a, "b": a + 1}), "tenant")
    assert reps.interval(lambda col: mean(col("b")) - mean(col("a")), "d")["ci95"] == \
        pytest.approx([1.0, 1.0])


def test_missing_values_are_skipped_and_the_max_is_a_max():
    reps = Replicates(pd.DataFrame({"a": [1.0, np.nan, 7.0]}), "tenant")
    assert reps.interval(lambda col: top(col("a")), "max")["mean"] == 7.0
    assert reps.interval(lambda col: mean(col("a")), "mean")["mean"] == 4.0


def test_one_replicate_is_refused():
    with pytest.raises(ValueError, match="at least 2 orders"):
        Replicates(pd.DataFrame({"a": [1.0]}), "order")

