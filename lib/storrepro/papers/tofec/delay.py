"""Task-delay model of Eq. (1) and its calibrated surrogates.

Time in ms, chunk sizes B in MB. A task on a chunk of B MB takes::

    D(B) = Δ(B) + X + S·Y,   X ~ Exp(mean E(B)),  S ~ Bernoulli(p_slow),  Y ~ Exp(mean M(B))
    Δ(B) = shift + shift_per_mb·B,   E(B) = tail + tail_per_mb·B,   M(B) = slow_per_mb·B

``SUR`` (p_slow = 0.1) is the heavy-tailed surrogate calibrated to the paper's light-load delays
and capacity ratios; ``PURE`` (p_slow = 0) is the pure shifted exponential of Eq. (1).

Random streams: every call consumes one fixed block of ``3·n_max`` standard exponentials, whatever
n is (X from the first row, Y from the second, and S = [third row > ln(1/p_slow)], which has
probability p_slow). Request i therefore always sees the same variates under every policy (common
random numbers), and a sweep can pre-draw all blocks at once with :meth:`TaskDelayModel.draw`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numba
import numpy as np

from storrepro.suite.checks import MAX_COUNT, finite, whole

N_MAX = 12  # k_max · r_max = 6 · 2 coded chunks per request
DROP_WORST = 0.10  # the paper drops the worst 10 % of task delays before its least-squares fit
FIG6_CHUNKS = (0.5, 0.6, 0.75, 1.0, 1.5, 3.0)  # 3 MB / k for k = 6, 5, 4, 3, 2, 1


@dataclass(frozen=True)
class ModelParams:
    """(α_Δ, β_Δ, α_E, β_E) of Eq. (1): Δ_B = α_Δ·B + β_Δ, E_B = α_E·B + β_E (ms, ms/MB)."""

    a_shift: float
    b_shift: float
    a_tail: float
    b_tail: float

    def __post_init__(self):
        for name in ("a_shift", "b_shift", "a_tail", "b_tail"):
            finite(f"ModelParams.{name}", getattr(self, name), strict=True)

    def shift(self, chunk: float) -> float:
        return self.a_shift * chunk + self.b_shift

    def tail(self, chunk: float) -> float:
        return self.a_tail * chunk + self.b_tail


@dataclass(frozen=True)
class TaskDelayModel:
    """The generator above; ``sampler(rng, chunk, n)`` for :class:`~storrepro.sim.CloudStore`."""

    name: str
    shift: float
    shift_per_mb: float
    tail: float
    tail_per_mb: float
    slow_prob: float = 0.0
    slow_per_mb: float = 0.0
    n_max: int = N_MAX

    def __post_init__(self):
        for field in ("shift", "shift_per_mb", "tail", "tail_per_mb", "slow_per_mb"):
            finite(field, getattr(self, field), unit="ms")
        if not 0 <= self.slow_prob < 1:
            raise ValueError(f"slow_prob must be in [0, 1), got {self.slow_prob!r}")

    @property
    def block_size(self) -> int:
        return 3 * self.n_max

    @property
    def slow_threshold(self) -> float:
        """S = 1 when a standard exponential exceeds this: P = exp(-threshold) = p_slow."""
        return math.inf if self.slow_prob == 0 else -math.log(self.slow_prob)

    def kernel_params(self) -> np.ndarray:
        """The coefficients in the order the fast kernel reads them."""
        return np.array(
            [
                self.shift,
                self.shift_per_mb,
                self.tail,
                self.tail_per_mb,
                self.slow_threshold,
                self.slow_per_mb,
            ],
            dtype=float,
        )

    def draw(self, rng: np.random.Generator, count: int) -> np.ndarray:
        """``count`` request blocks, identical to ``count`` successive calls of the sampler."""
        return rng.standard_exponential((whole("count", count, maximum=MAX_COUNT), self.block_size))

    def delays(self, block: np.ndarray, chunk: float, n: int) -> np.ndarray:
        """The n task delays a block gives for chunks of ``chunk`` MB (last axis = block)."""
        if not 1 <= n <= self.n_max:
            raise ValueError(f"n must be an integer in [1, {self.n_max}], got {n!r}")
        m = self.n_max
        x, y, s = block[..., :n], block[..., m : m + n], block[..., 2 * m : 2 * m + n]
        shift = self.shift + self.shift_per_mb * chunk
        tail = self.tail + self.tail_per_mb * chunk
        slow = self.slow_per_mb * chunk
        return shift + tail * x + np.where(s > self.slow_threshold, slow * y, 0.0)

    def __call__(self, rng: np.random.Generator, chunk: float, n: int) -> np.ndarray:
        return self.delays(rng.standard_exponential(self.block_size), chunk, n)

    def sample(self, rng: np.random.Generator, chunk: float, size: int) -> np.ndarray:
        """``size`` independent task delays (one per block; for statistics and figures)."""
        return self.delays(self.draw(rng, size), chunk, 1)[:, 0]

    def mean(self, chunk: float) -> float:
        shift = self.shift + self.shift_per_mb * chunk
        tail = self.tail + self.tail_per_mb * chunk
        return shift + tail + self.slow_prob * self.slow_per_mb * chunk

    def true_params(self) -> ModelParams:
        """Eq. (1) parameters of a pure shifted exponential (PURE); SUR has none (fit it)."""
        if self.slow_prob:
            raise ValueError(f"{self.name} is not a pure shifted exponential; use fit_params")
        return ModelParams(self.shift_per_mb, self.shift, self.tail_per_mb, self.tail)


@numba.njit(cache=True)
def task_delay(x, y, s, chunk, mp):
    # One task's delay for the compiled kernels: the same operations, in the same order, as
    # TaskDelayModel.delays (bit-identical results). The task's variates x, y, s and the
    # coefficients mp (a tuple) come as values: array arguments cost atomic reference-count
    # updates on every call, a sixth of the simulation kernel's time.
    shift = mp[0] + mp[1] * chunk
    tail = mp[2] + mp[3] * chunk
    d = shift + tail * x
    if s > mp[4]:
        d = d + mp[5] * chunk * y
    return d


@numba.njit(cache=True)
def _delay_table(blocks, n, chunk, mp):
    # One pass, row by row: ten times faster than the model's numpy delays, whose every step
    # runs over strided views n values at a time.
    n_max = blocks.shape[1] // 3
    out = np.empty((blocks.shape[0], n))
    for i in range(blocks.shape[0]):
        for j in range(n):
            x, y, s = blocks[i, j], blocks[i, n_max + j], blocks[i, 2 * n_max + j]
            out[i, j] = task_delay(x, y, s, chunk, mp)
    return out


def delay_table(model: TaskDelayModel, blocks: np.ndarray, chunk: float, n: int) -> np.ndarray:
    """``model.delays(blocks, chunk, n)`` of a 2-D array of blocks: the same values, faster."""
    if not 1 <= n <= model.n_max or blocks.ndim != 2 or blocks.shape[1] != model.block_size:
        raise ValueError(f"need blocks of shape (count, {model.block_size}) and n in "
                         f"[1, {model.n_max}], got {blocks.shape} and n = {n!r}")
    return _delay_table(blocks, n, float(chunk), tuple(model.kernel_params()))


#: Heavy-tailed surrogate calibrated to 205/156 ms (1,1), 151/138 ms (2,1) and the capacities.
SUR = TaskDelayModel("SUR", 46.4, 25.2, 15.2, 9.6, slow_prob=0.10, slow_per_mb=132.0)
#: Pure shifted exponential (sensitivity runs): Δ = 16.8B + 48.6, E = 29.6B + 11.2.
PURE = TaskDelayModel("PURE", 48.6, 16.8, 11.2, 29.6)


def chunk_statistics(samples: dict[float, np.ndarray], drop_worst: float = DROP_WORST):
    """Mean and std of the delays per chunk size, after dropping the worst ``drop_worst``."""
    if not 0 <= drop_worst < 1:
        raise ValueError(f"drop_worst must be in [0, 1), got {drop_worst!r}")
    chunks = np.array(sorted(samples), dtype=float)
    means, stds = [], []
    for chunk in chunks:
        values = np.sort(np.asarray(samples[chunk], dtype=float))
        kept = values[: len(values) - int(round(drop_worst * len(values)))]
        means.append(kept.mean())
        stds.append(kept.std())
    return chunks, np.array(means), np.array(stds)


def fit_params(samples: dict[float, np.ndarray], drop_worst: float = DROP_WORST) -> ModelParams:
    """The paper's fitting procedure (its fitted values are lost): drop the worst delays, LS
    lines for mean and std against chunk size.

    α_E, β_E are the std line's slope and intercept; α_Δ, β_Δ the mean line's minus them.
    """
    if len(samples) < 2:
        raise ValueError(f"need delays at >= 2 chunk sizes to fit a line, got {len(samples)}")
    chunks, means, stds = chunk_statistics(samples, drop_worst)
    mean_slope, mean_icpt = np.polyfit(chunks, means, 1)
    std_slope, std_icpt = np.polyfit(chunks, stds, 1)
    return ModelParams(mean_slope - std_slope, mean_icpt - std_icpt, std_slope, std_icpt)


def sample_chunks(
    model: TaskDelayModel, rng: np.random.Generator, size: int, chunks=FIG6_CHUNKS
) -> dict[float, np.ndarray]:
    """``size`` task delays at each chunk size (the synthetic 'trace' of Fig. 6)."""
    return {float(b): model.sample(rng, b, size) for b in chunks}


def correlated_delays(
    model: TaskDelayModel,
    rng: np.random.Generator,
    chunk: float,
    n: int,
    count: int,
    rho: float = 0.15,
    table_size: int = 1_000_000,
) -> np.ndarray:
    """``count`` rows of n task delays whose quantiles come from a Gaussian copula.

    The paper measured a 0.11-0.17 correlation between the tasks of one request (Shared Key). Each
    row's n normal variates share a common factor with correlation ``rho``; their normal CDFs are
    mapped through the inverse empirical CDF of ``table_size`` independent delays, so every task
    keeps the model's marginal distribution.
    """
    _check_rho(rho)
    return copula_delays(copula_draws(model, rng, chunk, n, count, table_size), rho)


def _check_rho(rho: float) -> None:
    if not 0 <= rho < 1:
        raise ValueError(f"rho must be a copula correlation in [0, 1), got {rho!r}")


def copula_draws(
    model: TaskDelayModel,
    rng: np.random.Generator,
    chunk: float,
    n: int,
    count: int,
    table_size: int = 1_000_000,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """What :func:`correlated_delays` draws, whatever ρ: the sorted table of independent delays,
    each row's common normal and its n own normals (a study of many ρ draws them once)."""
    if not 1 <= n <= model.n_max:
        raise ValueError(f"n must be an integer in [1, {model.n_max}], got {n!r}")
    table = np.sort(model.sample(rng, chunk, table_size))
    common = rng.standard_normal((count, 1))
    return table, common, rng.standard_normal((count, n))


def copula_delays(draws: tuple[np.ndarray, np.ndarray, np.ndarray], rho: float) -> np.ndarray:
    """:func:`correlated_delays` at copula correlation ``rho`` from :func:`copula_draws`."""
    from scipy.special import ndtr

    _check_rho(rho)
    table, common, own = draws
    z = math.sqrt(rho) * common + math.sqrt(1 - rho) * own
    index = np.minimum((ndtr(z) * table.size).astype(np.int64), table.size - 1)
    return table[index]


def mean_pairwise_correlation(delays: np.ndarray) -> float:
    """Mean Pearson correlation over the distinct pairs of columns (tasks of one request)."""
    corr = np.corrcoef(delays, rowvar=False)
    n = corr.shape[0]
    return float((corr.sum() - n) / (n * (n - 1)))


def copula_rho_for(delays, target: float, low: float = 0.0, high: float = 0.6) -> float:
    """The copula correlation ρ whose task delays ``delays(ρ)`` (rows of a request's tasks)
    have mean pairwise Pearson correlation ``target``, to 0.001 in ρ (Brent's method)."""
    from scipy.optimize import brentq

    def excess(rho):
        return mean_pairwise_correlation(delays(rho)) - target

    try:
        return brentq(excess, low, high, xtol=1e-3)
    except ValueError:  # brentq's "f(a) and f(b) must have different signs"
        raise ValueError(
            f"target correlation {target!r} is not reached for ρ in [{low!r}, {high!r}]"
        ) from None
