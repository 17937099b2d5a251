"""The claims-table core's own rules (the template paper's tests cover the common path): how
parts combine, a rule that adds to its band, a pool read under a reading, one value."""

import sys
from functools import partial

import pytest

from storrepro.suite import bands
from storrepro.suite.replicates import Pool
from storrepro.suite.table import Measured, Part, Row, band_entries, judge_row

ME = sys.modules[__name__]
WORDS = "'both are on a par'"
BOTH = Row(id="P", statement="a and b on a par", words=WORDS, paper_value=1.0,
           parts=(Part("a", partial(bands.approx_ratio), "a / paper"),
                  Part("b", partial(bands.approx_ratio), "b / paper")), combine="partly")


def measure_p(inputs) -> Measured:
    return Measured(inputs, "a and b")


def test_parts_that_must_all_hold_give_partly_when_one_holds_and_one_fails():
    assert judge_row(BOTH, ME, {"a": [1.0, 1.01], "b": [1.0, 0.99]}, {}).verdict == "reproduced"
    one = judge_row(BOTH, ME, {"a": [1.0, 1.01], "b": [2.0, 2.1]}, {})
    assert one.verdict == "partly" and one.values["verdict_per_part"]["b"] == "not reproduced"
    assert one.uncertainty["of"] == "b / paper"  # the worst part decides the record
    straddles = judge_row(BOTH, ME, {"a": [1.0, 1.01], "b": [1.0, 1.5]}, {})
    assert straddles.verdict == "inconclusive"
    worst = judge_row(Row(**{**BOTH.__dict__, "combine": "worst"}), ME,
                      {"a": [1.0, 1.01], "b": [2.0, 2.1]}, {})
    assert worst.verdict == "not reproduced"
    with pytest.raises(ValueError, match="combine 'most'"):
        Row(**{**BOTH.__dict__, "combine": "most"})


SHAPE = Row(id="S", statement="falls", words="'falls smoothly'", paper_value="falls",
            band=partial(bands.Band, "direction"), of="rises", tolerance="never rises",
            no_uncertainty="a shape")


def measure_s(rises) -> Measured:
    return Measured(rises, f"{rises} rises", verdict="not reproduced" if rises else "reproduced",
                    reason="Counted.")


def test_a_rule_that_adds_to_its_band_decides_and_keeps_the_band():
    ok, bad = (judge_row(SHAPE, ME, n, {}) for n in (0, 2))
    assert (ok.verdict, bad.verdict) == ("reproduced", "not reproduced")
    assert bad.band == "direction: 'falls smoothly'" and bad.tolerance.startswith("never rises (")
    assert bad.uncertainty is None  # one value: no interval, the row says why
    assert band_entries([SHAPE], "m")["S band"]["value"] == bad.tolerance  # the rule, not "> 0"


def test_a_row_that_states_its_rule_must_return_its_verdict():
    with pytest.raises(ValueError, match="must return its verdict"):
        judge_row(SHAPE, type("M", (), {"measure_s": lambda x: Measured(x, "x")}), 0, {})


POOLED = Row(id="Q", statement="x on a par", words=WORDS, paper_value=1.0, pool="reps",
             band=partial(bands.approx_ratio), of="x / paper")


def measure_q(replicates, inputs) -> Measured:
    values = [r[inputs] for r in replicates]
    return Measured(values, f"{inputs}")


def test_a_pool_measure_that_names_inputs_reads_the_replicates_under_the_reading():
    reps = [{"a": 1.0, "b": 2.0}, {"a": 1.01, "b": 2.1}, {"a": 0.99, "b": 1.9}]
    pool = Pool("reps", lambda idx: [reps[i] for i in idx], start=3, cap=3, cap_why="the list")
    assert judge_row(POOLED, ME, "a", {"reps": pool}).verdict == "reproduced"
    assert judge_row(POOLED, ME, "b", {"reps": pool}).verdict == "not reproduced"


def test_a_claim_id_with_brackets_and_dots_names_its_functions():
    row = Row(id="B1-(1,1)", statement="s", words=WORDS, paper_value=1.0,
              band=partial(bands.approx_ratio), of="x")
    module = type("M", (), {"measure_b1_1_1": staticmethod(lambda x: Measured(x, "x"))})
    assert judge_row(row, module, [1.0, 1.01], {}).verdict == "reproduced"


def test_a_row_names_its_fixed_cause_only_when_not_reproduced():
    row = Row(**{**POOLED.__dict__, "pool": "", "miss": "The cause."})
    module = type("M", (), {"measure_q": staticmethod(lambda x: Measured(x, "x"))})
    assert "The cause." not in judge_row(row, module, [1.0, 1.01], {}).reason
    assert judge_row(row, module, [2.0, 2.01], {}).reason.endswith("The cause.")


def test_one_value_keeps_its_record_unless_the_row_says_why_it_has_no_interval():
    row = Row(**{**POOLED.__dict__, "pool": ""})
    module = type("M", (), {"measure_q": staticmethod(lambda x: Measured(x, "x"))})
    assert judge_row(row, module, 1.0, {}).uncertainty["n"] == 1
    said = Row(**{**row.__dict__, "no_uncertainty": "one run"})
    assert judge_row(said, module, 1.0, {}).uncertainty is None

