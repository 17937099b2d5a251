"""One figure style for every notebook, and atomic figure files that carry their provenance."""

from __future__ import annotations

from pathlib import Path

import matplotlib as mpl
import matplotlib.pyplot as plt

from storrepro.paths import atomic_path, figures_dir

#: Colour-blind-safe palette (Okabe–Ito), in the order series are usually drawn.
PALETTE = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#F0E442", "#000000"]

STYLE = {
    "figure.figsize": (7.0, 4.2),
    "figure.dpi": 110,
    "savefig.dpi": 150,
    "savefig.bbox": "tight",
    "axes.grid": True,
    "grid.alpha": 0.3,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.titlesize": 11,
    "axes.labelsize": 10,
    "legend.fontsize": 9,
    "legend.frameon": False,
    "axes.prop_cycle": mpl.cycler(color=PALETTE),
}


def use_style() -> None:
    """Apply the suite's figure style (notebooks call this once, at the top)."""
    mpl.rcParams.update(STYLE)


def save_figure(
    fig: plt.Figure,
    notebook: str,
    name: str,
    *,
    out: Path | None = None,
    metadata: dict[str, str] | None = None,
    formats: tuple[str, ...] = ("png", "svg"),
) -> list[Path]:
    """Write ``figures/<notebook>/<name>.<fmt>`` atomically, with provenance in the metadata.

    ``metadata`` (commit, profile, seed, ...) goes into the PNG text chunks and the SVG
    description, so a figure found on its own still says which run made it.
    """
    if not name or "/" in name or name.startswith("."):
        raise ValueError(f"figure name {name!r}: expected a plain file stem such as 'mm1_ccdf'")
    description = "; ".join(f"{k}={v}" for k, v in (metadata or {}).items())
    paths = []
    for fmt in formats:
        target = figures_dir(notebook, out) / f"{name}.{fmt}"
        info = {"Title": name, "Description": description}
        if fmt == "svg":
            info["Date"] = None  # no timestamp: identical runs give identical files
        # a fixed hash salt gives stable SVG ids, so re-running does not churn committed files
        with atomic_path(target) as tmp, mpl.rc_context({"svg.hashsalt": "storrepro"}):
            fig.savefig(tmp, format=fmt, metadata=info)
        paths.append(target)
    return paths
