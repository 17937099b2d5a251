import json
import subprocess

import pytest

from storrepro.__main__ import main
from storrepro.suite import compare
from storrepro.suite.compare import differences


def test_identical_runs_differ_only_in_run_fields():
    a = {"started": "x", "wall_seconds": 1.0, "git_commit": "a", "claims": [{"id": "B1", "v": 1.5}]}
    b = {**a, "started": "y", "wall_seconds": 2.0, "git_commit": "b"}
    assert differences(a, b) == []


def test_every_changed_number_is_reported_with_its_place():
    a = {"claims": [{"id": "B1", "reproduced_value": 1.5}, {"id": "B2", "v": [1, 2]}], "seed": 0}
    b = {
        "claims": [{"id": "B1", "reproduced_value": 1.50001}, {"id": "B2", "v": [1, 2, 3]}],
        "seed": 0,
        "extra": 1,
    }
    assert differences(a, b) == [
        "claims[B1].reproduced_value: 1.5 -> 1.50001",
        "claims[B2].v: 2 entries committed, 3 fresh",
        "extra: new in the fresh run",
    ]
    # A run field nested inside a claim is a number like any other.
    assert differences({"c": {"wall_seconds": 1}}, {"c": {"wall_seconds": 2}}) != []


def test_check_against_a_commit(tmp_path, monkeypatch, capsys):
    def git(*args):
        subprocess.run(["git", *args], cwd=tmp_path, check=True, capture_output=True)

    (tmp_path / "results").mkdir()
    result = {"notebook": "x", "wall_seconds": 3.0, "claims": [{"id": "A", "value": 2.0}]}
    (tmp_path / "results" / "x.json").write_text(json.dumps(result))
    git("init", "-q")
    git("-c", "user.email=t@t", "-c", "user.name=t", "add", ".")
    git("-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "r")
    monkeypatch.setattr(compare, "repo_root", lambda: tmp_path)
    monkeypatch.setattr(compare, "git_commit", lambda: "abc")
    result["git_commit"] = "abc"
    (tmp_path / "results" / "x.json").write_text(json.dumps({**result, "wall_seconds": 9.0}))
    compare.record_run(tmp_path, ["x"])
    assert compare.check_results() == []
    assert main(["check-results"]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == "results: 1 passed, 0 failed"
    result["claims"][0]["value"] = 2.5
    (tmp_path / "results" / "x.json").write_text(json.dumps(result))
    assert compare.check_results() == ["x.json claims[A].value: 2.0 -> 2.5"]
    assert main(["check-results"]) == 1
    assert capsys.readouterr().out.splitlines()[-1] == "results: 0 passed, 1 failed"
    (tmp_path / "results" / "x.json").unlink()
    assert compare.check_results() == ["x.json: not produced by the fresh run"]
    truncated = tmp_path / "results" / "x.json"
    truncated.write_text(json.dumps(result, indent=1)[:40])
    assert main(["check-results"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"error: {truncated}, line 3: not valid JSON (") and "truncated" in err
    assert len(err.splitlines()) == 1
    with pytest.raises(ValueError, match="no-such-ref"):
        compare.check_results(ref="no-such-ref")


def test_a_result_the_last_run_did_not_write_at_this_commit_fails(tmp_path, monkeypatch):
    monkeypatch.setattr(compare, "git_commit", lambda: "abc")
    fresh = {"git_commit": "abc"}
    assert compare.freshness("x.json", fresh, None) == [
        "x.json: no run recorded (build/last-run.json); run make reproduce first"]
    assert compare.freshness("x.json", fresh, {"commit": "old", "notebooks": ["x"]}) == [
        "x.json: the last run was at old, the checkout is at abc"]
    assert compare.freshness("x.json", fresh, {"commit": "abc", "notebooks": ["y"]}) == [
        "x.json: not run by the last make reproduce"]
    # A committed result that no run rewrote keeps the commit it was made at.
    assert compare.freshness("x.json", {"git_commit": "old"},
                             {"commit": "abc", "notebooks": ["x"]}) == [
        "x.json: written at old, not at abc"]
    assert compare.freshness("x.json", fresh, {"commit": "abc", "notebooks": ["x"]}) == []


def _result(verdict, value, headline="partly"):
    return {"notebook": "x", "headline": {"verdict": headline},
            "claims": [{"id": "A1", "verdict": verdict, "reproduced_value": value}]}


def test_moved_lists_what_a_run_changed_with_both_values(tmp_path):
    same = _result("reproduced", "1.0×")
    assert compare.moved(same, same) == []
    assert compare.moved(same, _result("inconclusive", "1.2×", "inconclusive")) == [
        "headline: partly -> inconclusive",
        "A1: reproduced (1.0×) -> inconclusive (1.2×)",
    ]
    fresh = _result("reproduced", "1.0×")
    fresh["claims"].append({"id": "B2", "verdict": "void", "reproduced_value": "—"})
    assert compare.moved(same, fresh) == ["B2: new claim, void (—)"]
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "x.json").write_text(json.dumps(same))
    report = compare.moved_report(_result("not reproduced", "2.0×"), tmp_path)
    assert report.splitlines() == [
        "x against the committed results, what moved (committed -> this run):",
        "  A1: reproduced (1.0×) -> not reproduced (2.0×)",
    ]
    assert compare.moved_report(same, tmp_path).endswith("no verdict or reproduced value moved")
    assert compare.moved_report({**same, "notebook": "y"}, tmp_path) == (
        "y: no committed result to compare with")
