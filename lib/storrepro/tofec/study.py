"""The steps of notebook 05, each a function of the config (the notebook only plots and claims)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import simpy

from storrepro.parallel import sweep, task_rng
from storrepro.sim.cloud_store import CloudStore, poisson_arrival_times
from storrepro.tofec import analysis, experiment
from storrepro.tofec.codes import FILE_MB, static_codes
from storrepro.tofec.config import HIGH_LOAD, TofecConfig
from storrepro.tofec.delay import SUR, ModelParams, fit_params, sample_chunks
from storrepro.tofec.kernel import COLUMNS, simulate
from storrepro.tofec.policies import Greedy, Ideal, Tofec

SATURATION = 1.2  # saturation runs offer 1.2x the capacity


def fitted_params(cfg: TofecConfig) -> tuple[ModelParams, dict[float, np.ndarray]]:
    """TOFEC's model parameters, fitted as in the paper to SUR samples (worst 10 % dropped)."""
    samples = sample_chunks(SUR, task_rng(cfg.seed, "fig6 samples"), cfg.mc_samples)
    return fit_params(samples), samples


def tofec_alphas(cfg: TofecConfig) -> tuple[float, ...]:
    """The memory factors TOFEC runs with: the sweep's and the config's (the primary)."""
    return tuple(sorted(set(experiment.ALPHAS) | {cfg.alpha}))


def setting(cfg: TofecConfig, params: ModelParams) -> analysis.Setting:
    return analysis.Setting(params, FILE_MB, cfg.n_threads)


def capacities(cfg: TofecConfig) -> pd.DataFrame:
    """MC capacity L/E[U] of the 27 codes under SUR (simultaneous start)."""
    return experiment.mc_capacities(
        SUR, task_rng(cfg.seed, "mc capacities"), cfg.mc_samples, cfg.n_threads
    )


def saturation_sweep(
    cfg: TofecConfig, params: ModelParams, policies: dict[str, float], alpha: float | None = None
) -> pd.DataFrame:
    """Saturated throughput of each policy at the given offered rate, mean over seeds (TOFEC
    and [3] with memory factor ``alpha``, the config's by default)."""
    tasks = [
        experiment.SaturationTask(
            name,
            float(rate),
            rep,
            cfg.requests_at(rate),
            params,
            n_threads=cfg.n_threads,
            alpha=cfg.alpha if alpha is None else alpha,
        )
        for name, rate in policies.items()
        for rep in range(cfg.seeds)
    ]
    rows = sweep(experiment.run_saturation_task, tasks, seed=cfg.seed, desc="saturation")
    return pd.DataFrame(rows).groupby("policy", sort=False).mean(numeric_only=True)


def static_saturation(cfg: TofecConfig, params: ModelParams, caps: pd.DataFrame) -> pd.DataFrame:
    """Simulated capacity of every static code next to its MC prediction L/E[U]."""
    offered = {f"({n},{k})": SATURATION * caps.capacity[(n, k)] for n, k in static_codes()}
    sat = saturation_sweep(cfg, params, offered)
    out = caps[["capacity"]].rename(columns={"capacity": "predicted"}).copy()
    out["simulated"] = [sat.throughput[f"({n},{k})"] for n, k in out.index]
    out["error"] = out.simulated / out.predicted - 1
    out["ratio_to_11"] = out.simulated / out.simulated.iloc[0]
    return out


def grid_rates(cfg: TofecConfig, c_full: float) -> list[tuple[float, int]]:
    """(rate, seeds): the profile's λ grid plus 0.90/0.95/0.98·C_full with more seeds."""
    rates = [(float(r), cfg.seeds) for r in cfg.rates]
    return rates + [(round(f * c_full, 2), cfg.high_load_seeds) for f in HIGH_LOAD]


def grid_tasks(
    cfg: TofecConfig, params: ModelParams, caps: pd.DataFrame, c_full: float, model: str = "SUR"
) -> list[experiment.GridTask]:
    """One task per (rate, seed) of the λ grid; each runs every policy on one stream."""
    return [
        experiment.GridTask(
            rate,
            rep,
            cfg.requests_at(rate),
            params,
            tuple(caps.capacity),
            model=model,
            n_threads=cfg.n_threads,
            alphas=tofec_alphas(cfg),
            alpha=cfg.alpha,
        )
        for rate, seeds in grid_rates(cfg, c_full)
        for rep in range(seeds)
    ]


def grid_sweep(
    cfg: TofecConfig, params: ModelParams, caps: pd.DataFrame, c_full: float, model: str = "SUR"
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every policy at every rate and seed: (per-run rows, summary averaged over seeds)."""
    tasks = grid_tasks(cfg, params, caps, c_full, model)
    rows = sweep(experiment.run_grid_task, tasks, seed=cfg.seed, desc=f"{model} λ grid")
    flat = [row for task_rows in rows for row in task_rows]
    return pd.DataFrame(flat), experiment.summarize(flat)


def phase_sweep(
    cfg: TofecConfig,
    params: ModelParams,
    patterns: dict[str, tuple],
    light_code: tuple[int, int],
    alphas: tuple[float, ...] | None = None,
) -> tuple[pd.DataFrame, dict]:
    """The 3-phase workloads: per (pattern, seed, policy) metrics, and seed 0's traces."""
    tasks = [
        experiment.PhaseTask(
            name,
            tuple(float(r) for r in rates),
            rep,
            params,
            light_code,
            n_threads=cfg.n_threads,
            alphas=tofec_alphas(cfg) if alphas is None else alphas,
        )
        for name, rates in patterns.items()
        for rep in range(cfg.phase_seeds)
    ]
    results = sweep(experiment.run_phase_task, tasks, seed=cfg.seed, desc="phases")
    rows, traces = [], {}
    for res in results:
        for policy in res["policies"]:
            trace = res[policy]
            rows.append(
                {
                    "pattern": res["pattern"],
                    "rep": res["rep"],
                    "policy": policy,
                    **experiment.phase_metrics(trace["t"], trace["delay"], trace["k"]),
                }
            )
            if res["rep"] == 0:
                traces[(res["pattern"], policy)] = trace
    return pd.DataFrame(rows), traces


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
        lambda: Tofec.from_model(setting(cfg, params), cfg.alpha),
        Greedy,
        lambda: Ideal(thirds, ((2, 1), (1, 1), (2, 1)), decide_at="admission"),
    )
    worst, busy_gap = 0.0, 0.0
    for make in makers:
        env = simpy.Environment()
        policy = make()
        store = CloudStore(
            env,
            task_rng(cfg.seed, "a6 delays"),
            SUR,
            policy,
            n_threads=cfg.n_threads,
            file_size=FILE_MB,
            decide_at=getattr(policy, "decide_at", "arrival"),
            check_invariants=True,
        )
        store.replay(arrivals)
        env.run()
        log = store.log.to_frame().sort_values("rid")
        blocks = SUR.draw(task_rng(cfg.seed, "a6 delays"), len(arrivals))
        fast = simulate(make(), SUR, arrivals, blocks, cfg.n_threads, FILE_MB)
        for column in COLUMNS[:-1]:
            worst = max(worst, float(np.max(np.abs(log[column].to_numpy() - fast[column]))))
        busy_gap = max(busy_gap, abs(store.busy_time - log.cost.sum()) / log.cost.sum())
    return {"requests": len(arrivals), "max_difference": worst, "busy_vs_cost": busy_gap}
