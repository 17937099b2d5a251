"""The figures of notebook 02: each function draws one figure from the experiment's tables and
returns it (the notebook saves it with its caption)."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from matplotlib.colors import LogNorm
from matplotlib.lines import Line2D
from matplotlib.patches import Patch, Rectangle
from matplotlib.ticker import NullFormatter, StrMethodFormatter
from matplotlib.transforms import blended_transform_factory

from storrepro.papers.accgecko.experiment import LITERAL
from storrepro.suite.plotting import paper_point

ERROR_SERIES = [
    ("avg_positive_%", "avg positive"),
    ("max_positive_%", "max positive"),
    ("avg_negative_%", "avg negative"),
    ("max_negative_%", "max negative"),
]
FEATURE_LABELS = {
    "intensity": "mean burst intensity",
    "total_burst_ms": "total burst time",
    "mean_duration_ms": "mean continuous-burst duration",
    "max_duration_ms": "max continuous-burst duration",
}
#: how the admission figure labels a method
METHOD_LABELS = {"AccTail": "AccGecko (AccTail)", "BurstQueue": "BurstQueue (ours)",
                 "Exact": "exact replay (reference)"}


def pool_features(segs: pd.DataFrame):
    """Histograms of the three burst dimensions of every segment, per generator."""
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.4))
    columns = [
        ("intensity", "mean burst intensity (× mean rate)"),
        ("total_burst_ms", "total burst time per segment (ms)"),
        ("max_duration_ms", "max continuous-burst duration (ms)"),
    ]
    for ax, (col, label) in zip(axes, columns, strict=True):
        for gen, part in segs.groupby("generator"):
            ax.hist(part[col], bins=30, alpha=0.7, label=gen)
        ax.set(xlabel=label, ylabel="segments")
    axes[0].legend()
    fig.suptitle("Burst dimensions of every segment in the pool (M_b = 2, Δ = 1 ms)")
    return fig


def burst_time_vs_p999(segs: pd.DataFrame):
    """Fig. 2 analog: p99.9 at 3000 IOPS against total burst time, coloured by density."""
    fig, ax = plt.subplots()
    sc = ax.scatter(
        segs.total_burst_ms, segs["p99.9"] / 1e3, c=segs.max_duration_ms, s=10, norm=LogNorm()
    )
    fig.colorbar(sc, label="max continuous-burst duration (ms)")
    ax.set(
        xlabel="total burst time in the segment (ms)",
        ylabel="p99.9 latency (ms)",
        yscale="log",
        title="Fig. 2 analog: p99.9 at 3000 IOPS against burst probability, one point per segment",
    )
    return fig


def spearman_bars(rho: pd.DataFrame, segments: int):
    """Fig. 3 analog: ρ of each feature against each percentile, with its bootstrap CI (a
    percentile CI that does not hold ρ, as on a few segments, is drawn from ρ to its far end)."""
    fig, ax = plt.subplots(figsize=(8, 4))
    features, percentiles = rho.feature.unique(), rho.p.unique()
    width = 0.8 / len(features)
    for i, feat in enumerate(features):
        part = rho[rho.feature == feat]
        x = np.arange(len(percentiles)) + (i - (len(features) - 1) / 2) * width
        err = np.clip([part.rho - part.lo, part.hi - part.rho], 0, None)
        ax.bar(x, part.rho, width, yerr=err, capsize=2, label=FEATURE_LABELS.get(feat, feat))
    ax.set_xticks(np.arange(len(percentiles)), [f"p{p:g}" for p in percentiles])
    ax.set(
        ylabel="Spearman ρ with the latency percentile",
        ylim=(-0.2, 1),
        title=f"Fig. 3 analog: burst features vs latency at 3000 IOPS ({segments} segments, "
        "95 % CI)",
    )
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), title="burst feature")
    return fig


def ccdf_vs_snc(curves: dict):
    """Fig. 4 analog: the replicas' latency CCDF against the MMPP + SNC bound."""
    fig, ax = plt.subplots()
    for (name, c), colour in zip(curves.items(), ["C0", "C1", "C2"], strict=False):
        lat = c["latency"]
        frac = 1 - np.arange(lat.size) / lat.size
        keep = frac <= 0.2
        ax.plot(frac[keep][::20], lat[keep][::20] / 1e3, color=colour, label=f"{name} actual")
        ax.plot(c["eps"], c["bound"] / 1e3, "o", color=colour, ms=4, label=f"{name} MMPP+SNC")
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="fraction of requests with latency ≥ y",
        ylabel="latency (ms)",
        title="Fig. 4 analog: CCDF at 3000 IOPS, T1–T3 replicas",
    )
    ax.invert_xaxis()
    ax.legend(ncol=2, fontsize=8)
    return fig


def count_distribution(study: dict):
    """Fig. 5 analog: the per-ms count distribution, actual against the MMPP's."""
    values = study["values"]
    fig, ax = plt.subplots()
    ax.bar(values - 0.2, 100 * study["actual_pmf"], 0.4, label="actual")
    ax.bar(values + 0.2, 100 * study["model_pmf"], 0.4, label="MMPP (LAMBDA states, Poisson)")
    rates = np.round(study["lambda_rates"], 2).tolist()
    ax.set(
        yscale="log",
        xlabel="requests in a 1 ms period",
        ylabel="probability (%)",
        title=f"Fig. 5 analog: per-ms counts (LAMBDA rates {rates})",
    )
    ax.legend()
    return fig


def _mark(ax, xi, value, colour, lo, width, seen) -> None:
    """A bar that cannot be drawn on the log axis: hatched to the top for an infinite error, a
    marker at the bottom for zero, below the floor or missing."""
    at = blended_transform_factory(ax.transData, ax.transAxes)
    if np.isposinf(value):
        seen.add("inf")
        box = Rectangle((xi - width / 2, 0), width, 1, transform=at, fc="none", ec=colour, lw=1)
        box.set_hatch("///")
        ax.add_patch(box)
        ax.text(xi, 0.5, "unbounded", transform=at, rotation=90, ha="center", va="center",
                fontsize=7, bbox={"fc": "white", "ec": "none", "pad": 1})  # fmt: skip
        return
    text = "n/a" if np.isnan(value) else "0" if value == 0 else f"≤ {lo:g}"
    seen.add(text)
    ax.plot(xi, 0.015, "o", ms=4, mfc="white", mec=colour, transform=at, clip_on=False)
    ax.text(xi, 0.04, text, transform=at, ha="center", va="bottom", fontsize=7,
            rotation=0 if len(text) == 1 else 90)  # fmt: skip


def _legend(series, seen: set, lo: float) -> list:
    handles = [Patch(color=f"C{i}", label=label) for i, (_, label) in enumerate(series)]
    if "inf" in seen:
        handles.append(Patch(fc="none", ec="0.3", hatch="///", label="unbounded (infinite error)"))
    meaning = {"0": "0: zero error", "n/a": "n/a: no value", f"≤ {lo:g}": f"≤ {lo:g}: below axis"}
    marks = [meaning[t] for t in meaning if t in seen]
    if marks:
        handles.append(
            Line2D([], [], ls="", marker="o", mfc="white", mec="0.3", label="; ".join(marks))
        )
    return handles


def log_bars(axes, parts, series, width, floor=0.01) -> list:
    """Grouped bars of errors (%) on one log axis where no value vanishes: an infinite error is a
    hatched bar to the top labelled "unbounded", a zero a marker labelled "0" at the bottom (a
    value at or below the axis floor "≤ floor", a missing one "n/a"). Returns legend handles."""
    vals = np.concatenate([p[c].to_numpy(float) for p in parts for c, _ in series])
    pos = vals[np.isfinite(vals) & (vals > 0)]
    lo = max(floor, 10 ** np.floor(np.log10(pos.min() / 2))) if pos.size else 1.0
    hi = 10 ** np.ceil(np.log10(pos.max() * 2)) if pos.size else 100.0
    seen: set = set()
    for ax, part in zip(axes, parts, strict=True):
        ax.set(yscale="log", ylim=(lo, hi))
        for i, (col, _) in enumerate(series):
            x = np.arange(len(part)) + (i - (len(series) - 1) / 2) * width
            v = part[col].to_numpy(float)
            bar = np.isfinite(v) & (v > lo)
            ax.bar(x[bar], v[bar] - lo, width, bottom=lo, color=f"C{i}")
            for xi, vi in zip(x[~bar], v[~bar], strict=True):
                _mark(ax, xi, vi, f"C{i}", lo, width, seen)
        ax.yaxis.set_major_formatter(StrMethodFormatter("{x:g}"))
        ax.yaxis.set_minor_formatter(NullFormatter())
        ax.tick_params(labelleft=True)
    return _legend(series, seen, lo)


def error_bars(err: pd.DataFrame, names: list[str], title: str):
    """Avg and max positive and negative errors of ``names`` (Fig. 8–10 analogs)."""
    percentiles = err.index.unique("p")
    fig, axes = plt.subplots(1, len(percentiles), figsize=(11, 3.8), sharey=True)
    parts = [err.xs(p, level="p").loc[names] for p in percentiles]
    handles = log_bars(axes, parts, ERROR_SERIES, 0.2)
    for ax, p in zip(axes, percentiles, strict=True):
        ax.set_xticks(np.arange(len(names)), names)
        ax.set(title=f"p{p:g} SLOs", xlabel="method", ylabel="prediction error (%, log scale)")
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0), ncol=len(handles),
               fontsize=8)  # fmt: skip
    fig.suptitle(title)
    return fig


def method_errors(f11: pd.DataFrame, names: list[str], percentiles):
    """Fig. 11 analog: average and maximum total error of each method, one panel per p."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    parts = [f11.loc[p].loc[names] for p in percentiles]
    handles = log_bars(axes, parts, [("mean", "average"), ("max", "maximum")], 0.4)
    for ax, p in zip(axes, percentiles, strict=True):
        ax.set_xticks(np.arange(len(names)), names)
        ax.set(title=f"p{p:g} SLOs", ylabel="prediction error (%, log scale)", xlabel="method")
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0), ncol=len(handles))
    fig.suptitle("Fig. 11 analog: prediction error of PM, SNCM and AccTail (log scale)")
    return fig


def admitted(summary: pd.DataFrame, shown: list[str], capacity: float, candidates: int,
             paper_gain: dict | None = None):
    """Fig. 12 analog: tenants admitted per method, normalised to SNCM, mean ± 95 % CI;
    ``paper_gain`` (SLO percentile -> AccGecko's gain over SNCM the paper reports) is marked on
    AccTail's bars."""
    fig, ax = plt.subplots(figsize=(8, 4.2), layout="constrained")
    ref = summary[summary.method == "SNCM"].admitted.to_numpy()
    width = 0.8 / len(shown)
    for i, name in enumerate(shown):
        part = summary[summary.method == name]
        x = np.arange(2) + (i - (len(shown) - 1) / 2) * width
        ax.bar(x, part["vs SNCM"], width, yerr=part.ci95 / ref, capsize=3,
               label=METHOD_LABELS.get(name, name))  # fmt: skip
        if name == "AccTail" and paper_gain:
            gains = [paper_gain[p] for p in (99.0, 99.9)]
            paper_point(ax, x, [1 + g for g in gains], label="paper: AccGecko "
                        + " / ".join(f"{100 * g:+.0f} %" for g in gains) + " vs SNC-Meister")
    ax.set_xticks(range(2), ["p99 SLOs", "p99.9 SLOs"])
    ax.set(
        ylabel="tenants admitted / SNCM",
        title=f"Fig. 12 analog: tenants admitted (C = {capacity:,.0f} IOPS, {candidates} "
        "candidates)",
    )
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncol=3, fontsize=8)
    return fig


def why_underpredicts(hand: dict):
    """The longest continuous burst of one segment against AccTail's even spread, and the
    segment's replayed p99 against AccTail's and the burst-queue model's predictions."""
    burst, rates = hand["burst"], hand["rates"]
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.6))
    axes[0].bar(np.arange(burst.size), burst, color="C0", label="requests per ms (actual)")
    axes[0].axhline(burst.mean(), color="C1",
                    label=f"AccTail's even spread: {burst.mean():.2f} per ms")  # fmt: skip
    axes[0].axhline(hand["threshold"], color="k", ls=":",
                    label=f"threshold M × mean = {hand['threshold']:g} per ms")  # fmt: skip
    axes[0].set(xlabel="ms within the continuous burst", ylabel="requests",
                title=f"Longest continuous burst ({burst.size} ms, {burst.sum()} requests)")
    axes[0].legend(fontsize=8)
    axes[1].plot(rates, hand["truth"], color="grey", label="replay (truth)")
    axes[1].plot(rates, hand["queue"], "--", label="BurstQueue (ours, per-ms counts)")
    axes[1].plot(rates, hand["acctail"], label="AccTail (M = 1.5, k = 1)")
    axes[1].set(xlabel="fixed service rate (IOPS)", ylabel="p99 latency (µs)", yscale="log",
                title="One segment: p99 against the service rate")  # fmt: skip
    axes[1].legend(fontsize=8)
    return fig


def acctail_live(curve: dict, table: pd.DataFrame, m: float, k: int):
    """AccTail's predicted p99 against the replay at every rate, and its allocations."""
    fig, ax = plt.subplots(figsize=(7, 3), layout="constrained")
    ax.plot(curve["rates"], curve["truth"], color="grey", label="true p99 (replay)")
    ax.plot(curve["model_rates"], curve["predicted"], label="AccTail prediction")
    ax.plot(table["rate (IOPS)"], table["predicted (µs)"], "o", color="C1",
            label="allocated for an SLO")  # fmt: skip
    ax.set(xlabel="fixed service rate (IOPS)", ylabel="p99 latency (µs)", yscale="log",
           title=f"AccTail with M = {m:g}, k = {k} on one segment")  # fmt: skip
    ax.legend(fontsize=8)
    return fig


def intensity_sensitivity(shown: pd.DataFrame):
    """The burst-intensity row: per intensity, the share of admitted tenants violating their SLO
    (left) and the gain in tenants admitted over SNC-Meister (right), for AccGecko under the
    primary and the literal reading and for the exact-replay reference; p99 solid, p99.9 dashed."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8))
    series = [("AccGecko", "AccGecko, primary reading", "C0"),
              ("AccGecko (literal)", "AccGecko, literal reading (trn = segment, ε fixed)", "C1"),
              ("Exact", "exact replay of the modelled segment (reference)", "C2")]  # fmt: skip
    for p, style in ((99.0, "-o"), (99.9, "--s")):
        part = shown.xs(p, level="p")
        for name, label, colour in series:
            for ax, column in zip(axes, ("violating %", "gain %"), strict=True):
                ax.plot(part.index, part[f"{name} {column}"], style, color=colour,
                        label=f"{label}, p{p:g}")  # fmt: skip
    axes[0].set(xlabel="burst intensity (× the mean rate)", ylabel="admitted tenants violating "
                "their SLO (%)", title="SLO safety")  # fmt: skip
    axes[1].axhline(0, color="grey", lw=0.8)
    axes[1].set(xlabel="burst intensity (× the mean rate)", ylabel="tenants admitted over "
                "SNC-Meister (%)", title="Gain over SNC-Meister")  # fmt: skip
    axes[0].legend(fontsize=7)
    fig.suptitle("The pool's tenants with every burst at 2–10× the mean rate (the paper: "
                 "typically 2–10×)")
    return fig


def replica_negative(errors: pd.DataFrame):
    """DB+25µs's negative error on the Table 1 replicas per SLO, one line per trace, under the
    primary reading (solid) and the literal one (dashed); p99 left, p99.9 right."""
    fig, axes = plt.subplots(1, 2, figsize=(11, 3.8), sharey=True)
    part = errors[errors.method == "DB+25µs"]
    for ax, p in zip(axes, (99.0, 99.9), strict=True):
        for label, style in (("primary", "-o"), (LITERAL, "--s")):
            for i, (trace, rows) in enumerate(part[(part.reading == label) & (part.p == p)]
                                              .groupby("trace")):  # fmt: skip
                ax.plot(rows.slo_us / 1000, rows["negative_%"], style, color=f"C{i}",
                        label=f"{trace}, {'primary' if label == 'primary' else 'literal'}")
        ax.set(xscale="log", xlabel="SLO (ms)", title=f"p{p:g}")
    axes[0].set_ylabel("negative error (%)")
    axes[0].legend(fontsize=7)
    fig.suptitle("DB+25µs on the Table 1 replicas: negative error per SLO (the paper: 0 %)")
    return fig
