"""The under-prediction experiment and the live one-segment replay
(:mod:`storrepro.papers.accgecko.experiment.underprediction`)."""

import matplotlib
import numpy as np
import pandas as pd
import pytest

from storrepro.papers.accgecko import experiment, plots
from storrepro.papers.accgecko.experiment import underprediction
from storrepro.papers.accgecko.pacer import Replayer
from storrepro.papers.accgecko.workload import G1

matplotlib.use("Agg")


def test_live_trace_allocates_where_acctail_predicts_and_replays_the_truth():
    live = underprediction.LiveTrace.generate(
        G1(2.0, 1.0, 3.0, 4, 3.0, 6.0, 2.0), 20.0, np.random.default_rng(6)
    )
    table = live.acctail(1.5, 3)
    assert table.index.tolist() == list(experiment.SLO_GRID[99.0])
    ok = table[np.isfinite(table["rate (IOPS)"])]
    assert (ok["predicted (µs)"] <= ok.index).all() and (ok["rate (IOPS)"] >= 3000).all()
    arrivals, overhead = live.replayer.arrivals, live.replayer.overhead_us
    fresh = [Replayer(arrivals, overhead).percentile_us(99.0, r) for r in ok["rate (IOPS)"]]
    assert ok["true (µs)"].tolist() == fresh


def test_explain_summary_takes_medians_per_percentile():
    explain = pd.DataFrame(
        {
            "p": [99.0, 99.0, 99.9],
            "rate": [3000.0, 5000.0, 4000.0],
            "replay_us": [100.0, 300.0, 50.0],
            "acctail_us": [10.0, 10.0, 25.0],
            "queue_us": [110.0, 330.0, 50.0],
            "top1_in_bursts": [9, 8, 1],
            "top1_requests": [10, 10, 2],
            "burst_rate_over_threshold": [1.1, 1.2, 1.3],
            "median_peak_ms_count": [10.0, 20.0, 30.0],
        }
    )
    summary = underprediction.explain_summary(explain)
    assert summary.loc[99.0, "replay / AccTail"] == 20.0
    assert summary.loc[99.0, "queue model / replay"] == pytest.approx(1.1)
    assert summary.loc[99.9, "top-1 % in bursts"] == 0.5


def test_hand_example_and_its_figures():
    live = underprediction.LiveTrace.generate(
        G1(2.0, 1.0, 3.0, 4, 3.0, 6.0, 2.0), 20.0, np.random.default_rng(6)
    )
    hand = underprediction.hand_example(live, experiment.HAND_RATES[:5])
    assert hand["burst"].size >= 2 and hand["threshold"] == 3.0
    assert (np.diff(hand["truth"]) <= 0).all()  # no latency grows with the rate
    assert plots.why_underpredicts(hand).axes
    rates = experiment.LIVE_RATES[:6]
    curve = live.acctail_curve(1.5, 2, rates, live.true_us(99.0, rates))
    assert (curve["model_rates"] >= 3000).all()
    assert plots.acctail_live(curve, live.acctail(1.5, 2), 1.5, 2).axes
