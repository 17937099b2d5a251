import subprocess

import pytest

from storrepro import paths


def test_atomic_path_leaves_nothing_when_the_write_fails(tmp_path):
    target = tmp_path / "sub" / "out.txt"
    with pytest.raises(RuntimeError), paths.atomic_path(target) as tmp:
        tmp.write_text("half")
        raise RuntimeError("interrupted")
    assert not target.exists() and list((tmp_path / "sub").iterdir()) == []
    paths.write_text_atomic(target, "whole")
    assert target.read_text() == "whole"


def test_output_root_follows_the_runner(monkeypatch, tmp_path):
    monkeypatch.setenv(paths.OUT_ENV, str(tmp_path))
    assert paths.output_root() == tmp_path
    monkeypatch.delenv(paths.OUT_ENV)
    assert paths.output_root() == paths.repo_root() / "build" / "lab"


def test_git_commit_without_git(monkeypatch):
    def no_git(*args, **kwargs):
        raise FileNotFoundError("git")

    monkeypatch.setattr(subprocess, "run", no_git)
    assert paths.git_commit() == "unknown"


def test_build_output_sits_in_build_for_the_repository_and_beside_results_otherwise(tmp_path):
    assert paths.build_dir(paths.repo_root(), "site") == paths.repo_root() / "build" / "site"
    assert paths.build_dir(tmp_path, "executed") == tmp_path / "executed"
