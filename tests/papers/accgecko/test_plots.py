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


def _marks(fig):
    return [a for ax in fig.axes for a in [*ax.lines, *ax.collections, *ax.patches]
            if a.get_gid() == "paper-mark"]


def test_the_error_figures_mark_the_papers_values_at_their_bars():
    from storrepro.suite.plotting import paper_marks

    index = pd.MultiIndex.from_product([["A", "B"], [99.0, 99.9]], names=["method", "p"])
    err = pd.DataFrame({col: [5.0, 50.0, 2.0, 20.0] for col, _ in plots.ERROR_SERIES},
                       index=index)  # fmt: skip
    paper = {(99.0, "B", "avg_positive_%"): 3e4, (99.9, "A", "max_negative_%"): 0.0,
             (99.0, "C", "avg_positive_%"): 7.0}  # C is not drawn: no mark  # fmt: skip
    fig = plots.error_bars(err, ["A", "B"], "t", paper, "paper: words")
    assert paper_marks(fig) == 2
    big, zero = _marks(fig)
    assert big.get_xydata().tolist() == [[1 - 1.5 * 0.2, 3e4]]  # B's first series
    assert fig.axes[0].get_ylim()[1] > 3e4  # the axis raised to hold it
    assert zero.get_xydata().tolist() == [[1.5 * 0.2, 0.015]] and not zero.get_clip_on()
    assert zero.get_transform() != fig.axes[1].transData  # at the foot, in axes fraction
    assert "paper: words" in [t.get_text() for t in fig.legends[0].get_texts()]


def test_the_error_figures_paper_values_are_the_claims_constants():
    from storrepro.papers.accgecko import claims

    assert plots.FIG8_PAPER[99.9, "MMP", "max_negative_%"] == claims.FIG8_NEGATIVE["MMP"][99.9]
    assert plots.FIG8_PAPER[99.0, "DB+25µs", "max_positive_%"] == claims.A4_PAPER["max"][99.0]
    assert plots.FIG9_PAPER[99.9, "M=1.5", "avg_positive_%"] == claims.A5_PAPER["M=1.5"][99.9]
    k, avg = claims.A6_PAPER[99.9]
    assert plots.FIG10_PAPER[99.9, f"k={k}", "avg_positive_%"] == avg
    assert plots.FIG10_PAPER[99.0, "k=7", "max_negative_%"] == claims.A0_PAPER
    assert (99.0, "DB+25µs", "max_negative_%") not in plots.FIG10_PAPER  # not in Fig. 10


def test_fig11_marks_the_baselines_at_the_papers_ratios_to_acctail():
    from storrepro.suite.plotting import paper_marks

    index = pd.MultiIndex.from_product([[99.0, 99.9], ["PM", "AccTail"]], names=["p", "method"])
    f11 = pd.DataFrame({"mean": [400.0, 20.0, 100.0, 10.0], "max": 1000.0}, index=index)
    paper = plots.fig11_paper(f11, {"PM": {99.0: 56.0, 99.9: 12.0}})
    assert paper == {(99.0, "PM", "mean"): 56.0 * 20.0, (99.9, "PM", "mean"): 12.0 * 10.0}
    fig = plots.method_errors(f11, ["PM", "AccTail"], (99.0, 99.9), paper, "paper: r")
    assert paper_marks(fig) == 2
    assert [m.get_xydata().tolist() for m in _marks(fig)] == [[[-0.2, 1120.0]], [[-0.2, 120.0]]]


def test_fig12_marks_accgecko_and_pm_where_the_papers_gains_put_them():
    from storrepro.suite.plotting import paper_marks

    paper = plots.fig12_paper({99.0: 100.0, 99.9: 20.0}, {99.0: 300.0, 99.9: 50.0})
    assert np.allclose(paper["AccTail"][0], [2.0, 1.2])  # 1 + the gain over SNC-Meister
    assert np.allclose(paper["PM"][0], [0.5, 0.8])  # AccGecko's 2.0 is +300 % over PM's 0.5
    assert paper["AccTail"][1] == "paper: AccGecko +100 % / +20 % over SNC-Meister"
    summary = pd.DataFrame({"method": ["SNCM", "SNCM", "AccTail", "AccTail"],
                            "admitted": [10.0, 10.0, 15.0, 12.0], "ci95": 1.0,
                            "vs SNCM": [1.0, 1.0, 1.5, 1.2]})  # fmt: skip
    fig = plots.admitted(summary, ["SNCM", "AccTail"], 1e5, 10, paper)
    assert paper_marks(fig) == 1  # PM is not shown
    (mark,) = _marks(fig)
    assert np.allclose(mark.get_xydata(), [[0.2, 2.0], [1.2, 1.2]])


def test_fig3_marks_the_papers_strong_correlation():
    from storrepro.suite.plotting import paper_marks

    rho = pd.DataFrame({"p": [99.0], "feature": ["intensity"], "rho": [0.5], "lo": [0.4],
                        "hi": [0.6]})  # fmt: skip
    fig = plots.spearman_bars(rho, 5, 0.8)
    assert paper_marks(fig) == 1 and list(_marks(fig)[0].get_ydata()) == [0.8, 0.8]
    assert paper_marks(plots.spearman_bars(rho, 5)) == 0


def test_fig4_marks_the_papers_spread_and_looseness_on_ours():
    from storrepro.suite.plotting import paper_marks

    eps = np.array([0.05, 1e-2, 1e-3, 1e-4])
    curves = {name: {"latency": np.linspace(0, scale * 1e4, 100_001), "eps": eps,
                     "actual": scale * np.array([1.0, 2.0, 4.0, 8.0]) * 1e3,
                     "bound": np.array([5.0, 6.0, 7.0, 8.0]) * 1e3 * scale}
              for name, scale in (("T1", 1.0), ("T2", 4.0))}  # fmt: skip
    fig = plots.ccdf_vs_snc(curves, {"spread %": 10.0, "ratio": 3.0}, {"mean": 2.0, "max": 5.0})
    assert paper_marks(fig) == 2
    point, band = _marks(fig)
    # T1's p99.9 is 9.99 s (in ms: 9990) × 3; its bound at 1e-3 is 7 ms, +10 %
    assert np.allclose(point.get_xydata(), [[1e-3, 3 * 9.99], [1e-3, 7.0 * 1.1]], rtol=1e-3)
    (edge,) = band.get_paths()
    ys = edge.vertices[:, 1]
    assert np.isclose(ys.min(), 2.0 * 2.0) and np.isclose(ys.max(), 5.0 * 16.0)  # geo. mean


def test_fig5_marks_the_papers_fold_errors_around_the_actual():
    from storrepro.suite.plotting import paper_marks

    study = {"values": np.arange(1, 5), "actual_pmf": np.array([0.5, 0.3, 0.2, 0.0]),
             "model_pmf": np.array([0.4, 0.3, 0.02, 0.28]), "lambda_rates": np.array([2.0])}
    fig = plots.count_distribution(study, {"mean": 10.0, "max": 100.0})
    assert paper_marks(fig) == 2
    point, band = _marks(fig)  # lines first
    # the worst count where both are positive is 3 (10× off, the MMPP below): 100× below 20 %
    assert np.allclose(point.get_xydata(), [[3, 0.2]])
    ys = band.get_paths()[0].vertices[:, 1]
    assert np.isclose(ys.min(), 2.0) and np.isclose(ys.max(), 500.0)
