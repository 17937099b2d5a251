"""Bands from the papers' words, seed intervals, inconclusive verdicts, Run.judge, the
scorecard."""

import dataclasses
import hashlib
import math
import re

import numpy as np
import pandas as pd
import pytest

from storrepro.suite import bands, site
from storrepro.suite.claims import (
    HEADLINE_RULE,
    Claim,
    bootstrap_interval,
    ci_text,
    headline_verdict,
    input_digest,
    interval,
    judged,
    plain_words_problems,
)
from storrepro.suite.config import Forced, NotebookConfig, Param, Reading, real_vm_params
from storrepro.suite.data import real_vms
from storrepro.suite.run import Run
from storrepro.suite.scorecard import (
    build_claims,
    build_scorecard,
    core_reproduced,
    uncertainty_text,
)

APPROX = bands.approx_ratio("on a par")


@pytest.mark.parametrize(
    ("ci", "verdict"),
    [
        ((0.95, 1.10), "reproduced"),
        ((1.20, 1.40), "not reproduced"),
        ((0.50, 0.80), "not reproduced"),
        ((1.05, 1.25), "inconclusive"),
        ((0.80, 0.90), "inconclusive"),
    ],
)
def test_a_band_judges_the_whole_interval(ci, verdict):
    assert APPROX.judge(sum(ci) / 2, ci) == verdict


def test_without_an_interval_the_estimate_decides():
    assert APPROX.judge(1.1) == "reproduced"
    assert APPROX.judge(1.2) == "not reproduced"
    assert APPROX.judge(math.nan) == "not reproduced"


def test_the_vocabulary_bands():
    assert (APPROX.low, APPROX.high) == pytest.approx((1 / 1.15, 1.15))
    assert bands.significant_ratio("much lower").judge(1.16) == "reproduced"
    assert bands.significant_ratio("much lower").judge(1.10) == "not reproduced"
    assert bands.orders("orders of magnitude", 2).judge(99.0) == "not reproduced"
    assert bands.direction("lower", -1).judge(0.0) == "not reproduced"
    assert bands.direction("lower", -1).text() == "< 0 (direction: lower)"
    assert bands.direction("beats").text() == "> 0 (direction: beats)"
    assert bands.direction("lower", -1).judge(-0.1, (-0.2, -0.01)) == "reproduced"
    assert bands.direction("lower", -1).judge(-0.1, (-0.2, 0.05)) == "inconclusive"
    six = bands.number(6.2, 4.0, "6.2 % violations")
    assert (six.low, six.high) == pytest.approx((2.2, 10.2))
    rel = bands.number(50.0, 0.1, "50 ms", relative=True)
    assert (rel.low, rel.high) == pytest.approx((45.0, 55.0))
    assert bands.paper_range(50, 90, "50–90 %").judge(49.9) == "not reproduced"
    assert bands.at_most(2.0, "at most 2 %").judge(2.0) == "reproduced"
    assert bands.approx_points(6.2, "close to 6.2 %").judge(7.8) == "not reproduced"
    assert APPROX.source == "approx: on a par"
    assert APPROX.text("{:.2f}") == "in [0.87, 1.15] × (approx: on a par)"


@pytest.mark.parametrize(
    ("make", "match"),
    [
        (lambda: bands.Band("pilot", "sized from a run"), "band entry 'pilot'"),
        (lambda: bands.Band("approx", "  "), "quote the paper's words"),
        (lambda: bands.Band("number", "x", 2.0, 1.0), "low 2.0 must be <= high 1.0"),
        (lambda: bands.number(1.0, -0.1, "x"), "tolerance -0.1"),
        (lambda: bands.direction("x", 0), "sign 0"),
    ],
)
def test_bad_bands_are_refused(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_interval_by_students_t():
    u = interval([1.0, 2.0, 3.0], "ratio")
    half = 4.302652729911275 * 1.0 / math.sqrt(3)  # t(0.975, 2) · s / √n
    assert u["n"] == 3 and u["of"] == "ratio"
    assert u["ci95"] == pytest.approx([2 - half, 2 + half])
    assert interval([4.0], "x") == {"n": 1, "mean": 4.0, "ci95": None, "of": "x"}
    undefined = interval([1.0, math.nan, math.inf], "x")
    assert (undefined["undefined"], undefined["ci95"]) == (2, None)
    assert judged(APPROX, undefined) == "not checkable"
    assert bootstrap_interval([1.0, math.nan], "m")["undefined"] == 1
    with pytest.raises(ValueError, match="at least one sample"):
        interval([], "x")
    assert judged(APPROX, interval([1.0, 1.01, 0.99], "r")) == "reproduced"
    assert judged(APPROX, interval([1.0, 1.3, 0.9], "r")) == "inconclusive"


def test_bootstrap_interval_is_deterministic_and_covers_the_median():
    x = [1, 2, 3, 4, 100]
    a, b = bootstrap_interval(x, "m"), bootstrap_interval(x, "m")
    assert a == b and a["mean"] == 3.0
    assert a["ci95"][0] <= 3.0 <= a["ci95"][1]


def test_headline_rule():
    assert headline_verdict(["reproduced", "reproduced"]) == "reproduced"
    assert headline_verdict(["reproduced", "inconclusive"]) == "partly"
    assert headline_verdict(["partly", "not reproduced"]) == "partly"
    assert headline_verdict(["inconclusive", "not reproduced"]) == "inconclusive"
    assert headline_verdict(["void", "not checkable"]) == "not reproduced"
    assert "inconclusive" in HEADLINE_RULE


def test_input_digest_sees_a_changed_number():
    frame = pd.DataFrame({"a": [1.0, 2.0], "b": ["x", "y"]})
    assert input_digest(frame, {"k": np.arange(3)}) == input_digest(
        frame.copy(), {"k": np.arange(3)}
    )
    changed = frame.copy()
    changed.loc[1, "a"] = 2.0000000001
    assert input_digest(frame) != input_digest(changed)
    assert input_digest(1.0) != input_digest(1)
    two = pd.Series([1.0, 2.0], index=pd.MultiIndex.from_tuples([("a", 1), ("b", 2)]))
    other = pd.Series([1.0, 2.0], index=pd.MultiIndex.from_tuples([("a", 1), ("b", 3)]))
    assert input_digest(two) == input_digest(two.copy()) != input_digest(other)


class JudgeConfig(NotebookConfig):
    notebook = "98_judge"
    paper = "A. Author, Demo, 2020"
    params = {"n": Param(int, 1, 1, "size", low=1)}
    readings = {
        "model": Reading(
            question="Which model?",
            paper_words="the model",
            primary="a",
            alternatives={"a": "A", "b": "B"},
            argument="the paper says a",
        )
    }
    forced = {
        "limit": Forced(question="Which limit?", quote="\"the limit is 2\"", value="2",
                        kind="band", decides=("T1",)),
    }


def ratio_rule(samples, id="T1", requires=()):
    u = interval(samples, "measured / paper")
    return Claim(
        id=id, statement="on a par", paper_value=1.0, reproduced_value=f"{u['mean']:.2f}×",
        tolerance=APPROX.text(), verdict=judged(APPROX, u), reason="measured",
        band=APPROX.source, uncertainty=u, requires=requires,
    )


#: A band another module holds, for the register to quote (test_a_band_entry_quotes_its_band).
LIMIT_BANDS = {99.0: bands.at_most(2.0, "the limit is 2"), 99.9: bands.at_most(3.0, "or 3")}


def test_a_band_entry_quotes_its_bands_words_unless_it_quotes_its_own():
    band = Forced("Which limit?", "", "the band in the constant", kind="band",
                  symbol=f"{__name__}:LIMIT_BANDS")
    assert band.quoted() == "the limit is 2; or 3"
    assert dataclasses.replace(band, quote="own words").quoted() == "own words"
    with pytest.raises(ValueError, match="quote the words"):
        Forced("Which limit?", "", "2", kind="modelling", symbol=f"{__name__}:LIMIT_BANDS")


def test_judge_records_inputs_under_every_reading():
    run = Run(JudgeConfig(profile="quick"))
    entry = run.judge(ratio_rule, [1.0, 1.02, 0.98], by_reading={"model=b": ([1.0, 1.3, 1.5],)})
    assert entry["verdict"] == "reproduced"
    assert entry["by_reading"]["model=b"]["verdict"] == "inconclusive"
    assert entry["decided_by"] == ["model"]
    assert entry["inputs"] == input_digest(([1.0, 1.02, 0.98],), {})
    assert entry["by_reading"]["model=b"]["inputs"] != entry["inputs"]
    assert entry["uncertainty"]["n"] == 3
    assert "n = 3, 95 % CI" in uncertainty_text(entry)


def test_judge_refuses_a_test_claim_without_band_or_uncertainty():
    def bare(x):
        return Claim(id="T1", statement="s", paper_value=1, reproduced_value="1", tolerance="t",
                     verdict="reproduced", reason="r")

    run = Run(JudgeConfig(profile="quick"))
    with pytest.raises(ValueError, match="lacks a band naming its vocabulary entry"):
        run.judge(bare, 1, not_affected_by=["model"])


def test_a_claim_band_must_name_a_vocabulary_entry():
    with pytest.raises(ValueError, match="names no vocabulary entry"):
        Claim(id="X", statement="s", paper_value=1, reproduced_value="1", tolerance="t",
              verdict="reproduced", reason="r", band="pilot: sized from our run")


def test_an_inconclusive_prerequisite_caps_and_a_failed_one_voids():
    run = Run(JudgeConfig(profile="quick"))
    run.judge(ratio_rule, [1.0, 1.3, 0.9], id="P", not_affected_by=["model"])
    entry = run.judge(ratio_rule, [1.0, 1.0, 1.0], id="Q", requires=("P",),
                      not_affected_by=["model"])
    assert run.verdict("P") == "inconclusive"
    assert entry["verdict"] == "inconclusive"
    assert entry["reason"].startswith("Inconclusive: it requires P, which is inconclusive")
    run.judge(ratio_rule, [2.0, 2.0, 2.1], id="R", not_affected_by=["model"])
    assert run.judge(ratio_rule, [1.0], id="S", requires=("R",),
                     not_affected_by=["model"])["verdict"] == "void"


def test_the_headline_gives_the_verdict_under_each_reading_that_changes_it():
    run = Run(JudgeConfig(profile="quick"))
    run.judge(ratio_rule, [1.0, 1.01, 0.99], by_reading={"model=b": ([2.0, 2.1, 2.2],)})
    h = run.headline("It holds.", core=["T1"], cause="because")
    assert (h["verdict"], h["by_reading"]) == ("reproduced", {"model=b": "not reproduced"})
    assert core_reproduced(run.result()) == 1


def test_a_users_trace_is_named_in_every_reason(tmp_path):
    class TraceConfig(JudgeConfig):
        params = {"trace": Param(str, "", "", "a trace", is_file=True)}

    trace = tmp_path / "t.csv"
    trace.write_text("x")
    run = Run(TraceConfig(profile="quick", trace=str(trace)))
    entry = run.judge(ratio_rule, [1.0, 1.0], not_affected_by=["model"])
    assert entry["reason"].endswith("Checked on the user's trace t.csv (detected), not on the "
                                     "paper's data.")


def test_on_a_users_trace_a_calibration_is_not_applicable_and_stand_in_inputs_get_no_note(
    tmp_path,
):
    class TraceConfig(JudgeConfig):
        params = {"trace": Param(str, "", "", "a trace", is_file=True)}

    def fitted(value, role="calibration", id="C1"):
        return Claim(id=id, statement="fitted", paper_value="1.0", reproduced_value=f"{value}",
                     tolerance="±5 %", verdict="not reproduced", role=role,
                     reason="the generator's noise was fitted to it")

    trace = tmp_path / "t.csv"
    trace.write_text("x")
    run = Run(TraceConfig(profile="quick", trace=str(trace)))
    entry = run.judge(fitted, 1.4)
    assert entry["verdict"] == "not checkable"
    assert entry["reason"] == ("Not applicable: a target fitted to the synthetic stand-in, and "
                               "this run read the user's trace t.csv (detected) in its place (on "
                               "it: 1.4).")
    # inputs that stay the stand-in's (a grid the trace does not drive): as without a trace
    kept = run.judge(fitted, 1.4, id="C2", on_trace=False)
    assert (kept["verdict"], kept["reason"]) == ("not reproduced", fitted(1.4).reason)
    plain = run.judge(fitted, 2.0, role="analysis", id="A1", on_trace=False)
    assert plain["reason"] == fitted(2.0).reason
    # a config naming the claims its trace drives: the rest keep their verdict and reason
    class SomeDriven(TraceConfig):
        trace_claims = ("C3",)

    some = Run(SomeDriven(profile="quick", trace=str(trace)))
    assert some.judge(fitted, 1.4, id="C3")["verdict"] == "not checkable"
    assert some.judge(fitted, 1.4, id="C4")["reason"] == fitted(1.4).reason
    # a claim the trace cannot answer, and the stand-in's words said of the trace
    class Worded(TraceConfig):
        trace_not_checkable = {"A2": "no dates in the trace"}
        trace_words = {r"\bseeds\b": "replicates", r"generator's noise": "trace's noise"}

    worded = Run(Worded(profile="quick", trace=str(trace)))
    dated = worded.judge(fitted, 2.0, role="analysis", id="A2")
    assert (dated["verdict"], dated["reason"]) == ("not checkable", (
        "Not applicable: no dates in the trace, and this run read the user's trace t.csv "
        "(detected) in its place (on it: 2.0)."))
    entry = worded.judge(ratio_rule, [1.0, 1.0], id="T2", not_affected_by=["model"])
    assert entry["uncertainty"]["of"] == "measured / paper"
    said = worded.judge(lambda: dataclasses.replace(
        fitted(2.0, role="analysis", id="A3"), reason="the generator's noise on 0/2 seeds.",
        reproduced_value="0/2 seeds"))
    assert said["reason"].startswith("the trace's noise on 0/2 replicates. Checked on the user's")
    assert said["reproduced_value"] == "0/2 replicates"
    # without a trace nothing changes
    bare = Run(JudgeConfig(profile="quick")).judge(fitted, 1.4)
    assert (bare["verdict"], bare["reason"]) == ("not reproduced", fitted(1.4).reason)


def test_the_scorecard_states_the_headline_rule():
    run = Run(JudgeConfig(profile="quick"))
    run.judge(ratio_rule, [1.0, 1.01, 0.99], not_affected_by=["model"])
    run.headline("It holds.", core=["T1"], cause="because")
    result = run.result()
    card = build_scorecard([result])
    assert HEADLINE_RULE in card
    assert "(1 of 1 core claims reproduced: T1)" in card
    assert "- **T1** (reproduced) — the paper: 1 · we: 1.00× · why: measured" in card
    assert "[claims/98_judge.md](claims/98_judge.md)" in card
    every = build_claims(result)  # every claim, the readings and the register
    assert "## The rest of the decision register: choices taken as stated" in every
    assert "| ★ T1 | test |" in every


def test_real_data_claims_get_their_own_verdict_and_every_claim_says_its_input():
    def on_real(samples, id="T1-real", input="real VMs x.csv (sha256 ab)"):
        claim = ratio_rule(samples, id=id)
        return dataclasses.replace(claim, values={"input": input})

    run = Run(JudgeConfig(profile="quick"))
    run.judge(ratio_rule, [1.0, 1.01, 0.99], not_affected_by=["model"])
    run.judge(on_real, [1.6, 1.7, 1.65], not_affected_by=["model"])
    run.judge(on_real, [math.nan, 1.0], "T2-real", "", not_affected_by=["model"])
    h = run.headline("It holds.", core=["T1"], cause="because")
    assert h["verdict"] == "reproduced"  # the real-data claims are not folded in
    assert h["real_data"]["verdict"] == "not reproduced"  # T2-real, not checkable, left out
    assert set(h["real_data"]["claims"]) == {"T1-real", "T2-real"}
    why = h["real_data"]["claims"]["T2-real"]  # what it lacks, not an empty value
    assert why.startswith("not checkable: ") and "—" not in why and len(why) > 30
    card = build_scorecard([run.result()])
    assert "On real data, judged apart from the stand-in: **not reproduced**" in card
    claims = build_claims(run.result())
    assert "| judged on |" in claims and "| real VMs x.csv (sha256 ab) |" in claims
    assert "| no real-data file |" in claims and "| synthetic stand-in |" in claims
    bare = Run(JudgeConfig(profile="quick"))
    bare.judge(ratio_rule, [1.0, 1.01, 0.99], not_affected_by=["model"])
    assert bare.headline("It holds.", core=["T1"], cause="because")["real_data"] is None


def test_a_run_records_its_real_vm_file_and_digest_and_each_claim_what_it_was_judged_on(
        tmp_path, monkeypatch):
    vms = tmp_path / "vms.csv"
    vms.write_text("vm,interval,requests,ts\nw1,0,4,100\n")
    digest = hashlib.sha256(vms.read_bytes()).hexdigest()

    class RealConfig(JudgeConfig):
        params = {**JudgeConfig.params, **real_vm_params()}

    monkeypatch.setenv(real_vms.ENV, str(vms))  # no file named: the default, recorded
    run = Run(RealConfig(profile="quick"))
    run.judge(ratio_rule, [1.0, 1.01, 0.99], not_affected_by=["model"])
    run.headline("It holds.", core=["T1"], cause="because")
    result = run.result()
    assert result["real_data"] == {"file": str(vms), "sha256": digest}
    assert f"Input: synthetic stand-in; real data: {vms} (sha256 {digest})." in build_claims(
        result)
    monkeypatch.setattr(site, "notebook_title", str)  # a test config has no notebook
    page = site.claims_page(result)
    assert f"real data: {vms} (sha256 {digest[:16]}…)" in page
    assert "judged on: synthetic stand-in" in page
    monkeypatch.delenv(real_vms.ENV)
    monkeypatch.setattr(real_vms, "default_path", lambda: None)
    bare = Run(RealConfig(profile="quick"))
    bare.judge(ratio_rule, [1.0, 1.01, 0.99], not_affected_by=["model"])
    bare.headline("It holds.", core=["T1"], cause="because")
    assert "real_data" not in bare.result()


def test_a_quantity_undefined_on_a_replicate_is_not_checkable_and_says_why():
    run = Run(JudgeConfig(profile="quick"))
    entry = run.judge(ratio_rule, [1.0, math.nan], not_affected_by=["model"])
    assert entry["verdict"] == "not checkable"
    assert entry["reason"].endswith("Not checkable: measured / paper is undefined on 1 of 2 "
                                    "replicates.")


def test_ci_text_states_the_interval_one_replicate_and_undefined_values():
    u = interval([1.0, 2.0, 3.0], of="x")  # mean 2, half-width t(2)·1/√3 = 2.484
    assert ci_text(u) == "2 (95 % CI -0.484 to 4.48, n = 3)"
    assert ci_text(u, fmt="{:.1f}", scale=100, unit=" %") == (
        "200.0 % (95 % CI -48.4 % to 448.4 %, n = 3)")
    assert ci_text(interval([0.5], of="x")) == "0.5 (n = 1)"
    assert ci_text(interval([1.0, float("nan")], of="x")) == "undefined on 1 of 2 replicates"


def test_a_plain_headline_has_no_claim_ids_and_no_unexplained_abbreviations():
    ok = ("Partly reproduced: the SSD scheduler cuts the worst tail, TOFEC adapts its code and "
          "AccGecko admits more than SNC-Meister.")
    assert plain_words_problems(ok, ["F3", "B9d"]) == []
    assert plain_words_problems("Not reproduced: F3 fails.", ["F3"]) == ["claim ids ['F3']"]
    assert plain_words_problems("Not reproduced: the FG cores wait.", []) == [
        "abbreviations not in the glossary ['FG']"]
    assert plain_words_problems("word " * 41, []) == ["41 words (at most 40)"]


def test_the_headline_refuses_a_summary_a_reader_cannot_follow_and_shows_a_plain_one():
    run = Run(JudgeConfig(profile="quick"))
    run.judge(ratio_rule, [1.0, 1.01, 0.99], not_affected_by=["model"])
    with pytest.raises(ValueError, match=r"claim ids \['T1'\]"):
        run.headline("It holds.", core=["T1"], cause="because", summary="Reproduced: T1 holds.")
    run.headline("It holds.", core=["T1"], cause="because",
                 summary="Reproduced: the method matches the paper.")
    card = build_scorecard([run.result()])
    assert "Reproduced: the method matches the paper. **reproduced** (1 of 1" in card
    assert "Reproduced: the method matches the paper. In detail: It holds." in build_claims(
        run.result())


def test_the_scorecard_writes_values_for_people():
    run = Run(JudgeConfig(profile="quick"))

    def unbounded(x):
        return Claim(id="T1", statement="s", paper_value=None, reproduced_value="DB inf %",
                     tolerance="t", verdict="not reproduced", reason=f"gap {x} ms",
                     band=APPROX.source, no_uncertainty="fixed data")

    run.judge(unbounded, float("nan"), not_affected_by=["model"])
    run.headline("It holds.", core=["T1"], cause="grows inf×")
    card = build_scorecard([run.result()]) + build_claims(run.result())
    assert "DB unbounded %" in card and "gap — ms" in card and "grows unbounded×" in card
    assert not re.search(r"\b(inf|nan|None)\b", card)
