"""The figures of notebook 01: each function draws one figure from results and returns it (the
notebook saves it with its caption)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.ticker import LogFormatter

from storrepro.papers.periodicity import scheduling
from storrepro.papers.periodicity.ceiling import noise_limit, pcc_ceiling
from storrepro.papers.periodicity.experiment import TOLERANCES
from storrepro.papers.periodicity.precise_period import (
    PrecisePeriod,
    acf_lagged_pearson,
    acf_peak,
    dwt_lowpass,
    level_set,
)
from storrepro.papers.periodicity.ssd_latency import S_OPS, eq1_delay
from storrepro.suite.plotting import PAPER_GID, paper_band, paper_line


def latency_knee(rates: np.ndarray, p9999: np.ndarray):
    """Fig. 2 analogue: Eq. (1) and the simulated 99.99 % latency of one SSD queue."""
    fig, ax = plt.subplots()
    grid = np.linspace(0, 13_200, 400)
    ax.plot(grid, 1e3 * eq1_delay(grid), label="Eq. (1): D = 1/(S − A)")
    ax.plot(rates, 1e3 * p9999, "o-", label="99.99 % latency, FIFO queue simulation")
    ax.axvline(12_000, color="grey", ls=":", label="knee, A = 12 000 ops/s")
    ax.set(xlabel="arrival rate A (32 KB requests per second)", ylabel="latency (ms)",
           yscale="log", title=f"One SSD queue, service rate S = {S_OPS:,.0f} ops/s")
    ax.legend()
    return fig


def preprocessing(x: np.ndarray, clean: np.ndarray, found):
    """Step 1 on one series: the raw series with the outliers found shaded, and the result."""
    fig, axes = plt.subplots(2, 1, figsize=(11, 6), sharex=True)
    axes[0].plot(x, lw=0.8, label="raw (Fig. 4 analogue)")
    for lo, hi in found.dips:
        axes[0].axvspan(lo - 0.5, hi + 0.5, color="C3", alpha=0.3)
    for lo, hi in found.bursts:
        axes[0].axvspan(lo - 0.5, hi + 0.5, color="C2", alpha=0.3)
    axes[0].plot([], [], color="C3", lw=6, alpha=0.3, label="type A: log-loss dip")
    axes[0].plot([], [], color="C2", lw=6, alpha=0.3, label="type B: burst")
    axes[0].set(ylabel="traffic (a.u.)", title="Step 1: outliers found on the first differences")
    axes[0].legend(loc="upper left", ncol=3)
    axes[1].plot(clean, lw=0.8, color="C1", label="preprocessed (Fig. 5 analogue)")
    axes[1].set(xlabel="time (samples)", ylabel="traffic (a.u.)")
    axes[1].legend(loc="upper left")
    return fig


def dwt_and_acf(window: np.ndarray, det: PrecisePeriod):
    """Steps 2–3 on one window: the low-pass reconstruction per DWT level and its ACF peak."""
    levels = level_set(window.size, det.jmax, det.level0, det.wavelet)
    fig, axes = plt.subplots(len(levels), 2, figsize=(12, 1.7 * len(levels)), sharex="col")
    kmax = int(det.kmax_fraction * window.size)
    for row, j in zip(axes, levels, strict=True):
        low = dwt_lowpass(window, j, det.wavelet)
        r = acf_lagged_pearson(low, kmax + 1)
        peak = acf_peak(low, kmax, det.acf)
        row[0].plot(low, lw=0.8)
        row[0].set_ylabel(f"level {j}")
        row[1].plot(np.arange(r.size), r, lw=0.8)
        if peak is not None:
            row[1].axvline(peak, color="C3", lw=1)
            row[1].text(peak, 0.8, f" peak {peak}", color="C3")
        row[1].set_ylim(-1, 1.05)
    axes[0, 0].set_title("Step 2: low-pass reconstruction per DWT level (Fig. 6 analogue)")
    axes[0, 1].set_title("Step 3: ACF per level and its highest local peak")
    axes[-1, 0].set_xlabel("time (samples)")
    axes[-1, 1].set_xlabel("lag (samples)")
    return fig


def verification(x: np.ndarray, trace: list, theta: float, true_period: int, walk: dict):
    """Step 4: every window's candidate PCCs (left) and the prediction with the verified period
    (right); ``walk`` is :func:`~storrepro.papers.periodicity.experiment.verified_forecast`'s."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4))
    for w in trace:
        verifiable = [c for c in w.candidates if 3 * c <= w.length and w.length + c <= x.size]
        for t, s in zip(verifiable, w.scores, strict=False):
            axes[0].plot(w.length, s, "o", color="C0" if t == true_period else "C1")
        axes[0].plot(w.length, w.stability, "k_", ms=12)
    axes[0].axhline(theta, color="C3", ls="--", lw=1, label=f"θ = {theta}")
    axes[0].plot([], [], "o", color="C0", label=f"candidate = {true_period}")
    axes[0].plot([], [], "o", color="C1", label="other candidates")
    axes[0].plot([], [], "k_", ms=12, label="stability PCC of the best")
    axes[0].set(xlabel="history window L (samples)", ylabel="PCC of forecast vs actual",
                title="Step 4: growing-window verification trace")
    axes[0].legend()
    length = walk["length"]
    axes[1].plot(x, lw=0.8, label="actual")
    axes[1].plot(np.arange(length, x.size), walk["forecast"], lw=1, color="C3",
                 label="3-period-mean forecast")
    axes[1].axvline(length, color="grey", ls=":")
    axes[1].set(xlabel="time (samples)", ylabel="traffic (a.u.)",
                title=f"Prediction with the verified period T = {walk['period']} (Fig. 10 style)")
    axes[1].legend()
    return fig


def synthetic_parts(s0):
    """Fig. 7 analogue: the parts of one synthetic series."""
    fig, axes = plt.subplots(4, 1, figsize=(11, 8), sharex=True)
    parts = [("(a) sine with random amplitude", s0.parts["sine"]),
             ("(b) + outliers", s0.parts["sine"] + s0.parts["outliers"]),
             ("(c) noise + trend", s0.parts["noise"] + s0.parts["trend"]),
             ("(d) sum", s0.values)]
    for ax, (title, y) in zip(axes, parts, strict=True):
        ax.plot(y, lw=0.7)
        ax.set_title(title, loc="left", fontsize=10)
        ax.set_ylabel("value")
    axes[-1].set_xlabel("time (samples)")
    fig.suptitle(f"Synthetic series 0: T = {s0.period}, r = {s0.outlier_ratio:.3f}, "
                 f"σ² = {s0.noise_var:.2f}, β = {s0.slope:.2e}")
    return fig


def synthetic_parameters(table: pd.DataFrame):
    """Histograms of the synthetic generator's parameters over every series."""
    fig, axes = plt.subplots(1, 4, figsize=(13, 3))
    labels = ["period T (samples)", "outlier ratio r", "noise variance σ²", "trend slope β"]
    for ax, col, label in zip(axes, table.columns, labels, strict=True):
        ax.hist(table[col], bins=30)
        ax.set(xlabel=label, ylabel="series")
    fig.suptitle(f"Parameters of the {len(table)} synthetic series")
    return fig


def grouped_bars(scored: pd.DataFrame, methods, datasets, title: str, cran_precision=None):
    """Precision, recall and F1 of ``methods`` per data set and tolerance (Figs 8 and 9);
    ``cran_precision``: a band (low, high) the paper gives PrecisePeriod's CRAN precision,
    marked on the CRAN panels."""
    fig, axes = plt.subplots(1, 4, figsize=(15, 4.4), sharey=True, layout="constrained")
    panels = [(d, t) for d in datasets for t in TOLERANCES]
    for ax, (dataset, tol) in zip(axes, panels, strict=True):
        part = scored[(scored.dataset == dataset) & (scored.tolerance == tol)].set_index("method")
        xs = np.arange(len(methods))
        for k, metric in enumerate(["precision", "recall", "f1"]):
            ax.bar(xs + (k - 1) * 0.27, part.loc[list(methods), metric], 0.27, label=metric)
        ax.set_xticks(xs, methods, rotation=35, ha="right")
        ax.set_title(f"{dataset}, ±{tol:.0%}")
        ax.set_ylim(0, 1.05)
        if cran_precision and dataset == "cran":
            paper_band(ax, *cran_precision, label="paper: PrecisePeriod's CRAN precision "
                       "nearly 1.0")
    axes[0].set_ylabel("score (definition A)")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=4)
    fig.suptitle(title)
    return fig


def theta_sweep(theta_scores: pd.DataFrame):
    """Precision, recall and F1 (±2 %) of PrecisePeriod versus θ, per data set."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), sharey=True)
    for ax, (dataset, part) in zip(axes, theta_scores.groupby("dataset", sort=False),
                                   strict=False):
        for metric in ("precision", "recall", "f1"):
            ax.plot(part.theta, part[metric], "o-", label=metric)
        ax.axvline(0.7, color="grey", ls=":")
        ax.set(xlabel="PCC threshold θ", title=f"{dataset}, ±2 %", ylim=(0, 1.05))
    axes[0].set_ylabel("score (definition A)")
    axes[0].legend()
    return fig


def theta_traces(series, traces, theta: float, found: list):
    """The widget's view: each series' verification trace at threshold ``theta`` (``found``:
    the periods found, as :func:`~storrepro.papers.periodicity.experiment.theta_demo` lists
    them)."""
    fig, axes = plt.subplots(1, len(series), figsize=(13, 3), sharey=True, layout="constrained")
    for ax, s, trace, period in zip(axes, series, traces, found, strict=True):
        lengths = [w.length for w in trace]
        ax.plot(lengths, [w.accuracy for w in trace], "o", label="next period")
        ax.plot(lengths, [w.stability for w in trace], "_", ms=14, mew=2, label="stability")
        ax.axhline(theta, color="C3", ls="--", lw=1)
        first = next((w for w in trace if w.verified(theta)), None)
        if first is not None:
            ax.axvline(first.length, color="grey", ls=":")
        ax.set(xlabel="history window L", ylim=(-0.2, 1.02),
               title=f"T = {s.period}, found {period}")
    axes[0].set_ylabel("PCC of the best candidate")
    axes[0].legend(loc="lower right", fontsize=8)
    return fig


def generator_accuracy(gen_table: pd.DataFrame, methods, n_gen: int):
    """Accuracy (±2 %) of every method on each generator variant."""
    fig, ax = plt.subplots(figsize=(12, 4))
    acc = gen_table["accuracy"]
    order = list(gen_table.index)
    xs = np.arange(len(order))
    for k, method in enumerate(methods):
        ax.bar(xs + (k - 2) * 0.16, acc[method], 0.16, label=method)
    ax.set_xticks(xs, order, rotation=20, ha="right")
    ax.set(ylabel="accuracy (±2 %)", ylim=(0, 1.05),
           title=f"Generator sensitivity: {n_gen} synthetic series per variant")
    ax.legend(ncol=5, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.35))
    return fig


def switch_and_aggregates(demo_x, events, switch_at: int, example: list, source: str):
    """Re-detection after a period switch (top) and the SSD-aggregate forecasts of one
    replicate of the ``source`` workload against its actual traffic (bottom)."""
    fig, axes = plt.subplots(2, 1, figsize=(12, 6))
    axes[0].plot(demo_x, lw=0.6, label="series (period 60, then 120)")
    for time, period in events:
        axes[0].axvline(time, color="C3", ls=":", lw=1)
        axes[0].text(time, 1.6, f" T={period}", color="C3", fontsize=8)
    axes[0].axvline(switch_at, color="k", lw=1, label="period switch")
    axes[0].set(xlabel="time (samples)", ylabel="value", title="Re-detection after a period switch")
    axes[0].legend(loc="lower left")
    if example:
        pred = np.concatenate([p for p, _ in example])
        actual = np.concatenate([a for _, a in example])
        axes[1].plot(actual / 600 / 1e6, label="actual (predictable segments)")
        axes[1].plot(pred / 600 / 1e6, label="predicted")
        axes[1].legend()
    else:  # e.g. a short real trace: no segment had a period to forecast from
        axes[1].text(0.5, 0.5, "no predictable segment in this input", ha="center",
                     va="center", transform=axes[1].transAxes)
    for k in range(1, len(example)):
        axes[1].axvline(k * scheduling.BINS, color="C3", lw=0.8)
    axes[1].set(xlabel="10-min bins, SSD after SSD (red lines separate SSDs)",
                ylabel="traffic (MB/s)",
                title=f"Fig. 11 analogue ({source}): SSD aggregates, next 6 h")
    return fig


def tail_flow_decline(mean: pd.DataFrame, title: str):
    """Fig. 12 analogue: decline of the 99 % and 99.9 % tail flow versus the moves allowed."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4), sharey=True)
    style = {scheduling.ACTUAL_10MIN: "k--", scheduling.ACTUAL_1MIN: "k:"}  # the methods: "o-"
    for ax, col, name in zip(axes, ["decline_p99", "decline_p999"], ["99 %", "99.9 %"],
                             strict=True):
        for method in (*scheduling.METHODS, *scheduling.ACTUALS):
            part = mean.loc[method]
            ax.plot(part.index, part[col], style.get(method, "o-"), label=method)
        ax.set(xlabel="moves per 6-h interval", title=f"{name} tail flow")
    axes[0].set_ylabel("decline vs hash placement (%)")
    axes[0].legend()
    fig.suptitle(title)
    return fig


def latency_panels(series: dict, title: str, source: str):
    """Per-SSD 99.99 % and mean latency as markers, dodged by method within each SSD (no lines:
    SSD ids are categories); alternate SSDs shaded, the legend below the panels."""
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.4), layout="constrained")
    width = 0.8 / len(series)
    for k, (label, values) in enumerate(series.items()):
        for ax, ys in zip(axes, values, strict=True):
            xs = np.arange(len(ys)) + (k - (len(series) - 1) / 2) * width
            ax.plot(xs, ys, ls="none", marker="os^Dv<>"[k % 7], ms=4, label=label)
    n = len(next(iter(series.values()))[0])
    for ax in axes:
        for i in range(0, n, 2):
            ax.axvspan(i - 0.5, i + 0.5, color="grey", alpha=0.08, lw=0)
        ax.set_xticks(range(0, n, max(1, n // 16)))  # 96 SSDs: every sixth labelled
        ax.set_xlim(-0.5, n - 0.5)
        ax.grid(axis="x", visible=False)
    axes[0].set(xlabel="SSD id", ylabel="99.99 % latency (ms, log)", title="tail latency per SSD",
                yscale="log")  # 1 ms and 10 ms apart, and an overloaded SSD far above
    for which in ("major", "minor"):  # 1, 2, 10, 100 rather than 10^0, 2×10^0
        getattr(axes[0].yaxis, f"set_{which}_formatter")(
            LogFormatter(labelOnlyBase=False, minor_thresholds=(2, 0.5)))
    axes[1].set(xlabel="SSD id", ylabel="mean latency (ms)", title="average latency per SSD")
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center",
               ncol=min(len(series), 4), fontsize=9)
    fig.suptitle(f"{title} ({source}, replicate 0, interval 0)")
    return fig


def mark_hash_numbers(fig, worst_ms: float, mean_tail_ms: float, mean_ms: float):
    """Mark §5.2.1's numbers of the SSDs before scheduling on :func:`latency_panels`: the worst
    SSD's and the mean 99.99 % latency (left), the mean latency (right)."""
    tail, mean = fig.axes[:2]
    paper_line(tail, y=worst_ms, label=f"paper: worst SSD before scheduling ≈ {worst_ms:g} ms")
    paper_line(tail, y=mean_tail_ms, label=f"paper: mean 99.99 % before, {mean_tail_ms:g} ms")
    paper_line(mean, y=mean_ms, label=f"paper: mean latency before, {1e3 * mean_ms:g} µs")
    return _paper_legends(fig)


def mark_worst_cut(fig, before_ms: float, low_pct: float, high_pct: float):
    """Mark on :func:`latency_panels`' tail panel where the worst SSD lands if it is cut by
    ``low_pct``–``high_pct`` % from ``before_ms`` (the paper's range, applied to ours)."""
    paper_band(fig.axes[0], before_ms * (1 - high_pct / 100), before_ms * (1 - low_pct / 100),
               label=f"paper: worst SSD cut {low_pct:g}–{high_pct:g} % from "
               f"{before_ms:.2f} ms")
    return _paper_legends(fig)


def mark_similar(fig, reference_ms: float, low: float, high: float, words: str):
    """Mark on :func:`latency_panels`' tail panel the band ``[low, high]`` × ``reference_ms``
    that the paper's ``words`` give a method's worst SSD."""
    paper_band(fig.axes[0], reference_ms * low, reference_ms * high, label=f"paper: {words}")
    return _paper_legends(fig)


def _paper_legends(fig):
    """A legend of the paper's marks in each panel that has some (the methods' legend is the
    figure's, below the panels)."""
    for ax in fig.axes:
        marks = [(h, lab) for h, lab in zip(*ax.get_legend_handles_labels(), strict=True)
                 if h.get_gid() == PAPER_GID]
        if marks:
            ax.legend(*zip(*marks, strict=True), fontsize=8, framealpha=0.9)
    return fig


def noise_ceiling(table: pd.DataFrame, methods, theta: float = 0.7):
    """The PCC ceiling of the right period's forecast against noise variance, and each
    method's measured accuracy per noise bin of the synthetic set."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4))
    grid = np.linspace(0, 0.6, 200)
    left.plot(grid, pcc_ceiling(grid), label="3-period-mean forecast (PrecisePeriod's)")
    left.plot(grid, pcc_ceiling(grid, periods=None), "--", label="noise-free forecast")
    left.axhline(theta, color="grey", ls=":", label=f"θ = {theta:g}")
    left.axvline(noise_limit(theta), color="C3", ls=":",
                 label=f"limit σ² = {noise_limit(theta):.3f}")
    left.set(xlabel="noise variance σ² (amplitude-1 sine)", ylabel="expected PCC",
             title="PCC of the right period's forecast")
    left.legend(fontsize=8)
    xs = np.arange(len(table))
    for k, m in enumerate(methods):
        right.bar(xs + (k - (len(methods) - 1) / 2) * 0.16, table[m], 0.16, label=m)
    right.set_xticks(xs, table.index)
    right.set(xlabel="noise variance σ² bin", ylabel="accuracy (±2 %)", ylim=(0, 1.05),
              title="Measured accuracy per noise bin (synthetic)")
    right.legend(fontsize=8, ncol=2)
    return fig


def real_vm_answers(counts: pd.DataFrame):
    """Per detector, how many real VMs got each kind of answer (the columns of ``counts``, in
    order: daily cycle, a harmonic, another period, none), as stacked bars."""
    fig, ax = plt.subplots(figsize=(9, 3.5))
    left = np.zeros(len(counts))
    colours = ("#2a9d8f", "#8ab17d", "#e76f51", "#bbbbbb")
    for column, colour in zip(counts.columns, colours, strict=True):
        ax.barh(counts.index, counts[column], left=left, color=colour, label=column)
        left += counts[column].to_numpy()
    ax.set(xlabel="real VMs", title="Each detector's answers on the real VMs (one day = 48)")
    ax.invert_yaxis()
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0)
    return fig
