"""seasonLength port: sines (check A2), findThreshold by hand, and bad input."""

import numpy as np
import pytest

from storrepro.papers.periodicity.seasonlength import find_threshold, seasonlength


@pytest.mark.parametrize("period", [24, 50, 100])
def test_sines_within_one_of_the_period(period):
    y = np.sin(2 * np.pi * np.arange(1000) / period)
    assert abs(seasonlength(y) - period) <= 1


def test_find_threshold_hand_worked():
    # quotients 1, 1, 1, 2, 1: changes at 3 and 4 -> Gamma = [1, 3, 4, 5]; longest gap 1..3
    delta = np.array([10.0, 10, 10, 10, 20, 20])
    assert find_threshold(delta) == (10.0, 10.0)
    assert find_threshold(np.array([4.0, 8.0])) == (4.0, 8.0)


def test_noise_gives_no_period_or_a_number():
    y = np.random.default_rng(0).normal(size=300)
    out = seasonlength(y)
    assert out is None or 1 < out < 150


@pytest.mark.parametrize("x", [[1.0, 2.0], [3.0] * 30])  # empty: the contract test
def test_short_or_constant_series_give_none(x):
    assert seasonlength(x) is None


def test_nan_raises():
    with pytest.raises(ValueError, match="NaN"):
        seasonlength([1.0, 2.0, np.inf, 4.0, 5.0])
