"""The claims picture: one figure per paper, every verdict at a glance, drawn from its result.

Each test claim is a row (core claims first, marked ★; a notebook without tests draws its core
claims), on its own axis and in its own units, since a paper's claims measure different things:

- the paper's band as a shaded span (an arrow where it is open-ended), when the claim keeps the
  band's edges (``band_range``); a band known only in words says so on the row;
- our estimate (the dot, filled with the verdict's colour) and its 95 % interval (the bar);
- the per-replicate values behind the interval (``uncertainty["samples"]``), as a strip of
  grey points, spread up and down by a jitter of fixed seed (the same picture on every run);
- on the right, the verdict, the input it was judged on (stand-in, real data for an id ending in
  ``-real``, or the user's trace) and ↺ with each reading that changes the verdict
  (``decided_by``) and the verdict it gives.

:func:`draw` builds the figure from a result dict; :func:`save` writes it to
``figures/<notebook>/claims.png``, which the run does when it finishes and the site and the
scorecard show first.
"""

from __future__ import annotations

import math
from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from storrepro.suite.claims import VERDICT_COLOURS

FILE = "claims.png"
#: What every claims picture shows, said once under it (site, scorecard, README).
CAPTION = (
    "Every test claim is a row (★ core claims first), each on its own scale and in its own "
    "units: the shaded span is the band of values the paper's words allow (an arrow: open on "
    "that side), the dot our estimate with its 95 % interval, filled with the verdict's colour, "
    "the grey points the values of the single replicates. On the right: the verdict, the input "
    "it was judged on, and ↺ each reading of the paper's open choices that changes it."
)
#: The interval's and the dot's outline, and the band's shade.
_EDGE = "#333333"
_BAND = "#9e9e9e"
_ROW_INCHES = 0.46
_WIDTH_INCHES = 7.2
_LABEL_CHARS = 46
_MARK_CHARS = 40
#: How far the replicate points spread up and down their row (of the row's -0.5..0.5).
_JITTER = 0.22


def rows(result: dict) -> list[dict]:
    """The claims a picture draws, in order: the headline's core claims, then the other test
    claims as the result lists them."""
    by_id = {c["id"]: c for c in result["claims"]}
    core = [by_id[c] for c in result["headline"]["core"] if c in by_id]
    rest = [c for c in result["claims"] if c["role"] == "test" and c["id"] not in
            result["headline"]["core"]]
    return core + rest


def input_of(claim: dict, result: dict) -> str:
    """What the claim was judged on: ``real data`` for an id ending in ``-real``, else the
    run's input (``synthetic stand-in``, or the user's trace)."""
    if claim["id"].endswith("-real"):
        return "real data"
    words = str(result.get("input") or "synthetic stand-in")
    return "stand-in" if words == "synthetic stand-in" else words


def reading_marks(claim: dict) -> list[str]:
    """``"trn: partly"`` for each alternative reading under which the verdict differs."""
    return [f"{label}: {alt['verdict']}" for label, alt in claim.get("by_reading", {}).items()
            if alt["verdict"] != claim["verdict"]]


def _finite(x) -> float | None:
    try:
        x = float(x)
    except (TypeError, ValueError):
        return None
    return x if math.isfinite(x) else None


def estimate(claim: dict) -> tuple[float | None, tuple[float, float] | None, list[float]]:
    """The claim's estimate, its 95 % interval and its per-replicate values (finite ones)."""
    u = claim.get("uncertainty") or {}
    mean = _finite(u.get("mean"))
    ci = u.get("ci95")
    ci = tuple(map(_finite, ci)) if ci else None
    ci = ci if ci and None not in ci else None
    samples = [x for x in map(_finite, u.get("samples") or []) if x is not None]
    return mean, ci, samples


def band_edges(claim: dict) -> tuple[float, float] | None:
    """The band's ``(low, high)`` (either may be infinite), or None when it is known in words
    only."""
    b = claim.get("band_range")
    if not b:
        return None
    low, high = float(b["low"]), float(b["high"])
    return low, high


def limits(claim: dict) -> tuple[float, float] | None:
    """The row's x range: every finite edge, estimate, interval end and replicate value, with a
    margin; None when the row has no number to draw."""
    mean, ci, samples = estimate(claim)
    edges = band_edges(claim) or ()
    xs = [x for x in [*edges, mean, *(ci or ()), *samples] if _finite(x) is not None]
    if not xs:
        return None
    lo, hi = min(xs), max(xs)
    span = hi - lo or max(abs(lo), 1.0) * 0.2
    return lo - 0.12 * span, hi + 0.12 * span


def _cut(text: str, chars: int) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= chars else text[: chars - 1].rstrip() + "…"


def _label(claim: dict, core: bool) -> str:
    statement = _cut(claim["statement"], _LABEL_CHARS)
    return f"{'★ ' if core else ''}{claim['id']}\n{statement}"


def strip(samples: list[float]) -> tuple[np.ndarray, np.ndarray]:
    """Where the replicate points go: at their values, spread up and down by a jitter drawn
    from a fixed seed (the same picture on every run), none for a single point."""
    jitter = np.random.default_rng(0).uniform(-_JITTER, _JITTER, len(samples))
    return np.asarray(samples, dtype=float), jitter if len(samples) > 1 else np.zeros(1)


def _draw_row(ax, claim: dict, result: dict, core: bool) -> None:
    colour = VERDICT_COLOURS.get(claim["verdict"], "#ffffff")
    mean, ci, samples = estimate(claim)
    if samples:
        ax.scatter(*strip(samples), s=2.2**2, color="#757575", alpha=0.6, linewidths=0,
                   zorder=2)
    ax.set_facecolor("white")
    ax.text(-0.03, 0.5, _label(claim, core), transform=ax.transAxes, ha="right", va="center",
            fontsize=7.5, linespacing=1.3)
    marks = [_cut(m, _MARK_CHARS) for m in reading_marks(claim)]
    right = f"{claim['verdict']} · {input_of(claim, result)}"
    if marks:  # at most two lines of them: the claims page lists every reading's verdict
        more = f" (and {len(marks) - 2} more)" if len(marks) > 2 else ""
        right += "".join(f"\n↺ {m}" for m in marks[:2]) + more
    ax.text(1.03, 0.5, right, transform=ax.transAxes, ha="left", va="center", fontsize=7.5,
            bbox={"boxstyle": "round,pad=0.25", "fc": colour, "ec": "none"})
    ax.set_yticks([])
    ax.set_ylim(-0.5, 0.5)
    ax.grid(False)
    for side in ("left", "right", "top"):
        ax.spines[side].set_visible(False)
    ax.tick_params(axis="x", labelsize=6.5, length=2, pad=1)
    span = limits(claim)
    if span is None:
        ax.set_xticks([])
        ax.spines["bottom"].set_visible(False)
        u = claim.get("uncertainty")
        why = claim.get("no_uncertainty") or ("the estimate is not finite" if u else "no interval")
        ax.text(0.0, 0.0, _cut(f"no number to draw: {why}", 58), transform=ax.transAxes,
                ha="left", va="center", fontsize=6.5, color="#555555")
        return
    ax.set_xlim(*span)
    ax.xaxis.set_major_locator(MaxNLocator(4))
    ax.ticklabel_format(axis="x", useOffset=False)
    edges = band_edges(claim)
    if edges is None:
        ax.text(0.99, 0.92, "band in words", transform=ax.transAxes, ha="right", va="top",
                fontsize=6, color="#555555", style="italic")
    else:
        low, high = edges
        ax.axvspan(max(low, span[0]), min(high, span[1]), color=_BAND, alpha=0.35, lw=0,
                   zorder=0)
        for edge, arrow, where in ((low, "←", 0.01), (high, "→", 0.99)):
            if not math.isfinite(edge):
                ax.text(where, 0.92, arrow, transform=ax.transAxes, fontsize=7, va="top",
                        ha="left" if arrow == "←" else "right", color="#444444")
        unit = (claim.get("band_range") or {}).get("unit")
        if unit:
            ax.text(1.0, -0.02, unit, transform=ax.transAxes, ha="right", va="top",
                    fontsize=6, color="#555555")
    if ci is not None:
        ax.plot(ci, (0, 0), color=_EDGE, lw=1.6, solid_capstyle="butt", zorder=3)
        ax.plot([ci[0]] * 2, (-0.16, 0.16), color=_EDGE, lw=1, zorder=3)
        ax.plot([ci[1]] * 2, (-0.16, 0.16), color=_EDGE, lw=1, zorder=3)
    if mean is not None:
        ax.plot([mean], [0], "o", ms=6.5, mfc=colour, mec=_EDGE, mew=1, zorder=4)


def draw(result: dict) -> plt.Figure:
    """The claims picture of ``result`` (a ``results/<notebook>.json`` as read)."""
    claims = rows(result)
    if not claims:
        raise ValueError(f"{result['notebook']}: no test or core claim to draw")
    core = set(result["headline"]["core"])
    height = 0.75 + _ROW_INCHES * len(claims)
    fig, axes = plt.subplots(len(claims), 1, figsize=(_WIDTH_INCHES, height), squeeze=False)
    fig.subplots_adjust(left=0.36, right=0.70, top=1 - 0.62 / height, bottom=0.2 / height,
                        hspace=0.9)
    for ax, claim in zip(axes[:, 0], claims, strict=True):
        _draw_row(ax, claim, result, claim["id"] in core)
    n_core = sum(c["id"] in core for c in claims)
    if 0 < n_core < len(claims):  # a rule between the core claims and the others
        y = (axes[n_core - 1, 0].get_position().y0 + axes[n_core, 0].get_position().y1) / 2
        fig.add_artist(Line2D([0.02, 0.98], [y, y], color="#888888", lw=0.8, ls="--"))
    h = result["headline"]
    fig.suptitle(f"{h['verdict']} ({_core_line(result)}) · {_cut(result['paper'], 60)}",
                 x=0.02, ha="left", fontsize=9.5, fontweight="bold")
    fig.text(0.02, 1 - 0.42 / height, f"input: {result.get('input') or 'synthetic stand-in'} · "
             "shaded: the paper's band · dot and bar: ours, 95 % interval · grey: replicates",
             fontsize=7, color="#444444", va="top")
    return fig


def _core_line(result: dict) -> str:
    core = result["headline"]["core"]
    verdicts = {c["id"]: c["verdict"] for c in result["claims"]}
    held = sum(verdicts.get(c) == "reproduced" for c in core)
    return f"{held} of {len(core)} core claims reproduced"


def save(result: dict, out: Path) -> Path:
    """Draw ``result``'s picture into ``out/figures/<notebook>/claims.png`` (the provenance in
    its metadata, as every figure's) and return its path."""
    from storrepro.suite.plotting import STYLE, save_figure

    with mpl.rc_context(STYLE):  # savefig reads the style too (a tight box round the labels)
        fig = draw(result)
        try:
            meta = {"notebook": result["notebook"], "commit": str(result.get("git_commit")),
                    "profile": str(result.get("profile")), "seed": str(result.get("seed"))}
            (path,) = save_figure(fig, result["notebook"], Path(FILE).stem, out=out,
                                  metadata=meta, formats=("png",))
        finally:
            plt.close(fig)
    return path


def relative_path(notebook: str) -> str:
    """Where a notebook's claims picture lives, relative to the output folder."""
    return f"figures/{notebook}/{FILE}"
