"""Closed-form queueing results the simulator is checked against (notebook 00, unit tests).

Time is in units of the mean service time unless stated; ``lam`` is the arrival rate.
"""

from __future__ import annotations

import math

import numpy as np
from scipy.optimize import brentq

from storrepro.suite.checks import finite, whole


def _check_positive(**values) -> None:
    """Rates and times: finite numbers above 0."""
    for name, value in values.items():
        finite(name, value, minimum=0.0, strict=True)


def _check_load(rho: float, how: str) -> None:
    if not 0 < rho < 1:
        raise ValueError(f"load rho = {how} = {rho!r}: a stable queue needs 0 < rho < 1")


def _check_q(q) -> float:
    """A quantile's level: in [0, 1), as the waiting time has no finite 100th percentile."""
    q = finite("q", q, minimum=0.0, maximum=1.0)
    if q == 1:
        raise ValueError("q must be below 1 (the waiting time has no finite maximum), got 1")
    return q


def mm1_mean_wait(lam: float, mu: float) -> float:
    """M/M/1 mean waiting time in queue: ``rho / (mu - lam)``."""
    _check_positive(lam=lam, mu=mu)
    _check_load(lam / mu, f"lam / mu = {lam!r} / {mu!r}")
    return (lam / mu) / (mu - lam)


def mm1_wait_quantile(q: float, lam: float, mu: float) -> float:
    """M/M/1 waiting-time quantile from ``P(W > t) = rho * exp(-(mu - lam) t)``."""
    q = _check_q(q)
    _check_positive(lam=lam, mu=mu)
    rho = lam / mu
    _check_load(rho, f"lam / mu = {lam!r} / {mu!r}")
    if q <= 1 - rho:
        return 0.0  # an arriving customer finds the server idle with probability 1 - rho
    return math.log(rho / (1 - q)) / (mu - lam)


def pk_mean_wait(lam: float, mean_service: float, second_moment: float) -> float:
    """Pollaczek–Khinchine M/G/1 mean wait: ``lam E[S^2] / (2 (1 - rho))``."""
    _check_positive(lam=lam, mean_service=mean_service, second_moment=second_moment)
    rho = lam * mean_service
    _check_load(rho, f"lam * mean_service = {lam!r} * {mean_service!r}")
    return lam * second_moment / (2 * (1 - rho))


#: How far (in service times) the M/D/1 waiting-time law is evaluated.
MD1_MAX_SPAN = 40


def md1_wait_cdf(t: float, lam: float, service: float) -> float:
    """M/D/1 waiting-time CDF (Erlang/Crommelin):

    ``P(W <= t) = (1 - rho) * sum_{k=0}^{floor(t/D)} (lam (k D - t))^k / k! * exp(-lam (k D - t))``.
    The alternating sum loses precision as ``t/D`` grows, so it is refused beyond
    :data:`MD1_MAX_SPAN` service times (the 99th percentile at load 0.9 is about 24).
    """
    finite("t", t, minimum=None)
    _check_positive(lam=lam, service=service)
    rho = lam * service
    _check_load(rho, f"lam * service = {lam!r} * {service!r}")
    if t < 0:
        return 0.0
    if t > MD1_MAX_SPAN * service:
        raise ValueError(
            f"md1_wait_cdf: t = {t!r} is beyond {MD1_MAX_SPAN} service times, where the "
            "alternating sum is numerically unreliable"
        )
    total = 0.0
    for k in range(int(math.floor(t / service)) + 1):
        x = lam * (k * service - t)
        total += x**k / math.factorial(k) * math.exp(-x)
    return (1 - rho) * total


def md1_wait_quantile(q: float, lam: float, service: float) -> float:
    """Inverse of :func:`md1_wait_cdf` by bracketing root search."""
    q = _check_q(q)
    _check_positive(lam=lam, service=service)
    rho = lam * service
    _check_load(rho, f"lam * service = {lam!r} * {service!r}")
    if q <= 1 - rho:
        return 0.0
    upper = service
    while md1_wait_cdf(upper, lam, service) < q:
        upper = min(2 * upper, MD1_MAX_SPAN * service)  # md1_wait_cdf refuses beyond
    return brentq(lambda t: md1_wait_cdf(t, lam, service) - q, 0.0, upper, xtol=1e-12)


def kth_of_n_mean(n: int, k: int, shift: float, mean_exp: float) -> float:
    """Mean time until the k-th fastest of n tasks, each ``shift + Exp(mean mean_exp)``:

    ``shift + mean_exp * sum_{i=n-k+1}^{n} 1/i`` (the k-th order statistic of exponentials).
    """
    n = whole("n", n, minimum=1)
    k = whole("k", k, minimum=1, maximum=n)
    finite("shift", shift)
    _check_positive(mean_exp=mean_exp)
    return shift + mean_exp * float(np.sum(1.0 / np.arange(n - k + 1, n + 1)))
