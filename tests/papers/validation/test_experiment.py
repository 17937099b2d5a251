"""Notebook 00's analyses: the CCDFs and Pollaczek–Khinchine lines it plots, the reference
tables, and the figures drawn from them."""

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pytest

from storrepro.papers.validation import experiment, plots
from storrepro.papers.validation.workload import QUEUES


def test_waiting_ccdf_by_hand():
    waits = {"M/M/1": np.array([3.0, 1.0, 2.0, 0.0]), "M/D/1": np.array([5.0, 4.0])}
    simulated, closed = experiment.waiting_ccdf(waits, 0.5, t_max=2.0, every=2, points=3)
    # sorted waits 0,1,2,3: P(wait > w_i) = 1 - i/4 -> 0.75, 0.5, 0.25, 0; every 2nd kept
    mm1 = simulated[simulated.queue == "M/M/1"]
    assert mm1.wait.tolist() == [0.0, 2.0] and mm1.ccdf.tolist() == [0.75, 0.25]
    md1 = simulated[simulated.queue == "M/D/1"]
    assert md1.wait.tolist() == [4.0] and md1.ccdf.tolist() == [0.5]
    assert closed.index.tolist() == [0.0, 1.0, 2.0]
    # M/M/1: P(W > t) = rho exp(-(1 - rho) t); M/D/1 at t = 0: P(W > 0) = rho
    assert closed["M/M/1"].tolist() == pytest.approx([0.5, 0.5 * np.exp(-0.5), 0.5 * np.exp(-1)])
    assert closed["M/D/1"].iloc[0] == pytest.approx(0.5)
    assert (np.diff(closed["M/D/1"]) <= 0).all()


def test_waiting_ccdf_edge_cases():
    simulated, _ = experiment.waiting_ccdf({}, 0.5, t_max=1.0)
    assert simulated.empty and list(simulated.columns) == ["queue", "wait", "ccdf"]
    one, _ = experiment.waiting_ccdf({"M/M/1": np.array([2.0])}, 0.5, t_max=1.0)
    assert one.ccdf.tolist() == [0.0]
    with pytest.raises(ValueError, match="every = 0"):
        experiment.waiting_ccdf({}, 0.5, t_max=1.0, every=0)


def test_pk_lines_against_hand_values():
    lines = experiment.pk_lines(np.array([0.5, 0.8]))
    assert list(lines.columns) == list(QUEUES)
    # W = rho E[S^2] / (2 (1 - rho)) with E[S] = 1: E[S^2] = 2, 1, 1.25
    assert lines.loc[0.5].tolist() == pytest.approx([1.0, 0.5, 0.625])
    assert lines.loc[0.8, "M/M/1"] == pytest.approx(4.0)
    assert len(experiment.pk_lines()) == len(experiment.CURVE_GRID)


def test_theory_rejects_an_unknown_queue():
    with pytest.raises(ValueError, match="queue = 'M/M/9'"):
        experiment.theory_mean_wait("M/M/9", 0.5)


def test_figures_draw_every_series():
    simulated, closed = experiment.waiting_ccdf(
        {q: np.arange(100.0) for q in QUEUES}, 0.5, t_max=10.0
    )
    fig = plots.waiting_time_ccdf(simulated, closed, 0.5, 100)
    assert len(fig.axes[0].lines) == 3 + 2 + 1  # three steps, two closed forms, the 1 % level
    rows = [{"queue": q, "load": r, "simulated": 1.0} for q in QUEUES for r in (0.2, 0.4)]
    curve = pd.DataFrame(rows)
    fig = plots.mean_wait_vs_load(curve, experiment.pk_lines(), 1000)
    assert len(fig.axes[0].lines) == 6
    codes = pd.DataFrame(
        {"simulated_ms": [50.0, 40.0], "ci_ms": [1.0, 1.0], "theory_ms": [50.0, 41.0]},
        index=["(1,1)", "(2,1)"],
    )
    fig = plots.parallel_requests(codes, 2000)
    assert [t.get_text() for t in fig.axes[0].get_xticklabels()] == ["(1,1)", "(2,1)"]
