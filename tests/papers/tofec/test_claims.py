"""TOFEC's claims tables as a whole: every row's band from the shared vocabulary and the
paper's words, one function per claim, the register's band entries written from the rows, the
deciding λ of a claim judged at every λ, and the readings declared."""

import numpy as np
import pytest

from storrepro.papers.tofec.claims import (
    PURE,
    band_of,
    by_reading,
    capacity,
    deciding,
    headline,
    model,
    phases,
    pick,
    rates,
)
from storrepro.papers.tofec.config import FORCED, PILOT_BANDS_RETIRED, READINGS, TofecConfig
from storrepro.suite.bands import VOCABULARY, entry_of
from storrepro.suite.table import _slug, band_entries

MODULES = (model, capacity, rates, phases)


def near(x, spread=0.005, n=5):
    """``n`` replicates around ``x`` (mean exactly ``x``)."""
    return x + spread * np.linspace(-1, 1, n)


def test_every_claim_has_one_row_one_measure_and_its_band_from_the_papers_words():
    ids = [row.id for m in MODULES for row in m.TABLE]
    assert len(ids) == len(set(ids)) == 50
    for m in MODULES:
        for row in m.TABLE:
            assert hasattr(m, f"measure_{_slug(row.id)}"), row.id
            for band in row.bands().values():
                assert entry_of(band.source) in VOCABULARY and band.words == row.words
            assert row.role != "test" or row.bands(), f"{row.id}: a test claim needs a band"
    assert band_of(rates.TABLE, "B5-mean").high == pytest.approx(1.15)
    assert headline.HEADLINE_CORE == ("B3-0.95-TOFEC", "B5-mean", "B5-median", "B9d")


def test_the_register_writes_each_band_once_from_its_row():
    entries = band_entries(rates.TABLE, rates.__name__)
    assert entries["B7-envelope band"]["quote"].startswith("TOFEC's STD 'matches with the best")
    assert entries["B5-mean band"]["symbol"] == "storrepro.papers.tofec.claims.rates:TABLE"
    assert not any(name.endswith("_band") for name in FORCED)  # none typed in the config
    assert {"b1_paper", "b2_targets", "b4_targets", "pilot_bands"} <= set(FORCED)


def test_the_retired_pilot_bands_are_stated_once_in_the_register():
    entry = FORCED["pilot_bands"]
    assert entry.value == PILOT_BANDS_RETIRED
    assert "B5-mean ≤ 1.15× at every λ — reproduced" in entry.value
    assert "B2-fixedk (≤ 0.45·C_full accepted as partly)" in entry.value
    assert set(entry.decides) >= {"B5-mean", "B8-top2", "B9d"}


def test_the_deciding_rate_is_the_worst_verdict_then_the_furthest_mean():
    band = band_of(rates.TABLE, "B5-mean")
    key, u, table = deciding(band, {2.0: near(1.0), 10.0: near(1.10), 20.0: near(1.3)}, "r")
    assert key == 20.0 and table[20.0]["verdict"] == "not reproduced"
    assert u["n"] == 5 and u["mean"] == pytest.approx(1.3)
    key, _, table = deciding(band, {2.0: near(1.0), 10.0: near(1.15, 0.05)}, "r")
    assert key == 10.0 and table[10.0]["verdict"] == "inconclusive"
    assert deciding(band, {2.0: near(1.0), 10.0: near(1.12)}, "r")[0] == 10.0  # nearest an edge
    with pytest.raises(ValueError, match="no replicates"):
        deciding(band, {}, "r")


def test_pick_and_the_inputs_under_each_reading():
    assert [r.id for r in pick(model.TABLE, "A6", "A1")] == ["A6", "A1"]
    with pytest.raises(ValueError, match=r"no claim rows \['A9'\]"):
        pick(model.TABLE, "A9")
    under = by_reading(TofecConfig(profile="quick"), {"grid": 1, "alpha": 0.9}, grid=2)
    assert under["alpha=0.99"] == {"grid": 1, "alpha": 0.99} and under[PURE]["grid"] == 2
    assert set(by_reading(TofecConfig(profile="quick"), {})) == {
        "alpha=0.5", "alpha=0.95", "alpha=0.99"}


def test_readings_declared():
    assert READINGS["ideal_decision_point"].primary == "head_of_line"
    assert "right after arrival rate drops" in READINGS["ideal_decision_point"].paper_words
    assert "56bda95" in READINGS["ideal_decision_point"].argument  # the dated tolerance change
    assert READINGS["alpha"].primary == "0.9" and "0.99" in READINGS["alpha"].others()
    assert "compromise between how B8-top2" in READINGS["alpha"].argument
    assert READINGS["phase2_load"].primary == "0.98"
    assert READINGS["phase2_load"].others() == ["1.03", "0.95"]
    assert TofecConfig.readings is READINGS
