"""The notebook's wiring: tenant workload -> predictors -> fixed-rate replay -> errors, admission.

One :class:`TenantTask` per tenant goes through ``parallel.sweep``; :func:`evaluate_tenant`
regenerates the tenant's trace from its own random stream and returns small tables only:
- per 5-min segment: burst features (E4–E6) and latency percentiles at 3000 IOPS (Fig. 2–3);
- per (percentile, SLO, method): the allocated rate (the smallest rate whose prediction meets the
  SLO on the modelled segment, the segment with the most requests in continuous bursts),
  the prediction there, and the actual percentile on the full-trace replay (Fig. 8–12).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
from scipy import stats

from storrepro.accgecko.acctail import AccTail, smallest_rate
from storrepro.accgecko.admission import admit
from storrepro.accgecko.baselines import PriorityMeister, SncMeister, lambda_states, mmpp_count_pmf
from storrepro.accgecko.baselines import fold_errors as count_folds
from storrepro.accgecko.burst_queue import BurstQueue
from storrepro.accgecko.bursts import burst_peaks, burst_sizes, continuous_bursts, in_bursts
from storrepro.accgecko.exact import ExactReplay
from storrepro.accgecko.features import DELTA, burst_features, period_counts
from storrepro.accgecko.kernel import dispatch_overhead_us, node_latencies
from storrepro.accgecko.mmp import MarkovCounts
from storrepro.accgecko.pacer import Replayer, largest, rank_from_top
from storrepro.accgecko.priority_meister import (
    PriorityMeisterOriginal,
    admit_by_priority,
    fit_envelope,
    shaper_waits,
)
from storrepro.accgecko.reference import simulate_node
from storrepro.accgecko.workload import (
    G1,
    G2,
    MEAN_RATE,
    TraceTenant,
    generate,
    table1_trace,
    tenant_pool,
    trace_tenants,
)
from storrepro.checks import finite
from storrepro.config import reading_label
from storrepro.parallel import sweep, task_rng
from storrepro.traces.needs import selected

PERCENTILES = (95.0, 99.0, 99.9, 99.99)
MOTIVATION_RATE = 3000.0  # IOPS: 1.5x the mean, a 333 µs service interval (paper §2)
SLO_GRID = {99.0: (150.0, 300.0, 500.0, 1000.0), 99.9: (300.0, 500.0, 1000.0, 2000.0)}  # µs
HEADLINE_SLO = {99.0: 300.0, 99.9: 500.0}
MMP_CEILING_US = 2 * max(max(grid) for grid in SLO_GRID.values())  # MMP's inf beyond it
BEST_K = {99.0: 3, 99.9: 5}  # the paper's best k per percentile (Fig. 10)
FEATURES = ("intensity", "total_burst_ms", "mean_duration_ms", "max_duration_ms")
HAND_RATES = np.linspace(1.6 * MEAN_RATE, 4 * MEAN_RATE, 25)  # section 7b's example, IOPS
LIVE_RATES = np.linspace(2500.0, 12_000.0, 39)  # the live AccTail control's rates, IOPS


@dataclass(frozen=True)
class Method:
    """A predictor configuration: ``kind`` in acctail/pm/sncm/mmp/queue/exact; ``k=0`` means
    BEST_K. ``queue`` and ``exact`` are this reproduction's reference predictors
    (:mod:`~storrepro.accgecko.burst_queue`, :mod:`~storrepro.accgecko.exact`), not the
    paper's."""

    name: str
    kind: str
    m: float = 1.5
    k: int = 1
    c_us: float = 25.0


ACCTAIL = Method("AccTail", "acctail", 1.5, 0, 25.0)
PM = Method("PM", "pm")
SNCM = Method("SNCM", "sncm")
QUEUE = Method("BurstQueue", "queue", 1.5, 1, 25.0)
EXACT = Method("Exact", "exact", c_us=0.0)
ADMISSION_METHODS = (PM, SNCM, ACCTAIL, QUEUE, EXACT)
ABLATION = (
    Method("MMP", "mmp", c_us=0.0),
    Method("DB", "acctail", 2.0, 1, 0.0),
    Method("DB+17µs", "acctail", 2.0, 1, 17.0),
    Method("DB+25µs", "acctail", 2.0, 1, 25.0),
    Method("M=1.5", "acctail", 1.5, 1, 25.0),
    Method("M=1.3", "acctail", 1.3, 1, 25.0),
    *(Method(f"k={k}", "acctail", 1.5, k, 25.0) for k in range(2, 8)),
)
ACCURACY_METHODS = ABLATION + ADMISSION_METHODS
EXPLAIN_SLO = HEADLINE_SLO  # the allocations the under-prediction experiment looks at


@dataclass(frozen=True)
class Choice:
    """One reading of each open choice (see ``config.READINGS``): N, the modelled segment,
    Algorithm 1's line 9, which PriorityMeister, line 12's trn and ε."""

    normaliser: str = "tenant"
    segment: str = "burst_requests"
    line9: str = "stage_ratio"
    pm: str = "simplified"
    trn: str = "segment"
    epsilon: str = "fixed"


def reading_choices() -> dict[str, Choice]:
    """``"primary"``, every ``"name=value"`` alternative (one reading changed at a time) and
    the joint alternatives of ``config.JOINT``."""
    from storrepro.accgecko.config import JOINT, READINGS

    primary = Choice(**{name: r.primary for name, r in READINGS.items()})
    choices = {"primary": primary}
    for name, r in READINGS.items():
        for value in r.others():
            choices[reading_label(name, value)] = replace(primary, **{name: value})
    for label, values in JOINT.items():
        choices[label] = replace(primary, **values)
    return choices


@dataclass(frozen=True)
class TenantTask:
    tenant: int
    params: G1 | G2 | TraceTenant
    duration: float  # seconds
    segment: float  # seconds
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


def fit_model(method: Method, k: int, seg: _Segment, mean_count, choice: Choice):
    """The method's predictor fitted to the modelled segment ``seg`` under the readings
    ``choice``."""
    seg_arrivals, seg_counts = seg.arrivals, seg.counts
    if method.kind == "exact":
        return ExactReplay().fit(seg_arrivals, seg.overhead)
    if method.kind == "acctail":
        return AccTail(method.m, k, method.c_us, choice.line9, choice.trn, choice.epsilon).fit(
            seg_counts, mean_count)
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


class _Segment:
    """The modelled segment's arrivals, dispatch overheads and counts, cut once."""

    def __init__(self, arrivals, overhead, counts, index: int, segment: float):
        t0, t1 = index * segment, (index + 1) * segment
        lo, hi = np.searchsorted(arrivals, [t0, t1])
        self.lo, self.hi = lo, hi
        self.arrivals = arrivals[lo:hi] - t0
        self.overhead = overhead[lo:hi]
        per = int(round(segment / DELTA))
        self.counts = counts[index * per : (index + 1) * per]


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

    cut: dict[int, _Segment] = {}
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
                cut[index] = _Segment(arrivals, overhead, counts, index, task.segment)
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
                made[key] = _allocate(method, seg, mean_count, choice, fitted, key)
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


def _allocate(method, seg, mean_count, choice, fitted, key) -> list[dict]:
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


def explain_tenant(task, rows, cut, arrivals, overhead, fitted, tenant_mean) -> list[dict]:
    """The under-prediction experiment (primary reading): at the rate AccTail allocates for the
    headline SLO of each percentile, the modelled segment's replayed percentile against AccTail's
    and the reference queue model's predictions of it, the share of the segment's top-1 %
    latencies that arrive inside continuous bursts (M = 1.5), and how far the bursts' average
    rate lies above the threshold M × mean."""
    out = []
    for row in rows:
        if not (row["reading"] == "primary" and row["method"] == ACCTAIL.name
                and row["slo_us"] == EXPLAIN_SLO[row["p"]] and row["rate"] < math.inf):
            continue  # fmt: skip
        index = row["segment"]
        seg = cut[index]
        rate, p = row["rate"], row["p"]
        replayer = Replayer(seg.arrivals, seg.overhead, checked=True)
        latency = replayer.latencies_us(rate)
        queue = BurstQueue(ACCTAIL.m, ACCTAIL.c_us).fit(seg.counts, tenant_mean)
        spans = queue.spans
        inside = in_bursts(seg.counts.size, spans)
        rank = rank_from_top(latency.size, p)  # the replayed p-th percentile, as Replayer's
        top = latency >= np.quantile(latency, 0.99, method="inverted_cdf")
        period = np.minimum((seg.arrivals / DELTA).astype(np.int64), seg.counts.size - 1)
        sizes = burst_sizes(seg.counts, spans)
        lengths = spans[:, 1] - spans[:, 0] + 1
        peaks = burst_peaks(seg.counts, spans)
        out.append(
            {
                "tenant": task.tenant,
                "p": p,
                "rate": rate,
                "replay_us": float(-np.partition(-latency, rank - 1)[rank - 1]),
                "acctail_us": row["predicted_us"],
                "queue_us": queue.predict(p, rate),
                "top1_requests": int(top.sum()),
                "top1_in_bursts": int(np.count_nonzero(inside[period[top]])),
                "bursts": int(spans.shape[0]),
                "burst_rate_over_threshold": float(
                    np.sum(sizes) / np.sum(lengths) / (ACCTAIL.m * tenant_mean)
                ) if sizes.size else math.nan,
                "median_peak_ms_count": float(np.median(peaks)) if peaks.size else math.nan,
            }
        )
    return out


def actual_percentiles(rows: list[dict], full: Replayer) -> None:
    """Add ``actual_us``, the full-trace percentile at each allocated rate, to every row."""
    rates = [r["rate"] for r in rows if r["rate"] < math.inf]
    actual = full.percentiles_at(rates, sorted({r["p"] for r in rows}))
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


# --- prediction errors -------------------------------------------------------------------------


def fold_errors(allocations: pd.DataFrame) -> pd.DataFrame:
    """Positive error P/A − 1 when P >= A, negative error A/P − 1 when A > P (fold errors), per row
    with a feasible rate."""
    ok = allocations[np.isfinite(allocations.rate)].copy()
    ratio = ok.predicted_us / ok.actual_us
    ok["positive"] = np.where(ratio >= 1, ratio - 1, 0.0)
    ok["negative"] = np.where(ratio < 1, 1 / ratio - 1, 0.0)
    return ok


def total_errors(errors: pd.DataFrame) -> pd.DataFrame:
    """Mean and max total error (%) — positive plus negative — per (p, method)."""
    tot = errors.copy()
    tot["error"] = 100 * (tot.positive + tot.negative)
    return tot.groupby(["p", "method"]).error.agg(["mean", "max"])


def error_summary(allocations: pd.DataFrame, methods) -> pd.DataFrame:
    """Mean and max positive and negative error (%) per method and percentile (zeros counted),
    and how many (trace, SLO) pairs had no feasible rate."""
    errors = fold_errors(allocations)
    rows = []
    for name in methods:
        for p in SLO_GRID:
            part = errors[(errors.method == name) & (errors.p == p)]
            total = ((allocations.method == name) & (allocations.p == p)).sum()
            rows.append(
                {
                    "method": name,
                    "p": p,
                    "pairs": len(part),
                    "infeasible": int(total - len(part)),
                    "avg_positive_%": 100 * part.positive.mean(),
                    "max_positive_%": 100 * part.positive.max(),
                    "avg_negative_%": 100 * part.negative.mean(),
                    "max_negative_%": 100 * part.negative.max(),
                }
            )
    return pd.DataFrame(rows)


# --- Spearman correlations (Fig. 3) -------------------------------------------------------------


def spearman_table(segments: pd.DataFrame, rng: np.random.Generator, boots: int) -> pd.DataFrame:
    """Spearman ρ of each feature against each latency percentile, with bootstrap 95 % CIs over
    segments (resampled rows, ranks recomputed per resample: once per column, since every pair
    sees the same resamples); ``attrs["boot"]`` keeps every resample's ρ per (p, feature)."""
    n = len(segments)
    picks = rng.integers(0, n, (boots, n))
    centred = {}
    for col in [*FEATURES, *(f"p{p:g}" for p in PERCENTILES)]:
        ranks = stats.rankdata(segments[col].to_numpy()[picks], axis=1)
        centred[col] = ranks - ranks.mean(axis=1, keepdims=True)
    rows, draws = [], {}
    for p in PERCENTILES:
        y = segments[f"p{p:g}"].to_numpy()
        ry = centred[f"p{p:g}"]
        for feature in FEATURES:
            x = segments[feature].to_numpy()
            rho = stats.spearmanr(x, y).statistic
            rx = centred[feature]
            with np.errstate(invalid="ignore"):
                boot = (rx * ry).sum(1) / np.sqrt((rx**2).sum(1) * (ry**2).sum(1))
            lo, hi = np.nanpercentile(boot, [2.5, 97.5])
            rows.append({"p": p, "feature": feature, "rho": rho, "lo": lo, "hi": hi})
            draws[p, feature] = boot
    out = pd.DataFrame(rows)
    out.attrs["boot"] = draws  # every resample's ρ, for claims on differences of ρ (M1)
    return out


# --- admission (Fig. 12) -----------------------------------------------------------------------


def allocation_table(allocations: pd.DataFrame, p: float, column: str = "rate") -> np.ndarray:
    """``column`` of the admission methods' allocations at percentile ``p`` as an array
    ``(tenants in order, ADMISSION_METHODS, SLOs of SLO_GRID[p])``."""
    tenants = np.sort(allocations.tenant.unique())
    names = [m.name for m in ADMISSION_METHODS]
    table = allocations[allocations.p == p].set_index(["tenant", "method", "slo_us"])[column]
    index = pd.MultiIndex.from_product([tenants, names, SLO_GRID[p]])
    return table.reindex(index).to_numpy().reshape(tenants.size, len(names), len(SLO_GRID[p]))


def draw_slos(p: float, tenants: int, mode: str, rng: np.random.Generator) -> np.ndarray:
    """Each tenant's SLO, as an index into ``SLO_GRID[p]``: "grid" draws it uniformly,
    "headline" gives everyone the headline SLO."""
    grid = SLO_GRID[p]
    if mode == "grid":
        return np.searchsorted(grid, rng.choice(grid, tenants))
    if mode == "headline":
        return np.full(tenants, grid.index(HEADLINE_SLO[p]))
    raise ValueError(f"mode = {mode!r}: expected 'grid' or 'headline'")


def admitted_by_method(rates, slos, order, capacity, p, priority=None) -> list[np.ndarray]:
    """Per admission method, the tenants admitted (in ``order``) with SLO indices ``slos``:
    by allocated rate, or PM on the shared priority queue when ``priority`` (the original
    PriorityMeister's envelopes, :func:`priority_inputs`) is given."""
    out = []
    for j, method in enumerate(ADMISSION_METHODS):
        if priority is not None and method is PM:
            slo_us = np.asarray(SLO_GRID[p])[slos]
            mask = admit_by_priority(priority["rates"], priority["bursts"], order, slo_us,
                                     capacity)  # fmt: skip
        else:
            mask = admit(rates[order, j, slos[order]], capacity)
        out.append(order[mask])
    return out


def priority_inputs(pm_original: pd.DataFrame) -> dict:
    """The original PriorityMeister's envelopes ``(tenants, pairs)`` in tenant order, and each
    tenant's lower-bound percentile under its rate limiters (``lower_p99`` ...)."""
    table = pm_original.sort_index()
    out = {"rates": np.stack(table.rates.to_numpy()), "bursts": np.stack(table.bursts.to_numpy())}
    return out | {f"lower_p{p:g}": table[f"lower_p{p:g}"].to_numpy() for p in SLO_GRID}


def admission_runs(
    allocations: pd.DataFrame,
    capacity: float,
    seeds: int,
    mode: str,
    rng: np.random.Generator,
    priority: dict | None = None,
) -> dict[float, np.ndarray]:
    """Tenants admitted per seed and method, per percentile. ``mode``: "grid" draws each tenant's
    SLO uniformly from the grid (per seed), "headline" gives everyone the headline SLO;
    ``priority``: admit PM on the shared priority queue (see :func:`admitted_by_method`)."""
    return runs_on(admission_tables(allocations), capacity, seeds, mode, rng, priority)


def admission_tables(allocations: pd.DataFrame) -> dict[float, np.ndarray]:
    """Per percentile, the allocated rates (:func:`allocation_table`) the admission runs read."""
    return {p: allocation_table(allocations, p) for p in SLO_GRID}


def runs_on(tables, capacity, seeds, mode, rng, priority=None) -> dict[float, np.ndarray]:
    """:func:`admission_runs` on the allocation ``tables``."""
    if mode not in ("grid", "headline"):
        raise ValueError(f"mode = {mode!r}: expected 'grid' or 'headline'")
    out = {}
    for p, rates in tables.items():
        tenants = rates.shape[0]
        runs = []
        for _ in range(seeds):
            slos = draw_slos(p, tenants, mode, rng)
            order = rng.permutation(tenants)
            taken = admitted_by_method(rates, slos, order, capacity, p, priority)
            runs.append([t.size for t in taken])
        out[p] = np.array(runs)
    return out


def mean_ci(values: np.ndarray) -> tuple[float, float]:
    """Mean and 95 % t half-width over the first axis."""
    values = np.asarray(values, dtype=float)
    half = stats.t.ppf(0.975, len(values) - 1) * values.std(ddof=1) / np.sqrt(len(values))
    return float(values.mean()), float(half)


def safety_table(
    allocations: pd.DataFrame,
    capacity: float,
    seeds: int,
    rng: np.random.Generator,
    priority: dict | None = None,
) -> pd.DataFrame:
    """SLO safety of the tenants each method admits (grid SLOs, random orders): share violating
    their SLO on the full-trace replay, worst violation, utilisation and over-provisioning.
    With ``priority`` PM admits on the shared priority queue; its tenants' latency is then at
    least their rate limiters' wait plus the overheads (``lower_p..``), which is what is
    counted: a violation there is certain, the priority queue can only add to it."""
    return _safety(allocations, capacity, seeds, rng, priority)[0]


def _safety(allocations, capacity, seeds, rng, priority=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`safety_table` and, per order (row) and ``(method, p)`` (column), the % of the
    tenants admitted that violate their SLO (NaN for an order that admits none)."""
    tenants = allocations.tenant.nunique()
    rows, by_order = [], {}
    for p in SLO_GRID:
        rates = allocation_table(allocations, p)
        actual = allocation_table(allocations, p, "actual_us")
        if priority is not None:
            actual = actual.copy()
            actual[:, ADMISSION_METHODS.index(PM), :] = priority[f"lower_p{p:g}"][:, None]
        grid = np.array(SLO_GRID[p])
        admitted = {m.name: [] for m in ADMISSION_METHODS}  # (tenant, SLO index) per admission
        for _ in range(seeds):
            slos = draw_slos(p, tenants, "grid", rng)
            order = rng.permutation(tenants)
            taken = admitted_by_method(rates, slos, order, capacity, p, priority)
            for m, t in zip(ADMISSION_METHODS, taken, strict=True):
                admitted[m.name].append(np.stack([t, slos[t]]))
        for j, m in enumerate(ADMISSION_METHODS):
            by_order[m.name, p] = [
                100 * float(np.mean(actual[t, j, k] / grid[k] > 1)) if t.size else math.nan
                for t, k in admitted[m.name]
            ]
            taken, slo = np.concatenate(admitted[m.name], axis=1)
            ratio = actual[taken, j, slo] / grid[slo]
            rows.append(
                {
                    "p": p,
                    "method": m.name,
                    "admitted (all seeds)": taken.size,
                    "violating_%": 100 * float(np.mean(ratio > 1)),
                    "worst actual/SLO": float(ratio.max()),
                    "mean rate / mean arrival rate": math.nan
                    if priority is not None and m is PM  # a shared queue allocates no rate
                    else float(np.mean(rates[taken, j, slo] / MEAN_RATE)),
                }
            )
    return pd.DataFrame(rows), pd.DataFrame(by_order)


# --- Table 1 replicas and the MMPP/SNC view (Fig. 4) --------------------------------------------


def table1_study(rng: np.random.Generator, lengths=(15, 11, 27)) -> dict:
    """T1–T3: features, actual latency CCDF at 3000 IOPS, and the MMPP+SNC bounds."""
    eps = np.logspace(-4, np.log10(0.05), 16)
    rows, curves = [], {}
    for name, longest in zip(("T1", "T2", "T3"), lengths, strict=True):
        arrivals = table1_trace(longest, rng)
        overhead = dispatch_overhead_us(rng, arrivals.size)
        counts = period_counts(arrivals, 300.0)
        latency = np.sort(Replayer(arrivals, overhead).latencies_us(MOTIVATION_RATE))
        lam = SncMeister().fit(counts)
        emp = SncMeister(rates="empirical").fit(counts)
        actual = np.array(
            [latency[latency.size - max(1, math.ceil(latency.size * e))] for e in eps]
        )
        bound = np.array([emp.predict(100 * (1 - e), MOTIVATION_RATE) for e in eps])
        curves[name] = {"latency": latency, "eps": eps, "actual": actual, "bound": bound}
        rows.append(
            {
                "trace": name,
                **burst_features(counts, 2.0, 2.0, mean_count=MEAN_RATE * DELTA),
                "actual p99.9 (µs)": float(actual[np.argmin(abs(eps - 1e-3))]),
                "SNC p99.9, LAMBDA rates (µs)": lam.predict(99.9, MOTIVATION_RATE),
                "SNC p99.9, empirical rates (µs)": emp.predict(99.9, MOTIVATION_RATE),
            }
        )
    return {"table": pd.DataFrame(rows).set_index("trace"), "curves": curves}


# --- simulator checks (S1, S2) ------------------------------------------------------------------


def simulator_check(
    params: G1, requests: int, rate: float, rng: np.random.Generator
) -> dict[str, float]:
    """S1: two co-located tenants on the simpy node vs the fast path, request by request."""
    duration = math.ceil(requests / MEAN_RATE / 60) * 60.0
    traces = [generate(params, duration, rng, 60.0)[:requests] for _ in range(2)]
    dispatch = [rng.uniform(0, 16, t.size) for t in traces]
    tenants = [(t, rate) for t in traces]
    simpy_lat = simulate_node(tenants, dispatch)
    fast = node_latencies(tenants, dispatch)
    diff = max(float(np.max(np.abs(s - f))) for s, f in zip(simpy_lat, fast, strict=True))
    p999 = max(
        abs(np.quantile(s, 0.999) - np.quantile(f, 0.999))
        for s, f in zip(simpy_lat, fast, strict=True)
    )
    return {"requests": sum(t.size for t in traces), "max_abs_diff_us": diff, "p999_diff_us": p999}


def constant_burst_check(burst_rate: float, sr: float, size: int) -> dict[str, float]:
    """S2: a burst at constant spacing 1/burst_rate > sr on the simpy node; waits vs
    ``j (1/sr − 1/burst_rate)``."""
    arrivals = np.arange(size) / burst_rate
    latency = simulate_node([(arrivals, sr)], [np.zeros(size)], processing_us=0.0)[0]
    expected = np.arange(size) * (1 / sr - 1 / burst_rate) * 1e6
    rel = np.abs(latency[1:] - expected[1:]) / expected[1:]
    return {"max_rel_error": float(rel.max()), "last_wait_us": float(latency[-1])}


def by_order(runs: dict[float, np.ndarray]) -> pd.DataFrame:
    """Admission ``runs`` as one row per order and one column per ``(method, p)``."""
    names = [m.name for m in ADMISSION_METHODS]
    return pd.DataFrame({(name, p): counts[:, j] for p, counts in runs.items()
                         for j, name in enumerate(names)})  # fmt: skip


def admission_summary(runs: dict[float, np.ndarray]) -> pd.DataFrame:
    """Mean ± 95 % CI of tenants admitted per method and percentile, normalised to SNCM."""
    rows = []
    names = [m.name for m in ADMISSION_METHODS]
    for p, counts in runs.items():
        sncm = counts[:, names.index("SNCM")].mean()
        for j, name in enumerate(names):
            mean, half = mean_ci(counts[:, j])
            rows.append(
                {"p": p, "method": name, "admitted": mean, "ci95": half, "vs SNCM": mean / sncm}
            )
    return pd.DataFrame(rows)


def gain(summary: pd.DataFrame, p: float, method: str, reference: str) -> float:
    """``admitted(method) / admitted(reference) − 1`` at percentile ``p``."""
    part = summary[summary.p == p].set_index("method").admitted
    return float(part[method] / part[reference] - 1)


def separated(summary: pd.DataFrame, p: float) -> bool:
    """AccTail > SNCM > PM with non-overlapping 95 % CIs."""
    part = summary[summary.p == p].set_index("method")
    lo = part.admitted - part.ci95
    hi = part.admitted + part.ci95
    return bool(lo["AccTail"] > hi["SNCM"] and lo["SNCM"] > hi["PM"])


@dataclass
class LiveTrace:
    """One segment of one tenant, for the notebook's live AccTail control: its per-ms counts and
    a replayer of its arrivals (with overheads) for the true latency at any rate."""

    counts: np.ndarray
    replayer: Replayer

    @classmethod
    def generate(cls, params, segment: float, rng: np.random.Generator) -> LiveTrace:
        arrivals = generate(params, segment, rng, segment)
        overhead = dispatch_overhead_us(rng, arrivals.size)
        return cls(period_counts(arrivals, segment), Replayer(arrivals, overhead, checked=True))

    def true_us(self, p: float, rates) -> np.ndarray:
        """The p-th percentile latency (µs) of the replay at each rate."""
        values = self.replayer.percentiles_at(rates, [p])
        return np.array([values[float(r), p] for r in rates])

    def acctail_curve(self, m: float, k: int, rates, truth) -> dict:
        """AccTail's predicted p99 (M = ``m``, ``k`` stages) at the ``rates`` it can model
        (``>= m`` × the mean), with the replay's ``truth`` at every rate, for the live figure."""
        model = AccTail(m, k, 25.0).fit(self.counts, MEAN_RATE * DELTA)
        rates = np.asarray(rates, dtype=float)
        usable = rates[rates >= m * MEAN_RATE]
        predicted = [model.predict(99.0, float(r)) for r in usable]
        return {"rates": rates, "truth": truth, "model_rates": usable, "predicted": predicted}

    def acctail(self, m: float, k: int, p: float = 99.0) -> pd.DataFrame:
        """AccTail (M = ``m``, ``k`` stages, c = 25 µs) on this segment: for every SLO of the grid
        the rate it allocates, its predicted and the true p-th percentile there."""
        model = AccTail(m, k, 25.0).fit(self.counts, MEAN_RATE * DELTA)
        floor = m * MEAN_RATE
        high = max(2.0 * self.counts.max() / DELTA, floor + 1)
        rows = []
        for slo in SLO_GRID[p]:
            rate = smallest_rate(lambda r: model.predict(p, r), slo, floor, high)
            ok = rate < math.inf
            predicted = model.predict(p, rate) if ok else math.inf
            true = float(self.true_us(p, [rate])[0]) if ok else math.inf
            rows.append(
                {
                    "SLO (µs)": slo,
                    "rate (IOPS)": rate,
                    "predicted (µs)": predicted,
                    "true (µs)": true,
                    "true / SLO": true / slo,
                }
            )
        return pd.DataFrame(rows).set_index("SLO (µs)")


def one_segment_counts(params, segment: float, rng: np.random.Generator) -> np.ndarray:
    """Per-ms counts of one segment of a tenant (the Fig. 5 trace)."""
    return period_counts(generate(params, segment, rng, segment), segment)


# --- the notebook's analyses, one call per cell ---------------------------------------------------


def procedure_checks(cases) -> dict:
    """U1 and U2's inputs: LAMBDA on the paper's Fig. 5 example (its rates, edges and which
    counts 1..14 fall in the top state or below), and the DBSCAN scan (N = 2, M = 2) on each of
    the hand-made ``cases``."""
    rates, edges, _ = lambda_states(np.array([14, 2, 1, 3, 5, 1]))
    covers = [sorted({n for n in range(1, 15) if (n > edges[0]) == top}) for top in (True, False)]
    found = {c: continuous_bursts(np.array(c), 2.0, mean_count=2.0).tolist() for c in cases}
    return {"rates": rates, "edges": edges, "covers": covers, "found": found}


def reading_table(readings: dict) -> pd.DataFrame:
    """The open choices: each one's primary and what every value means."""
    return pd.DataFrame(
        {
            name: {"primary": r.primary, **{f"= {v}": m for v, m in r.alternatives.items()}}
            for name, r in readings.items()
        }
    ).T


def with_joint_readings(table: pd.DataFrame, claims: dict, labels) -> pd.DataFrame:
    """The run's reading table with a column for each of ``labels`` it lacks (the joint
    alternatives, which the core's table, built from one reading at a time, leaves out)."""
    table = table.copy()
    for label in [x for x in labels if x not in table.columns]:
        cells = []
        for claim in table.index:
            alt = claims[claim]["by_reading"].get(label)
            cells.append(f"{alt['verdict']} ({alt['reproduced_value']})" if alt else "—")
        table.insert(table.columns.get_loc("robust"), label, cells)
    return table


def pool_summary(segs: pd.DataFrame) -> pd.DataFrame:
    """Each generator's burst features and p99 / p99.9 at 3000 IOPS, described."""
    return segs.groupby("generator")[[*FEATURES, "p99", "p99.9"]].describe().T


def calibration_inputs(segs: pd.DataFrame, replicas: pd.DataFrame, segment_s: float) -> dict:
    """Per generator, the segments the G1 / G2 calibration claims judge (G1 with the T1–T3
    replicas, whose segments are 300 s), each with its length ``segment_ms``."""
    pool = segs.assign(segment_ms=segment_s * 1e3)
    g1 = pd.concat(
        [pool[pool.generator == "G1"], replicas.assign(segment_ms=300e3, generator="G1")],
        ignore_index=True,
    )
    out = {"G1": g1, "G2": pool[pool.generator == "G2"]}
    return {gen: feats for gen, feats in out.items() if len(feats)}


def snc_folds(curves: dict) -> np.ndarray:
    """Fig. 4's MMPP + SNC bound over the replayed latency at every CCDF point of T1–T3."""
    return np.concatenate([c["bound"] / c["actual"] for c in curves.values()])


def count_distribution_study(params, segment_s: float, rng: np.random.Generator) -> dict:
    """Fig. 5: one segment's per-ms count distribution against the MMPP of its LAMBDA states,
    and the fold error per count value."""
    counts = one_segment_counts(params, segment_s, rng)
    values = np.arange(1, counts.max() + 1)
    actual = np.bincount(counts, minlength=values.max() + 1)[1:] / counts.size
    model = mmpp_count_pmf(counts, values)
    return {
        "values": values,
        "actual_pmf": actual,
        "model_pmf": model,
        "lambda_rates": lambda_states(counts)[0],
        "folds": count_folds(model, actual),
    }


def accuracy_errors(allocations: pd.DataFrame, labels) -> tuple[dict, dict]:
    """Per reading, on the accuracy tenants (those that ran MMP): the error summary of every
    accuracy method (Fig. 8–10) and the total errors per method (Fig. 11)."""
    accuracy = allocations[allocations.method == "MMP"].tenant.unique()
    names = [m.name for m in ACCURACY_METHODS]
    err, totals = {}, {}
    for label in labels:
        part = under_reading(allocations, label)
        part = part[part.tenant.isin(accuracy)]
        err[label] = error_summary(part, names).set_index(["method", "p"])
        totals[label] = total_errors(fold_errors(part))
    return err, totals


def tenant_errors(allocations: pd.DataFrame, labels) -> dict[str, pd.DataFrame]:
    """Per reading, the accuracy claims' replicates: one row per accuracy tenant, one column per
    ``(quantity, method, p)`` — the tenant's avg and max positive error, max negative error,
    and avg and max total error over its SLOs (%, zeros counted; NaN where no SLO of the grid
    was feasible)."""
    accuracy = allocations[allocations.method == "MMP"].tenant.unique()
    out = {}
    for label in labels:
        part = under_reading(allocations, label)
        errors = fold_errors(part[part.tenant.isin(accuracy)])
        errors = errors.assign(total=errors.positive + errors.negative)
        table = errors.groupby(["tenant", "method", "p"]).agg(
            **{"avg_positive_%": ("positive", "mean"), "max_positive_%": ("positive", "max"),
               "max_negative_%": ("negative", "max"), "mean_total_%": ("total", "mean"),
               "max_total_%": ("total", "max")})  # fmt: skip
        wide = (100 * table).unstack(["method", "p"])
        out[label] = wide.reindex(index=np.sort(accuracy))
    return out


def explain_summary(explain: pd.DataFrame) -> pd.DataFrame:
    """Section 7b's medians per percentile: AccTail's and the queue model's predictions against
    the segment's replay, the share of the top 1 % inside bursts, the bursts' rates."""
    ratios = explain.assign(
        **{
            "replay / AccTail": explain.replay_us / explain.acctail_us,
            "queue model / replay": explain.queue_us / explain.replay_us,
            "top-1 % in bursts": explain.top1_in_bursts / explain.top1_requests,
        }
    )
    columns = ["rate", "replay_us", "acctail_us", "queue_us", "replay / AccTail",
               "queue model / replay", "top-1 % in bursts", "burst_rate_over_threshold",
               "median_peak_ms_count"]  # fmt: skip
    return ratios.groupby("p")[columns].median()


PM_ORIGINAL = reading_label("pm", "original")


def priority_for(label: str, pm_original: pd.DataFrame) -> dict | None:
    """The shared-queue inputs under the reading that takes the original PriorityMeister."""
    return priority_inputs(pm_original) if label == PM_ORIGINAL else None


def admission_and_safety(allocations, pm_original, labels, capacity, seeds, seed) -> tuple:
    """Fig. 12's admission summary and the SLO-safety table under every reading, each on the
    same orders under every reading; the (table, reading) cases run side by side. Returns
    ``(admission, safety, admitted by order, violating % by order)``, each a dict by reading
    (the last two: one row per order, one column per ``(method, p)``)."""
    inputs = {label: (under_reading(allocations, label), priority_for(label, pm_original))
              for label in labels}  # fmt: skip
    cases = [(table, label) for table in ("admission", "safety") for label in labels]
    tables = sweep(functools.partial(_admission_case, inputs, capacity, seeds, seed), cases,
                   seed=seed, desc="admission and safety")  # fmt: skip
    adm, safe = tables[: len(labels)], tables[len(labels) :]
    return tuple({label: pair[i] for label, pair in zip(labels, half, strict=True)}
                 for i in (0, 1) for half in (adm, safe))  # fmt: skip


def _admission_case(inputs, capacity, seeds, seed, case, rng) -> pd.DataFrame:
    """One table under one reading, on the orders of its table (``rng`` is not used)."""
    table, label = case
    part, priority = inputs[label]
    orders = task_rng(seed, table)
    if table == "admission":
        runs = admission_runs(part, capacity, seeds, "grid", orders, priority)
        return admission_summary(runs), by_order(runs)
    return _safety(part, capacity, seeds, orders, priority)


def pm_comparison(adm: dict, safe: dict) -> pd.DataFrame:
    """Both PriorityMeisters side by side: tenants admitted (and against SNC-Meister) and the
    SLO safety of those admitted, per percentile."""
    rows = []
    for label, form in (("primary", "simplified"), (PM_ORIGINAL, "original")):
        if label not in adm:
            continue
        a = adm[label].set_index(["p", "method"])
        s = safe[label].set_index(["p", "method"])
        for p in SLO_GRID:
            rows.append({"PriorityMeister": form, "p": p,
                         "admitted": a.loc[(p, "PM"), "admitted"],
                         "vs SNCM": a.loc[(p, "PM"), "vs SNCM"],
                         "violating_%": s.loc[(p, "PM"), "violating_%"],
                         "worst actual/SLO": s.loc[(p, "PM"), "worst actual/SLO"]})  # fmt: skip
    return pd.DataFrame(rows).set_index(["PriorityMeister", "p"])


def sensitivity_row(summary: pd.DataFrame) -> dict:
    """T1's order and the gain order for one (capacity, SLO mode) admission summary."""
    return {
        "T1 holds": all(separated(summary, p) for p in SLO_GRID),
        "gain p99 %": 100 * gain(summary, 99.0, "AccTail", "SNCM"),
        "gain p99.9 %": 100 * gain(summary, 99.9, "AccTail", "SNCM"),
    }


def sensitivity_by_reading(allocations, pm_original, labels, capacities, seeds, seed) -> dict:
    """T5 under every reading: T1's order and the gain order, with each method's admissions, for
    every node capacity and SLO assignment (grid or headline). The (reading, capacity,
    assignment) cases run side by side, each on its own stream of orders."""
    inputs = {label: (admission_tables(under_reading(allocations, label)),
                      priority_for(label, pm_original)) for label in labels}  # fmt: skip
    cases = [(label, cap, mode) for label in labels for cap in capacities
             for mode in ("grid", "headline")]  # fmt: skip
    rows = sweep(functools.partial(_sensitivity_case, inputs, seeds, seed), cases, seed=seed,
                 desc="T5 sensitivity")  # fmt: skip
    return {label: pd.DataFrame([row for case, row in zip(cases, rows, strict=True)
                                 if case[0] == label]) for label in labels}  # fmt: skip


def _sensitivity_case(inputs, seeds, seed, case, rng) -> dict:
    """One T5 case; its orders come from (capacity, assignment) alone, the same under every
    reading (``rng``, the sweep's stream, is not used)."""
    label, cap, mode = case
    tables, priority = inputs[label]
    orders = task_rng(seed, ("sensitivity", cap, mode))
    runs = runs_on(tables, cap, seeds, mode, orders, priority)
    s = admission_summary(runs)
    admitted = {f"{m} p{p:g}": s[(s.p == p) & (s.method == m)].admitted.item()
                for p in SLO_GRID for m in ("PM", "SNCM", "AccTail", EXACT.name)}  # fmt: skip
    return {"C": cap, "SLOs": mode, **sensitivity_row(s), **admitted, "orders": by_order(runs)}


def hand_example(live: LiveTrace, rates, m: float = 1.5) -> dict:
    """Section 7b by hand on one segment: its longest continuous burst (M = ``m``) per ms, and
    its replayed p99 at each rate against AccTail's (k = 1) and the queue model's predictions."""
    n_mean = MEAN_RATE * DELTA
    spans = continuous_bursts(live.counts, m, mean_count=n_mean)
    a, e = spans[np.argmax(spans[:, 1] - spans[:, 0])]
    acctail = AccTail(m, 1, 25.0).fit(live.counts, n_mean)
    queue = BurstQueue(m, 25.0).fit(live.counts, n_mean)
    return {
        "burst": live.counts[a : e + 1],
        "threshold": m * n_mean,
        "rates": np.asarray(rates, dtype=float),
        "truth": live.true_us(99.0, rates),
        "queue": np.array([queue.predict(99.0, r) for r in rates]),
        "acctail": np.array([acctail.predict(99.0, r) for r in rates]),
    }


# --- burst-intensity sensitivity (section 11) ---------------------------------------------------
# The pool's tenants again with every burst at 2, 4, 6, 8 or 10×
# the mean rate (the paper's "typically 2–10×"; the pool's own bursts span about 2.5–4.2×).
#
# Each tenant of a sub-pool (spread evenly over the pool, so G1 and G2 in the pool's shares) keeps
# its generator's other knobs (how often and how long it bursts) and has its burst rate set to the
# intensity: G1's micro-bursts all at ``x`` × the mean (``intensity_lo = intensity_hi = x``), G2's
# burst state at ``x``. The mean rate stays 2000 IOPS (the base rate makes up the rest).
# SNC-Meister, AccGecko under the primary and the joint reading, and the exact-replay reference
# allocate on the modelled segment as in the main pool. Admission and safety run on random
# arrivals as there, on the same node: as many candidates as the main pool has tenants, each a
# tenant of the sub-pool drawn with replacement, with an SLO drawn from the grid.

INTENSITIES = (2.0, 4.0, 6.0, 8.0, 10.0)  # × the mean rate
INTENSITY_JOINT = "trn=burst&epsilon=rate"  # config.JOINT
INTENSITY_LABELS = ("primary", INTENSITY_JOINT)
INTENSITY_METHODS = (SNCM, ACCTAIL, EXACT)


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
    tenant: int
    params: G1 | G2
    intensity: float
    duration: float  # seconds
    segment: float  # seconds


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
    seg = _Segment(arrivals, overhead, counts, index, task.segment)
    choices = reading_choices()
    fitted, made, rows = {}, {}, []
    for label in INTENSITY_LABELS:
        choice = choices[label]
        for method in INTENSITY_METHODS:
            acctail = method.kind == "acctail"
            key = (index, mean_count, (choice.line9, choice.trn, choice.epsilon) if acctail
                   else None, None, method)  # fmt: skip
            if key not in made:
                made[key] = _allocate(method, seg, mean_count, choice, fitted, key)
            rows += [{**r, "tenant": task.tenant, "intensity": task.intensity, "reading": label}
                     for r in made[key]]  # fmt: skip
    actual_percentiles(rows, Replayer(arrivals, overhead, checked=True))
    return rows


def intensity_run(pool: list, tenants: int, duration: float, segment: float,
                  seed: int) -> pd.DataFrame:
    """``tenants`` of ``pool``, spread evenly over it, at every intensity of
    :data:`INTENSITIES` (in parallel); each (tenant, intensity) draws its own stream (from its
    task's repr)."""
    if not 2 <= tenants <= len(pool):
        raise ValueError(f"tenants = {tenants!r}: expected 2..{len(pool)} (the pool's size)")
    picks = np.linspace(0, len(pool) - 1, tenants).round().astype(int)
    tasks = [IntensityTask(int(i), pool[i], x, duration, segment)
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
        name = "AccGecko" if label == "primary" else "AccGecko (joint)"
        columns[f"{name} violating %"] = part["violating %"]
        columns[f"{name} gain %"] = part["gain vs SNCM %"]
    exact = ref.set_index(["intensity", "p"])
    columns["Exact violating %"] = exact["violating %"]
    columns["Exact gain %"] = exact["gain vs SNCM %"]
    return pd.DataFrame(columns)
