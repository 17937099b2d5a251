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

from storrepro.papers.accgecko import claims
from storrepro.papers.accgecko.experiment import LITERAL
from storrepro.suite.plotting import paper_band, paper_line, paper_point

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


def _no_negative(names) -> dict:
    return {(p, m, "max_negative_%"): claims.A0_PAPER for m in names for p in claims.P}


#: The paper's values on the error figures, {(p, method, column): %}: Fig. 8's negative errors
#: and DB+25µs's positive ones (A1-A4), Fig. 9's avg positive error of M = 2 and 1.5 (A5),
#: Fig. 10's best k (A6); c = 25 µs leaves AccTail's variants no negative error (A0).
FIG8_PAPER = {
    **{(p, m, "max_negative_%"): v for m, by_p in claims.FIG8_NEGATIVE.items()
       for p, v in by_p.items()},
    **{(p, "DB+25µs", f"{stat}_positive_%"): v for stat, by_p in claims.A4_PAPER.items()
       for p, v in by_p.items()},
}  # fmt: skip
FIG9_PAPER = {**{(p, m, "avg_positive_%"): v for m, by_p in claims.A5_PAPER.items()
                 for p, v in by_p.items()}, **_no_negative(claims.A5_PAPER)}  # fmt: skip
FIG10_PAPER = {**{(p, f"k={k}", "avg_positive_%"): v for p, (k, v) in claims.A6_PAPER.items()},
               **_no_negative(claims.A0_METHODS[1:])}  # fmt: skip
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


def spearman_bars(rho: pd.DataFrame, segments: int, strong: float | None = None):
    """Fig. 3 analog: ρ of each feature against each percentile, with its bootstrap CI (a
    percentile CI that does not hold ρ, as on a few segments, is drawn from ρ to its far end);
    ``strong``: the ρ below which the paper finds every feature (marked)."""
    fig, ax = plt.subplots(figsize=(8, 4))
    features, percentiles = rho.feature.unique(), rho.p.unique()
    width = 0.8 / len(features)
    for i, feat in enumerate(features):
        part = rho[rho.feature == feat]
        x = np.arange(len(percentiles)) + (i - (len(features) - 1) / 2) * width
        err = np.clip([part.rho - part.lo, part.hi - part.rho], 0, None)
        ax.bar(x, part.rho, width, yerr=err, capsize=2, label=FEATURE_LABELS.get(feat, feat))
    if strong is not None:
        paper_line(ax, y=strong, label=f"paper: no feature strongly correlated, |ρ| < {strong:g}")
    ax.set_xticks(np.arange(len(percentiles)), [f"p{p:g}" for p in percentiles])
    ax.set(
        ylabel="Spearman ρ with the latency percentile",
        ylim=(-0.2, 1),
        title=f"Fig. 3 analog: burst features vs latency at 3000 IOPS ({segments} segments, "
        "95 % CI)",
    )
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), title="burst feature")
    return fig


def ccdf_vs_snc(curves: dict, spread: dict | None = None, looseness: dict | None = None):
    """Fig. 4 analog: the replicas' latency CCDF against the MMPP + SNC bound; the paper's
    ``spread`` (M5: the replicas' actual p99.9 ``ratio`` apart, the bound's ``spread %``) and
    ``looseness`` (M6: the bound ``mean`` and ``max`` × the actual) marked on ours."""
    fig, ax = plt.subplots(figsize=(7.0, 5.0))
    for (name, c), colour in zip(curves.items(), ["C0", "C1", "C2"], strict=False):
        lat = c["latency"]
        frac = 1 - np.arange(lat.size) / lat.size
        keep = frac <= 0.2
        ax.plot(frac[keep][::20], lat[keep][::20] / 1e3, color=colour, label=f"{name} actual")
        ax.plot(c["eps"], c["bound"] / 1e3, "o", color=colour, ms=4, label=f"{name} MMPP+SNC")
    if spread:
        _mark_spread(ax, curves, spread)
    if looseness:
        _mark_looseness(ax, curves, looseness)
    ax.set(
        xscale="log",
        yscale="log",
        xlabel="fraction of requests with latency ≥ y",
        ylabel="latency (ms)",
        title="Fig. 4 analog: CCDF at 3000 IOPS, T1–T3 replicas",
    )
    ax.invert_xaxis()
    ax.legend(ncol=2, fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14))
    return fig


P999 = 1e-3  # the CCDF's fraction at p99.9


def _mark_spread(ax, curves: dict, paper: dict) -> None:
    """M5 at p99.9: the highest replica's actual at the paper's ratio over our lowest, the
    bound's at the paper's spread over our lowest bound."""
    actual = min(np.quantile(c["latency"], 1 - P999) for c in curves.values())
    bound = min(np.exp(np.interp(np.log(P999), np.log(c["eps"][::-1]), np.log(c["bound"][::-1])))
                for c in curves.values())  # fmt: skip
    paper_point(ax, [P999] * 2, [actual * paper["ratio"] / 1e3,
                                 bound * (1 + paper["spread %"] / 100) / 1e3],
                f"paper: p99.9 actual {paper['ratio']:g}× apart, bound {paper['spread %']:g} % "
                "(over our lowest)")  # fmt: skip


def _mark_looseness(ax, curves: dict, paper: dict) -> None:
    """M6: where the bound would lie at the paper's mean to max fold over the replicas' actual
    (their geometric mean at each point)."""
    eps = next(iter(curves.values()))["eps"]
    actual = np.exp(np.mean([np.log(c["actual"]) for c in curves.values()], axis=0)) / 1e3
    paper_band(ax, paper["mean"] * actual, paper["max"] * actual, x=eps,
               label=f"paper: bound {paper['mean']:g}× (mean) to {paper['max']:g}× (max) the "
               "actual")  # fmt: skip


def count_distribution(study: dict, off: dict | None = None):
    """Fig. 5 analog: the per-ms count distribution, actual against the MMPP's; ``off``: the
    paper's ``mean`` and ``max`` fold error of the MMPP's probabilities (M7), marked around the
    actual (the max at our worst count, on the MMPP's side)."""
    values = study["values"]
    fig, ax = plt.subplots()
    ax.bar(values - 0.2, 100 * study["actual_pmf"], 0.4, label="actual")
    ax.bar(values + 0.2, 100 * study["model_pmf"], 0.4, label="MMPP (LAMBDA states, Poisson)")
    if off:
        _mark_fold(ax, values, 100 * study["actual_pmf"], 100 * study["model_pmf"], off)
    rates = np.round(study["lambda_rates"], 2).tolist()
    ax.set(
        yscale="log",
        xlabel="requests in a 1 ms period",
        ylabel="probability (%)",
        title=f"Fig. 5 analog: per-ms counts (LAMBDA rates {rates})",
    )
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=2, fontsize=8)
    return fig


def _mark_fold(ax, values, actual, model, off: dict) -> None:
    ok = (actual > 0) & (model > 0)
    paper_band(ax, actual[ok] / off["mean"], actual[ok] * off["mean"], x=values[ok],
               label=f"paper: MMPP {off['mean']:g}× off on average (actual ÷ or × it)")
    fold = np.maximum(model[ok] / actual[ok], actual[ok] / model[ok])
    worst = np.argmax(fold)
    up = model[ok][worst] >= actual[ok][worst]
    paper_point(ax, values[ok][worst], actual[ok][worst] * off["max"] ** (1 if up else -1),
                f"paper: at most {off['max']:g}× off (at our worst count)")


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


def paper_bars(axes, percentiles, names, columns, width: float, values: dict, label: str):
    """Mark the paper's ``values`` {(p, name, column): %} at their bars of :func:`log_bars`'
    panels (one per p), raising the axis top to hold them; a value at or below the axis floor,
    such as 0 %, at the foot where ours are. Returns the legend handle."""
    lo, hi = axes[0].get_ylim()
    top = max(values.values())
    if top >= hi:
        for ax in axes:
            ax.set_ylim(lo, 10 ** np.ceil(np.log10(top * 2)))
    marks = []
    for ax, p in zip(axes, percentiles, strict=True):
        foot = blended_transform_factory(ax.transData, ax.transAxes)
        for (i, name), (j, col) in ((a, b) for a in enumerate(names) for b in enumerate(columns)):
            if (value := values.get((p, name, col))) is None:
                continue
            x = i + (j - (len(columns) - 1) / 2) * width
            mark = paper_point(ax, x, value if value > lo else 0.015,
                               label if not marks else "_paper")
            if value <= lo:
                mark.set(transform=foot, clip_on=False)
            marks.append(mark)
    return marks[0]


def error_bars(err: pd.DataFrame, names: list[str], title: str, paper: dict | None = None,
               paper_label: str = "paper"):
    """Avg and max positive and negative errors of ``names`` (Fig. 8–10 analogs); ``paper``:
    the paper's values {(p, name, column): %}, marked (:func:`paper_bars`)."""
    percentiles = err.index.unique("p")
    fig, axes = plt.subplots(1, len(percentiles), figsize=(11, 3.8), sharey=True)
    parts = [err.xs(p, level="p").loc[names] for p in percentiles]
    handles = log_bars(axes, parts, ERROR_SERIES, 0.2)
    if paper:
        paper = {k: v for k, v in paper.items() if k[1] in names}
        handles.append(paper_bars(axes, percentiles, names, [c for c, _ in ERROR_SERIES], 0.2,
                                  paper, paper_label))
    for ax, p in zip(axes, percentiles, strict=True):
        ax.set_xticks(np.arange(len(names)), names)
        ax.set(title=f"p{p:g} SLOs", xlabel="method", ylabel="prediction error (%, log scale)")
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0),
               ncol=min(len(handles), 4), fontsize=8)  # fmt: skip
    fig.suptitle(title)
    return fig


def fig11_paper(f11: pd.DataFrame, ratios: dict) -> dict:
    """Where the paper puts each baseline's average error: its ``ratios`` {method: {p: ×}} to
    AccTail's (A8), applied to our AccTail's average."""
    return {(p, m, "mean"): f11.loc[(p, "AccTail"), "mean"] * r for m, by_p in ratios.items()
            for p, r in by_p.items()}  # fmt: skip


def method_errors(f11: pd.DataFrame, names: list[str], percentiles, paper: dict | None = None,
                  paper_label: str = "paper"):
    """Fig. 11 analog: average and maximum total error of each method, one panel per p;
    ``paper``: values {(p, name, column): %} marked (:func:`paper_bars`)."""
    fig, axes = plt.subplots(1, 2, figsize=(10, 3.8), sharey=True)
    parts = [f11.loc[p].loc[names] for p in percentiles]
    series = [("mean", "average"), ("max", "maximum")]
    handles = log_bars(axes, parts, series, 0.4)
    if paper:
        handles.append(paper_bars(axes, percentiles, names, [c for c, _ in series], 0.4, paper,
                                  paper_label))
    for ax, p in zip(axes, percentiles, strict=True):
        ax.set_xticks(np.arange(len(names)), names)
        ax.set(title=f"p{p:g} SLOs", ylabel="prediction error (%, log scale)", xlabel="method")
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0), ncol=len(handles))
    fig.suptitle("Fig. 11 analog: prediction error of PM, SNCM and AccTail (log scale)")
    return fig


def fig12_paper(over_sncm: dict, over_pm: dict) -> dict:
    """The paper's Fig. 12 in tenants admitted / SNCM, {method: ([p99, p99.9], label)}: AccGecko
    at its gain over SNC-Meister (T2, +%), PriorityMeister where AccGecko's gain over it (T3)
    puts it."""
    accgecko = [1 + over_sncm[p] / 100 for p in claims.P]
    pm = [a / (1 + over_pm[p] / 100) for a, p in zip(accgecko, claims.P, strict=True)]
    gains = " / ".join(f"+{over_sncm[p]:g} %" for p in claims.P)
    below = " / ".join(f"+{over_pm[p]:g} %" for p in claims.P)
    return {"AccTail": (accgecko, f"paper: AccGecko {gains} over SNC-Meister"),
            "PM": (pm, f"paper: PriorityMeister, AccGecko {below} over it")}


def admitted(summary: pd.DataFrame, shown: list[str], capacity: float, candidates: int,
             paper: dict | None = None):
    """Fig. 12 analog: tenants admitted per method, normalised to SNCM, mean ± 95 % CI;
    ``paper``: the paper's values {method: ([p99, p99.9], label)} (:func:`fig12_paper`)."""
    fig, ax = plt.subplots(figsize=(8, 4.2), layout="constrained")
    ref = summary[summary.method == "SNCM"].admitted.to_numpy()
    width = 0.8 / len(shown)
    for i, name in enumerate(shown):
        part = summary[summary.method == name]
        x = np.arange(2) + (i - (len(shown) - 1) / 2) * width
        ax.bar(x, part["vs SNCM"], width, yerr=part.ci95 / ref, capsize=3,
               label=METHOD_LABELS.get(name, name))  # fmt: skip
        if name in (paper or {}):
            paper_point(ax, x, *paper[name])
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
