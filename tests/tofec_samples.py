"""Hand-built grid results the TOFEC metrics, model-check and claim-group tests share."""

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
