"""Per-ms states and the three burst dimensions on hand-worked traces."""

import numpy as np
import pytest

from storrepro.papers.accgecko.features import burst_features, check_arrivals, period_counts


def test_period_counts_bins_by_millisecond():
    arrivals = [0.0, 0.0004, 0.0011, 0.0029, 0.003]
    assert period_counts(arrivals).tolist() == [2, 1, 1, 1]
    assert period_counts(arrivals, duration=0.006).tolist() == [2, 1, 1, 1, 0, 0]


def test_period_counts_equal_bincount_of_the_truncated_quotients():
    # times at and a rounding step either side of period edges, where the division decides
    edges = np.arange(1, 200) * 1e-3
    arrivals = np.sort(np.concatenate((edges, np.nextafter(edges, 0), np.nextafter(edges, 1))))
    expected = np.bincount((arrivals / 1e-3).astype(np.int64), minlength=250)
    assert period_counts(arrivals, duration=0.25).tolist() == expected.tolist()


@pytest.mark.parametrize(
    "arrivals, match",
    [
        ([], "non-empty"),
        ([0.2, 0.1], "sorted"),
        ([-0.1, 0.2], ">= 0"),
        ([0.0, np.nan], "finite"),
    ],
)
def test_bad_traces_are_rejected_with_the_value(arrivals, match):
    with pytest.raises(ValueError, match=match):
        check_arrivals(arrivals)
    with pytest.raises(ValueError, match=match):
        period_counts(arrivals)


def test_burst_features_hand_worked():
    # N = 2: burst states have n > 4. States 1, 2 (6, 10) form a continuous burst of 2 ms
    # (the mean stays > 4 up to state 5; the falling tail 2, 2, 2 is cut); 9 at state 7 is isolated.
    counts = np.array([2, 6, 10, 2, 2, 2, 2, 9, 1, 2, 2, 2])
    f = burst_features(counts, core_m=2.0, eps_m=2.0, mean_count=2.0)
    assert f["total_burst_ms"] == 3.0
    assert f["intensity"] == pytest.approx((6 + 10 + 9) / 3 / 2.0)
    assert f["continuous_bursts"] == 1
    assert f["mean_duration_ms"] == 2.0 and f["max_duration_ms"] == 2.0


def test_no_burst_gives_zeros():
    f = burst_features(np.full(10, 2), mean_count=2.0)
    assert f["total_burst_ms"] == 0 and f["intensity"] == 0 and f["max_duration_ms"] == 0


def test_empty_segment_is_rejected():
    with pytest.raises(ValueError, match="N = 0"):
        burst_features(np.zeros(5, dtype=int))
