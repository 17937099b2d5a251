"""The paper's baselines in simplified fixed-rate forms (the original PriorityMeister is in
``priority_meister``).

- PriorityMeister (PM, E22): deterministic network calculus; at rate ``r`` the latency bound is
  the worst backlog drained at ``r`` — the maximum wait of the segment at ``r`` — plus ``c``,
  whatever the percentile.
- SNC-Meister (SNCM, E23–E24): the LAMBDA state algorithm of the SNC-Meister code (Poisson ±2σ
  states, with a residual state for the counts below them), a Markov chain over 10 µs steps, and
  the Chernoff bound of stochastic network calculus for a constant-rate server, minimised over θ.

MMP, the Fig. 8 ablation, is in ``mmp``.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize, stats

from storrepro.papers.accgecko.acctail import check_percentile, check_rate
from storrepro.papers.accgecko.features import DELTA
from storrepro.papers.accgecko.pacer import Replayer
from storrepro.suite.checks import finite_array

SNC_STEP = 1e-5  # seconds per SNC time step h (SNC-Meister's stepSize)
CONFIDENCE = 2.0  # LAMBDA's Poisson confidence a
MAX_STATES = 10
THETA_GRID = np.logspace(-4, 2, 49)  # where the θ search starts (then a bounded scalar search)


# --- PriorityMeister --------------------------------------------------------------------------


class PriorityMeister:
    """``PriorityMeister(c_us).fit(arrivals).predict(p, sr)``: max wait at ``sr`` + c (µs)."""

    def __init__(self, c_us: float = 25.0):
        self.c_us = c_us

    def fit(self, arrivals) -> PriorityMeister:
        self.replayer = Replayer(arrivals)
        self._max_wait_us: dict[float, float] = {}  # per rate: the bound ignores the percentile
        return self

    def predict(self, p: float, sr: float) -> float:
        check_percentile(p)  # accepted and ignored: network calculus bounds the maximum
        if sr not in self._max_wait_us:
            self._max_wait_us[sr] = self.replayer.max_wait_us(sr, use="search")
        return self._max_wait_us[sr] + self.c_us


# --- SNC-Meister ------------------------------------------------------------------------------


def lambda_states(counts, a: float = CONFIDENCE, max_states: int = MAX_STATES):
    """LAMBDA states: rates (per period, descending), lower edges, and each period's state.

    Top state ``λ = (sqrt(high + a²/4) − a/2)²``; next ``λ ← (sqrt(λ) − a)²`` until it falls below
    the smallest count; a period goes to the highest state whose lower edge ``λ − a sqrt(λ)`` is
    below its count. Periods below every edge form a residual state at their own mean (A4).
    """
    counts = finite_array("counts", counts)
    if counts.size == 0:
        raise ValueError("counts: expected a non-empty array of per-period counts")
    high, low = counts.max(), counts.min()
    rates = [(math.sqrt(high + a * a / 4) - a / 2) ** 2]
    while len(rates) < max_states and math.sqrt(rates[-1]) > a:
        nxt = (math.sqrt(rates[-1]) - a) ** 2
        if nxt < low:
            break
        rates.append(nxt)
    rates = np.array(rates)
    edges = rates - a * np.sqrt(rates)
    # highest state (smallest index) whose lower edge is below the count; len(rates) = residual
    state = np.sum(counts[:, None] <= edges[None, :], axis=1)
    if np.any(state == rates.size):
        rates = np.append(rates, counts[state == rates.size].mean())
        edges = np.append(edges, -np.inf)
    return rates, edges, state


def transitions(state: np.ndarray, k: int) -> np.ndarray:
    """``moves[i, j]``: how many consecutive periods go from state i to state j (floats)."""
    pairs = np.bincount(state[:-1] * k + state[1:], minlength=k * k)
    return pairs.reshape(k, k).astype(float)


def mmpp_count_pmf(counts, values) -> np.ndarray:
    """Σ_s π_s Pois(n; λ_s): the MMPP's distribution of the per-period count (Fig. 5)."""
    rates, _, state = lambda_states(counts)
    share = np.bincount(state, minlength=rates.size) / state.size
    return stats.poisson.pmf(np.asarray(values)[:, None], rates[None, :]) @ share


def fold_errors(model: np.ndarray, actual: np.ndarray) -> np.ndarray:
    """max(model/actual, actual/model) where both are positive."""
    ok = (model > 0) & (actual > 0)
    return np.maximum(model[ok] / actual[ok], actual[ok] / model[ok])


class SncMeister:
    """``SncMeister(c_us).fit(counts).predict(p, sr)``: Chernoff latency bound + c (µs).

    ``rates="lambda"`` gives each state LAMBDA's rate (as the SNC-Meister code does);
    ``"empirical"`` the mean count of the periods in it (a fitted MMPP; used only where the
    LAMBDA rates put the model's mean above the service rate, see the notebook).
    """

    def __init__(self, c_us: float = 25.0, step: float = SNC_STEP, rates: str = "lambda"):
        if rates not in ("lambda", "empirical"):
            raise ValueError(f"rates = {rates!r}: expected 'lambda' or 'empirical'")
        self.c_us, self.step, self.rates = c_us, step, rates

    def fit(self, counts) -> SncMeister:
        rates, _, state = lambda_states(counts)
        if self.rates == "empirical":
            rates = np.bincount(state, weights=counts, minlength=rates.size) / np.maximum(
                np.bincount(state, minlength=rates.size), 1
            )
        k = rates.size
        steps_per_period = DELTA / self.step
        moves = transitions(state, k)
        np.fill_diagonal(moves, 0)
        time_in = np.bincount(state, minlength=k) * steps_per_period
        chain = moves / np.maximum(time_in, 1)[:, None]
        chain[np.diag_indices(k)] = 1 - chain.sum(axis=1)
        self.chain = chain
        self.step_prob = np.minimum(rates / steps_per_period, 1.0)  # p_s per step
        self._grid_rate = self.arrival_rate(THETA_GRID)  # ρ_A depends on neither p nor sr
        self._rates_at: dict[float, float] = {}  # nor does it at the θ a search probes
        return self

    def arrival_rate(self, theta: np.ndarray) -> np.ndarray:
        """E23: ρ_A(θ) = ln sp(diag(φ(θ)) P) / θ, for unit work per request."""
        theta = np.atleast_1d(theta)
        mgf = self.step_prob[None, :] * np.exp(theta[:, None]) + 1 - self.step_prob[None, :]
        radius = np.abs(np.linalg.eigvals(mgf[:, :, None] * self.chain[None])).max(axis=1)
        return np.log(radius) / theta

    def _rate_at(self, theta: float) -> float:
        """:meth:`arrival_rate` at one θ, kept: the θ searches of the rates and percentiles of
        a rate search start from the same brackets of the grid and probe many θ again. The
        same arithmetic on one θ, without the arrays of a grid around it."""
        key = float(theta)
        if key not in self._rates_at:
            mgf = self.step_prob * np.exp(key) + 1 - self.step_prob
            radius = np.abs(np.linalg.eigvals(mgf[:, None] * self.chain)).max()
            self._rates_at[key] = np.log(radius) / key
        return self._rates_at[key]

    def bound_us(self, p: float, sr: float) -> float:
        """E24 minimised over θ: the latency bound (µs) without c; inf if no θ is stable."""
        eps = 1 - check_percentile(p) / 100
        serve = check_rate(sr) * self.step  # requests per step

        def delay(theta, rho):
            out = np.full(theta.size, np.inf)
            ok = rho < serve
            gap = -np.expm1(theta[ok] * (rho[ok] - serve))
            out[ok] = -np.log(eps * gap) / theta[ok] / serve * self.step * 1e6
            return out

        def delay_at(theta):  # delay at one θ: the same arithmetic on numpy scalars
            theta = np.float64(theta)
            rho = self._rate_at(theta)
            if not rho < serve:
                return 1e300
            gap = -np.expm1(theta * (rho - serve))
            return min(-np.log(eps * gap) / theta / serve * self.step * 1e6, 1e300)

        grid = THETA_GRID
        values = delay(grid, self._grid_rate)
        best = int(np.argmin(values))
        if not np.isfinite(values[best]):
            return math.inf
        lo, hi = grid[max(best - 1, 0)], grid[min(best + 1, grid.size - 1)]
        res = optimize.minimize_scalar(
            delay_at,
            bounds=(lo, hi),
            method="bounded",
            options={"xatol": 1e-3 * lo},
        )
        return float(min(values[best], res.fun))

    def predict(self, p: float, sr: float) -> float:
        return self.bound_us(p, sr) + self.c_us
