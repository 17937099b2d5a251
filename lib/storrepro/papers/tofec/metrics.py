"""What a TOFEC run measured: delay statistics, throughput and the code mix of one run, the
mean over seeds, the best static code per rate (the envelope), and the per-phase metrics of the
changing workload. Plain numpy/pandas on the kernel's output columns.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np
import pandas as pd

from storrepro.papers.tofec.analysis import backlog
from storrepro.papers.tofec.codes import K_MAX, static_codes
from storrepro.papers.tofec.config import RECOVERY_FACTOR, TREND_FACTOR

WARMUP = 0.10  # fraction of requests dropped at the start of every run
METRICS = ("mean", "median", "p90", "p99", "std")


def tofec_name(alpha: float, rule: str = "midpoint") -> str:
    return f"TOFEC a={alpha:g}" + ("" if rule == "midpoint" else f" {rule}")


def ideal_name(decision_point: str) -> str:
    """``"Ideal"`` for the head-of-line oracle, ``"Ideal (arrival)"`` for the other reading."""
    return "Ideal" if decision_point == "head_of_line" else f"Ideal ({decision_point})"


def run_metrics(res: dict[str, np.ndarray], warmup: float = WARMUP) -> dict[str, float]:
    """Delay statistics (ms), throughput (req/s), k mix, mean Q and the trend flag of one run."""
    start = int(len(res["t_end"]) * warmup)
    delay = (res["t_end"] - res["t_arrive"])[start:]
    k = res["k"][start:]
    t0, t1 = res["t_arrive"][start], res["t_arrive"][-1]
    ends = res["t_end"]
    fifth = max(len(delay) // 5, 1)
    p90, p99 = np.percentile(delay, [90, 99])  # one partition for both (the same values)
    out = {
        "mean": delay.mean(),
        "median": float(np.median(delay)),
        "p90": float(p90),
        "p99": float(p99),
        "std": delay.std(),
        "throughput": np.count_nonzero((ends >= t0) & (ends < t1)) / (t1 - t0) * 1000.0,
        "arrival_rate": (len(delay) - 1) / (t1 - t0) * 1000.0,
        "mean_q": res["queue_length"][start:].mean(),
        "mean_n": res["n"][start:].mean(),
        "trend": delay[-fifth:].mean() > TREND_FACTOR * delay[:fifth].mean(),
    }
    shares = np.bincount(k, minlength=K_MAX + 1) / len(k)  # one pass for the six np.mean(k == kk)
    for kk in range(1, K_MAX + 1):
        out[f"k{kk}"] = shares[kk]
    return out


def ccdf_points(values: np.ndarray, points: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """(x, P(X >= x)) at ~``points`` log-spaced tail probabilities: a light CCDF for plots."""
    x = np.sort(np.asarray(values, dtype=float))
    idx = np.unique(np.geomspace(1, x.size, points).astype(int) - 1)
    return x[x.size - 1 - idx][::-1], ((idx + 1) / x.size)[::-1]


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
    ref = RECOVERY_FACTOR * out["phase1_mean"]
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


@dataclass
class GridResults:
    """The λ-grid summary with what the analyses read from it: per-metric pivots (rate ×
    policy), the envelope per metric, the rate ranges of the claims, and (1,1)'s measured
    backlog and mean cost."""

    summary: pd.DataFrame
    c_full: float  # simulated capacity of (1,1) (req/s)
    u11: float  # (1,1)'s MC mean cost (ms)
    #: The per-run rows behind ``summary`` (rate, rep, policy, metrics): the replicates a
    #: claim's interval is taken over.
    runs: pd.DataFrame | None = None
    rates: list[float] = field(init=False)
    pivot: dict[str, pd.DataFrame] = field(init=False)
    env: dict[str, pd.DataFrame] = field(init=False)

    def __post_init__(self):
        summary = self.summary
        self.rates = sorted(summary.rate.unique())
        self.pivot = {
            m: summary.pivot(index="rate", columns="policy", values=m)
            for m in METRICS + ("trend_frac",)
        }
        self.env = {m: envelope(summary, m) for m in METRICS}

    def _at(self, fraction: float) -> float:
        """``fraction``·C_full as the sweep rounds it (:func:`experiment.grid_rates`)."""
        return round(fraction * self.c_full, 2)

    @property
    def mid(self) -> list[float]:
        """The rates up to 0.90·C_full (the sweep's rounded run at 0.90·C_full included)."""
        return [r for r in self.rates if r <= self._at(0.90)]

    @property
    def high(self) -> list[float]:
        """The rates in (0.90, 0.95]·C_full (the sweep's rounded run at 0.95·C_full included)."""
        return [r for r in self.rates if self._at(0.90) < r <= self._at(0.95)]

    @cached_property
    def _rows(self) -> dict[tuple[float, str], pd.DataFrame]:
        if self.runs is None:
            raise ValueError("GridResults was built without its per-run rows (runs=None)")
        return {key: rows.set_index("rep").sort_index()
                for key, rows in self.runs.groupby(["rate", "policy"], sort=False)}

    def seed_rows(self, policy: str, rate: float) -> pd.DataFrame:
        """``policy``'s runs at ``rate``, one row per seed, indexed by seed."""
        return self._rows[(rate, policy)]

    def seed_values(self, policy: str, metric: str, rate: float) -> np.ndarray:
        """``policy``'s ``metric`` at ``rate``, one value per seed."""
        return self.seed_rows(policy, rate)[metric].to_numpy()

    def seed_ratios(self, policy: str, base: str, metric: str, rates) -> dict[float, np.ndarray]:
        """Per rate: ``policy``'s ``metric`` over ``base``'s in each seed (the same arrivals and
        task delays: common random numbers)."""
        return {
            r: (self.seed_rows(policy, r)[metric] / self.seed_rows(base, r)[metric]).to_numpy()
            for r in rates
        }

    def seed_envelope_ratios(self, policy: str, metric: str, rates) -> dict[float, np.ndarray]:
        """Per rate: ``policy``'s ``metric`` over the best static code's (chosen on the seed
        means, :attr:`env`) in each seed."""
        env = self.env[metric]
        return {r: self.seed_ratios(policy, env.code[r], metric, [r])[r] for r in rates}

    def seed_k_shares(self, policy: str, statistic) -> dict[float, np.ndarray]:
        """Per rate: ``statistic(row)`` of ``policy``'s k mix (columns k1..k6) in each seed."""
        return {r: self.seed_rows(policy, r).apply(statistic, axis=1).to_numpy()
                for r in self.rates}

    @property
    def q11(self) -> pd.Series:
        """(1,1)'s measured mean backlog E[Q] per rate."""
        return self.summary[self.summary.policy == "(1,1)"].set_index("rate").mean_q

    def k_shares(self, policy: str) -> pd.DataFrame:
        """The share of ``policy``'s requests per k (columns k1..k6) per rate."""
        kcols = [f"k{k}" for k in range(1, K_MAX + 1)]
        return self.summary[self.summary.policy == policy].set_index("rate")[kcols]

    def envelope_context(self, policy: str, metric: str, n_threads: int) -> dict:
        """Per λ: the best static code, the share of ``policy``'s requests with another / a
        larger k, and (1,1)'s measured E[Q] against Eq. (11): what names the cause of a miss."""
        shares = self.summary[self.summary.policy == policy].set_index("rate")
        q11 = self.q11
        out = {}
        for r, best in self.env[metric].iterrows():
            kb = int(best.code.strip("()").split(",")[1])
            out[r] = {
                "best_code": best.code,
                "best_mean_code": self.env["mean"].code.get(r, best.code),
                "k_off": 1 - shares.loc[r, f"k{kb}"],
                "k_above": sum(shares.loc[r, f"k{k}"] for k in range(kb + 1, 7)),
            }
            if r in q11.index:
                out[r] |= {"measured_q": q11[r], "model_q": backlog(r * self.u11 / 1000,
                                                                    n_threads)}
        return out

    def k_mix(self, alphas) -> pd.DataFrame:
        """Per rate: TOFEC's top-2 adjacent-k share at each of ``alphas``, Greedy's share of
        k = 1 or 6, and the modal k of TOFEC at the first α (seed-averaged k mix)."""
        table = pd.DataFrame({f"top-2 α = {a:g}": self.k_shares(tofec_name(a)).apply(
            top2_fraction, axis=1) for a in alphas})
        greedy = self.k_shares("Greedy")
        table["Greedy k∈{1,6}"] = greedy.k1 + greedy.k6
        table["modal k TOFEC"] = self.k_shares(tofec_name(alphas[0])).apply(modal_k, axis=1)
        return table

    def ratios(self, policies, metrics=METRICS) -> pd.DataFrame:
        """Each policy's metric over the envelope's, per rate ("policy metric" columns)."""
        return pd.DataFrame(
            {f"{p} {m}": ratio_to_envelope(self.summary, p, m) for p in policies for m in metrics}
        )

    def light_load(self, tofec: str) -> pd.DataFrame:
        """Light-load delays beside the paper's: (1,1) and (2,1) at λ = 2, TOFEC and Greedy
        at λ = 5."""
        at = [(2.0, "(1,1)"), (2.0, "(2,1)"), (5.0, tofec), (5.0, "Greedy")]
        return pd.DataFrame(
            {
                "mean (ms)": [self.pivot["mean"].loc[r, p] for r, p in at],
                "median (ms)": [self.pivot["median"].loc[r, p] for r, p in at],
                "paper mean": [205, 151, 84, 89],
                "paper median": [156, 138, 74, 79],
            },
            index=["basic (1,1), λ=2", "replication (2,1), λ=2", "TOFEC, λ=5", "Greedy, λ=5"],
        )

    def max_stable_rate(self, policy: str) -> float:
        """The largest grid rate at which ``policy`` shows no upward trend in most seeds."""
        trend = self.pivot["trend_frac"]
        stable = [
            r
            for r in self.rates
            if r in trend.index
            and pd.notna(trend.loc[r].get(policy))
            and trend.loc[r, policy] <= 0.5
        ]
        return max(stable, default=np.nan)
