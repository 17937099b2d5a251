"""A claim whose measure judges the row's bands on several groups itself (a count over groups):
the core keeps its verdict, reason and deciding interval, and the band built from the row."""

import sys
from functools import partial

import pytest

from storrepro.suite import bands
from storrepro.suite.claims import interval, judged
from storrepro.suite.table import Measured, Row, judge_row

ROW = Row(id="G1", statement="Above 1 on at least 2 of 3 groups", words="'mostly above one'",
          paper_value="2/3", band=partial(bands.at_least, 1.0), of="x per replicate")


def measure_g1(groups) -> Measured:
    band = ROW.bands()[""]
    records = sorted((interval(x, f"x, {g}") for g, x in groups.items()),
                     key=lambda u: u["mean"], reverse=True)
    second = records[1]  # 'on at least 2': the second best decides
    return Measured(None, f"second best {second['mean']:g}", {}, judged(band, second),
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
