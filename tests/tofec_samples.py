"""Hand-built grid results and phases the TOFEC metrics, model-check and claim tests share."""

import numpy as np
import pandas as pd

from storrepro.papers.tofec.metrics import GridResults, tofec_name

KCOLS = [f"k{k}" for k in range(1, 7)]


def hand_runs():
    """Two rates, two seeds, three static codes, TOFEC (α = 0.9 and the alternatives) and
    Greedy; seed 1 is seed 0 with every delay 2 % higher."""
    rows = []
    for rep, scale in ((0, 1.0), (1, 1.02)):
        for rate, means in ((2.0, (200.0, 150.0, 90.0)), (5.0, (210.0, 160.0, 100.0))):
            for code, mean in zip(("(1,1)", "(2,1)", "(6,6)"), means, strict=True):
                rows.append({"rate": rate, "rep": rep, "policy": code, "mean": mean * scale,
                             "k1": 1.0})
            rows.append({"rate": rate, "rep": rep, "policy": "Greedy", "mean": 88.0 * scale,
                         "k1": 0.5, "k6": 0.5})
            for a in (0.9, 0.5, 0.95, 0.99):
                rows.append({"rate": rate, "rep": rep, "policy": tofec_name(a),
                             "mean": 80.0 * scale, "k3": 0.6, "k4": 0.4})
    frame = pd.DataFrame([dict.fromkeys(KCOLS, 0.0) | row for row in rows])
    for metric in ("median", "p90", "p99", "std"):
        frame[metric] = frame["mean"] * 0.9
    frame["trend"] = False
    frame["mean_q"] = np.where(frame.policy == "(1,1)", 0.25, 0.0)
    frame["throughput"] = frame["arrival_rate"] = frame["rate"]
    return frame


def hand_summary():
    """The seed means of :func:`hand_runs`, as ``metrics.summarize`` gives them."""
    runs = hand_runs()
    summary = runs.groupby(["rate", "policy"], sort=False).mean(numeric_only=True).reset_index()
    summary["trend_frac"] = 0.0
    return summary.drop(columns=["rep", "trend"])


def hand_grid():
    return GridResults(hand_summary(), c_full=5.0, u11=200.0, runs=hand_runs())


POLICIES = ["TOFEC", *(tofec_name(a) for a in (0.5, 0.95, 0.99)), "Greedy", "Ideal",
            "Ideal (arrival)"]


def hand_phases(**change):
    """Per (pattern, seed, policy) phase metrics: TOFEC recovers in 5 s, Greedy in 8 s, both
    Ideals in 30 s, in every pattern; two seeds a little apart. ``change`` sets a metric of
    TOFEC (or, as ``greedy_<metric>``, of Greedy) in every pattern and seed."""
    rows = []
    for pattern in ("primary", "literal 10/80/10", "0.95·C_full", "PURE primary"):
        for rep in (0, 1):
            for policy in POLICIES:
                recovery = 5.0 if "TOFEC" in policy else 8.0 if policy == "Greedy" else 30.0
                row = {"pattern": pattern, "rep": rep, "policy": policy, "switch_s": 1.0,
                       "surge_mean_k": 1.0 + 0.01 * rep, "phase1_mean": 90.0 + rep,
                       "phase2_mean": 300.0, "phase3_mean": 90.0, "recovery_s": recovery + rep,
                       "k_std_p1p3": (0.3 if "TOFEC" in policy else 1.0) + 0.01 * rep,
                       "phase2_k1": 0.95, "phase2_k_ge4": 0.2 + 0.01 * rep}
                for key, value in change.items():
                    who, metric = ("Greedy", key[7:]) if key.startswith("greedy_") else (
                        "TOFEC", key)
                    if policy == who:
                        row[metric] = value + rep if metric == "recovery_s" else value * (
                            1 + 0.01 * rep)
                rows.append(row)
    return pd.DataFrame(rows)
