import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from storrepro.claims import (  # noqa: E402
    Run,
    build_scorecard,
    load_results,
    plain,
    relative_error,
    verdict_within,
)
from storrepro.config import NotebookConfig, Param  # noqa: E402

RESULT_KEYS = {
    "notebook",
    "paper",
    "profile",
    "seed",
    "parameters",
    "git_commit",
    "started",
    "wall_seconds",
    "figures",
    "captions",
    "claims",
}
CLAIM_KEYS = {"id", "statement", "paper_value", "reproduced_value", "tolerance", "verdict", "kind"}


class DemoConfig(NotebookConfig):
    notebook = "99_demo"
    paper = "A. Author, Demo paper, 2020"
    params = {"n": Param(int, 1, 2, "size", low=1)}


def test_verdicts_follow_the_tolerance():
    assert relative_error(102.0, 100.0) == pytest.approx(0.02)
    assert relative_error(-98.0, -100.0) == pytest.approx(0.02)
    assert verdict_within(0.019, 0.02) == "reproduced"
    assert verdict_within(-0.03, 0.02) == "not reproduced"
    assert verdict_within(0.03, 0.02, partly=0.05) == "partly"
    assert verdict_within(float("nan"), 0.02) == "not reproduced"


def test_plain_converts_numpy_values():
    assert plain({"a": np.float64(1.5), "b": np.arange(3), "c": (np.int64(2), "x")}) == {
        "a": 1.5,
        "b": [0, 1, 2],
        "c": [2, "x"],
    }


def test_claims_reject_bad_verdicts_kinds_and_duplicate_ids(tmp_path):
    run = Run(DemoConfig(profile="quick"), out=tmp_path)
    with pytest.raises(ValueError, match="verdict 'passed'"):
        run.claim("C1", "s", paper_value=1, reproduced_value=1, tolerance="", verdict="passed")
    with pytest.raises(ValueError, match="kind 'nice'"):
        run.claim(
            "C1",
            "s",
            paper_value=1,
            reproduced_value=1,
            tolerance="",
            verdict="reproduced",
            kind="nice",
        )
    run.claim("C1", "s", paper_value=1, reproduced_value=1, tolerance="", verdict="reproduced")
    with pytest.raises(ValueError, match="recorded twice"):
        run.claim("C1", "s", paper_value=1, reproduced_value=1, tolerance="", verdict="reproduced")


def test_finish_writes_the_result_json_and_the_scorecard(tmp_path):
    run = Run(DemoConfig(profile="quick", seed=7), out=tmp_path)
    run.claim_relative(
        "C1", "mean delay", reproduced=np.float64(101.0), reference=100.0, tolerance=0.02
    )
    run.claim_relative(
        "C2", "p99 delay", reproduced=130.0, reference=100.0, tolerance=0.1, kind="should"
    )
    run.claim(
        "C3",
        "a ranking",
        paper_value="A < B",
        reproduced_value="B < A",
        tolerance="exact order",
        verdict="not checkable",
        kind="report",
    )
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    run.save_figure(fig, "line", caption="A straight line (no paper figure)")
    plt.close(fig)
    path = run.finish()

    assert path == tmp_path / "results" / "99_demo.json"
    result = json.loads(path.read_text())
    assert set(result) == RESULT_KEYS
    assert (result["profile"], result["seed"], result["parameters"]) == (
        "quick",
        7,
        {"profile": "quick", "seed": 7, "n": 1},
    )
    assert result["figures"] == ["figures/99_demo/line.png"]  # the quick profile skips the SVG
    assert result["captions"]["figures/99_demo/line.png"] == "A straight line (no paper figure)"
    assert all(set(c) == CLAIM_KEYS for c in result["claims"])
    assert [c["verdict"] for c in result["claims"]] == [
        "reproduced",
        "not reproduced",
        "not checkable",
    ]
    assert result["claims"][0]["tolerance"] == "±2 % relative"
    assert not list(tmp_path.rglob("*.tmp"))

    card = (tmp_path / "results" / "SCORECARD.md").read_text()
    assert "| 99_demo | quick | 7 |" in card
    assert (
        "| 3 | 1 | 0 | 1 | 1 | — |" in card
    )  # claims, per verdict, failing must ids (C2 is should)
    assert "| C3 | report | a ranking | A < B | B < A | exact order | not checkable |" in card


def test_the_full_profile_also_writes_an_svg(tmp_path):
    run = Run(DemoConfig(profile="full"), out=tmp_path)
    fig, ax = plt.subplots()
    run.save_figure(fig, "line")
    plt.close(fig)
    assert run.figures == [
        tmp_path / "figures/99_demo/line.png",
        tmp_path / "figures/99_demo/line.svg",
    ]


def test_scorecard_lists_only_failing_must_claims():
    result = {
        "notebook": "n",
        "paper": "p",
        "profile": "full",
        "seed": 0,
        "git_commit": "abc",
        "wall_seconds": 1.0,
        "claims": [
            {
                "id": "M",
                "kind": "must",
                "statement": "s",
                "paper_value": 1,
                "reproduced_value": 2,
                "tolerance": "t",
                "verdict": "not reproduced",
            },
            {
                "id": "R",
                "kind": "report",
                "statement": "s",
                "paper_value": 1,
                "reproduced_value": 2,
                "tolerance": "t",
                "verdict": "not reproduced",
            },
        ],
    }
    assert "| 2 | 0 | 0 | 2 | 0 | M |" in build_scorecard([result])


def test_load_results_is_empty_without_results(tmp_path):
    assert load_results(tmp_path) == []


def test_load_results_skips_json_that_is_not_a_notebook_result(tmp_path):
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "bench.json").write_text('{"devices": []}')
    (folder / "x.json").write_text('{"notebook": "x", "claims": []}')
    assert load_results(tmp_path) == [{"notebook": "x", "claims": []}]
