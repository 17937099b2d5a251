"""The figures of notebook 04: each function draws one figure from the experiment's tables and
returns it (the notebook saves it with its caption)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from storrepro.papers.bid.claims import (
    C1_PAPER,
    C3_PAPER,
    C5_PAPER,
    C6D_PAPER,
    C10_PAPER,
    QUANTA,
    SEQUENTIAL,
)
from storrepro.papers.bid.metrics import CYLINDERS
from storrepro.papers.bid.schedulers import MAIN
from storrepro.papers.bid.workload import WORKLOADS
from storrepro.suite.plotting import PALETTE, paper_line, paper_point

LABEL = {
    "cfq-q8": "CFQ (q=8)",
    "cfq-q2": "CFQ (q=2)",
    "noop": "Noop",
    "bid-hdd": "BID-HDD",
    "bid-hybrid": "BID-Hybrid",
}
COLOUR = dict(zip(MAIN, PALETTE, strict=False))
#: The paper's claimed reductions of cumulative I/O time against the best Linux scheduler, %.
PAPER_GAIN = {"bid-hdd": tuple(100 * f for f in C1_PAPER),
              "bid-hybrid": tuple(100 * f for f in C5_PAPER)}
LINUX = ("cfq-q8", "cfq-q2", "noop")


def _workload_ticks(ax, x, offset=0.0):
    ax.set_xticks(x + offset, WORKLOADS, rotation=30, ha="right")


def cumulative_time(ci: pd.DataFrame, seeds: int, events: int):
    """Fig. 12 analogue: mean cumulative device time per workload and scheme, 95 % intervals."""
    fig, ax = plt.subplots(figsize=(11, 6), layout="constrained")
    height = 0.8 / len(MAIN)
    for i, s in enumerate(MAIN):
        y = np.arange(len(WORKLOADS)) + i * height
        part = ci.xs(s, level="scheduler").loc[list(WORKLOADS)]
        ax.barh(y, part["mean"], height, xerr=part["ci95"], color=COLOUR[s], label=LABEL[s])
    _paper_times(ax, ci["mean"].unstack("scheduler").loc[list(WORKLOADS)], height)
    ax.set_yticks(np.arange(len(WORKLOADS)) + 0.4 - height / 2, WORKLOADS)
    ax.invert_yaxis()
    ax.set(
        xlabel="cumulative device time (s)",
        title=f"Cumulative I/O completion time ({seeds} seeds x {events:,} events)",
    )
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8)
    return fig


def _paper_times(ax, mean: pd.DataFrame, height: float):
    """The paper's C1/C5 reductions (a dotted span on each BID bar) and C3's Noop/CFQ (a diamond
    on Noop's bar, Grep and WordStdev), in seconds: the paper's fractions of our means."""
    best, rows = mean[list(LINUX)].min(axis=1), np.arange(len(mean))
    for s, (lo, hi) in (("bid-hdd", C1_PAPER), ("bid-hybrid", C5_PAPER)):
        y = rows + MAIN.index(s) * height
        xs = np.column_stack([best * (1 - hi), best * (1 - lo), np.full(len(y), np.nan)])
        ys = np.column_stack([y, y, np.full(len(y), np.nan)])
        paper_line(ax, y=ys.ravel(), x=xs.ravel(), label=f"paper: {LABEL[s]} {100 * lo:.0f}–"
                   f"{100 * hi:.0f} % below the best Linux")  # fmt: skip
    seq = [list(mean.index).index(w) for w in SEQUENTIAL]
    cfq = mean[list(QUANTA)].min(axis=1).iloc[seq]
    paper_point(ax, C3_PAPER * cfq, np.array(seq) + MAIN.index("noop") * height,
                f"paper: Noop {C3_PAPER:g}× CFQ (Grep, WordStdev)")


def oracle_bound(bound: pd.DataFrame):
    """BID's gains beside the most any schedule could save (the lower bound) and what a
    clairvoyant sweep saves, with the paper's claimed ranges shaded."""
    fig, ax = plt.subplots(figsize=(9, 4.2))
    x = np.arange(len(WORKLOADS))
    bars = [
        ("BID-HDD gain vs CFQ q=8 %", LABEL["bid-hdd"], COLOUR["bid-hdd"]),
        ("sweep gain vs CFQ q=8 %", "clairvoyant sweep (HDD, reachable)", "0.45"),
        ("bound gain vs CFQ q=8 %", "lower bound (HDD): no schedule saves more", "0.2"),
        ("BID-Hybrid gain vs CFQ q=8 %", LABEL["bid-hybrid"], COLOUR["bid-hybrid"]),
        ("tiered bound gain vs CFQ q=8 %", "tiered lower bound (HDD + SSD)", "0.7"),
    ]
    for i, (column, label, colour) in enumerate(bars):
        heights = bound.loc[list(WORKLOADS), column]
        ax.bar(x + (i - 2) * 0.16, heights, 0.16, color=colour, label=label)
    for scheme, alpha in (("bid-hdd", 0.12), ("bid-hybrid", 0.08)):
        lo, hi = PAPER_GAIN[scheme]
        ax.axhspan(lo, hi, color=COLOUR[scheme], alpha=alpha, label=f"paper: {LABEL[scheme]} "
                   f"{lo:.0f}–{hi:.0f} %")  # fmt: skip
    ax.axhline(0, color="k", lw=0.6)
    _workload_ticks(ax, x)
    ax.set(
        ylabel="less device time than best(CFQ q=8, Noop), %",
        title="Gains against the best Linux scheduler, beside the lower bound and the sweep",
    )
    ax.legend(fontsize=7, ncol=2)
    return fig


def _arm_panels(arm: dict, lo: float, hi: float, title, **style):
    fig, axes = plt.subplots(len(MAIN), 1, figsize=(9, 11), sharex=True, sharey=True)
    for ax, s in zip(axes, MAIN, strict=True):
        a = arm[s][(arm[s].t_start >= lo) & (arm[s].t_start <= hi)]
        ax.plot(a.t_start / 1000, a.cylinder, color=COLOUR[s], rasterized=True, **style)
        ax.set(ylabel="cylinder", ylim=(0, CYLINDERS), title=title(s, a))
    axes[-1].set(xlabel="simulated time (s)")
    return fig, axes


def arm_traces(arm: dict, window: dict):
    """Fig. 13 analogue: cylinder of every HDD request against time, one panel per scheme, in
    the window of :func:`storrepro.papers.bid.experiment.arm_window` (its zoom shaded)."""

    def title(s, a):
        return (
            f"{LABEL[s]}: {(a.d >= 2).sum():,} arm moves in the window, "
            f"{(arm[s].d >= 2).sum():,} in the run"
        )

    fig, axes = _arm_panels(arm, window["w1"], window["w2"], title, lw=0.3, alpha=0.6)
    for ax, s in zip(axes, MAIN, strict=True):
        a = arm[s][(arm[s].t_start >= window["w1"]) & (arm[s].t_start <= window["w2"])]
        ax.plot(a.t_start / 1000, a.cylinder, ls="none", marker=".", ms=1.5, mew=0,
                color=COLOUR[s], rasterized=True)  # fmt: skip
        ax.axvspan(window["t1"] / 1000, window["t2"] / 1000, color="0.85", zorder=0)
    fig.suptitle(
        f"Disk-arm movements, WordStdev (seed 0), {window['label']} (shaded: the zoom of Fig. 14)"
    )
    return fig


def arm_zoom(arm: dict, window: dict):
    """Fig. 14 analogue: the arm traces zoomed on 300 BID-HDD requests."""

    def title(s, a):
        return f"{LABEL[s]}: {len(a)} requests, {(a.d >= 2).sum()} moves"

    fig, _ = _arm_panels(arm, window["t1"], window["t2"], title, lw=0.6, marker=".", ms=2)
    fig.suptitle(
        f"Zoom: {window['t1'] / 1000:.1f}–{window['t2'] / 1000:.1f} s (300 BID-HDD requests)"
    )
    return fig


def live_arm(result, label: str, scheduler: str):
    """The arm trace of one replay, with its cumulative device time and moves in the title."""
    hdd = result.requests[result.requests.device == 0]
    fig, ax = plt.subplots(figsize=(8, 3), layout="constrained")
    ax.plot(hdd.t_start / 1000, hdd.cylinder, lw=0.4, color=COLOUR[scheduler])
    ax.set(
        xlabel="simulated time (s)",
        ylabel="cylinder",
        title=f"{label}: cumulative device time {result.requests.service.sum() / 1000:.1f} s, "
        f"{(hdd.d >= 2).sum():,} arm moves",
    )
    return fig


def _grouped(ax, table: pd.DataFrame, **bar):
    """One bar per scheme and workload, schemes side by side."""
    x = np.arange(len(WORKLOADS))
    w = 0.8 / len(MAIN)
    for i, s in enumerate(MAIN):
        ax.bar(x + i * w, table.loc[list(WORKLOADS), s], w, color=COLOUR[s], label=LABEL[s], **bar)
    _workload_ticks(ax, x, 0.4 - w / 2)
    return x, w


def head_movement(movement: dict):
    """Figs 15–17 analogues: arm movements, their distances (quartiles and mean), total travel."""
    fig, axes = plt.subplots(1, 3, figsize=(14, 4.5))
    _grouped(axes[0], movement["n2"])
    tera = list(WORKLOADS).index("TeraSort")
    paper_point(axes[0], tera + MAIN.index("bid-hybrid") * 0.8 / len(MAIN),
                (1 - C6D_PAPER) * movement["n2"].loc["TeraSort", "bid-hdd"],
                f"paper: BID-Hybrid ~{100 * C6D_PAPER:.0f} % below BID-HDD (TeraSort)")
    axes[0].legend(handles=axes[0].get_lines()[-1:], fontsize=7)
    x, w = _grouped(axes[2], movement["TD_sweep"])
    rows = list(WORKLOADS)
    q25, q50, q75 = (movement[f"AD_seek_p{p}"] for p in (25, 50, 75))
    for i, s in enumerate(MAIN):
        xs = x + i * w
        axes[1].bar(xs, q75.loc[rows, s] - q25.loc[rows, s], w, bottom=q25.loc[rows, s],
                    color=COLOUR[s])  # fmt: skip
        axes[1].hlines(q50.loc[rows, s], xs - w / 2, xs + w / 2, color="k", lw=1)
        axes[1].plot(xs, movement["AD_seek"].loc[rows, s], "D", ms=3.5, mfc="w", mec="k", mew=0.7)
    _workload_ticks(axes[1], x, 0.4 - w / 2)
    titles = (
        ("Fig. 15: arm movements (d ≥ 2)", "movements per run"),
        ("Fig. 16: seek distance per move (d ≥ 2)", "cylinders per move (log)"),
        ("Fig. 17: total head movement", "full-disk sweeps"),
    )
    for ax, (title, ylabel) in zip(axes, titles, strict=True):
        ax.set(title=title, ylabel=ylabel)
    axes[1].set_yscale("log")
    handles = [
        plt.Rectangle((0, 0), 1, 1, color="0.6", label="interquartile range"),
        plt.Line2D([], [], color="k", lw=1, label="median"),
        plt.Line2D([], [], ls="none", marker="D", ms=3.5, mfc="w", mec="k", label="mean (AD_seek)"),
    ]
    axes[1].legend(handles=handles, fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.3),
                   ncol=3)  # fmt: skip
    schemes = [(h, lab) for h, lab in zip(*axes[0].get_legend_handles_labels(), strict=True)
               if lab in LABEL.values()]
    fig.legend(*zip(*schemes, strict=True), loc="upper center", ncol=len(MAIN),
               fontsize=8, bbox_to_anchor=(0.5, 1.06))  # fmt: skip
    return fig


def latency(lat: dict):
    """Figs 18/19 analogues: mean read and write latency per workload and scheme (log), and in
    how many of the 12 (workload, op) cases BID-HDD's and Noop's mean is at most CFQ q=8's,
    beside the paper's counts (C10; the claim itself reads the seed intervals)."""
    fig, axes = plt.subplots(1, 3, figsize=(15, 4.5), width_ratios=(6, 6, 1.6))
    for ax, op in zip(axes[:2], lat, strict=True):
        _grouped(ax, lat[op])
        ax.set(title=f"Mean {op} latency", ylabel="ms", yscale="log")
    axes[0].legend(fontsize=7)
    schemes = list(C10_PAPER)
    ours = [sum(int((t.loc[list(WORKLOADS), s] <= t.loc[list(WORKLOADS), QUANTA[0]]).sum())
                for t in lat.values()) for s in schemes]
    axes[2].bar(range(2), ours, 0.6, color=[COLOUR[s] for s in schemes], label="ours")
    paper_point(axes[2], range(2), [C10_PAPER[s] for s in schemes], "paper")
    axes[2].set_xticks(range(2), [LABEL[s] for s in schemes], rotation=30, ha="right")
    axes[2].set(ylim=(0, 13), ylabel="cases of 12", title="≤ CFQ q=8's mean")
    axes[2].legend(fontsize=7, loc="lower center")
    return fig


def bid_internals(
    waits: pd.DataFrame, locked_waits: pd.DataFrame, flushes: pd.DataFrame, kinds: dict
):
    """BID-HDD's wait timers under two history rules and the staging queues' size at flush;
    ``kinds``: process -> its kind (archetype, or "trace"), for the legend."""
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.2))
    pids = sorted(waits.pid.unique())
    shown = pids[:3] + pids[-1:]
    panels = (
        (axes[0], waits, "every gap recorded (primary)"),
        (axes[2], locked_waits, "only while the queue is open"),
    )
    for ax, log, title in panels:
        for pid in shown:
            part = log[log.pid == pid]
            ax.step(part.t / 1000, part.wait, where="post", lw=0.8, rasterized=True,
                    label=f"pid {pid} ({kinds[pid]})")  # fmt: skip
        ax.set(yscale="log", xlabel="trace clock (s)", ylabel="wait timer (ms)",
               title=f"Wait timer, WordStdev: {title}")  # fmt: skip
    axes[0].legend(fontsize=7)
    bins = np.arange(0.5, flushes.requests.max() + 1.5)
    axes[1].hist(flushes.requests, bins=bins, color=PALETTE[3])
    axes[1].set(yscale="log", xlabel="requests in the staging queue when marked",
                ylabel="queues", title="Staging-queue size at flush, WordStdev")  # fmt: skip
    return fig


def hybrid_diagnostics(decisions: pd.DataFrame, threshold: float):
    """BID-Hybrid's packing fractions against the threshold, and its decisions over time."""
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.2))
    axes[0].hist(decisions.pf, bins=np.linspace(0, 1024, 65), color=PALETTE[4])
    axes[0].axvline(threshold, color="k", ls="--", lw=1, label=f"threshold {threshold} sectors")
    axes[0].set(yscale="log", xlabel="packing fraction (mean write size, sectors)",
                ylabel="staging queues", title="PF of classified queues, WordCount")  # fmt: skip
    axes[0].legend()
    for tier, colour in (("ssd", PALETTE[1]), ("hdd", PALETTE[0])):
        part = decisions[decisions.tier == tier]
        axes[1].plot(part.t / 1000, part.pf, ".", ms=2, color=colour, label=f"to {tier.upper()}",
                     rasterized=True)  # fmt: skip
    axes[1].set(xlabel="trace clock (s)", ylabel="packing fraction (sectors)",
                title="Tier decisions over time, WordCount")  # fmt: skip
    axes[1].legend()
    return fig
