"""The figures of notebook 05: each function draws one figure from the experiment's tables and
returns it; the notebook saves it with its caption."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from storrepro.papers.tofec.analysis import EULER_GAMMA
from storrepro.papers.tofec.claims import band_of
from storrepro.papers.tofec.claims.phases import SURGE_OPTIMAL_K
from storrepro.papers.tofec.claims.rates import TABLE as GRID_CLAIMS
from storrepro.papers.tofec.config import B1_BEST_PAPER
from storrepro.papers.tofec.delay import ModelParams, chunk_statistics
from storrepro.papers.tofec.metrics import ccdf_points, static_names
from storrepro.papers.tofec.model_checks import PAPER_TAIL_GAINS
from storrepro.papers.tofec.workload import PHASE_S
from storrepro.suite.plotting import paper_band, paper_line, paper_point

CCDF_AXES = {"yscale": "log", "ylim": (1e-4, 1), "xlim": (0, 800), "ylabel": "CCDF"}


def fig6_delay_vs_chunk_size(samples: dict[float, np.ndarray], params: ModelParams):
    """Mean and std of task delays per chunk size, all and worst 10 % dropped, with TOFEC's
    least-squares lines."""
    chunks, mean_fit, std_fit = chunk_statistics(samples)
    _, mean_raw, std_raw = chunk_statistics(samples, 0.0)
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2), layout="constrained")
    grid = np.linspace(0, 3.2, 50)
    mean_line = (params.a_shift + params.a_tail) * grid + params.b_shift + params.b_tail
    std_line = params.a_tail * grid + params.b_tail
    panels = [
        (axes[0], mean_raw, mean_fit, mean_line, "mean"),
        (axes[1], std_raw, std_fit, std_line, "standard deviation"),
    ]
    for ax, raw, kept, line, what in panels:
        ax.plot(chunks, raw, "o", label="all task delays")
        ax.plot(chunks, kept, "s", label="worst 10 % dropped")
        ax.plot(grid, line, "k--", lw=1, label="least-squares line (worst 10 % dropped)")
        ax.set(
            xlabel="chunk size B (MB)",
            ylabel=f"task delay {what} (ms)",
            xlim=(0, 3.2),
            ylim=(0, None),
            title=f"Fig. 6 analogue: {what} vs chunk size",
        )
    axes[0].legend()
    return fig


def fig4_fig5_ccdf(per_thread: np.ndarray, services: dict[int, np.ndarray]):
    """CCDF of per-thread task delays (Fig. 4) and of the (n,3) service delays (Fig. 5)."""
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), layout="constrained")
    for j in range(per_thread.shape[1]):
        axes[0].plot(*ccdf_points(per_thread[:, j]), lw=1, label=f"thread {j + 1}")
    axes[0].set(
        xlabel="task delay (ms)",
        title="Fig. 4 analogue: task delay per thread\n(1 MB chunks, 6 threads)",
        **CCDF_AXES,
    )
    axes[0].legend(ncol=2)
    for n, service in services.items():
        axes[1].plot(*ccdf_points(service), label=f"({n},3)")
    if 3 in services:  # where the paper's p99 cuts with 1, 2, 3 extra chunks put (4..6,3)
        p99 = np.percentile(services[3], 99) * (1 - np.asarray(PAPER_TAIL_GAINS))
        paper_point(axes[1], p99, [1e-2] * len(p99), "paper: p99 cut 50 / 65 / 80 %")
    axes[1].set(
        xlabel="service delay (ms)",
        title="Fig. 5 analogue: service delay, 3 MB file\n"
        "(1 MB chunks, k = 3, all tasks start together)",
        **CCDF_AXES,
    )
    axes[1].legend(title="code (n,k)")
    return fig


def fig7_integral_bound(n: int = 12):
    """The order-statistic sum of Eq. (2) against its integral bound ln(n/(n-k))."""
    fig, ax = plt.subplots()
    ks = np.arange(1, n)
    harmonic = [sum(1 / i for i in range(n - k + 1, n + 1)) for k in ks]
    ax.plot(ks, harmonic, "o-", label="Σ_{i=n−k+1}^{n} 1/i")
    ax.plot(ks, np.log(n / (n - ks)), "s--", label="ln(n/(n−k)) (integral bound)")
    paper_band(ax, np.log(n / (n - ks)) - EULER_GAMMA, np.log(n / (n - ks)), x=ks,
               label="paper: the sum within γ ≈ 0.577 below the bound")
    ax.set(
        xlabel=f"code dimension k (n = {n})",
        ylabel="multiple of the mean tail E",
        title="Fig. 7 analogue: order-statistic sum vs its integral bound",
    )
    ax.legend()
    return fig


def corollary1(opt_codes: pd.DataFrame):
    """Optimal k*, n*, r* of the relaxed problem against the mean backlog."""
    fig, ax = plt.subplots()
    labels = {"k": "k* (chunking level)", "n": "n* (code length)", "r": "r* (redundancy ratio)"}
    for c, label in labels.items():
        ax.plot(opt_codes.index, opt_codes[c], label=label)
    ax.set(
        xscale="log",
        xlabel="mean request-queue backlog E[Q] (requests)",
        ylabel="optimal value",
        title="Corollary 1: optimal code vs backlog (relaxed problem)",
    )
    ax.legend()
    return fig


def static_capacity(static_cap: pd.DataFrame):
    """Simulated capacity of the 27 static codes against L/E[U] and Eq. (4)."""
    fig, ax = plt.subplots(figsize=(10, 4))
    x = np.arange(len(static_cap))
    ax.bar(x, static_cap.simulated, 0.5, label="simulated (saturated throughput)")
    ax.plot(x, static_cap.predicted, "k_", ms=14, mew=2, label="L / E[U] (MC of the sampler)")
    ax.plot(
        x,
        static_cap["model (fitted Eq. 4)"],
        "r.",
        label="Eq. (4) with TOFEC's fitted parameters",
    )
    ax.set_xticks(x, [f"({n},{k})" for n, k in static_cap.index], rotation=90)
    ax.set(
        xlabel="static code (n,k)",
        ylabel="capacity (req/s)",
        title="Capacity of the 27 static codes (L = 16 threads, 3 MB reads)",
    )
    ax.legend()
    return fig


def _stable(pivot: dict, name: str, metric: str) -> pd.Series:
    return pivot[metric][name][pivot["trend_frac"][name] <= 0.5]


def fig1_static_codes(pivot: dict, env: dict):
    """Mean delay of every static code over its stable range, coloured by k, and the envelope."""
    fig, ax = plt.subplots(figsize=(9, 5))
    cmap = plt.get_cmap("viridis", 6)
    for name in static_names():
        k = int(name.strip("()").split(",")[1])
        ax.plot(_stable(pivot, name, "mean"), color=cmap(k - 1), lw=1, alpha=0.8)
    for k in range(1, 7):
        ax.plot([], [], color=cmap(k - 1), label=f"k = {k}")
    ax.plot(env["mean"].value, "k--", lw=2, label="lower envelope (best static)")
    paper_point(ax, 2.0, B1_BEST_PAPER, f"paper: best static ≈ {B1_BEST_PAPER:g} ms at λ = 2")
    ax.set(
        yscale="log",
        xlabel="arrival rate λ (req/s)",
        ylabel="mean delay (ms)",
        title="Fig. 1 analogue: mean delay of the 27 static codes (stable range)",
    )
    ax.legend(ncol=2)
    return fig


BASELINES = {
    "(1,1)": (":", "basic (1,1)"),
    "(2,1)": ("-.", "replication (2,1)"),
    "[3] fixed k": ("-", "[3] adaptive, k = 6"),
}


def fig8_delay_vs_rate(pivot: dict, env: dict, tofec: str, alpha: float):
    """Mean, median, p90 and p99 delay against the arrival rate (Fig. 8's four panels)."""
    fig, axes = plt.subplots(2, 2, figsize=(12, 8), sharex=True)
    panels = zip(
        axes.flat,
        ("mean", "median", "p90", "p99"),
        ("(a) mean", "(b) median", "(c) 90th percentile", "(d) 99th percentile"),
        strict=True,
    )
    for ax, metric, title in panels:
        ax.plot(env[metric].value, "k--", lw=2, label="best static")
        band = band_of(GRID_CLAIMS, "B5-mean" if metric in ("mean", "median") else "B6-p90")
        best = env[metric].value
        paper_band(ax, best * band.low, best * band.high, x=best.index,
                   label="paper: ≈ best static (×/÷ 1.15)")
        ax.plot(pivot[metric][tofec], "o-", label=f"TOFEC (α = {alpha:g})")
        ax.plot(pivot[metric]["Greedy"], "s-", label="Greedy")
        if metric in ("mean", "median"):
            for name, (style, label) in BASELINES.items():
                ax.plot(_stable(pivot, name, metric), style, lw=1, label=label)
        ax.set(yscale="log", ylabel=f"{metric} delay (ms)", title=f"Fig. 8{title}")
    for ax in axes[1]:
        ax.set_xlabel("arrival rate λ (req/s)")
    axes[0, 0].legend(fontsize=8)
    return fig


def fig9_std(pivot: dict, env: dict, tofec: str, alpha: float):
    """Standard deviation of delay against the arrival rate."""
    fig, ax = plt.subplots()
    ax.plot(env["std"].value, "k--", lw=2, label="best static")
    best = env["std"].value
    envelope = band_of(GRID_CLAIMS, "B7-envelope")
    paper_band(ax, best * envelope.low, best * envelope.high, x=best.index,
               label="paper: ≈ best static (×/÷ 1.15)")
    ax.plot(pivot["std"][tofec], "o-", label=f"TOFEC (α = {alpha:g})")
    ax.plot(pivot["std"]["Greedy"], "s-", label="Greedy")
    ax.set(
        yscale="log",
        xlabel="arrival rate λ (req/s)",
        ylabel="standard deviation of delay (ms)",
        title="Fig. 9 analogue: delay standard deviation",
    )
    ax.legend()
    return fig


def fig10_k_composition(shares: dict[str, pd.DataFrame], tofec: str, alpha: float):
    """Share of requests per k at every rate (ascending): TOFEC's bars beside Greedy's
    (hatched)."""
    shares = {p: table.sort_index() for p, table in shares.items()}
    rates = list(shares[tofec].index)
    fig, ax = plt.subplots(figsize=(13, 4.5), layout="constrained")
    x = np.arange(len(rates))
    colours = plt.get_cmap("viridis", 6)
    for offset, p, hatch in ((-0.2, tofec, ""), (0.2, "Greedy", "//")):
        bottom = np.zeros(len(rates))
        for j, c in enumerate(shares[p].columns):
            ax.bar(
                x + offset,
                shares[p][c].to_numpy(),
                0.38,
                bottom=bottom,
                color=colours(j),
                hatch=hatch,
                edgecolor="white",
                lw=0.3,
                label=f"k = {j + 1}" if offset < 0 else None,
            )
            bottom += shares[p][c].to_numpy()
    paper_line(ax, y=band_of(GRID_CLAIMS, "B8-top2").low,
               label="paper: over 80 % in two neighbouring k")
    ax.set_xticks(x, [f"{r:g}" for r in rates], rotation=45)
    ax.set(
        xlabel="arrival rate λ (req/s)   (left bar TOFEC, right hatched bar Greedy)",
        ylabel="fraction of requests",
        title=f"Fig. 10 analogue: composition of k (TOFEC α = {alpha:g} | Greedy)",
    )
    ax.legend(loc="center left", bbox_to_anchor=(1.0, 0.5), title="code dimension")
    return fig


def live_k_mix(results: dict[str, dict], rate: float, alpha: float, c_full: float):
    """The interactive control's figure: the k mix of each policy of one run, with its delays."""
    fig, ax = plt.subplots(figsize=(8, 3), layout="constrained")
    for offset, (name, m) in zip((-0.2, 0.2), results.items(), strict=True):
        shares = [m[f"k{k}"] for k in range(1, 7)]
        ax.bar(
            np.arange(1, 7) + offset,
            shares,
            0.38,
            label=f"{name}: mean {m['mean']:.0f} ms, p99 {m['p99']:.0f} ms",
        )
    ax.set(
        xlabel="code dimension k",
        ylabel="fraction of requests",
        ylim=(0, 1),
        title=f"λ = {rate:g} req/s (C_full ≈ {c_full:.0f}), α = {alpha:g}",
    )
    ax.legend()
    return fig


def fig11_changing_workload(traces: dict[str, dict], surge: float):
    """Delays (sampled), mean k in 2-s bins, and the first 10 s after the drop, per policy."""
    fig, axes = plt.subplots(3, 1, figsize=(11, 11), layout="constrained")
    bins = np.arange(0, 601, 2.0)
    for (p, tr), c in zip(traces.items(), ("C0", "C1", "C2", "C3"), strict=True):
        every = max(len(tr["t"]) // 1500, 1)
        axes[0].plot(tr["t"][::every], tr["delay"][::every], ".", ms=2, color=c, label=p)
        idx = np.digitize(tr["t"], bins) - 1
        mean_k = [
            tr["k"][idx == i].mean() if (idx == i).any() else np.nan for i in range(len(bins) - 1)
        ]
        axes[1].plot(bins[:-1], mean_k, color=c, label=p)
        zoom = (tr["t"] >= 400) & (tr["t"] < 410)
        axes[2].plot(tr["t"][zoom], tr["delay"][zoom], ".-", ms=3, lw=0.5, color=c, label=p)
    axes[0].set(
        yscale="log",
        xlabel="arrival time (s)",
        ylabel="delay (ms)",
        title=f"Fig. 11(a) analogue: delays, 10 → {surge:.0f} → 10 req/s (seed 0, sampled)",
    )
    # the paper: TOFEC converges to the optimal code k = 1 in the surge (phase 2; claim B9a)
    paper_line(axes[1], x=[PHASE_S, 2 * PHASE_S], y=[SURGE_OPTIMAL_K] * 2,
               label=f"paper: optimal k = {SURGE_OPTIMAL_K} in the surge")
    axes[1].set(
        xlabel="arrival time (s)", ylabel="mean k (2-s bins)", title="Fig. 11(b): code dimension k"
    )
    axes[2].set(
        yscale="log",
        xlabel="arrival time (s)",
        ylabel="delay (ms)",
        title="Fig. 11(c): first 10 s of phase 3",
    )
    for ax in axes:
        ax.legend(fontsize=8)
    return fig
