"""The task-delay model and the analysis checked by Monte Carlo, with the tables of the
notebook's Sections 1-3 and 9: requests whose n tasks start together (Eqs. (2), (3), Figs. 4-5),
the copula variant, Theorem 1 and Corollary 1 against numerical optima, the thresholds, the
two-class separability, and the M/M/1 backlog model against the measured backlog.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from storrepro.papers.tofec import analysis
from storrepro.papers.tofec.codes import FILE_MB, static_codes
from storrepro.papers.tofec.config import TofecConfig
from storrepro.papers.tofec.delay import (
    PURE,
    SUR,
    ModelParams,
    TaskDelayModel,
    copula_delays,
    copula_draws,
    copula_rho_for,
    delay_table,
    mean_pairwise_correlation,
)
from storrepro.papers.tofec.metrics import GridResults
from storrepro.suite.parallel import task_rng

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
    return kth_and_cost(delay_table(model, blocks, file_mb / k, n), k)


def kth_and_cost(delays: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Per row of task delays (one request's n tasks, started together): the k-th smallest and
    the cost Σ_j min(D_j, D_(k))."""
    delays = np.sort(delays, axis=1)
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

    All codes share one set of variate blocks (common random numbers across codes), and the
    codes of one k, one after another, the task delays of their chunk size: a task's delay
    depends on its chunk and its own variates only, so (n, k)'s are the first n columns of the
    widest such code's.
    """
    blocks = model.draw(rng, count)
    codes = list(codes or static_codes())
    rows, table_k, table = [], None, None
    for n, k in codes:
        if k != table_k:
            widest = max(m for m, j in codes if j == k)
            table_k, table = k, delay_table(model, blocks, FILE_MB / k, widest)
        service, cost = kth_and_cost(table[:, :n], k)
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


# ---- the notebook's analyses -----------------------------------------------------------------

PAPER_TAIL_GAINS = [0.50, 0.65, 0.80]  # Fig. 5: p99 reduction with 1, 2, 3 extra chunks
#: The fitted parameters of this reproduction's pilot run, shown beside ours.
PILOT_FIT = [26.0, 48.9, 8.44, 10.7]


def fit_table(params: ModelParams) -> pd.DataFrame:
    """TOFEC's fitted Eq. (1) parameters beside the pilot's."""
    return pd.DataFrame(
        {
            "fitted": [params.a_shift, params.b_shift, params.a_tail, params.b_tail],
            "pilot": PILOT_FIT,
        },
        index=["α_Δ (ms/MB)", "β_Δ (ms)", "α_E (ms/MB)", "β_E (ms)"],
    )


def _gains(p99: dict[int, float]) -> dict[str, float]:
    return {f"+{n - 3} chunk(s)": 1 - p99[n] / p99[3] for n in range(4, 7)}


def tail_gains(cfg: TofecConfig) -> tuple[np.ndarray, dict[int, np.ndarray], pd.DataFrame]:
    """Figs. 4-5: per-thread task delays (1 MB chunks, 6 threads), SUR's (n,3) service delays
    with all tasks started together, and the p99 reduction of each extra chunk (SUR and PURE,
    one random stream in that order) beside the paper's."""
    rng = task_rng(cfg.seed, "fig4 fig5")
    per_thread = SUR.delays(SUR.draw(rng, cfg.mc_samples), 1.0, 6)
    services, gains = {}, {}
    for name, model in (("SUR", SUR), ("PURE", PURE)):
        p99 = {}
        for n in range(3, 7):
            service, _ = simultaneous_start(model, rng, n, 3, cfg.mc_samples)
            p99[n] = np.percentile(service, 99)
            if name == "SUR":
                services[n] = service
        gains[name] = _gains(p99)
    table = pd.DataFrame(gains).T
    table.loc["paper"] = PAPER_TAIL_GAINS
    return per_thread, services, table


def copula_study(cfg: TofecConfig, target: float = 0.14) -> tuple[float, float, pd.DataFrame]:
    """The Gaussian-copula variant: the task-delay correlation at ρ = 0.15, the ρ that gives
    ``target`` (the middle of the paper's 0.11-0.17), and the Fig. 5 tail gains under each."""

    # one fixed stream, drawn once, so every ρ sees the same variates
    draws = copula_draws(SUR, task_rng(cfg.seed, "copula"), 1.0, 6, cfg.mc_samples)

    def delays(rho):
        return copula_delays(draws, rho)

    pearson = mean_pairwise_correlation(delays(0.15))
    rho_mid = copula_rho_for(delays, target)
    gains = {}
    for label, rho in (("independent", 0.0), ("ρ = 0.15", 0.15), (f"ρ = {rho_mid:.2f}", rho_mid)):
        tasks = delays(rho)  # a code with n tasks uses the first n columns; k = 3: 3rd fastest
        gains[label] = _gains(
            {n: np.percentile(np.sort(tasks[:, :n], axis=1)[:, 2], 99) for n in range(3, 7)}
        )
    table = pd.DataFrame(gains).T
    table.loc["paper"] = PAPER_TAIL_GAINS
    return pearson, rho_mid, table


def formula_checks(cfg: TofecConfig) -> tuple[pd.DataFrame, float, float, dict]:
    """A1/A2: PURE's MC mean cost and service delay per code beside Eqs. (3) and (2), the
    largest relative errors, and the Eq. (2) integral gaps for 1 <= k < n <= 12."""
    mc = mc_capacities(PURE, task_rng(cfg.seed, "a1 a2"), cfg.mc_samples, cfg.n_threads)
    pure = analysis.Setting(PURE.true_params(), 3.0, cfg.n_threads)
    mc["cost_formula"] = [analysis.cost(pure, n / k, k) for n, k in mc.index]
    mc["service_formula"] = [analysis.service_delay_exact(pure, n, k) for n, k in mc.index]
    cost_err = (mc.cost_mean / mc.cost_formula - 1).abs().max()
    service_err = (mc.service_mean / mc.service_formula - 1).abs().max()
    gaps = {(n, k): analysis.harmonic_gap(n, k) for n in range(2, 13) for k in range(1, n)}
    return mc, cost_err, service_err, gaps


def theorem1_table(setting: analysis.Setting, seed: int, rates=(5, 20, 40, 60)) -> pd.DataFrame:
    """A3: Theorem 1's solution against a multi-start Nelder-Mead optimum, per λ."""
    rows = []
    for lam in rates:
        thm = analysis.theorem1_solution(setting, lam)
        opt = analysis.numeric_optimum(setting, lam, starts=8, seed=seed)
        res_k, res_h = analysis.theorem1_residuals(setting, opt["r"], opt["k"], lam)
        rows.append(
            {
                "λ": lam,
                "r* (Thm 1)": thm["r"],
                "k* (Thm 1)": thm["k"],
                "n* (Thm 1)": thm["n"],
                "r* (NM)": opt["r"],
                "k* (NM)": opt["k"],
                "|k−g(r)|/k": res_k,
                "|φ−h|/h": res_h,
                "start spread": opt["start_spread"],
            }
        )
    return pd.DataFrame(rows).set_index("λ")


def corollary1(setting: analysis.Setting) -> tuple[pd.DataFrame, dict[str, bool]]:
    """A4: the relaxed optimum (k*, n*, r*) over a backlog grid, and Corollary 1's monotonicity
    checks on it and on g, r·g and h."""
    eq_grid = np.geomspace(0.01, 20, 80)
    opt_codes = pd.DataFrame([analysis.optimal_code(setting, q) for q in eq_grid], index=eq_grid)
    r_grid = np.linspace(1.001, 20, 4000)
    g = analysis.g_of_r(setting, r_grid)
    checks = {f"{c}* decreasing": bool((np.diff(opt_codes[c]) < 0).all()) for c in "knr"}
    checks["g increasing"] = bool((np.diff(g) > 0).all())
    checks["r·g increasing"] = bool((np.diff(r_grid * g) > 0).all())
    checks["h decreasing"] = bool((np.diff(analysis.h_of_r(setting, r_grid)) < 0).all())
    return opt_codes, checks


def threshold_table(setting: analysis.Setting) -> pd.DataFrame:
    """Q(n), Q̃(k) and TOFEC's midpoint thresholds (Eq. (14)) for n <= 12, k <= 6."""
    q_n, q_k = analysis.n_backlogs(setting), analysis.k_backlogs(setting)
    table = pd.DataFrame(
        {"Q(n)": q_n, "T^n": np.append(analysis.thresholds(q_n), 0.0)}, index=range(1, 13)
    )
    table["Q̃(k)"] = pd.Series(q_k, index=range(1, 7))
    table["T̃^k"] = pd.Series(np.append(analysis.thresholds(q_k), 0.0), index=range(1, 7))
    table.index.name = "n or k"
    return table


def separability(setting: analysis.Setting) -> tuple[float, pd.DataFrame]:
    """A5: two classes (the 3 MB read; a 1 MB class with 1.5x its parameters) at (λ, p) =
    (20, [0.5, 0.5]), at another mix with the same Λ, and class 1 alone at that Λ: the largest
    change of any class's (r, k), and the codes."""
    p = setting.params
    scaled = ModelParams(*(1.5 * np.array([p.a_shift, p.b_shift, p.a_tail, p.b_tail])))
    classes = [setting, analysis.Setting(scaled, 1.0, setting.n_threads)]
    base = analysis.multiclass_optimum(classes, 20.0, [0.5, 0.5])
    u = [analysis.cost(s, c["r"], c["k"]) for s, c in zip(classes, base, strict=True)]
    big_lambda = 20.0 * (u[0] + u[1]) / 2 / 1000
    moved = analysis.multiclass_optimum(
        classes, big_lambda * 1000 / (0.2 * u[0] + 0.8 * u[1]), [0.2, 0.8]
    )
    alone = analysis.theorem1_solution(setting, big_lambda * 1000 / u[0])
    gap = max(
        max(abs(x["r"] - y["r"]), abs(x["k"] - y["k"])) for x, y in zip(base, moved, strict=True)
    )
    gap = max(gap, abs(alone["r"] - base[0]["r"]), abs(alone["k"] - base[0]["k"]))
    table = pd.DataFrame(
        {
            "(λ, p) = (20, [.5, .5])": [base[0]["r"], base[0]["k"], base[1]["r"], base[1]["k"]],
            "same Λ, p = [.2, .8]": [moved[0]["r"], moved[0]["k"], moved[1]["r"], moved[1]["k"]],
        },
        index=["r class 1", "k class 1", "r class 2", "k class 2"],
    )
    return gap, table


def backlog_check(grid: GridResults, n_threads: int, from_rate: float = 40.0) -> pd.DataFrame:
    """(1,1)'s measured mean backlog against Eq. (11) with its mean cost, from ``from_rate``."""
    table = pd.DataFrame({"measured E[Q]": grid.q11})
    table["Eq. (11)"] = [analysis.backlog(r * grid.u11 / 1000, n_threads) for r in table.index]
    return table.loc[[r for r in table.index if r >= from_rate]]
