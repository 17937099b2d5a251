"""AccGecko's figures on inputs with infinite, zero, missing and off-centre values."""

import matplotlib
import numpy as np
import pandas as pd
import pytest

from storrepro.papers.accgecko import plots

matplotlib.use("Agg")


def test_error_figures_draw_infinite_zero_and_missing_values():
    index = pd.MultiIndex.from_product([["A", "B"], [99.0, 99.9]], names=["method", "p"])
    err = pd.DataFrame(
        {col: [np.inf, 0.0, np.nan, 50.0] for col, _ in plots.ERROR_SERIES}, index=index
    )
    fig = plots.error_bars(err, ["A", "B"], "t")
    labels = [t.get_text() for ax in fig.axes for t in ax.texts]
    assert "unbounded" in labels and "0" in labels and "n/a" in labels


def test_fig3_draws_a_bootstrap_ci_that_misses_rho(tmp_path):
    # on a few segments (one tenant of a real trace) the percentile CI can lie wholly above ρ
    rho = pd.DataFrame({"p": [99.0, 99.0], "feature": ["burst_time", "burst_size"],
                        "rho": [0.2, np.nan], "lo": [0.3, np.nan], "hi": [0.9, np.nan]})
    fig = plots.spearman_bars(rho, 5)
    fig.savefig(tmp_path / "fig3.png")
    bars = fig.axes[0].containers[1]  # the first feature's bars, with their error bars
    (segment,) = bars.errorbar.lines[2][0].get_segments()
    assert segment[:, 1].tolist() == pytest.approx([0.2, 0.9])  # from ρ to the CI's far end
