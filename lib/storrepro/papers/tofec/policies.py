"""Code-selection policies: plain callables ``policy(StoreState) -> (n, k)`` (no simpy).

Each policy is called once per request, on arrival, with what the proxy observes then
(``queue_length``: requests waiting in the request queue, excluding the arriving one;
``idle_threads``; ``now`` in ms). :meth:`kernel_spec` describes the same rule as plain arrays
for the fast kernel (:mod:`storrepro.papers.tofec.kernel`); a test checks both give identical codes.

- :class:`Static` — the same (n, k) for every request (basic (1,1), replication (2,1), ...).
- :class:`Tofec` — Algorithm 1: EWMA Q̄ ← αQ̄ + (1-α)Q of the backlog, n from the thresholds
  T^n (T^n <= Q̄ < T^{n-1}), k from T̃^k, then n ← min(n, ⌊r_max·k⌋) and n ← max(n, k).
  With a single k it is the fixed-k backlog-adaptive strategy of [3] (:meth:`Tofec.fixed_k`).
- :class:`Greedy` — k = min(max(I, 1), k_max), n = min(max(I, k), ⌊r_max·k⌋) for I idle threads.
- :class:`Ideal` — a rate-driven oracle: a given static code per phase of known arrival rate,
  applied at the head of the line (``decide_at="admission"``: a request takes the code of the
  phase in which it leaves the request queue, so queued requests switch with the phase) or on
  arrival (``decide_at="arrival"``: each request keeps the code of the phase it arrived in).
"""

from __future__ import annotations

import functools
import math
import numbers
from dataclasses import dataclass, field

import numpy as np

from storrepro.papers.tofec import analysis
from storrepro.papers.tofec.codes import K_MAX, R_MAX, check_code
from storrepro.papers.tofec.delay import N_MAX
from storrepro.sim.cloud_inputs import StoreState
from storrepro.suite.checks import finite, whole

STATIC, THRESHOLD, GREEDY, SCHEDULE = 0, 1, 2, 3


@dataclass(frozen=True)
class KernelSpec:
    """A policy as arrays: kind, integer and float parameters, two float tables."""

    kind: int
    ints: tuple[int, ...] = ()
    floats: tuple[float, ...] = ()
    table_a: tuple[float, ...] = ()
    table_b: tuple[float, ...] = ()

    def arrays(self):
        return (
            self.kind,
            np.array(self.ints or (0,), dtype=np.int64),
            np.array(self.floats or (0.0,), dtype=float),
            np.array(self.table_a, dtype=float),
            np.array(self.table_b, dtype=float),
        )


def _check_r_max(r_max) -> float:
    return finite("r_max", r_max, minimum=1, maximum=N_MAX)


def _check_k_max(k_max) -> int:
    return whole("k_max", k_max, minimum=1)


@dataclass(frozen=True)
class Static:
    n: int
    k: int

    def __post_init__(self):
        check_code(self.n, self.k, n_max=N_MAX)

    @property
    def name(self) -> str:
        return f"({self.n},{self.k})"

    def __call__(self, state: StoreState) -> tuple[int, int]:
        return self.n, self.k

    def kernel_spec(self) -> KernelSpec:
        return KernelSpec(STATIC, (self.n, self.k))


@dataclass
class Tofec:
    """Algorithm 1 with n-thresholds for n = n_min, n_min+1, ... and k-thresholds likewise.

    ``n_thresholds[i]`` separates n = n_min+i from n_min+i+1 (decreasing); n = n_min + #{T > Q̄}.
    Stateful (the EWMA): use a fresh object per run.
    """

    n_thresholds: tuple[float, ...]
    k_thresholds: tuple[float, ...]
    alpha: float = 0.9
    r_max: float = R_MAX
    n_min: int = 1
    k_min: int = 1
    name: str = "TOFEC"
    q_bar: float = field(default=0.0, init=False)

    def __post_init__(self):
        self.alpha = check_alpha(self.alpha)
        self.r_max = _check_r_max(self.r_max)
        tables = {"n_thresholds": self.n_thresholds, "k_thresholds": self.k_thresholds}
        for label, table in tables.items():
            t = np.array([finite(f"{label}[{i}]", v, minimum=None)  # not text numpy converts
                          for i, v in enumerate(np.ravel(np.asarray(table, dtype=object)))])
            if np.ndim(table) != 1 or np.any(t < 0) or np.any(np.diff(t) > 0):
                raise ValueError(
                    f"{label} must be non-increasing finite numbers >= 0, got {table!r}"
                )
        self.n_min, self.k_min = (whole(name, getattr(self, name), minimum=1, maximum=N_MAX)
                                  for name in ("n_min", "k_min"))
        self.n_thresholds = tuple(float(t) for t in self.n_thresholds)
        self.k_thresholds = tuple(float(t) for t in self.k_thresholds)
        n_top = self.n_min + len(self.n_thresholds)
        k_top = self.k_min + len(self.k_thresholds)
        check_code(n_top, min(k_top, n_top), n_max=N_MAX)
        check_code(max(self.n_min, self.k_min), self.k_min, n_max=N_MAX)

    @classmethod
    def from_model(
        cls,
        setting: analysis.Setting,
        alpha: float = 0.9,
        k_max: int = K_MAX,
        r_max: float = R_MAX,
        rule: str = "midpoint",
        name: str = "TOFEC",
    ) -> Tofec:
        """Thresholds from Eq. (14): midpoints (or geometric means) of Q(n) and Q̃(k)."""
        k_max, r_max = _check_k_max(k_max), _check_r_max(r_max)
        n_max = int(math.floor(r_max * k_max))
        check_code(n_max, k_max, n_max=N_MAX)
        t_n, t_k = _model_thresholds(setting, n_max, k_max, rule)
        return cls(t_n, t_k, alpha, r_max, name=name)

    @classmethod
    def fixed_k(
        cls,
        setting: analysis.Setting,
        k: int = K_MAX,
        alpha: float = 0.9,
        r_max: float = R_MAX,
        rule: str = "midpoint",
        name: str = "[3] fixed k",
    ) -> Tofec:
        """The backlog-adaptive strategy of [3]: k fixed, n in k..⌊r_max·k⌋ from h(n/k; k)."""
        r_max = _check_r_max(r_max)
        check_code(int(math.floor(r_max * k)), k, n_max=N_MAX)
        t_n = analysis.thresholds(analysis.fixed_k_backlogs(setting, k, r_max), rule)
        return cls(tuple(t_n), (), alpha, r_max, n_min=k, k_min=k, name=name)

    def __call__(self, state: StoreState) -> tuple[int, int]:
        self.q_bar = self.alpha * self.q_bar + (1 - self.alpha) * state.queue_length
        n = self.n_min + sum(1 for t in self.n_thresholds if t > self.q_bar)
        k = self.k_min + sum(1 for t in self.k_thresholds if t > self.q_bar)
        n = min(n, int(math.floor(self.r_max * k)))
        return max(n, k), k

    def kernel_spec(self) -> KernelSpec:
        return KernelSpec(
            THRESHOLD,
            (self.n_min, self.k_min),
            (self.alpha, self.r_max),
            self.n_thresholds,
            self.k_thresholds,
        )


@functools.cache
def _model_thresholds(setting: analysis.Setting, n_max: int, k_max: int, rule: str):
    """Eq. (14)'s n- and k-thresholds, solved once per model: a sweep builds TOFEC at every α
    and rate from the same ones, and each costs a root search per n and k."""
    t_n = analysis.thresholds(analysis.n_backlogs(setting, n_max), rule)
    t_k = analysis.thresholds(analysis.k_backlogs(setting, k_max), rule)
    return tuple(t_n), tuple(t_k)


@dataclass(frozen=True)
class Greedy:
    k_max: int = K_MAX
    r_max: float = R_MAX
    name: str = "Greedy"

    def __post_init__(self):
        _check_k_max(self.k_max)
        _check_r_max(self.r_max)
        check_code(int(math.floor(self.r_max * self.k_max)), self.k_max, n_max=N_MAX)

    def __call__(self, state: StoreState) -> tuple[int, int]:
        idle = state.idle_threads
        k = min(max(idle, 1), self.k_max)
        return min(max(idle, k), int(math.floor(self.r_max * k))), k

    def kernel_spec(self) -> KernelSpec:
        return KernelSpec(GREEDY, (self.k_max,), (self.r_max,))


IDEAL_DECISION_POINTS = {"head_of_line": "admission", "arrival": "arrival"}


@dataclass(frozen=True)
class Ideal:
    """Code ``codes[i]`` before ``phase_ends_ms[i]`` (the last phase is open-ended).

    ``decide_at``: ``"admission"`` — the phase at which the request reaches the head of the line
    and is admitted (the default: the reading of the paper's Fig. 11 argument); ``"arrival"`` —
    the phase it arrived in.
    """

    phase_ends_ms: tuple[float, ...]
    codes: tuple[tuple[int, int], ...]
    name: str = "Ideal"
    decide_at: str = "admission"

    def __post_init__(self):
        if len(self.codes) != len(self.phase_ends_ms) + 1:
            raise ValueError(
                f"Ideal needs one code per phase: {len(self.phase_ends_ms) + 1} codes for "
                f"{len(self.phase_ends_ms)} phase ends, got {len(self.codes)}"
            )
        for end in self.phase_ends_ms:
            finite("each of phase_ends_ms", end, minimum=None, unit="ms")
        if np.any(np.diff(self.phase_ends_ms) <= 0):
            raise ValueError(f"phase_ends_ms must increase, got {self.phase_ends_ms!r}")
        for n, k in self.codes:
            check_code(n, k, n_max=N_MAX)
        if self.decide_at not in IDEAL_DECISION_POINTS.values():
            raise ValueError(
                f"decide_at must be one of {sorted(IDEAL_DECISION_POINTS.values())}, "
                f"got {self.decide_at!r}"
            )

    def __call__(self, state: StoreState) -> tuple[int, int]:
        phase = sum(1 for end in self.phase_ends_ms if state.now >= end)
        return self.codes[phase]

    def kernel_spec(self) -> KernelSpec:
        flat = tuple(v for code in self.codes for v in code)
        return KernelSpec(SCHEDULE, flat, (), self.phase_ends_ms)


def check_alpha(alpha) -> float:
    if not (isinstance(alpha, numbers.Real) and not isinstance(alpha, bool) and 0 <= alpha < 1):
        raise ValueError(f"memory factor alpha must be in [0, 1), got {alpha!r}")
    return float(alpha)
