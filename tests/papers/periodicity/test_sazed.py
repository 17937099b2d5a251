"""SAZED ports on their documented example (check A2) and hand-worked pieces."""

import numpy as np
import pytest

from storrepro.papers.periodicity.examples import sazed_doc_sine
from storrepro.papers.periodicity.sazed import acf_fft, downsample, nextn, sazed, ze, zed


@pytest.mark.parametrize("variant", ["maj", "opt"])
def test_documented_example_gives_26(variant):
    assert sazed(sazed_doc_sine(), variant) == 26


def test_components_on_the_documented_example():
    y = sazed_doc_sine()
    assert ze(y) == 26 and zed(y) == 26


def test_acf_fft_of_a_cosine_is_a_cosine():
    n = 100  # padded to 128, so the lag-unbiased ACF of cos is cos(2 pi k / T)
    y = np.cos(2 * np.pi * np.arange(n) / 20)
    a = acf_fft(y)
    assert a[0] == pytest.approx(1.0) and a[20] == pytest.approx(1.0, abs=0.02)
    assert a[10] == pytest.approx(-1.0, abs=0.02)


def test_nextn_and_downsample():
    assert [nextn(n) for n in (7, 11, 17, 97)] == [8, 12, 18, 100]
    assert downsample(np.array([1.0, 3.0, 5.0, 7.0, 9.0])).tolist() == [2.0, 6.0]


def test_bad_variant_and_bad_input():
    with pytest.raises(ValueError, match="variant"):
        sazed(np.ones(10), "median")
    with pytest.raises(ValueError, match="NaN"):
        sazed([1.0, np.nan] * 10)


@pytest.mark.parametrize("x", [[1.0, 2.0, 3.0], [4.0] * 50])  # empty: the contract test
def test_short_or_constant_series_give_none(x):
    assert sazed(x, "opt") is None and sazed(x, "maj") is None
