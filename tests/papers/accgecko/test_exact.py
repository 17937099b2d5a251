"""The exact-replay reference predictor on hand-worked bursts."""

import numpy as np
import pytest

from storrepro.papers.accgecko.acctail import smallest_rate
from storrepro.papers.accgecko.exact import ExactReplay


def burst(size: int = 10) -> ExactReplay:
    """``size`` requests arriving together at t = 0, no overhead: at rate sr request j waits
    j / sr, so the largest latency is (size − 1) / sr."""
    return ExactReplay().fit(np.zeros(size), np.zeros(size))


def test_predicts_the_replayed_percentile():
    # p90 of 10 requests is the largest (rank 1 from the top): 9 / 1000 s
    assert burst().predict(90.0, 1000.0) == pytest.approx(9000.0)
    # p50: the 5th largest, j = 5
    assert burst().predict(50.0, 1000.0) == pytest.approx(5000.0)


def test_overheads_add_to_the_wait():
    model = ExactReplay().fit(np.zeros(4), np.array([1.0, 2.0, 3.0, 40.0]))
    assert model.predict(99.0, 1e6) == pytest.approx(3.0 + 40.0)  # j = 3 waits 3 µs


def test_the_rate_search_finds_the_smallest_rate_that_meets_the_slo():
    model = burst()
    rate = smallest_rate(lambda r: model.predict(90.0, r), 900.5, 1.0, 100_000.0)
    assert rate == 9995.0  # 9 / sr <= 900.5 µs from 9994.45 IOPS
    assert model.predict(90.0, rate - 1) > 900.5


def test_bad_input():
    with pytest.raises(ValueError, match="non-empty"):
        ExactReplay().fit(np.zeros(0), np.zeros(0))
    with pytest.raises(ValueError, match="overhead_us"):
        ExactReplay().fit(np.zeros(3), np.zeros(2))
    with pytest.raises(ValueError, match="percentile p"):
        burst().predict(100.0, 1000.0)
    with pytest.raises(ValueError, match="service rate sr"):
        burst().predict(99.0, 0.0)
