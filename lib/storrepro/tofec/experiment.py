"""TOFEC experiments: workload → policy → fast kernel, the sweeps and the metrics of §6-7.

Every sweep task runs *all* its policies on one arrival stream and one block of task-delay
variates drawn from the task's own random stream, so policies are compared on common random
numbers (spec §4.2). The sweep functions are module-level so dask can pickle them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from storrepro.sim.cloud_store import poisson_arrival_times
from storrepro.tofec import analysis
from storrepro.tofec.codes import FILE_MB, K_MAX, static_codes
from storrepro.tofec.delay import PURE, SUR, ModelParams, TaskDelayModel
from storrepro.tofec.kernel import simulate
from storrepro.tofec.policies import IDEAL_DECISION_POINTS as IDEALS
from storrepro.tofec.policies import Greedy, Ideal, Static, Tofec

MODELS = {"SUR": SUR, "PURE": PURE}
WARMUP = 0.10  # fraction of requests dropped at the start of every run
STABLE_LOAD = 0.98  # a static code is unstable at λ >= 0.98·C(n,k) (spec §4.2 (a))
TREND_FACTOR = 2.0  # ... or if its last-20 % mean delay > 2x its first-20 % mean (§4.2 (b))
ALPHAS = (0.0, 0.5, 0.9, 0.95, 0.99)
METRICS = ("mean", "median", "p90", "p99", "std")


def tofec_name(alpha: float, rule: str = "midpoint") -> str:
    return f"TOFEC a={alpha:g}" + ("" if rule == "midpoint" else f" {rule}")


def ideal_name(decision_point: str) -> str:
    """``"Ideal"`` for the head-of-line oracle, ``"Ideal (arrival)"`` for the other reading."""
    return "Ideal" if decision_point == "head_of_line" else f"Ideal ({decision_point})"


# ---- light-load statistics with simultaneous start (Eqs. (2), (3); Figs. 4, 5) ---------------


def simultaneous_start(
    model: TaskDelayModel,
    rng: np.random.Generator,
    n: int,
    k: int,
    count: int,
    file_mb: float = FILE_MB,
) -> tuple[np.ndarray, np.ndarray]:
    """Service delay and cost of ``count`` requests whose n tasks all start together.

    Service delay = k-th smallest task delay; cost = Σ_j min(D_j, D_(k)) (the others are
    interrupted when the k-th finishes).
    """
    return order_statistics(model, model.draw(rng, count), n, k, file_mb)


def order_statistics(
    model: TaskDelayModel, blocks: np.ndarray, n: int, k: int, file_mb: float = FILE_MB
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`simultaneous_start` on given variate blocks (one row per request)."""
    delays = np.sort(model.delays(blocks, file_mb / k, n), axis=1)
    kth = delays[:, k - 1]
    return kth, np.minimum(delays, kth[:, None]).sum(axis=1)


def mc_capacities(
    model: TaskDelayModel,
    rng: np.random.Generator,
    count: int,
    n_threads: int = 16,
    codes=None,
) -> pd.DataFrame:
    """Per code: MC mean service delay and cost, C = L / E[U] (req/s) and C / C(1,1).

    All codes share one set of variate blocks (common random numbers across codes).
    """
    blocks = model.draw(rng, count)
    rows = []
    for n, k in codes or static_codes():
        service, cost = order_statistics(model, blocks, n, k)
        rows.append(
            {
                "n": n,
                "k": k,
                "service_mean": service.mean(),
                "service_median": float(np.median(service)),
                "cost_mean": cost.mean(),
            }
        )
    frame = pd.DataFrame(rows)
    frame["capacity"] = n_threads * 1000.0 / frame.cost_mean
    frame["ratio"] = frame.capacity / frame.capacity.iloc[0]
    return frame.set_index(["n", "k"])


# ---- one run ---------------------------------------------------------------------------------


def run_metrics(res: dict[str, np.ndarray], warmup: float = WARMUP) -> dict[str, float]:
    """Delay statistics (ms), throughput (req/s), k mix, mean Q and the trend flag of one run."""
    start = int(len(res["t_end"]) * warmup)
    delay = (res["t_end"] - res["t_arrive"])[start:]
    k = res["k"][start:]
    t0, t1 = res["t_arrive"][start], res["t_arrive"][-1]
    ends = res["t_end"]
    fifth = max(len(delay) // 5, 1)
    out = {
        "mean": delay.mean(),
        "median": float(np.median(delay)),
        "p90": float(np.percentile(delay, 90)),
        "p99": float(np.percentile(delay, 99)),
        "std": delay.std(),
        "throughput": np.count_nonzero((ends >= t0) & (ends < t1)) / (t1 - t0) * 1000.0,
        "arrival_rate": (len(delay) - 1) / (t1 - t0) * 1000.0,
        "mean_q": res["queue_length"][start:].mean(),
        "mean_n": res["n"][start:].mean(),
        "trend": delay[-fifth:].mean() > TREND_FACTOR * delay[:fifth].mean(),
    }
    for kk in range(1, K_MAX + 1):
        out[f"k{kk}"] = np.mean(k == kk)
    return out


def ccdf_points(values: np.ndarray, points: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """(x, P(X >= x)) at ~``points`` log-spaced tail probabilities: a light CCDF for plots."""
    x = np.sort(np.asarray(values, dtype=float))
    idx = np.unique(np.geomspace(1, x.size, points).astype(int) - 1)
    return x[x.size - 1 - idx][::-1], ((idx + 1) / x.size)[::-1]


def draw_workload(model, rng, rate: float, requests: int):
    """``requests`` Poisson arrivals (ms) at ``rate`` req/s and their task-delay blocks."""
    analysis.check_rate(rate)
    if requests < 100:
        raise ValueError(f"requests must be >= 100 per run, got {requests!r}")
    arrivals = poisson_arrival_times(rng, rate, requests / rate * 1000.0 * 1.5)[:requests]
    return arrivals, model.draw(rng, len(arrivals))


# ---- sweeps ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GridTask:
    """All policies at one arrival rate and replicate (one random stream shared by them)."""

    rate: float
    rep: int
    requests: int
    params: ModelParams  # TOFEC's fitted model parameters
    capacities: tuple[float, ...]  # MC capacity L/E[U] of each static code, static_codes() order
    model: str = "SUR"
    n_threads: int = 16
    alphas: tuple[float, ...] = ALPHAS
    alpha: float = 0.9  # primary memory factor (also used by [3] and the threshold ablation)


def grid_policies(task: GridTask):
    setting = analysis.Setting(task.params, FILE_MB, task.n_threads)
    policies = [
        Static(n, k)
        for (n, k), cap in zip(static_codes(), task.capacities, strict=True)
        if task.rate < STABLE_LOAD * cap
    ]
    policies += [Tofec.from_model(setting, a, name=tofec_name(a)) for a in task.alphas]
    policies += [
        Tofec.from_model(
            setting, task.alpha, rule="geometric", name=tofec_name(task.alpha, "geometric")
        ),
        Tofec.fixed_k(setting, K_MAX, task.alpha),
        Greedy(),
    ]
    return policies


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


# ---- aggregation -----------------------------------------------------------------------------


def summarize(rows: list[dict]) -> pd.DataFrame:
    """Mean over replicates per (rate, policy), with replicate count and unstable fraction."""
    frame = pd.DataFrame(rows)
    agg = frame.groupby(["rate", "policy"], sort=False).mean(numeric_only=True)
    agg["reps"] = frame.groupby(["rate", "policy"], sort=False).size()
    agg["trend_frac"] = frame.groupby(["rate", "policy"], sort=False)["trend"].mean()
    return agg.drop(columns=["rep", "trend"]).reset_index()


def static_names() -> list[str]:
    return [f"({n},{k})" for n, k in static_codes()]


def envelope(summary: pd.DataFrame, metric: str) -> pd.DataFrame:
    """Best stable static code per rate for ``metric``: value and argmin code.

    Only codes simulated (λ < 0.98·C) and without an upward trend in most replicates count.
    """
    static = summary[summary.policy.isin(static_names()) & (summary.trend_frac <= 0.5)]
    best = static.loc[static.groupby("rate")[metric].idxmin(), ["rate", "policy", metric]]
    return best.rename(columns={"policy": "code", metric: "value"}).set_index("rate")


def ratio_to_envelope(summary: pd.DataFrame, policy: str, metric: str) -> pd.Series:
    values = summary[summary.policy == policy].set_index("rate")[metric]
    return values / envelope(summary, metric)["value"]


def top2_fraction(row) -> float:
    """Largest share of requests served by two adjacent k values (Fig. 10 claim)."""
    shares = [row[f"k{k}"] for k in range(1, K_MAX + 1)]
    return max(a + b for a, b in zip(shares[:-1], shares[1:], strict=True))


def modal_k(row) -> int:
    return 1 + int(np.argmax([row[f"k{k}"] for k in range(1, K_MAX + 1)]))


# ---- changing workload (Fig. 11) -------------------------------------------------------------

PHASE_S = 200.0


@dataclass(frozen=True)
class PhaseTask:
    """The 3-phase pattern (rates in req/s, 200 s each): TOFEC for each α, Greedy and Ideal
    (deciding at the head of the line and, as the other reading, on arrival)."""

    pattern: str
    rates: tuple[float, float, float]
    rep: int
    params: ModelParams
    light_code: tuple[int, int]  # Ideal's phase-1/3 code; phase 2 uses (1,1)
    model: str = "SUR"
    n_threads: int = 16
    alphas: tuple[float, ...] = ALPHAS


def phase_arrivals(rng: np.random.Generator, rates, phase_s: float = PHASE_S) -> np.ndarray:
    parts = [
        i * phase_s * 1000.0 + poisson_arrival_times(rng, rate, phase_s * 1000.0)
        for i, rate in enumerate(rates)
    ]
    return np.concatenate(parts)


def run_phase_task(task: PhaseTask, rng: np.random.Generator) -> dict:
    model = MODELS[task.model]
    arrivals = phase_arrivals(rng, task.rates)
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


def phase_metrics(t: np.ndarray, delay: np.ndarray, k: np.ndarray) -> dict[str, float]:
    """Per-phase means, surge switch time, mean k in phase 2, k stability, recovery time."""
    p1 = (t >= 20) & (t < 200)  # phase 1 after its own warm-up
    p2 = (t >= 200) & (t < 400)
    p3 = (t >= 420) & (t < 600)  # phase 3 without its first 20 s
    out = {
        "phase1_mean": delay[p1].mean(),
        "phase2_mean": delay[p2].mean(),
        "phase3_mean": delay[p3].mean(),
        "phase2_k1": np.mean(k[p2] == 1),
        "phase2_k_ge4": np.mean(k[p2] >= 4),
        "surge_mean_k": k[(t >= 202) & (t < 400)].mean(),
        "k_std_p1p3": float(np.mean([k[p1].std(), k[p3].std()])),
    }
    out["switch_s"] = _first_window(t, k == 1, 200.0, 0.5, lambda x: x.mean() >= 0.9)
    ref = 1.2 * out["phase1_mean"]
    out["recovery_s"] = _first_window(t, delay, 400.0, 2.0, lambda x: x.mean() <= ref)
    return out


def _first_window(t, values, start, width, ok, step: float = 0.25) -> float:
    """Smallest s >= 0 such that ``ok(values of arrivals in [start+s, start+s+width))``."""
    s = 0.0
    while start + s + width <= 600.0:
        sel = (t >= start + s) & (t < start + s + width)
        if sel.any() and ok(values[sel]):
            return s
        s += step
    return math.nan
