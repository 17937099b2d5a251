import math
import re

import numpy as np
import pytest
from scipy import integrate

from storrepro.sim import theory


def test_mm1_closed_forms():
    assert theory.mm1_mean_wait(0.5, 1.0) == pytest.approx(1.0)
    assert theory.mm1_wait_quantile(0.4, 0.5, 1.0) == 0.0  # P(W = 0) = 1 - rho = 0.5
    assert theory.mm1_wait_quantile(0.99, 0.5, 1.0) == pytest.approx(2 * math.log(50))


def test_pk_reduces_to_mm1_and_md1():
    assert theory.pk_mean_wait(0.5, 1.0, 2.0) == pytest.approx(theory.mm1_mean_wait(0.5, 1.0))
    assert theory.pk_mean_wait(0.8, 1.0, 1.0) == pytest.approx(0.8 / (2 * 0.2))


def test_md1_distribution_is_consistent_with_pollaczek_khinchine():
    lam = 0.6
    assert theory.md1_wait_cdf(0.0, lam, 1.0) == pytest.approx(1 - lam)
    # mean = integral of the survival function, which P-K gives in closed form
    survival = lambda t: 1 - theory.md1_wait_cdf(t, lam, 1.0)  # noqa: E731
    mean, _ = integrate.quad(survival, 0, 25, points=range(1, 25), limit=200)  # kinks at k·D
    assert mean == pytest.approx(theory.pk_mean_wait(lam, 1.0, 1.0), rel=1e-6)
    q = theory.md1_wait_quantile(0.99, lam, 1.0)
    assert theory.md1_wait_cdf(q, lam, 1.0) == pytest.approx(0.99, abs=1e-9)


def test_kth_of_n_order_statistic():
    assert theory.kth_of_n_mean(1, 1, 0.1, 2.0) == pytest.approx(2.1)
    assert theory.kth_of_n_mean(3, 1, 0.0, 1.0) == pytest.approx(1 / 3)  # min of three
    assert theory.kth_of_n_mean(3, 3, 0.0, 1.0) == pytest.approx(1 + 1 / 2 + 1 / 3)  # max
    rng = np.random.default_rng(2)
    draws = np.sort(rng.exponential(1.0, (200_000, 6)), axis=1)[:, 2]  # 3rd fastest of 6
    assert draws.mean() == pytest.approx(theory.kth_of_n_mean(6, 3, 0.0, 1.0), rel=0.01)


@pytest.mark.parametrize(
    "call",
    [
        lambda: theory.mm1_mean_wait(1.0, 1.0),
        lambda: theory.pk_mean_wait(2.0, 1.0, 1.0),
        lambda: theory.md1_wait_quantile(0.5, 1.5, 1.0),
    ],
)
def test_unstable_loads_are_refused(call):
    with pytest.raises(ValueError, match="stable queue needs 0 < rho < 1"):
        call()


def test_kth_of_n_bounds():
    with pytest.raises(ValueError, match=r"^k must be a whole number >= 1 and <= 2, got 3$"):
        theory.kth_of_n_mean(2, 3, 0.0, 1.0)


def test_md1_law_refuses_where_it_is_unreliable():
    assert theory.md1_wait_quantile(0.99, 0.9, 1.0) < theory.MD1_MAX_SPAN
    with pytest.raises(ValueError, match="beyond 40 service times"):
        theory.md1_wait_cdf(50.0, 0.5, 1.0)


@pytest.mark.parametrize("quantile", [theory.mm1_wait_quantile, theory.md1_wait_quantile])
@pytest.mark.parametrize(
    ("q", "says"),
    [
        (float("nan"), "q must be a finite number >= 0 and <= 1, got nan"),
        (float("inf"), "got inf"),
        (-0.5, "got -0.5"),
        (1.5, "got 1.5"),
        ("0.99", "got '0.99'"),
        (True, "got True"),
        (1, "q must be below 1"),
    ],
)
def test_a_quantile_level_outside_0_to_1_is_named(quantile, q, says):
    with pytest.raises(ValueError, match=re.escape(says)):
        quantile(q, 0.5, 1.0)
    assert quantile(np.float64(0.99), 0.5, 1.0) == quantile(0.99, 0.5, 1.0)  # numpy scalars pass
