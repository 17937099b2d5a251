import json

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from helpers import RESULT_KEYS  # noqa: E402
from storrepro.suite.claims import (  # noqa: E402
    Claim,
    headline_verdict,
    plain,
    relative_band,
    relative_error,
    verdict_within,
)
from storrepro.suite.config import NotebookConfig, Param, Reading  # noqa: E402
from storrepro.suite.paths import repo_root  # noqa: E402
from storrepro.suite.run import Run  # noqa: E402
from storrepro.suite.scorecard import load_results, reading_table  # noqa: E402
from storrepro.suite.site import figure_caption  # noqa: E402

CLAIM_KEYS = {
    "id",
    "statement",
    "paper_value",
    "reproduced_value",
    "tolerance",
    "verdict",
    "kind",
    "role",
    "requires",
    "reason",
    "values",
    "by_reading",
    "robust",
    "decided_by",
    "not_affected_by",
    "band",
    "uncertainty",
    "no_uncertainty",
    "band_range",
    "inputs",
}


class DemoConfig(NotebookConfig):
    notebook = "99_demo"
    paper = "A. Author, Demo paper, 2020"
    params = {"n": Param(int, 1, 2, "size", low=1)}
    readings = {
        "window": Reading(
            question="Which window does the paper average over?",
            paper_words="averaged over each window",
            primary="calendar",
            alternatives={"calendar": "calendar days", "rolling": "24 h from the start"},
            argument="the paper plots calendar days",
        )
    }


def claim(id="C1", verdict="reproduced", role="test", **kw) -> Claim:
    return Claim(
        id=id,
        statement="s",
        paper_value=1,
        reproduced_value="1 ms",
        tolerance="t",
        verdict=verdict,
        reason="measured 1 ms",
        role=role,
        band="number: 1 ms",
        no_uncertainty="a fixed test value",
        **kw,
    )


def record(run, judged_claim, readings=None, not_affected_by=()):
    """Record an already judged claim through Run.judge (the rule returns it)."""
    return run.judge(
        lambda c: c, judged_claim, not_affected_by=not_affected_by,
        by_reading={label: (alt,) for label, alt in (readings or {}).items()},
    )


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


def test_claims_reject_bad_verdicts_kinds_roles_and_missing_reasons():
    with pytest.raises(ValueError, match="verdict 'passed'"):
        claim(verdict="passed")
    with pytest.raises(ValueError, match="verdict 'void'"):
        claim(verdict="void")  # only Run.record voids, from requires
    with pytest.raises(ValueError, match="kind 'nice'"):
        claim(kind="nice")
    with pytest.raises(ValueError, match="role 'proof'"):
        claim(role="proof")
    with pytest.raises(ValueError, match="needs a reason"):
        Claim("C1", "s", 1, "1 ms", "t", "reproduced", reason=" ")
    with pytest.raises(ValueError, match="human string"):
        Claim("C1", "s", 1, 1.0, "t", "reproduced", reason="r")


def test_a_run_refuses_duplicates_unknown_readings_and_unjudged_test_claims(tmp_path):
    run = Run(DemoConfig(profile="quick"), out=tmp_path)
    with pytest.raises(ValueError, match="not judged under the readings"):
        record(run, claim())
    with pytest.raises(ValueError, match="unknown readings"):
        record(run, claim(), readings={"window=weekly": claim()})
    with pytest.raises(ValueError, match="unknown readings"):
        record(run, claim(), not_affected_by=["pool"])
    with pytest.raises(ValueError, match="another id"):
        record(run, claim(), readings={"window=rolling": claim(id="C2")})
    with pytest.raises(ValueError, match="record them first"):
        record(run, claim(requires=("C0",)), not_affected_by=["window"])
    record(run, claim(role="calibration"))  # calibrations need no readings
    with pytest.raises(ValueError, match="recorded twice"):
        record(run, claim(role="calibration"))


def test_readings_mark_a_claim_robust_or_name_the_reading_that_decides_it(tmp_path):
    run = Run(DemoConfig(profile="quick"), out=tmp_path)
    robust = record(run, claim("A"), readings={"window=rolling": claim("A")})
    hangs = record(run,
        claim("B"), readings={"window=rolling": claim("B", verdict="not reproduced")}
    )
    untouched = record(run, claim("C"), not_affected_by=["window"])
    assert (robust["robust"], robust["decided_by"]) == (True, [])
    assert (hangs["robust"], hangs["decided_by"]) == (False, ["window"])
    assert hangs["by_reading"]["window=rolling"]["verdict"] == "not reproduced"
    assert (untouched["robust"], untouched["not_affected_by"]) == (True, ["window"])
    run.headline("The paper holds.", core=["A", "B"], cause="because")
    table = reading_table(run.result())
    assert list(table.columns) == ["claim", "primary", "window=rolling", "robust"]
    assert table.loc["B", "robust"] == "hangs on window"
    assert table.loc["C", "window=rolling"] == "—"


def test_a_failed_prerequisite_voids_a_claim_under_each_reading(tmp_path):
    run = Run(DemoConfig(profile="quick"), out=tmp_path)
    record(run,
        claim("SAFE", verdict="not reproduced"),
        readings={"window=rolling": claim("SAFE", verdict="reproduced")},
    )
    gain = record(
        run, claim("GAIN", requires=("SAFE",)), readings={"window=rolling": claim("GAIN")}
    )
    assert gain["verdict"] == "void"
    assert gain["reason"].startswith("Void: it requires SAFE, which is not reproduced")
    assert "would be reproduced: measured 1 ms" in gain["reason"]
    assert gain["values"]["verdict without its conditions"] == "reproduced"
    assert gain["by_reading"]["window=rolling"]["verdict"] == "reproduced"
    assert gain["decided_by"] == ["window"]
    kept = record(run, claim("KEPT"), not_affected_by=["window"])
    assert kept["verdict"] == "reproduced"


def test_headline_verdict_and_its_errors(tmp_path):
    assert headline_verdict(["reproduced", "reproduced"]) == "reproduced"
    assert headline_verdict(["not reproduced", "void"]) == "not reproduced"
    assert headline_verdict(["reproduced", "void"]) == "partly"
    run = Run(DemoConfig(profile="quick"), out=tmp_path)
    with pytest.raises(ValueError, match="must name recorded claims"):
        run.headline("s", core=["X"], cause="c")
    with pytest.raises(ValueError, match="headline"):
        run.finish()


def test_finish_writes_the_result_json_and_the_scorecard(tmp_path):
    run = Run(DemoConfig(profile="quick", seed=7), out=tmp_path)
    record(run, claim("C1"), not_affected_by=["window"])
    record(run,
        claim("C2", verdict="not reproduced", kind="should", values={"x": np.float64(2.5)}),
        readings={"window=rolling": claim("C2")},
    )
    record(run, claim("K1", role="calibration"))
    record(run, claim("I1", role="invariant", verdict="not reproduced"))
    run.headline("Demo holds.", core=["C1", "C2"], cause="C2 misses its band.")
    fig, ax = plt.subplots()
    ax.plot([0, 1], [0, 1])
    run.save_figure(fig, "line", caption="A straight line", paper_figure="Fig. 2", claims=["C2"])
    plt.close(fig)
    assert run.finish() is None  # a notebook's last line shows no path
    assert (tmp_path / "figures" / "99_demo" / "claims.png").exists()  # the claims picture

    result = json.loads((tmp_path / "results" / "99_demo.json").read_text())
    assert set(result) == RESULT_KEYS
    assert (result["profile"], result["seed"], result["parameters"]) == (
        "quick",
        7,
        {"profile": "quick", "seed": 7, "n": 1},
    )
    assert result["figures"] == ["figures/99_demo/line.png"]  # the quick profile skips the SVG
    assert result["captions"]["figures/99_demo/line.png"] == "A straight line"
    assert result["figure_claims"]["figures/99_demo/line.png"] == {
        "paper_figure": "Fig. 2",
        "claims": ["C2"],
        "paper_marks": 0,  # the line marks none of the paper's numbers
    }
    assert figure_caption(result, "figures/99_demo/line.png") == (
        "Paper Fig. 2. A straight line. Our verdict: C2 not reproduced."
    )
    assert all(set(c) == CLAIM_KEYS for c in result["claims"])
    assert result["claims"][1]["values"] == {"x": 2.5}
    assert result["headline"]["verdict"] == "partly"
    assert result["headline"]["hangs_on"] == ["window"]
    assert result["readings"]["window"]["primary"] == "calendar"
    assert not list(tmp_path.rglob("*.tmp"))

    card = (tmp_path / "results" / "SCORECARD.md").read_text()
    assert ("**partly** (1 of 2 core claims reproduced: C1, C2; under window=rolling: "
            "**reproduced**).") in card
    assert "![99_demo: every test claim" in card  # the claims picture
    assert "- **C2** (not reproduced) — the paper: 1 · we: 1 ms · why: " in card
    # test claims only: 2, 1 reproduced, 1 not; 1/2 robust; calibration 1/1; invariants 0/1
    assert "| 99_demo | partly | quick | 7 |" in card
    assert "| 2 | 1 | 0 | 0 | 1 | 0 | 0 | 1/2 | 1/1 | 0/1 | — | — |" in card
    every = (tmp_path / "results" / "claims" / "99_demo.md").read_text()
    assert "Demo holds. **partly** (1 of 2 core claims" in every and "C2 misses its band." in every
    row = ("| ★ C2 | test | should | s | 1 | 1 ms | t | a fixed test value | not reproduced "
           "| hangs on")
    assert row in every
    assert ("| window | resolution | Which window does the paper average over? | calendar |"
            in every)


def test_the_full_profile_also_writes_an_svg(tmp_path):
    run = Run(DemoConfig(profile="full"), out=tmp_path)
    record(run, claim("C1"), not_affected_by=["window"])
    run.headline("Demo holds.", core=["C1"], cause="C1 is within its band.")
    fig, ax = plt.subplots()
    run.save_figure(fig, "line", "A line")
    plt.close(fig)
    assert run.figures == [
        tmp_path / "figures/99_demo/line.png",
        tmp_path / "figures/99_demo/line.svg",
    ]
    run.finish()  # which waits for the SVG, written in the background
    assert "<svg" in (tmp_path / "figures/99_demo/line.svg").read_text()


def test_relative_band_is_the_text_of_verdict_within():
    assert relative_band(0.02) == "±2 % relative"
    assert relative_band(0.02, 0.05) == "±2 % relative (partly within ±5 %)"


def test_load_results_is_empty_without_results(tmp_path):
    assert load_results(tmp_path) == []


def test_load_results_skips_json_that_is_not_a_notebook_result(tmp_path):
    folder = tmp_path / "results"
    folder.mkdir()
    (folder / "bench.json").write_text('{"devices": []}')
    result = json.loads((repo_root() / "results" / "00_simulator_validation.json").read_text())
    (folder / "x.json").write_text(json.dumps(result))
    assert load_results(tmp_path) == [result]
    (folder / "y.json").write_text('{"notebook": "y", "claims": []}')  # a result, damaged
    with pytest.raises(ValueError, match=r"y\.json: paper is missing"):
        load_results(tmp_path)


def test_a_figure_needs_a_caption_and_known_claims(tmp_path):
    run = Run(DemoConfig(profile="quick"), out=tmp_path)
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="caption"):
        run.save_figure(fig, "line", " ")
    run.save_figure(fig, "line", "A line", claims=["C9"])
    plt.close(fig)
    record(run, claim("C1"), not_affected_by=["window"])
    run.headline("Demo holds.", core=["C1"], cause="none")
    with pytest.raises(ValueError, match="C9"):
        run.result()


def test_a_saved_figure_is_shown_from_its_png_in_a_notebook(tmp_path, monkeypatch):
    """In a kernel the PNG just written is displayed (at the inline backend's size) and the
    figure closed, so it is not drawn again; outside one the figure stays open."""
    import IPython
    import IPython.display

    run = Run(DemoConfig(profile="quick"), out=tmp_path)
    fig, ax = plt.subplots(figsize=(3.0, 2.0))
    ax.plot([0, 1], [0, 1])
    run.save_figure(fig, "outside", "A line")
    assert plt.fignum_exists(fig.number)

    shown = []
    monkeypatch.setattr(IPython, "get_ipython", lambda: type("Shell", (), {"kernel": 1})())
    monkeypatch.setattr(IPython.display, "display", shown.append)
    with plt.rc_context({"figure.dpi": 100, "savefig.dpi": 200, "savefig.bbox": None}):
        run.save_figure(fig, "inside", "A line")
    assert not plt.fignum_exists(fig.number)
    (image,) = shown
    assert image.data == (tmp_path / "figures/99_demo/inside.png").read_bytes()
    assert image.width == 300  # 600 px saved at 200 dpi, shown as at 100 dpi


class _Table:
    """A large input that never changes once made (as a replicate table)."""

    DIGEST_ONCE = True
    pickled = 0

    def __init__(self, values):
        self.values = values

    def __reduce_ex__(self, protocol):
        type(self).pickled += 1
        return (_Table, (self.values,))


def test_a_digest_once_input_is_pickled_once_and_digests_as_before(monkeypatch):
    from storrepro.suite.claims import input_digest

    table = _Table(np.arange(1000.0))
    first = input_digest((table, "A0a"), {})
    again = [input_digest((table, "A0a"), {}) for _ in range(3)]
    assert again == [first] * 3 and _Table.pickled == 1  # the same prefix: hashed once
    assert input_digest((table, "A0b"), {}) != first  # what follows it still counts
    assert input_digest((table,), {}) != first  # and what precedes it
    monkeypatch.setattr(_Table, "DIGEST_ONCE", False)
    assert input_digest((table, "A0a"), {}) == first  # the digest of the plain pickle
    changed = _Table(np.arange(1000.0) + 1)
    monkeypatch.setattr(_Table, "DIGEST_ONCE", True)
    assert input_digest((changed, "A0a"), {}) != first  # another object: digested anew
