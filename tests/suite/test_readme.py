"""The README's results block is written from the results, never typed."""

import pytest

from storrepro.suite import readme
from storrepro.suite.paths import repo_root
from storrepro.suite.scorecard import load_results


def test_the_committed_readme_shows_the_committed_results():
    text = (repo_root() / "README.md").read_text(encoding="utf-8")
    block = text.split(readme.START, 1)[1].split(readme.END, 1)[0].strip()
    assert block == readme.results_block(load_results(repo_root())).strip(), (
        "README's results block is stale: a canonical `make reproduce` rewrites it"
    )


def test_the_run_time_is_from_the_first_start_to_the_last_end(monkeypatch):
    monkeypatch.setattr(readme, "summary_cells", lambda r: [])
    monkeypatch.setattr(readme, "core_reproduced", lambda r: 0)
    head = {"verdict": "reproduced", "core": [], "summary": "fine"}
    results = [{"notebook": n, "headline": head, "started": f"2026-11-29T10:00:{s}+00:00",
                "wall_seconds": w} for n, s, w in (("a", "00", 100.0), ("b", "10", 50.0))]
    text = readme.results_block(results)
    assert "took 100 s from the first start to the last end" in text  # side by side
    assert "they add up to 150 s" in text


def test_update_rewrites_only_the_block(tmp_path):
    (tmp_path / "results").mkdir()
    (tmp_path / "README.md").write_text(f"intro\n{readme.START}\nold\n{readme.END}\noutro\n")
    assert readme.update_readme(tmp_path)
    text = (tmp_path / "README.md").read_text()
    assert text.startswith("intro\n") and text.endswith("outro\n") and "old" not in text
    assert not readme.update_readme(tmp_path)  # unchanged the second time
    (tmp_path / "README.md").write_text("no markers")
    with pytest.raises(ValueError, match="markers are missing"):
        readme.update_readme(tmp_path)


def test_the_blocks_written_from_the_code_are_current():
    text = (repo_root() / "README.md").read_text()
    for name, write in readme.CODE_BLOCKS.items():
        start, end = readme.markers(name)
        assert f"{start}\n{write()}\n{end}" in text, (
            f"the README's {name} block is stale: run `python -m storrepro readme`")


def test_the_notebooks_and_trace_tables_come_from_the_configs(monkeypatch):
    class Paper:
        title, reproduces, trace_replaces = "Toy", "one queue", "its arrivals"

    class NoPaper:
        title, reproduces, trace_replaces = "—", "checks", ""

    monkeypatch.setattr(readme, "NOTEBOOKS", {"00_check": "", "06_toy": ""})
    monkeypatch.setattr(readme, "config_class", {"00_check": NoPaper, "06_toy": Paper}.get)
    assert readme.notebooks_table().splitlines()[2:] == [
        "| [`00_check`](notebooks/00_check.ipynb) | — | checks |",
        "| [`06_toy`](notebooks/06_toy.ipynb) | Toy | one queue |"]
    assert readme.trace_table().splitlines()[2:] == ["| `06_toy` | its arrivals |"]


def test_a_readme_without_a_code_block_is_refused(tmp_path):
    (tmp_path / "README.md").write_text("# no blocks\n")
    with pytest.raises(ValueError, match="the block's markers are missing"):
        readme.update_code_blocks(tmp_path)
