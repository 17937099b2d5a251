"""The SSD of the scheduling study (our stand-in for the paper's MQSim setup): its constants and
the arrival and backlog model shared by the fast latency path (:mod:`.kernel`) and its plain
twin (:mod:`.plain`).

Requests are 32 KB (64 sectors of 512 B). A minute's requests arrive in its first
``arrival_seconds`` seconds (60: spread over the whole minute): in each of those 1-s sub-bins an
SSD receives a Poisson number of requests (by its normal approximation,
:func:`sub_bin_arrivals`) at rate ``λ = traffic / 32 KB`` times ``60 / arrival_seconds``, and
the rest of the minute is one quiet sub-bin. Block I/O comes in
bursts shorter than the surrogate's 1-minute traffic bins; ``arrival_seconds`` says how short.
It changes no traffic a scheduler sees, only how hard each minute's requests hit the SSD (the
volume fit that goes with it does change the traffic). A fluid backlog carries over
between sub-bins (``Q_k = max(0, Q_{k-1} + N_k - S·length_k)``, Eq. (1)'s overload regime) and a
request arriving in sub-bin k waits ``Q_{k-1}/S`` for it, then an M/M/1 sojourn of rate
``S - λ_k`` (floored at 5 % of S when λ_k >= S), plus a constant base latency. The SSD's latency
distribution is the arrival-weighted mixture over its sub-bins; the mean and the 99.99 %
quantile are read from it.

``S_OPS`` puts the Fig. 2 knee at 12 000 ops/s (there the M/M/1 99.99 % latency is ten times its
no-load value: ``S = 12000 / 0.9``). The base latency (:func:`base_latency`) makes the mean
latency 127 µs at the paper's mean per-SSD load (2.5 GB/s over 96 SSDs) arriving as
``arrival_seconds`` says.
"""

from __future__ import annotations

import numpy as np

from storrepro.papers.periodicity.workload import REQUEST_BYTES

S_OPS = 12_000 / 0.9
MEAN_OPS = 2.5e9 / 96 / REQUEST_BYTES
#: Requests spread over the whole of each minute: the smooth Poisson stream.
SMOOTH = 60


def check_arrival_seconds(arrival_seconds) -> int:
    """``arrival_seconds`` as an int, or a clear error: a whole number of seconds in 1–60."""
    if isinstance(arrival_seconds, bool) or not isinstance(arrival_seconds, (int, np.integer)) \
            or not 1 <= arrival_seconds <= SMOOTH:
        raise ValueError(f"arrival_seconds = {arrival_seconds!r}: expected a whole number of "
                         f"seconds from 1 to {SMOOTH}")
    return int(arrival_seconds)


def burst_rate(ops_per_s, arrival_seconds: int = SMOOTH):
    """The arrival rate while a minute's requests arrive: ``ops_per_s`` (the minute's mean)
    times 60 / ``arrival_seconds``."""
    return ops_per_s * (SMOOTH / arrival_seconds)


def base_latency(arrival_seconds: int = SMOOTH) -> float:
    """The base latency (s) at which the mean load's mean latency is 127 µs (§5.2.1): 127 µs
    less the M/M/1 sojourn ``1 / (S - λ)`` at the mean load's arrival rate."""
    return 127e-6 - 1 / (S_OPS - burst_rate(MEAN_OPS, check_arrival_seconds(arrival_seconds)))


BASE_S = base_latency()


def eq1_delay(arrival_rate, service_rate: float = S_OPS) -> np.ndarray:
    """Eq. (1): D = 1/(S - A), infinite at and beyond saturation."""
    a = np.asarray(arrival_rate, dtype=float)
    with np.errstate(divide="ignore"):
        return np.where(a < service_rate, 1.0 / (service_rate - a), np.inf)


def sub_bins_per_minute(arrival_seconds: int = SMOOTH) -> int:
    """How many sub-bins a minute has: ``arrival_seconds`` busy ones, then one quiet one for the
    rest of the minute unless they fill all 60 seconds."""
    return arrival_seconds + (arrival_seconds < SMOOTH)


def sub_bin_lengths(minutes: int, arrival_seconds: int = SMOOTH) -> np.ndarray:
    """The length (s) of each sub-bin over ``minutes`` minutes: per minute ``arrival_seconds``
    sub-bins of one second, then (unless that is all 60) one quiet one for the rest."""
    one = np.ones(arrival_seconds)
    if arrival_seconds < SMOOTH:
        one = np.append(one, SMOOTH - arrival_seconds)
    return np.tile(one, minutes)


def sub_bin_arrivals(bytes_per_minute: np.ndarray, rng: np.random.Generator | np.ndarray,
                     arrival_seconds: int = SMOOTH) -> tuple[np.ndarray, np.ndarray]:
    """Request counts per sub-bin (:func:`sub_bin_lengths`) and their rates (per s), each of
    shape (..., minutes × sub-bins per minute); a quiet sub-bin's rate and count are 0.

    A count is Poisson at its rate by the normal approximation ``round(λ + √λ·z)`` (at least
    0), ``z`` one standard normal per sub-bin from ``rng``, drawn row after row (or ``rng``
    is those normals already drawn, an array of the rates' shape: :class:`Normals`). The same ``z``
    serve every rate: a fit or a placement that changes an SSD's rates moves its counts
    smoothly, and an SSD whose load is unchanged keeps them (common random numbers), where a
    Poisson draw per sub-bin would redraw everything after the first changed rate. At an SSD's
    rates (hundreds of requests per second and more) the approximation is close."""
    per_s = burst_rate(np.asarray(bytes_per_minute, dtype=float) / 60 / REQUEST_BYTES,
                       arrival_seconds)
    rate = np.zeros((*per_s.shape, sub_bins_per_minute(arrival_seconds)))
    rate[..., :arrival_seconds] = per_s[..., None]  # the quiet sub-bin, if any, stays at 0
    rate = rate.reshape(*per_s.shape[:-1], -1)
    counts = np.sqrt(rate)
    if isinstance(rng, np.random.Generator):
        counts *= rng.standard_normal(rate.shape)
    elif rng.shape == rate.shape:
        counts *= rng
    else:
        raise ValueError(f"rng: normals of shape {rng.shape}, expected the rates' "
                         f"{rate.shape}")
    counts += rate
    np.rint(counts, out=counts)
    return np.maximum(counts, 0.0, out=counts), rate


class Normals:
    """The standard normals :func:`sub_bin_arrivals` draws from ``np.random.default_rng(seed)``
    for ``ssds`` rows of ``minutes`` minutes, drawn once and shared by every load evaluated
    with that seed: the arrivals of an SSD's row depend only on its load and its row of
    normals, so every placement, fit and reading of an interval reuses the one draw."""

    def __init__(self, seed: int, ssds: int, minutes: int, arrival_seconds: int = SMOOTH):
        self.arrival_seconds = check_arrival_seconds(arrival_seconds)
        self.shape = (ssds, minutes * sub_bins_per_minute(arrival_seconds))
        self.seed = seed
        self._z = None

    @property
    def z(self) -> np.ndarray:
        if self._z is None:
            self._z = np.random.default_rng(self.seed).standard_normal(self.shape)
        return self._z


def backlog(counts: np.ndarray, service: float = S_OPS,
            lengths: np.ndarray | None = None) -> np.ndarray:
    """Fluid backlog at the end of each sub-bin (Lindley recursion in closed form); ``lengths``:
    each sub-bin's length in seconds (default: all one second)."""
    served = service if lengths is None else service * lengths
    c = np.cumsum(counts - served, axis=-1)
    floor = np.minimum.accumulate(np.minimum(c, 0.0), axis=-1)
    return c - floor
