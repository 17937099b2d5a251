"""Approximate analysis of static codes and TOFEC's thresholds: Eqs. (2)-(21), Theorem 1.

Reconstructed by this reproduction because the paper text lost every equation. Units: task
delays in ms, file sizes J in MB, arrival rates λ in req/s; Λ = λ·Ū (thread-seconds per second,
dimensionless) and L threads. For one class with parameters p = (α_Δ, β_Δ, α_E, β_E)::

    E[D_s] = α_Δ J/k + β_Δ + (α_E J/k + β_E)·ln(r/(r-1))          (2), integral form
    E[U]   = r(α_Δ J + β_Δ k) + α_E J + β_E k                        (3)
    C      = L / Ū,  Λ = λŪ,  E[D_q] = ΛŪ / (L(L-Λ))                 (4), (5), (7)
    φ(Λ)   = ∂E[D_q]/∂Ū = Λ(2L-Λ) / (L(L-Λ)²)
    f(r)   = J r(r-1)(α_Δ + α_E ln(r/(r-1))) / (rβ_Δ + β_E)          (18)
    g(r)   = [β_Δ f - α_E J + sqrt((α_E J - β_Δ f)² + 4α_Δβ_E J f)] / (2β_E)     (20)
    h(r)   = (α_E J/g + β_E) / (r(r-1)(α_Δ J + β_Δ g))               (17) with k = g(r)
    E[Q]   = Λ² / (L(L-Λ)),   Λ = (L/2)(sqrt(E[Q]² + 4E[Q]) - E[Q])  (11), (12)

Theorem 1: the optimum has k = g(r) and φ(Λ) = h(r) (Λ evaluated at the optimum). Corollary 1:
k*, n* = r*k*, r* are strictly decreasing in E[Q]. Thresholds (14): Q(n) is the backlog whose
optimal n* equals n; Q̃(k) likewise for k*.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.optimize import brentq, minimize

from storrepro.papers.tofec.delay import ModelParams
from storrepro.suite.checks import finite, whole

EULER_GAMMA = 0.5772156649015329
R_UPPER = 1e4  # the relaxed optimum at E[Q] -> 0 has r* -> 1 slowly; search r up to here


@dataclass(frozen=True)
class Setting:
    """One class's model parameters with the system's thread count L and the file size J."""

    params: ModelParams
    file_mb: float = 3.0
    n_threads: int = 16

    def __post_init__(self):
        finite("file_mb", self.file_mb, strict=True, unit="MB")
        whole("n_threads", self.n_threads, minimum=1)


def harmonic_gap(n: int, k: int) -> float:
    """ln(n/(n-k)) - Σ_{i=n-k+1}^{n} 1/i, the integral bound's excess in Eq. (2) (Fig. 7)."""
    if not 1 <= k < n:
        raise ValueError(f"harmonic_gap needs 1 <= k < n, got (n, k) = ({n}, {k})")
    return math.log(n / (n - k)) - sum(1.0 / i for i in range(n - k + 1, n + 1))


def service_delay_exact(s: Setting, n: int, k: int) -> float:
    """E[D_s] of Eq. (2) with the exact order-statistic sum (simultaneous start), ms."""
    p, chunk = s.params, s.file_mb / k
    return p.shift(chunk) + p.tail(chunk) * sum(1.0 / i for i in range(n - k + 1, n + 1))


def service_delay(s: Setting, r, k):
    """E[D_s] of Eq. (2), integral form; relaxed r > 1, k > 0 (arrays broadcast), ms."""
    p, j = s.params, s.file_mb
    return p.a_shift * j / k + p.b_shift + (p.a_tail * j / k + p.b_tail) * np.log(r / (r - 1))


def cost(s: Setting, r, k):
    """E[U] of Eq. (3): thread-time per request (ms); n = r·k."""
    p, j = s.params, s.file_mb
    return r * (p.a_shift * j + p.b_shift * k) + p.a_tail * j + p.b_tail * k


def capacity(s: Setting, n: int, k: int) -> float:
    """Static-code capacity of Eq. (4), req/s."""
    return s.n_threads / cost(s, n / k, k) * 1000.0


def usage_rate(s: Setting, lam: float, r, k):
    """Λ of Eq. (5) for a single class at λ req/s."""
    return lam * cost(s, r, k) / 1000.0


def queueing_delay(s: Setting, lam: float, r, k):
    """E[D_q] of Eq. (7), ms; inf when Λ >= L."""
    big_l, u = s.n_threads, cost(s, r, k)
    load = lam * u / 1000.0
    return np.where(load < big_l, load * u / (big_l * np.maximum(big_l - load, 1e-300)), np.inf)


def objective(s: Setting, lam: float, r, k):
    """The objective of (IV-A), E[D_s] + E[D_q], single class; inf outside the domain."""
    with np.errstate(divide="ignore", invalid="ignore"):
        value = service_delay(s, r, k) + queueing_delay(s, lam, r, k)
    return np.where((np.asarray(r) > 1) & (np.asarray(k) > 0), value, np.inf)


def phi(big_lambda, n_threads: int):
    """φ(Λ) = Λ(2L-Λ)/(L(L-Λ)²), strictly increasing on [0, L)."""
    big_l = n_threads
    return big_lambda * (2 * big_l - big_lambda) / (big_l * (big_l - big_lambda) ** 2)


def phi_inverse(y, n_threads: int):
    """Λ with φ(Λ) = y >= 0: L - L/sqrt(1 + yL)."""
    big_l = n_threads
    return big_l - big_l / np.sqrt(1.0 + np.asarray(y) * big_l)


def backlog(big_lambda, n_threads: int):
    """E[Q] of Eq. (11)."""
    return big_lambda**2 / (n_threads * (n_threads - big_lambda))


def usage_from_backlog(eq, n_threads: int):
    """Λ of Eq. (12), the inverse of (11)."""
    eq = np.asarray(eq, dtype=float)
    return n_threads / 2.0 * (np.sqrt(eq**2 + 4 * eq) - eq)


def f_of_r(s: Setting, r):
    p, j = s.params, s.file_mb
    top = j * r * (r - 1) * (p.a_shift + p.a_tail * np.log(r / (r - 1)))
    return top / (r * p.b_shift + p.b_tail)


def g_of_r(s: Setting, r):
    """k = g(r): the positive root of Eq. (19)-(20)."""
    p, j = s.params, s.file_mb
    f = f_of_r(s, r)
    disc = (p.a_tail * j - p.b_shift * f) ** 2 + 4 * p.a_shift * p.b_tail * j * f
    return (p.b_shift * f - p.a_tail * j + np.sqrt(disc)) / (2 * p.b_tail)


def h_of_r(s: Setting, r, k=None):
    """RHS of Eq. (17) at k = g(r) (or at a given fixed k, for the fixed-k strategy of [3])."""
    p, j = s.params, s.file_mb
    k = g_of_r(s, r) if k is None else k
    return (p.a_tail * j / k + p.b_tail) / (r * (r - 1) * (p.a_shift * j + p.b_shift * k))


def _solve_r(fn, target: float) -> float:
    """The r in (1, R_UPPER] with fn(r) = target, fn monotone."""
    lo, hi = 1.0 + 1e-12, R_UPPER
    return brentq(lambda r: fn(r) - target, lo, hi, xtol=1e-14, rtol=1e-14, maxiter=500)


def theorem1_solution(s: Setting, lam: float) -> dict[str, float]:
    """The unique (r*, k*, n*) of Theorem 1 at λ: k = g(r) and φ(λ·E[U](r, g(r))) = h(r)."""
    check_rate(lam)

    def gap(r):
        load = usage_rate(s, lam, r, g_of_r(s, r))
        return (phi(load, s.n_threads) if load < s.n_threads else 1e300) - h_of_r(s, r)

    r = brentq(gap, 1.0 + 1e-12, R_UPPER, xtol=1e-14, rtol=1e-14, maxiter=500)
    k = float(g_of_r(s, r))
    return {"r": r, "k": k, "n": r * k, "Lambda": float(usage_rate(s, lam, r, k))}


_NM_OPTIONS = {"xatol": 1e-11, "fatol": 1e-13, "maxiter": 20000, "maxfev": 40000}


def numeric_optimum(s: Setting, lam: float, starts: int = 8, seed: int = 0) -> dict[str, float]:
    """Multi-start Nelder–Mead on (IV-A) in (log(r-1), log k): the best end, and the spread of
    all ends (max range of log(r-1), log k across starts; ~0 when every start finds one optimum)."""
    check_rate(lam)
    rng = np.random.default_rng(seed)

    def fun(z):
        return float(objective(s, lam, 1 + np.exp(z[0]), np.exp(z[1])))

    best, ends = None, []
    while len(ends) < starts:
        z0 = rng.uniform([-3.0, -2.0], [2.0, 2.5])
        if not math.isfinite(fun(z0)):  # an infeasible start (Λ >= L) gives NM no gradient
            continue
        with np.errstate(invalid="ignore"):
            res = minimize(fun, z0, method="Nelder-Mead", options=_NM_OPTIONS)
        ends.append(res.x)
        if best is None or res.fun < best.fun:
            best = res
    r, k = 1 + math.exp(best.x[0]), math.exp(best.x[1])
    spread = float(np.max(np.ptp(np.array(ends), axis=0)))
    return {"r": r, "k": k, "n": r * k, "objective": best.fun, "start_spread": spread}


def theorem1_residuals(s: Setting, r: float, k: float, lam: float) -> tuple[float, float]:
    """|k - g(r)|/k and |φ(Λ) - h(r)|/h(r) at a candidate optimum."""
    load = usage_rate(s, lam, r, k)
    h = float(h_of_r(s, r))
    return abs(k - float(g_of_r(s, r))) / k, abs(float(phi(load, s.n_threads)) - h) / h


def optimal_code(s: Setting, eq: float) -> dict[str, float]:
    """Corollary 1: (r*, k*, n*) as functions of the mean backlog E[Q] > 0."""
    finite("backlog E[Q]", eq, strict=True)
    target = float(phi(usage_from_backlog(eq, s.n_threads), s.n_threads))
    r = _solve_r(lambda x: -h_of_r(s, x), -target)
    k = float(g_of_r(s, r))
    return {"r": r, "k": k, "n": r * k}


def backlog_for(s: Setting, r: float, k: float | None = None) -> float:
    """The E[Q] at which the optimum has redundancy r (via φ(Λ) = h(r)); k fixed optional."""
    load = phi_inverse(h_of_r(s, r, k), s.n_threads)
    return float(backlog(load, s.n_threads))


def n_backlogs(s: Setting, n_max: int = 12) -> np.ndarray:
    """Q(n), n = 1..n_max, of Eq. (14): solve r·g(r) = n, then E[Q] at that r."""
    return np.array(
        [backlog_for(s, _solve_r(lambda r: r * g_of_r(s, r), n)) for n in range(1, n_max + 1)]
    )


def k_backlogs(s: Setting, k_max: int = 6) -> np.ndarray:
    """Q̃(k), k = 1..k_max: solve g(r) = k, then E[Q] at that r."""
    return np.array(
        [backlog_for(s, _solve_r(lambda r: g_of_r(s, r), k)) for k in range(1, k_max + 1)]
    )


def fixed_k_backlogs(s: Setting, k: int, r_max: float = 2.0) -> np.ndarray:
    """Q(n) for n = k..floor(r_max·k) of the fixed-k strategy of [3]: φ(Λ) = h(n/k; k).

    Q(k) is infinite (r = 1 costs an infinite service delay in the relaxed model).
    """
    ns = range(k, int(math.floor(r_max * k)) + 1)
    return np.array([math.inf if n == k else backlog_for(s, n / k, k) for n in ns])


THRESHOLD_RULES = ("midpoint", "geometric")


def thresholds(q: np.ndarray, rule: str = "midpoint") -> np.ndarray:
    """T^i between consecutive backlogs Q(i) > Q(i+1): midpoint or geometric mean.

    Where Q(i) is infinite (fixed-k, n = k) the threshold is Q(i+1), the lowest allowed value.
    """
    if rule not in THRESHOLD_RULES:
        raise ValueError(f"rule must be one of {THRESHOLD_RULES}, got {rule!r}")
    q = np.asarray(q, dtype=float)
    if np.any(np.diff(q) >= 0):
        raise ValueError(f"backlogs must be strictly decreasing, got {q}")
    upper, lower = q[:-1], q[1:]
    mid = (upper + lower) / 2 if rule == "midpoint" else np.sqrt(upper * lower)
    return np.where(np.isfinite(upper), mid, lower)


def check_rate(lam) -> float:
    return finite("arrival rate", lam, strict=True, unit="req/s")


def multiclass_optimum(
    settings: list[Setting], lam: float, mix: list[float]
) -> list[dict[str, float]]:
    """Theorem 1 for classes sharing L: φ(Λ(r_1)) = h_1(r_1), r_c = h_c⁻¹(h_1(r_1)), k = g(r)."""
    check_rate(lam)
    if len(mix) != len(settings) or not math.isclose(sum(mix), 1.0) or min(mix) <= 0:
        raise ValueError(f"mix must be positive fractions summing to 1, one per class; got {mix}")
    big_l = settings[0].n_threads

    def codes(r1):
        target = float(h_of_r(settings[0], r1))
        out = [(r1, float(g_of_r(settings[0], r1)))]
        for s in settings[1:]:
            rc = _solve_r(lambda r, s=s: -h_of_r(s, r), -target)
            out.append((rc, float(g_of_r(s, rc))))
        return out

    def gap(r1):
        parts = zip(settings, mix, codes(r1), strict=True)
        load = sum(lam * p * cost(s, r, k) / 1000 for s, p, (r, k) in parts)
        return (phi(load, big_l) if load < big_l else 1e300) - h_of_r(settings[0], r1)

    r1 = brentq(gap, 1.0 + 1e-9, R_UPPER / 10, xtol=1e-14, rtol=1e-14, maxiter=500)
    return [{"r": r, "k": k, "n": r * k} for r, k in codes(r1)]
