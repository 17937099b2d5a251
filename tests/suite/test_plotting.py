import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from storrepro.suite.plotting import save_figure  # noqa: E402


@pytest.fixture
def figure():
    fig, ax = plt.subplots()
    ax.plot([0, 1, 2], [1, 0, 1])
    yield fig
    plt.close(fig)


def test_save_figure_writes_png_and_svg_with_provenance(tmp_path, figure):
    meta = {"commit": "abc123", "profile": "full", "seed": "4"}
    paths = save_figure(figure, "01_demo", "curve", out=tmp_path, metadata=meta)
    assert paths == [tmp_path / "figures/01_demo/curve.png", tmp_path / "figures/01_demo/curve.svg"]
    assert Image.open(paths[0]).info["Description"] == "commit=abc123; profile=full; seed=4"
    assert "commit=abc123; profile=full; seed=4" in paths[1].read_text()
    assert not list(tmp_path.rglob("*.tmp"))


def test_svg_output_is_identical_across_saves(tmp_path, figure):
    first = save_figure(figure, "n", "a", out=tmp_path, formats=("svg",))[0].read_text()
    second = save_figure(figure, "n", "a", out=tmp_path, formats=("svg",))[0].read_text()
    assert first == second


def test_bad_name_and_failed_save_leave_nothing_behind(tmp_path, figure):
    with pytest.raises(ValueError, match="figure name '../x'"):
        save_figure(figure, "n", "../x", out=tmp_path)
    with pytest.raises(ValueError, match="formats = \\('png', 'nosuchformat'\\): expected some of"):
        save_figure(figure, "n", "x", out=tmp_path, formats=("png", "nosuchformat"))
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]


def test_a_background_copy_has_the_bytes_the_caller_would_write(tmp_path, figure):
    """Written by the other process from the pickled figure, under the caller's rcParams (a
    changed one included), byte for byte as the caller writes it."""
    from storrepro.suite.plotting import wait_for_figures

    with matplotlib.rc_context({"svg.fonttype": "none", "lines.linewidth": 3.0}):
        figure.axes[0].set_title("$10^{3}$ in a background copy")
        here = save_figure(figure, "n", "here", out=tmp_path, formats=("svg",))[0]
        png, there = save_figure(figure, "n", "there", out=tmp_path, background=True)
    assert png.exists()
    wait_for_figures()
    assert there.read_text().replace("there", "here") == here.read_text()


def test_a_failed_background_copy_is_raised_naming_its_file_and_leaves_nothing(tmp_path):
    from storrepro.suite import plotting

    fig, ax = plt.subplots()
    ax.set_title(r"$\frac$")  # mathtext that fails only when drawn
    plotting._in_background(fig, tmp_path / "broken.svg", "svg", {})
    plt.close(fig)
    with pytest.raises(RuntimeError, match="broken.svg in the background failed"):
        plotting.wait_for_figures()
    assert not list(tmp_path.iterdir())
    plotting.wait_for_figures()  # nothing is left pending


def test_a_figure_that_cannot_be_pickled_is_written_at_once(tmp_path, figure):
    from matplotlib.ticker import FuncFormatter

    figure.axes[0].yaxis.set_major_formatter(FuncFormatter(lambda y, _: f"{y:g}"))
    from storrepro.suite import plotting

    plotting.wait_for_figures()  # no writer left by an earlier test
    png, svg = save_figure(figure, "n", "local", out=tmp_path, background=True)
    assert png.exists() and "<svg" in svg.read_text()  # no wait: written here, not elsewhere
    assert plotting._writer is None  # and no writer started for it


def test_the_writer_outlives_an_interrupt_and_ends_once_waited_for(tmp_path, figure):
    """The runner interrupts a kernel's process group at its end: the writer ignores it, and is
    gone by then anyway."""
    import os
    import signal

    from storrepro.suite import plotting

    save_figure(figure, "n", "a", out=tmp_path, background=True)
    plotting._pending[0][1].result()  # the writer is up
    for pid in list(plotting._writer._processes):
        os.kill(pid, signal.SIGINT)
    save_figure(figure, "n", "b", out=tmp_path, background=True)
    plotting.wait_for_figures()
    assert (tmp_path / "figures/n/b.svg").exists() and plotting._writer is None


def test_paper_marks_are_labelled_and_counted(figure):
    from storrepro.suite.plotting import paper_band, paper_line, paper_marks, paper_point

    ax = figure.axes[0]
    assert paper_marks(figure) == 0
    paper_point(ax, [1, 2], [0.5, 0.6])
    paper_line(ax, y=0.8, label="paper: at least 80 %")
    paper_line(ax, x=[0, 1], y=[1, 2])
    paper_band(ax, 0.9, 1.1)
    paper_band(ax, [0.5, 0.6], [0.7, 0.8], x=[0, 1])
    assert paper_marks(figure) == 5
    labels = {h.get_label() for h in ax.get_legend_handles_labels()[0]}
    assert labels == {"paper", "paper: at least 80 %"}
    with pytest.raises(ValueError, match="give y"):
        paper_line(ax)


def test_a_paper_figure_with_a_numeric_claim_needs_paper_marks():
    from storrepro.suite.plotting import figures_without_paper_marks, numeric_paper_value

    assert numeric_paper_value({"paper_value": 0.41})
    assert numeric_paper_value({"paper_value": "≈ 84 ms"})
    for entry, low in (("bound", 1.0), ("approx", 28.5), ("direction", 5e-324)):
        # a band's edges are not the paper's printed numbers (words, a tolerance, a sign)
        assert not numeric_paper_value({"paper_value": "largest", "band": f"{entry}: 'w'",
                                        "band_range": {"low": low, "high": 31.5}}), entry
    assert numeric_paper_value({"paper_value": "F1 of 0.8"})  # a metric's name is not one
    assert numeric_paper_value({"paper_value": "p99 0 %, p99.9 4 %"})  # nor a percentile's
    for words in ("best overall (Table 1, Fig. 8)", "smooth transition to k = 1",
                  "X–Y× lower (stripped)", "lower Acc and F1 (Table 2)",
                  "largest at p99.9 and p99.99", None, True):
        assert not numeric_paper_value({"paper_value": words}), words
    result = {
        "claims": [{"id": "A", "paper_value": 0.5}, {"id": "B", "paper_value": "better"}],
        "figure_claims": {
            "a.png": {"paper_figure": "Fig. 1", "claims": ["A"], "paper_marks": 0},
            "b.png": {"paper_figure": "Fig. 2", "claims": ["A"], "paper_marks": 2},
            "c.png": {"paper_figure": "Fig. 3", "claims": ["B"], "paper_marks": 0},
            "d.png": {"paper_figure": None, "claims": ["A"], "paper_marks": 0},
        },
    }
    assert figures_without_paper_marks(result) == ["a.png"]


@pytest.mark.parametrize("notebook", ["00_simulator_validation", "01_precise_period",
                                      "02_accgecko", "03_vdi_background", "04_bid", "05_tofec"])
def test_the_committed_figures_mark_the_papers_numbers(notebook):
    from storrepro.suite.paths import read_json, repo_root
    from storrepro.suite.plotting import figures_without_paper_marks

    result = read_json(repo_root() / "results" / f"{notebook}.json")
    if not any("paper_marks" in m for m in result["figure_claims"].values()):
        pytest.skip(f"{notebook}'s result predates the paper marks' record: a run writes it")
    missing = figures_without_paper_marks(result)
    assert not missing, f"{notebook}: these paper figures carry no mark of the paper's numbers"
