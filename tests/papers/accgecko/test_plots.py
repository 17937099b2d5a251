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


def test_fig12_marks_the_papers_gains_on_accgeckos_bars():
    from storrepro.papers.accgecko import claims
    from storrepro.suite.plotting import PAPER_GID, paper_marks

    summary = pd.DataFrame({"method": [m for m in ("SNCM", "AccTail") for _ in (99.0, 99.9)],
                            "admitted": [10.0, 10.0, 20.0, 12.0], "vs SNCM": [1, 1, 2, 1.2],
                            "ci95": [1.0] * 4})
    fig = plots.admitted(summary, ["SNCM", "AccTail"], 1000.0, 40, claims.T2_PAPER)
    (mark,) = [line for line in fig.axes[0].lines if line.get_gid() == PAPER_GID]
    assert paper_marks(fig) == 1 and mark.get_ydata().tolist() == pytest.approx([2.12, 1.19])
    accgecko = fig.axes[0].patches[2:]  # AccTail's bars, after SNCM's
    assert mark.get_xdata().tolist() == pytest.approx(
        [bar.get_x() + bar.get_width() / 2 for bar in accgecko])
    assert paper_marks(plots.admitted(summary, ["SNCM", "AccTail"], 1000.0, 40)) == 0


def test_the_gains_marked_are_the_ones_the_bands_quote():
    from storrepro.papers.accgecko import claims

    for paper, table in ((claims.T2_PAPER, claims.T2_BANDS), (claims.T3_PAPER, claims.T3_BANDS)):
        for p, gain in paper.items():
            assert f"{100 * gain:+.0f} %" in table[p].words
