"""The burst-intensity sensitivity (section 11): the pool's tenants again with every burst at
2, 4, 6, 8 or 10× the mean rate (the paper's "typically 2–10×"; the pool's own bursts span about
2.5–4.2×).

Each tenant of a sub-pool (spread evenly over the pool, so G1 and G2 in the pool's shares) keeps
its generator's other knobs (how often and how long it bursts) and has its burst rate set to the
intensity: G1's micro-bursts all at ``x`` × the mean (``intensity_lo = intensity_hi = x``), G2's
burst state at ``x``. The mean rate stays 2000 IOPS (the base rate makes up the rest).
SNC-Meister, AccGecko under the primary and the literal reading, and the exact-replay reference
allocate on the modelled segment as in the main pool. Admission and safety run on random
arrivals as there, on the same node: as many candidates as the main pool has tenants, each a
tenant of the sub-pool drawn with replacement, with an SLO drawn from the grid."""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import ClassVar

import numpy as np
import pandas as pd

from storrepro.papers.accgecko.admission import admit
from storrepro.papers.accgecko.bursts import burst_sizes, continuous_bursts
from storrepro.papers.accgecko.experiment import (
    ACCTAIL,
    EXACT,
    INTENSITIES,
    INTENSITY_LABELS,
    INTENSITY_METHODS,
    SLO_GRID,
    reading_choices,
)
from storrepro.papers.accgecko.experiment.admission_runs import draw_slos, mean_ci
from storrepro.papers.accgecko.experiment.sweeps import (
    ModelledSegment,
    actual_percentiles,
    allocate,
)
from storrepro.papers.accgecko.features import DELTA, period_counts
from storrepro.papers.accgecko.kernel import dispatch_overhead_us
from storrepro.papers.accgecko.pacer import Replayer
from storrepro.papers.accgecko.workload import G1, G2, MEAN_RATE, generate
from storrepro.suite.checks import finite
from storrepro.suite.parallel import sweep, task_rng


def at_intensity(params: G1 | G2, x: float) -> G1 | G2:
    """The generator setting ``params`` with every burst at ``x`` × the mean rate."""
    finite("x (burst intensity)", x, minimum=1.0, strict=True, unit="× the mean rate")
    if isinstance(params, G1):
        return replace(params, intensity_lo=float(x), intensity_hi=float(x))
    if isinstance(params, G2):
        return replace(params, intensity=float(x))
    raise ValueError(f"params = {params!r}: expected a G1 or G2 setting (a real trace has "
                     "its own intensity)")


@dataclass(frozen=True)
class IntensityTask:
    # what keys the task's random stream (parallel.stream_id), names included
    STREAM: ClassVar[tuple[str, ...]] = ("tenant", "params", "intensity", "duration", "segment")
    tenant: int
    params: G1 | G2
    intensity: float
    duration: float  # seconds
    segment: float  # the segment's length, s


def evaluate_intensity(task: IntensityTask, rng: np.random.Generator) -> list[dict]:
    """The tenant at ``task.intensity``: every method's allocation for every SLO of the grid under
    each reading of :data:`INTENSITY_LABELS` (one row each), with the full trace's percentile
    there."""
    params = at_intensity(task.params, task.intensity)
    arrivals = generate(params, task.duration, rng, task.segment)
    overhead = dispatch_overhead_us(rng, arrivals.size)
    counts = period_counts(arrivals, task.duration)
    mean_count = MEAN_RATE * DELTA
    per = int(round(task.segment / DELTA))
    scores = [int(np.sum(burst_sizes(c, continuous_bursts(c, 2.0, mean_count=mean_count))))
              for c in counts.reshape(-1, per)]  # fmt: skip
    index = int(np.argmax(scores))  # the modelled segment: the most requests in bursts
    seg = ModelledSegment(arrivals, overhead, counts, index, task.segment)
    choices = reading_choices()
    fitted, made, rows = {}, {}, []
    for label in INTENSITY_LABELS:
        choice = choices[label]
        for method in INTENSITY_METHODS:
            acctail = method.kind == "acctail"
            key = (index, mean_count, (choice.line9, choice.trn, choice.epsilon) if acctail
                   else None, None, method)  # fmt: skip
            if key not in made:
                made[key] = allocate(method, seg, mean_count, choice, fitted, key)
            rows += [{**r, "tenant": task.tenant, "intensity": task.intensity, "reading": label}
                     for r in made[key]]  # fmt: skip
    actual_percentiles(rows, Replayer(arrivals, overhead, checked=True))
    return rows


def intensity_run(pool: list, tenants: int, duration: float, segment_s: float,
                  seed: int) -> pd.DataFrame:
    """``tenants`` of ``pool``, spread evenly over it, at every intensity of
    :data:`INTENSITIES` (in parallel); each (tenant, intensity) draws its own stream (from its
    task's repr)."""
    if not 2 <= tenants <= len(pool):
        raise ValueError(f"tenants = {tenants!r}: expected 2..{len(pool)} (the pool's size)")
    picks = np.linspace(0, len(pool) - 1, tenants).round().astype(int)
    tasks = [IntensityTask(int(i), pool[i], x, duration, segment_s)
             for x in INTENSITIES for i in picks]  # fmt: skip
    rows = sweep(evaluate_intensity, tasks, seed=seed, desc="burst intensity")
    return pd.DataFrame([row for part in rows for row in part])


def intensity_summary(rows: pd.DataFrame, capacity: float, candidates: int, seeds: int,
                      seed: int) -> pd.DataFrame:
    """Per (intensity, reading, p, method): tenants admitted (mean and 95 % half-width over
    ``seeds`` runs of ``candidates`` arrivals, each a tenant drawn with replacement with an SLO
    drawn from the grid; the same arrivals for every method, reading and intensity), the share
    of them violating their SLO on the full-trace replay, and the gain in tenants admitted over
    SNC-Meister."""
    if candidates < 1:
        raise ValueError(f"candidates = {candidates!r}: expected >= 1")
    out = []
    for (x, label), part in rows.groupby(["intensity", "reading"], sort=True):
        tenants = np.sort(part.tenant.unique())
        for p, grid in SLO_GRID.items():
            rates, actual = (_intensity_table(part, p, tenants, column)
                             for column in ("rate", "actual_us"))  # fmt: skip
            rng = task_rng(seed, ("intensity orders", p))
            admitted = np.zeros((seeds, len(INTENSITY_METHODS)))
            violating = np.zeros(len(INTENSITY_METHODS))
            taken_all = np.zeros(len(INTENSITY_METHODS))
            for s in range(seeds):
                slos = draw_slos(p, candidates, "grid", rng)
                who = rng.integers(0, tenants.size, candidates)
                for j in range(len(INTENSITY_METHODS)):
                    taken = admit(rates[who, j, slos], capacity)
                    admitted[s, j] = np.count_nonzero(taken)
                    ratio = actual[who[taken], j, slos[taken]] / np.asarray(grid)[slos[taken]]
                    violating[j] += np.count_nonzero(ratio > 1)
                    taken_all[j] += admitted[s, j]
            sncm = admitted[:, 0].mean()
            for j, method in enumerate(INTENSITY_METHODS):
                mean, half = mean_ci(admitted[:, j])
                out.append({"intensity": x, "reading": label, "p": p, "method": method.name,
                            "admitted": mean, "ci95": half, "gain vs SNCM %":
                            100 * (mean / sncm - 1) if sncm else math.nan,
                            "violating %": 100 * violating[j] / taken_all[j]
                            if taken_all[j] else math.nan})  # fmt: skip
    return pd.DataFrame(out)


def _intensity_table(part: pd.DataFrame, p: float, tenants: np.ndarray, column: str) -> np.ndarray:
    """``column`` as ``(tenants, INTENSITY_METHODS, SLOs of SLO_GRID[p])``."""
    names = [m.name for m in INTENSITY_METHODS]
    table = part[part.p == p].set_index(["tenant", "method", "slo_us"])[column]
    index = pd.MultiIndex.from_product([tenants, names, SLO_GRID[p]])
    return table.reindex(index).to_numpy().reshape(tenants.size, len(names), len(SLO_GRID[p]))


def intensity_shown(table: pd.DataFrame) -> pd.DataFrame:
    """The sensitivity row as the notebook shows it: per intensity and p, the violating share and
    the gain over SNC-Meister of AccGecko under each reading and of the exact reference (which
    no reading touches)."""
    acc = table[table.method == ACCTAIL.name]
    ref = table[(table.method == EXACT.name) & (table.reading == "primary")]
    columns = {}
    for label in INTENSITY_LABELS:
        part = acc[acc.reading == label].set_index(["intensity", "p"])
        name = "AccGecko" if label == "primary" else "AccGecko (literal)"
        columns[f"{name} violating %"] = part["violating %"]
        columns[f"{name} gain %"] = part["gain vs SNCM %"]
    exact = ref.set_index(["intensity", "p"])
    columns["Exact violating %"] = exact["violating %"]
    columns["Exact gain %"] = exact["gain vs SNCM %"]
    return pd.DataFrame(columns)
