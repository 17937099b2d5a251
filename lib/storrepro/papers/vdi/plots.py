"""The Fig. 13/14 analogues: one scheduler run over the 6-day window as stacked panels."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from storrepro.papers.vdi.claims import PAPER_SMAPE, S4_TARGET, S5_TARGET
from storrepro.papers.vdi.config import SystemParams
from storrepro.papers.vdi.workload import BINS_PER_DAY
from storrepro.suite.plotting import PALETTE, paper_line, paper_point

#: The paper's watermarks (S3): the fixed bucket's band and the smart scheduler's cap.
PAPER_SYSTEM = SystemParams()
#: Our forecast models by the paper's name for them (its SMAPEs, F5/F6).
PAPER_MODEL = {"proposed": "proposed", "holt-winters": "holt-winters", "arima-ridge": "arima"}

#: Legends right of the axes, where they cover no data.
OUTSIDE = {"loc": "upper left", "bbox_to_anchor": (1.01, 1.0), "borderaxespad": 0.0}


def timeline(result: dict, times: pd.DatetimeIndex, system, title: str, smart: bool = False):
    """FG demand vs served, the core split, debt as % of the pool (with the watermarks and,
    for the smart scheduler, its dynamic watermark W_dyn), queued IO with violation marks, and
    for the smart scheduler the stolen cores CFF."""
    log = result["log"]
    pool = result["pool_blocks"]
    panels = 5 if smart else 4
    fig, axes = plt.subplots(panels, 1, figsize=(11, 2.1 * panels + 1), sharex=True)
    axes[0].plot(times, log.demand_iops, lw=0.8, color="black", label="FG demand")
    axes[0].plot(times, log.fg_served_iops, lw=0.8, color=PALETTE[0], label="FG served")
    capacity = system.n_cores * system.fg_iops_per_core
    axes[0].axhline(capacity, color="grey", ls=":", label=f"{capacity:,.0f} IOPS")
    axes[0].set(ylabel="IOPS")
    axes[0].legend(**OUTSIDE)
    axes[1].plot(times, log.c_fg, lw=0.8, label="C_FG")
    axes[1].plot(times, log.c_bg, lw=0.8, label="C_BG")
    axes[1].set(ylabel="cores")
    axes[1].legend(**OUTSIDE)
    debt = 100 * (log.debt + log.bg_served) / pool
    axes[2].plot(times, debt, lw=0.9, color=PALETTE[2], label="debt (before BG service)")
    paper = PAPER_SYSTEM
    levels = (paper.cap,) if smart else (paper.low, paper.high)
    marks = " / ".join(f"{100 * level:.0f}" for level in levels)
    for k, level in enumerate(levels):
        paper_line(axes[2], y=100 * level,
                   label=f"paper: {'cap' if smart else 'watermarks'} {marks} %" if k == 0
                   else "_paper")
    if smart:
        axes[2].plot(times, result["w_dyn_pct"], lw=0.8, color=PALETTE[3], label="W_dyn (plan)")
    axes[2].set(ylabel="% of pool", ylim=(0, 105))
    axes[2].legend(**OUTSIDE)
    axes[3].fill_between(times, 0, log.queued_iops, step="mid", color=PALETTE[1], lw=0)
    marks = np.where(log.violation, -0.03 * max(1.0, log.queued_iops.max()), np.nan)
    axes[3].plot(times, marks, "|", color=PALETTE[1], ms=6)
    axes[3].set(ylabel="queued IOPS\n(| = violation)")
    if smart:
        axes[4].step(times, result["cff"], where="post", color=PALETTE[4])
        axes[4].set(ylabel="CFF (cores\nstolen from FG)")
    target = S5_TARGET if smart else S4_TARGET
    axes[0].set_title(
        f"{title}: {result['violation_pct']:.1f} % violations, "
        f"{result['queued_pct']:.1f} % IO queued (paper {target['violation'][0]:g} % and "
        f"{target['queued'][0]:g} %)"
    )
    fig.autofmt_xdate()
    return fig


def arrival_intensity(lun: pd.DataFrame, title: str):
    """Each LUN's arrival intensity over the window (``lun``: one column per LUN, indexed by
    time) and a zoom on its first 24 hours."""
    fig, (ax, zoom) = plt.subplots(2, 1, figsize=(10, 6.5))
    for i, col in enumerate(lun.columns):
        ax.plot(lun.index, lun[col], lw=0.7, color=PALETTE[i], label=f"LUN {col}")
        zoom.plot(lun.index[:144], lun[col].iloc[:144], lw=1, color=PALETTE[i], label=f"LUN {col}")
    paper_line(ax, x=lun.index[BINS_PER_DAY],
               label=f"paper: period {BINS_PER_DAY} bins (24 h) from the start")
    ax.set(ylabel="arrival intensity (IOPS, trace units)", title=title)
    zoom.set(ylabel="IOPS (trace units)", xlabel="time", title="First 24 hours")
    ax.legend(ncol=3)
    fig.autofmt_xdate()
    return fig


def acf_lag_spread(char: dict, y: np.ndarray):
    """The ACF up to lag 300 with the 24 h lag marked, and y(t) against y(t + 144)."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    axes[0].plot(np.arange(char["acf"].size), char["acf"], lw=1)
    paper_line(axes[0], x=BINS_PER_DAY, label=f"paper: ACF peak at lag {BINS_PER_DAY} (24 h)")
    axes[0].set(xlabel="lag (10-minute bins)", ylabel="autocorrelation",
                title=f"Fig. 5: ACF (peak at lag {char['acf_argmax']})")
    axes[0].legend()
    axes[1].scatter(y[:-144], y[144:], s=4, alpha=0.5)
    axes[1].set(xlabel="intensity at t (IOPS)", ylabel="intensity at t + 24 h (IOPS)",
                title=f"Fig. 6: 24 h lag spread, Pearson r = {char['lag144_r']:.2f}")
    return fig


def acf_pacf(char: dict, n: int, source: str):
    """ACF and PACF of a series of ``n`` points, with the 95 % band of white noise; ``source``
    names the series in the titles ("seed 0")."""
    fig, axes = plt.subplots(2, 1, figsize=(10, 5.5), sharex=True)
    band = 1.96 / np.sqrt(n)
    for ax, name in zip(axes, ("acf", "pacf"), strict=True):
        values = char[name]
        ax.vlines(np.arange(values.size), 0, values, color=PALETTE[0], lw=1)
        if name == "acf":
            paper_line(ax, x=BINS_PER_DAY, label=f"paper: ACF peak at lag {BINS_PER_DAY}")
        else:
            ax.axvline(BINS_PER_DAY, color=PALETTE[1], ls="--", lw=1)
        ax.axhspan(-band, band, color="grey", alpha=0.2, label="95 % band of white noise")
        title = f"Fig. 8: {name.upper()} of the aggregate intensity ({source})"
        ax.set(ylabel=name.upper(), title=title)
    axes[1].set(xlabel="lag (10-minute bins)", ylim=(-0.6, 1))
    axes[0].legend()
    return fig


def decomposition(y: np.ndarray, trend: np.ndarray, times: pd.DatetimeIndex, source: str):
    """Observed, trend, mean season and residual of the window, stacked; ``source`` names the
    series in the title ("seed 0")."""
    period = 144
    season = np.tile((y - trend).reshape(-1, period).mean(axis=0), y.size // period)
    fig, axes = plt.subplots(4, 1, figsize=(10, 8), sharex=True)
    parts = (y, trend, season, y - trend - season)
    for ax, values, name in zip(axes, parts, ("observed", "trend", "season", "residual"),
                                strict=True):
        ax.plot(times, values, lw=0.8)
        ax.set(ylabel=f"{name}\n(IOPS)")
    axes[0].set_title(f"Fig. 9: additive decomposition, period {period} ({source})")
    fig.autofmt_xdate()
    return fig


def forecast_day(series: dict, model: str, times: pd.DatetimeIndex, title: str, smape_of):
    """One model's forecast of a day against the actual arrival (top) and write (bottom)
    intensity; ``series``: ``{(column, model or "actual"): values}``; ``smape_of(a, f)``. A
    narrow panel sets the arrival SMAPE beside the paper's for the model (F5, F6)."""
    fig = plt.figure(figsize=(11, 5.5))
    grid = fig.add_gridspec(2, 2, width_ratios=(7, 1))
    axes = [fig.add_subplot(grid[0, 0])]
    axes.append(fig.add_subplot(grid[1, 0], sharex=axes[0]))
    for ax, column in zip(axes, ("total", "write"), strict=True):
        actual, forecast = series[(column, "actual")], series[(column, model)]
        ax.plot(times, actual, lw=1, color="black", label="actual")
        ax.plot(times, forecast, lw=1.3, color=PALETTE[1], label="forecast")
        ax.set(ylabel=f"{'arrival' if column == 'total' else 'write'} intensity (IOPS)",
               title=f"{column}: SMAPE {smape_of(actual, forecast):.1f} %")
    axes[0].legend()
    ours = smape_of(series[("total", "actual")], series[("total", model)])
    paper = PAPER_SMAPE[PAPER_MODEL[model]]
    bar = fig.add_subplot(grid[:, 1])
    bar.bar(0, ours, 0.6, color=PALETTE[1], label="ours")
    paper_point(bar, 0, paper, f"paper {paper:g} %")
    bar.set(xticks=[], xlim=(-0.8, 0.8), ylim=(0, 1.5 * max(ours, paper)),
            ylabel="arrival SMAPE (%)")
    bar.legend(loc="upper center", fontsize=8)
    fig.suptitle(title)
    fig.autofmt_xdate()
    return fig


def fixed_day(day: dict):
    """One day of the fixed bucket: debt as % of the pool in its band, violations marked."""
    log, pool = day["log"], day["pool_blocks"]
    hours = np.arange(len(log)) / 6
    fig, ax = plt.subplots(figsize=(8, 2.4))
    ax.axhspan(100 * day["low"], 100 * day["high"], color="grey", alpha=0.2, label="band")
    ax.plot(hours, 100 * (log.debt + log.bg_served) / pool, color=PALETTE[2], label="debt")
    ax.plot(hours[log.violation], np.zeros(log.violation.sum()), "|", color=PALETTE[1], ms=8,
            label="SLO violation")
    ax.set(xlabel="hours after Wednesday 07:00", ylabel="% of pool", ylim=(-5, 105))
    ax.legend(ncol=3, loc="upper left")
    return fig


def real_gaps(table: pd.DataFrame, paper_gap: float):
    """Per real VM, the SMAPE gaps of the paper's comparisons and of the seasonal-naive
    baseline (pp; below zero: the first model is better), one dot per VM, the median marked."""
    pairs = {"proposed − Holt-Winters": ("proposed", "holt-winters"),
             "Holt-Winters − ARIMA": ("holt-winters", "arima"),
             "proposed − seasonal-naive": ("proposed", "seasonal-naive")}
    fig, ax = plt.subplots(figsize=(9, 4))
    for k, (name, (a, b)) in enumerate(pairs.items()):
        gap = (table[a] - table[b]).dropna()
        x = k + np.linspace(-0.2, 0.2, max(len(gap), 1))[: len(gap)]
        ax.scatter(x, gap, s=14, color=PALETTE[k], label=f"{name} ({len(gap)} VMs)")
        if len(gap):
            ax.hlines(gap.median(), k - 0.3, k + 0.3, color="black", lw=1.5)
    ax.axhline(0, color="grey", lw=0.8)
    paper_line(ax, y=paper_gap, label=f"paper {paper_gap:+.1f} pp")
    ax.set_xticks(range(len(pairs)), list(pairs))
    ax.set(ylabel="SMAPE gap (pp)", title="Forecast error gaps per real VM (median: black bar)")
    ax.legend(**OUTSIDE)
    return fig
