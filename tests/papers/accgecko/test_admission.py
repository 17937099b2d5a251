"""Admission arithmetic (E21)."""

import math

import numpy as np
import pytest

from storrepro.papers.accgecko.admission import admit, admit_on_nodes


def test_single_node_greedy_in_order():
    rates = [40_000, 50_000, 30_000, math.inf, 10_000, 5_000]
    # 40k + 50k = 90k; 30k would make 120k; inf never fits; 10k -> 100k exactly; 5k -> 105k
    assert admit(rates, 100_000).tolist() == [True, True, False, False, True, False]


def test_every_node_holding_data_must_fit():
    rates = np.array([[60, 0], [30, 50], [20, 40], [0, 10]])
    # tenant 2 fits node 1 (90) but not node 0 (60 + 30 + 20 = 110): rejected
    assert admit(rates, [100, 100]).tolist() == [True, True, False, True]


def test_counts_over_orders_are_permutation_invariant_for_equal_rates():
    rng = np.random.default_rng(0)
    rates = np.full(10, 25.0)
    assert all(admit(rates[rng.permutation(10)], 100.0).sum() == 4 for _ in range(5))


@pytest.mark.parametrize(
    "rates, capacity, match",
    [([1.0, -2.0], 10, ">= 0"), ([1.0], 0, "capacity"), ([np.nan], 10, ">= 0")],
)
def test_bad_input(rates, capacity, match):
    with pytest.raises(ValueError, match=match):
        admit(rates, capacity)


def test_one_node_kernel_admits_as_the_plain_loop():
    """The compiled one-node admission equals the plain loop over nodes, to the bit."""
    rng = np.random.default_rng(5)
    for _ in range(50):
        rates = rng.choice([*rng.uniform(1000.0, 30_000.0, 8), math.inf], 40)
        capacity = rng.uniform(50_000.0, 200_000.0)
        expected = admit_on_nodes(rates[:, None], np.array([capacity]))
        assert admit(rates, capacity).tolist() == expected.tolist()
