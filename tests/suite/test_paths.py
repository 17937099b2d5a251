import json
import math
import os
import stat
import subprocess

import pytest

from storrepro.suite import paths


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


def test_results_are_strict_json_that_reads_back_non_finite_numbers(tmp_path):
    path = tmp_path / "r.json"
    paths.write_json_atomic(path, {"a": float("inf"), "b": [float("-inf"), 1.5], "c": "x"})
    text = path.read_text()
    assert '"Infinity"' in text and '"-Infinity"' in text

    def refuse(name):
        raise ValueError(f"non-standard JSON constant {name}")

    assert json.loads(text, parse_constant=refuse)["c"] == "x"  # strict JSON
    back = paths.read_json(path)
    assert back["a"] == math.inf and back["b"] == [-math.inf, 1.5] and back["c"] == "x"
    assert math.isnan(paths.read_json(_write(tmp_path, {"n": float("nan")}))["n"])


def test_strings_that_spell_a_number_come_back_as_strings(tmp_path):
    data = {"s": ["NaN", "Infinity", "-Infinity", "\\x", "\\NaN", "= x"], "f": [math.inf, 1.0]}
    back = paths.read_json(_write(tmp_path, data))
    assert back == data
    assert json.loads((tmp_path / "n.json").read_text())["s"][:2] == ["\\NaN", "\\Infinity"]


def test_a_truncated_results_file_is_an_error_naming_it(tmp_path):
    path = _write(tmp_path, {"a": [1, 2]})
    path.write_text(path.read_text()[:9])
    with pytest.raises(ValueError, match=f"{path}, line 2: not a valid results file"):
        paths.read_json(path)


def _write(folder, data):
    path = folder / "n.json"
    paths.write_json_atomic(path, data)
    return path


def test_outputs_follow_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        paths.write_text_atomic(tmp_path / "f.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "f.txt").stat().st_mode) == 0o644
