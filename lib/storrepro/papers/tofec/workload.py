"""TOFEC's workloads: Poisson request arrivals (the paper's synthetic load), and the arrivals of
the changing-workload experiment (Fig. 11) taken from a real block trace.

Every run draws its arrivals first and then one block of task-delay variates per request from
the same random stream, so all policies of a run see the same requests (common random numbers).

**A real trace** replaces the Poisson arrivals of the changing-workload experiment only (the
λ-grid and saturation sweeps keep the rates the paper sets). The trace's request timestamps,
all volumes merged and sorted, keep their inter-arrival pattern (its bursts and lulls) while
the experiment keeps its rate profile: the gaps are divided by their mean, and each phase
multiplies the next gaps in the trace by its own mean gap (1000 / rate ms) until its 200 s are
filled, wrapping around at the trace's end. Each seed starts at a random request of the trace.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from storrepro.sim.cloud_inputs import poisson_arrival_times
from storrepro.suite.checks import finite
from storrepro.suite.traces import samples
from storrepro.suite.traces.needs import TraceNeeds
from storrepro.suite.traces.reader import TraceFormatError, read_chunks

PHASE_S = 200.0  # length of each phase of the changing workload (s)
#: The most trace requests the changing workload keeps (in file order): 8 MB of gaps.
TRACE_REQUESTS = 1_000_000


def draw_workload(model, rng: np.random.Generator, rate: float, requests: int):
    """``requests`` Poisson arrivals (ms) at ``rate`` req/s and their task-delay blocks."""
    finite("arrival rate", rate, strict=True, unit="req/s")
    if requests < 100:
        raise ValueError(f"requests must be >= 100 per run, got {requests!r}")
    arrivals = poisson_arrival_times(rng, rate, requests / rate * 1000.0 * 1.5)[:requests]
    return arrivals, model.draw(rng, len(arrivals))


def _check_rates(rates) -> None:
    for rate in rates:
        finite("phase rate", rate, strict=True, unit="req/s")


def phase_arrivals(rng: np.random.Generator, rates, phase_s: float = PHASE_S) -> np.ndarray:
    """Poisson arrivals (ms) of consecutive ``phase_s``-second phases at ``rates`` req/s."""
    _check_rates(rates)
    parts = [
        i * phase_s * 1000.0 + poisson_arrival_times(rng, rate, phase_s * 1000.0)
        for i, rate in enumerate(rates)
    ]
    return np.concatenate(parts)


def trace_gaps(path: str | Path, format: str = "", limit: int = TRACE_REQUESTS) -> np.ndarray:
    """The inter-arrival gaps of a block trace's first ``limit`` requests (all volumes, sorted
    by time), divided by their mean: the trace's arrival pattern at mean gap 1."""
    times, kept = [], 0
    for chunk in read_chunks(path, format or None, progress=False):
        if "iops" in chunk:
            raise TraceFormatError(
                f"{path}: the changing workload needs request timestamps, not an iops series"
            )
        times.append(chunk.time_s.to_numpy()[: limit - kept])
        kept += len(times[-1])
        if kept >= limit:
            break
    stamps = np.sort(np.concatenate(times)) if times else np.empty(0)
    gaps = np.diff(stamps)
    if gaps.size == 0 or not gaps.mean() > 0:
        raise TraceFormatError(
            f"{path}: the changing workload needs at least two requests at different times, "
            f"got {stamps.size} request(s) spanning {np.ptp(stamps) if stamps.size else 0:g} s"
        )
    return gaps / gaps.mean()


def trace_phase_arrivals(
    gaps: np.ndarray, rates, start: int = 0, phase_s: float = PHASE_S
) -> np.ndarray:
    """Arrivals (ms) of consecutive ``phase_s``-second phases at mean ``rates`` req/s with the
    trace's gap pattern: phase i multiplies the next unit-mean ``gaps`` (from index ``start``,
    wrapping around) by 1000 / rates[i] ms. The first arrival of each phase is at its start."""
    _check_rates(rates)
    gaps = np.asarray(gaps, dtype=float)
    if gaps.ndim != 1 or gaps.size == 0 or np.any(gaps < 0) or not gaps.mean() > 0:
        raise ValueError("gaps must be a non-empty 1-D array of gaps >= 0 with a positive mean")
    if not 0 <= start < gaps.size:
        raise ValueError(f"start must be an index in [0, {gaps.size}), got {start!r}")
    parts, position = [], start
    for i, rate in enumerate(rates):
        span = phase_s * 1000.0
        offsets = [0.0]
        while True:  # more than one pass over the trace only when the trace is short
            steps = offsets[-1] + np.cumsum(1000.0 / rate * np.roll(gaps, -position))
            inside = steps[steps < span]
            offsets.extend(inside.tolist())
            position = (position + len(inside)) % gaps.size
            if len(inside) < len(steps):
                position = (position + 1) % gaps.size  # the gap that crossed the phase's end
                break
        parts.append(i * span + np.array(offsets))
    return np.concatenate(parts)


def _sample(path: Path, rng: np.random.Generator) -> Path:
    """Bursty requests whose gaps shape the changing workload's arrivals."""
    return samples.write_alibaba(path, *samples.bursty_arrivals(rng, 2, 0.4, 1000), rng)


#: The small trace the tests run the notebook on.
TRACE_SAMPLE = samples.TraceSample(_sample)


def trace_needs(cfg) -> TraceNeeds:
    """Requests timed to 1 ms or finer: their gaps shape the arrivals."""
    return TraceNeeds(requests=True, fine_time="the gaps between requests shape the arrivals")
