"""TOFEC experiments: workload → policy → fast kernel, the sweeps of the paper's evaluation
and the analyses the notebook reads its claims from.

Every sweep task runs *all* its policies on one arrival stream and one block of task-delay
variates drawn from the task's own random stream, so policies are compared on common random
numbers. A task's ``repr`` seeds its stream. The sweep functions are module-level so dask can
pickle them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pandas as pd

from storrepro.papers.tofec import analysis
from storrepro.papers.tofec.codes import FILE_MB, K_MAX, static_codes
from storrepro.papers.tofec.config import (
    B3_21_FRACTION,
    HIGH_LOAD,
    PURE_PATTERN,
    STABLE_LOAD,
    TofecConfig,
)
from storrepro.papers.tofec.delay import PURE, SUR, ModelParams, fit_params, sample_chunks
from storrepro.papers.tofec.kernel import COLUMNS, simulate
from storrepro.papers.tofec.metrics import (
    GridResults,
    ideal_name,
    phase_metrics,
    ratio_to_envelope,
    run_metrics,
    summarize,
    tofec_name,
    top2_fraction,
)
from storrepro.papers.tofec.model_checks import mc_capacities
from storrepro.papers.tofec.policies import IDEAL_DECISION_POINTS as IDEALS
from storrepro.papers.tofec.policies import Greedy, Ideal, Static, Tofec
from storrepro.papers.tofec.reference import simulate_store
from storrepro.papers.tofec.workload import (
    PHASE_S,
    draw_workload,
    phase_arrivals,
    trace_gaps,
    trace_phase_arrivals,
)
from storrepro.sim.cloud_inputs import poisson_arrival_times
from storrepro.suite.parallel import sweep, task_rng
from storrepro.suite.traces.needs import selected

MODELS = {"SUR": SUR, "PURE": PURE}
ALPHAS = (0.0, 0.5, 0.9, 0.95, 0.99)
SATURATION = 1.2  # saturation runs offer 1.2x the capacity


# ---- sweeps ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GridTask:
    """All policies at one arrival rate and replicate (one random stream shared by them).
    ``variants`` False runs only what the delay model's reading judges: the static codes, TOFEC
    at each of ``alphas`` and Greedy (not the geometric-threshold TOFEC nor [3])."""

    STREAM: ClassVar[tuple[str, ...]] = ("rate", "rep", "requests", "params", "capacities",
                                         "model", "n_threads", "alphas", "alpha")
    rate: float
    rep: int
    requests: int
    params: ModelParams  # TOFEC's fitted model parameters
    capacities: tuple[float, ...]  # MC capacity L/E[U] of each static code, static_codes() order
    model: str = "SUR"
    n_threads: int = 16
    alphas: tuple[float, ...] = ALPHAS
    alpha: float = 0.9  # primary memory factor (also used by [3] and the threshold ablation)
    variants: bool = True


def grid_policies(task: GridTask):
    setting = analysis.Setting(task.params, FILE_MB, task.n_threads)
    policies = [
        Static(n, k)
        for (n, k), cap in zip(static_codes(), task.capacities, strict=True)
        if task.rate < STABLE_LOAD * cap
    ]
    policies += [Tofec.from_model(setting, a, name=tofec_name(a)) for a in task.alphas]
    if task.variants:
        policies += [
            Tofec.from_model(
                setting, task.alpha, rule="geometric", name=tofec_name(task.alpha, "geometric")
            ),
            Tofec.fixed_k(setting, K_MAX, task.alpha),
        ]
    return [*policies, Greedy()]


def run_grid_task(task: GridTask, rng: np.random.Generator) -> list[dict]:
    model = MODELS[task.model]
    arrivals, blocks = draw_workload(model, rng, task.rate, task.requests)
    rows = []
    for policy in grid_policies(task):
        res = simulate(policy, model, arrivals, blocks, task.n_threads)
        rows.append({"rate": task.rate, "rep": task.rep, "policy": policy.name, **run_metrics(res)})
    return rows


@dataclass(frozen=True)
class SaturationTask:
    """One code (or adaptive policy) driven at a rate above its capacity."""

    STREAM: ClassVar[tuple[str, ...]] = ("policy", "rate", "rep", "requests", "params", "model",
                                         "n_threads", "alpha")
    policy: str  # "(n,k)", "TOFEC", "Greedy" or "[3] fixed k"
    rate: float
    rep: int
    requests: int
    params: ModelParams
    model: str = "SUR"
    n_threads: int = 16
    alpha: float = 0.9


def make_policy(name: str, params: ModelParams, n_threads: int = 16, alpha: float = 0.9):
    setting = analysis.Setting(params, FILE_MB, n_threads)
    if name.startswith("("):
        n, k = (int(v) for v in name.strip("()").split(","))
        return Static(n, k)
    if name == "TOFEC":
        return Tofec.from_model(setting, alpha)
    if name == "Greedy":
        return Greedy()
    if name == "[3] fixed k":
        return Tofec.fixed_k(setting, K_MAX, alpha)
    raise ValueError(f"unknown policy {name!r}")


def run_saturation_task(task: SaturationTask, rng: np.random.Generator) -> dict:
    model = MODELS[task.model]
    arrivals, blocks = draw_workload(model, rng, task.rate, task.requests)
    policy = make_policy(task.policy, task.params, task.n_threads, task.alpha)
    res = simulate(policy, model, arrivals, blocks, task.n_threads)
    return {"policy": task.policy, "rate": task.rate, "rep": task.rep, **run_metrics(res)}


# ---- changing workload (Fig. 11) -------------------------------------------------------------


@dataclass(frozen=True)
class PhaseTask:
    """The 3-phase pattern (rates in req/s, 200 s each): TOFEC for each α, Greedy and Ideal
    (deciding at the head of the line and, as the other reading, on arrival)."""

    STREAM: ClassVar[tuple[str, ...]] = ("pattern", "rates", "rep", "params", "light_code",
                                         "model", "n_threads", "alphas")
    pattern: str
    rates: tuple[float, float, float]
    rep: int
    params: ModelParams
    light_code: tuple[int, int]  # Ideal's phase-1/3 code; phase 2 uses (1,1)
    model: str = "SUR"
    n_threads: int = 16
    alphas: tuple[float, ...] = ALPHAS
    #: A real trace's unit-mean gaps (:func:`~storrepro.papers.tofec.workload.trace_gaps`) replacing
    #: the Poisson arrivals; not in ``STREAM``, so a task keeps its random stream.
    trace_gaps: np.ndarray | None = field(default=None, compare=False)


def run_phase_task(task: PhaseTask, rng: np.random.Generator) -> dict:
    model = MODELS[task.model]
    if task.trace_gaps is None:
        arrivals = phase_arrivals(rng, task.rates)
    else:
        start = int(rng.integers(len(task.trace_gaps)))
        arrivals = trace_phase_arrivals(task.trace_gaps, task.rates, start)
    blocks = model.draw(rng, len(arrivals))
    setting = analysis.Setting(task.params, FILE_MB, task.n_threads)
    ends = (PHASE_S * 1000.0, 2 * PHASE_S * 1000.0)
    codes = (task.light_code, (1, 1), task.light_code)
    policies = [Tofec.from_model(setting, a, name=tofec_name(a)) for a in task.alphas] + [
        Greedy(),
        *(Ideal(ends, codes, ideal_name(point), decide_at) for point, decide_at in IDEALS.items()),
    ]
    out = {"pattern": task.pattern, "rep": task.rep, "policies": [p.name for p in policies]}
    for policy in policies:
        res = simulate(policy, model, arrivals, blocks, task.n_threads)
        out[policy.name] = {
            "t": res["t_arrive"] / 1000.0,
            "delay": res["t_end"] - res["t_arrive"],
            "k": res["k"],
        }
    return out


# ---- the notebook's steps, each a function of the config ---------------------------------


def fitted_params(
    cfg: TofecConfig, model: str = "SUR"
) -> tuple[ModelParams, dict[float, np.ndarray]]:
    """TOFEC's model parameters, fitted as in the paper to the model's samples (worst 10 %
    dropped): the same procedure under either delay model."""
    stream = "fig6 samples" if model == "SUR" else ("fig6 samples", model)
    samples = sample_chunks(MODELS[model], task_rng(cfg.seed, stream), cfg.mc_samples)
    return fit_params(samples), samples


def tofec_alphas(cfg: TofecConfig) -> tuple[float, ...]:
    """The memory factors TOFEC runs with: the sweep's and the config's (the primary)."""
    return tuple(sorted(set(ALPHAS) | {cfg.alpha}))


def setting(cfg: TofecConfig, params: ModelParams) -> analysis.Setting:
    return analysis.Setting(params, FILE_MB, cfg.n_threads)


def capacities(cfg: TofecConfig, model: str = "SUR") -> pd.DataFrame:
    """MC capacity L/E[U] of the 27 codes under the delay model (simultaneous start)."""
    stream = "mc capacities" if model == "SUR" else ("mc capacities", model)
    return mc_capacities(MODELS[model], task_rng(cfg.seed, stream), cfg.mc_samples,
                         cfg.n_threads)


def saturation_sweep(
    cfg: TofecConfig, params: ModelParams, policies: dict[str, float], alpha: float | None = None
) -> pd.DataFrame:
    """Saturated throughput of each policy at the given offered rate, mean over seeds (TOFEC
    and [3] with memory factor ``alpha``, the config's by default)."""
    runs = saturation_runs(cfg, params, policies, alpha)
    return runs.groupby("policy", sort=False).mean(numeric_only=True)


def saturation_runs(
    cfg: TofecConfig, params: ModelParams, policies: dict[str, float], alpha: float | None = None,
    model: str = "SUR",
) -> pd.DataFrame:
    """:func:`saturation_sweep`'s runs, one row per (policy, seed), under the delay model."""
    tasks = [
        SaturationTask(
            name,
            float(rate),
            rep,
            cfg.requests_at(rate),
            params,
            model=model,
            n_threads=cfg.n_threads,
            alpha=cfg.alpha if alpha is None else alpha,
        )
        for name, rate in policies.items()
        for rep in range(cfg.seeds)
    ]
    rows = sweep(run_saturation_task, tasks, seed=cfg.seed, desc="saturation")
    return pd.DataFrame(rows)


def static_saturation(
    cfg: TofecConfig, params: ModelParams, caps: pd.DataFrame, model: str = "SUR"
) -> tuple[pd.DataFrame, dict[tuple[int, int], np.ndarray]]:
    """Simulated capacity of every static code next to its MC prediction L/E[U] (``caps``, of
    the same delay model), and per code the simulated / predicted ratio of each seed."""
    offered = {f"({n},{k})": SATURATION * caps.capacity[(n, k)] for n, k in static_codes()}
    runs = saturation_runs(cfg, params, offered, model=model)
    sat = runs.groupby("policy", sort=False).mean(numeric_only=True)
    out = caps[["capacity"]].rename(columns={"capacity": "predicted"}).copy()
    out["simulated"] = [sat.throughput[f"({n},{k})"] for n, k in out.index]
    out["error"] = out.simulated / out.predicted - 1
    out["ratio_to_11"] = out.simulated / out.simulated.iloc[0]
    by_code = runs.groupby("policy").throughput
    seeds = {(n, k): by_code.get_group(f"({n},{k})").to_numpy() / out.predicted[(n, k)]
             for n, k in out.index}
    return out, seeds


def grid_rates(cfg: TofecConfig, c_full: float) -> list[tuple[float, int]]:
    """(rate, seeds): the profile's λ grid plus 0.90/0.95/0.98·C_full with more seeds."""
    rates = [(float(r), cfg.seeds) for r in cfg.rates]
    return rates + [(round(f * c_full, 2), cfg.high_load_seeds) for f in HIGH_LOAD]


def grid_tasks(
    cfg: TofecConfig, params: ModelParams, caps: pd.DataFrame, c_full: float, model: str = "SUR"
) -> list[GridTask]:
    """One task per (rate, seed) of the λ grid; each runs every policy on one stream (under
    another delay model than SUR, only what that reading judges: TOFEC at the primary α)."""
    primary = model == "SUR"
    return [
        GridTask(
            rate,
            rep,
            cfg.requests_at(rate),
            params,
            tuple(caps.capacity),
            model=model,
            n_threads=cfg.n_threads,
            alphas=tofec_alphas(cfg) if primary else (cfg.alpha,),
            alpha=cfg.alpha,
            variants=primary,
        )
        for rate, seeds in grid_rates(cfg, c_full)
        for rep in range(seeds)
    ]


def grid_sweep(
    cfg: TofecConfig, params: ModelParams, caps: pd.DataFrame, c_full: float, model: str = "SUR"
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every policy at every rate and seed: (per-run rows, summary averaged over seeds)."""
    tasks = grid_tasks(cfg, params, caps, c_full, model)
    rows = sweep(run_grid_task, tasks, seed=cfg.seed, desc=f"{model} λ grid")
    flat = [row for task_rows in rows for row in task_rows]
    return pd.DataFrame(flat), summarize(flat)


@dataclass(frozen=True)
class Pattern:
    """One changing-workload pattern: the three phases' rates (req/s), the delay model and
    TOFEC's parameters fitted to it, Ideal's phase-1/3 code and TOFEC's memory factors (None:
    every α of the sweep)."""

    rates: tuple[float, float, float]
    params: ModelParams
    light_code: tuple[int, int]
    model: str = "SUR"
    alphas: tuple[float, ...] | None = None


def phase_sweep(
    cfg: TofecConfig,
    patterns: dict[str, Pattern],
    reps: range | None = None,
) -> tuple[pd.DataFrame, dict]:
    """The 3-phase workloads: per (pattern, seed, policy) metrics for the seeds ``reps`` (the
    config's ``phase_seeds`` first ones by default), and seed 0's traces. Seed i of a pattern is
    the same run whichever seeds are drawn with it, so more seeds extend a sample. With
    ``cfg.trace`` the arrivals follow the trace's gaps (:mod:`storrepro.papers.tofec.workload`)."""
    gaps = trace_gaps(*selected(cfg)) if cfg.trace else None
    tasks = [
        PhaseTask(
            name,
            tuple(float(r) for r in pattern.rates),
            rep,
            pattern.params,
            pattern.light_code,
            model=pattern.model,
            n_threads=cfg.n_threads,
            alphas=tofec_alphas(cfg) if pattern.alphas is None else pattern.alphas,
            trace_gaps=gaps,
        )
        for name, pattern in patterns.items()
        for rep in (range(cfg.phase_seeds) if reps is None else reps)
    ]
    results = sweep(run_phase_task, tasks, seed=cfg.seed, desc="phases")
    rows, traces = [], {}
    for res in results:
        for policy in res["policies"]:
            trace = res[policy]
            rows.append(
                {
                    "pattern": res["pattern"],
                    "rep": res["rep"],
                    "policy": policy,
                    **phase_metrics(trace["t"], trace["delay"], trace["k"]),
                }
            )
            if res["rep"] == 0:
                traces[(res["pattern"], policy)] = trace
    return pd.DataFrame(rows), traces


def delay_model_reading(
    cfg: TofecConfig, params: ModelParams, caps: pd.DataFrame, c_full: float, model: str = "PURE"
) -> dict:
    """The λ grid under another delay model (the reading ``delay_model``), with TOFEC's
    parameters ``params`` fitted to its samples by the paper's procedure
    (:func:`fitted_params`), its MC capacities ``caps`` and its simulated C_full: the static
    codes, TOFEC at the primary α and Greedy. Returns ``params``, ``caps`` and ``grid``."""
    runs, summary = grid_sweep(cfg, params, caps, c_full, model)
    grid = GridResults(summary, c_full, caps.cost_mean[(1, 1)], runs)
    return {"params": params, "caps": caps, "grid": grid}


def live_run(cfg: TofecConfig, params: ModelParams, rate: float, alpha: float) -> dict:
    """TOFEC and Greedy on one 4000-request stream at ``rate`` (the notebook's control)."""
    arrivals, blocks = draw_workload(SUR, task_rng(cfg.seed, "live"), rate, 4000)
    return {
        name: run_metrics(
            simulate(
                make_policy(name, params, cfg.n_threads, alpha),
                SUR,
                arrivals,
                blocks,
                cfg.n_threads,
            )
        )
        for name in ("TOFEC", "Greedy")
    }


def kernel_vs_simpy(cfg: TofecConfig, params: ModelParams, rate: float, requests: int) -> dict:
    """Run TOFEC, Greedy and the head-of-line Ideal through the simpy store (A6 checked on every
    event) and the kernel.

    Ideal switches between (2,1) and (1,1) at a third and two thirds of the run, so a backlog
    built under (2,1) is re-coded at the head of the line. Returns the largest per-request
    difference over all logged columns (0 when identical) and whether the simpy run's total
    thread busy time equals the sum of request costs.
    """
    arrivals = poisson_arrival_times(
        task_rng(cfg.seed, ("a6 arrivals", rate)), rate, requests / rate * 1000.0
    )
    thirds = (arrivals[-1] / 3, 2 * arrivals[-1] / 3)
    makers = (
        lambda: Tofec.from_model(analysis.Setting(params, FILE_MB, cfg.n_threads), cfg.alpha),
        Greedy,
        lambda: Ideal(thirds, ((2, 1), (1, 1), (2, 1)), decide_at="admission"),
    )
    worst, busy_gap = 0.0, 0.0
    for make in makers:
        log, busy_time = simulate_store(
            make(), arrivals, task_rng(cfg.seed, "a6 delays"), cfg.n_threads
        )
        blocks = SUR.draw(task_rng(cfg.seed, "a6 delays"), len(arrivals))
        fast = simulate(make(), SUR, arrivals, blocks, cfg.n_threads, FILE_MB)
        for column in COLUMNS[:-1]:
            worst = max(worst, float(np.max(np.abs(log[column].to_numpy() - fast[column]))))
        busy_gap = max(busy_gap, abs(busy_time - log.cost.sum()) / log.cost.sum())
    return {"requests": len(arrivals), "max_difference": worst, "busy_vs_cost": busy_gap}


def static_capacity_table(
    cfg: TofecConfig, params: ModelParams, caps: pd.DataFrame, model: str = "SUR"
) -> tuple[pd.DataFrame, dict[tuple[int, int], np.ndarray]]:
    """Every static code's simulated capacity beside L/E[U] and Eq. (4) with the fitted
    parameters, and whether n divides L; and each code's per-seed simulated / predicted."""
    table, seeds = static_saturation(cfg, params, caps, model)
    model = setting(cfg, params)
    table["model (fitted Eq. 4)"] = [analysis.capacity(model, n, k) for n, k in table.index]
    table["n divides L"] = [cfg.n_threads % n == 0 for n, _ in table.index]
    return table, seeds


CAPACITY_DEMO = ("TOFEC", "Greedy", "(1,1)", "(2,1)", "(6,6)", "(12,6)", "[3] fixed k")


def capacity_demo(cfg: TofecConfig, params: ModelParams, c_full: float) -> dict:
    """Saturation runs: every policy of :data:`CAPACITY_DEMO` offered 1.2·C_full, replication
    (2,1) alone at the B3-21 fraction of C_full, and [3]'s saturated throughput ÷ C_full at each
    α of the reading."""
    sat = saturation_sweep(cfg, params, {p: 1.2 * c_full for p in CAPACITY_DEMO})
    offered = B3_21_FRACTION * c_full
    fixed_k = {cfg.alpha: sat.throughput["[3] fixed k"] / c_full}
    for a in (float(v) for v in cfg.readings["alpha"].others()):
        other = saturation_sweep(cfg, params, {"[3] fixed k": 1.2 * c_full}, alpha=a)
        fixed_k[a] = other.throughput["[3] fixed k"] / c_full
    return {
        "saturated": sat,
        "replication": saturation_sweep(cfg, params, {"(2,1)": offered}).loc["(2,1)"],
        "fixed_k": fixed_k,
    }


def capacity_table(demo: dict, grid: GridResults, tofec: str) -> pd.DataFrame:
    """Saturated throughput of each policy, ÷ C_full, and the largest stable grid rate."""
    sat = demo["saturated"]
    table = pd.DataFrame(
        {
            "saturated throughput (req/s)": sat.throughput,
            "÷ C_full": sat.throughput / grid.c_full,
        }
    )
    table["max stable grid λ"] = [
        grid.max_stable_rate(tofec if p == "TOFEC" else p) for p in CAPACITY_DEMO
    ]
    return table


def light_code(grid: GridResults) -> tuple[int, int]:
    """Ideal's phase-1/3 code: the best static code by mean at 10 req/s in ``grid``."""
    code = grid.env["mean"].loc[10.0].code
    return tuple(int(v) for v in code.strip("()").split(","))


def changing_workload(
    cfg: TofecConfig, params: ModelParams, grid: GridResults, pure: dict | None = None
) -> dict:
    """Fig. 11: the three patterns (10 req/s, a surge, 10 req/s) with Ideal's light-load code
    the best static code by mean at 10 req/s, and with ``pure`` (:func:`delay_model_reading`)
    the primary pattern under PURE. Returns the per-run metrics of the first ``phase_seeds``
    seeds (``phases``, the primary TOFEC named "TOFEC"), their mean per (pattern, policy)
    (``summary``), seed 0's traces, the patterns, the light code and ``draw(pattern, reps)``,
    which runs further seeds of a pattern on demand (same frame)."""
    code, c_full = light_code(grid), grid.c_full
    patterns = {
        "primary": Pattern((10, 0.98 * c_full, 10), params, code),
        "literal 10/80/10": Pattern((10, 80, 10), params, code),
        "0.95·C_full": Pattern((10, 0.95 * c_full, 10), params, code),
    }
    if pure is not None:
        pg = pure["grid"]
        patterns[PURE_PATTERN] = Pattern((10, 0.98 * pg.c_full, 10), pure["params"],
                                         light_code(pg), "PURE", alphas=(cfg.alpha,))

    def draw(pattern: str, reps: range) -> pd.DataFrame:
        rows, _ = phase_sweep(cfg, {pattern: patterns[pattern]}, reps=reps)
        return rows.replace({"policy": {tofec_name(cfg.alpha): "TOFEC"}})

    phases, traces = phase_sweep(cfg, patterns)
    phases["policy"] = phases.policy.replace({tofec_name(cfg.alpha): "TOFEC"})
    summary = phases.groupby(["pattern", "policy"], sort=False).mean(numeric_only=True)
    return {
        "phases": phases,
        "summary": summary.drop(columns="rep"),
        "traces": traces,
        "patterns": {name: p.rates for name, p in patterns.items()},
        "light_code": code,
        "draw": draw,
    }


def primary_traces(workload: dict, alpha: float) -> dict[str, dict]:
    """Seed 0's traces of the primary pattern for TOFEC, Greedy and both Ideals (Fig. 11)."""
    names = {"TOFEC": tofec_name(alpha), "Greedy": "Greedy", "Ideal": "Ideal"}
    names["Ideal (arrival)"] = "Ideal (arrival)"
    return {p: workload["traces"][("primary", name)] for p, name in names.items()}


def ablation_table(cfg: TofecConfig, grid: GridResults, phases: pd.DataFrame) -> pd.DataFrame:
    """Every α of the sweep and the geometric threshold rule: the largest mean and p99 ratio to
    the envelope up to 0.9·C_full, the smallest top-2 k share, and the recovery time after
    each pattern's drop (Ideal's rows: both decision points)."""
    tofec = tofec_name(cfg.alpha)
    variants = [tofec_name(a) for a in ALPHAS] + [tofec_name(cfg.alpha, "geometric")]
    summary, mid = grid.summary, grid.mid
    table = pd.DataFrame(index=variants)
    table["max mean ratio (λ <= 0.9·C_full)"] = [
        ratio_to_envelope(summary, v, "mean").loc[mid].max() for v in variants
    ]
    table["max p99 ratio"] = [ratio_to_envelope(summary, v, "p99").loc[mid].max() for v in variants]
    table["min top-2 k share"] = [
        summary[summary.policy == v].apply(top2_fraction, axis=1).min() for v in variants
    ]
    rec = phases.groupby(["pattern", "policy"]).recovery_s.mean()
    patterns = ("primary", "literal 10/80/10")
    for pattern in patterns:
        table[f"recovery (s), {pattern}"] = [
            rec.get((pattern, "TOFEC" if v == tofec else v), np.nan) for v in variants
        ]
    for name in (ideal_name(v) for v in cfg.readings["ideal_decision_point"].alternatives):
        table.loc[name, [f"recovery (s), {p}" for p in patterns]] = [
            rec[("primary", name)],
            rec[("literal 10/80/10", name)],
        ]
    return table
