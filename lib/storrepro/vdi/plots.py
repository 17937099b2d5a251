"""The Fig. 13/14 analogues: one scheduler run over the 6-day window as stacked panels."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from storrepro.plotting import PALETTE

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
    levels = (system.cap,) if smart else (system.low, system.high)
    marks = " / ".join(f"{100 * level:.0f}" for level in levels)
    for k, level in enumerate(levels):
        axes[2].axhline(100 * level, color="grey", ls="--", lw=0.8,
                        label=f"{'cap' if smart else 'watermarks'} {marks} %" if k == 0 else None)
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
    axes[0].set_title(
        f"{title}: {result['violation_pct']:.1f} % violations, "
        f"{result['queued_pct']:.1f} % IO queued"
    )
    fig.autofmt_xdate()
    return fig


def show_saved(fig, paths) -> None:
    """Close ``fig`` and show the PNG just saved from it, at the notebook's usual size: letting
    the inline backend draw the figure a third time (after the PNG and the SVG) costs as much
    as saving it."""
    from IPython.display import Image, display
    from PIL import Image as Picture

    png = next(p for p in paths if p.suffix == ".png")
    saved_dpi = plt.rcParams["savefig.dpi"]
    scale = 1.0 if saved_dpi == "figure" else fig.dpi / saved_dpi
    plt.close(fig)
    with Picture.open(png) as picture:
        width = round(picture.width * scale)
    display(Image(filename=str(png), width=width))
