import pytest

from storrepro.suite import bands
from storrepro.suite.config import NotebookConfig, Param, Reading
from storrepro.suite.consistency import POSSIBLE, RULED_OUT, ConsistencyError, Reported, check
from storrepro.suite.run import Run

#: A toy paper that reports "no request ever under-predicted" (0 % negative error).
ZERO = Reported(quote="'0 % of the predictions were below the actual latency' (§4)",
                paper_value="0 %", band=bands.at_most(1.0, "'0 %', printed to the percent", "%"),
                of="share of negative errors (%)")


class ToyConfig(NotebookConfig):
    notebook = "97_toy"
    paper = "A. Author, Toy, 2020"
    params = {"n": Param(int, 1, 1, "size", low=1)}
    readings = {
        "trn": Reading(question="Which requests?", paper_words="'the requests'", primary="all",
                       alternatives={"all": "every request", "burst": "the burst's"},
                       argument="the text's first reading"),
    }


def test_check_rules_out_an_alternative_whose_interval_lies_outside():
    record = check(ZERO, {"all": [40.0, 42.0, 38.0], "burst": [0.0, 0.5, 1.5]})
    assert record["alternatives"]["all"]["verdict"] == RULED_OUT
    assert record["alternatives"]["burst"]["verdict"] == POSSIBLE
    assert record["band_range"] == {"low": float("-inf"), "high": 1.0, "unit": "%"}
    # one number and no interval: the number alone decides
    assert check(ZERO, {"all": 0.5, "burst": 3.0})["alternatives"]["burst"]["verdict"] == \
        RULED_OUT


def test_a_ruled_out_primary_cannot_stay_primary():
    run = Run(ToyConfig(profile="quick"))
    with pytest.raises(ConsistencyError, match="primary 'all' is ruled out.*'burst'"):
        run.consistency("trn", ZERO, {"all": [40.0, 42.0, 38.0], "burst": [0.0, 0.5, 1.5]})


def test_a_possible_primary_is_recorded_with_what_it_rules_out():
    class BurstFirst(ToyConfig):
        readings = {"trn": Reading(**{**ToyConfig.readings["trn"].__dict__, "primary": "burst"})}

    run = Run(BurstFirst(profile="quick"))
    run.consistency("trn", ZERO, {"all": [40.0, 42.0, 38.0], "burst": [0.0, 0.5, 1.5]})
    entry = run._consistency.entry("trn")
    assert entry["ruled_out"] == {"all": [ZERO.quote]} and entry["none"] == ""


def test_every_alternative_is_measured_and_the_reading_exists():
    run = Run(ToyConfig(profile="quick"))
    with pytest.raises(ValueError, match="missing \\['burst'\\]"):
        run.consistency("trn", ZERO, {"all": 0.0})
    with pytest.raises(ValueError, match="unknown reading 'other'"):
        run.consistency("other", ZERO, {"all": 0.0})
    with pytest.raises(ValueError, match="say why"):
        run.no_discriminating_result("trn", "")
    run.no_discriminating_result("trn", "the paper reports no result under either")
    assert run._consistency.entry("trn")["none"].startswith("the paper reports")


def test_a_reported_result_needs_its_words_and_a_band():
    with pytest.raises(ValueError, match="quote must say"):
        Reported(quote="", paper_value="0 %", band=ZERO.band, of="x")
    with pytest.raises(ValueError, match="must be a bands.Band"):
        Reported(quote="'q'", paper_value="0 %", band="at most 1", of="x")


def test_the_headline_and_scorecard_say_what_the_paper_rules_out():
    from storrepro.suite.claims import Claim
    from storrepro.suite.scorecard import consistency_text, headline_text

    class BurstFirst(ToyConfig):
        readings = {"trn": Reading(**{**ToyConfig.readings["trn"].__dict__, "primary": "burst"})}

    def rule(verdict):
        return Claim(id="T1", statement="s", paper_value=1, reproduced_value="1", tolerance="t",
                     verdict=verdict, reason="r", band="number: 1", no_uncertainty="fixed")

    run = Run(BurstFirst(profile="quick"))
    run.judge(rule, "reproduced", by_reading={"trn=all": ("not reproduced",)})
    run.consistency("trn", ZERO, {"all": [40.0, 42.0, 38.0], "burst": [0.0, 0.5, 1.5]})
    run.headline("s", core=["T1"], cause="c", summary="Reproduced: a toy.")
    result = run.result()
    assert result["headline"]["ruled_out"] == {"trn=all": [ZERO.quote]}
    assert result["headline"]["unchecked"] == []
    assert "trn=all: **not reproduced** (ruled out by: " in headline_text(result)
    line = consistency_text(result["readings"]["trn"]["consistency"])
    assert "rules out all" in line and "measured all: 40" in line
    assert consistency_text(None) == "no record"


def test_a_reading_the_headline_hangs_on_without_a_record_is_listed_unchecked():
    from storrepro.suite.claims import Claim

    def rule(verdict):
        return Claim(id="T1", statement="s", paper_value=1, reproduced_value="1", tolerance="t",
                     verdict=verdict, reason="r", band="number: 1", no_uncertainty="fixed")

    run = Run(ToyConfig(profile="quick"))
    run.judge(rule, "reproduced", by_reading={"trn=burst": ("not reproduced",)})
    run.headline("s", core=["T1"], cause="c", summary="Reproduced: a toy.")
    assert run.result()["headline"]["unchecked"] == ["trn"]
