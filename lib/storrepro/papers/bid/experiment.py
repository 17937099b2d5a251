"""The experiment of notebook 04: one replay (:func:`simulate`, with the kernel or the simpy
reference model) and the sweeps over them. Every (workload, scheduler, replicate, variant) cell
is one run; the main sweep's task is the cells of one trace, the sensitivity sweep's one cell.

The trace of a (workload, replicate) pair comes from its own random stream, keyed by the pair
alone, so every scheduler sees the identical trace (each worker process keeps the traces it made,
with their kernel records and the facts their summaries read, so the schedulers of one trace do
not make them again). A cell runs the DES (Mode B, the fast
kernel) and, for the five main schemes under the primary readings, the authors' window model
(Mode A) on the same trace. Every scheduler runs once per *variant* — the primary readings and
each alternative reading (:data:`storrepro.papers.bid.config.VARIANTS`) — that gives it other
options; variants with the same options share one run (Noop and CFQ only see the queue in front
of the disk change). The primary Noop cell also computes the trace's lower bounds and
clairvoyant sweep.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pandas as pd

from storrepro.papers.bid import toy
from storrepro.papers.bid.config import (
    MODERN_CONFIG,
    MODERN_VARIANT,
    VARIANTS,
    device_queue_variants,
    reading_options,
)
from storrepro.papers.bid.kernel import Events, replay, trace_events
from storrepro.papers.bid.metrics import (
    arm_moves,
    means,
    over_seeds,
    per_seed,
    ranking,
    seed_gain,
    seed_reduction,
    summarise,
    trace_facts,
    workload_means,
)
from storrepro.papers.bid.mode_a import SCHEMES as MODE_A_SCHEMES
from storrepro.papers.bid.mode_a import ModeAOptions, simulate_mode_a, structures
from storrepro.papers.bid.mode_a_kernel import bid_orders
from storrepro.papers.bid.oracle import oracle_bound, oracle_floor
from storrepro.papers.bid.reference import simulate_simpy
from storrepro.papers.bid.results import SimResult, check_options
from storrepro.papers.bid.schedulers import MAIN, is_bid, make_scheduler, variant_options
from storrepro.papers.bid.workload import PROFILES, characterise, generate, trace_window
from storrepro.sim.disk_model import DEFAULT_GEOMETRY, DEFAULT_SSD, HDDGeometry, SSDParams
from storrepro.suite.consistency import check
from storrepro.suite.parallel import sweep, task_rng
from storrepro.suite.traces.needs import selected


def simulate(
    trace: pd.DataFrame,
    scheduler,
    rq_limit: int = 128,
    mode: str = "backlogged",
    geometry: HDDGeometry = DEFAULT_GEOMETRY,
    ssd: SSDParams = DEFAULT_SSD,
    engine: str = "kernel",
    events: Events | None = None,
) -> SimResult:
    """Replay ``trace`` (columns ts, pid, op, lba, size) through a fresh ``scheduler`` into the
    HDD (and the SSD for BID-Hybrid); the replay modes are described in
    :mod:`storrepro.papers.bid.reference`.

    ``engine="kernel"`` runs the numba kernel with the scheduler's options (Noop, CFQ, BID-HDD,
    BID-Hybrid), on ``events`` (:func:`~storrepro.papers.bid.kernel.trace_events` of the trace)
    when given; ``"simpy"`` runs the reference model with the scheduler object itself.
    """
    check_options(rq_limit, mode, engine)
    if engine == "kernel":
        return replay(trace, scheduler, rq_limit, mode, geometry, ssd, events=events)
    return simulate_simpy(trace, scheduler, rq_limit, mode, geometry, ssd)


#: The run whose arm movements, timers and tier decisions are kept for the detail figures.
DETAIL = ("WordStdev", 0)


@dataclass(frozen=True)
class Cell:
    """One (workload, scheduler, seed, variant) run of the sweep; ``STREAM`` keys its random
    stream (every field, in order: the ``repr`` that keyed it before)."""

    STREAM: ClassVar[tuple[str, ...]] = ("workload", "scheduler", "replicate", "events",
                                         "base_seed", "rq_limit", "mode", "variant", "trace",
                                         "trace_format")
    workload: str
    scheduler: str
    replicate: int
    events: int
    base_seed: int
    rq_limit: int = 128
    mode: str = "backlogged"
    variant: str = "primary"
    trace: str = ""  # a block trace in place of the synthetic one ('': synthetic)
    trace_format: str = ""


def shared_runs(name: str, variants=VARIANTS) -> dict[str, tuple[str, ...]]:
    """The variants scheduler ``name`` runs under, each with every variant whose options are
    the same (they share its run; the first, normally the primary, names it)."""
    groups: dict[tuple, list[str]] = {}
    for v in variants:
        groups.setdefault(tuple(sorted(variant_options(name, v).items())), []).append(v)
    return {vs[0]: tuple(vs) for vs in groups.values()}


@functools.lru_cache(maxsize=8)
def _trace(
    workload: str, replicate: int, events: int, base_seed: int, trace: str, trace_format: str
) -> pd.DataFrame:
    if trace:
        return trace_window(trace, trace_format, workload, replicate, events)
    return generate(workload, events, task_rng(base_seed, ("trace", workload, replicate, events)))


def _trace_key(cell: Cell) -> tuple:
    return (cell.workload, cell.replicate, cell.events, cell.base_seed, cell.trace,
            cell.trace_format)  # fmt: skip


def _seed0(cfg, workload: str, events: int, scheduler: str = "noop") -> Cell:
    """The cell of a workload's first trace under the notebook's config."""
    trace, trace_format = selected(cfg)
    return Cell(workload, scheduler, 0, events, cfg.seed, trace=trace, trace_format=trace_format)


def process_kinds(cfg, workload: str) -> dict:
    """Process -> kind (its archetype, or "trace") in a workload's first trace."""
    trace = cell_trace(_seed0(cfg, workload, cfg.events))
    return trace.groupby("pid").kind.first().to_dict()


def live_trace(cfg, workload: str = "WordStdev", events: int = 4000) -> pd.DataFrame:
    """A short trace for the notebook's interactive cell (the user's trace when given)."""
    return cell_trace(_seed0(cfg, workload, events, "live"))


def cell_trace(cell: Cell) -> pd.DataFrame:
    """The trace of a cell: synthetic, or the window of the user's trace standing in for it."""
    return _trace(*_trace_key(cell))


@functools.lru_cache(maxsize=2)
def _prepared(key: tuple) -> tuple[Events, dict]:
    """A trace's kernel records and the facts its summaries read, made once for all its runs."""
    trace = _trace(*key)
    return trace_events(trace), trace_facts(trace)


@functools.lru_cache(maxsize=2)
def _packed(key: tuple) -> pd.DataFrame:
    """Mode A's request structures of a trace, made once for all its schemes."""
    return structures(_trace(*key))


def warm_up() -> None:
    """Compile (or load from numba's cache) the kernels once, before worker processes start."""
    trace = generate("WordCount", 600, np.random.default_rng(0))
    for name in MODE_A_SCHEMES:
        simulate(trace, make_scheduler(name))
    simulate(trace, make_scheduler("bid-hybrid"), mode="open")
    simulate_mode_a(trace, "bid-hybrid", bid=bid_orders)
    oracle_bound(trace)


def run_cell(cell: Cell, rng=None) -> dict:
    """Simulate one cell; the detail runs keep more than scalars (arm trace, BID's logs)."""
    trace = cell_trace(cell)
    events, facts = _prepared(_trace_key(cell))
    scheduler = make_scheduler(cell.scheduler, cell.variant)
    result = simulate(trace, scheduler, cell.rq_limit, cell.mode, events=events)
    out = {"summary": summarise(result, trace, facts)}
    if cell.scheduler == "noop" and cell.variant == "primary":
        out["summary"].update(oracle_bound(trace))
    if cell.scheduler in MODE_A_SCHEMES and cell.variant == "primary":
        packed = _packed(_trace_key(cell))
        mode_a = simulate_mode_a(trace, cell.scheduler, packed=packed, bid=bid_orders)
        out["summary"]["modeA_time_s"] = mode_a["device_time_s"]
        if cell.replicate == 0:
            code = simulate_mode_a(trace, cell.scheduler, ModeAOptions(defects=True), packed=packed,
                                   bid=bid_orders)
            out["summary"]["modeA_code_time_s"] = code["device_time_s"]
    detailed = (cell.workload, cell.replicate) == DETAIL or (
        cell.workload == "WordCount" and cell.replicate == 0
    )
    if detailed:
        q = result.requests
        out["arm"] = q.loc[q.device == 0, ["t_start", "cylinder", "d", "op", "pid"]].reset_index(
            drop=True
        )
        if result.flushes is not None:
            out["flushes"], out["waits"] = result.flushes, result.waits
    if result.decisions is not None and cell.variant == "primary":
        out["decisions"] = result.decisions
    return out


def main_cells(cfg, workloads, schedulers=MAIN, variants=VARIANTS) -> list[Cell]:
    """Every (workload, replicate, scheduler, variant) run — a scheduler once per group of
    variants that share its options (:func:`shared_runs`); the cells of one trace side by side
    (:func:`trace_tasks` groups them)."""
    runs = {s: shared_runs(s, variants) for s in schedulers}
    return [
        Cell(w, s, r, cfg.events, cfg.seed, cfg.rq_limit, cfg.mode, v, *selected(cfg))
        for w in workloads
        for r in range(cfg.seeds)
        for s in schedulers
        for v in runs[s]
    ]


def trace_tasks(cells: list[Cell]) -> list[tuple[Cell, ...]]:
    """The cells grouped by trace, one sweep task each (cells of one trace side by side, as
    :func:`main_cells` orders them). One worker then makes a trace, its kernel records and its
    Mode A structures once for all its cells; one task per cell gave a trace's cells to both
    workers, and each made them."""
    return [tuple(group) for _, group in itertools.groupby(cells, key=_trace_key)]


def run_trace(cells: tuple[Cell, ...], rng=None) -> list[dict]:
    """:func:`run_cell` of each cell of one trace (:func:`trace_tasks`), in order; a cell's
    numbers come from its trace's own stream, not from ``rng``."""
    return [run_cell(cell) for cell in cells]


def run_all(cfg, workloads, schedulers=MAIN, desc="traces (workloads x seeds)"):
    """All runs; returns (summary frame with one row per (workload, scheduler, replicate,
    variant) — a shared run under each variant it serves — and
    {(workload, scheduler, replicate, variant): detail dict})."""
    warm_up()
    cells = main_cells(cfg, workloads, schedulers)
    tasks = trace_tasks(cells)
    outs = [out for task in sweep(run_trace, tasks, seed=cfg.seed, desc=desc) for out in task]
    runs = {s: shared_runs(s) for s in schedulers}
    served = [(c, o, v) for c, o in zip(cells, outs, strict=True)
              for v in runs[c.scheduler][c.variant]]  # fmt: skip
    rows = [
        {
            "workload": c.workload,
            "scheduler": c.scheduler,
            "replicate": c.replicate,
            "variant": v,
            **o["summary"],
        }
        for c, o, v in served
    ]
    details = {(c.workload, c.scheduler, c.replicate, v): o for c, o, v in served}
    return pd.DataFrame(rows), details


def mean_ci(summary: pd.DataFrame, column: str) -> pd.DataFrame:
    """Mean and 95 % t-interval half-width of ``column`` over replicates, per cell."""
    from scipy import stats

    g = summary.groupby(["workload", "scheduler"])[column]
    n = g.count()
    half = stats.t.ppf(0.975, (n - 1).clip(lower=1)) * g.std(ddof=1).fillna(0) / n**0.5
    return pd.DataFrame({"mean": g.mean(), "ci95": half.where(n > 1, float("nan"))})


#: The sensitivity configuration that swaps the authors' disk model for a modern one
#: (:data:`storrepro.papers.bid.kernel_core.MODERN_DISK`); every scheduler runs again under it.
MODERN = MODERN_CONFIG

#: One-at-a-time sensitivity configurations, on the primary readings:
#: name -> (rq_limit, BID options). The wait-history rule and the queue in front of the disk are
#: readings.
SENSITIVITY = {
    "default": (128, ()),
    "wait_default=10": (128, (("wait_default", 10.0),)),
    "wait_default=100": (128, (("wait_default", 100.0),)),
    "write_deadline=500": (128, (("write_deadline", 500.0),)),
    # ablation, not in the paper: a fixed 100 ms wait instead of the adaptive timer E1
    "fixed wait 100 ms": (128, (("adaptive_wait", False), ("wait_default", 100.0))),
    "pf_threshold=10%": (128, (("pf_threshold", 102.4),)),
    "pf_threshold=40%": (128, (("pf_threshold", 409.6),)),
    "rq_limit=64": (64, ()),
    "rq_limit=256": (256, ()),
    # not the paper's disk: a 150 MB/s transfer term, rotation only on non-sequential requests,
    # and native command queueing in front of every scheduler (MODERN_VARIANT)
    MODERN: (128, ()),
}


@dataclass(frozen=True)
class SensitivityCell:
    """One run of the sensitivity sweep; ``STREAM`` as :class:`Cell`'s."""

    STREAM: ClassVar[tuple[str, ...]] = ("config", "workload", "scheduler", "events",
                                         "base_seed", "trace", "trace_format")
    config: str
    workload: str
    scheduler: str
    events: int
    base_seed: int
    trace: str = ""
    trace_format: str = ""


def _options(config: str, scheduler: str) -> dict:
    """The options a sensitivity configuration gives a scheduler: only the BID schedulers take
    options, and only BID-Hybrid its packing-fraction threshold."""
    options = dict(SENSITIVITY[config][1])
    if scheduler != "bid-hybrid":
        options.pop("pf_threshold", None)
    return options if is_bid(scheduler) else {}


def _runs_as_default(config: str, scheduler: str) -> bool:
    """Whether ``config`` leaves the scheduler's run the default one (same request slots, disk
    and options): the baselines outside the queue-size and disk rows, BID-HDD under the
    packing-fraction threshold. Such runs are taken from the default configuration."""
    return config != MODERN and SENSITIVITY[config][0] == 128 and not _options(config, scheduler)


def run_sensitivity_cell(cell: SensitivityCell, rng=None) -> float:
    """Cumulative device time (s) of one scheduler under one sensitivity configuration."""
    rq_limit = SENSITIVITY[cell.config][0]
    options = _options(cell.config, cell.scheduler)
    key = _trace_key(
        Cell(cell.workload, cell.scheduler, 0, cell.events, cell.base_seed,
             trace=cell.trace, trace_format=cell.trace_format)
    )  # fmt: skip
    trace, events = _trace(*key), _prepared(key)[0]
    modern = cell.config == MODERN
    scheduler = make_scheduler(cell.scheduler, MODERN_VARIANT if modern else "primary", **options)
    if modern:
        result = replay(trace, scheduler, rq_limit, modern_disk=True, events=events)
    else:
        result = simulate(trace, scheduler, rq_limit, events=events)
    return float(result.requests.service.sum() / 1000)


def run_sensitivity(cfg, workloads, summary: pd.DataFrame | None = None) -> pd.DataFrame:
    """C1 (BID-HDD vs best Linux, q = 8 and 2) and C4 (Hybrid vs BID-HDD) per configuration,
    with the most any schedule could save against best(CFQ q=8, Noop) (the lower bound of
    :mod:`storrepro.papers.bid.oracle`) beside them.

    When the sweep's trace is the main runs' seed 0 (same events and request slots), the
    default configuration and the lower bound on the authors' disk are taken from ``summary``
    instead of being computed again."""
    reuse = (
        summary is not None
        and cfg.sensitivity_events == cfg.events
        and cfg.rq_limit == 128
        and cfg.mode == "backlogged"
    )
    cells = [
        SensitivityCell(c, w, s, cfg.sensitivity_events, cfg.seed, *selected(cfg))
        for w in workloads
        for c in SENSITIVITY
        for s in MAIN
        if (c == "default" or not _runs_as_default(c, s)) and not (reuse and c == "default")
    ]
    times = sweep(run_sensitivity_cell, cells, seed=cfg.seed, desc="sensitivity")
    t = pd.DataFrame([{**c.__dict__, "time_s": x} for c, x in zip(cells, times, strict=True)])
    floors = {}
    if reuse:
        main = summary[(summary.replicate == 0) & (summary.variant == "primary")]
        floors = main[main.scheduler == "noop"].set_index("workload").oracle_floor_s.to_dict()
        t = pd.concat(
            [
                t,
                pd.DataFrame(
                    {
                        "config": "default",
                        "workload": main.workload,
                        "scheduler": main.scheduler,
                        "time_s": main.device_time_s,
                    }
                ),
            ],
            ignore_index=True,
        )
    default = t[t.config == "default"]
    same = [
        default[default.scheduler == s].assign(config=c)
        for c in SENSITIVITY
        for s in MAIN
        if c != "default" and is_bid(s) and _runs_as_default(c, s)
    ]
    t = pd.concat([t, *same], ignore_index=True)
    oracles = {}
    for w in workloads:
        trace = cell_trace(_seed0(cfg, w, cfg.sensitivity_events))
        oracles[w] = {
            False: floors[w] if w in floors else oracle_floor(trace),
            True: oracle_floor(trace, modern_disk=True),
        }
    rows = []
    for config, (rq, _) in SENSITIVITY.items():
        own = t[t.config == config].pivot(index="workload", columns="scheduler", values="time_s")
        base_config = config if rq != 128 or config == MODERN else "default"
        base = t[t.config == base_config].pivot(
            index="workload", columns="scheduler", values="time_s"
        )
        for w in workloads:
            best8 = min(base.loc[w, "cfq-q8"], base.loc[w, "noop"])
            best2 = min(base.loc[w, "cfq-q2"], base.loc[w, "noop"])
            rows.append(
                {
                    "config": config,
                    "workload": w,
                    "C1 reduction vs best (q=8) %": 100 * (1 - own.loc[w, "bid-hdd"] / best8),
                    "C1 reduction vs best (q=2) %": 100 * (1 - own.loc[w, "bid-hdd"] / best2),
                    "C4 Hybrid vs BID-HDD %": 100
                    * (1 - own.loc[w, "bid-hybrid"] / own.loc[w, "bid-hdd"]),
                    "lower bound vs best (q=8) %": 100 * (1 - oracles[w][config == MODERN] / best8),
                }
            )
    return pd.DataFrame(rows)


# -- the notebook's analyses of a sweep -------------------------------------------------------
def workload_table(cfg, workloads) -> pd.DataFrame:
    """Each workload's seed-0 trace characterised, beside its description after Table 2."""
    chars = pd.DataFrame(
        {w: characterise(cell_trace(_seed0(cfg, w, cfg.events))) for w in workloads}
    ).T
    chars.insert(0, "Table 2", [PROFILES[w].description for w in chars.index])
    return chars


def reductions(summary: pd.DataFrame, variants=VARIANTS) -> pd.DataFrame:
    """Per variant (column group) and workload: the reductions (%) in cumulative device time of
    BID-HDD and BID-Hybrid against the best Linux scheduler, and of Hybrid against BID-HDD —
    each the mean over seeds of the per-seed reduction, the claims' statistic."""
    out = {}
    for v in variants:
        t = per_seed(summary, "device_time_s", v)
        best8, best2 = ("cfq-q8", "noop"), ("cfq-q2", "noop")
        out[v] = 100 * pd.DataFrame(
            {
                "BID-HDD vs best(CFQ q=8, Noop) %": over_seeds(seed_reduction(t, "bid-hdd", best8)),
                "BID-HDD vs best(CFQ q=2, Noop) %": over_seeds(seed_reduction(t, "bid-hdd", best2)),
                "Hybrid vs BID-HDD %": over_seeds(seed_reduction(t, "bid-hybrid", ["bid-hdd"])),
                "Hybrid vs best(CFQ q=8, Noop) %": over_seeds(seed_reduction(t, "bid-hybrid",
                                                                             best8)),
            }
        )
    return pd.concat(out, axis=1)


def noop_over_cfq(t: pd.DataFrame) -> pd.DataFrame:
    """Noop's cumulative time as a fraction of CFQ's, per quantum (the calibration anchor C3)."""
    return pd.DataFrame(
        {"Noop / CFQ(q=8)": t["noop"] / t["cfq-q8"], "Noop / CFQ(q=2)": t["noop"] / t["cfq-q2"]}
    )


def oracle_means(summary: pd.DataFrame) -> pd.DataFrame:
    """Per workload, the mean over seeds of the oracle times (s): the lower bound (floor), the
    clairvoyant sweep and the tiered bound."""
    columns = ("oracle_floor_s", "oracle_sweep_s", "oracle_tiered_s")
    return pd.DataFrame({c: workload_means(summary, c) for c in columns})


def oracle_table(summary: pd.DataFrame) -> pd.DataFrame:
    """Per workload: the best baseline; the lower bound's, the clairvoyant sweep's and the
    tiered bound's gains beside BID's and the paper's (percent; means over seeds of the per-seed
    gains, as the claims), under the primary readings."""
    times = per_seed(summary, "device_time_s")
    bounds = {k: per_seed(summary, f"oracle_{k}_s")["noop"] for k in ("floor", "sweep", "tiered")}
    table = {}
    for q, label in (("cfq-q8", "CFQ q=8"), ("cfq-q2", "CFQ q=2")):
        table[f"best({label}, Noop) s"] = over_seeds(times[[q, "noop"]].min(axis=1))
        gains = {"bound": bounds["floor"], "sweep": bounds["sweep"],
                 "BID-HDD": "bid-hdd", "tiered bound": bounds["tiered"], "BID-Hybrid": "bid-hybrid"}
        for name, of in gains.items():
            x = (seed_reduction(times, of, (q, "noop")) if isinstance(of, str)
                 else seed_gain(of, times, (q, "noop")))
            table[f"{name} gain vs {label} %"] = 100 * over_seeds(x)
    table = pd.DataFrame(table)
    table["lower bound s"] = over_seeds(bounds["floor"])
    table["sweep s"] = over_seeds(bounds["sweep"])
    table["paper: BID-HDD gain %"] = "28–52"
    table["paper: BID-Hybrid gain %"] = "33–54"
    return table


def detail_arms(details: dict, variant: str = "primary") -> dict:
    """The HDD requests of the detail run (WordStdev, seed 0) per main scheme, under
    ``variant``."""
    workload, replicate = DETAIL
    return {
        s: details[(workload, s, replicate, variant)]["arm"]
        for s in MAIN
    }


def arm_window(arm: dict, zoom: int = 300, span_ms: float = 20_000.0) -> dict:
    """The windows of the arm-trace figures: a zoom on ``zoom`` BID-HDD requests from the
    middle of the run (t1, t2) and a ``span_ms`` window around its start (w1, w2), in ms."""
    ref = arm["bid-hdd"]
    i0 = len(ref) // 2
    t1, t2 = ref.t_start.iloc[i0], ref.t_start.iloc[min(i0 + zoom, len(ref) - 1)]
    w1 = max(0.0, t1 - span_ms / 2)
    w2 = min(w1 + span_ms, max(a.t_start.max() for a in arm.values()))
    return {"t1": t1, "t2": t2, "w1": w1, "w2": w2, "label": f"{w1 / 1000:.0f}–{w2 / 1000:.0f} s"}


def arm_moves_by_variant(details: dict, variants=VARIANTS) -> dict[str, pd.DataFrame]:
    """Short and long moves and moves per second of the detail run, per variant."""
    return {v: arm_moves(detail_arms(details, v)) for v in variants}


#: The head-movement quantities of Figs 15–17 (per-run columns of the summary).
MOVEMENT = ("n2", "n1", "AD_seek", "AD_seek_p25", "AD_seek_p50", "AD_seek_p75", "TD_sweep")


def movement_tables(summary: pd.DataFrame) -> dict[str, pd.DataFrame]:
    """Workload x scheme means over seeds of each head-movement quantity (:data:`MOVEMENT`)."""
    return {c: means(summary, c) for c in MOVEMENT}


def latency_tables(summary: pd.DataFrame) -> tuple[dict, pd.DataFrame]:
    """Mean read and write latency tables (ms), and mean, p95 and p99 side by side."""
    lat = {op: means(summary, f"{op}_mean_ms")[list(MAIN)] for op in ("read", "write")}
    table = pd.concat(
        {
            f"{op} {stat}": means(summary, f"{op}_{stat}_ms")[list(MAIN)]
            for op in ("read", "write")
            for stat in ("mean", "p95", "p99")
        },
        axis=1,
    )
    return lat, table


def bid_internals(summary: pd.DataFrame) -> pd.DataFrame:
    """BID-HDD's requests, flushes, deadline share and staging-queue size per workload (rows)
    and variant (columns), means over seeds."""
    columns = ["requests", "flushes", "deadline_flush_share", "mean_sq_requests"]
    bid = summary[summary.scheduler == "bid-hdd"]
    return bid.groupby(["workload", "variant"])[columns].mean().unstack("variant")


#: BID-Hybrid's diagnostics per run (columns of the summary).
HYBRID = (
    "ssd_byte_share",
    "ssd_write_share",
    "ssd_request_share",
    "ssd_small_share",
    "vfs_read_hits",
    "hdd_time_s",
    "ssd_time_s",
    "max_ssd_pf",
)


def hybrid_table(summary: pd.DataFrame) -> pd.DataFrame:
    """BID-Hybrid's SSD shares and device times per workload, primary readings, mean of seeds."""
    primary = summary[(summary.variant == "primary") & (summary.scheduler == "bid-hybrid")]
    return primary.groupby("workload")[list(HYBRID)].mean()


def mode_a_tables(summary: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Mode B (DES) and Mode A (window simulator, defects fixed; with the code's defects on
    seed 0) cumulative times side by side, and each one's ranking of the schemes."""
    schemes = list(MODE_A_SCHEMES)
    t_b = means(summary, "device_time_s")[schemes]
    t_a = means(summary, "modeA_time_s")[schemes]
    t_code = means(summary[summary.replicate == 0], "modeA_code_time_s")[schemes]
    times = pd.concat({"Mode B": t_b, "Mode A": t_a, "Mode A, defects (seed 0)": t_code}, axis=1)
    rankings = pd.DataFrame(
        {
            "Mode B (DES)": ranking(t_b),
            "Mode A (defects fixed)": ranking(t_a),
            "Mode A (code defects, seed 0)": ranking(t_code),
        }
    )
    return times, rankings


C1_COLUMNS = ("C1 reduction vs best (q=8) %", "C1 reduction vs best (q=2) %")


def sensitivity_direction(sens: pd.DataFrame) -> pd.DataFrame:
    """Per configuration, the share of workloads where BID-HDD beats the best Linux scheduler
    (against either quantum, C1) and where Hybrid beats BID-HDD (C4)."""
    c1 = (sens[list(C1_COLUMNS)] > 0).any(axis=1)
    c4 = sens["C4 Hybrid vs BID-HDD %"] > 0
    out = sens.assign(C1_positive=c1, C4_positive=c4)
    return out.groupby("config")[["C1_positive", "C4_positive"]].mean()


def disk_models(sens: pd.DataFrame) -> pd.DataFrame:
    """The sensitivity rows of the authors' disk model and the modern one, per workload."""
    rows = sens[sens.config.isin(["default", MODERN])]
    return rows.set_index(["workload", "config"]).sort_index()


def _noop_over_cfq_seeds(summary: pd.DataFrame, variant: str, q: str) -> np.ndarray:
    """Per seed, Noop/CFQ(q) averaged over Grep and WordStdev, under ``variant``."""
    t = per_seed(summary, "device_time_s", variant)
    ratio = t["noop"] / t[q]
    return np.mean([ratio.loc[w].to_numpy() for w in ("Grep", "WordStdev")], axis=0)


def device_queue_measured(summary: pd.DataFrame, stand_in: bool = True) -> dict[str, dict]:
    """The paper's reported results that bear on the reading device_queue
    (:data:`storrepro.papers.bid.claims.REPORTED`) measured under each of its alternatives, for
    ``run.consistency``: per result the values (per seed, or one for the deterministic toy) and
    a note per alternative.

    Noop/CFQ on Grep and WordStdev is taken under the quantum nearer the paper's 0.88 (a CFQ
    check passes under either q, register ``cfq_model``); its note gives Noop/CFQ on the other
    four workloads, where the paper reports no such gain. Fig. 4 is the toy replayed through
    the queue each alternative puts in front of Noop. ``stand_in`` False (the runs read a
    user's trace): the paper's Noop-vs-CFQ result is about its workloads, not the trace, so
    only Fig. 4 is measured."""
    variants = device_queue_variants()
    depths = {v: reading_options(None if label == "primary" else label, bid=False)["dq_depth"]
              for v, label in variants.items()}
    fig4 = {"measured": {v: toy.noop_in_submitted_place(d) for v, d in depths.items()},
            "note": {v: f"a queue {d} deep in front of Noop" for v, d in depths.items()}}
    if not stand_in:
        return {"fig4_order": fig4}
    ratios, notes = {}, {}
    for value, variant in variants.items():
        by_q = {q: _noop_over_cfq_seeds(summary, variant, q) for q in ("cfq-q8", "cfq-q2")}
        q = min(by_q, key=lambda q: abs(by_q[q].mean() - 0.88))
        ratios[value] = [float(x) for x in by_q[q]]
        t = means(summary, "device_time_s", variant)
        rest = t.index.difference(["Grep", "WordStdev"])
        others = t.loc[rest, "noop"] / t.loc[rest, q]
        notes[value] = (f"CFQ q={q[-1]}; Noop/CFQ {others.min():.3f}–{others.max():.3f} on the "
                        "other four workloads")
    return {"noop_vs_cfq": {"measured": ratios, "note": notes}, "fig4_order": fig4}


def consistency_table(reported: dict, measured: dict[str, dict]) -> pd.DataFrame:
    """The :func:`device_queue_measured` results as the judging core checks them against the
    ``reported`` ones (:func:`storrepro.suite.consistency.check`): per result and alternative,
    the measured value, its 95 % interval, ``possible`` or ``ruled out``, and the note."""
    rows = []
    for name, m in measured.items():
        record = check(reported[name], m["measured"])
        for value, a in record["alternatives"].items():
            rows.append({"result": name, "device_queue": value, "paper": record["paper_value"],
                         "measured": a["value"], "ci95": a["ci95"], "verdict": a["verdict"],
                         "note": m["note"][value]})
    return pd.DataFrame(rows).set_index(["result", "device_queue"])
