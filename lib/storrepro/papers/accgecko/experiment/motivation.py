"""The motivation study (Fig. 2–5): burst features against latency (Spearman), the Table 1
replicas and their MMPP + SNC bounds, one segment's count distribution, and the pool's
calibration inputs."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from storrepro.papers.accgecko.baselines import SncMeister, lambda_states, mmpp_count_pmf
from storrepro.papers.accgecko.baselines import fold_errors as count_folds
from storrepro.papers.accgecko.experiment import FEATURES, MOTIVATION_RATE, PERCENTILES
from storrepro.papers.accgecko.features import DELTA, burst_features, period_counts
from storrepro.papers.accgecko.kernel import dispatch_overhead_us
from storrepro.papers.accgecko.pacer import Replayer
from storrepro.papers.accgecko.workload import MEAN_RATE, generate, table1_trace


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


def table1_study(rng: np.random.Generator, lengths=(15, 11, 27)) -> dict:
    """T1–T3: features, actual latency CCDF at 3000 IOPS, the MMPP+SNC bounds, and the replicas
    themselves (``replicas``: name -> (arrivals, overheads))."""
    eps = np.logspace(-4, np.log10(0.05), 16)
    rows, curves, replicas = [], {}, {}
    for name, longest in zip(("T1", "T2", "T3"), lengths, strict=True):
        arrivals = table1_trace(longest, rng)
        overhead = dispatch_overhead_us(rng, arrivals.size)
        replicas[name] = (arrivals, overhead)
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
    return {"table": pd.DataFrame(rows).set_index("trace"), "curves": curves,
            "replicas": replicas}


def one_segment_counts(params, segment_s: float, rng: np.random.Generator) -> np.ndarray:
    """Per-ms counts of one segment of a tenant (the Fig. 5 trace)."""
    return period_counts(generate(params, segment_s, rng, segment_s), segment_s)


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
