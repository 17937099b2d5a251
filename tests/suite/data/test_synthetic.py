"""Synthetic generator: the ranges the paper states and ours (check A4), seeding, and bad input."""

import numpy as np
import pytest

from storrepro.suite.data.synthetic import SyntheticSpec, demo_series, generate, summary


@pytest.fixture(scope="module")
def thousand():
    return generate(1000, seed=0)


def test_a4_ranges_of_the_1000_series(thousand):
    table = summary(thousand)
    assert len(thousand) == 1000 and all(s.values.size == 1000 for s in thousand)
    assert table.period.between(50, 200).all() and table.period.dtype.kind == "i"
    assert table.outlier_ratio.between(0, 0.05).all()
    assert table.noise_var.between(0, 0.5).all()
    assert 0.4 <= (table.slope > 0).mean() <= 0.6
    assert table.slope.abs().between(0.5e-3, 3e-3).all()


def test_components_add_up_and_outlier_count_matches_ratio(thousand):
    s = thousand[3]
    total = sum(s.parts.values())
    assert np.allclose(total, s.values)
    assert np.count_nonzero(s.parts["outliers"]) == round(s.outlier_ratio * 1000)


def test_same_seed_same_set_other_seed_other_set():
    a, b, c = generate(5, seed=1), generate(5, seed=1), generate(5, seed=2)
    assert all(np.array_equal(x.values, y.values) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0].values, c[0].values)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"n": 5},
        {"period_range": (10, 5)},
        {"noise_var_max": -1.0},
        {"outlier_ratio_max": 2.0},
        {"slope_range": (3.0, 1.0)},
    ],
)
def test_bad_generator_settings_are_rejected(kwargs):
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        SyntheticSpec(**kwargs)


def test_bad_count_is_rejected():
    with pytest.raises(ValueError, match="count"):
        generate(0)


def test_demo_series_plants_dips_and_bursts():
    demo = demo_series(np.random.default_rng(0))
    x = demo["values"]
    assert all(x[d] == 0.5 for d in demo["dips"])
    assert all(x[b + 1] > x[b - 1] + 5 for b in demo["bursts"])
