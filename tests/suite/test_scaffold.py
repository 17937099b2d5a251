"""A seventh paper from the template: it touches only its own files and one registry line, and
the suite takes it as it takes the others (layout rules, its own tests, a quick run, the
scorecard)."""

import json
import os
import shutil
import subprocess
import sys

import pytest

from storrepro.suite import scaffold
from storrepro.suite.config import ParameterError
from storrepro.suite.paths import repo_root

#: What a copy of the repository needs to add a paper, test it and run it.
PARTS = ("lib", "templates", "tests", "notebooks", "site", "pyproject.toml", "README.md",
         "CONTRIBUTING.md")


@pytest.fixture(scope="module")
def copy(tmp_path_factory):
    """The repository's tracked and new files under PARTS, without results or build outputs."""
    root = tmp_path_factory.mktemp("repo")
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard",
                             *PARTS], cwd=repo_root(), capture_output=True, text=True, check=True)
    for name in listed.stdout.split():
        if (repo_root() / name).is_file():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(repo_root() / name, root / name)
    return root


def _files(root):
    return {p.relative_to(root): p.read_bytes() for p in root.rglob("*") if p.is_file()
            and "__pycache__" not in p.parts}


@pytest.mark.notebook
def test_a_seventh_paper_touches_its_own_files_and_one_registry_line(copy):
    before = _files(copy)
    written = scaffold.new_paper("toy", "06", root=copy)
    after = _files(copy)
    changed = {p for p in before if after.get(p) != before[p]}
    assert changed == {scaffold.REGISTRY}
    added = [line for line in after[scaffold.REGISTRY].decode().splitlines()
             if line not in before[scaffold.REGISTRY].decode().splitlines()]
    assert added == ['    "06_toy": "storrepro.papers.toy.config:ToyConfig",']
    own = ("lib/storrepro/papers/toy/", "tests/papers/toy/", "notebooks/06_toy.ipynb")
    new = {str(p) for p in set(after) - set(before)}
    assert new and all(p.startswith(own) for p in new)
    assert {str(p.relative_to(copy)) for p in written} == new | {str(scaffold.REGISTRY)}
    assert not any("paper_template" in (copy / p).read_text() for p in new)

    env = {**os.environ, "PYTHONPATH": str(copy / "lib")}
    tests = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/papers/toy",
         "tests/test_layout.py"], cwd=copy, env=env, capture_output=True, text=True)
    assert tests.returncode == 0, tests.stdout[-3000:]

    out = copy / "out"
    ran = subprocess.run(
        [sys.executable, "-m", "storrepro", "reproduce", "--profile", "quick", "--only",
         "06_toy", "--out", str(out)], cwd=copy, env=env, capture_output=True, text=True)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    result = json.loads((out / "results" / "06_toy.json").read_text())
    assert [c["id"] for c in result["claims"]] == ["T1", "K1"]
    assert result["headline"]["verdict"] == "reproduced"
    assert "06_toy" in (out / "results" / "SCORECARD.md").read_text()


def test_bad_names_and_numbers_are_refused_before_anything_is_written(tmp_path):
    for name, number, message in [
        ("Toy", "06", "NAME = 'Toy': expected a new Python package name"),
        ("class", "06", "NAME = 'class'"),
        ("toy", "6", "NUMBER = '6': expected two digits"),
        ("toy", "04", "NUMBER = '04': 04_bid has it"),
    ]:
        with pytest.raises(ParameterError, match=message):
            scaffold.new_paper(name, number, root=tmp_path)
    with pytest.raises(ParameterError, match="NAME = 'bid': lib/storrepro/papers/bid exists"):
        scaffold.new_paper("bid", "06", root=repo_root())
    assert list(tmp_path.iterdir()) == []


def test_class_names_join_the_words_of_the_package_name():
    assert scaffold.class_name("slow_disk") == "SlowDisk"
    assert scaffold.registry_line("slow_disk", "07") == (
        '    "07_slow_disk": "storrepro.papers.slow_disk.config:SlowDiskConfig",\n')
