"""Analysis of static codes and TOFEC thresholds: checks A1-A5."""

import math

import numpy as np
import pytest

from storrepro.papers.tofec import analysis as a
from storrepro.papers.tofec.codes import static_codes
from storrepro.papers.tofec.delay import PURE, ModelParams
from storrepro.papers.tofec.model_checks import simultaneous_start

# The pilot run's fit of SUR; its tables below were computed with these values.
PILOT = a.Setting(ModelParams(26.0, 48.9, 8.44, 10.7))
PURE_SETTING = a.Setting(PURE.true_params())


@pytest.mark.parametrize(("n", "k"), static_codes())
def test_a1_a2_monte_carlo_cost_and_service_delay(n, k):
    service, cost = simultaneous_start(PURE, np.random.default_rng(n * 100 + k), n, k, 200_000)
    p, chunk = PURE_SETTING.params, 3.0 / k
    assert abs(cost.mean() / (n * p.shift(chunk) + k * p.tail(chunk)) - 1) < 0.01  # Eq. (3)
    assert abs(service.mean() / a.service_delay_exact(PURE_SETTING, n, k) - 1) < 0.01  # Eq. (2)
    assert a.cost(PURE_SETTING, n / k, k) == pytest.approx(n * p.shift(chunk) + k * p.tail(chunk))


def test_a2_integral_gap():
    assert a.harmonic_gap(12, 6) == pytest.approx(0.0399, abs=5e-5)
    assert a.harmonic_gap(2, 1) == pytest.approx(math.log(2) - 0.5)
    gaps = [a.harmonic_gap(n, k) for n in range(2, 13) for k in range(1, n)]
    assert min(gaps) >= 0 and max(gaps) <= 1 - a.EULER_GAMMA + 1e-12 < 0.43
    with pytest.raises(ValueError, match="1 <= k < n"):
        a.harmonic_gap(3, 3)


@pytest.mark.parametrize(
    ("lam", "r", "k"),
    [
        (5, 1.714, 5.350),
        (20, 1.394, 3.004),
        (40, 1.247, 1.921),
        (60, 1.165, 1.309),
        (80, 1.109, 0.890),
    ],
)
def test_a3_theorem1_against_numeric_optimum_and_the_pilot_table(lam, r, k):
    sol = a.theorem1_solution(PILOT, lam)
    opt = a.numeric_optimum(PILOT, lam)
    assert opt["start_spread"] < 1e-5  # every start converges to one optimum
    assert max(a.theorem1_residuals(PILOT, opt["r"], opt["k"], lam)) < 1e-4
    assert opt["r"] == pytest.approx(sol["r"], rel=1e-5) and opt["k"] == pytest.approx(
        sol["k"], rel=1e-5
    )
    assert sol["r"] == pytest.approx(r, rel=2e-3) and sol["k"] == pytest.approx(k, rel=3e-3)


def test_eq7_is_the_mm1_wait_and_phi_its_derivative():
    lam, r, k = 30.0, 1.5, 2.0
    u = a.cost(PILOT, r, k)
    mu = PILOT.n_threads / u * 1000  # req/s
    assert a.queueing_delay(PILOT, lam, r, k) == pytest.approx((lam / mu) / (mu - lam) * 1000)
    big = a.usage_rate(PILOT, lam, r, k)
    eps = 1e-4
    wq = [lam * x**2 / 1000 / (16 * (16 - lam * x / 1000)) for x in (u - eps, u + eps)]
    assert (wq[1] - wq[0]) / (2 * eps) == pytest.approx(a.phi(big, 16), rel=1e-6)
    assert a.phi_inverse(a.phi(big, 16), 16) == pytest.approx(big)
    assert a.usage_from_backlog(a.backlog(big, 16), 16) == pytest.approx(big)


def test_a4_corollary1_monotone():
    grid = np.geomspace(0.01, 20, 60)
    codes = [a.optimal_code(PILOT, q) for q in grid]
    for key in ("k", "n", "r"):
        assert np.all(np.diff([c[key] for c in codes]) < 0)
    r = np.linspace(1.001, 20, 2000)
    assert np.all(np.diff(a.g_of_r(PILOT, r)) > 0)
    assert np.all(np.diff(r * a.g_of_r(PILOT, r)) > 0)
    assert np.all(np.diff(a.h_of_r(PILOT, r)) < 0)


def test_thresholds_match_the_pilot_tables():
    q = a.n_backlogs(PILOT)
    pilot_q = [4.67, 1.65, 0.80, 0.44, 0.27, 0.17, 0.115, 0.080, 0.057, 0.042, 0.032, 0.025]
    np.testing.assert_allclose(q, pilot_q, rtol=0.03)
    np.testing.assert_allclose(
        a.k_backlogs(PILOT), [3.98, 1.11, 0.40, 0.16, 0.071, 0.034], rtol=0.03
    )
    t = a.thresholds(q)
    np.testing.assert_allclose(t[:3], [3.16, 1.23, 0.62], rtol=0.03)
    np.testing.assert_allclose(a.thresholds(np.array([4.0, 1.0])), [2.5])
    np.testing.assert_allclose(a.thresholds(np.array([4.0, 1.0]), "geometric"), [2.0])
    # The optimum at the backlog Q(n) has n* = n exactly.
    assert a.optimal_code(PILOT, q[4])["n"] == pytest.approx(5.0, rel=1e-6)


def test_fixed_k_backlogs():
    q = a.fixed_k_backlogs(PILOT, 6)
    assert math.isinf(q[0]) and np.all(np.diff(q[1:]) < 0) and len(q) == 7
    assert a.thresholds(q)[0] == q[1]  # n = 6 above Q(7): the lowest admissible threshold


def test_a5_separability():
    other = a.Setting(ModelParams(39.0, 73.35, 12.66, 16.05), file_mb=1.0)
    base = a.multiclass_optimum([PILOT, other], 20.0, [0.5, 0.5])
    u = [a.cost(s, c["r"], c["k"]) for s, c in zip([PILOT, other], base, strict=True)]
    big = 20.0 * (0.5 * u[0] + 0.5 * u[1]) / 1000
    lam2 = big * 1000 / (0.2 * u[0] + 0.8 * u[1])  # another (λ', p') with the same Λ
    moved = a.multiclass_optimum([PILOT, other], lam2, [0.2, 0.8])
    for x, y in zip(base, moved, strict=True):
        assert x["r"] == pytest.approx(y["r"], abs=1e-6) and x["k"] == pytest.approx(
            y["k"], abs=1e-6
        )
    alone = a.theorem1_solution(PILOT, big * 1000 / u[0])  # class 1 alone at the same Λ
    assert alone["r"] == pytest.approx(base[0]["r"], abs=1e-6)


def test_capacity_of_basic_code():
    # Eq. (4): C(1,1) = L / (α_Δ J + β_Δ + α_E J + β_E) = 16 / (78 + 48.9 + 25.32 + 10.7) ms.
    assert a.capacity(PILOT, 1, 1) == pytest.approx(16_000 / 162.92)


def test_bad_input():
    with pytest.raises(ValueError, match="arrival rate"):
        a.theorem1_solution(PILOT, 0.0)
    with pytest.raises(ValueError, match="arrival rate"):
        a.numeric_optimum(PILOT, -1.0)
    with pytest.raises(ValueError, match="backlog"):
        a.optimal_code(PILOT, 0.0)
    with pytest.raises(ValueError, match="rule"):
        a.thresholds(np.array([2.0, 1.0]), "max")
    with pytest.raises(ValueError, match="decreasing"):
        a.thresholds(np.array([1.0, 2.0]))
    with pytest.raises(ValueError, match="mix"):
        a.multiclass_optimum([PILOT, PILOT], 10.0, [0.5, 0.6])
    with pytest.raises(ValueError, match="n_threads"):
        a.Setting(PILOT.params, n_threads=0)
