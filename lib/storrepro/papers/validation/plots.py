"""The figures of notebook 00, drawn from the frames its experiments return."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from storrepro.papers.validation.workload import QUEUES

#: One colour per queue type, the same in every figure.
COLOURS = dict(zip(QUEUES, ["C0", "C1", "C2"], strict=True))


def waiting_time_ccdf(simulated: pd.DataFrame, closed: pd.DataFrame, load: float, customers: int):
    """Simulated waiting-time CCDF of each queue (steps) against the M/M/1 and M/D/1 closed
    forms (black), on a log scale, with the 1 % level of the p99 checks in grey."""
    fig, ax = plt.subplots()
    for queue, part in simulated.groupby("queue", sort=False):
        ax.step(
            part.wait, part.ccdf, where="post", color=COLOURS[queue], label=f"{queue} simulated"
        )
    ax.plot(closed.index, closed["M/M/1"], "k--", lw=1, label="M/M/1 closed form")
    ax.plot(closed.index, closed["M/D/1"], "k:", lw=1.2, label="M/D/1 closed form")
    ax.axhline(0.01, color="grey", lw=0.8)
    ax.set(
        yscale="log",
        ylim=(1e-4, 1),
        xlim=(0, closed.index[-1]),
        xlabel="waiting time (mean service times)",
        ylabel="P(wait > t)",
        title=f"Waiting-time distribution at load {load:g} ({customers:,} customers each)",
    )
    ax.legend()
    return fig


def mean_wait_vs_load(curve: pd.DataFrame, lines: pd.DataFrame, customers: int):
    """Simulated mean wait per load (points) and the Pollaczek–Khinchine lines, per queue."""
    fig, ax = plt.subplots()
    for queue, part in curve.groupby("queue", sort=False):
        colour = COLOURS[queue]
        ax.plot(part.load, part.simulated, "o", color=colour, label=f"{queue} simulated")
        ax.plot(
            lines.index, lines[queue], color=colour, lw=1, label=f"{queue} Pollaczek–Khinchine"
        )
    ax.set(
        xlabel="load ρ",
        ylabel="mean wait (mean service times)",
        yscale="log",
        title=f"Mean wait against load ({customers:,} customers per point)",
    )
    ax.legend(ncol=2)
    return fig


def parallel_requests(codes: pd.DataFrame, requests: int):
    """Mean delay of each (n, k) code with its 95 % interval, against the order statistic."""
    fig, ax = plt.subplots()
    x = np.arange(len(codes))
    ax.errorbar(x, codes.simulated_ms, yerr=codes.ci_ms, fmt="o", label="simulated (95 % CI)")
    ax.plot(x, codes.theory_ms, "k_", ms=22, mew=1.5, label="Δ + E·Σ 1/i")
    ax.set_xticks(x, codes.index)
    ax.set(
        xlabel="code (n, k)",
        ylabel="mean request delay (ms)",
        title=f"k-th fastest of n tasks ({requests:,} requests per code)",
    )
    ax.legend()
    return fig
