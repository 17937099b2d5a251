import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import pytest  # noqa: E402
from PIL import Image  # noqa: E402

from storrepro.plotting import save_figure  # noqa: E402


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
    with pytest.raises(ValueError):
        save_figure(figure, "n", "x", out=tmp_path, formats=("nosuchformat",))
    assert not [p for p in tmp_path.rglob("*") if p.is_file()]
