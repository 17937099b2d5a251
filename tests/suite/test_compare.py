import json
import subprocess

import pytest

from storrepro.__main__ import main
from storrepro.suite import compare
from storrepro.suite.compare import differences
from storrepro.suite.paths import repo_root


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


COMMITTED = json.loads((repo_root() / "results" / "00_simulator_validation.json").read_text())


def _result(verdict, value, headline="partly", profile="full", seed=0, other="1"):
    """A result of notebook x, its other fields (which compare does not read) a committed one's."""
    claim = {**COMMITTED["claims"][0], "by_reading": {}}
    return {**COMMITTED, "notebook": "x", "profile": profile, "seed": seed,
            "headline": {**COMMITTED["headline"], "verdict": headline},
            "claims": [{**claim, "id": "A1", "verdict": verdict, "reproduced_value": value},
                       {**claim, "id": "A2", "verdict": "reproduced", "reproduced_value": other}]}


def _write(folder, result):
    (folder / "results").mkdir(parents=True, exist_ok=True)
    (folder / "results" / f"{result['notebook']}.json").write_text(json.dumps(result))


def test_moved_lists_what_a_run_changed_with_both_values():
    same = _result("reproduced", "1.0×")
    assert compare.moved(same, same) == []
    assert compare.moved(same, _result("inconclusive", "1.2×", "inconclusive", other="2")) == [
        "headline: partly -> inconclusive",
        "A1: reproduced (1.0×) -> inconclusive (1.2×)",
        "A2: reproduced (1) -> reproduced (2)",  # a value alone: last
    ]
    fresh = _result("reproduced", "1.0×")
    fresh["claims"].append({"id": "B2", "verdict": "void", "reproduced_value": "—"})
    assert compare.changes(same, fresh) == {"headline": [], "verdicts": [
        "B2: new claim, void (—)"], "values": []}


def test_the_report_puts_the_headline_first_then_verdicts_and_folds_values(tmp_path):
    _write(tmp_path, _result("reproduced", "1.0×"))
    fresh = _result("not reproduced", "2.0×", other="3")
    assert compare.moved_report(fresh, tmp_path).splitlines() == [
        "x against the committed results, what moved (before -> this run):",
        "  headline: partly, unchanged",
        "  verdicts that moved (1):",
        "    A1: reproduced (1.0×) -> not reproduced (2.0×)",
        "  values that moved, verdict unchanged (1): A2 (`python -m storrepro compare --values` "
        "lists them)",
    ]
    assert compare.moved_report(fresh, tmp_path, values=True).splitlines()[-1] == (
        "    A2: reproduced (1) -> reproduced (3)")
    same = _result("reproduced", "1.0×")
    assert compare.moved_report(same, tmp_path).endswith("no verdict or reproduced value moved")
    assert compare.moved_report({**same, "notebook": "y"}, tmp_path) == (
        "y: no committed result of y to compare with")


def test_a_run_is_compared_with_one_of_its_own_profile_and_seed(tmp_path):
    _write(tmp_path, _result("reproduced", "1.0×"))  # the committed run: full, seed 0
    quick = _result("inconclusive", "1.1×", profile="quick")
    before, what = compare.baseline_for(quick, tmp_path)
    assert before["profile"] == "full" and "ran at profile full (this run: quick), so" in what
    assert compare.needs_baseline(quick, tmp_path)
    assert not compare.needs_baseline(_result("reproduced", "1.0×"), tmp_path)
    cached = compare.baseline_dir("quick", 0, tmp_path)
    assert cached == tmp_path / "build" / "baselines" / "quick-seed0"
    _write(cached, _result("inconclusive", "1.1×", profile="quick"))
    assert not compare.needs_baseline(quick, tmp_path)
    before, what = compare.baseline_for(quick, tmp_path)
    assert before["profile"] == "quick" and what.startswith("the baseline of profile quick")
    assert compare.moved_report(quick, tmp_path).endswith("no verdict or reproduced value moved")
    assert compare.needs_baseline(_result("reproduced", "1×", seed=3), tmp_path)  # another seed
    other = tmp_path / "mine"
    _write(other, _result("not reproduced", "9×", profile="quick"))
    before, what = compare.baseline_for(quick, tmp_path, against=other)
    assert before["claims"][0]["verdict"] == "not reproduced" and what == f"the run in {other}"


def test_a_damaged_cached_baseline_is_named_with_what_to_do(tmp_path):
    quick = _result("inconclusive", "1.1×", profile="quick")
    cached = compare.baseline_dir("quick", 0, tmp_path) / "results" / "x.json"
    cached.parent.mkdir(parents=True)
    for damaged in (json.dumps(quick)[:40], "{}"):  # truncated; not a result
        cached.write_text(damaged)
        with pytest.raises(ValueError, match=rf"^{cached}(, line 1)?: .*[:?] delete it: a cached "
                                             "baseline, which compare computes again$"):
            compare.baseline_for(quick, tmp_path)
    cached.unlink()
    assert compare.needs_baseline(quick, tmp_path)  # what compare does once it is deleted
