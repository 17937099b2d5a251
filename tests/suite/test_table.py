"""The claims table's parts, ceilings and statistics (:mod:`storrepro.suite.table`), each on a
hand-made measure; and a measure that judges the row's bands on several groups itself (a count
over groups), whose verdict, reason and deciding interval the core keeps with the row's band;
a rule that adds to its band, a pool read under a reading, one value; intervals a measure
computed itself, judged with the bands it names, and the bands of a point check."""

import sys
from functools import partial

import pytest

from storrepro.suite import bands, claims
from storrepro.suite.replicates import Pool
from storrepro.suite.table import Measured, Part, Row, band_entries, combined, grow, judge_row

PARTS = (Part("a", partial(bands.at_least, 1.0), of="a per replicate"),
         Part("b", partial(bands.at_least, 1.0), of="b per replicate", statistic="median"))


def row(**kw):
    return Row(id="X1", statement="both parts hold", words="'at least one'", paper_value=1,
               parts=PARTS, **kw)


def measure_x1(inputs):
    return Measured(inputs["values"], "measured", verdict=inputs.get("verdict", ""),
                    reason=inputs.get("reason", ""))


def judged(values, **kw):
    inputs = {"values": values, **kw.pop("inputs", {})}
    return judge_row(row(**kw), sys.modules[__name__], inputs, {})


def test_parts_combine_worst_or_partly():
    held, failed = [2.0, 2.1, 1.9], [0.2, 0.1, 0.3]
    assert judged({"a": held, "b": failed}).verdict == "not reproduced"
    assert judged({"a": held, "b": failed}, combine="partly").verdict == "partly"
    assert combined(["reproduced", "inconclusive", "not reproduced"], "partly") == "inconclusive"
    assert combined(["not reproduced", "not reproduced"], "partly") == "not reproduced"
    assert combined(["inconclusive", "not reproduced"], "sizes") == "partly"
    assert combined(["reproduced", "inconclusive"], "sizes") == "inconclusive"
    with pytest.raises(ValueError, match="combine 'some'"):
        row(combine="some")


def test_a_part_has_its_own_statistic():
    claim = judged({"a": [2.0, 2.1, 1.9], "b": [2.0, 50.0, 1.5, 1.6, 1.7]})
    assert claim.values["verdict_per_part"] == {"a": "reproduced", "b": "reproduced"}
    with pytest.raises(ValueError, match="part statistic 'mode'"):
        Row(id="X2", statement="s", words="w", paper_value=1,
            parts=(Part("a", partial(bands.at_least, 1.0), of="a", statistic="mode"),))


def test_a_measures_verdict_is_a_ceiling_and_not_checkable_needs_no_values():
    held = {"a": [2.0, 2.1, 1.9], "b": [2.0, 2.1, 1.9]}
    capped = judged(held, inputs={"verdict": "not reproduced", "reason": "Smart above fixed."})
    assert capped.verdict == "not reproduced" and "Smart above fixed." in capped.reason
    nothing = judged({}, inputs={"verdict": "not checkable", "reason": "No file."})
    assert nothing.verdict == "not checkable" and nothing.uncertainty is None


def test_the_geometric_mean_of_ratios():
    from storrepro.suite.replicates import estimate

    u = estimate([2.0, 8.0], "ratio", "geomean")
    assert u["mean"] == pytest.approx(4.0) and u["ci95"][0] < 4.0 < u["ci95"][1]
    assert estimate([2.0, 0.0], "ratio", "geomean")["undefined"] == 1


def test_a_claim_without_a_band_states_its_rule_and_a_calibration_is_registered():
    from storrepro.suite.table import band_entries

    target = Row(id="X3", role="calibration", statement="s", words="'about 5'", paper_value=5,
                 rule="within 1 of 5 on every seed")
    claim = judge_row(target, sys.modules[__name__], {"verdict": "reproduced", "reason": "Ok."},
                      {})
    assert claim.tolerance == "within 1 of 5 on every seed" and claim.verdict == "reproduced"
    entries = band_entries([target, row()], "m")
    assert entries["X3 target"]["value"] == target.rule and entries["X3 target"]["kind"] == (
        "calibration")
    assert "X1 band" in entries and "X3 band" not in entries


def measure_x3(inputs):
    return Measured(None, "5", verdict=inputs["verdict"], reason=inputs["reason"])


ROW = Row(id="G1", statement="Above 1 on at least 2 of 3 groups", words="'mostly above one'",
          paper_value="2/3", band=partial(bands.at_least, 1.0), of="x per replicate")


def measure_g1(groups) -> Measured:
    band = ROW.bands()[""]
    records = sorted((claims.interval(x, f"x, {g}") for g, x in groups.items()),
                     key=lambda u: u["mean"], reverse=True)
    second = records[1]  # 'on at least 2': the second best decides
    return Measured(None, f"second best {second['mean']:g}", {}, claims.judged(band, second),
                    f"The second best group is at {second['mean']:g}.", second)


def test_the_measure_judges_the_groups_and_the_core_keeps_the_band():
    module = sys.modules[__name__]
    held = judge_row(ROW, module, {"a": [2, 2.1], "b": [1.5, 1.51], "c": [0, 0.1]}, {})
    assert held.verdict == "reproduced" and held.uncertainty["of"] == "x, b"
    assert held.band == "bound: 'mostly above one'" and held.band_range["low"] == 1.0
    failed = judge_row(ROW, module, {"a": [2, 2.1], "b": [0.5, 0.51], "c": [0, 0.1]}, {})
    assert failed.verdict == "not reproduced" and "at 0.505" in failed.reason


def test_a_test_claim_judged_by_its_measure_must_give_the_deciding_interval(monkeypatch):
    module = sys.modules[__name__]
    monkeypatch.setattr(module, "measure_g1", lambda groups: Measured(None, "x", {}, "reproduced",
                                                                      "held"))
    with pytest.raises(ValueError, match="must return the interval that decided"):
        judge_row(ROW, module, {}, {})


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


def test_a_rule_rows_verdict_decides_and_without_one_its_band_does():
    """A row whose rule adds to its band (``tolerance``: 'or the delay trends up') takes the
    measure's verdict, which may lift the band's; without a verdict the band decides; a row
    without its own rule takes a verdict only as a ceiling."""
    rule = Row(id="R", statement="x on a par, or trending", words=WORDS, paper_value=1.0,
               band=partial(bands.approx_ratio), of="x / paper", tolerance="on a par, or trends")

    def verdict_of(row, values, verdict):
        module = type("M", (), {"measure_r": staticmethod(
            lambda x: Measured(x, "x", verdict=verdict, reason="Trend." if verdict else ""))})
        return judge_row(row, module, values, {}).verdict

    assert verdict_of(rule, [1.0, 1.01], "") == "reproduced"
    assert verdict_of(rule, [2.0, 2.1], "") == "not reproduced"
    assert verdict_of(rule, [2.0, 2.1], "reproduced") == "reproduced"  # the rule's other way
    plain = Row(**{**rule.__dict__, "tolerance": ""})
    assert verdict_of(plain, [2.0, 2.1], "reproduced") == "not reproduced"  # a ceiling only
    assert verdict_of(plain, [1.0, 1.01], "not reproduced") == "not reproduced"


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


def test_pools_grow_for_every_row_before_any_is_judged():
    # "a" decides on the first 2 replicates; "b" straddles its band there and grows the pool
    # to its cap: "a" is then judged on all 4, never on fewer than a claim judged after it
    reps = [{"a": 1.0, "b": 1.5}, {"a": 1.01, "b": 0.6}, {"a": 1.0, "b": 1.4},
            {"a": 0.99, "b": 1.3}]
    pool = Pool("reps", lambda idx: [reps[i] for i in idx], start=2, cap=4, cap_why="the list")
    grow([(POOLED, "a", {"reps": pool}), (POOLED, "b", {"reps": pool})], ME)
    assert pool.drawn == 4
    assert judge_row(POOLED, ME, "a", {"reps": pool}).uncertainty["n"] == 4
    assert grow([(POOLED, "a", {"reps": pool})], ME) is None and pool.drawn == 4


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
    assert judge_row(said, module, 1.0, {}).no_uncertainty == "one run"
    several = judge_row(said, module, [1.0, 1.01], {})  # an interval: nothing to say why not
    assert several.uncertainty["n"] == 2 and several.no_uncertainty == ""



REGISTERED = bands.direction("'it is better'")  # a band the paper's register names already


def test_a_row_with_a_registered_band_uses_it_and_writes_no_register_entry():
    named = Row(id="R1", statement="s", words=REGISTERED.words, paper_value="better",
                band=REGISTERED, of="margin")
    parts = Row(id="R2", statement="s", words=REGISTERED.words, paper_value="better",
                parts=(Part("a", REGISTERED, of="a"), Part("b", REGISTERED, of="b")))
    built = Row(id="R3", statement="s", words=REGISTERED.words, paper_value="better",
                band=partial(bands.direction), of="margin")
    assert named.bands() == {"": REGISTERED} and named.registered() and parts.registered()
    assert not built.registered()
    assert set(band_entries([named, parts, built], "m")) == {"R3 band"}
    module = type("M", (), {"measure_r1": staticmethod(lambda x: Measured(x, "x"))})
    assert judge_row(named, module, [-0.2, -0.3, -0.25, -0.2], {}).verdict == "not reproduced"


def test_a_registered_band_lends_its_words_a_built_one_needs_them_and_edges_print_in_fmt():
    assert Row(id="R1", statement="s", paper_value=1, band=REGISTERED, of="m").words == \
        REGISTERED.words
    with pytest.raises(ValueError, match="R2.*quote the paper's words"):
        Row(id="R2", statement="s", paper_value=1, band=partial(bands.at_least, 1.0), of="m")
    ranged = Row(id="R3", statement="s", words="'about 2'", paper_value=2, of="m",
                 band=partial(bands.paper_range, 1.5, 2.5), fmt="{:.2f}")
    module = type("M", (), {"measure_r3": staticmethod(lambda x: Measured(x, "x"))})
    assert judge_row(ranged, module, [2.0, 2.1], {}).tolerance.startswith("in [1.50, 2.50]")
    edge = Row(id="R3", statement="s", words="'about 1'", paper_value=1, of="m", fmt="{:.3f}",
               band=partial(bands.paper_range, 1 / 1.15, 1.15))  # the edge is never rounded
    assert judge_row(edge, module, [1.0, 1.1], {}).tolerance.startswith("in [0.869565, 1.15]")


def test_a_measure_describes_its_interval_and_a_row_writes_its_tolerance():
    row = Row(id="R1", statement="s", words=REGISTERED.words, paper_value="better",
              band=REGISTERED, of="margin", tolerance_text="> 0, on the smaller margin")
    module = type("M", (), {"measure_r1": staticmethod(
        lambda x: Measured(x, "x", of=f"margin, over {len(x)} blocks"))})
    claim = judge_row(row, module, [0.2, 0.3, 0.25], {})
    assert claim.uncertainty["of"] == "margin, over 3 blocks" and "over 3 blocks" in claim.reason
    assert claim.tolerance == "> 0, on the smaller margin" and claim.verdict == "reproduced"
    plain = judge_row(Row(**{**row.__dict__, "tolerance_text": ""}), module, [0.2, 0.3], {})
    assert plain.tolerance == REGISTERED.text()


def test_a_measure_says_why_its_interval_is_partial_and_keeps_its_record(monkeypatch):
    one = {"n": 1, "mean": 2.0, "ci95": None, "of": "x, one draw"}
    monkeypatch.setattr(ME, "measure_g1", lambda groups: Measured(
        None, "2", {}, "reproduced", "held", one, no_uncertainty="one draw of the data"))
    claim = judge_row(ROW, ME, {}, {})
    assert claim.uncertainty == one and claim.no_uncertainty == "one draw of the data"
    monkeypatch.setattr(ME, "measure_g1", lambda groups: Measured(
        None, "none", {}, "not checkable", "nothing in reach", None, no_uncertainty="no part"))
    assert judge_row(ROW, ME, {}, {}).no_uncertainty == "no part"
    monkeypatch.setattr(ME, "measure_g1", lambda groups: Measured(
        None, "none", {}, "not checkable", "nothing in reach"))
    assert judge_row(ROW, ME, {}, {}).no_uncertainty == "nothing in reach"


UP = bands.at_least(1.0, "'above one at p99 and p99.9'")
RATIO = bands.at_most(0.5, "'at most half'")
OWN = Row(id="R", statement="above one at both percentiles, the ratio at most half",
          words="'above one at p99 and p99.9; at most half'", paper_value="> 1; ≤ 0.5")


def measure_r(inputs) -> Measured:
    """Intervals the measure computed itself (here given): a maximum on its value alone."""
    return Measured(None, "x", intervals={
        "p99": (UP, inputs["p99"]), "ratio": (RATIO, inputs["ratio"]),
        "p99.9": (UP, inputs["p99.9"])}, reason="Measured.")


def _u(mean, ci=None):
    return {"n": 20 if ci else 1, "mean": mean, "ci95": ci, "of": "x"}


def test_a_measures_own_intervals_are_judged_with_their_bands_and_shown():
    held = judge_row(OWN, ME, {"p99": _u(3.0, [2.0, 4.0]), "ratio": _u(0.2, [0.1, 0.3]),
                               "p99.9": _u(2.0)}, {})
    assert held.verdict == "reproduced" and held.reason == "Measured."
    assert held.band == f"{UP.source} | {RATIO.source}"
    assert held.band_range == {"low": 1.0, "high": float("inf"), "unit": ""}  # the deciding part's
    assert held.tolerance == f"{UP.text()}; {RATIO.text()}"
    failed = judge_row(OWN, ME, {"p99": _u(3.0, [0.5, 4.0]), "ratio": _u(0.2, [0.1, 0.3]),
                                 "p99.9": _u(0.5)}, {})
    assert failed.verdict == "not reproduced"  # p99 straddles, p99.9 (a maximum) is below
    assert failed.uncertainty["of"] == "p99.9: x" and failed.uncertainty["n"] == 1
    assert failed.uncertainty["parts"]["p99"] == {"verdict": "inconclusive", "mean": 3.0,
                                                  "ci95": [0.5, 4.0]}
    over = judge_row(OWN, ME, {"p99": _u(3.0, [2.0, 4.0]), "ratio": _u(0.8, [0.7, 0.9]),
                               "p99.9": _u(2.0)}, {})
    assert over.verdict == "not reproduced" and over.band_range["high"] == 0.5  # the ratio's
    partly = Row(**{**OWN.__dict__, "combine": "partly"})
    assert judge_row(partly, ME, {"p99": _u(3.0, [2.0, 4.0]), "ratio": _u(0.2, [0.1, 0.3]),
                                  "p99.9": _u(0.5)}, {}).verdict == "partly"


def test_one_own_interval_is_the_claims_record_and_a_point_check_shows_its_band(monkeypatch):
    from storrepro.suite.table import judge_intervals

    assert judge_intervals({"": (UP, _u(0.5, [0.4, 0.6]))}) == ("not reproduced",
                                                               _u(0.5, [0.4, 0.6]))
    monkeypatch.setattr(ME, "measure_r", lambda inputs: Measured(
        None, "x", verdict="not reproduced", reason="Below.", bands=(UP,)))
    point = judge_row(OWN, ME, {}, {})
    assert point.band == UP.source and point.tolerance == UP.text()
    assert point.uncertainty is None and point.verdict == "not reproduced"
    monkeypatch.setattr(ME, "measure_r", lambda inputs: Measured(
        [1.0], "x", intervals={"": (UP, _u(2.0))}, reason="Both."))
    with pytest.raises(ValueError, match="neither values nor a band in the row"):
        judge_row(OWN, ME, {}, {})


def test_the_first_worst_interval_decides_and_none_is_refused():
    from storrepro.suite.table import judge_intervals

    low = bands.at_most(2.0, "a bound")
    parts = {"ok": (low, _u(1.0)), "edge": (low, {"n": 9, "mean": 1.5, "ci95": [1.0, 3.0],
                                                  "of": "y"}), "out": (low, _u(5.0))}
    verdict, u = judge_intervals(parts)
    assert verdict == "not reproduced" and u["of"] == "out: x"
    assert u["parts"]["edge"]["verdict"] == "inconclusive"
    del parts["out"]
    assert judge_intervals(parts)[0] == "inconclusive"
    with pytest.raises(ValueError, match="no intervals"):
        judge_intervals({})
