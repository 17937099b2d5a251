"""The tenant pool's run: tenant workload -> predictors -> fixed-rate replay -> allocations.

One :class:`TenantTask` per tenant goes through ``parallel.sweep``; :func:`evaluate_tenant`
regenerates the tenant's trace from its own random stream and returns small tables only:
- per 5-min segment: burst features (E4–E6) and latency percentiles at 3000 IOPS (Fig. 2–3);
- per (percentile, SLO, method): the allocated rate (the smallest rate whose prediction meets the
  SLO on the modelled segment, the segment with the most requests in continuous bursts),
  the prediction there, and the actual percentile on the full-trace replay (Fig. 8–12)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from storrepro.papers.accgecko.acctail import AccTail, RateBursts, smallest_rate
from storrepro.papers.accgecko.baselines import PriorityMeister, SncMeister
from storrepro.papers.accgecko.burst_queue import BurstQueue
from storrepro.papers.accgecko.bursts import burst_sizes, continuous_bursts
from storrepro.papers.accgecko.exact import ExactReplay
from storrepro.papers.accgecko.experiment import (
    ACCURACY_METHODS,
    ADMISSION_METHODS,
    BEST_K,
    MMP_CEILING_US,
    MOTIVATION_RATE,
    PERCENTILES,
    SLO_GRID,
    Choice,
    Method,
    reading_choices,
)
from storrepro.papers.accgecko.experiment.underprediction import explain_tenant
from storrepro.papers.accgecko.features import DELTA, burst_features, period_counts
from storrepro.papers.accgecko.kernel import dispatch_overhead_us
from storrepro.papers.accgecko.mmp import MarkovCounts
from storrepro.papers.accgecko.pacer import Replayer, largest, rank_from_top
from storrepro.papers.accgecko.priority_meister import (
    PriorityMeisterOriginal,
    fit_envelope,
    shaper_waits,
)
from storrepro.papers.accgecko.workload import (
    G1,
    G2,
    MEAN_RATE,
    TraceTenant,
    generate,
    tenant_pool,
    trace_tenants,
)
from storrepro.suite.parallel import sweep, task_rng
from storrepro.suite.traces.needs import selected


@dataclass(frozen=True)
class TenantTask:
    # what keys the task's random stream (parallel.stream_id), names included: a field added
    # or renamed here changes no stream unless it is listed
    STREAM: ClassVar[tuple[str, ...]] = ("tenant", "params", "duration", "segment", "accuracy",
                                         "readings")  # fmt: skip
    tenant: int
    params: G1 | G2 | TraceTenant
    duration: float  # seconds
    segment: float  # the segment's length, s
    accuracy: bool  # also run the ablation predictors (Fig. 8–10)
    readings: bool = True  # also allocate under every alternative reading


def generator_name(params) -> str:
    """G1, G2, or "trace" for a real trace's tenant."""
    return "trace" if isinstance(params, TraceTenant) else type(params).__name__


def segment_table(arrivals, overhead, counts, task: TenantTask, mean_count: float) -> list[dict]:
    """Features (with N the tenant's mean and, prefixed ``segN_``, the segment's own mean),
    selection scores and latency percentiles at 3000 IOPS of every segment."""
    rows = []
    per = int(round(task.segment / DELTA))
    bounds = np.searchsorted(arrivals, np.arange(0, task.duration + 1e-9, task.segment))
    for s in range(int(round(task.duration / task.segment))):
        seg_counts = counts[s * per : (s + 1) * per]
        lo, hi = bounds[s], bounds[s + 1]
        spans = continuous_bursts(seg_counts, 2.0, mean_count=mean_count)
        score = int(np.sum(burst_sizes(seg_counts, spans)))
        replayer = Replayer(arrivals[lo:hi] - s * task.segment, overhead[lo:hi], checked=True)
        latency = replayer.percentiles_us(PERCENTILES, MOTIVATION_RATE)
        own = burst_features(seg_counts, 2.0, 2.0, mean_count=max(seg_counts.mean(), 1e-9))
        rows.append(
            {
                "tenant": task.tenant,
                "generator": generator_name(task.params),
                "segment": s,
                **burst_features(seg_counts, 2.0, 2.0, mean_count=mean_count, spans=spans),
                **{f"segN_{k}": v for k, v in own.items()},
                "burst_requests": score,
                **{f"p{p:g}": float(v) for p, v in zip(PERCENTILES, latency, strict=True)},
            }
        )
    return rows


def fit_model(method: Method, k: int, seg: ModelledSegment, mean_count, choice: Choice):
    """The method's predictor fitted to the modelled segment ``seg`` under the readings
    ``choice``."""
    seg_arrivals, seg_counts = seg.arrivals, seg.counts
    if method.kind == "exact":
        return ExactReplay().fit(seg_arrivals, seg.overhead)
    if method.kind == "acctail":
        return AccTail(method.m, k, method.c_us, choice.line9, choice.trn, choice.epsilon).fit(
            seg_counts, mean_count, seg.rate_bursts(method.m * mean_count))
    if method.kind == "queue":
        return BurstQueue(method.m, method.c_us).fit(seg_counts, mean_count)
    if method.kind == "sncm":
        return SncMeister(method.c_us).fit(seg_counts)
    if method.kind == "pm" and choice.pm == "original":
        return PriorityMeisterOriginal(method.c_us).fit(seg_arrivals, seg_counts.size * DELTA)
    if method.kind == "pm":
        return PriorityMeister(method.c_us).fit(seg_arrivals)
    if method.kind == "mmp":
        return MarkovCounts(method.c_us, MMP_CEILING_US).fit(seg_counts)
    raise ValueError(
        f"method kind = {method.kind!r}: expected acctail, queue, exact, sncm, pm or mmp")


def chosen_segment(segments: list[dict], rule: str) -> int:
    """The modelled segment (reading ``segment``): most burst requests, or longest burst."""
    column = {"burst_requests": "burst_requests", "longest": "max_duration_ms"}[rule]
    return int(np.argmax([row[column] for row in segments]))


class ModelledSegment:
    """The modelled segment's arrivals, dispatch overheads and counts, cut once, and its
    continuous bursts per core level, shared by the AccTail models fitted to it."""

    def __init__(self, arrivals, overhead, counts, index: int, segment_s: float):
        t0, t1 = index * segment_s, (index + 1) * segment_s
        lo, hi = np.searchsorted(arrivals, [t0, t1])
        self.lo, self.hi = lo, hi
        self.arrivals = arrivals[lo:hi] - t0
        self.overhead = overhead[lo:hi]
        per = int(round(segment_s / DELTA))
        self.counts = counts[index * per : (index + 1) * per]
        self._bursts: dict[float, RateBursts] = {}

    def rate_bursts(self, core: float) -> RateBursts:
        """The segment's :class:`RateBursts` from the cores above ``core`` (M·N)."""
        if core not in self._bursts:
            self._bursts[core] = RateBursts(self.counts, core)
        return self._bursts[core]


def evaluate_tenant(task: TenantTask, rng: np.random.Generator) -> dict:
    """Everything the notebook needs from one tenant (see the module docstring). Allocation rows
    carry the reading they were made under (``"primary"`` or ``"name=value"``); a reading that
    leaves a method's inputs unchanged reuses its rows, and every distinct allocated rate is
    replayed once on the full trace."""
    arrivals = generate(task.params, task.duration, rng, task.segment)
    overhead = dispatch_overhead_us(rng, arrivals.size)
    tenant_mean = MEAN_RATE * DELTA  # the tenant's rate after rescaling (N = 2 per ms)
    counts = period_counts(arrivals, task.duration)
    segments = segment_table(arrivals, overhead, counts, task, tenant_mean)
    methods = ACCURACY_METHODS if task.accuracy else ADMISSION_METHODS
    choices = reading_choices() if task.readings else {"primary": Choice()}

    cut: dict[int, ModelledSegment] = {}
    fitted: dict = {}  # one model per (segment, N, line 9, configuration)
    made: dict = {}  # rows per (segment, N, line 9, method)
    rows = []
    for label, reading in choices.items():
        for method in methods:
            # the reference queue model feeds no test claim: the primary reading only; the exact
            # replay reads only the modelled segment, so readings share its rows (and replays)
            choice = choices["primary"] if method.kind == "queue" else reading
            index = chosen_segment(segments, choice.segment)
            if index not in cut:
                cut[index] = ModelledSegment(arrivals, overhead, counts, index, task.segment)
            seg = cut[index]
            mean_count = (
                tenant_mean if choice.normaliser == "tenant" else float(seg.counts.mean())
            )
            uses_n = method.kind in ("acctail", "queue")
            acctail = method.kind == "acctail"
            key = (
                index,
                mean_count if uses_n else None,
                (choice.line9, choice.trn, choice.epsilon) if acctail else None,
                choice.pm if method.kind == "pm" else None,
                method,
            )
            if key not in made:
                made[key] = allocate(method, seg, mean_count, choice, fitted, key)
            rows += [{**r, "tenant": task.tenant, "reading": label, "segment": index}
                     for r in made[key]]  # fmt: skip
    actual_percentiles(rows, Replayer(arrivals, overhead, checked=True))
    explain = explain_tenant(task, rows, cut, arrivals, overhead, fitted, tenant_mean)
    model_segment = chosen_segment(segments, Choice().segment)
    return {
        "segments": segments,
        "allocations": rows,
        "model_segment": model_segment,
        "explain": explain,
        "pm_original": pm_original_row(task, cut[model_segment], arrivals, overhead),
    }


def pm_original_row(task: TenantTask, seg, arrivals, overhead) -> dict:
    """The original PriorityMeister's envelope of the modelled segment, and what its client-side
    rate limiters do to the full trace: per percentile, the replayed percentile of the limiters'
    wait alone and with the overheads (a lower bound on the latency at any priority)."""
    envelope = fit_envelope(seg.arrivals, task.segment)
    waits_us = shaper_waits(arrivals, envelope) * 1e6
    row = {"tenant": task.tenant, "rates": envelope.rates.tolist(),
           "bursts": envelope.bursts.tolist()}  # fmt: skip
    ranks = [rank_from_top(arrivals.size, p) for p in SLO_GRID]
    for name, values in (("limiter", waits_us), ("lower", waits_us + overhead)):
        row.update({f"{name}_p{p:g}": float(v)
                    for p, v in zip(SLO_GRID, largest(values, ranks), strict=True)})  # fmt: skip
    return row


def allocate(method, seg, mean_count, choice, fitted, key) -> list[dict]:
    """The method's allocated rate and prediction for every SLO of the grid."""
    low, high = MEAN_RATE, 2.0 * seg.counts.max() / DELTA
    out = []
    for p, grid in SLO_GRID.items():
        k = BEST_K[p] if method.k == 0 else method.k
        mkey = (*key[:4], method.kind, method.m, k, method.c_us)
        if mkey not in fitted:
            model = fit_model(method, k, seg, mean_count, choice)
            fitted[mkey] = (model, {})
        model, memo = fitted[mkey]

        def predict(r, model=model, memo=memo, p=p):
            if (p, r) not in memo:
                memo[p, r] = model.predict(p, r)
            return memo[p, r]

        # AccTail's bursts (and the queue model's) assume service at M x the mean rate (E8)
        floor = method.m * MEAN_RATE if method.kind in ("acctail", "queue") else low
        for slo in grid:
            if isinstance(model, AccTail):  # the same rate, found from the rates themselves
                rate = model.smallest_rate(p, slo, floor, max(high, floor + 1))
            else:
                rate = smallest_rate(predict, slo, floor, max(high, floor + 1))
            out.append(
                {
                    "method": method.name,
                    "p": p,
                    "slo_us": slo,
                    "rate": rate,
                    "predicted_us": predict(rate) if rate < math.inf else math.inf,
                }
            )
    return out


def actual_percentiles(rows: list[dict], full: Replayer) -> None:
    """Add ``actual_us``, the full-trace percentile at each allocated rate, to every row (each
    rate replayed for the percentiles its rows need)."""
    needed: dict[float, set] = {}
    for r in rows:
        if r["rate"] < math.inf:
            needed.setdefault(r["rate"], set()).add(r["p"])
    actual = full.percentiles_of(needed)
    for row in rows:
        row["actual_us"] = actual.get((row["rate"], row["p"]), math.inf)


def tenant_tasks(cfg) -> list[TenantTask]:
    """The pool of ``cfg.tenants`` tenants — the synthetic stand-in, or with ``cfg.trace`` the
    trace's first volumes — of which ``cfg.accuracy_tenants``, spread evenly over the pool, also
    run the ablation predictors."""
    if cfg.trace:
        pool = trace_tenants(*selected(cfg), cfg.segment_seconds, cfg.tenants,
                             cfg.segments)  # fmt: skip
        durations = [tenant.duration for tenant in pool]
    else:
        pool = tenant_pool(cfg.tenants, cfg.g2_share, task_rng(cfg.seed, "tenant pool"))
        durations = [cfg.duration] * len(pool)
    picks = min(cfg.accuracy_tenants, len(pool))
    accuracy = set(np.linspace(0, len(pool) - 1, picks).round().astype(int))
    return [
        TenantTask(i, params, duration, cfg.segment_seconds, i in accuracy)
        for i, (params, duration) in enumerate(zip(pool, durations, strict=True))
    ]


def run_pool(cfg) -> tuple[pd.DataFrame, ...]:
    """Evaluate every tenant (in parallel); returns the segment, allocation (every reading),
    under-prediction-experiment and original-PriorityMeister tables, in tenant order. The
    accuracy tenants, with about 2.5x the work, are handed out first, so that the sweep ends on
    short tasks."""
    tasks = tenant_tasks(cfg)
    order = sorted(range(len(tasks)), key=lambda i: not tasks[i].accuracy)
    results = sweep(evaluate_tenant, [tasks[i] for i in order], seed=cfg.seed, desc="tenants")
    in_order = [None] * len(tasks)
    for i, result in zip(order, results, strict=True):
        in_order[i] = result
    return collect(in_order)


def collect(results: list[dict]) -> tuple[pd.DataFrame, ...]:
    segments = pd.DataFrame([row for r in results for row in r["segments"]])
    allocations = pd.DataFrame([row for r in results for row in r["allocations"]])
    explain = pd.DataFrame([row for r in results for row in r["explain"]])
    pm_original = pd.DataFrame([r["pm_original"] for r in results]).set_index("tenant")
    return segments, allocations, explain, pm_original.sort_index()


def under_reading(allocations: pd.DataFrame, label: str = "primary") -> pd.DataFrame:
    """The allocation rows made under one reading."""
    return allocations[allocations.reading == label]
