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
